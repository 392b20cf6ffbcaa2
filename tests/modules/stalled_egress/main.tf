# A provider that sends SQS calls to the real AWS endpoint and retries a failed
# connection many times (see zz_endpoints_override.tf): the egress guard refuses
# each one, and without pytest-converge stopping it the apply would go on for
# minutes (the shape of aws 5.x signing STS calls of a module with no provider block).
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}
