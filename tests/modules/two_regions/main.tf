# A module in eu-west-1 with a second provider configuration in us-west-2,
# the layout of many public modules (replication, DR, ACM for CloudFront).
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

resource "aws_s3_bucket" "replica" {
  provider = aws.west
  bucket   = "converge-two-regions-replica"
}
