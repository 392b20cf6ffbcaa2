# A private hosted zone created with one VPC and associated with a second, as
# terraform-aws-modules/route53's complete example makes it. moto 5.2 as released
# makes the zone public (CreateHostedZone ignores its VPC) and refuses the association.
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "primary" {
  cidr_block = "10.20.0.0/16"
}

resource "aws_vpc" "secondary" {
  cidr_block = "10.21.0.0/16"
}

resource "aws_route53_zone" "internal" {
  name = "internal.example"

  vpc {
    vpc_id = aws_vpc.primary.id
  }

  # The second VPC is associated by its own resource.
  lifecycle {
    ignore_changes = [vpc]
  }
}

resource "aws_route53_zone_association" "secondary" {
  zone_id = aws_route53_zone.internal.zone_id
  vpc_id  = aws_vpc.secondary.id
}

resource "aws_route53_record" "api" {
  zone_id = aws_route53_zone.internal.zone_id
  name    = "api.internal.example"
  type    = "A"
  ttl     = 60
  records = ["10.20.0.10"]
}

output "zone_id" {
  value = aws_route53_zone.internal.zone_id
}
