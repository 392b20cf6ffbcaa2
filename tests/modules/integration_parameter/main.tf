# An SSM parameter of data type aws:ssm:integration (aws 5.x): an Automation
# webhook integration, which AWS requires to be a SecureString named in
# Parameter Store's reserved webhook namespace with a JSON object as its
# value. moto 5.2 refused the data type (ValidationException) until the
# fidelity layer accepted it (ssm.integration-data-type).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_ssm_parameter" "webhook" {
  name      = "/d9d01087-4a3f-49e0-b0b4-d568d7826553/ssm/integrations/webhook/oncall"
  type      = "SecureString"
  data_type = "aws:ssm:integration"
  value = jsonencode({
    description = "Pages the on-call engineer"
    url         = "https://example.com/hooks/oncall"
    body        = jsonencode({ message = "scaled down" })
    headers = {
      "Content-Type" = "application/json"
    }
  })
}
