# A DynamoDB global table (version 2019.11.21) replica: moto 5.2 accepts the
# UpdateTable that creates it and never lists it, so AWS provider 3.39 polls
# DescribeTable against the same answer until terraform's timeout.
# pytest-converge stops the apply and names the call (a `stalled` finding).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_dynamodb_table" "global" {
  name             = "global"
  hash_key         = "id"
  billing_mode     = "PAY_PER_REQUEST"
  stream_enabled   = true
  stream_view_type = "NEW_AND_OLD_IMAGES"

  attribute {
    name = "id"
    type = "S"
  }

  replica {
    region_name = "eu-west-2"
  }
}
