# Two queues whose redrive policy never converges on this stack: the API
# (moto here) answers the document in another form than the one declared,
# so every plan shows a change. pytest-converge says which form, and why.
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "dead_letters" {
  name = "orders-dead-letters"
}

# The count is declared as a string; the API stores and returns a number.
resource "aws_sqs_queue" "orders" {
  name = "orders"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dead_letters.arn
    maxReceiveCount     = "3"
  })
}

# Declared right, but the API answers the same JSON with other spacing:
# equivalent documents that never compare equal as strings.
resource "aws_sqs_queue" "payments" {
  name = "payments"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dead_letters.arn
    maxReceiveCount     = 5
  })
}

# An empty tag value: the API drops the tag, so the declared "" is never read
# back. pytest-converge classifies it as a `default` diff.
resource "aws_s3_bucket" "archive" {
  bucket = "orders-archive"
  tags = {
    retention = ""
  }
}
