provider "aws" {
  region = "eu-west-1"
}

module "dynamodb_table" {
  source = "../module"

  name           = "orders-autoscaled"
  hash_key       = "id"
  range_key      = "title"
  billing_mode   = "PROVISIONED"
  # v1.2.0 asks for this to keep autoscaling
  autoscaling_enabled = true
  read_capacity  = 5
  write_capacity = 5

  autoscaling_read = {
    scale_in_cooldown  = 50
    scale_out_cooldown = 40
    target_value       = 45
    max_capacity       = 10
  }

  attributes = [
    { name = "id", type = "N" },
    { name = "title", type = "S" },
  ]
}
