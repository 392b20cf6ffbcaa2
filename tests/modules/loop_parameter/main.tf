# One parameter whose value comes from a variable: the loop's console-fix test
# changes it out of band on provider 5.x (see tests/integration/test_loop.py).
provider "aws" {
  region = "us-east-1"
}

variable "timeout" {
  type    = string
  default = "60"
}

resource "aws_ssm_parameter" "timeout" {
  name  = "/loop/timeout"
  type  = "String"
  value = var.timeout
}

output "parameter_name" {
  value = aws_ssm_parameter.timeout.name
}
