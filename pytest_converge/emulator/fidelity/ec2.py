"""EC2: subnets, customer gateways, DHCP options, VPC endpoints, VPC block public access,
instances' launch options, security groups and public addresses, spot requests, transit
gateway associations and routes, VGW route propagation, capacity reservations, placement
groups, VPN connections' routes and options.

Each behaviour follows the EC2 API reference
(https://docs.aws.amazon.com/AWSEC2/latest/APIReference/):

- ``SubnetCidrBlockState``: a subnet's IPv6 association state is a plain
  string (``associated``); moto 5.2 answers a stringified dict.
- ``ModifySubnetAttribute`` / ``Subnet``: ``EnableDns64``,
  ``EnableResourceNameDnsAAAARecordOnLaunch`` and
  ``PrivateDnsHostnameTypeOnLaunch`` are kept and read back (``EnableDns64``
  is false until turned on).
- ``Subnet.AvailableIpAddressCount``: an IPv6-only subnet has no IPv4
  addresses, so 0 (moto: 0 - 5 wrapped to 2**64 - 5).
- ``DescribeSubnets`` filters ``ipv6-cidr-block-association.*``,
  ``ipv6-native``, ``enable-dns64``, ``map-public-ip-on-launch``, ``owner-id``,
  ``subnet-arn``, ``outpost-arn``.
- ``CreateSubnet`` / ``Subnet.OutpostArn``: a subnet on an outpost keeps the
  outpost's ARN (the outpost must exist in the account, in the subnet's
  Availability Zone) and ``DescribeSubnets`` returns it and filters by it.
- ``CreateCustomerGateway`` / ``CustomerGateway``: ``DeviceName`` and
  ``CertificateArn`` are kept and returned.
- ``CreateDhcpOptions``: ``TagSpecifications`` of type ``dhcp-options`` tag the
  set at creation.
- ``CreateLaunchTemplate``: the call's ``TagSpecifications`` (type
  ``launch-template``) tag the template itself; its first version's
  ``LaunchTemplateData.TagSpecifications`` are only the ones given there, the
  tags of the instances and volumes it launches (moto 5.2 adds the template's
  own tags to them, so every tagged template read back a version that differs
  from the one declared).
- ``CreateVpcEndpoint`` / ``DnsOptions``: an interface endpoint's DNS options
  (``DnsRecordIpType``, ``PrivateDnsOnlyForInboundResolverEndpoint``) are kept,
  ``ipv4``/false by default; ``IpAddressType`` likewise.
- ``CreateVpcEndpoint`` / ``SubnetConfiguration``: the endpoint's network
  interface in a subnet takes the declared IPv4 (and IPv6) address, and
  otherwise an address of that subnet.
- ``ModifyVpcBlockPublicAccessOptions``, ``DescribeVpcBlockPublicAccessOptions``,
  ``Create``/``Describe``/``Modify``/``DeleteVpcBlockPublicAccessExclusion(s)``:
  the Region's VPC block public access mode and its exclusions.
- ``RunInstances`` / ``EnclaveOptions``: kept (``Enabled`` false unless asked
  for) and returned by ``DescribeInstances``; moto 5.2 leaves it out.
- ``RunInstances`` / ``CreditSpecification``: kept (T3, T3a and T4g launch
  unlimited, T2 standard, as the EC2 User Guide's burstable instances page
  says), ``ModifyInstanceCreditSpecification`` changes it and
  ``DescribeInstanceCreditSpecifications`` returns it (moto: always standard).
- ``RunInstances`` / ``Instance``: ``CpuOptions`` (the type's default cores and
  threads per core), ``CapacityReservationSpecification`` (``open``),
  ``MaintenanceOptions`` (``AutoRecovery`` ``default``) and
  ``PrivateDnsNameOptions`` (the subnet's hostname settings) are kept and
  returned; ``ModifyInstanceMaintenanceOptions``,
  ``ModifyPrivateDnsNameOptions`` and
  ``ModifyInstanceCapacityReservationAttributes`` change them.
- ``InstanceNetworkInterfaceSpecification`` / ``Instance.SecurityGroups``: an
  instance's security groups are its primary network interface's (the VPC user
  guide: changing them changes eth0's), so one launched with a
  ``NetworkInterfaces`` spec has the ``Groups`` of device 0, the VPC's default
  group when none is given (moto: none).
- ``RequestSpotLaunchSpecification``: the instance a spot request launches has the
  specification's network interfaces, security group IDs, block devices, EBS
  optimisation and instance profile (moto passes on only the image, type, key,
  subnet and group names).
- ``InstanceNetworkInterface.Association``: only an interface with a public IPv4
  address has one (moto: an empty one, read as a public address asked for).
- ``RunInstances`` / ``EbsBlockDevice``: a volume an instance is launched with
  has the ``Iops`` and ``Throughput`` its mapping asks for (moto: the type's
  defaults, so a gp3 root volume's throughput settled on the second apply).
- ``DisassociateTransitGatewayRouteTable``: ends the association the transit
  gateway made by default at attachment too (moto: a KeyError), answering it
  ``disassociating``; ``DescribeTransitGatewayAttachments`` answers the
  attachment's association as it is now; a missing association is
  ``InvalidAssociation.NotFound``.
- ``CreateTransitGatewayVpcAttachment``: ``TagSpecifications`` of type
  ``transit-gateway-attachment`` tag the attachment at creation (moto: only
  those of type ``transit-gateway-route-table``).
- ``TransitGatewayRoute.TransitGatewayAttachments``: a static route created
  with an attachment lists it (``ResourceId``, ``ResourceType``,
  ``TransitGatewayAttachmentId``) in ``CreateTransitGatewayRoute`` and
  ``SearchTransitGatewayRoutes`` (moto: an empty list, read as a blackhole);
  ``InvalidTransitGatewayAttachmentID.NotFound``, ``InvalidRouteTableID.NotFound``.
- ``EnableVgwRoutePropagation``, ``DisableVgwRoutePropagation``: a route
  table's ``PropagatingVgws``, returned by ``DescribeRouteTables``.
- ``SecurityGroupRule.Description``: a rule that references a security group
  keeps the ``Description`` of its ``UserIdGroupPairs`` entry, answered by
  ``AuthorizeSecurityGroupIngress``/``Egress`` and
  ``DescribeSecurityGroupRules`` (moto: only a CIDR rule's).
- ``Create``/``Describe``/``Modify``/``CancelCapacityReservation(s)``: an
  Availability Zone's On-Demand Capacity Reservations (``active``,
  ``unlimited``, ``open`` and ``default`` tenancy unless asked otherwise;
  ``AvailableInstanceCount`` less the instances launched targeting one;
  ``cancelled`` once cancelled); ``InvalidCapacityReservationId.NotFound``,
  ``IncorrectState`` for a change to an ended one.
- ``Create``/``Describe``/``DeletePlacementGroup(s)``: the Region's placement
  groups (``spread`` at ``rack`` level, ``partition`` with 2 partitions unless
  told); ``RunInstances`` launches into one (``InvalidPlacementGroup.Unknown``
  otherwise) and ``DescribeInstances`` answers the instance's ``Placement``
  ``GroupName``, ``GroupId`` and ``PartitionNumber``; a group with an instance
  in it is ``InvalidPlacementGroup.InUse`` to delete.
- ``CreateVpnConnectionRoute``, ``DeleteVpnConnectionRoute``: a VPN
  connection's static routes, listed by ``DescribeVpnConnections`` in
  ``Routes`` (``Source`` ``Static``, ``State`` ``available``, then
  ``deleted``), which also filters by ``vpn-connection-id`` and
  ``route.destination-cidr-block``; ``InvalidRoute.NotFound``.
- ``CreateVpnConnection`` / ``VpnConnectionOptions``: the connection keeps the
  ``Options`` it was given, AWS's documented defaults for the rest
  (``StaticRoutesOnly`` and ``EnableAcceleration`` false, local and remote
  network CIDRs ``0.0.0.0/0``, ``PublicIpv4``, ``ipv4``), and two tunnels, each
  with an outside address, an inside CIDR and a pre-shared key unless given, and
  logging off; ``DescribeVpnConnections`` answers them, ``VgwTelemetry`` per
  tunnel and a customer gateway configuration of those tunnels (moto: no
  ``Options``, and one fixed tunnel twice); ``ModifyVpnConnectionOptions`` and
  ``ModifyVpnTunnelOptions`` change them.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import Any, cast

from . import Behaviour, Kept, behaviour, empty_action, graft, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AWSEC2/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_ec2.py::"


@behaviour(
    BEHAVIOURS,
    "ec2.subnet-ipv6-association-state",
    does="DescribeSubnets answers an IPv6 CIDR association's state as the string 'associated'",
    reference=_API + "API_SubnetCidrBlockState.html",
    test=_TESTS + "test_a_subnets_ipv6_association_state_is_a_string",
    replaces={
        "moto.ec2.models.subnets:Subnet.ipv6_cidr_block_association_set": "fe8dc4bfcda20eba",
    },
)
def _subnet_association_state() -> None:
    from moto.ec2.models.subnets import Subnet

    def ipv6_cidr_block_association_set(self: Any) -> list[dict[str, Any]]:
        return [
            {
                "ipv6CidrBlock": association["ipv6CidrBlock"],
                "associationId": association["associationId"],
                "ipv6CidrBlockState": {"state": association["ipv6CidrBlockState"]["State"]},
            }
            for association in self.ipv6_cidr_block_associations.values()
            if association["ipv6CidrBlockState"]["State"] == "associated"
        ]

    patch(Subnet, "ipv6_cidr_block_association_set", property(ipv6_cidr_block_association_set))


@behaviour(
    BEHAVIOURS,
    "ec2.group-rule-description",
    does="a security group rule that references a group answers the Description of its "
    "UserIdGroupPairs entry (AuthorizeSecurityGroupIngress/Egress, "
    "DescribeSecurityGroupRules)",
    reference=_API + "API_SecurityGroupRule.html",
    test=_TESTS + "test_a_group_rule_keeps_its_description",
    replaces={
        "moto.ec2.models.security_groups:SecurityGroupRule.description": "d7622595c4044075",
    },
)
def _group_rule_description() -> None:
    from moto.ec2.models.security_groups import SecurityGroupRule

    def description(self: Any) -> str | None:
        found = self.ip_range.get("Description") or self.source_group.get("Description")
        return str(found) if found is not None else None

    patch(SecurityGroupRule, "description", property(description))


#: ModifySubnetAttribute parameters moto ignores -> how the Subnet model keeps them.
_SUBNET_ATTRIBUTES = {
    "EnableDns64": ("enable_dns64", None),
    "EnableResourceNameDnsAAAARecordOnLaunch": (None, "EnableResourceNameDnsAAAARecord"),
    "PrivateDnsHostnameTypeOnLaunch": (None, "HostnameType"),
}


@behaviour(
    BEHAVIOURS,
    "ec2.subnet-attributes",
    does="ModifySubnetAttribute keeps EnableDns64, EnableResourceNameDnsAAAARecordOnLaunch and "
    "PrivateDnsHostnameTypeOnLaunch, and DescribeSubnets returns them",
    reference=_API + "API_ModifySubnetAttribute.html",
    test=_TESTS + "test_a_subnets_dns64_and_dns_name_options_are_read_back",
    replaces={
        "moto.ec2.responses.subnets:Subnets.modify_subnet_attribute": "0eba1821d8489050",
    },
)
def _subnet_attributes() -> None:
    from moto.ec2.models.subnets import Subnet
    from moto.ec2.responses.subnets import Subnets

    if hasattr(Subnet, "enable_dns64"):
        raise RuntimeError("moto's Subnet already has enable_dns64: re-check this behaviour")
    patch(Subnet, "enable_dns64", False)  # AWS: false until turned on
    before = original(Subnets, "modify_subnet_attribute")

    def modify_subnet_attribute(self: Any) -> Any:
        result = before(self)
        subnet = self.ec2_backend.get_subnet(self._get_param("SubnetId"))
        for parameter, (attribute, option) in _SUBNET_ATTRIBUTES.items():
            value = self._get_param(f"{parameter}.Value")
            if value is None:
                value = self._get_param(parameter)  # a plain string (the hostname type)
            if value is None:
                continue
            if isinstance(value, str) and value.lower() in ("true", "false"):
                value = value.lower() == "true"
            if attribute:
                setattr(subnet, attribute, value)
            else:
                subnet.private_dns_name_options_on_launch[option] = value
        return result

    patch(Subnets, "modify_subnet_attribute", modify_subnet_attribute)


@behaviour(
    BEHAVIOURS,
    "ec2.ipv6-only-subnet",
    does="an IPv6-only subnet has AvailableIpAddressCount 0 and launches resource-name hosts",
    reference=_API + "API_Subnet.html",
    test=_TESTS + "test_an_ipv6_only_subnet_has_no_ipv4_addresses",
    replaces={
        "moto.ec2.models.subnets:Subnet.available_ip_address_count": "1eec9bb56cae9b9c",
        "moto.ec2.models.subnets:SubnetBackend.create_subnet": "82496fb64997dcbd",
    },
)
def _ipv6_only_subnet() -> None:
    from moto.ec2.models.subnets import Subnet, SubnetBackend

    counted = original(Subnet, "available_ip_address_count")

    def available_ip_address_count(self: Any) -> int:
        if not self.cidr_block:  # IPv6-only: no IPv4 address to give
            return 0
        return counted(self)

    patch(Subnet, "available_ip_address_count", property(available_ip_address_count))
    create = original(SubnetBackend, "create_subnet")

    def create_subnet(self: Any, *args: Any, **kwargs: Any) -> Any:
        subnet = create(self, *args, **kwargs)
        if subnet.ipv6_native:
            # AWS: an IPv6-only subnet's instances are named after their resource.
            subnet.private_dns_name_options_on_launch["HostnameType"] = "resource-name"
        return subnet

    patch(SubnetBackend, "create_subnet", create_subnet)


@behaviour(
    BEHAVIOURS,
    "ec2.subnet-filters",
    does="DescribeSubnets filters by IPv6 CIDR association (id, block, state), ipv6-native, "
    "enable-dns64, map-public-ip-on-launch, owner-id, subnet-arn and outpost-arn",
    reference=_API + "API_DescribeSubnets.html",
    test=_TESTS + "test_subnets_are_found_by_their_ipv6_association",
    replaces={"moto.ec2.models.subnets:Subnet.get_filter_value": "2441b304b3369db2"},
)
def _subnet_filters() -> None:
    from moto.ec2.models.subnets import Subnet

    before = original(Subnet, "get_filter_value")

    def get_filter_value(self: Any, filter_name: str, method_name: str | None = None) -> Any:
        associations = list(self.ipv6_cidr_block_associations.values())
        if filter_name == "ipv6-cidr-block-association.ipv6-cidr-block":
            return [a["ipv6CidrBlock"] for a in associations]
        if filter_name == "ipv6-cidr-block-association.association-id":
            return [a["associationId"] for a in associations]
        if filter_name == "ipv6-cidr-block-association.state":
            return [a["ipv6CidrBlockState"]["State"] for a in associations]
        if filter_name == "ipv6-native":
            return bool(self.ipv6_native)
        if filter_name == "enable-dns64":
            return bool(self.enable_dns64)
        if filter_name == "map-public-ip-on-launch":
            return bool(self.map_public_ip_on_launch)
        if filter_name == "owner-id":
            return self.owner_id
        if filter_name == "subnet-arn":
            return self.arn
        if filter_name == "outpost-arn":
            return getattr(self, "outpost_arn", None) or ""
        return before(self, filter_name, method_name)

    patch(Subnet, "get_filter_value", get_filter_value)


@behaviour(
    BEHAVIOURS,
    "ec2.subnet-outpost",
    does="CreateSubnet keeps the OutpostArn of a subnet on an outpost of the account (in the "
    "outpost's Availability Zone), and DescribeSubnets returns it",
    reference=_API + "API_CreateSubnet.html",
    test=_TESTS + "test_a_subnet_on_an_outpost_keeps_its_outpost",
    replaces={"moto.ec2.responses.subnets:Subnets.create_subnet": "717b7ac13f423797"},
)
def _subnet_outpost() -> None:
    from moto.ec2.exceptions import InvalidParameterValueError
    from moto.ec2.responses.subnets import Subnets

    before = original(Subnets, "create_subnet")

    def create_subnet(self: Any) -> Any:
        outpost_arn = self._get_param("OutpostArn")
        zone = None
        if outpost_arn:
            try:
                from moto.outposts import outposts_backends  # the outposts.service behaviour

                outposts = outposts_backends[self.current_account][self.region]
                zone = outposts.get_outpost(outpost_arn).availability_zone
            except ImportError:
                pass  # no outposts model to check against
            except Exception:
                raise InvalidParameterValueError(outpost_arn) from None
            if zone and self._get_param("AvailabilityZone") not in (None, zone):
                raise InvalidParameterValueError(outpost_arn)
        result = before(self)
        result.result["Subnet"].outpost_arn = outpost_arn
        return result

    patch(Subnets, "create_subnet", create_subnet)


@behaviour(
    BEHAVIOURS,
    "ec2.customer-gateway-device-name",
    does="CreateCustomerGateway keeps DeviceName and CertificateArn, and "
    "DescribeCustomerGateways returns them",
    reference=_API + "API_CustomerGateway.html",
    test=_TESTS + "test_a_customer_gateways_device_name_is_kept",
    replaces={
        "moto.ec2.responses.customer_gateways:CustomerGateways.create_customer_gateway": (
            "fde7fc905fb50c66"
        ),
    },
)
def _customer_gateway_device_name() -> None:
    from moto.ec2.responses.customer_gateways import CustomerGateways

    before = original(CustomerGateways, "create_customer_gateway")

    def create_customer_gateway(self: Any) -> Any:
        result = before(self)
        gateway = result.result["CustomerGateway"]
        gateway.device_name = self._get_param("DeviceName")
        gateway.certificate_arn = self._get_param("CertificateArn")
        return result

    patch(CustomerGateways, "create_customer_gateway", create_customer_gateway)


@behaviour(
    BEHAVIOURS,
    "ec2.dhcp-options-tags",
    does="CreateDhcpOptions tags the new set with its dhcp-options TagSpecifications",
    reference=_API + "API_CreateDhcpOptions.html",
    test=_TESTS + "test_dhcp_options_are_tagged_at_creation",
    replaces={
        "moto.ec2.responses.dhcp_options:DHCPOptions.create_dhcp_options": "b8f4cfad08032506",
    },
)
def _dhcp_options_tags() -> None:
    from moto.ec2.responses.dhcp_options import DHCPOptions

    before = original(DHCPOptions, "create_dhcp_options")

    def create_dhcp_options(self: Any) -> Any:
        tags = self._parse_tag_specification("dhcp-options").get("dhcp-options", {})
        result = before(self)
        options = result.result["DhcpOptions"]
        self.ec2_backend.create_tags([options.id], tags)
        return result

    patch(DHCPOptions, "create_dhcp_options", create_dhcp_options)


@behaviour(
    BEHAVIOURS,
    "ec2.launch-template-data-tags",
    does="CreateLaunchTemplate tags the template with its launch-template TagSpecifications "
    "and leaves them out of the first version's LaunchTemplateData, which keeps only the "
    "TagSpecifications given in it",
    reference=_API + "API_CreateLaunchTemplate.html",
    test=_TESTS + "test_a_launch_templates_own_tags_stay_out_of_its_data",
    replaces={
        "moto.ec2.responses.launch_templates:LaunchTemplates.create_launch_template": (
            "38364eeb9a490cc4"
        ),
    },
)
def _launch_template_data_tags() -> None:
    from moto.ec2.responses.launch_templates import LaunchTemplates

    before = original(LaunchTemplates, "create_launch_template")

    def create_launch_template(self: Any) -> Any:
        given = self._get_param("LaunchTemplateData", {}).get("TagSpecifications")
        given = [dict(spec) for spec in given] if given else None  # moto extends the list
        result = before(self)
        made = result.result["LaunchTemplate"]["LaunchTemplateId"]
        data = self.ec2_backend.get_launch_template(made).versions[0].data
        if given:
            data["TagSpecifications"] = given
        else:
            data.pop("TagSpecifications", None)
        return result

    patch(LaunchTemplates, "create_launch_template", create_launch_template)


def _dns_options(endpoint: Any, given: dict[str, Any] | None) -> dict[str, Any]:
    kept = dict(getattr(endpoint, "dns_options", None) or {})
    default_type = {"dualstack": "dualstack", "ipv6": "ipv6"}.get(endpoint.ip_address_type, "ipv4")
    kept.setdefault("DnsRecordIpType", default_type)
    kept.setdefault("PrivateDnsOnlyForInboundResolverEndpoint", False)
    for key, value in (given or {}).items():
        if key == "PrivateDnsOnlyForInboundResolverEndpoint" and isinstance(value, str):
            value = value.lower() == "true"
        kept[key] = value
    return kept


@behaviour(
    BEHAVIOURS,
    "ec2.vpc-endpoint-dns-options",
    does="an interface endpoint keeps its DnsOptions and IpAddressType (ipv4 and "
    "DnsRecordIpType ipv4 unless given), and DescribeVpcEndpoints returns them",
    reference=_API + "API_DnsOptions.html",
    test=_TESTS + "test_an_interface_endpoints_dns_options_are_kept",
    replaces={
        "moto.ec2.responses.vpcs:VPCs.create_vpc_endpoint": "4884866dfd8c05b7",
        "moto.ec2.responses.vpcs:VPCs.modify_vpc_endpoint": "916b8f7844284faf",
    },
)
def _vpc_endpoint_dns_options() -> None:
    from moto.ec2.responses.vpcs import VPCs

    create = original(VPCs, "create_vpc_endpoint")
    modify = original(VPCs, "modify_vpc_endpoint")

    def create_vpc_endpoint(self: Any) -> Any:
        result = create(self)
        endpoint = result.result["VpcEndpoint"]
        if (endpoint.vpc_endpoint_type or "Gateway") == "Interface":
            endpoint.ip_address_type = self._get_param("IpAddressType") or "ipv4"
            endpoint.dns_options = _dns_options(endpoint, self._get_param("DnsOptions"))
        return result

    def modify_vpc_endpoint(self: Any) -> Any:
        result = modify(self)
        [endpoint] = self.ec2_backend.describe_vpc_endpoints(
            vpc_end_point_ids=[self._get_param("VpcEndpointId")]
        )
        if (endpoint.vpc_endpoint_type or "Gateway") == "Interface":
            if self._get_param("IpAddressType"):
                endpoint.ip_address_type = self._get_param("IpAddressType")
            endpoint.dns_options = _dns_options(endpoint, self._get_param("DnsOptions"))
        return result

    patch(VPCs, "create_vpc_endpoint", create_vpc_endpoint)
    patch(VPCs, "modify_vpc_endpoint", modify_vpc_endpoint)


def _place_interfaces(response: Any, endpoint: Any) -> None:
    """The endpoint's interfaces take their subnet's declared address, or one of it."""
    declared = {
        item.get("SubnetId"): item for item in response._get_param("SubnetConfigurations") or []
    }
    backend = response.ec2_backend
    for eni_id in endpoint.network_interface_ids:
        eni = backend.get_network_interface(eni_id)
        subnet = eni.subnet
        config = declared.get(subnet.id, {})
        address = config.get("Ipv4")
        if address:
            subnet.request_ip(address, eni)
        elif subnet.cidr_block:
            address = subnet.get_available_subnet_ip(eni)
        if address:
            eni.private_ip_address = address
            eni.private_ip_addresses = [{"Primary": True, "PrivateIpAddress": address}]
        if config.get("Ipv6"):
            eni.ipv6_addresses = [config["Ipv6"]]


@behaviour(
    BEHAVIOURS,
    "ec2.vpc-endpoint-subnet-configuration",
    does="an interface endpoint's network interface in a subnet takes the IPv4/IPv6 address "
    "its SubnetConfiguration declares, and otherwise an address of that subnet",
    reference=_API + "API_SubnetConfiguration.html",
    test=_TESTS + "test_an_endpoints_interface_takes_the_declared_address",
    replaces={"moto.ec2.responses.vpcs:VPCs.create_vpc_endpoint": "4884866dfd8c05b7"},
)
def _vpc_endpoint_subnet_configuration() -> None:
    from moto.ec2.responses.vpcs import VPCs

    create = original(VPCs, "create_vpc_endpoint")  # perhaps ec2.vpc-endpoint-dns-options's wrapper

    def create_vpc_endpoint(self: Any) -> Any:
        result = create(self)
        _place_interfaces(self, result.result["VpcEndpoint"])
        return result

    patch(VPCs, "create_vpc_endpoint", create_vpc_endpoint)


def _now() -> datetime:
    return datetime.now(timezone.utc)


class VpcBlockPublicAccessBackend:
    """The Region's VPC block public access options and exclusions (an EC2Backend mixin)."""

    @property
    def vpc_block_public_access(self) -> dict[str, Any]:
        state = vars(self).get("_vpc_block_public_access")
        if state is None:
            state = {
                "options": {
                    "AwsAccountId": self.account_id,  # type: ignore[attr-defined]
                    "AwsRegion": self.region_name,  # type: ignore[attr-defined]
                    "State": "default-state",
                    "InternetGatewayBlockMode": "off",
                    "ManagedBy": "account",
                    "ExclusionsAllowed": "allowed",
                },
                "exclusions": {},
            }
            vars(self)["_vpc_block_public_access"] = state
        return state

    def modify_vpc_block_public_access_options(self, mode: str) -> dict[str, Any]:
        options = self.vpc_block_public_access["options"]
        options.update(
            InternetGatewayBlockMode=mode, State="update-complete", LastUpdateTimestamp=_now()
        )
        return dict(options, State="update-in-progress")

    def describe_vpc_block_public_access_options(self) -> dict[str, Any]:
        return dict(self.vpc_block_public_access["options"])

    def create_vpc_block_public_access_exclusion(
        self, resource_id: str, mode: str, tags: dict[str, str]
    ) -> dict[str, Any]:
        from moto.ec2.utils import random_id

        if resource_id.startswith("subnet-"):
            self.get_subnet(resource_id)  # type: ignore[attr-defined]
            kind = "subnet"
        else:
            self.get_vpc(resource_id)  # type: ignore[attr-defined]
            kind = "vpc"
        exclusion_id = random_id(prefix="vpcbpa-exclude")
        now = _now()
        exclusion = {
            "ExclusionId": exclusion_id,
            "InternetGatewayExclusionMode": mode,
            "ResourceArn": f"arn:aws:ec2:{self.region_name}:{self.account_id}:"  # type: ignore[attr-defined]
            f"{kind}/{resource_id}",
            "State": "create-complete",
            "CreationTimestamp": now,
            "LastUpdateTimestamp": now,
            "Tags": [{"Key": k, "Value": v} for k, v in tags.items()],
        }
        self.vpc_block_public_access["exclusions"][exclusion_id] = exclusion
        return dict(exclusion, State="create-in-progress")

    def _exclusion(self, exclusion_id: str) -> dict[str, Any]:
        from moto.ec2.exceptions import InvalidParameterValueError

        found = self.vpc_block_public_access["exclusions"].get(exclusion_id)
        if found is None:
            raise InvalidParameterValueError(exclusion_id)
        return found

    def describe_vpc_block_public_access_exclusions(
        self, exclusion_ids: list[str], filters: dict[str, list[str]]
    ) -> list[dict[str, Any]]:
        found = [self._exclusion(i) for i in exclusion_ids] or list(
            self.vpc_block_public_access["exclusions"].values()
        )
        for name, values in filters.items():
            key = {"state": "State", "resource-arn": "ResourceArn"}.get(name)
            if key:
                found = [e for e in found if e[key] in values]
            elif name.startswith("tag:"):
                tag = name[4:]
                found = [e for e in found if any(t["Key"] == tag and t["Value"] in values
                                                 for t in e["Tags"])]  # fmt: skip
        return [dict(e) for e in found]

    def modify_vpc_block_public_access_exclusion(
        self, exclusion_id: str, mode: str
    ) -> dict[str, Any]:
        exclusion = self._exclusion(exclusion_id)
        exclusion.update(
            InternetGatewayExclusionMode=mode, State="update-complete", LastUpdateTimestamp=_now()
        )
        return dict(exclusion, State="update-in-progress")

    def delete_vpc_block_public_access_exclusion(self, exclusion_id: str) -> dict[str, Any]:
        exclusion = self._exclusion(exclusion_id)
        exclusion.update(State="delete-complete", DeletionTimestamp=_now())
        return dict(exclusion, State="delete-in-progress")


class VpcBlockPublicAccessResponse:
    """The VPC block public access actions (an EC2Response mixin)."""

    def modify_vpc_block_public_access_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        options = self.ec2_backend.modify_vpc_block_public_access_options(  # type: ignore[attr-defined]
            self._get_param("InternetGatewayBlockMode")  # type: ignore[attr-defined]
        )
        return ActionResult({"VpcBlockPublicAccessOptions": options})

    def describe_vpc_block_public_access_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        options = self.ec2_backend.describe_vpc_block_public_access_options()  # type: ignore[attr-defined]
        return ActionResult({"VpcBlockPublicAccessOptions": options})

    def create_vpc_block_public_access_exclusion(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        get = self._get_param  # type: ignore[attr-defined]
        tags = self._parse_tag_specification().get(  # type: ignore[attr-defined]
            "vpc-block-public-access-exclusion", {}
        )
        exclusion = self.ec2_backend.create_vpc_block_public_access_exclusion(  # type: ignore[attr-defined]
            get("SubnetId") or get("VpcId"), get("InternetGatewayExclusionMode"), tags
        )
        return ActionResult({"VpcBlockPublicAccessExclusion": exclusion})

    def describe_vpc_block_public_access_exclusions(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        found = self.ec2_backend.describe_vpc_block_public_access_exclusions(  # type: ignore[attr-defined]
            self._get_param("ExclusionIds", []),  # type: ignore[attr-defined]
            self._filters_from_querystring(),  # type: ignore[attr-defined]
        )
        return ActionResult({"VpcBlockPublicAccessExclusions": found})

    def modify_vpc_block_public_access_exclusion(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        exclusion = self.ec2_backend.modify_vpc_block_public_access_exclusion(  # type: ignore[attr-defined]
            self._get_param("ExclusionId"),  # type: ignore[attr-defined]
            self._get_param("InternetGatewayExclusionMode"),  # type: ignore[attr-defined]
        )
        return ActionResult({"VpcBlockPublicAccessExclusion": exclusion})

    def delete_vpc_block_public_access_exclusion(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        exclusion = self.ec2_backend.delete_vpc_block_public_access_exclusion(  # type: ignore[attr-defined]
            self._get_param("ExclusionId")  # type: ignore[attr-defined]
        )
        return ActionResult({"VpcBlockPublicAccessExclusion": exclusion})


@behaviour(
    BEHAVIOURS,
    "ec2.vpc-block-public-access",
    does="the Region's VPC block public access mode (Modify/DescribeVpcBlockPublicAccessOptions) "
    "and its exclusions (Create/Describe/Modify/DeleteVpcBlockPublicAccessExclusion)",
    reference=_API + "API_ModifyVpcBlockPublicAccessOptions.html",
    test=_TESTS + "test_vpc_block_public_access_options_and_exclusions",
)
def _vpc_block_public_access() -> None:
    from moto.ec2.models import EC2Backend
    from moto.ec2.responses import EC2Response

    graft(VpcBlockPublicAccessBackend, onto=EC2Backend)
    graft(VpcBlockPublicAccessResponse, onto=EC2Response)


@behaviour(
    BEHAVIOURS,
    "ec2.instance-enclave-options",
    does="RunInstances keeps EnclaveOptions (Enabled false unless asked for) and "
    "DescribeInstances returns it for every instance",
    reference=_API + "API_EnclaveOptions.html",
    test=_TESTS + "test_an_instance_has_enclave_options",
    replaces={"moto.ec2.responses.instances:InstanceResponse.run_instances": "053f1ed0a0ec70d3"},
)
def _instance_enclave_options() -> None:
    from moto.ec2.models.instances import Instance
    from moto.ec2.responses.instances import InstanceResponse

    if hasattr(Instance, "enclave_options"):
        raise RuntimeError("moto's Instance already has enclave_options: re-check this behaviour")
    # AWS: an instance launched without EnclaveOptions answers {"Enabled": false}.
    patch(Instance, "enclave_options", {"Enabled": False})
    before = original(InstanceResponse, "run_instances")

    def run_instances(self: Any) -> Any:
        result = before(self)
        enabled = bool(self._get_param("EnclaveOptions.Enabled"))
        for instance in result.result.instances:
            instance.enclave_options = {"Enabled": enabled}
        return result

    patch(InstanceResponse, "run_instances", run_instances)


#: Burstable families that launch in unlimited mode unless asked otherwise (T2: standard).
_UNLIMITED_BY_DEFAULT = ("t3.", "t3a.", "t4g.")


def _cpu_credits(instance: Any) -> str:
    if instance.cpu_credits:
        return str(instance.cpu_credits)
    return "unlimited" if instance.instance_type.startswith(_UNLIMITED_BY_DEFAULT) else "standard"


class CreditSpecificationResponse:
    """ModifyInstanceCreditSpecification (an EC2Response mixin)."""

    def modify_instance_credit_specification(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        done, failed = [], []
        for item in self._get_param("InstanceCreditSpecifications", []):  # type: ignore[attr-defined]
            instance_id = item.get("InstanceId")
            try:
                instance = self.ec2_backend.get_instance(instance_id)  # type: ignore[attr-defined]
            except Exception:
                failed.append(
                    {
                        "InstanceId": instance_id,
                        "Error": {
                            "Code": "InvalidInstanceID.NotFound",
                            "Message": f"The instance ID '{instance_id}' does not exist",
                        },
                    }
                )
                continue
            instance.cpu_credits = item.get("CpuCredits")
            done.append({"InstanceId": instance_id})
        return ActionResult(
            {
                "SuccessfulInstanceCreditSpecifications": done,
                "UnsuccessfulInstanceCreditSpecifications": failed,
            }
        )


@behaviour(
    BEHAVIOURS,
    "ec2.instance-credit-specification",
    does="RunInstances keeps CreditSpecification (T3/T3a/T4g unlimited, T2 standard by "
    "default), ModifyInstanceCreditSpecification changes it and "
    "DescribeInstanceCreditSpecifications returns it",
    reference=_API + "API_DescribeInstanceCreditSpecifications.html",
    test=_TESTS + "test_an_instances_cpu_credits_are_kept",
    replaces={
        "moto.ec2.responses.instances:InstanceResponse.run_instances": "053f1ed0a0ec70d3",
        "moto.ec2.responses.instances:InstanceResponse.describe_instance_credit_specifications": (
            "15f1699e08544b65"
        ),
    },
)
def _instance_credit_specification() -> None:
    from moto.core.responses import ActionResult
    from moto.ec2.models.instances import Instance
    from moto.ec2.responses import EC2Response
    from moto.ec2.responses.instances import InstanceResponse

    if hasattr(Instance, "cpu_credits"):
        raise RuntimeError("moto's Instance already has cpu_credits: re-check this behaviour")
    patch(Instance, "cpu_credits", None)  # None: the family's default (_cpu_credits)
    graft(CreditSpecificationResponse, onto=EC2Response)
    before = original(InstanceResponse, "run_instances")  # perhaps ec2.instance-enclave-options'

    def run_instances(self: Any) -> Any:
        result = before(self)
        asked = self._get_param("CreditSpecification.CpuCredits")
        for instance in result.result.instances:
            instance.cpu_credits = asked
        return result

    def describe_instance_credit_specifications(self: Any) -> Any:
        instances = self.ec2_backend.describe_instance_credit_specifications(
            self._get_param("InstanceIds", [])
        )
        found = [{"InstanceId": i.id, "CpuCredits": _cpu_credits(i)} for i in instances]
        return ActionResult({"InstanceCreditSpecifications": found})

    patch(InstanceResponse, "run_instances", run_instances)
    patch(
        InstanceResponse,
        "describe_instance_credit_specifications",
        describe_instance_credit_specifications,
    )


def _cpu_options(instance: Any) -> dict[str, Any]:
    from moto.ec2.models.instance_types import INSTANCE_TYPES

    kept: dict[str, Any] | None = vars(instance).get("_cpu_options")
    if kept:
        return kept
    info = INSTANCE_TYPES.get(instance.instance_type, {}).get("VCpuInfo", {})
    return {
        "CoreCount": info.get("DefaultCores", 1),
        "ThreadsPerCore": info.get("DefaultThreadsPerCore", 1),
    }


def _private_dns_name_options(instance: Any) -> dict[str, Any]:
    kept: dict[str, Any] | None = vars(instance).get("_private_dns_name_options")
    if kept is None:
        # AWS: an instance takes its subnet's hostname settings on launch.
        subnet = instance.subnet_id and instance.ec2_backend.get_subnet(instance.subnet_id)
        launch = getattr(subnet, "private_dns_name_options_on_launch", None) or {}
        kept = {
            "HostnameType": launch.get("HostnameType", "ip-name"),
            "EnableResourceNameDnsARecord": bool(launch.get("EnableResourceNameDnsARecord")),
            "EnableResourceNameDnsAAAARecord": bool(launch.get("EnableResourceNameDnsAAAARecord")),
        }
        vars(instance)["_private_dns_name_options"] = kept
    return kept


class LaunchOptionsResponse:
    """Modify an instance's maintenance, hostname and capacity reservation options (an
    EC2Response mixin)."""

    def modify_instance_maintenance_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        instance = self.ec2_backend.get_instance(self._get_param("InstanceId"))  # type: ignore[attr-defined]
        if self._get_param("AutoRecovery"):  # type: ignore[attr-defined]
            instance.maintenance_options = dict(
                instance.maintenance_options,
                AutoRecovery=self._get_param("AutoRecovery"),  # type: ignore[attr-defined]
            )
        return ActionResult({"InstanceId": instance.id, **instance.maintenance_options})

    def modify_private_dns_name_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        instance = self.ec2_backend.get_instance(self._get_param("InstanceId"))  # type: ignore[attr-defined]
        options = dict(_private_dns_name_options(instance))
        for parameter, key in (
            ("PrivateDnsHostnameType", "HostnameType"),
            ("EnableResourceNameDnsARecord", "EnableResourceNameDnsARecord"),
            ("EnableResourceNameDnsAAAARecord", "EnableResourceNameDnsAAAARecord"),
        ):
            value = self._get_param(parameter)  # type: ignore[attr-defined]
            if value is not None:
                options[key] = value
        vars(instance)["_private_dns_name_options"] = options
        return ActionResult({"Return": True})

    def modify_instance_capacity_reservation_attributes(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        instance = self.ec2_backend.get_instance(self._get_param("InstanceId"))  # type: ignore[attr-defined]
        instance.capacity_reservation_specification = _capacity_reservation(
            self._get_param("CapacityReservationSpecification")  # type: ignore[attr-defined]
        )
        return ActionResult({"Return": True})


def _capacity_reservation(asked: dict[str, Any] | None) -> dict[str, Any]:
    """CapacityReservationSpecification as asked -> as DescribeInstances answers it."""
    asked = asked or {}
    target = asked.get("CapacityReservationTarget")
    if target:
        return {"CapacityReservationTarget": dict(target)}
    return {"CapacityReservationPreference": asked.get("CapacityReservationPreference") or "open"}


@behaviour(
    BEHAVIOURS,
    "ec2.instance-launch-options",
    does="RunInstances keeps CpuOptions, CapacityReservationSpecification, MaintenanceOptions "
    "and PrivateDnsNameOptions (AWS's defaults: the type's cores and threads, open, default, "
    "the subnet's hostname settings); DescribeInstances returns them and "
    "ModifyInstanceMaintenanceOptions, ModifyPrivateDnsNameOptions and "
    "ModifyInstanceCapacityReservationAttributes change them",
    reference=_API + "API_Instance.html",
    test=_TESTS + "test_an_instance_keeps_its_launch_options",
    replaces={"moto.ec2.responses.instances:InstanceResponse.run_instances": "053f1ed0a0ec70d3"},
)
def _instance_launch_options() -> None:
    from moto.ec2.models.instances import Instance
    from moto.ec2.responses import EC2Response
    from moto.ec2.responses.instances import InstanceResponse

    for name in (
        "cpu_options",
        "private_dns_name_options",
        "maintenance_options",
        "capacity_reservation_specification",
    ):
        if hasattr(Instance, name):
            raise RuntimeError(f"moto's Instance already has {name}: re-check this behaviour")
    patch(Instance, "cpu_options", property(_cpu_options))
    patch(Instance, "private_dns_name_options", property(_private_dns_name_options))
    patch(Instance, "maintenance_options", {"AutoRecovery": "default"})
    patch(Instance, "capacity_reservation_specification", _capacity_reservation(None))
    graft(LaunchOptionsResponse, onto=EC2Response)
    before = original(InstanceResponse, "run_instances")  # perhaps another behaviour's wrapper

    def run_instances(self: Any) -> Any:
        result = before(self)
        get = self._get_param
        for instance in result.result.instances:
            if get("CpuOptions"):
                vars(instance)["_cpu_options"] = dict(_cpu_options(instance), **get("CpuOptions"))
            if get("MaintenanceOptions.AutoRecovery"):
                instance.maintenance_options = {
                    "AutoRecovery": get("MaintenanceOptions.AutoRecovery")
                }
            if get("CapacityReservationSpecification"):
                instance.capacity_reservation_specification = _capacity_reservation(
                    get("CapacityReservationSpecification")
                )
            if get("PrivateDnsNameOptions"):
                options = dict(_private_dns_name_options(instance))
                options.update(get("PrivateDnsNameOptions"))
                vars(instance)["_private_dns_name_options"] = options
        return result

    patch(InstanceResponse, "run_instances", run_instances)


@behaviour(
    BEHAVIOURS,
    "ec2.instance-security-groups",
    does="an instance's SecurityGroups are its primary network interface's: launched with a "
    "NetworkInterfaces spec, the Groups of its device 0 (or of the interface it names), and "
    "the VPC's default group when none is given (moto: none, when the spec gives them)",
    reference=_API + "API_InstanceNetworkInterfaceSpecification.html",
    test=_TESTS + "test_an_instance_has_its_primary_interfaces_groups",
    replaces={"moto.ec2.models.instances:Instance.prep_nics": "c2288c1e5e70bd5b"},
)
def _instance_security_groups() -> None:
    from moto.ec2.models.instances import Instance

    before = original(Instance, "prep_nics")

    def prep_nics(self: Any, *args: Any, **kwargs: Any) -> None:
        before(self, *args, **kwargs)
        primary = self.nics.get(0)
        if not self.security_groups and primary is not None:
            # AWS (VPC user guide): the instance's groups are those of its eth0.
            self.security_groups = list(primary._group_set)

    patch(Instance, "prep_nics", prep_nics)


@behaviour(
    BEHAVIOURS,
    "ec2.network-interface-association",
    does="an instance's network interface without a public IPv4 address has no Association "
    "in DescribeInstances' NetworkInterfaces (as in DescribeNetworkInterfaces); moto answers "
    "an empty one, which a client reads as a public address asked for and given",
    reference=_API + "API_InstanceNetworkInterface.html",
    test=_TESTS + "test_an_interface_without_a_public_address_has_no_association",
    replaces={
        "moto.ec2.models.elastic_network_interfaces:NetworkInterface.association": (
            "342d9a7ab42ede8d"
        ),
    },
)
def _network_interface_association() -> None:
    from moto.ec2.models.elastic_network_interfaces import NetworkInterface

    before = original(NetworkInterface, "association")

    def association(self: Any) -> dict[str, Any] | None:
        if not self.public_ip:
            return None
        found: dict[str, Any] = before(self)
        return found

    patch(NetworkInterface, "association", property(association))


@behaviour(
    BEHAVIOURS,
    "ec2.instance-volume-performance",
    does="RunInstances gives each EBS volume of its BlockDeviceMappings the Iops and "
    "Throughput its mapping asks for, and DescribeVolumes answers them (moto: the gp3 "
    "defaults, 3000 and no throughput)",
    reference=_API + "API_EbsBlockDevice.html",
    test=_TESTS + "test_an_instances_volume_has_the_performance_asked_for",
    replaces={"moto.ec2.responses.instances:InstanceResponse.run_instances": "053f1ed0a0ec70d3"},
)
def _instance_volume_performance() -> None:
    from moto.ec2.responses.instances import InstanceResponse

    before = original(InstanceResponse, "run_instances")  # perhaps another behaviour's wrapper

    def run_instances(self: Any) -> Any:
        result = before(self)
        for instance in result.result.instances:
            _keep_performance(
                self.ec2_backend, instance, self._get_param("BlockDeviceMappings", [])
            )
        return result

    patch(InstanceResponse, "run_instances", run_instances)


def _keep_performance(backend: Any, instance: Any, mappings: list[dict[str, Any]]) -> None:
    """Give ``instance``'s volumes the Iops and Throughput their ``mappings`` ask for."""
    for mapping in mappings:
        ebs = mapping.get("Ebs") or {}
        attached = instance.block_device_mapping.get(mapping.get("DeviceName"))
        if attached is None:
            continue
        volume = backend.get_volume(attached.volume_id)
        if ebs.get("Iops") is not None:
            volume.iops = int(ebs["Iops"])
        if ebs.get("Throughput") is not None:
            volume.throughput = int(ebs["Throughput"])


#: The launch specification of the RequestSpotInstances call being served, as
#: RunInstances arguments moto's spot request does not pass on (see below).
_SPOT_LAUNCH: ContextVar[dict[str, Any] | None] = ContextVar("converge_spot_launch", default=None)


@behaviour(
    BEHAVIOURS,
    "ec2.spot-launch-specification",
    does="RequestSpotInstances launches its instance as its LaunchSpecification says: its "
    "NetworkInterfaces (subnet, groups, public address), SecurityGroupIds, "
    "BlockDeviceMappings (with their Iops and Throughput), EbsOptimized and "
    "IamInstanceProfile (moto: only the image, type, key, subnet and group names, so a "
    "spot request read back in the default subnet with the default group and no block "
    "device, and was replaced on every run)",
    reference=_API + "API_RequestSpotLaunchSpecification.html",
    test=_TESTS + "test_a_spot_request_launches_its_launch_specification",
    replaces={
        "moto.ec2.responses.spot_instances:SpotInstances.request_spot_instances": (
            "67bd0497565e54e1"
        ),
        "moto.ec2.models.spot_requests:SpotInstanceRequest.launch_instance": "dd813d5052dfbe7a",
    },
)
def _spot_launch_specification() -> None:
    from moto.ec2.models.spot_requests import SpotInstanceRequest
    from moto.ec2.responses.instances import InstanceResponse
    from moto.ec2.responses.spot_instances import SpotInstances

    requested = original(SpotInstances, "request_spot_instances")

    def request_spot_instances(self: Any) -> Any:
        spec = self._get_param("LaunchSpecification", {}) or {}
        mappings = spec.get("BlockDeviceMappings") or []
        profile = spec.get("IamInstanceProfile") or {}
        launch = {
            "nics": spec.get("NetworkInterfaces") or [],
            "group_ids": spec.get("SecurityGroupIds") or [],
            "mappings": mappings,
            # moto's own parse of RunInstances' mappings, over this call's
            "block_device_mappings": InstanceResponse._parse_block_device_mapping(
                cast(Any, _Given({"BlockDeviceMappings": mappings}))
            ),
            "ebs_optimized": bool(spec.get("EbsOptimized")),
            "iam_instance_profile_arn": profile.get("Arn"),
            "iam_instance_profile_name": profile.get("Name"),
        }
        token = _SPOT_LAUNCH.set(launch)
        try:
            return requested(self)
        finally:
            _SPOT_LAUNCH.reset(token)

    def launch_instance(self: Any) -> Any:
        launch = _SPOT_LAUNCH.get() or {}
        spec = self.launch_specification
        backend = self.ec2_backend
        if launch.get("group_ids"):
            spec.groups = [backend.get_security_group_from_id(i) for i in launch["group_ids"]]
        nics = launch.get("nics") or []
        reservation = backend.run_instances(
            image_id=spec.image_id,
            count=1,
            user_data=self.user_data,
            instance_type=spec.instance_type,
            is_instance_type_default=not spec.instance_type,
            subnet_id=None if nics else spec.subnet_id,
            key_name=spec.key_name,
            security_group_names=[],
            security_group_ids=[] if nics else spec.groups,
            nics=nics,
            block_device_mappings=launch.get("block_device_mappings") or None,
            ebs_optimized=launch.get("ebs_optimized", False),
            spot_fleet_id=self.spot_fleet_id,
            tags=self.all_tags,
            lifecycle="spot",
        )
        instance = reservation.instances[0]
        _keep_performance(backend, instance, launch.get("mappings") or [])
        arn, name = launch.get("iam_instance_profile_arn"), launch.get("iam_instance_profile_name")
        if arn or name:
            backend.associate_iam_instance_profile(
                instance_id=instance.id,
                iam_instance_profile_name=name,
                iam_instance_profile_arn=arn,
            )
        return instance

    patch(SpotInstances, "request_spot_instances", request_spot_instances)
    patch(SpotInstanceRequest, "launch_instance", launch_instance)


class _Given:
    """Stands for a response whose request gave ``params`` (to reuse moto's parse of them)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self._params = params

    def _get_param(self, name: str, default: Any = None) -> Any:
        return self._params.get(name, default)

    @staticmethod
    def _validate_block_device_mapping(mapping: dict[str, Any]) -> None:
        from moto.ec2.responses.instances import InstanceResponse

        InstanceResponse._validate_block_device_mapping(mapping)


@behaviour(
    BEHAVIOURS,
    "ec2.transit-gateway-route-table-disassociation",
    does="DisassociateTransitGatewayRouteTable ends any association of the attachment with "
    "the route table, the one made by the transit gateway's default association too, "
    "answering it disassociating, and DescribeTransitGatewayAttachments then answers the "
    "attachment's association as it is; an association that does not exist is "
    "InvalidAssociation.NotFound (moto: a KeyError, 500)",
    reference=_API + "API_DisassociateTransitGatewayRouteTable.html",
    test=_TESTS + "test_a_default_transit_gateway_association_is_ended",
    replaces={
        "moto.ec2.models.transit_gateway_route_tables:"
        "TransitGatewayRouteTableBackend.disassociate_transit_gateway_route_table": (
            "08023cec0152e445"
        ),
        "moto.ec2.models.transit_gateway_attachments:TransitGatewayAttachment.association": (
            "5ef8a37f697faa5d"
        ),
    },
)
def _transit_gateway_route_table_disassociation() -> None:
    from moto.ec2.exceptions import EC2ClientError, InvalidRouteTableIdError
    from moto.ec2.models.transit_gateway_attachments import TransitGatewayAttachment
    from moto.ec2.models.transit_gateway_route_tables import (
        TransitGatewayRelations,
        TransitGatewayRouteTableBackend,
    )

    def disassociate_transit_gateway_route_table(
        self: Any, tgw_attach_id: str, tgw_rt_id: str
    ) -> Any:
        table = self.transit_gateways_route_tables.get(tgw_rt_id)
        if table is None:
            raise InvalidRouteTableIdError(tgw_rt_id)
        if tgw_attach_id not in table.route_table_associations:
            raise EC2ClientError(
                "InvalidAssociation.NotFound",
                f"Association {tgw_attach_id} to {tgw_rt_id} was not found",
            )
        association = self.transit_gateway_associations.pop(tgw_attach_id, None)
        if association is None or association.transit_gateway_route_table_id != tgw_rt_id:
            # the association the transit gateway made by default at attachment
            association = TransitGatewayRelations(self, tgw_attach_id, tgw_rt_id, "associated")
        association.state = "disassociating"
        self.unset_route_table_association(tgw_rt_id, tgw_attach_id=tgw_attach_id)
        self.unset_attachment_association(tgw_attach_id)
        attachment = self.transit_gateway_attachments[tgw_attach_id]
        if getattr(attachment.transit_gateway_route_table, "id", None) == tgw_rt_id:
            attachment.transit_gateway_route_table = None  # no longer the default's
        return association

    def association(self: Any) -> dict[str, str] | None:
        """The attachment's association as it is now (moto: always the default's)."""
        if self.state != "available":
            return None
        if self._association_data:
            return {
                "State": self._association_data["state"],
                "TransitGatewayRouteTableId": self._association_data["transitGatewayRouteTableId"],
            }
        if self.transit_gateway_route_table:
            return {
                "State": "associated",
                "TransitGatewayRouteTableId": self.transit_gateway_route_table.id,
            }
        return None

    patch(TransitGatewayAttachment, "association", property(association))
    patch(
        TransitGatewayRouteTableBackend,
        "disassociate_transit_gateway_route_table",
        disassociate_transit_gateway_route_table,
    )


@behaviour(
    BEHAVIOURS,
    "ec2.transit-gateway-vpc-attachment-tags",
    does="CreateTransitGatewayVpcAttachment tags the attachment with its TagSpecifications "
    "of type transit-gateway-attachment (moto: only those of type "
    "transit-gateway-route-table)",
    reference=_API + "API_CreateTransitGatewayVpcAttachment.html",
    test=_TESTS + "test_a_transit_gateway_vpc_attachment_is_tagged_at_creation",
    replaces={
        "moto.ec2.responses.transit_gateway_attachments:"
        "TransitGatewayAttachment.create_transit_gateway_vpc_attachment": "ae314f5380cf6455",
    },
)
def _transit_gateway_vpc_attachment_tags() -> None:
    from moto.ec2.responses.transit_gateway_attachments import TransitGatewayAttachment

    before = original(TransitGatewayAttachment, "create_transit_gateway_vpc_attachment")

    def create_transit_gateway_vpc_attachment(self: Any) -> Any:
        kind = "transit-gateway-attachment"
        tags = self._parse_tag_specification(kind).get(kind, {})
        result = before(self)
        attachment = result.result["TransitGatewayVpcAttachment"]
        self.ec2_backend.create_tags([attachment.id], tags)
        return result

    patch(
        TransitGatewayAttachment,
        "create_transit_gateway_vpc_attachment",
        create_transit_gateway_vpc_attachment,
    )


@behaviour(
    BEHAVIOURS,
    "ec2.transit-gateway-route-attachments",
    does="a static transit gateway route created with a TransitGatewayAttachmentId lists "
    "that attachment in TransitGatewayAttachments (ResourceId, ResourceType, "
    "TransitGatewayAttachmentId) in CreateTransitGatewayRoute and "
    "SearchTransitGatewayRoutes (moto: an empty list, which the provider reads as a "
    "blackhole route with no attachment); an unknown attachment is "
    "InvalidTransitGatewayAttachmentID.NotFound and an unknown route table "
    "InvalidRouteTableID.NotFound (moto: the route made anyway, and a KeyError)",
    reference=_API + "API_TransitGatewayRoute.html",
    test=_TESTS + "test_a_transit_gateway_route_lists_its_attachment",
    replaces={
        "moto.ec2.models.transit_gateway_route_tables:"
        "TransitGatewayRouteTableBackend.create_transit_gateway_route": "c10a451768630203",
    },
)
def _transit_gateway_route_attachments() -> None:
    from moto.ec2.exceptions import EC2ClientError, InvalidRouteTableIdError
    from moto.ec2.models.transit_gateway_route_tables import TransitGatewayRouteTableBackend

    before = original(TransitGatewayRouteTableBackend, "create_transit_gateway_route")

    def create_transit_gateway_route(
        self: Any,
        transit_gateway_route_table_id: str,
        destination_cidr_block: str,
        transit_gateway_attachment_id: str | None = None,
        blackhole: bool = False,
    ) -> Any:
        if transit_gateway_route_table_id not in self.transit_gateways_route_tables:
            raise InvalidRouteTableIdError(transit_gateway_route_table_id)
        if (
            transit_gateway_attachment_id
            and transit_gateway_attachment_id not in self.transit_gateway_attachments
        ):
            raise EC2ClientError(
                "InvalidTransitGatewayAttachmentID.NotFound",
                f"Transit Gateway Attachment {transit_gateway_attachment_id} not found",
            )
        route = before(
            self,
            transit_gateway_route_table_id,
            destination_cidr_block,
            transit_gateway_attachment_id,
            blackhole,
        )
        # moto keeps the one attachment as a dict where the shape is a list of them
        attachment = route.get("transitGatewayAttachments")
        if isinstance(attachment, dict):
            route["transitGatewayAttachments"] = [attachment]
        return route

    patch(
        TransitGatewayRouteTableBackend,
        "create_transit_gateway_route",
        create_transit_gateway_route,
    )


class VgwRoutePropagationBackend:
    """Route propagation from virtual private gateways (an EC2Backend mixin)."""

    def enable_vgw_route_propagation(self, route_table_id: str, gateway_id: str) -> None:
        table = self.get_route_table(route_table_id)  # type: ignore[attr-defined]
        self.get_vpn_gateway(gateway_id)  # type: ignore[attr-defined]
        if gateway_id not in table.propagating_vgw_ids:
            table.propagating_vgw_ids = [*table.propagating_vgw_ids, gateway_id]

    def disable_vgw_route_propagation(self, route_table_id: str, gateway_id: str) -> None:
        table = self.get_route_table(route_table_id)  # type: ignore[attr-defined]
        self.get_vpn_gateway(gateway_id)  # type: ignore[attr-defined]
        table.propagating_vgw_ids = [g for g in table.propagating_vgw_ids if g != gateway_id]


class VgwRoutePropagationResponse:
    """The VGW route propagation actions (an EC2Response mixin)."""

    enable_vgw_route_propagation = empty_action(
        "ec2_backend", "enable_vgw_route_propagation", "RouteTableId", "GatewayId", dry_run=True
    )

    disable_vgw_route_propagation = empty_action(
        "ec2_backend", "disable_vgw_route_propagation", "RouteTableId", "GatewayId", dry_run=True
    )


@behaviour(
    BEHAVIOURS,
    "ec2.vgw-route-propagation",
    does="EnableVgwRoutePropagation and DisableVgwRoutePropagation turn a virtual private "
    "gateway's route propagation to a route table on and off, and DescribeRouteTables lists "
    "the table's PropagatingVgws; a missing table or gateway is its NotFound",
    reference=_API + "API_EnableVgwRoutePropagation.html",
    test=_TESTS + "test_a_route_table_lists_its_propagating_gateway",
)
def _vgw_route_propagation() -> None:
    from moto.ec2.models import EC2Backend
    from moto.ec2.models.route_tables import RouteTable
    from moto.ec2.responses import EC2Response

    for name in ("propagating_vgw_ids", "propagating_vgws"):
        if hasattr(RouteTable, name):
            raise RuntimeError(f"moto's RouteTable already has {name}: re-check this behaviour")
    patch(RouteTable, "propagating_vgw_ids", [])  # replaced, never changed in place
    patch(
        RouteTable,
        "propagating_vgws",
        property(lambda self: [{"GatewayId": g} for g in self.propagating_vgw_ids]),
    )
    graft(VgwRoutePropagationBackend, onto=EC2Backend)
    graft(VgwRoutePropagationResponse, onto=EC2Response)


def _taggable(resource_type: str, prefix: str) -> None:
    """Let CreateTags, DeleteTags and DescribeTags take IDs that start ``prefix-`` (moto's
    table of EC2 ID prefixes refuses an ID it does not list: InvalidID)."""
    from moto.ec2 import utils

    if resource_type in utils.EC2_RESOURCE_TO_PREFIX or prefix in utils.EC2_PREFIX_TO_RESOURCE:
        raise RuntimeError(f"moto already knows {prefix}- IDs: re-check this behaviour")
    utils.EC2_RESOURCE_TO_PREFIX[resource_type] = prefix
    utils.EC2_PREFIX_TO_RESOURCE[prefix] = resource_type


def _tags_of(backend: Any, resource_id: str) -> list[dict[str, str]]:
    return [{"Key": k, "Value": v} for k, v in backend.tags.get(resource_id, {}).items()]


def _flag(value: Any) -> bool:
    """A boolean parameter, parsed or still the query string's ``true``/``false``."""
    if isinstance(value, str):
        return value.lower() == "true"
    return bool(value)


def _timestamp(value: Any) -> datetime | None:
    """A timestamp parameter, parsed or still ISO 8601 text."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    found = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return found if found.tzinfo else found.replace(tzinfo=timezone.utc)


def _filtered(
    items: list[dict[str, Any]], filters: dict[str, list[str]], keys: dict[str, str], tags: Any
) -> list[dict[str, Any]]:
    """``items`` (dicts in the API's shape) matching every filter: ``keys`` maps a filter
    name to the item's key, ``tag:<key>`` and ``tag-key`` read ``tags(item)``."""
    for name, values in filters.items():
        if name.startswith("tag:"):
            key = name[4:]
            items = [i for i in items if any(t["Key"] == key and t["Value"] in values
                                             for t in tags(i))]  # fmt: skip
        elif name == "tag-key":
            items = [i for i in items if any(t["Key"] in values for t in tags(i))]
        elif name in keys:
            items = [i for i in items if _text(i.get(keys[name])) in values]
        else:
            from moto.ec2.exceptions import InvalidParameterValue

            raise InvalidParameterValue(f"The filter '{name}' is invalid")
    return items


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return "" if value is None else str(value)


#: A Capacity Reservation's ID: ``cr-`` and 17 hexadecimal digits.
_CAPACITY_RESERVATION_ID = re.compile(r"cr-[0-9a-f]{17}\Z")
#: DescribeCapacityReservations filter -> the reservation's key.
_CAPACITY_RESERVATION_FILTERS = {
    "instance-type": "InstanceType",
    "owner-id": "OwnerId",
    "instance-platform": "InstancePlatform",
    "availability-zone": "AvailabilityZone",
    "availability-zone-id": "AvailabilityZoneId",
    "tenancy": "Tenancy",
    "outpost-arn": "OutpostArn",
    "state": "State",
    "start-date": "StartDate",
    "end-date": "EndDate",
    "end-date-type": "EndDateType",
    "instance-match-criteria": "InstanceMatchCriteria",
    "placement-group-arn": "PlacementGroupArn",
}


def _capacity_reservation_error(reservation_id: str) -> Exception:
    from moto.ec2.exceptions import EC2ClientError

    if not _CAPACITY_RESERVATION_ID.match(reservation_id or ""):
        return EC2ClientError(
            "InvalidCapacityReservationId.Malformed",
            f"Invalid id: '{reservation_id}' (expecting 'cr-...')",
        )
    return EC2ClientError(
        "InvalidCapacityReservationId.NotFound",
        f"The capacity reservation ID '{reservation_id}' does not exist",
    )


def _end_date(end_type: str, end: datetime | None) -> None:
    """AWS: a ``limited`` reservation ends at its EndDate, an ``unlimited`` one has none."""
    from moto.ec2.exceptions import InvalidParameterCombination, InvalidParameterValue

    if end_type not in ("unlimited", "limited"):
        raise InvalidParameterValue(f"Value ({end_type}) for parameter endDateType is invalid.")
    if end_type == "limited" and end is None:
        raise InvalidParameterCombination("EndDate is required when EndDateType is limited")
    if end_type == "unlimited" and end is not None:
        raise InvalidParameterCombination(
            "EndDate can't be specified when EndDateType is unlimited"
        )


class CapacityReservationBackend:
    """The Region's On-Demand Capacity Reservations (an EC2Backend mixin)."""

    capacity_reservations: Kept[dict[str, Any]] = Kept()

    def create_capacity_reservation(
        self, asked: dict[str, Any], tags: dict[str, str]
    ) -> dict[str, Any]:
        from moto.ec2.exceptions import InvalidParameterValue
        from moto.ec2.utils import random_id

        zone = self._reservation_zone(
            asked.get("AvailabilityZone"), asked.get("AvailabilityZoneId")
        )
        count = int(asked.get("InstanceCount") or 0)
        if count < 1:
            raise InvalidParameterValue(
                f"Value ({count}) for parameter instanceCount is invalid. It must be at least 1."
            )
        end_type = asked.get("EndDateType") or "unlimited"
        end = _timestamp(asked.get("EndDate"))
        _end_date(end_type, end)
        criteria = asked.get("InstanceMatchCriteria") or "open"
        if criteria not in ("open", "targeted"):
            raise InvalidParameterValue(
                f"Value ({criteria}) for parameter instanceMatchCriteria is invalid."
            )
        reservation_id = random_id(prefix="cr")
        now = _now()
        reservation = {
            "CapacityReservationId": reservation_id,
            "OwnerId": self.account_id,  # type: ignore[attr-defined]
            "CapacityReservationArn": f"arn:{self.partition}:ec2:{self.region_name}:"  # type: ignore[attr-defined]
            f"{self.account_id}:capacity-reservation/{reservation_id}",  # type: ignore[attr-defined]
            "AvailabilityZoneId": zone.zone_id,
            "InstanceType": asked.get("InstanceType"),
            "InstancePlatform": asked.get("InstancePlatform"),
            "AvailabilityZone": zone.name,
            "Tenancy": asked.get("Tenancy") or "default",
            "TotalInstanceCount": count,
            "EbsOptimized": _flag(asked.get("EbsOptimized")),
            "EphemeralStorage": _flag(asked.get("EphemeralStorage")),
            "State": "active",
            "StartDate": now,
            "EndDate": end,
            "EndDateType": end_type,
            "InstanceMatchCriteria": criteria,
            "CreateDate": now,
            "OutpostArn": asked.get("OutpostArn"),
            "PlacementGroupArn": asked.get("PlacementGroupArn"),
            "ReservationType": "default",
            "DeliveryPreference": "fixed",
        }
        self.capacity_reservations[reservation_id] = reservation
        self.create_tags([reservation_id], tags)  # type: ignore[attr-defined]
        return self._reservation_view(reservation)

    def _reservation_zone(self, name: str | None, zone_id: str | None) -> Any:
        from moto.ec2.exceptions import InvalidParameterCombination, InvalidParameterValue

        if bool(name) == bool(zone_id):
            raise InvalidParameterCombination(
                "Exactly one of AvailabilityZone and AvailabilityZoneId must be specified"
            )
        for zone in self.describe_availability_zones():  # type: ignore[attr-defined]
            if zone.name == name or zone.zone_id == zone_id:
                return zone
        given = ("availabilityZone", name) if name else ("availabilityZoneId", zone_id)
        raise InvalidParameterValue(f"Value ({given[1]}) for parameter {given[0]} is invalid.")

    def _reservation(self, reservation_id: str) -> dict[str, Any]:
        found = self.capacity_reservations.get(reservation_id)
        if found is None:
            raise _capacity_reservation_error(reservation_id)
        return found

    def _active_reservation(self, reservation_id: str) -> dict[str, Any]:
        from moto.ec2.exceptions import EC2ClientError

        reservation = self._reservation(reservation_id)
        if reservation["State"] != "active":
            raise EC2ClientError(
                "IncorrectState",
                f"The capacity reservation '{reservation_id}' is {reservation['State']}",
            )
        return reservation

    def _reservation_view(self, reservation: dict[str, Any]) -> dict[str, Any]:
        """The reservation as the API answers it: its tags, the instances it has room for."""
        reservation_id = reservation["CapacityReservationId"]
        used = 0
        if reservation["State"] == "active":
            for instance in self.all_instances():  # type: ignore[attr-defined]
                if instance.state in ("shutting-down", "terminated"):
                    continue
                spec = getattr(instance, "capacity_reservation_specification", None) or {}
                target = spec.get("CapacityReservationTarget") or {}
                used += target.get("CapacityReservationId") == reservation_id
        view = {k: v for k, v in reservation.items() if v is not None}
        view["AvailableInstanceCount"] = max(reservation["TotalInstanceCount"] - used, 0)
        view["Tags"] = _tags_of(self, reservation_id)
        return view

    def describe_capacity_reservations(
        self, reservation_ids: list[str], filters: dict[str, list[str]]
    ) -> list[dict[str, Any]]:
        found = [self._reservation(i) for i in reservation_ids] or list(
            self.capacity_reservations.values()
        )
        views = [self._reservation_view(r) for r in found]
        return _filtered(views, filters, _CAPACITY_RESERVATION_FILTERS, lambda r: r["Tags"])

    def modify_capacity_reservation(self, reservation_id: str, asked: dict[str, Any]) -> None:
        from moto.ec2.exceptions import InvalidParameterValue

        reservation = self._active_reservation(reservation_id)
        changed = dict(reservation)
        if asked.get("InstanceCount") is not None:
            count = int(asked["InstanceCount"])
            if count < 1:
                raise InvalidParameterValue(
                    f"Value ({count}) for parameter instanceCount is invalid. "
                    "It must be at least 1."
                )
            changed["TotalInstanceCount"] = count
        if asked.get("EndDateType"):
            changed["EndDateType"] = asked["EndDateType"]
            changed["EndDate"] = None
        if asked.get("EndDate") is not None:
            changed["EndDate"] = _timestamp(asked["EndDate"])
        _end_date(changed["EndDateType"], changed["EndDate"])
        if asked.get("InstanceMatchCriteria"):
            if asked["InstanceMatchCriteria"] not in ("open", "targeted"):
                raise InvalidParameterValue(
                    f"Value ({asked['InstanceMatchCriteria']}) for parameter "
                    "instanceMatchCriteria is invalid."
                )
            changed["InstanceMatchCriteria"] = asked["InstanceMatchCriteria"]
        reservation.update(changed)

    def cancel_capacity_reservation(self, reservation_id: str) -> None:
        reservation = self._active_reservation(reservation_id)
        reservation["State"] = "cancelled"
        reservation["EndDate"] = _now()  # AWS: a cancelled reservation ends when cancelled


class CapacityReservationResponse:
    """The Capacity Reservation actions (an EC2Response mixin)."""

    def create_capacity_reservation(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        tags = self._parse_tag_specification("capacity-reservation").get(  # type: ignore[attr-defined]
            "capacity-reservation", {}
        )
        asked = {
            key: self._get_param(key)  # type: ignore[attr-defined]
            for key in (
                "InstanceType",
                "InstancePlatform",
                "AvailabilityZone",
                "AvailabilityZoneId",
                "Tenancy",
                "InstanceCount",
                "EbsOptimized",
                "EphemeralStorage",
                "EndDate",
                "EndDateType",
                "InstanceMatchCriteria",
                "OutpostArn",
                "PlacementGroupArn",
            )
        }
        reservation = self.ec2_backend.create_capacity_reservation(asked, tags)  # type: ignore[attr-defined]
        return ActionResult({"CapacityReservation": reservation})

    def describe_capacity_reservations(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        found = self.ec2_backend.describe_capacity_reservations(  # type: ignore[attr-defined]
            self._get_param("CapacityReservationIds", []),  # type: ignore[attr-defined]
            self._filters_from_querystring(),  # type: ignore[attr-defined]
        )
        return ActionResult({"CapacityReservations": found})

    def modify_capacity_reservation(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        self.ec2_backend.modify_capacity_reservation(  # type: ignore[attr-defined]
            self._get_param("CapacityReservationId"),  # type: ignore[attr-defined]
            {
                key: self._get_param(key)  # type: ignore[attr-defined]
                for key in ("InstanceCount", "EndDate", "EndDateType", "InstanceMatchCriteria")
            },
        )
        return ActionResult({"Return": True})

    def cancel_capacity_reservation(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        self.ec2_backend.cancel_capacity_reservation(  # type: ignore[attr-defined]
            self._get_param("CapacityReservationId")  # type: ignore[attr-defined]
        )
        return ActionResult({"Return": True})


@behaviour(
    BEHAVIOURS,
    "ec2.capacity-reservations",
    does="CreateCapacityReservation reserves capacity in an Availability Zone (active, "
    "unlimited and open unless asked otherwise, tagged at creation), "
    "DescribeCapacityReservations answers it with the instances it still has room for, "
    "ModifyCapacityReservation changes its count, end and matching, "
    "CancelCapacityReservation ends it (cancelled); a missing reservation is "
    "InvalidCapacityReservationId.NotFound",
    reference=_API + "API_CreateCapacityReservation.html",
    test=_TESTS + "test_a_capacity_reservation_is_kept_changed_and_cancelled",
)
def _capacity_reservations() -> None:
    from moto.ec2.models import EC2Backend
    from moto.ec2.responses import EC2Response

    graft(CapacityReservationBackend, onto=EC2Backend)
    graft(CapacityReservationResponse, onto=EC2Response)
    _taggable("capacity-reservation", "cr")


#: DescribePlacementGroups filter -> the group's key.
_PLACEMENT_GROUP_FILTERS = {
    "group-name": "GroupName",
    "group-arn": "GroupArn",
    "state": "State",
    "strategy": "Strategy",
    "spread-level": "SpreadLevel",
}
#: The partitions a partition placement group has unless told (1 to 7).
_DEFAULT_PARTITIONS = 2


def _unknown_placement_group(name: str) -> Exception:
    from moto.ec2.exceptions import EC2ClientError

    return EC2ClientError(
        "InvalidPlacementGroup.Unknown", f"The Placement Group '{name}' is unknown."
    )


class PlacementGroupBackend:
    """The Region's placement groups, by name (an EC2Backend mixin)."""

    placement_groups: Kept[dict[str, Any]] = Kept()

    def create_placement_group(
        self,
        name: str | None,
        strategy: str | None,
        partition_count: int | None,
        spread_level: str | None,
        tags: dict[str, str],
    ) -> dict[str, Any]:
        from moto.ec2.exceptions import (
            EC2ClientError,
            InvalidParameterCombination,
            InvalidParameterValue,
            MissingParameterError,
        )
        from moto.ec2.utils import random_id

        if not name:
            raise MissingParameterError("groupName")
        if name in self.placement_groups:
            raise EC2ClientError(
                "InvalidPlacementGroup.Duplicate", f"The Placement Group '{name}' already exists."
            )
        if strategy not in ("cluster", "spread", "partition"):
            raise InvalidParameterValue(f"Value ({strategy}) for parameter strategy is invalid.")
        group: dict[str, Any] = {"GroupName": name, "State": "available", "Strategy": strategy}
        if partition_count is not None and strategy != "partition":
            raise InvalidParameterCombination(
                "PartitionCount can only be specified for the partition strategy"
            )
        if strategy == "partition":
            count = _DEFAULT_PARTITIONS if partition_count is None else int(partition_count)
            if not 1 <= count <= 7:
                raise InvalidParameterValue(
                    f"Value ({count}) for parameter partitionCount is invalid. "
                    "It must be between 1 and 7."
                )
            group["PartitionCount"] = count
        if spread_level and strategy != "spread":
            raise InvalidParameterCombination(
                "SpreadLevel can only be specified for the spread strategy"
            )
        if strategy == "spread":
            if (spread_level or "rack") not in ("host", "rack"):
                raise InvalidParameterValue(
                    f"Value ({spread_level}) for parameter spreadLevel is invalid."
                )
            group["SpreadLevel"] = spread_level or "rack"
        group["GroupId"] = random_id(prefix="pg")
        group["GroupArn"] = (
            f"arn:{self.partition}:ec2:{self.region_name}:{self.account_id}:"  # type: ignore[attr-defined]
            f"placement-group/{name}"
        )
        self.placement_groups[name] = group
        self.create_tags([group["GroupId"]], tags)  # type: ignore[attr-defined]
        return self._placement_group_view(group)

    def _placement_group_view(self, group: dict[str, Any]) -> dict[str, Any]:
        return dict(group, Tags=_tags_of(self, group["GroupId"]))

    def placement_group(self, name: str | None = None, group_id: str | None = None) -> Any:
        """The group named ``name`` or with ID ``group_id``; InvalidPlacementGroup.Unknown."""
        for group in self.placement_groups.values():
            if group["GroupName"] == name or group["GroupId"] == group_id:
                return group
        raise _unknown_placement_group(str(name or group_id))

    def describe_placement_groups(
        self, names: list[str], group_ids: list[str], filters: dict[str, list[str]]
    ) -> list[dict[str, Any]]:
        found = [self.placement_group(name=n) for n in names]
        found += [self.placement_group(group_id=i) for i in group_ids]
        if not names and not group_ids:
            found = list(self.placement_groups.values())
        views = [self._placement_group_view(g) for g in found]
        return _filtered(views, filters, _PLACEMENT_GROUP_FILTERS, lambda g: g["Tags"])

    def delete_placement_group(self, name: str) -> None:
        from moto.ec2.exceptions import EC2ClientError

        group = self.placement_group(name=name)
        for instance in self.all_instances():  # type: ignore[attr-defined]
            if instance.state != "terminated" and instance.placement.group_name == name:
                raise EC2ClientError(
                    "InvalidPlacementGroup.InUse",
                    f"The placement group '{name}' is in use and may not be deleted.",
                )
        del self.placement_groups[name]
        self.tags.pop(group["GroupId"], None)  # type: ignore[attr-defined]


class PlacementGroupResponse:
    """The placement group actions (an EC2Response mixin)."""

    def create_placement_group(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        get = self._get_param  # type: ignore[attr-defined]
        tags = self._parse_tag_specification("placement-group").get(  # type: ignore[attr-defined]
            "placement-group", {}
        )
        group = self.ec2_backend.create_placement_group(  # type: ignore[attr-defined]
            get("GroupName"), get("Strategy"), get("PartitionCount"), get("SpreadLevel"), tags
        )
        return ActionResult({"PlacementGroup": group})

    def describe_placement_groups(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        found = self.ec2_backend.describe_placement_groups(  # type: ignore[attr-defined]
            self._get_param("GroupNames", []),  # type: ignore[attr-defined]
            self._get_param("GroupIds", []),  # type: ignore[attr-defined]
            self._filters_from_querystring(),  # type: ignore[attr-defined]
        )
        return ActionResult({"PlacementGroups": found})

    delete_placement_group = empty_action(
        "ec2_backend", "delete_placement_group", "GroupName", dry_run=True
    )


def _placement_of(response: Any) -> tuple[dict[str, Any] | None, int | None]:
    """The placement group RunInstances' ``Placement`` names (and the partition), checked as
    AWS checks it before launching: an unknown group is InvalidPlacementGroup.Unknown."""
    from moto.ec2.exceptions import InvalidParameterValue

    name = response._get_param("Placement.GroupName")
    group_id = response._get_param("Placement.GroupId")
    partition = response._get_param("Placement.PartitionNumber")
    if not name and not group_id:
        return None, None
    group = response.ec2_backend.placement_group(name=name or None, group_id=group_id or None)
    if partition is not None:
        partition = int(partition)
        if group["Strategy"] != "partition" or not 1 <= partition <= group["PartitionCount"]:
            raise InvalidParameterValue(
                f"Value ({partition}) for parameter partitionNumber is invalid."
            )
    elif group["Strategy"] == "partition":
        partition = 1  # AWS spreads instances over the partitions; it names the one
    return group, partition


@behaviour(
    BEHAVIOURS,
    "ec2.placement-groups",
    does="CreatePlacementGroup makes a cluster, spread (rack unless told) or partition (2 "
    "partitions unless told) group, available and tagged at creation; "
    "DescribePlacementGroups answers it by name, ID or filter; DeletePlacementGroup deletes "
    "it unless an instance is in it (InvalidPlacementGroup.InUse); RunInstances launches "
    "into it and DescribeInstances answers the instance's Placement GroupName, GroupId and "
    "PartitionNumber; an unknown group is InvalidPlacementGroup.Unknown",
    reference=_API + "API_CreatePlacementGroup.html",
    test=_TESTS + "test_an_instance_is_launched_into_a_placement_group",
    replaces={"moto.ec2.responses.instances:InstanceResponse.run_instances": "053f1ed0a0ec70d3"},
)
def _placement_groups() -> None:
    from moto.ec2.models import EC2Backend
    from moto.ec2.models.instances import InstancePlacement
    from moto.ec2.responses import EC2Response
    from moto.ec2.responses.instances import InstanceResponse

    for name in ("group_id", "partition_number"):
        if hasattr(InstancePlacement, name):
            raise RuntimeError(f"moto's InstancePlacement already has {name}: re-check this")
    patch(InstancePlacement, "group_id", None)
    patch(InstancePlacement, "partition_number", None)
    graft(PlacementGroupBackend, onto=EC2Backend)
    graft(PlacementGroupResponse, onto=EC2Response)
    _taggable("placement-group", "pg")
    before = original(InstanceResponse, "run_instances")  # perhaps another behaviour's wrapper

    def run_instances(self: Any) -> Any:
        group, partition = _placement_of(self)
        result = before(self)
        if group is not None:
            for instance in result.result.instances:
                instance.placement.group_name = group["GroupName"]
                instance.placement.group_id = group["GroupId"]
                instance.placement.partition_number = partition
        return result

    patch(InstanceResponse, "run_instances", run_instances)


def _vpn_routes(connection: Any) -> dict[str, dict[str, str]]:
    """A VPN connection's static routes, by destination CIDR block, kept on the connection."""
    routes: dict[str, dict[str, str]] = vars(connection).setdefault("_static_routes", {})
    return routes


class VpnConnectionRouteBackend:
    """Static routes of VPN connections (an EC2Backend mixin)."""

    def _vpn_connection(self, connection_id: str) -> Any:
        from moto.ec2.exceptions import InvalidVpnConnectionIdError

        [connection] = self.describe_vpn_connections(vpn_connection_ids=[connection_id])  # type: ignore[attr-defined]
        if connection.state == "deleted":
            raise InvalidVpnConnectionIdError(connection_id)
        return connection

    def create_vpn_connection_route(self, connection_id: str, cidr_block: str) -> None:
        import ipaddress

        from moto.ec2.exceptions import InvalidParameterValue

        connection = self._vpn_connection(connection_id)
        try:
            cidr = str(ipaddress.IPv4Network(cidr_block or ""))
        except ValueError:
            raise InvalidParameterValue(
                f"Value ({cidr_block}) for parameter destinationCidrBlock is invalid."
            ) from None
        # AWS answers a new route pending, then available; moto has no clock: available.
        _vpn_routes(connection)[cidr] = {
            "DestinationCidrBlock": cidr,
            "Source": "Static",
            "State": "available",
        }

    def delete_vpn_connection_route(self, connection_id: str, cidr_block: str) -> None:
        from moto.ec2.exceptions import EC2ClientError

        connection = self._vpn_connection(connection_id)
        route = _vpn_routes(connection).get(cidr_block)
        if route is None or route["State"] == "deleted":
            raise EC2ClientError(
                "InvalidRoute.NotFound",
                f"The route {cidr_block} of VPN connection {connection_id} does not exist",
            )
        route["State"] = "deleted"  # AWS lists a deleted route for a while, as deleted


class VpnConnectionRouteResponse:
    """The VPN connection route actions (an EC2Response mixin)."""

    create_vpn_connection_route = empty_action(
        "ec2_backend",
        "create_vpn_connection_route",
        "VpnConnectionId",
        "DestinationCidrBlock",
        dry_run=True,
    )

    delete_vpn_connection_route = empty_action(
        "ec2_backend",
        "delete_vpn_connection_route",
        "VpnConnectionId",
        "DestinationCidrBlock",
        dry_run=True,
    )


@behaviour(
    BEHAVIOURS,
    "ec2.vpn-connection-routes",
    does="CreateVpnConnectionRoute and DeleteVpnConnectionRoute add and remove a VPN "
    "connection's static routes, and DescribeVpnConnections lists them in Routes "
    "(DestinationCidrBlock, Source Static, State available, deleted once deleted) and "
    "filters by vpn-connection-id and route.destination-cidr-block; a missing route is "
    "InvalidRoute.NotFound, a missing connection InvalidVpnConnectionID.NotFound",
    reference=_API + "API_CreateVpnConnectionRoute.html",
    test=_TESTS + "test_a_vpn_connection_lists_its_static_routes",
    replaces={
        "moto.ec2.models.vpn_connections:VPNConnection.get_filter_value": "c098e2a2d7415983",
    },
)
def _vpn_connection_routes() -> None:
    from moto.ec2.models import EC2Backend
    from moto.ec2.models.vpn_connections import VPNConnection
    from moto.ec2.responses import EC2Response

    if hasattr(VPNConnection, "routes"):
        raise RuntimeError("moto's VPNConnection already has routes: re-check this behaviour")
    patch(VPNConnection, "routes", property(lambda self: list(_vpn_routes(self).values())))
    graft(VpnConnectionRouteBackend, onto=EC2Backend)
    graft(VpnConnectionRouteResponse, onto=EC2Response)
    before = original(VPNConnection, "get_filter_value")

    def get_filter_value(self: Any, filter_name: str, method_name: str | None = None) -> Any:
        if filter_name == "vpn-connection-id":
            return self.id
        if filter_name == "route.destination-cidr-block":
            return list(_vpn_routes(self))
        return before(self, filter_name, method_name)

    patch(VPNConnection, "get_filter_value", get_filter_value)


#: VpnTunnelOptionsSpecification members that TunnelOption spells otherwise.
_TUNNEL_OPTION_NAMES = {
    "DPDTimeoutSeconds": "DpdTimeoutSeconds",
    "DPDTimeoutAction": "DpdTimeoutAction",
    "IKEVersions": "IkeVersions",
}
#: Inside CIDRs AWS reserves (VpnTunnelOptionsSpecification.TunnelInsideCidr).
_RESERVED_INSIDE_CIDRS = frozenset([f"169.254.{n}.0/30" for n in range(6)] + ["169.254.169.252/30"])
_PSK_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_."

_TUNNEL_XML = """\
          <ipsec_tunnel>
            <customer_gateway>
            <tunnel_outside_address>
              <ip_address>{cgw_outside}</ip_address>
            </tunnel_outside_address>
            <tunnel_inside_address>
              <ip_address>{cgw_inside}</ip_address>
              <network_mask>{mask}</network_mask>
              <network_cidr>{prefix}</network_cidr>
            </tunnel_inside_address>
            <bgp>
              <asn>{cgw_asn}</asn>
              <hold_time>30</hold_time>
            </bgp>
            </customer_gateway>
            <vpn_gateway>
            <tunnel_outside_address>
              <ip_address>{vgw_outside}</ip_address>
            </tunnel_outside_address>
            <tunnel_inside_address>
              <ip_address>{vgw_inside}</ip_address>
              <network_mask>{mask}</network_mask>
              <network_cidr>{prefix}</network_cidr>
            </tunnel_inside_address>
            <bgp>
              <asn>{vgw_asn}</asn>
              <hold_time>30</hold_time>
            </bgp>
            </vpn_gateway>
            <ike>
            <authentication_protocol>sha1</authentication_protocol>
            <encryption_protocol>aes-128-cbc</encryption_protocol>
            <lifetime>28800</lifetime>
            <perfect_forward_secrecy>group2</perfect_forward_secrecy>
            <mode>main</mode>
            <pre_shared_key>{pre_shared_key}</pre_shared_key>
            </ike>
          </ipsec_tunnel>"""


def _tunnel_options(asked: dict[str, Any]) -> dict[str, Any]:
    """A VpnTunnelOptionsSpecification (or its Modify twin) as TunnelOption answers it."""
    return {_TUNNEL_OPTION_NAMES.get(key, key): value for key, value in asked.items()}


def _inside_cidr(asked: str | None, ipv6: bool) -> str:
    """The tunnel's inside CIDR: the one asked for (checked as AWS checks it), else a
    free /30 of 169.254.0.0/16 (a /126 of fd00::/8 for an IPv6 tunnel)."""
    import ipaddress

    from moto.ec2.exceptions import InvalidParameterValue
    from moto.moto_api._internal import mock_random as random

    if asked is None:
        if ipv6:
            return str(ipaddress.IPv6Network((0xFD << 120 | random.getrandbits(118) << 2, 126)))
        while True:
            cidr = f"169.254.{random.randint(6, 254)}.{random.randint(0, 63) * 4}/30"
            if cidr not in _RESERVED_INSIDE_CIDRS:
                return cidr
    try:
        network = ipaddress.ip_network(asked)
    except ValueError:
        network = None
    fits = (
        network is not None
        and network.prefixlen == (126 if ipv6 else 30)
        and network.subnet_of(ipaddress.ip_network("fd00::/8" if ipv6 else "169.254.0.0/16"))  # type: ignore[arg-type]
        and asked not in _RESERVED_INSIDE_CIDRS
    )
    if not fits:
        raise InvalidParameterValue(f"The tunnel inside CIDR {asked} is not valid.")
    return asked


def _pre_shared_key() -> str:
    """32 characters AWS allows in a pre-shared key, not starting with 0."""
    from moto.moto_api._internal import mock_random as random

    key = "".join(random.choice(_PSK_CHARACTERS) for _ in range(32))
    return key if key[0] != "0" else "A" + key[1:]


def _vpn_connection_options(asked: dict[str, Any], tunnels: list[dict[str, Any]]) -> Any:
    """VpnConnectionOptions for a VpnConnectionOptionsSpecification: what it gives, AWS's
    defaults for the rest, and two tunnels (``tunnels``: each one's specification)."""
    from moto.ec2.utils import random_public_ip

    version = asked.get("TunnelInsideIpVersion") or "ipv4"
    ipv6 = version == "ipv6"
    family = "Ipv6" if ipv6 else "Ipv4"
    everywhere = "::/0" if ipv6 else "0.0.0.0/0"
    options: dict[str, Any] = {
        "EnableAcceleration": bool(asked.get("EnableAcceleration", False)),
        "StaticRoutesOnly": bool(asked.get("StaticRoutesOnly", False)),
        f"Local{family}NetworkCidr": asked.get(f"Local{family}NetworkCidr") or everywhere,
        f"Remote{family}NetworkCidr": asked.get(f"Remote{family}NetworkCidr") or everywhere,
        "OutsideIpAddressType": asked.get("OutsideIpAddressType") or "PublicIpv4",
        "TunnelInsideIpVersion": version,
    }
    for kept in ("TransportTransitGatewayAttachmentId", "TunnelBandwidth"):
        if asked.get(kept) is not None:
            options[kept] = asked[kept]
    # The provider orders the tunnels of the gateway configuration by outside address
    # when it has nothing else to go by: tunnel 1 has the lower one, as TunnelOptions.
    outside: set[str] = set()
    while len(outside) < 2:
        outside.add(random_public_ip())
    options["TunnelOptions"] = []
    for address, spec in zip(sorted(outside), tunnels, strict=True):
        option = {"OutsideIpAddress": address, **_tunnel_options(spec)}
        inside = "TunnelInsideIpv6Cidr" if ipv6 else "TunnelInsideCidr"
        option[inside] = _inside_cidr(spec.get(inside), ipv6)
        option.setdefault("PreSharedKey", _pre_shared_key())
        option.setdefault("LogOptions", {"CloudWatchLogOptions": {"LogEnabled": False}})
        options["TunnelOptions"].append(option)
    return options


def _asked_tunnels(response: Any) -> list[dict[str, Any]]:
    """Each tunnel's VpnTunnelOptionsSpecification, by its number: a tunnel that asks for
    nothing sends no parameter, and moto's parser ends the list at the first gap, so
    tunnel 2's options would be lost (or, read by position, be tunnel 1's)."""
    from moto.core.parse import PROTOCOL_PARSERS
    from moto.core.utils import get_service_model

    operation = get_service_model("ec2").operation_model("CreateVpnConnection")
    tunnels: list[dict[str, Any]] = [{}, {}]
    for number in (1, 2):
        prefix = f"Options.TunnelOptions.{number}."
        values = {
            "Options.TunnelOptions.1." + key.removeprefix(prefix): given[0]
            for key, given in response.querystring.items()
            if key.startswith(prefix)
        }
        if values:
            request = {"method": "POST", "values": values, "headers": {}, "body": b"",
                       "url_path": "/", "url_params": {}}  # fmt: skip
            parsed = PROTOCOL_PARSERS["ec2"](operation).parse(request)  # type: ignore[arg-type]
            tunnels[number - 1] = dict(parsed["Options"]["TunnelOptions"][0])
    return tunnels


class VpnConnectionOptionsBackend:
    """A VPN connection's options changed after creation (an EC2Backend mixin)."""

    def modify_vpn_connection_options(self, connection_id: str, cidrs: dict[str, str]) -> Any:
        [connection] = self.describe_vpn_connections(vpn_connection_ids=[connection_id])  # type: ignore[attr-defined]
        connection.options.update({key: value for key, value in cidrs.items() if value})
        return connection

    def modify_vpn_tunnel_options(
        self, connection_id: str, outside_address: str, asked: dict[str, Any]
    ) -> Any:
        from moto.ec2.exceptions import InvalidParameterValue

        [connection] = self.describe_vpn_connections(vpn_connection_ids=[connection_id])  # type: ignore[attr-defined]
        ipv6 = connection.options["TunnelInsideIpVersion"] == "ipv6"
        for option in connection.options["TunnelOptions"]:
            if option["OutsideIpAddress"] == outside_address:
                changed = _tunnel_options(asked)
                inside = "TunnelInsideIpv6Cidr" if ipv6 else "TunnelInsideCidr"
                if inside in changed:
                    changed[inside] = _inside_cidr(changed[inside], ipv6)
                option.update(changed)
                return connection
        raise InvalidParameterValue(
            f"The VPN tunnel outside IP address {outside_address} is not valid for {connection_id}."
        )


class VpnConnectionOptionsResponse:
    """The VPN connection and tunnel option actions (an EC2Response mixin)."""

    def modify_vpn_connection_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        cidrs = {
            key: self._get_param(key)  # type: ignore[attr-defined]
            for key in (
                "LocalIpv4NetworkCidr",
                "RemoteIpv4NetworkCidr",
                "LocalIpv6NetworkCidr",
                "RemoteIpv6NetworkCidr",
                "TunnelBandwidth",
            )
        }
        connection = self.ec2_backend.modify_vpn_connection_options(  # type: ignore[attr-defined]
            self._get_param("VpnConnectionId"),  # type: ignore[attr-defined]
            cidrs,
        )
        return ActionResult({"VpnConnection": connection})

    def modify_vpn_tunnel_options(self) -> Any:
        from moto.core.responses import ActionResult

        self.error_on_dryrun()  # type: ignore[attr-defined]
        connection = self.ec2_backend.modify_vpn_tunnel_options(  # type: ignore[attr-defined]
            self._get_param("VpnConnectionId"),  # type: ignore[attr-defined]
            self._get_param("VpnTunnelOutsideIpAddress"),  # type: ignore[attr-defined]
            self._get_param("TunnelOptions") or {},  # type: ignore[attr-defined]
        )
        return ActionResult({"VpnConnection": connection})


@behaviour(
    BEHAVIOURS,
    "ec2.vpn-connection-options",
    does="CreateVpnConnection keeps its Options (StaticRoutesOnly, EnableAcceleration, the "
    "local and remote network CIDRs, OutsideIpAddressType, TunnelInsideIpVersion, and each "
    "tunnel's TunnelOptions as given), AWS's defaults where not given (false, false, "
    "0.0.0.0/0, PublicIpv4, ipv4, logging off), and gives each of the two tunnels an "
    "outside address, an inside CIDR and a pre-shared key unless asked for; "
    "DescribeVpnConnections answers them, with VgwTelemetry per tunnel and a customer "
    "gateway configuration of those tunnels; ModifyVpnConnectionOptions and "
    "ModifyVpnTunnelOptions change them (moto: no Options, neither operation, and one "
    "fixed tunnel twice in the configuration)",
    reference=_API + "API_VpnConnectionOptions.html",
    test=_TESTS + "test_a_vpn_connection_keeps_its_options",
    replaces={
        "moto.ec2.responses.vpn_connections:VPNConnections.create_vpn_connection": (
            "6d1df5af6d825871"
        ),
        "moto.ec2.models.vpn_connections:VPNConnection.customer_gateway_configuration": (
            "21eca3c95888c060"
        ),
    },
)
def _vpn_connection_options_kept() -> None:
    import ipaddress

    from moto.core.utils import utcnow
    from moto.ec2.models import EC2Backend
    from moto.ec2.models.vpn_connections import VPNConnection
    from moto.ec2.responses import EC2Response
    from moto.ec2.responses.vpn_connections import VPNConnections

    graft(VpnConnectionOptionsBackend, onto=EC2Backend)
    graft(VpnConnectionOptionsResponse, onto=EC2Response)
    before = original(VPNConnections, "create_vpn_connection")
    configuration = original(VPNConnection, "customer_gateway_configuration")

    def create_vpn_connection(self: Any) -> Any:
        options = _vpn_connection_options(self._get_param("Options") or {}, _asked_tunnels(self))
        result = before(self)
        connection = result.result["VpnConnection"]
        connection.options = options
        connection.vgw_telemetry = [
            {
                "OutsideIpAddress": tunnel["OutsideIpAddress"],
                "Status": "DOWN",
                "StatusMessage": "",
                "AcceptedRouteCount": 0,
                "LastStatusChange": utcnow(),
            }
            for tunnel in options["TunnelOptions"]
        ]
        return result

    def customer_gateway_configuration(self: Any) -> str:
        if not self.options:
            return str(configuration(self))
        backend = self.ec2_backend
        customer = backend.customer_gateways.get(self.customer_gateway_id)
        gateway = backend.vpn_gateways.get(self.vpn_gateway_id or "")
        tunnels = []
        for tunnel in self.options["TunnelOptions"]:
            inside = ipaddress.ip_network(
                tunnel.get("TunnelInsideCidr") or tunnel["TunnelInsideIpv6Cidr"]
            )
            tunnels.append(
                _TUNNEL_XML.format(
                    cgw_outside=getattr(customer, "ip_address", ""),
                    cgw_inside=inside.network_address + 2,
                    vgw_outside=tunnel["OutsideIpAddress"],
                    vgw_inside=inside.network_address + 1,
                    mask=inside.netmask,
                    prefix=inside.prefixlen,
                    cgw_asn=getattr(customer, "bgp_asn", ""),
                    vgw_asn=getattr(gateway, "amazon_side_asn", None) or 64512,
                    pre_shared_key=tunnel["PreSharedKey"],
                )
            )
        return (
            f'<?xml version="1.0" encoding="UTF-8"?>\n<vpn_connection id="{self.id}">\n'
            f"  <customer_gateway_id>{self.customer_gateway_id}</customer_gateway_id>\n"
            f"  <vpn_gateway_id>{self.vpn_gateway_id or ''}</vpn_gateway_id>\n"
            f"  <vpn_connection_type>{self.type}</vpn_connection_type>\n"
            + "\n".join(tunnels)
            + "\n</vpn_connection>\n"
        )

    patch(VPNConnections, "create_vpn_connection", create_vpn_connection)
    patch(VPNConnection, "customer_gateway_configuration", property(customer_gateway_configuration))
