"""EC2 behaviours of the MiniStack layer (Amazon EC2 API Reference)."""

from __future__ import annotations

from typing import Any

from . import core

BEHAVIOURS: list[core.Behaviour] = []


@core.behaviour(
    BEHAVIOURS,
    "ec2.security-group-rule-prefix-lists",
    does="Authorize/RevokeSecurityGroupIngress/Egress keep a permission's PrefixListIds "
    "(with their Description), DescribeSecurityGroups answers them and "
    "DescribeSecurityGroupRules answers one rule per prefix list with its PrefixListId "
    "(MiniStack read no PrefixListIds: a prefix-list rule was stored without it, so the "
    "provider waited for a rule that never showed)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_IpPermission.html",
    test="tests/integration/test_ministack_fidelity.py::test_security_group_rule_prefix_lists",
    replaces={
        "ministack.services.ec2:_parse_ip_permissions": "7c2dbe7668aff42a",
        "ministack.services.ec2:_sg_rule_xml": "1827f3e2af78913a",
    },
)
def security_group_rule_prefix_lists() -> None:
    from ministack.services import ec2

    parsed = core.original(ec2, "_parse_ip_permissions")
    rule_xml = core.original(ec2, "_sg_rule_xml")

    def _parse_ip_permissions(params: Any, prefix: str) -> Any:
        rules = parsed(params, prefix)
        if not ec2._p(params, f"{prefix}.1.IpProtocol"):
            return rules  # the legacy flat form names no prefix list
        for i, rule in enumerate(rules, start=1):
            j = 1
            while pl := ec2._p(params, f"{prefix}.{i}.PrefixListIds.{j}.PrefixListId"):
                entry = {"PrefixListId": pl}
                said = ec2._p(params, f"{prefix}.{i}.PrefixListIds.{j}.Description")
                if said:
                    entry["Description"] = said
                rule["PrefixListIds"].append(entry)
                j += 1
        return rules

    def _sg_rule_xml(sg_id: str, rule: Any, is_egress: bool = False) -> Any:
        lists = [
            pl
            for pl in rule.get("PrefixListIds", [])
            if isinstance(pl, dict) and pl.get("PrefixListId")
        ]
        if not lists:
            return rule_xml(sg_id, rule, is_egress)
        rule_id = ec2._sg_rule_id(sg_id, is_egress, rule)
        others = any(rule.get(k) for k in ("IpRanges", "Ipv6Ranges", "UserIdGroupPairs"))
        items = rule_xml(sg_id, {**rule, "PrefixListIds": []}, is_egress) if others else ""
        said = ec2._sg_rule_description(rule)
        description = f"<description>{ec2._esc(said)}</description>" if said else ""
        for pl in lists:
            items += (
                "<item>"
                f"<securityGroupRuleId>{rule_id}</securityGroupRuleId>"
                f"<groupId>{sg_id}</groupId>"
                f"<groupOwnerId>{ec2.get_account_id()}</groupOwnerId>"
                f"<isEgress>{'true' if is_egress else 'false'}</isEgress>"
                f"<ipProtocol>{rule.get('IpProtocol', '-1')}</ipProtocol>"
                f"<fromPort>{rule.get('FromPort', -1)}</fromPort>"
                f"<toPort>{rule.get('ToPort', -1)}</toPort>"
                f"<prefixListId>{ec2._esc(pl['PrefixListId'])}</prefixListId>"
                f"{description}{ec2._sg_rule_tag_suffix(rule_id)}"
                "</item>"
            )
        return items

    core.patch(ec2, "_parse_ip_permissions", _parse_ip_permissions)
    core.patch(ec2, "_sg_rule_xml", _sg_rule_xml)


#: Interface endpoint services AWS serves in every commercial Region that MiniStack
#: 1.5.33's catalogue lacks, and that the modules of the corpora ask for (terraform-aws-
#: modules/vpc's vpc-endpoints examples: ``ecs``, ``ecs-telemetry``, ``rds``, S3's
#: interface endpoint, CodeDeploy's two); ``ecs-agent`` beside the other ECS two.
EXTRA_INTERFACE_SERVICES = (
    "s3",
    "ecs",
    "ecs-agent",
    "ecs-telemetry",
    "rds",
    "codedeploy",
    "codedeploy-commands-secure",
)


@core.behaviour(
    BEHAVIOURS,
    "ec2.vpc-endpoint-services",
    does="DescribeVpcEndpointServices answers the interface endpoint services "
    + ", ".join(EXTRA_INTERFACE_SERVICES)
    + " beside MiniStack's own (S3 as both a Gateway and an Interface service, as AWS "
    "lists it); MiniStack lacked them, so a data.aws_vpc_endpoint_service of one, and the "
    "aws_vpc_endpoint made from it, failed",
    reference="https://docs.aws.amazon.com/vpc/latest/privatelink/aws-services-privatelink-support.html",
    test="tests/integration/test_ministack_fidelity.py::test_vpc_endpoint_services",
    replaces={"ministack.services.ec2:_describe_vpc_endpoint_services": "8ac60c12c5f87c18"},
)
def vpc_endpoint_services() -> None:
    from ministack.services import ec2

    described = core.original(ec2, "_describe_vpc_endpoint_services")

    def _describe_vpc_endpoint_services(params: Any) -> Any:
        own = ec2._VPCE_INTERFACE_SERVICES
        extra = tuple(s for s in EXTRA_INTERFACE_SERVICES if s not in own)
        ec2._VPCE_INTERFACE_SERVICES = own + extra  # the catalogue the original reads
        try:
            return described(params)
        finally:
            ec2._VPCE_INTERFACE_SERVICES = own

    core.patch(ec2, "_describe_vpc_endpoint_services", _describe_vpc_endpoint_services)
    # EC2 dispatches an action through its map, which holds the function itself.
    ec2._ACTION_MAP["DescribeVpcEndpointServices"] = ec2._describe_vpc_endpoint_services


#: A route's destinations and the targets MiniStack's CreateRoute does not read (it
#: reads DestinationCidrBlock, GatewayId, NatGatewayId, InstanceId, VpcPeeringConnectionId,
#: TransitGatewayId); DescribeRouteTables already answers each of them.
_ROUTE_DESTINATIONS = ("DestinationIpv6CidrBlock", "DestinationPrefixListId")
_ROUTE_TARGETS = (
    "EgressOnlyInternetGatewayId",
    "NetworkInterfaceId",
    "VpcEndpointId",
    "CarrierGatewayId",
    "LocalGatewayId",
    "CoreNetworkArn",
)


@core.behaviour(
    BEHAVIOURS,
    "ec2.route-destinations",
    does="CreateRoute keeps an IPv6 (DestinationIpv6CidrBlock) or prefix-list "
    "(DestinationPrefixListId) destination and an egress-only internet gateway, network "
    "interface, VPC endpoint, carrier or local gateway or core network target, and "
    "DeleteRoute deletes a route by those destinations (MiniStack read the IPv4 destination "
    "only: a ::/0 route read back with an empty destination, and the provider waited for it)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateRoute.html",
    test="tests/integration/test_ministack_fidelity.py::test_route_destinations",
    replaces={
        "ministack.services.ec2:_create_route": "14b67cded12f1c40",
        "ministack.services.ec2:_delete_route": "d828ab9cba9abfa8",
    },
)
def route_destinations() -> None:
    from ministack.services import ec2

    created = core.original(ec2, "_create_route")
    deleted = core.original(ec2, "_delete_route")

    def _create_route(params: Any) -> Any:
        answer = created(params)
        if answer[0] != 200:
            return answer
        route = ec2._route_tables[ec2._p(params, "RouteTableId")]["Routes"][-1]
        for key in _ROUTE_DESTINATIONS:
            if ec2._p(params, key):
                route[key] = ec2._p(params, key)
                if not route.get("DestinationCidrBlock"):
                    route.pop("DestinationCidrBlock", None)
        targets = {key: ec2._p(params, key) for key in _ROUTE_TARGETS if ec2._p(params, key)}
        if targets and route.get("GatewayId") == "local" and not ec2._p(params, "GatewayId"):
            route.pop("GatewayId")  # MiniStack's fallback when it read no target
        route.update(targets)
        return answer

    def _delete_route(params: Any) -> Any:
        key = next((k for k in _ROUTE_DESTINATIONS if ec2._p(params, k)), None)
        table = ec2._route_tables.get(ec2._p(params, "RouteTableId"))
        if key is None or table is None:
            return deleted(params)
        wanted = ec2._p(params, key)
        table["Routes"] = [r for r in table["Routes"] if r.get(key) != wanted]
        return ec2._xml(200, "DeleteRouteResponse", "<return>true</return>")

    core.patch(ec2, "_create_route", _create_route)
    core.patch(ec2, "_delete_route", _delete_route)
    ec2._ACTION_MAP["CreateRoute"] = ec2._create_route
    ec2._ACTION_MAP["DeleteRoute"] = ec2._delete_route


def _ipv6_block(length: int) -> str:
    """An address block of Amazon's IPv6 pool (``2600:1f18::/32``, where AWS gives
    us-east-1's VPCs theirs): a VPC's /56."""
    import random

    return f"2600:1f18:{random.randrange(0x10000):x}:{random.randrange(0x100):x}00::/{length}"


def _association_set(blocks: list[dict[str, Any]], pool: bool) -> str:
    items = "".join(
        "<item>"
        f"<associationId>{b['AssociationId']}</associationId>"
        f"<ipv6CidrBlock>{b['Ipv6CidrBlock']}</ipv6CidrBlock>"
        f"<ipv6CidrBlockState><state>{b['State']}</state></ipv6CidrBlockState>"
        + (
            f"<networkBorderGroup>{b['NetworkBorderGroup']}</networkBorderGroup>"
            f"<ipv6Pool>{b['Ipv6Pool']}</ipv6Pool>"
            if pool
            else ""
        )
        + "</item>"
        for b in blocks
    )
    return f"<ipv6CidrBlockAssociationSet>{items}</ipv6CidrBlockAssociationSet>"


#: The DescribeVpcs and DescribeSubnets filters of an IPv6 block's association, by the
#: key of the association they compare.
_ASSOCIATION_FILTERS = {
    "ipv6-cidr-block-association.ipv6-cidr-block": "Ipv6CidrBlock",
    "ipv6-cidr-block-association.association-id": "AssociationId",
    "ipv6-cidr-block-association.state": "State",
}


def _matches_ipv6(item: dict[str, Any], filters: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Whether ``item`` passes the IPv6 filters among ``filters``, and the other filters."""
    rest = dict(filters)
    blocks = item.get("Ipv6CidrBlockAssociationSet", [])
    for name, key in _ASSOCIATION_FILTERS.items():
        wanted = rest.pop(name, None)
        if wanted is not None and not any(b[key] in wanted for b in blocks):
            return False, rest
    native = rest.pop("ipv6-native", None)
    if native is not None and ("true" if item.get("Ipv6Native") else "false") not in native:
        return False, rest
    return True, rest


def _flag(value: str) -> bool:
    return value.lower() == "true"


@core.behaviour(
    BEHAVIOURS,
    "ec2.ipv6-addressing",
    does="CreateVpc with AmazonProvidedIpv6CidrBlock gives the VPC a /56 of Amazon's pool, "
    "associated; CreateSubnet keeps its Ipv6CidrBlock and Ipv6Native (an IPv6-only subnet has "
    "no IPv4 CIDR and no IPv4 address), ModifySubnetAttribute AssignIpv6AddressOnCreation and "
    "EnableDns64; DescribeVpcs and DescribeSubnets answer them and filter by "
    "ipv6-cidr-block-association.* and ipv6-native (MiniStack had no IPv6 addressing: the VPC "
    "read back no block, so every aws_vpc with assign_generated_ipv6_cidr_block planned it again "
    "and its subnets' cidrsubnet of the block failed)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVpc.html",
    test="tests/integration/test_ministack_fidelity.py::test_ipv6_addressing",
    replaces={
        "ministack.services.ec2:_create_vpc": "c4eedcdfd0d184b7",
        "ministack.services.ec2:_vpc_fields_xml": "af75a16fffc35c99",
        "ministack.services.ec2:_matches_vpc_filters": "bda5462614d48e96",
        "ministack.services.ec2:_create_subnet": "607e159b1f488dc9",
        "ministack.services.ec2:_subnet_fields_xml": "afee6f4eb89febf8",
        "ministack.services.ec2:_matches_subnet_filters": "296e9451c27ec97c",
        "ministack.services.ec2:_modify_subnet_attribute": "c604ad669e278740",
    },
)
def ipv6_addressing() -> None:
    from ministack.services import ec2

    _vpc_ipv6(ec2)
    _subnet_ipv6(ec2)


def _association(prefix: str, block: str) -> dict[str, Any]:
    """A block's association record, ``associated`` (as AWS answers it once made)."""
    import random
    import string

    suffix = "".join(random.choices(string.hexdigits[:16], k=17))
    return {"AssociationId": f"{prefix}-{suffix}", "Ipv6CidrBlock": block, "State": "associated"}


def _vpc_ipv6(ec2: Any) -> None:
    """``ec2.ipv6-addressing``'s VPC part: the Amazon-provided block, answered and filtered."""
    create_vpc = core.original(ec2, "_create_vpc")
    vpc_xml = core.original(ec2, "_vpc_fields_xml")
    vpc_filters = core.original(ec2, "_matches_vpc_filters")

    def _create_vpc(params: Any) -> Any:
        answer = create_vpc(params)
        if answer[0] != 200 or not _flag(ec2._p(params, "AmazonProvidedIpv6CidrBlock", "false")):
            return answer
        vpc = list(ec2._vpcs.values())[-1]  # the one just made (dicts keep their order)
        border = ec2._p(params, "Ipv6CidrBlockNetworkBorderGroup") or ec2.get_region()
        block = _association("vpc-cidr-assoc", _ipv6_block(56))
        vpc["Ipv6CidrBlockAssociationSet"] = [
            {**block, "NetworkBorderGroup": border, "Ipv6Pool": "Amazon"}
        ]
        return ec2._xml(200, "CreateVpcResponse", ec2._vpc_fields_xml(vpc, tag="vpc"))

    def _vpc_fields_xml(vpc: Any, tag: str = "item") -> Any:
        text = vpc_xml(vpc, tag)
        blocks = vpc.get("Ipv6CidrBlockAssociationSet")
        if not blocks:
            return text
        end = "</cidrBlockAssociationSet>"
        return text.replace(end, end + _association_set(blocks, pool=True), 1)

    def _matches_vpc_filters(vpc: Any, filters: Any) -> Any:
        passed, rest = _matches_ipv6(vpc, filters)
        return passed and vpc_filters(vpc, rest)

    core.patch(ec2, "_create_vpc", _create_vpc)
    core.patch(ec2, "_vpc_fields_xml", _vpc_fields_xml)
    core.patch(ec2, "_matches_vpc_filters", _matches_vpc_filters)
    ec2._ACTION_MAP["CreateVpc"] = ec2._create_vpc


def _subnet_ipv6(ec2: Any) -> None:
    """``ec2.ipv6-addressing``'s subnet part: a subnet's /64, IPv6-only subnets, the two
    IPv6 attributes, answered and filtered."""
    create_subnet = core.original(ec2, "_create_subnet")
    subnet_xml = core.original(ec2, "_subnet_fields_xml")
    subnet_filters = core.original(ec2, "_matches_subnet_filters")
    modify_subnet = core.original(ec2, "_modify_subnet_attribute")

    def _create_subnet(params: Any) -> Any:
        answer = create_subnet(params)
        if answer[0] != 200:
            return answer
        subnet = list(ec2._subnets.values())[-1]
        block = ec2._p(params, "Ipv6CidrBlock")
        if block:
            subnet["Ipv6CidrBlockAssociationSet"] = [_association("subnet-cidr-assoc", block)]
        if _flag(ec2._p(params, "Ipv6Native", "false")):
            subnet["Ipv6Native"] = True
            subnet["AvailableIpAddressCount"] = 0
        if not block and not subnet.get("Ipv6Native"):
            return answer
        return ec2._xml(200, "CreateSubnetResponse", ec2._subnet_fields_xml(subnet, tag="subnet"))

    def _subnet_fields_xml(subnet: Any, tag: str = "item") -> Any:
        text = subnet_xml(subnet, tag)
        assign = "true" if subnet.get("AssignIpv6AddressOnCreation") else "false"
        text = text.replace(
            "<assignIpv6AddressOnCreation>false</assignIpv6AddressOnCreation>",
            f"<assignIpv6AddressOnCreation>{assign}</assignIpv6AddressOnCreation>"
            + _association_set(subnet.get("Ipv6CidrBlockAssociationSet", []), pool=False),
            1,
        )
        if subnet.get("Ipv6Native"):
            text = text.replace("<ipv6Native>false</ipv6Native>", "<ipv6Native>true</ipv6Native>")
            text = text.replace(f"<cidrBlock>{subnet['CidrBlock']}</cidrBlock>", "", 1)
        return text

    def _matches_subnet_filters(subnet: Any, filters: Any) -> Any:
        passed, rest = _matches_ipv6(subnet, filters)
        return passed and subnet_filters(subnet, rest)

    def _modify_subnet_attribute(params: Any) -> Any:
        answer = modify_subnet(params)
        subnet = ec2._subnets.get(ec2._p(params, "SubnetId"))
        if answer[0] != 200 or subnet is None:
            return answer
        for member in ("AssignIpv6AddressOnCreation", "EnableDns64"):
            value = ec2._p(params, f"{member}.Value")
            if value:
                subnet[member] = _flag(value)
        return answer

    core.patch(ec2, "_create_subnet", _create_subnet)
    core.patch(ec2, "_subnet_fields_xml", _subnet_fields_xml)
    core.patch(ec2, "_matches_subnet_filters", _matches_subnet_filters)
    core.patch(ec2, "_modify_subnet_attribute", _modify_subnet_attribute)
    for action in ("CreateSubnet", "ModifySubnetAttribute"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))


def _snake(action: str) -> str:
    import re

    return re.sub(r"(?<!^)([A-Z])", r"_\1", action).lower()


#: The policy AWS gives an endpoint created without one (full access).
FULL_ACCESS = (
    '{"Version":"2008-10-17","Statement":[{"Effect":"Allow","Principal":"*",'
    '"Action":"*","Resource":"*"}]}'
)


def _endpoint_xml(ep: dict[str, Any], esc: Any) -> str:
    """The members of an endpoint MiniStack's answer leaves out, as DescribeVpcEndpoints
    writes them."""
    groups = "".join(
        f"<item><groupId>{g}</groupId><groupName>{esc(name)}</groupName></item>"
        for g, name in ep.get("Groups", [])
    )
    interfaces = "".join(f"<item>{i}</item>" for i in ep.get("NetworkInterfaceIds", []))
    dns = ep.get("DnsOptions")
    options = (
        "<dnsOptions>"
        f"<dnsRecordIpType>{dns['DnsRecordIpType']}</dnsRecordIpType>"
        "<privateDnsOnlyForInboundResolverEndpoint>"
        f"{'true' if dns['PrivateDnsOnlyForInboundResolverEndpoint'] else 'false'}"
        "</privateDnsOnlyForInboundResolverEndpoint></dnsOptions>"
        if dns
        else ""
    )
    address_type = ep.get("IpAddressType")
    return (
        f"<groupSet>{groups}</groupSet>"
        f"<policyDocument>{esc(ep.get('PolicyDocument') or FULL_ACCESS)}</policyDocument>"
        f"<privateDnsEnabled>{'true' if ep.get('PrivateDnsEnabled') else 'false'}"
        "</privateDnsEnabled>"
        f"<networkInterfaceIdSet>{interfaces}</networkInterfaceIdSet>"
        + options
        + (f"<ipAddressType>{address_type}</ipAddressType>" if address_type else "")
        + "<requesterManaged>false</requesterManaged>"
    )


def _endpoint_groups(ec2: Any, ids: list[str]) -> list[tuple[str, str]]:
    return [(g, ec2._security_groups.get(g, {}).get("GroupName", g)) for g in ids]


def _endpoint_dns(ec2: Any, params: Any, now: dict[str, Any] | None) -> dict[str, Any]:
    """An interface endpoint's DnsOptions: as asked, else as they were (``ipv4``, false)."""
    said = ec2._p(params, "DnsOptions.PrivateDnsOnlyForInboundResolverEndpoint")
    return {
        "DnsRecordIpType": ec2._p(params, "DnsOptions.DnsRecordIpType")
        or (now or {}).get("DnsRecordIpType", "ipv4"),
        "PrivateDnsOnlyForInboundResolverEndpoint": _flag(said)
        if said
        else (now or {}).get("PrivateDnsOnlyForInboundResolverEndpoint", False),
    }


def _endpoint_interface(ec2: Any, ep: dict[str, Any], subnet: str, address: str) -> str:
    """A network interface of the endpoint in ``subnet``, at ``address`` (else one of the
    subnet's, as AWS picks one), made by MiniStack's own CreateNetworkInterface."""
    import ipaddress
    import random

    before = set(ec2._network_interfaces)
    ec2._create_network_interface(
        {
            "SubnetId": [subnet],
            "Description": [f"VPC Endpoint Interface {ep['VpcEndpointId']}"],
            **{f"SecurityGroupId.{n}": [g] for n, (g, _) in enumerate(ep["Groups"], 1)},
        }
    )
    [made] = set(ec2._network_interfaces) - before
    record = ec2._network_interfaces[made]
    record["InterfaceType"] = "vpc_endpoint"
    record["RequesterManaged"] = True
    if not address:
        cidr = ec2._subnets.get(subnet, {}).get("CidrBlock") or "10.0.0.0/24"
        hosts = ipaddress.ip_network(cidr, strict=False)
        address = str(hosts[random.randrange(4, hosts.num_addresses - 1)])
    record["PrivateIpAddress"] = address
    return str(made)


@core.behaviour(
    BEHAVIOURS,
    "ec2.vpc-endpoint-settings",
    does="CreateVpcEndpoint keeps SecurityGroupIds, PolicyDocument (full access when none), "
    "PrivateDnsEnabled (true for an interface endpoint unless given), DnsOptions and "
    "IpAddressType (ipv4 unless given) and gives an interface endpoint a network interface "
    "in each subnet, at the address its SubnetConfiguration declares; ModifyVpcEndpoint "
    "changes them (Add/RemoveSecurityGroupId, PolicyDocument, ResetPolicy, "
    "PrivateDnsEnabled, DnsOptions); DeleteVpcEndpoints deletes the interfaces; "
    "DescribeVpcEndpoints answers them (MiniStack kept none of them, so every endpoint of "
    "the vpc module's vpc-endpoints planned its policy, security groups, private DNS and "
    "subnet configuration back on every run)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_VpcEndpoint.html",
    test="tests/integration/test_ministack_fidelity.py::test_vpc_endpoint_settings",
    replaces={
        "ministack.services.ec2:_create_vpc_endpoint": "d5a50e26518919f8",
        "ministack.services.ec2:_modify_vpc_endpoint": "f60c0a5a042f7718",
        "ministack.services.ec2:_delete_vpc_endpoints": "88183e801914411d",
        "ministack.services.ec2:_vpce_fields_xml": "645fd486d62227a3",
    },
)
def vpc_endpoint_settings() -> None:
    from ministack.services import ec2

    created = core.original(ec2, "_create_vpc_endpoint")
    modified = core.original(ec2, "_modify_vpc_endpoint")
    deleted = core.original(ec2, "_delete_vpc_endpoints")
    fields = core.original(ec2, "_vpce_fields_xml")

    def _create_vpc_endpoint(params: Any) -> Any:
        answer = created(params)
        if answer[0] != 200:
            return answer
        ep = list(ec2._vpc_endpoints.values())[-1]
        interface_type = ep["VpcEndpointType"] == "Interface"
        ep["Groups"] = _endpoint_groups(ec2, ec2._parse_member_list(params, "SecurityGroupId"))
        ep["PolicyDocument"] = ec2._p(params, "PolicyDocument") or FULL_ACCESS
        said = ec2._p(params, "PrivateDnsEnabled")
        ep["PrivateDnsEnabled"] = _flag(said) if said else interface_type
        if interface_type:
            ep["DnsOptions"] = _endpoint_dns(ec2, params, None)
            ep["IpAddressType"] = ec2._p(params, "IpAddressType") or "ipv4"
            declared = {}
            n = 1
            while subnet := ec2._p(params, f"SubnetConfiguration.{n}.SubnetId"):
                declared[subnet] = ec2._p(params, f"SubnetConfiguration.{n}.Ipv4")
                n += 1
            ep["NetworkInterfaceIds"] = [
                _endpoint_interface(ec2, ep, s, declared.get(s, ""))
                for s in ep.get("SubnetIds", [])
            ]
        return ec2._xml(
            200, "CreateVpcEndpointResponse", ec2._vpce_fields_xml(ep, tag="vpcEndpoint")
        )

    def _modify_vpc_endpoint(params: Any) -> Any:
        answer = modified(params)
        ep = ec2._vpc_endpoints.get(ec2._p(params, "VpcEndpointId"))
        if answer[0] != 200 or ep is None:
            return answer
        added = ec2._parse_member_list(params, "AddSecurityGroupId")
        removed = set(ec2._parse_member_list(params, "RemoveSecurityGroupId"))
        kept = [g for g, _ in ep.get("Groups", []) if g not in removed]
        ep["Groups"] = _endpoint_groups(ec2, kept + [g for g in added if g not in kept])
        if _flag(ec2._p(params, "ResetPolicy", "false")):
            ep["PolicyDocument"] = FULL_ACCESS
        said = ec2._p(params, "PrivateDnsEnabled")
        if said:
            ep["PrivateDnsEnabled"] = _flag(said)
        if ep["VpcEndpointType"] == "Interface":
            ep["DnsOptions"] = _endpoint_dns(ec2, params, ep.get("DnsOptions"))
            if ec2._p(params, "IpAddressType"):
                ep["IpAddressType"] = ec2._p(params, "IpAddressType")
        return answer

    def _delete_vpc_endpoints(params: Any) -> Any:
        for vpce_id in ec2._parse_member_list(params, "VpcEndpointId"):
            for eni in ec2._vpc_endpoints.get(vpce_id, {}).get("NetworkInterfaceIds", []):
                ec2._network_interfaces.pop(eni, None)
        return deleted(params)

    def _vpce_fields_xml(ep: Any, tag: str = "item") -> Any:
        text = fields(ep, tag)
        end = "</subnetIdSet>"
        return text.replace(end, end + _endpoint_xml(ep, ec2._esc), 1)

    core.patch(ec2, "_create_vpc_endpoint", _create_vpc_endpoint)
    core.patch(ec2, "_modify_vpc_endpoint", _modify_vpc_endpoint)
    core.patch(ec2, "_delete_vpc_endpoints", _delete_vpc_endpoints)
    core.patch(ec2, "_vpce_fields_xml", _vpce_fields_xml)
    for action in ("CreateVpcEndpoint", "ModifyVpcEndpoint", "DeleteVpcEndpoints"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))


@core.behaviour(
    BEHAVIOURS,
    "ec2.gateway-creation-settings",
    does="CreateCustomerGateway keeps DeviceName and CertificateArn, and it and "
    "CreateVpnGateway tag the gateway with their TagSpecifications (MiniStack read Tag.N "
    "only, which the API has not, and dropped DeviceName: an aws_customer_gateway's "
    "device_name and tags, an aws_vpn_gateway's tags planned back on every run)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/"
    "API_CreateCustomerGateway.html",
    test="tests/integration/test_ministack_fidelity.py::test_gateway_creation_settings",
    replaces={
        "ministack.services.ec2:_create_customer_gateway": "910e187ab0d99201",
        "ministack.services.ec2:_cgw_xml": "306260d895a3af60",
        "ministack.services.ec2:_create_vpn_gateway": "a7fb7197a421d7c5",
    },
)
def gateway_creation_settings() -> None:
    from ministack.services import ec2

    customer = core.original(ec2, "_create_customer_gateway")
    customer_xml = core.original(ec2, "_cgw_xml")
    vpn = core.original(ec2, "_create_vpn_gateway")

    def _create_customer_gateway(params: Any) -> Any:
        answer = customer(params)
        if answer[0] != 200:
            return answer
        gateway = list(ec2._customer_gateways.values())[-1]
        for member in ("DeviceName", "CertificateArn"):
            if ec2._p(params, member):
                gateway[member] = ec2._p(params, member)
        ec2._parse_tag_specs(params, "customer-gateway", gateway["CustomerGatewayId"])
        return ec2._xml(
            200, "CreateCustomerGatewayResponse", ec2._cgw_xml(gateway, tag="customerGateway")
        )

    def _cgw_xml(gateway: Any, tag: str = "item") -> Any:
        text = customer_xml(gateway, tag)
        extra = "".join(
            f"<{member[0].lower()}{member[1:]}>{ec2._esc(gateway[member])}"
            f"</{member[0].lower()}{member[1:]}>"
            for member in ("DeviceName", "CertificateArn")
            if gateway.get(member)
        )
        end = "</customerGatewayId>"
        return text.replace(end, end + extra, 1) if extra else text

    def _create_vpn_gateway(params: Any) -> Any:
        answer = vpn(params)
        if answer[0] != 200:
            return answer
        gateway = list(ec2._vpn_gateways.values())[-1]
        ec2._parse_tag_specs(params, "vpn-gateway", gateway["VpnGatewayId"])
        return ec2._xml(200, "CreateVpnGatewayResponse", ec2._vgw_xml(gateway, tag="vpnGateway"))

    core.patch(ec2, "_create_customer_gateway", _create_customer_gateway)
    core.patch(ec2, "_cgw_xml", _cgw_xml)
    core.patch(ec2, "_create_vpn_gateway", _create_vpn_gateway)
    for action in ("CreateCustomerGateway", "CreateVpnGateway"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))


#: A flow log's default record format, as AWS answers it when none was given.
DEFAULT_LOG_FORMAT = (
    "${version} ${account-id} ${interface-id} ${srcaddr} ${dstaddr} ${srcport} ${dstport} "
    "${protocol} ${packets} ${bytes} ${start} ${end} ${action} ${log-status}"
)


@core.behaviour(
    BEHAVIOURS,
    "ec2.flow-log-settings",
    does="CreateFlowLogs keeps DeliverLogsPermissionArn, MaxAggregationInterval (600 unless "
    "given), LogFormat (AWS's default format unless given) and tags the flow log with its "
    "TagSpecifications of type vpc-flow-log; DescribeFlowLogs answers them and the log group "
    "name (MiniStack kept none and tagged only a type flow-log, which AWS has not: an "
    "aws_flow_log's iam_role_arn, max_aggregation_interval and tags planned back every run)",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateFlowLogs.html",
    test="tests/integration/test_ministack_fidelity.py::test_flow_log_settings",
    replaces={
        "ministack.services.ec2:_create_flow_logs": "8882a038ef8ef39d",
        "ministack.services.ec2:_describe_flow_logs": "f05c0ab7a2014be5",
    },
)
def flow_log_settings() -> None:
    from ministack.services import ec2

    created = core.original(ec2, "_create_flow_logs")
    described = core.original(ec2, "_describe_flow_logs")

    def _create_flow_logs(params: Any) -> Any:
        before = set(ec2._flow_logs)
        answer = created(params)
        for made in [k for k in ec2._flow_logs if k not in before]:
            log = ec2._flow_logs[made]
            role = ec2._p(params, "DeliverLogsPermissionArn")
            if role:
                log["DeliverLogsPermissionArn"] = role
            log["MaxAggregationInterval"] = int(ec2._p(params, "MaxAggregationInterval") or 600)
            log["LogFormat"] = ec2._p(params, "LogFormat") or DEFAULT_LOG_FORMAT
            if ec2._p(params, "LogGroupName"):
                log["LogGroupName"] = ec2._p(params, "LogGroupName")
            ec2._parse_tag_specs(params, "vpc-flow-log", made)
        return answer

    def _describe_flow_logs(params: Any) -> Any:
        status, headers, body = described(params)
        if status != 200:
            return status, headers, body
        text = body.decode()
        for log in ec2._flow_logs.values():
            extra = "".join(
                f"<{member[0].lower()}{member[1:]}>{ec2._esc(str(log[member]))}"
                f"</{member[0].lower()}{member[1:]}>"
                for member in (
                    "DeliverLogsPermissionArn",
                    "MaxAggregationInterval",
                    "LogFormat",
                    "LogGroupName",
                )
                if member in log
            )
            mark = f"<flowLogId>{log['FlowLogId']}</flowLogId>"
            text = text.replace(mark, mark + extra, 1)
        return status, headers, text.encode()

    core.patch(ec2, "_create_flow_logs", _create_flow_logs)
    core.patch(ec2, "_describe_flow_logs", _describe_flow_logs)
    for action in ("CreateFlowLogs", "DescribeFlowLogs"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))


#: DescribeNetworkAcls filters MiniStack does not read, by what they compare.
_ACL_FILTERS = {
    "network-acl-id": lambda acl: [acl["NetworkAclId"]],
    "association.subnet-id": lambda acl: [a["SubnetId"] for a in acl["Associations"]],
    "association.association-id": lambda acl: [
        a["NetworkAclAssociationId"] for a in acl["Associations"]
    ],
    "association.network-acl-id": lambda acl: [acl["NetworkAclId"]] * bool(acl["Associations"]),
}


@core.behaviour(
    BEHAVIOURS,
    "ec2.network-acl-associations",
    does="a new subnet is associated with its VPC's default network ACL; "
    "ReplaceNetworkAclAssociation moves the subnet of the association it replaces; "
    "DescribeNetworkAcls filters by network-acl-id, association.subnet-id, "
    "association.association-id and association.network-acl-id (MiniStack associated no "
    "subnet, replaced an association with one of no subnet and ignored those filters, so the "
    "provider's lookup of a subnet's association found every ACL and an aws_network_acl with "
    "subnet_ids failed: 'too many results')",
    reference="https://docs.aws.amazon.com/AWSEC2/latest/APIReference/"
    "API_ReplaceNetworkAclAssociation.html",
    test="tests/integration/test_ministack_fidelity.py::test_network_acl_associations",
    replaces={
        "ministack.services.ec2:_describe_network_acls": "d022447444842024",
        "ministack.services.ec2:_replace_network_acl_association": "6e06924556a64e2e",
        "ministack.services.ec2:_create_subnet": "607e159b1f488dc9",
    },
)
def network_acl_associations() -> None:
    import random
    import string

    from ministack.services import ec2

    described = core.original(ec2, "_describe_network_acls")
    replaced = core.original(ec2, "_replace_network_acl_association")
    create_subnet = core.original(ec2, "_create_subnet")  # perhaps ec2.ipv6-addressing's

    def association_id() -> str:
        return "aclassoc-" + "".join(random.choices(string.hexdigits[:16], k=17))

    def _create_subnet(params: Any) -> Any:
        answer = create_subnet(params)
        if answer[0] != 200:
            return answer
        subnet = list(ec2._subnets.values())[-1]
        default = next(
            (
                acl
                for acl in ec2._network_acls.values()
                if acl["VpcId"] == subnet["VpcId"] and acl.get("IsDefault")
            ),
            None,
        )
        if default is not None:
            default["Associations"].append(
                {"NetworkAclAssociationId": association_id(), "SubnetId": subnet["SubnetId"]}
            )
        return answer

    def _replace_network_acl_association(params: Any) -> Any:
        old = ec2._p(params, "AssociationId")
        subnet = next(
            (
                a["SubnetId"]
                for acl in ec2._network_acls.values()
                for a in acl["Associations"]
                if a["NetworkAclAssociationId"] == old
            ),
            "",
        )
        answer = replaced(params)
        if answer[0] == 200 and subnet:
            made = ec2._network_acls[ec2._p(params, "NetworkAclId")]["Associations"][-1]
            made["SubnetId"] = subnet
        return answer

    def _describe_network_acls(params: Any) -> Any:
        filters = ec2._parse_filters(params)
        asked = {name: set(filters[name]) for name in _ACL_FILTERS if name in filters}
        if not asked:
            return described(params)
        kept = [
            acl["NetworkAclId"]
            for acl in ec2._network_acls.values()
            if all(set(_ACL_FILTERS[name](acl)) & values for name, values in asked.items())
        ]
        named = ec2._parse_member_list(params, "NetworkAclId")
        kept = [k for k in kept if not named or k in named]
        if not kept:
            return ec2._xml(200, "DescribeNetworkAclsResponse", "<networkAclSet></networkAclSet>")
        narrowed = {k: v for k, v in params.items() if not k.startswith("NetworkAclId.")}
        narrowed.update({f"NetworkAclId.{n}": [k] for n, k in enumerate(kept, 1)})
        return described(narrowed)

    core.patch(ec2, "_create_subnet", _create_subnet)
    core.patch(ec2, "_replace_network_acl_association", _replace_network_acl_association)
    core.patch(ec2, "_describe_network_acls", _describe_network_acls)
    for action in ("CreateSubnet", "ReplaceNetworkAclAssociation", "DescribeNetworkAcls"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))
