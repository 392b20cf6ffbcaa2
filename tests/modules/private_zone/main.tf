# A private hosted zone, created with its VPC as terraform-aws-modules/route53's
# complete example makes one. moto 5.2 as released makes the zone public
# (CreateHostedZone ignores its VPC): the vpc block reads back empty, a permanent
# diff, and a second VPC's association is refused. (One zone: aws 3.39 waits 30 s
# after each Route 53 change before it asks whether the change is done.)
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

resource "aws_route53_zone" "internal" {
  name = "internal.example"

  vpc {
    vpc_id = aws_vpc.primary.id
  }
}

output "zone_id" {
  value = aws_route53_zone.internal.zone_id
}
