provider "aws" {
  region = "eu-west-1"
}

resource "aws_sqs_queue" "replica" {
  name = "converge-calls-only-replica"
}
