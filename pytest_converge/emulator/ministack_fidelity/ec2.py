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
    import random
    import string

    from ministack.services import ec2

    create_vpc = core.original(ec2, "_create_vpc")
    vpc_xml = core.original(ec2, "_vpc_fields_xml")
    vpc_filters = core.original(ec2, "_matches_vpc_filters")
    create_subnet = core.original(ec2, "_create_subnet")
    subnet_xml = core.original(ec2, "_subnet_fields_xml")
    subnet_filters = core.original(ec2, "_matches_subnet_filters")
    modify_subnet = core.original(ec2, "_modify_subnet_attribute")

    def association(prefix: str, block: str) -> dict[str, Any]:
        suffix = "".join(random.choices(string.hexdigits[:16], k=17))
        return {
            "AssociationId": f"{prefix}-{suffix}",
            "Ipv6CidrBlock": block,
            "State": "associated",
        }

    def _create_vpc(params: Any) -> Any:
        answer = create_vpc(params)
        if answer[0] != 200 or not _flag(ec2._p(params, "AmazonProvidedIpv6CidrBlock", "false")):
            return answer
        vpc = list(ec2._vpcs.values())[-1]  # the one just made (dicts keep their order)
        border = ec2._p(params, "Ipv6CidrBlockNetworkBorderGroup") or ec2.get_region()
        block = association("vpc-cidr-assoc", _ipv6_block(56))
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

    def _create_subnet(params: Any) -> Any:
        answer = create_subnet(params)
        if answer[0] != 200:
            return answer
        subnet = list(ec2._subnets.values())[-1]
        block = ec2._p(params, "Ipv6CidrBlock")
        if block:
            subnet["Ipv6CidrBlockAssociationSet"] = [association("subnet-cidr-assoc", block)]
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

    core.patch(ec2, "_create_vpc", _create_vpc)
    core.patch(ec2, "_vpc_fields_xml", _vpc_fields_xml)
    core.patch(ec2, "_matches_vpc_filters", _matches_vpc_filters)
    core.patch(ec2, "_create_subnet", _create_subnet)
    core.patch(ec2, "_subnet_fields_xml", _subnet_fields_xml)
    core.patch(ec2, "_matches_subnet_filters", _matches_subnet_filters)
    core.patch(ec2, "_modify_subnet_attribute", _modify_subnet_attribute)
    for action in ("CreateVpc", "CreateSubnet", "ModifySubnetAttribute"):
        ec2._ACTION_MAP[action] = getattr(ec2, "_" + _snake(action))


def _snake(action: str) -> str:
    import re

    return re.sub(r"(?<!^)([A-Z])", r"_\1", action).lower()
