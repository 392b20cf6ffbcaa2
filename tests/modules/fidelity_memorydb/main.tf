# A MemoryDB user, an ACL holding it and a parameter group, as
# terraform-aws-modules/memory-db's complete example declares them. moto 5.2
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
