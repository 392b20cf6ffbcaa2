# The queue renamed in the configuration (jobs -> work), without a moved block.
provider "aws" {
  region = "us-east-1"
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}

resource "aws_sqs_queue" "work" {
  name                      = "jobs"
  message_retention_seconds = 86400
}
