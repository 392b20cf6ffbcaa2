# The new release adds a VPC in us-west-2 through an aliased provider.
provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_vpc" "main" {
  cidr_block = "10.40.0.0/16"
  tags = {
    Name = "primary"
  }
}

resource "aws_vpc" "dr" {
  provider   = aws.west
  cidr_block = "10.41.0.0/16"
  tags = {
    Name = "dr"
  }
}
