# One queue whose visibility timeout comes from a variable: the loop tests
# change it out of band (an autoscaler, an engineer's console fix).
provider "aws" {
  region = "us-east-1"
}

variable "visibility_timeout" {
  type    = number
  default = 60
}

resource "aws_sqs_queue" "work" {
  name                       = "loop-work"
  visibility_timeout_seconds = var.visibility_timeout
}

output "queue_url" {
  value = aws_sqs_queue.work.id
}
