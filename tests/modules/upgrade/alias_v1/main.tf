# The released revision of a module in eu-west-1: one VPC.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.40.0.0/16"
  tags = {
    Name = "primary"
  }
}
