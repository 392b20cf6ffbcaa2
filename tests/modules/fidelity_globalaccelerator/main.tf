# AWS Global Accelerator, which moto 5.2 lacks (the fidelity layer's
# globalaccelerator.service): a standard accelerator with flow logs, a listener and an
# endpoint group on an Elastic IP, and a custom routing accelerator with a listener and
# an endpoint group on a subnet.
provider "aws" {
  region = "us-west-2"
}

resource "aws_s3_bucket" "flow_logs" {
  bucket = "ga-flow-logs"
}

resource "aws_eip" "this" {
  domain = "vpc"
}

resource "aws_vpc" "this" {
  cidr_block = "10.50.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.50.1.0/24"
}

resource "aws_globalaccelerator_accelerator" "this" {
  name = "standard"

  attributes {
    flow_logs_enabled   = true
    flow_logs_s3_bucket = aws_s3_bucket.flow_logs.id
    flow_logs_s3_prefix = "standard/"
  }

  tags = { Name = "standard" }
}

resource "aws_globalaccelerator_listener" "this" {
  accelerator_arn = aws_globalaccelerator_accelerator.this.id
  client_affinity = "SOURCE_IP"
  protocol        = "TCP"

  port_range {
    from_port = 80
    to_port   = 81
  }
}

resource "aws_globalaccelerator_endpoint_group" "this" {
  listener_arn = aws_globalaccelerator_listener.this.id

  endpoint_configuration {
    endpoint_id = aws_eip.this.allocation_id
    weight      = 100
  }

  port_override {
    listener_port = 80
    endpoint_port = 8080
  }
}

resource "aws_globalaccelerator_custom_routing_accelerator" "this" {
  name = "custom"

  attributes {
    flow_logs_enabled   = true
    flow_logs_s3_bucket = aws_s3_bucket.flow_logs.id
    flow_logs_s3_prefix = "custom/"
  }
}

resource "aws_globalaccelerator_custom_routing_listener" "this" {
  accelerator_arn = aws_globalaccelerator_custom_routing_accelerator.this.id

  port_range {
    from_port = 5000
    to_port   = 5100
  }
}

resource "aws_globalaccelerator_custom_routing_endpoint_group" "this" {
  listener_arn = aws_globalaccelerator_custom_routing_listener.this.id

  destination_configuration {
    from_port = 80
    to_port   = 81
    protocols = ["TCP"]
  }

  endpoint_configuration {
    endpoint_id = aws_subnet.this.id
  }
}

output "dns_name" {
  value = aws_globalaccelerator_accelerator.this.dns_name
}
