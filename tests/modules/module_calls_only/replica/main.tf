provider "aws" {
  region = "eu-west-1"
}

resource "aws_cloudwatch_log_group" "replica" {
  name = "converge-calls-only-replica"
}
