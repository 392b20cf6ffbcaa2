# Sorted after pytest-converge's own override, so it wins: SQS goes to AWS.
provider "aws" {
  max_retries = 25
  endpoints {
    sqs = "https://sqs.us-east-1.amazonaws.com"
  }
}
