# AWS App Runner, a service moto 5.2 lacks (the fidelity layer's apprunner.service): a
# private image service behind a VPC ingress connection, with its own auto scaling and
# observability configurations, a VPC connector for its egress, and a GitHub connection.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.41.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.41.1.0/24"
}

resource "aws_security_group" "this" {
  name   = "apprunner-egress"
  vpc_id = aws_vpc.this.id
}

resource "aws_vpc_endpoint" "requests" {
  vpc_id              = aws_vpc.this.id
  service_name        = "com.amazonaws.us-east-1.apprunner.requests"
  vpc_endpoint_type   = "Interface"
  subnet_ids          = [aws_subnet.this.id]
  security_group_ids  = [aws_security_group.this.id]
  private_dns_enabled = false
}

resource "aws_apprunner_connection" "github" {
  connection_name = "github"
  provider_type   = "GITHUB"
}

resource "aws_apprunner_auto_scaling_configuration_version" "this" {
  auto_scaling_configuration_name = "mini"
  max_concurrency                 = 20
  max_size                        = 5
  min_size                        = 1
}

resource "aws_apprunner_observability_configuration" "this" {
  observability_configuration_name = "traced"

  trace_configuration {
    vendor = "AWSXRAY"
  }
}

resource "aws_apprunner_vpc_connector" "this" {
  vpc_connector_name = "egress"
  subnets            = [aws_subnet.this.id]
  security_groups    = [aws_security_group.this.id]
}

resource "aws_apprunner_service" "this" {
  service_name                   = "private-app"
  auto_scaling_configuration_arn = aws_apprunner_auto_scaling_configuration_version.this.arn

  source_configuration {
    auto_deployments_enabled = false

    image_repository {
      image_identifier      = "public.ecr.aws/aws-containers/hello-app-runner:latest"
      image_repository_type = "ECR_PUBLIC"

      image_configuration {
        port = "8000"
      }
    }
  }

  network_configuration {
    ingress_configuration {
      is_publicly_accessible = false
    }

    egress_configuration {
      egress_type       = "VPC"
      vpc_connector_arn = aws_apprunner_vpc_connector.this.arn
    }
  }

  observability_configuration {
    observability_configuration_arn = aws_apprunner_observability_configuration.this.arn
    observability_enabled           = true
  }
}

resource "aws_apprunner_vpc_ingress_connection" "this" {
  name        = "private-app"
  service_arn = aws_apprunner_service.this.arn

  ingress_vpc_configuration {
    vpc_id          = aws_vpc.this.id
    vpc_endpoint_id = aws_vpc_endpoint.requests.id
  }
}

output "service_arn" {
  value = aws_apprunner_service.this.arn
}
