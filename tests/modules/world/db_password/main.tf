# A database whose master password is a variable: a password change is an
# in-place ModifyDBInstance, and no API ever returns the password.
provider "aws" {
  region = "us-east-1"
}

variable "password" {
  type      = string
  sensitive = true
}

resource "aws_db_instance" "main" {
  identifier          = "orders"
  engine              = "postgres"
  instance_class      = "db.t3.micro"
  allocated_storage   = 20
  username            = "orders"
  password            = var.password
  apply_immediately   = true
  skip_final_snapshot = true
}
