# A value the embedded moto accepts and keeps nothing of, although AWS keeps
# it: on this stack it looks like a permanent diff of a correct module. It is
# an entry of pytest_converge/data/emulator_gaps.json (one the fidelity layer
# does not model), and this module is its reproduction
# (tests/integration/test_emulator_gaps.py).
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.1.0.0/16"
}

resource "aws_ec2_managed_prefix_list" "office" {
  name           = "office"
  address_family = "IPv4"
  max_entries    = 2
  entry {
    cidr = "192.168.0.0/24"
  }
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id
}

# AWS keeps a prefix-list rule's description (PrefixListIds[].Description);
# moto drops it.
resource "aws_security_group_rule" "office" {
  type              = "ingress"
  security_group_id = aws_security_group.web.id
  protocol          = "tcp"
  from_port         = 443
  to_port           = 443
  prefix_list_ids   = [aws_ec2_managed_prefix_list.office.id]
  description       = "office"
}
