output "log_group_name" {
  description = "Name of Cloudwatch log group"
  value       = var.log_group_name
}
