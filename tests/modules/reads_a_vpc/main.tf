# A module that joins a VPC it does not make, found by its Name tag, as many
# modules and public modules' examples do (a shared network, a hosted zone, a
# key pair made elsewhere): every run starts from an emptied emulator, so the
# VPC must be made for it (the pytest_converge_world hook).
provider "aws" {
  region = "eu-west-1"
}

data "aws_vpc" "shared" {
  tags = {
    Name = "shared"
  }
}

resource "aws_security_group" "app" {
  name   = "app"
  vpc_id = data.aws_vpc.shared.id
}
