# A network with a queue: a lost CreateVpc response leaves a second VPC behind
# (CreateVpc is not idempotent), a lost CreateQueue response leaves nothing.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.40.0.0/16"
}

resource "aws_subnet" "app" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.40.1.0/24"
}

resource "aws_sqs_queue" "jobs" {
  name = "network-jobs"
}
