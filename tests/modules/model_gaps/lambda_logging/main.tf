# aws 5.x: a function that logs JSON. AWS keeps the LoggingConfig and
# GetFunction returns it; moto 5.2.5's lambda backend never reads it, and no
# catalogue entry names it.
provider "aws" {
  region = "us-east-1"
}

module "code" {
  source = "../worker_code"
  name   = "converge-json-worker"
}

resource "aws_lambda_function" "worker" {
  function_name = "converge-json-worker"
  role          = module.code.role_arn
  handler       = "index.handler"
  runtime       = "python3.12"
  s3_bucket     = module.code.bucket
  s3_key        = module.code.key

  logging_config {
    log_format            = "JSON"
    application_log_level = "INFO"
    system_log_level      = "WARN"
  }
}
