# A subnet shared with another account through AWS RAM, as
# terraform-aws-modules/vpc and transit-gateway share theirs: two resource
# shares (one tagged), a resource and a principal association.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.10.0.0/16"
}

resource "aws_subnet" "shared" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.10.1.0/24"
}

resource "aws_ram_resource_share" "subnets" {
  name                      = "shared-subnets"
  allow_external_principals = true

  tags = {
    Name = "shared-subnets"
  }
}

resource "aws_ram_resource_share" "other" {
  name = "other"
}

resource "aws_ram_resource_association" "subnet" {
  resource_arn       = aws_subnet.shared.arn
  resource_share_arn = aws_ram_resource_share.subnets.arn
}

resource "aws_ram_principal_association" "account" {
  principal          = "111111111111"
  resource_share_arn = aws_ram_resource_share.subnets.arn
}
