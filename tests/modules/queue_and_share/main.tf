# A queue and a RAM resource share. MiniStack serves SQS and no RAM (it answers
# "Unsupported service: ram"): on it the share is left untested and the queue judged.
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_ram_resource_share" "shared" {
  name                      = "shared"
  allow_external_principals = false
}
