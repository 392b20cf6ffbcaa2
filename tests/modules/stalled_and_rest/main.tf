# One resource the emulator stalls on (a DynamoDB replica moto never lists: the
# provider polls DescribeTable), one that depends on it, and the rest of a module
# with a finding of its own. After the stall watch cuts the wait, the second plan
# and the inventory still check the rest: the security group's repeated CIDR is a
# permanent diff; the table is part of the `stalled` finding; the queue, never
# reached, is named there as not checked.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.30.0.0/16"
}

resource "aws_security_group" "ssh" {
  name   = "ssh"
  vpc_id = aws_vpc.main.id

  ingress {
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = ["10.0.0.0/8", "10.30.0.0/16", "10.0.0.0/8"]
  }
}

resource "aws_dynamodb_table" "global" {
  name             = "global"
  hash_key         = "id"
  billing_mode     = "PAY_PER_REQUEST"
  stream_enabled   = true
  stream_view_type = "NEW_AND_OLD_IMAGES"

  attribute {
    name = "id"
    type = "S"
  }

  replica {
    region_name = "eu-west-2"
  }

  # After the VPC and its security group: a fault on CreateVpc fires before the stall.
  tags = {
    vpc   = aws_vpc.main.id
    group = aws_security_group.ssh.id
  }
}

resource "aws_sqs_queue" "events" {
  name = "${aws_dynamodb_table.global.name}-events"
}
