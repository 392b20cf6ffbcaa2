# An API moto 5.2 does not implement at all (CodeArtifact): it answers an HTML
# error page, which the provider shows as a hex dump. pytest-converge names
# the operation instead.
provider "aws" {
  region = "us-east-1"
}

data "aws_codeartifact_authorization_token" "packages" {
  domain = "packages"
}
