# An object whose body is a variable: a content change is one PutObject
# (aws_s3_bucket_object, the name on provider 3.x).
provider "aws" {
  region = "us-east-1"
}

variable "content" {
  type    = string
  default = "<h1>v1</h1>"
}

resource "aws_s3_bucket" "site" {
  bucket = "converge-world-site"
}

resource "aws_s3_bucket_object" "index" {
  bucket  = aws_s3_bucket.site.id
  key     = "index.html"
  content = var.content
}
