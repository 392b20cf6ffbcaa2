# aws 3.39: a function whose failed events go to a queue. AWS keeps the
# DeadLetterConfig and GetFunction returns it; moto 5.2.5's lambda backend
# never reads it, and no catalogue entry names it.
provider "aws" {
  region = "us-east-1"
}

module "code" {
  source = "../worker_code"
  name   = "converge-worker"
}

resource "aws_sqs_queue" "failed" {
  name = "converge-failed-events"
}

resource "aws_lambda_function" "worker" {
  function_name = "converge-worker"
  role          = module.code.role_arn
  handler       = "index.handler"
  runtime       = "python3.8"
  s3_bucket     = module.code.bucket
  s3_key        = module.code.key

  dead_letter_config {
    target_arn = aws_sqs_queue.failed.arn
  }
}
