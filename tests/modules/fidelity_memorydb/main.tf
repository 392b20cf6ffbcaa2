# A MemoryDB user, an ACL holding it, a parameter group and a cluster on both,
# as terraform-aws-modules/memory-db's complete example declares them. moto 5.2
# has no ACL and no ParameterGroup operation (memorydb.acls,
# memorydb.parameter-groups).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_memorydb_user" "admin" {
  user_name     = "admin"
  access_string = "on ~* &* +@all"

  authentication_mode {
    type      = "password"
    passwords = ["YouShouldPickAStrongSecurePassword987!"]
  }
}

resource "aws_memorydb_acl" "this" {
  name       = "ex-memorydb"
  user_names = [aws_memorydb_user.admin.user_name]

  tags = {
    Example = "fidelity"
  }
}

resource "aws_memorydb_parameter_group" "this" {
  name        = "ex-memorydb"
  family      = "memorydb_redis7"
  description = "Ex-memorydb parameter group"

  parameter {
    name  = "activedefrag"
    value = "yes"
  }

  tags = {
    Example = "fidelity"
  }
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_memorydb_subnet_group" "this" {
  name       = "ex-memorydb"
  subnet_ids = [aws_subnet.this.id]
}

# As the module's complete example declares it: on the ACL and parameter group above.
resource "aws_memorydb_cluster" "this" {
  name                     = "ex-memorydb"
  description              = "Example MemoryDB cluster"
  engine_version           = "7.1"
  node_type                = "db.t4g.small"
  num_shards               = 2
  num_replicas_per_shard   = 2
  acl_name                 = aws_memorydb_acl.this.id
  parameter_group_name     = aws_memorydb_parameter_group.this.id
  subnet_group_name        = aws_memorydb_subnet_group.this.id
  maintenance_window       = "sun:23:00-mon:01:30"
  snapshot_retention_limit = 7
  snapshot_window          = "05:00-09:00"
}
