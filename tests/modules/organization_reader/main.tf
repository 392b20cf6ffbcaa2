# Reads the organization the account belongs to, as modules that build ARNs or
# resource policies from the organization id do. Most AWS accounts belong to
# one; moto 5.2's account belongs to none ("couldn't find resource") until the
# fidelity layer made every account a member (organizations.member-account).
provider "aws" {
  region = "us-east-1"
}

data "aws_organizations_organization" "this" {}

data "aws_caller_identity" "this" {}

resource "aws_ssm_parameter" "organization" {
  name  = "/org/id"
  type  = "String"
  value = data.aws_organizations_organization.this.id
}

output "organization_arn" {
  value = data.aws_organizations_organization.this.arn
}

output "management_account" {
  value = data.aws_organizations_organization.this.master_account_id
}

output "is_management_account" {
  value = data.aws_organizations_organization.this.master_account_id == data.aws_caller_identity.this.account_id
}
