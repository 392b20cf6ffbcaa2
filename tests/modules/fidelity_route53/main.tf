# Route 53 operations moto 5.2 lacks (the fidelity layer's route53.cidr-collections and
# route53.vpc-association-authorizations): a CIDR collection with a location, and a
# private zone authorizing a VPC to be associated with it.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.30.0.0/16"
}

resource "aws_route53_zone" "private" {
  name = "private.example"

  vpc {
    vpc_id = aws_vpc.this.id
  }
}

resource "aws_route53_vpc_association_authorization" "this" {
  zone_id    = aws_route53_zone.private.zone_id
  vpc_id     = "vpc-0123456789abcdef0"
  vpc_region = "us-west-2"
}

resource "aws_route53_cidr_collection" "this" {
  name = "offices"
}

resource "aws_route53_cidr_location" "paris" {
  cidr_collection_id = aws_route53_cidr_collection.this.id
  name               = "paris"
  cidr_blocks        = ["10.1.0.0/24", "10.2.0.0/24"]
}

output "zone_id" {
  value = aws_route53_zone.private.zone_id
}
