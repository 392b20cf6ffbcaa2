# aws 5.x: an on-demand table with its maximum throughput. AWS keeps
# OnDemandThroughput and DescribeTable returns it; moto 5.2.5's dynamodb
# backend never reads it, so each plan wants it back. No catalogue entry names
# it: the finding is suspected from botocore's model and moto's source.
provider "aws" {
  region = "us-east-1"
}

resource "aws_dynamodb_table" "events" {
  name         = "converge-on-demand"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }

  on_demand_throughput {
    max_read_request_units  = 100
    max_write_request_units = 50
  }
}
