# One security group, twenty separate aws_security_group_rule resources on it,
# and one bucket tag value the API drops (an empty string) so the second plan is not empty.
# Refresh then reads the group's `ingress` with the twenty rules its siblings
# added: drift that did not contribute to the planned change.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "this" {
  name   = "web"
  vpc_id = aws_vpc.main.id
}

resource "aws_s3_bucket" "logs" {
  bucket = "web-logs"
  tags = {
    retention = ""
  }
}

resource "aws_security_group_rule" "ingress" {
  count             = 20
  type              = "ingress"
  security_group_id = aws_security_group.this.id
  protocol          = "tcp"
  from_port         = 8000 + count.index
  to_port           = 8000 + count.index
  cidr_blocks       = ["10.0.${count.index}.0/24"]
}
