# A certificate validated by email, as terraform-aws-modules/acm's
# complete-email-validation example requests it. moto 5.2 as released answers
# every certificate as DNS-validated, so validation_method reads back "DNS" and the
# certificate is replaced on every plan.
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_acm_certificate" "site" {
  domain_name               = "example.org"
  subject_alternative_names = ["*.example.org"]
  validation_method         = "EMAIL"
}

output "validation_emails" {
  value = aws_acm_certificate.site.validation_emails
}
