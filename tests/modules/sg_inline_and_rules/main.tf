# The one-writer-per-field mistake: the group declares its ingress inline
# (empty), and two separate rule resources add ingress rules to it. Each apply
# of the group removes the rules; the next apply of the rules re-creates them.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "this" {
  name    = "web"
  vpc_id  = aws_vpc.main.id
  ingress = []
}

resource "aws_security_group_rule" "ingress" {
  count             = 2
  type              = "ingress"
  security_group_id = aws_security_group.this.id
  protocol          = "tcp"
  from_port         = 8000 + count.index
  to_port           = 8000 + count.index
  cidr_blocks       = ["10.0.${count.index}.0/24"]
}
