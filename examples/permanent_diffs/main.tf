# Values that never converge on this stack: the API (moto here, answering as
# AWS does) keeps or answers them in another form than the one declared, so
# every plan shows a change. pytest-converge says which form, and why.
provider "aws" {
  region = "us-east-1"
}

resource "aws_sqs_queue" "dead_letters" {
  name = "orders-dead-letters"
}

# The count is declared as a string; the API stores and returns a number.
resource "aws_sqs_queue" "orders" {
  name = "orders"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dead_letters.arn
    maxReceiveCount     = "3"
  })
}

# An empty tag value: the API drops the tag, so the declared "" is never read
# back. pytest-converge classifies it as a `default` diff.
resource "aws_s3_bucket" "archive" {
  bucket = "orders-archive"
  tags = {
    retention = ""
  }
}

# An on-demand table reports 0 for capacities, which do not apply in that
# mode: the declared 5 never reads back. Classified `default`; the fix makes
# the capacities conditional on the billing mode.
resource "aws_dynamodb_table" "sessions" {
  name           = "sessions"
  billing_mode   = "PAY_PER_REQUEST"
  hash_key       = "id"
  read_capacity  = 5
  write_capacity = 5
  attribute {
    name = "id"
    type = "S"
  }
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

# The same CIDR twice: the API keeps it once. Classified `dedup`.
resource "aws_security_group" "ssh" {
  name   = "ssh"
  vpc_id = aws_vpc.main.id
  ingress {
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = ["10.0.0.0/8", "10.0.0.0/8"]
  }
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id
}

resource "aws_ec2_managed_prefix_list" "office" {
  name           = "office"
  address_family = "IPv4"
  max_entries    = 2
  entry {
    cidr = "192.168.0.0/24"
  }
}

# AWS keeps a prefix-list rule's description; the embedded moto keeps nothing
# of it. Classified `dropped`, and marked a suspected emulator gap from the
# catalogue shipped with the plugin: a warning, still listed, not a module defect.
resource "aws_security_group_rule" "office" {
  type              = "ingress"
  security_group_id = aws_security_group.web.id
  protocol          = "tcp"
  from_port         = 443
  to_port           = 443
  prefix_list_ids   = [aws_ec2_managed_prefix_list.office.id]
  description       = "from the office"
}
