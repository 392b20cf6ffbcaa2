# terraform-aws-modules/efs's complete example, cut to aws 5.x: an encrypted
# file system with lifecycle policies, a file system policy, a mount target,
# two access points (a POSIX user; a root directory created with an owner) and
# automatic backups, replicated to eu-west-2. moto 5.2 has no PutBackupPolicy,
# no replication configurations and no file system protection
# (efs.backup-policy, efs.replication-configuration, efs.file-system-protection).
provider "aws" {
  region = "eu-west-1"
}

data "aws_caller_identity" "current" {}

resource "aws_kms_key" "efs" {
  description             = "efs"
  deletion_window_in_days = 7
}

resource "aws_vpc" "this" {
  cidr_block = "10.99.0.0/18"
}

resource "aws_subnet" "private" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.99.3.0/24"
  availability_zone = "eu-west-1a"
}

resource "aws_security_group" "efs" {
  name        = "efs"
  description = "Example EFS security group"
  vpc_id      = aws_vpc.this.id
}

resource "aws_efs_file_system" "this" {
  creation_token = "ex-complete"
  encrypted      = true
  kms_key_id     = aws_kms_key.efs.arn

  lifecycle_policy {
    transition_to_ia = "AFTER_30_DAYS"
  }

  lifecycle_policy {
    transition_to_primary_storage_class = "AFTER_1_ACCESS"
  }

  # The module's protection variable: this file system may be a failback's destination.
  protection {
    replication_overwrite = "DISABLED"
  }

  tags = {
    Name = "ex-complete"
  }
}

data "aws_iam_policy_document" "policy" {
  statement {
    sid       = "Example"
    actions   = ["elasticfilesystem:ClientMount"]
    resources = [aws_efs_file_system.this.arn]
    principals {
      type        = "AWS"
      identifiers = [data.aws_caller_identity.current.arn]
    }
  }
}

resource "aws_efs_file_system_policy" "this" {
  file_system_id                     = aws_efs_file_system.this.id
  bypass_policy_lockout_safety_check = false
  policy                             = data.aws_iam_policy_document.policy.json
}

resource "aws_efs_mount_target" "this" {
  file_system_id  = aws_efs_file_system.this.id
  subnet_id       = aws_subnet.private.id
  security_groups = [aws_security_group.efs.id]
}

resource "aws_efs_access_point" "posix" {
  file_system_id = aws_efs_file_system.this.id

  posix_user {
    gid            = 1001
    uid            = 1001
    secondary_gids = [1002]
  }

  tags = {
    Name = "posix-example"
  }
}

resource "aws_efs_access_point" "root" {
  file_system_id = aws_efs_file_system.this.id

  root_directory {
    path = "/example"
    creation_info {
      owner_gid   = 1001
      owner_uid   = 1001
      permissions = "755"
    }
  }

  tags = {
    Name = "root-example"
  }
}

resource "aws_efs_backup_policy" "this" {
  file_system_id = aws_efs_file_system.this.id

  backup_policy {
    status = "ENABLED"
  }
}

resource "aws_efs_replication_configuration" "this" {
  source_file_system_id = aws_efs_file_system.this.id

  destination {
    region = "eu-west-2"
  }
}
