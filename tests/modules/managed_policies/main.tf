# Roles and groups that attach AWS-managed policies, as most real IAM modules do.
provider "aws" {
  region = "us-east-1"
}

resource "aws_iam_role" "admin" {
  name = "break-glass-admin"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { AWS = "arn:aws:iam::123456789012:root" }
    }]
  })
}

resource "aws_iam_role_policy_attachment" "admin" {
  role       = aws_iam_role.admin.name
  policy_arn = "arn:aws:iam::aws:policy/AdministratorAccess"
}

resource "aws_iam_group" "storage" {
  name = "storage-operators"
}

resource "aws_iam_group_policy_attachment" "storage" {
  group      = aws_iam_group.storage.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonS3FullAccess"
}
