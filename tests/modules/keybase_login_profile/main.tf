# A module that makes the provider fetch a PGP key from keybase.io at apply
# time: a test run must refuse that connection and report it as egress.
provider "aws" {
  region = "us-east-1"
}

resource "aws_iam_user" "developer" {
  name = "developer"
}

resource "aws_iam_user_login_profile" "developer" {
  user    = aws_iam_user.developer.name
  pgp_key = "keybase:someone"
}
