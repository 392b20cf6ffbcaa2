# EC2 resources whose operations moto 5.2 has no code for, as
# terraform-aws-modules/ec2-instance's and autoscaling's complete examples
# declare them: a targeted capacity reservation (ec2.capacity-reservations) and
# a cluster placement group with an instance in it (ec2.placement-groups). On
# moto as released the plugin leaves each untested.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_ec2_capacity_reservation" "this" {
  instance_type           = "t3.micro"
  instance_platform       = "Linux/UNIX"
  availability_zone       = "eu-west-1a"
  instance_count          = 1
  instance_match_criteria = "targeted"

  tags = {
    Name = "fidelity"
  }
}

resource "aws_placement_group" "web" {
  name     = "fidelity-web"
  strategy = "cluster"

  tags = {
    Name = "fidelity"
  }
}

resource "aws_instance" "web" {
  ami             = "ami-1e749f67"
  instance_type   = "c5.large"
  placement_group = aws_placement_group.web.id
}

output "capacity_reservation_id" {
  value = aws_ec2_capacity_reservation.this.id
}
