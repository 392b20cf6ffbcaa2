# Values read back in another form than declared (moto 5.2 + aws provider 3.39): a
# maintenance window the provider lower-cases and moto answers as sent (AWS answers it
# lower-cased), and "\r\n" read back as "\n" (the XML answers of EC2 and IAM).
# Classified `case` and `whitespace`.
provider "aws" {
  region = "us-east-1"
}

resource "aws_rds_cluster" "db" {
  cluster_identifier           = "orders"
  engine                       = "aurora-mysql"
  master_username              = "admin"
  master_password              = "password123"
  skip_final_snapshot          = true
  preferred_maintenance_window = "Tue:00:00-Tue:03:00"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags = {
    Note = "line one\r\nline two"
  }
}

resource "aws_iam_role" "app" {
  name        = "app"
  description = "first line\r\nsecond line"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { Service = "ec2.amazonaws.com" }
    }]
  })
}
