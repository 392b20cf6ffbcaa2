# Four independent queues: terraform may create them in any order, so the
# n-th CreateQueue of a run is any one of them. A crash after a `name_prefix`
# queue's CreateQueue leaves an orphan (the re-run makes a queue of another
# name); after a fixed `name` queue's it leaves nothing (SQS answers the
# re-run's CreateQueue with the queue that exists).
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "alpha" {
  name_prefix = "alpha-"
}

resource "aws_sqs_queue" "bravo" {
  name = "bravo"
}

resource "aws_sqs_queue" "charlie" {
  name_prefix = "charlie-"
}

resource "aws_sqs_queue" "delta" {
  name = "delta"
}
