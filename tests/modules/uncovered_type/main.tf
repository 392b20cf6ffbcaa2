# A log stream is a type no built-in lister covers: a fault scenario must say
# that its leftovers were not looked for, instead of passing silently.
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "jobs" {
  name = "coverage-jobs"
}

resource "aws_cloudwatch_log_group" "app" {
  name = "/coverage/app"
}

resource "aws_cloudwatch_log_stream" "web" {
  name           = "web"
  log_group_name = aws_cloudwatch_log_group.app.name
}
