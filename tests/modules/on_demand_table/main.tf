# A DynamoDB table (and index) with a cap on its on-demand throughput
# (aws >= 5.49). AWS keeps OnDemandThroughput and DescribeTable returns it;
# moto 5.2 drops it, which made this converging module look like two
# permanent diffs until the fidelity layer kept it (dynamodb.on-demand-throughput).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"

  attribute {
    name = "id"
    type = "S"
  }

  attribute {
    name = "customer"
    type = "S"
  }

  on_demand_throughput {
    max_read_request_units  = 100
    max_write_request_units = 50
  }

  global_secondary_index {
    name            = "by-customer"
    hash_key        = "customer"
    projection_type = "ALL"

    on_demand_throughput {
      max_read_request_units  = 10
      max_write_request_units = 5
    }
  }
}
