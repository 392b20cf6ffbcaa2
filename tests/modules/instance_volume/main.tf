# terraform-aws-ec2-instance examples/volume-attachment, cut down: an instance with
# volume_tags, and a volume of its own (with tags) attached to it.
provider "aws" {
  region = "us-east-1"
}

variable "enclave_enabled" {
  type    = bool
  default = null
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.0.1.0/24"
  availability_zone = "us-east-1a"
}

resource "aws_security_group" "this" {
  name   = "web"
  vpc_id = aws_vpc.this.id
}

resource "aws_instance" "this" {
  ami                    = "ami-0123456789abcdef0"
  instance_type          = "t3.micro"
  subnet_id              = aws_subnet.this.id
  vpc_security_group_ids = [aws_security_group.this.id]
  volume_tags            = { Name = "web" }

  enclave_options {
    enabled = var.enclave_enabled
  }
}

resource "aws_ebs_volume" "this" {
  availability_zone = "us-east-1a"
  size              = 1
  tags              = { Name = "data" }
}

resource "aws_volume_attachment" "this" {
  device_name = "/dev/sdh"
  volume_id   = aws_ebs_volume.this.id
  instance_id = aws_instance.this.id
}
