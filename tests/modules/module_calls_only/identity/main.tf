# STS and IAM: global services 5.x signs with endpoints of their own.
data "aws_caller_identity" "current" {}

resource "aws_iam_group" "readers" {
  name = "converge-calls-only-readers"
}

output "account_id" {
  value = data.aws_caller_identity.current.account_id
}
