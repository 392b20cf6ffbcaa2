# A module one resource of which the emulator cannot serve: moto has no code for
# ec2:CreateCapacityReservation. The queue that names the reservation waits on it;
# the other queue does not, and is applied and judged as usual.
provider "aws" {
  region = "us-east-1"
}

resource "aws_ec2_capacity_reservation" "spare" {
  instance_type     = "t3.micro"
  instance_platform = "Linux/UNIX"
  availability_zone = "us-east-1a"
  instance_count    = 1
}

resource "aws_sqs_queue" "waiting" {
  name = "waiting"
  tags = {
    reservation = aws_ec2_capacity_reservation.spare.id
  }
}

resource "aws_sqs_queue" "jobs" {
  name                       = "jobs"
  visibility_timeout_seconds = 60
}
