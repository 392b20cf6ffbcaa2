# Sorted after pytest-converge's own override, so it wins: SQS goes to AWS. Its
# endpoints block replaces the plugin's whole, so the account id is not asked for
# (that call would go to AWS's IAM and STS first).
provider "aws" {
  max_retries                = 25
  skip_requesting_account_id = true
  endpoints {
    sqs = "https://sqs.us-east-1.amazonaws.com"
  }
}
