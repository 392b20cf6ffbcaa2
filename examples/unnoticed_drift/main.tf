# Three objects a reconciliation loop is trusted to keep in place. Delete any
# of them out of band and the next plan should recreate it; for one of them,
# on this stack (AWS provider 3.39 + moto), it never does.
#
# A deleted Secrets Manager secret is not gone at once: it is scheduled for
# deletion (a recovery window of 7-30 days) and DescribeSecret still answers,
# with a DeletedDate. Provider 3.39 only drops the secret from state on
# ResourceNotFound, so refresh keeps it, every plan is empty, and nothing
# anybody reads says the secret is gone. `--converge-drift=delete` reports it
# as `unnoticed-drift`.
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "events" {
  name = "unnoticed-events"
}

resource "aws_ssm_parameter" "endpoint" {
  name  = "/unnoticed/endpoint"
  type  = "String"
  value = "https://example.internal"
}

resource "aws_secretsmanager_secret" "api_key" {
  name = "unnoticed-api-key"
}
