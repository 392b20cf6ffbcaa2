# A VPC attached to a transit gateway whose attachment moves from the default
# route table to its own (replace_existing_association, as
# terraform-aws-modules/transit-gateway declares it), and a VPN gateway
# propagating its routes to a route table (terraform-aws-modules/vpc's
# propagate_*_route_tables_vgw). moto 5.2 fails DisassociateTransitGatewayRouteTable
# on a default association and has no EnableVgwRoutePropagation
# (ec2.transit-gateway-route-table-disassociation, ec2.vgw-route-propagation).
# And two static routes in the attachment's table, one to the attachment and one
# blackhole, as transit-gateway's tgw_routes declares them: moto 5.2 answers the
# first without its attachment, read back as a blackhole, so it is replaced on
# every run (ec2.transit-gateway-route-attachments). The attachment is tagged at
# creation, which moto 5.2 leaves to a second apply
# (ec2.transit-gateway-vpc-attachment-tags).
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "this" {
  vpc_id     = aws_vpc.this.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_ec2_transit_gateway" "this" {
  description = "fidelity"
}

resource "aws_ec2_transit_gateway_vpc_attachment" "this" {
  transit_gateway_id = aws_ec2_transit_gateway.this.id
  vpc_id             = aws_vpc.this.id
  subnet_ids         = [aws_subnet.this.id]

  tags = {
    Name = "fidelity"
  }
}

resource "aws_ec2_transit_gateway_route_table" "this" {
  transit_gateway_id = aws_ec2_transit_gateway.this.id
}

resource "aws_ec2_transit_gateway_route_table_association" "this" {
  transit_gateway_attachment_id  = aws_ec2_transit_gateway_vpc_attachment.this.id
  transit_gateway_route_table_id = aws_ec2_transit_gateway_route_table.this.id
  replace_existing_association   = true
}

resource "aws_ec2_transit_gateway_route" "attachment" {
  destination_cidr_block         = "30.0.0.0/16"
  transit_gateway_attachment_id  = aws_ec2_transit_gateway_vpc_attachment.this.id
  transit_gateway_route_table_id = aws_ec2_transit_gateway_route_table.this.id
}

resource "aws_ec2_transit_gateway_route" "blackhole" {
  destination_cidr_block         = "0.0.0.0/0"
  blackhole                      = true
  transit_gateway_route_table_id = aws_ec2_transit_gateway_route_table.this.id
}

resource "aws_vpn_gateway" "this" {
  vpc_id = aws_vpc.this.id
}

resource "aws_route_table" "private" {
  vpc_id = aws_vpc.this.id
}

resource "aws_vpn_gateway_route_propagation" "private" {
  vpn_gateway_id = aws_vpn_gateway.this.id
  route_table_id = aws_route_table.private.id
}
