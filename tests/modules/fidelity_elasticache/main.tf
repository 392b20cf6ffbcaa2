# A Redis OSS replication group on its own parameter group, and a user group, as
# terraform-aws-modules/elasticache's redis-replication-group example and its
# user-group module declare them. moto 5.2 has no CacheParameterGroup and no
# UserGroup operation (elasticache.cache-parameter-groups, elasticache.user-groups).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_elasticache_parameter_group" "this" {
  name        = "ex-replication-group"
  family      = "redis7"
  description = "Ex-replication-group parameter group"

  parameter {
    name  = "latency-tracking"
    value = "yes"
  }

  parameter {
    name  = "maxmemory-policy"
    value = "allkeys-lru"
  }

  tags = {
    Example = "fidelity"
  }
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.0.1.0/24"
  availability_zone = "eu-west-1a"
}

resource "aws_elasticache_subnet_group" "this" {
  name        = "ex-replication-group"
  description = "Ex-replication-group subnet group"
  subnet_ids  = [aws_subnet.this.id]
}

resource "aws_security_group" "this" {
  name   = "ex-replication-group"
  vpc_id = aws_vpc.this.id
}

resource "aws_elasticache_replication_group" "this" {
  replication_group_id       = "ex-replication-group"
  description                = "fidelity"
  engine_version             = "7.1"
  node_type                  = "cache.t4g.small"
  parameter_group_name       = aws_elasticache_parameter_group.this.name
  subnet_group_name          = aws_elasticache_subnet_group.this.name
  security_group_ids         = [aws_security_group.this.id]
  num_cache_clusters         = 2
  transit_encryption_enabled = true
  auth_token                 = "PickSomethingMoreSecure123!"
  maintenance_window         = "sun:05:00-sun:09:00"
  apply_immediately          = true

  tags = {
    Example = "fidelity"
  }
}

resource "aws_elasticache_user" "default" {
  user_id              = "ex-default"
  user_name            = "default"
  access_string        = "on ~* +@read"
  engine               = "REDIS"
  no_password_required = true
}

resource "aws_elasticache_user" "app" {
  user_id       = "ex-app"
  user_name     = "app"
  access_string = "on ~app:* +@all"
  engine        = "REDIS"
  passwords     = ["PickSomethingMoreSecure123!"]
}

resource "aws_elasticache_user_group" "this" {
  engine        = "REDIS"
  user_group_id = "ex-user-group"
  user_ids      = [aws_elasticache_user.default.user_id]

  tags = {
    Example = "fidelity"
  }

  lifecycle {
    ignore_changes = [user_ids]
  }
}

resource "aws_elasticache_user_group_association" "app" {
  user_group_id = aws_elasticache_user_group.this.user_group_id
  user_id       = aws_elasticache_user.app.user_id
}

# As terraform-aws-modules/elasticache's serverless-cache example declares it.
resource "aws_elasticache_serverless_cache" "this" {
  engine               = "redis"
  name                 = "ex-serverless"
  description          = "Ex-serverless serverless cache"
  major_engine_version = "7"

  cache_usage_limits {
    data_storage {
      maximum = 2
      unit    = "GB"
    }
    ecpu_per_second {
      maximum = 1000
    }
  }

  daily_snapshot_time      = "22:00"
  snapshot_retention_limit = 7
  user_group_id            = aws_elasticache_user_group.this.user_group_id

  tags = {
    Example = "fidelity"
  }
}
