# Sorted after pytest-converge's own override, so it wins: SQS goes to AWS (its
# endpoints block replaces the plugin's whole; the account id is not asked for, as the
# plugin's own override says too).
provider "aws" {
  max_retries                = 25
  skip_requesting_account_id = true
  endpoints {
    sqs = "https://sqs.us-east-1.amazonaws.com"
  }
}
