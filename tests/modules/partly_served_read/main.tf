# A read the emulator cannot serve stops terraform's plan (moto has no CodeArtifact):
# the queue that uses the token, and the child module's queue named after that
# queue, wait on it; the rest of the module is applied and judged.
provider "aws" {
  region = "us-east-1"
}

data "aws_codeartifact_authorization_token" "packages" {
  domain = "packages"
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_sqs_queue" "token" {
  name = "token"
  tags = {
    prefix = substr(data.aws_codeartifact_authorization_token.packages.authorization_token, 0, 3)
  }
}

module "child" {
  source = "./child"
  name   = aws_sqs_queue.token.name
}
