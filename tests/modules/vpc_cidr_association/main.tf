# A VPC with a secondary IPv4 CIDR block. MiniStack serves EC2 and has no
# AssociateVpcCidrBlock: the pre-flight names the association before any apply, the
# VPC is judged. moto serves both.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.40.0.0/16"
}

resource "aws_vpc_ipv4_cidr_block_association" "extra" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.41.0.0/16"
}
