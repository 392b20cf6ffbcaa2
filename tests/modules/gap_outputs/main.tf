# Outputs built from a value moto as released drops (a customer gateway's
# device_name, tests/data/moto_as_released_gaps.json; the embedded moto's
# fidelity layer keeps it): through a module's outputs, as
# terraform-aws-modules/vpc examples/complete passes cgw_ids on, and from the
# id of a gateway the dropped value replaces on every run. On moto as released
# each changes on every second plan because of the gap, not the module.
provider "aws" {
  region = "eu-west-1"
}

module "gw" {
  source = "./modules/gw"
}

resource "aws_customer_gateway" "branch" {
  bgp_asn     = 65001
  ip_address  = "203.0.113.13"
  type        = "ipsec.1"
  device_name = "branch-router"
}

output "cgw_ids" {
  value = module.gw.cgw_ids
}

output "this_customer_gateway" {
  value = module.gw.this_customer_gateway
}

output "gateway_bgp_asn" {
  value = module.gw.bgp_asns
}

output "branch_id" {
  value = aws_customer_gateway.branch.id
}
