# EC2 resources whose operations moto 5.2 has no code for, as
# terraform-aws-modules/ec2-instance's and autoscaling's complete examples
# declare them: a targeted capacity reservation (ec2.capacity-reservations) and
# a cluster placement group with an instance in it (ec2.placement-groups), and
# static routes of a VPN connection, as terraform-aws-modules/vpn-gateway's
# complete-vpn-gateway-with-static-routes declares them (ec2.vpn-connection-routes),
# on a connection declaring its options (ec2.vpn-connection-options).
# On moto as released the plugin leaves each untested. And two instances declaring
# associate_public_ip_address, as ec2-instance's complete example does: on moto as
# released the public one reads back no security group (ec2.instance-security-groups)
# and the private one a public address (ec2.network-interface-association), and the
# public one's gp3 root volume its throughput only after a second apply
# (ec2.instance-volume-performance).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_ec2_capacity_reservation" "this" {
  instance_type           = "t3.micro"
  instance_platform       = "Linux/UNIX"
  availability_zone       = "eu-west-1a"
  instance_count          = 1
  instance_match_criteria = "targeted"

  tags = {
    Name = "fidelity"
  }
}

resource "aws_placement_group" "web" {
  name     = "fidelity-web"
  strategy = "cluster"

  tags = {
    Name = "fidelity"
  }
}

resource "aws_instance" "web" {
  ami             = "ami-1e749f67"
  instance_type   = "c5.large"
  placement_group = aws_placement_group.web.id
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = "10.0.1.0/24"
  availability_zone = "eu-west-1a"
}

resource "aws_security_group" "web" {
  name   = "fidelity-web"
  vpc_id = aws_vpc.this.id
}

# The provider launches it with a NetworkInterfaces spec carrying the groups.
resource "aws_instance" "public" {
  ami                         = "ami-1e749f67"
  instance_type               = "t3.micro"
  subnet_id                   = aws_subnet.this.id
  vpc_security_group_ids      = [aws_security_group.web.id]
  associate_public_ip_address = true

  # With its size: moto refuses a root mapping without one (AWS takes the AMI's).
  root_block_device {
    volume_type = "gp3"
    volume_size = 10
    throughput  = 200
  }
}

resource "aws_instance" "private" {
  ami                         = "ami-1e749f67"
  instance_type               = "t3.micro"
  subnet_id                   = aws_subnet.this.id
  vpc_security_group_ids      = [aws_security_group.web.id]
  associate_public_ip_address = false
}

resource "aws_vpn_gateway" "this" {}

resource "aws_customer_gateway" "this" {
  bgp_asn    = 65000
  ip_address = "198.51.100.1"
  type       = "ipsec.1"
}

# Static routes only, with tunnel 1's inside CIDR and pre-shared key and tunnel 2's
# IKE version and DPD timeout, as vpn-gateway's examples declare them: moto 5.2
# keeps none of a VPN connection's options, so each plans a replacement or a
# change on every run (ec2.vpn-connection-options).
resource "aws_vpn_connection" "this" {
  vpn_gateway_id      = aws_vpn_gateway.this.id
  customer_gateway_id = aws_customer_gateway.this.id
  type                = "ipsec.1"
  static_routes_only  = true

  tunnel1_inside_cidr   = "169.254.33.88/30"
  tunnel1_preshared_key = "tunnel1_key.fidelity"

  tunnel2_ike_versions        = ["ikev2"]
  tunnel2_dpd_timeout_seconds = 45
}

resource "aws_vpn_connection_route" "this" {
  for_each = toset(["10.100.0.0/16", "10.101.0.0/16"])

  destination_cidr_block = each.key
  vpn_connection_id      = aws_vpn_connection.this.id
}

output "capacity_reservation_id" {
  value = aws_ec2_capacity_reservation.this.id
}

output "vpn_connection_id" {
  value = aws_vpn_connection.this.id
}
