# One customer gateway, passed on as a module's outputs (see ../../main.tf).
resource "aws_customer_gateway" "this" {
  for_each = { office = "203.0.113.12" }

  bgp_asn     = 65000
  ip_address  = each.value
  type        = "ipsec.1"
  device_name = "office-router"
}

output "cgw_ids" {
  value = [for k, v in aws_customer_gateway.this : v.id]
}

output "this_customer_gateway" {
  value = aws_customer_gateway.this
}

output "bgp_asns" {
  value = [for k, v in aws_customer_gateway.this : v.bgp_asn]
}
