# A module one resource of which the emulator cannot serve: moto has no code for
# ec2:CreateSpotDatafeedSubscription. The queue that names the subscription waits on
# it; the other queue does not, and is applied and judged as usual.
provider "aws" {
  region = "us-east-1"
}

resource "aws_spot_datafeed_subscription" "spare" {
  bucket = "spot-datafeed"
}

resource "aws_sqs_queue" "waiting" {
  name = "waiting"
  tags = {
    subscription = aws_spot_datafeed_subscription.spare.id
  }
}

resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = 60
}
