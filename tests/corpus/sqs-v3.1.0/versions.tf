terraform {
  required_version = ">= 0.12.7"

  required_providers {
    aws = ">= 2.30"
  }
}
