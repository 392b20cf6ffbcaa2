variable "name" {
  type = string
}

resource "aws_sqs_queue" "after" {
  name = "${var.name}-after"
}

resource "aws_sqs_queue" "own" {
  name = "own"
}
