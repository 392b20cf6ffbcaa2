# Amazon Managed Grafana, a service moto 5.2 lacks (the fidelity layer's grafana.service):
# a SAML workspace with its SAML configuration, a license, a role association, an API key,
# and a service account with a token.
provider "aws" {
  region = "us-east-1"
}

resource "aws_grafana_workspace" "this" {
  name                     = "metrics"
  account_access_type      = "CURRENT_ACCOUNT"
  authentication_providers = ["SAML", "AWS_SSO"]
  permission_type          = "SERVICE_MANAGED"
  data_sources             = ["CLOUDWATCH", "PROMETHEUS"]
  grafana_version          = "10.4"
  configuration = jsonencode({
    unifiedAlerting = { enabled = true }
    plugins         = { pluginAdminEnabled = false }
  })

  tags = { Example = "fidelity" }
}

resource "aws_grafana_workspace_saml_configuration" "this" {
  workspace_id       = aws_grafana_workspace.this.id
  editor_role_values = ["editor"]
  admin_role_values  = ["admin"]
  email_assertion    = "mail"
  login_assertion    = "mail"
  role_assertion     = "role"
  idp_metadata_url   = "https://idp.example/metadata"
}

resource "aws_grafana_license_association" "this" {
  workspace_id = aws_grafana_workspace.this.id
  license_type = "ENTERPRISE_FREE_TRIAL"
}

resource "aws_grafana_role_association" "admin" {
  workspace_id = aws_grafana_workspace.this.id
  role         = "ADMIN"
  group_ids    = ["1111111111-abcdefgh-1234-5678-abcd-999999999999"]
}

resource "aws_grafana_workspace_api_key" "viewer" {
  workspace_id    = aws_grafana_workspace.this.id
  key_name        = "viewer"
  key_role        = "VIEWER"
  seconds_to_live = 3600
}

resource "aws_grafana_workspace_service_account" "editor" {
  workspace_id = aws_grafana_workspace.this.id
  name         = "editor"
  grafana_role = "EDITOR"
}

resource "aws_grafana_workspace_service_account_token" "editor" {
  workspace_id       = aws_grafana_workspace.this.id
  service_account_id = aws_grafana_workspace_service_account.editor.service_account_id
  name               = "editor"
  seconds_to_live    = 3600
}

output "workspace_id" {
  value = aws_grafana_workspace.this.id
}
