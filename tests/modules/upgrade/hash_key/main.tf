# The table keyed by another attribute: DynamoDB replaces the table.
provider "aws" {
  region = "us-east-1"
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "order_id"
  attribute {
    name = "order_id"
    type = "S"
  }
}

resource "aws_sqs_queue" "jobs" {
  name                      = "jobs"
  message_retention_seconds = 86400
}
