# One instance in a subnet, as terraform-aws-modules/ec2-instance's examples
# declare it. AWS's DescribeInstances carries EnclaveOptions (false unless
# asked for); moto 5.2 leaves it out and aws 5.x then plans
# `enclave_options: [] -> [{enabled: null}]` on every run (ec2.instance-enclave-options).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "this" {
  ami           = "ami-1e749f67"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.this.id

  # As terraform-aws-modules/ec2-instance writes it (enclave_options_enabled
  # defaults to null).
  enclave_options {
    enabled = null
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 2
    instance_metadata_tags      = "enabled"
  }

  credit_specification {
    cpu_credits = "unlimited"
  }

  tags = {
    Name = "fidelity"
  }
}

resource "aws_instance" "enclave" {
  ami           = "ami-1e749f67"
  instance_type = "m5.xlarge"
  subnet_id     = aws_subnet.this.id

  enclave_options {
    enabled = true
  }
}

resource "aws_instance" "options" {
  ami           = "ami-1e749f67"
  instance_type = "m5.xlarge"
  subnet_id     = aws_subnet.this.id

  cpu_options {
    core_count       = 2
    threads_per_core = 1
  }

  capacity_reservation_specification {
    capacity_reservation_preference = "open"
  }

  maintenance_options {
    auto_recovery = "default"
  }

  private_dns_name_options {
    hostname_type                     = "ip-name"
    enable_resource_name_dns_a_record = true
  }
}

# No credit_specification: reads back t3's default (unlimited) and plans nothing.
resource "aws_instance" "plain" {
  ami           = "ami-1e749f67"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.this.id
}
