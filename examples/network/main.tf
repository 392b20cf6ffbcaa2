# A small estate that converges: a second plan after apply is empty.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 3.39, < 6.0"
    }
  }
}

provider "aws" {
  region = var.region
}

variable "region" {
  type    = string
  default = "us-east-1"
}

variable "name" {
  type    = string
  default = "converge-demo"
}

resource "aws_vpc" "main" {
  cidr_block = "10.20.0.0/16"
  tags = {
    Name = var.name
  }
}

resource "aws_subnet" "app" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.20.1.0/24"
  tags = {
    Name = "${var.name}-app"
  }
}

resource "aws_security_group" "app" {
  name        = "${var.name}-app"
  description = "app tier"
  vpc_id      = aws_vpc.main.id

  ingress {
    description = "https"
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.20.0.0/16"]
  }
}

resource "aws_s3_bucket" "artifacts" {
  bucket = "${var.name}-artifacts"
}

resource "aws_sqs_queue" "jobs" {
  name                       = "${var.name}-jobs"
  visibility_timeout_seconds = 60
}

resource "aws_iam_role" "worker" {
  name = "${var.name}-worker"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "ec2.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_dynamodb_table" "locks" {
  name         = "${var.name}-locks"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "LockID"

  attribute {
    name = "LockID"
    type = "S"
  }
}

output "vpc_id" {
  value = aws_vpc.main.id
}

output "queue_url" {
  value = aws_sqs_queue.jobs.id
}
