variable "name" {
  type = string
}

variable "visibility_timeout" {
  type = number
}

resource "aws_sqs_queue" "this" {
  name                       = "gate-${var.name}"
  visibility_timeout_seconds = var.visibility_timeout
}

output "url" {
  value = aws_sqs_queue.this.id
}
