# aws 5.x: a function that logs JSON. AWS keeps the LoggingConfig and
# GetFunction returns it; moto 5.2.5's lambda backend never reads it, and no
# catalogue entry names it.
provider "aws" {
  region = "us-east-1"
}

resource "aws_iam_role" "worker" {
  name = "converge-json-worker"
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
  bucket = "converge-json-worker-code"
}

# index.py (def handler(event, context): return event), zipped.
resource "aws_s3_object" "code" {
  bucket         = aws_s3_bucket.code.id
  key            = "worker.zip"
  content_base64 = "UEsDBBQAAAAAAAAAIVC0CHBpLgAAAC4AAAAIAAAAaW5kZXgucHlkZWYgaGFuZGxlcihldmVudCwgY29udGV4dCk6CiAgICByZXR1cm4gZXZlbnQKUEsBAhQDFAAAAAAAAAAhULQIcGkuAAAALgAAAAgAAAAAAAAAAAAAAIABAAAAAGluZGV4LnB5UEsFBgAAAAABAAEANgAAAFQAAAAAAA=="
}

resource "aws_lambda_function" "worker" {
  function_name = "converge-json-worker"
  role          = aws_iam_role.worker.arn
  handler       = "index.handler"
  runtime       = "python3.12"
  s3_bucket     = aws_s3_object.code.bucket
  s3_key        = aws_s3_object.code.key

  logging_config {
    log_format            = "JSON"
    application_log_level = "INFO"
    system_log_level      = "WARN"
  }
}
