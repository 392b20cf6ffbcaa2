# What a pipeline applies before its no-op plan gate (tests/data/plan_gate records its
# plans): queues made by a child module with for_each, a secret parameter, and a bucket
# whose tags another team manages (ignore_changes: their edits are refresh noise).
provider "aws" {
  region = "us-east-1"
}

variable "visibility_timeout" {
  type    = number
  default = 30
}

variable "token" {
  type      = string
  default   = "s3cr3t-v1"
  sensitive = true
}

module "queues" {
  source   = "./queue"
  for_each = toset(["orders", "payments"])

  name               = each.key
  visibility_timeout = var.visibility_timeout
}

resource "aws_ssm_parameter" "token" {
  name  = "/gate/token"
  type  = "SecureString"
  value = var.token
}

resource "aws_s3_bucket" "logs" {
  bucket = "gate-logs"

  lifecycle {
    ignore_changes = [tags]
  }
}

output "queue_urls" {
  value = { for name, queue in module.queues : name => queue.url }
}
