# EMR Serverless as moto 5.2 answers otherwise (the fidelity layer's emrserverless.*): a
# Spark application written as the provider's documentation writes it (type "spark"),
# on ARM64 with an interactive configuration, and a Hive one.
provider "aws" {
  region = "eu-west-1"
}

resource "aws_emrserverless_application" "spark" {
  name          = "spark"
  release_label = "emr-7.0.0"
  type          = "spark"
  architecture  = "ARM64"

  interactive_configuration {
    livy_endpoint_enabled = true
    studio_enabled        = true
  }
}

resource "aws_emrserverless_application" "hive" {
  name          = "hive"
  release_label = "emr-7.0.0"
  type          = "hive"
}
