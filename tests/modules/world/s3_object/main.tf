# An object whose body is a variable: a content change is one PutObject
# (aws_s3_object, the name since provider 4.x).
provider "aws" {
  region = "us-east-1"
}

variable "content" {
  type = string
}

resource "aws_s3_bucket" "site" {
  bucket = "converge-world-site"
}

resource "aws_s3_object" "index" {
  bucket  = aws_s3_bucket.site.id
  key     = "index.html"
  content = var.content
}
