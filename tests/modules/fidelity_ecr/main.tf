# The registry-level settings of terraform-aws-modules/ecr's complete example
# (aws 5.x): a registry policy that lets pull through cache import upstream
# images, and pull through cache rules for a public, a credentialed and a
# private upstream, with the repository creation template those repositories
# get. moto 5.2 refuses the policy's ecr:BatchImportUpstreamImage
# and has neither pull through cache rules nor creation templates
# (ecr.registry-policy-scope, ecr.repository-creation-template,
# ecr.pull-through-cache-rule). The example's scanning and replication
# configurations are left out: their ID is the provider's account ID, which the
# plugin's skip_requesting_account_id leaves empty (see docs/emulator-gaps.md).
provider "aws" {
  region = "eu-west-1"
}

data "aws_caller_identity" "current" {}

locals {
  account_id = data.aws_caller_identity.current.account_id
}

data "aws_iam_policy_document" "registry" {
  statement {
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${local.account_id}:root"]
    }
    actions   = ["ecr:ReplicateImage"]
    resources = ["arn:aws:ecr:eu-west-1:${local.account_id}:repository/*"]
  }

  statement {
    sid = "dockerhub"
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${local.account_id}:root"]
    }
    actions   = ["ecr:CreateRepository", "ecr:BatchImportUpstreamImage"]
    resources = ["arn:aws:ecr:eu-west-1:${local.account_id}:repository/dockerhub/*"]
  }
}

resource "aws_ecr_registry_policy" "this" {
  policy = data.aws_iam_policy_document.registry.json
}

resource "aws_secretsmanager_secret" "dockerhub" {
  name_prefix             = "ecr-pullthroughcache/dockerhub-credentials"
  recovery_window_in_days = 0
}

resource "aws_secretsmanager_secret_version" "dockerhub" {
  secret_id     = aws_secretsmanager_secret.dockerhub.id
  secret_string = jsonencode({ username = "example", accessToken = "not-a-token" })
}

resource "aws_ecr_pull_through_cache_rule" "pub" {
  ecr_repository_prefix = "ecr-public"
  upstream_registry_url = "public.ecr.aws"
}

resource "aws_ecr_pull_through_cache_rule" "dockerhub" {
  ecr_repository_prefix = "dockerhub"
  upstream_registry_url = "registry-1.docker.io"
  credential_arn        = aws_secretsmanager_secret_version.dockerhub.arn
}

resource "aws_ecr_pull_through_cache_rule" "priv" {
  ecr_repository_prefix      = "ecr-complete"
  upstream_registry_url      = "${local.account_id}.dkr.ecr.us-west-2.amazonaws.com"
  upstream_repository_prefix = "myapp"
}

# modules/repository-template of the same project: what the pull through cache
# repositories under ecr-public/ are created with.
resource "aws_ecr_repository_creation_template" "ecr_public" {
  prefix        = "ecr-public"
  description   = "Pull through cache repository template for Public ECR artifacts"
  applied_for   = ["PULL_THROUGH_CACHE"]
  resource_tags = { Example = "ecr-complete" }

  lifecycle_policy = jsonencode({
    rules = [{
      rulePriority = 1
      description  = "Keep last 30 images"
      selection = {
        tagStatus     = "tagged"
        tagPrefixList = ["v"]
        countType     = "imageCountMoreThan"
        countNumber   = 30
      }
      action = { type = "expire" }
    }]
  })

  repository_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "PrivateReadOnly"
      Effect    = "Allow"
      Principal = { AWS = "arn:aws:iam::${local.account_id}:root" }
      Action    = ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]
    }]
  })
}
