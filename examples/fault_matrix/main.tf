# A messaging module that survives an apply dying at any of its API calls:
# every create it makes is idempotent, so a repeated run closes the gap.
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "dead_letters" {
  name = "invoices-dead-letters"
}

resource "aws_sqs_queue" "invoices" {
  name                       = "invoices"
  visibility_timeout_seconds = 120
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dead_letters.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sns_topic" "invoice_events" {
  name = "invoice-events"
}
