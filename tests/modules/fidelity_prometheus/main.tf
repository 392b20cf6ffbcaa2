# Amazon Managed Service for Prometheus alert manager definitions, which moto 5.2 lacks
# (the fidelity layer's amp.alert-manager-definitions): a workspace with one.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_prometheus_workspace" "this" {
  alias = "metrics"
}

resource "aws_prometheus_alert_manager_definition" "this" {
  workspace_id = aws_prometheus_workspace.this.id
  definition   = <<-EOT
    alertmanager_config: |
      route:
        receiver: 'default'
      receivers:
        - name: 'default'
  EOT
}

output "workspace_id" {
  value = aws_prometheus_workspace.this.id
}
