# An SQS queue and an ElastiCache parameter group: moto 5.2.5 has no
# CreateCacheParameterGroup, MiniStack serves it (tests/integration/test_ministack_backend.py).
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "jobs" {
  name                      = "converge-jobs"
  message_retention_seconds = 86400
}

resource "aws_elasticache_parameter_group" "redis" {
  name        = "converge-redis"
  family      = "redis7"
  description = "converge test"

  parameter {
    name  = "maxmemory-policy"
    value = "allkeys-lru"
  }
}
