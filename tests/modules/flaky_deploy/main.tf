# A module whose outcome varies between runs: it reads a file that a
# provisioner appends to, which lives outside terraform's state (as a build
# artifact or a local cache does). The deploy trigger is unstable on odd runs
# only, so one run of a scenario finds an escape hatch and the next does not.
provider "aws" {
  region = "us-east-1"
}

locals {
  log  = "${path.module}/runs.log"
  runs = fileexists(local.log) ? length(compact(split("\n", file(local.log)))) : 0
}

resource "aws_sqs_queue" "jobs" {
  name = "flaky-jobs"
}

# Created once per fresh state: counts the runs of this workspace. After the
# deploy: appending before it would change local.runs mid-apply, and terraform
# refuses an apply whose values differ from its plan ("inconsistent final plan"),
# which -parallelism=1 (fault scenarios, fault point recording) made likely.
resource "terraform_data" "counter" {
  depends_on = [terraform_data.deploy]
  provisioner "local-exec" {
    command = "echo run >> runs.log"
  }
}

resource "terraform_data" "deploy" {
  triggers_replace = local.runs % 2 == 1 ? timestamp() : "stable"
}
