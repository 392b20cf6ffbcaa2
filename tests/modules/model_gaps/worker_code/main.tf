# What a function needs besides its own settings: a role it runs as and its
# code in a bucket (index.py: def handler(event, context): return event, zipped).
variable "name" {
  type = string
}

resource "aws_iam_role" "worker" {
  name = var.name
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Action    = "sts:AssumeRole"
      Principal = { Service = "lambda.amazonaws.com" }
    }]
  })
}

resource "aws_s3_bucket" "code" {
  bucket = "${var.name}-code"
}

resource "aws_s3_bucket_object" "code" {
  bucket         = aws_s3_bucket.code.id
  key            = "worker.zip"
  content_base64 = "UEsDBBQAAAAAAAAAIVC0CHBpLgAAAC4AAAAIAAAAaW5kZXgucHlkZWYgaGFuZGxlcihldmVudCwgY29udGV4dCk6CiAgICByZXR1cm4gZXZlbnQKUEsBAhQDFAAAAAAAAAAhULQIcGkuAAAALgAAAAgAAAAAAAAAAAAAAIABAAAAAGluZGV4LnB5UEsFBgAAAAABAAEANgAAAFQAAAAAAA=="
}

output "role_arn" {
  value = aws_iam_role.worker.arn
}

output "bucket" {
  value = aws_s3_bucket_object.code.bucket
}

output "key" {
  value = aws_s3_bucket_object.code.key
}
