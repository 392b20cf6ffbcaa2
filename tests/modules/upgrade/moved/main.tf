# The queue renamed, with the moved block that keeps it.
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

moved {
  from = aws_sqs_queue.jobs
  to   = aws_sqs_queue.work
}
