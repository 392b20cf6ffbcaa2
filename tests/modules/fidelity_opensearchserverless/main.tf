# OpenSearch Serverless operations moto 5.2 lacks or answers otherwise (the fidelity
# layer's opensearchserverless.*): a private collection behind a VPC endpoint, with its
# encryption (an AWS owned key), network and data access policies.
provider "aws" {
  region = "eu-west-1"
}

data "aws_caller_identity" "current" {}

resource "aws_vpc" "this" {
  cidr_block = "10.40.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.40.1.0/24"
}

resource "aws_opensearchserverless_vpc_endpoint" "this" {
  name       = "logs"
  vpc_id     = aws_vpc.this.id
  subnet_ids = [aws_subnet.this.id]
}

resource "aws_opensearchserverless_security_policy" "encryption" {
  name = "logs-encryption"
  type = "encryption"
  policy = jsonencode({
    Rules       = [{ ResourceType = "collection", Resource = ["collection/logs-*"] }]
    AWSOwnedKey = true
  })
}

resource "aws_opensearchserverless_security_policy" "network" {
  name = "logs-network"
  type = "network"
  policy = jsonencode([{
    Rules           = [{ ResourceType = "collection", Resource = ["collection/logs-app"] }]
    AllowFromPublic = false
    SourceVPCEs     = [aws_opensearchserverless_vpc_endpoint.this.id]
  }])
}

resource "aws_opensearchserverless_access_policy" "this" {
  name = "logs-access"
  type = "data"
  policy = jsonencode([{
    Rules = [
      { ResourceType = "index", Resource = ["index/logs-app/*"], Permission = ["aoss:*"] },
      { ResourceType = "collection", Resource = ["collection/logs-app"], Permission = ["aoss:*"] },
    ]
    Principal = [data.aws_caller_identity.current.arn]
  }])
}

resource "aws_opensearchserverless_collection" "this" {
  name = "logs-app"
  type = "SEARCH"

  depends_on = [
    aws_opensearchserverless_security_policy.encryption,
    aws_opensearchserverless_security_policy.network,
    aws_opensearchserverless_access_policy.this,
  ]
}

output "vpc_endpoint_id" {
  value = aws_opensearchserverless_vpc_endpoint.this.id
}
