# aws 5.x waits for GetQueueAttributes to return the RedriveAllowPolicy it set;
# moto 5.2 as released never returns it (the embedded server's fidelity layer
# does), so without pytest-converge stopping it the apply waits until
# terraform's timeout (600 s on terraform-aws-modules/sqs examples/complete).
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "dlq" {
  name = "dlq"
}

resource "aws_sqs_queue_redrive_allow_policy" "dlq" {
  queue_url = aws_sqs_queue.dlq.id
  redrive_allow_policy = jsonencode({
    redrivePermission = "allowAll"
  })
}
