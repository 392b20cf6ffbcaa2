# A work queue under a continuous reconciliation loop. Its visibility timeout
# is the field an on-call engineer raises from the console mid-incident.
provider "aws" {
  region = "us-east-1"
}

variable "visibility_timeout" {
  type    = number
  default = 60
}

resource "aws_sqs_queue" "work" {
  name                       = "work"
  visibility_timeout_seconds = var.visibility_timeout
}

output "queue_url" {
  value = aws_sqs_queue.work.id
}
