# An ALB listener whose default actions are declared out of their `order`, one of them
# with a sensitive member (the OIDC client secret): the API returns them sorted.
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "a" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.0.1.0/24"
  availability_zone = "us-east-1a"
}

resource "aws_subnet" "b" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.0.2.0/24"
  availability_zone = "us-east-1b"
}

resource "aws_lb" "this" {
  name               = "oidc"
  internal           = true
  load_balancer_type = "application"
  subnets            = [aws_subnet.a.id, aws_subnet.b.id]
}

resource "aws_lb_target_group" "this" {
  name     = "app"
  port     = 80
  protocol = "HTTP"
  vpc_id   = aws_vpc.this.id
}

resource "aws_lb_listener" "this" {
  load_balancer_arn = aws_lb.this.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type             = "forward"
    order            = 2
    target_group_arn = aws_lb_target_group.this.arn
  }

  default_action {
    type  = "authenticate-oidc"
    order = 1

    authenticate_oidc {
      authorization_endpoint = "https://idp.example.com/auth"
      client_id              = "app"
      client_secret          = "s3cret-value"
      issuer                 = "https://idp.example.com"
      token_endpoint         = "https://idp.example.com/token"
      user_info_endpoint     = "https://idp.example.com/userinfo"
    }
  }
}
