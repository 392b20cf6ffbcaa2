# An Athena work group without tags, beside one with: on moto as released the
# untagged one's read after create failed ("Does Not Exist"), and with
# botocore >= 1.44.18 every Athena call of the provider was answered 404.
# (Without a configuration block a work group meets moto's defaults and its
# UpdateWorkGroup, which moto lacks: that part is reported untested.)
resource "aws_athena_workgroup" "adhoc" {
  name = "adhoc"
  configuration {
    enforce_workgroup_configuration = true
  }
}

resource "aws_athena_workgroup" "reports" {
  name = "reports"
  configuration {
    bytes_scanned_cutoff_per_query = 10737418240
  }
  tags = {
    team = "analytics"
  }
}

output "adhoc_arn" {
  value = aws_athena_workgroup.adhoc.arn
}
