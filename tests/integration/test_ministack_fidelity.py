"""MiniStack's fidelity layer (:mod:`pytest_converge.emulator.ministack_fidelity`): each
behaviour against the plugin's MiniStack and against MiniStack as released (its
``retire`` message fails the test once MiniStack answers so itself), the digests it
recorded against MiniStack's source, and a stale one named in the session's output.

MiniStack runs from its own environment; without one these tests skip, saying why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.emulator.ministack import (
    EXECUTABLE_ENV,
    FIDELITY_DIR,
    PINNED_VERSION,
    MiniStackEmulator,
    find_ministack,
    ministack_missing,
    python_of,
)
from pytest_converge.emulator.ministack_fidelity import MINISTACK_VERSIONS, behaviours

COMMAND, _ = find_ministack()
pytestmark = pytest.mark.skipif(
    COMMAND is None, reason=f"needs MiniStack: {ministack_missing() or ''}"
)


def retire(name: str) -> str:
    return f"MiniStack {PINNED_VERSION} answers so itself: retire the fidelity behaviour {name}"


def test_the_pinned_release_is_the_one_provisioned() -> None:
    assert PINNED_VERSION in MINISTACK_VERSIONS


def test_every_behaviour_is_installed(ministack: MiniStackEmulator) -> None:
    status = ministack.fidelity()
    assert status["ministack"] == PINNED_VERSION
    assert status["behaviours"] == {f"ministack:{b.name}": "installed" for b in behaviours()}


def test_all_off_leaves_ministack_as_released(raw_ministack: MiniStackEmulator) -> None:
    assert set(raw_ministack.fidelity()["behaviours"].values()) == {"off"}


def test_the_recorded_digests_are_ministacks_source() -> None:
    """Every function a behaviour replaces still has the digest it recorded; on a
    MiniStack upgrade this fails, printing each function's digest now."""
    assert COMMAND is not None
    python = python_of(COMMAND.argv)
    if python is None:
        pytest.skip(f"{COMMAND} is not a Python the digests can be read in")
    init, here = str(FIDELITY_DIR / "__init__.py"), str(FIDELITY_DIR)
    program = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('layer', {init!r},"
        f" submodule_search_locations=[{here!r}])\n"
        "layer = importlib.util.module_from_spec(spec); sys.modules['layer'] = layer\n"
        "spec.loader.exec_module(layer)\n"
        "print(json.dumps({d: layer.core.source_digest(d) for b in layer.behaviours()"
        " for d in b.replaces}))\n"
    )
    now = json.loads(subprocess.run([python, "-c", program], capture_output=True,
                                    text=True, check=True, timeout=60).stdout)  # fmt: skip
    recorded = {d: digest for b in behaviours() for d, digest in b.replaces.items()}
    assert now == recorded, f"re-check these behaviours against MiniStack's source: {now}"


def _parameters(emulator: MiniStackEmulator, group: str, **asked: Any) -> dict[str, str]:
    cache = emulator.client("elasticache")
    found = cache.describe_cache_parameters(CacheParameterGroupName=group, **asked)
    return {p["ParameterName"]: p.get("Source", "") for p in found["Parameters"]}


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_parameters_by_source(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """``Source=user`` answers the parameters set on the group, no default (the aws
    provider reads a parameter group so)."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    cache = emulator.client("elasticache")
    cache.create_cache_parameter_group(
        CacheParameterGroupName="redis", CacheParameterGroupFamily="redis7", Description="d"
    )
    cache.modify_cache_parameter_group(
        CacheParameterGroupName="redis",
        ParameterNameValues=[
            {"ParameterName": "maxmemory-policy", "ParameterValue": "allkeys-lru"}
        ],
    )
    every = _parameters(emulator, "redis")
    assert len(every) > 1 and every["maxmemory-policy"] == "user"
    user = _parameters(emulator, "redis", Source="user")
    if which == "plugin":
        assert user == {"maxmemory-policy": "user"}
    else:
        assert user == every, retire("elasticache.parameters-by-source")


def test_a_stale_behaviour_is_named_in_the_sessions_output(tmp_path: Path) -> None:
    """MiniStack's function under a behaviour changed (the test's digest stands in for the
    one recorded): MiniStack runs without it, and the session's summary and JSON report
    say which and why."""
    assert COMMAND is not None
    (tmp_path / "test_uses_ministack.py").write_text(
        "def test_uses_the_emulator(converge_emulator):\n"
        "    assert converge_emulator.name == 'ministack'\n"
        "    assert converge_emulator.client('sqs').list_queues().get('QueueUrls', []) == []\n"
    )
    dotted = "ministack.services.elasticache:_describe_cache_parameters"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0",
         "--converge-backend", "ministack", "--converge-report", "converge.json", str(tmp_path)],
        cwd=tmp_path,
        env={**os.environ, EXECUTABLE_ENV: COMMAND.argv[0],
             "CONVERGE_MOTO_FIDELITY_RECORDED": f"{dotted}=0000000000000000"},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    out = proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout, out
    assert "the ministack emulator left out 1 behaviour(s) of its fidelity layer" in out, out
    why = f"stale: {dotted} changed"
    assert f"ministack:elasticache.parameters-by-source: {why}" in out, out
    report = json.loads((tmp_path / "converge.json").read_text())
    assert report["fidelity"] == {"ministack:elasticache.parameters-by-source": why}


def _file_system(emulator: MiniStackEmulator) -> str:
    emulator.reset()
    return str(emulator.client("efs").create_file_system(CreationToken="fs")["FileSystemId"])


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_access_point_posix_user(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """An access point made without a POSIX user has none; one made with keeps it."""
    emulator = ministack if which == "plugin" else raw_ministack
    efs = emulator.client("efs")
    system = _file_system(emulator)
    bare = efs.create_access_point(FileSystemId=system)
    user = {"Uid": 1001, "Gid": 1001, "SecondaryGids": [1002]}
    posix = efs.create_access_point(FileSystemId=system, PosixUser=user)
    described = {
        a["AccessPointId"]: a
        for a in efs.describe_access_points(FileSystemId=system)["AccessPoints"]
    }
    assert described[posix["AccessPointId"]]["PosixUser"] == user
    if which == "plugin":
        assert "PosixUser" not in bare
        assert "PosixUser" not in described[bare["AccessPointId"]]
    else:
        assert described[bare["AccessPointId"]].get("PosixUser") == {}, retire(
            "efs.access-point-posix-user"
        )


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_policy_id_as_given(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A policy without an Id reads back without one; one with an Id keeps it."""
    emulator = ministack if which == "plugin" else raw_ministack
    efs = emulator.client("efs")
    system = _file_system(emulator)
    statement = {
        "Sid": "Mount",
        "Effect": "Allow",
        "Principal": {"AWS": "*"},
        "Action": "elasticfilesystem:ClientMount",
        "Resource": f"arn:aws:elasticfilesystem:us-east-1:123456789012:file-system/{system}",
    }
    put = {"Version": "2012-10-17", "Statement": [statement]}
    efs.put_file_system_policy(FileSystemId=system, Policy=json.dumps(put))
    read = json.loads(efs.describe_file_system_policy(FileSystemId=system)["Policy"])
    if which == "plugin":
        assert read == put
        efs.put_file_system_policy(FileSystemId=system, Policy=json.dumps({**put, "Id": "mine"}))
        again = json.loads(efs.describe_file_system_policy(FileSystemId=system)["Policy"])
        assert again == {**put, "Id": "mine"}
    else:
        assert read == {**put, "Id": "1"}, retire("efs.policy-id-as-given")


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_security_group_rule_prefix_lists(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """An egress rule to a prefix list keeps it: DescribeSecurityGroups and
    DescribeSecurityGroupRules answer it, and revoking the same permission removes it."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    group = ec2.create_security_group(GroupName="g", Description="d", VpcId=vpc)["GroupId"]
    listed = ec2.describe_managed_prefix_lists()["PrefixLists"][0]["PrefixListId"]
    permission = {
        "IpProtocol": "tcp",
        "FromPort": 443,
        "ToPort": 443,
        "PrefixListIds": [{"PrefixListId": listed, "Description": "to s3"}],
    }
    ec2.authorize_security_group_egress(GroupId=group, IpPermissions=[permission])

    def egress() -> list[dict[str, Any]]:
        found = ec2.describe_security_groups(GroupIds=[group])["SecurityGroups"][0]
        return [p for p in found["IpPermissionsEgress"] if p["IpProtocol"] == "tcp"]

    rules = ec2.describe_security_group_rules(Filters=[{"Name": "group-id", "Values": [group]}])[
        "SecurityGroupRules"
    ]
    if which == "raw":
        assert [p["PrefixListIds"] for p in egress()] == [[]], retire(
            "ec2.security-group-rule-prefix-lists"
        )
        return
    assert [p["PrefixListIds"] for p in egress()] == [permission["PrefixListIds"]]
    [rule] = [r for r in rules if r.get("PrefixListId")]
    assert (rule["PrefixListId"], rule["IsEgress"], rule["Description"]) == (listed, True, "to s3")
    ec2.revoke_security_group_egress(GroupId=group, IpPermissions=[permission])
    assert egress() == []


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_vpc_endpoint_services(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """The interface endpoint services the vpc module's examples ask for are listed (S3 as
    an Interface and a Gateway service); MiniStack's own are still there."""
    emulator = ministack if which == "plugin" else raw_ministack
    ec2 = emulator.client("ec2")

    def named(service: str, kind: str) -> list[str]:
        found = ec2.describe_vpc_endpoint_services(
            Filters=[
                {"Name": "service-name", "Values": [f"com.amazonaws.us-east-1.{service}"]},
                {"Name": "service-type", "Values": [kind]},
            ]
        )
        return [d["ServiceName"] for d in found["ServiceDetails"]]

    assert named("s3", "Gateway") == ["com.amazonaws.us-east-1.s3"]
    assert named("sqs", "Interface") == ["com.amazonaws.us-east-1.sqs"]
    asked = {name: named(name, "Interface") for name in ("ecs", "ecs-telemetry", "rds", "s3")}
    if which == "raw":
        assert asked == {name: [] for name in asked}, retire("ec2.vpc-endpoint-services")
    else:
        assert asked == {name: [f"com.amazonaws.us-east-1.{name}"] for name in asked}


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_route_destinations(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A ``::/0`` route to an internet gateway and one to an egress-only internet gateway
    read back with their IPv6 destination and target, and are deleted by it."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    gateway = ec2.create_internet_gateway()["InternetGateway"]["InternetGatewayId"]
    ec2.attach_internet_gateway(InternetGatewayId=gateway, VpcId=vpc)
    egress = ec2.create_egress_only_internet_gateway(VpcId=vpc)["EgressOnlyInternetGateway"][
        "EgressOnlyInternetGatewayId"
    ]
    public = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    private = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]
    ec2.create_route(RouteTableId=public, DestinationIpv6CidrBlock="::/0", GatewayId=gateway)
    ec2.create_route(
        RouteTableId=private, DestinationIpv6CidrBlock="::/0", EgressOnlyInternetGatewayId=egress
    )

    def created(table: str) -> list[dict[str, Any]]:
        [found] = ec2.describe_route_tables(RouteTableIds=[table])["RouteTables"]
        return [
            {k: v for k, v in r.items() if k not in ("State", "Origin")}
            for r in found["Routes"]
            if r.get("Origin") == "CreateRoute"
        ]

    if which == "raw":
        assert created(public) == [{"DestinationCidrBlock": "", "GatewayId": gateway}], retire(
            "ec2.route-destinations"
        )
        return
    assert created(public) == [{"DestinationIpv6CidrBlock": "::/0", "GatewayId": gateway}]
    assert created(private) == [
        {"DestinationIpv6CidrBlock": "::/0", "EgressOnlyInternetGatewayId": egress}
    ]
    ec2.delete_route(RouteTableId=private, DestinationIpv6CidrBlock="::/0")
    assert created(private) == []


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_ipv6_addressing(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A VPC asking for an Amazon-provided IPv6 block has one; a dual-stack subnet keeps its
    /64 and IPv6 attributes, an IPv6-only one has no IPv4 CIDR; both are found by their
    association's filters, as the aws provider looks them up."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]
    [described] = ec2.describe_vpcs(VpcIds=[vpc["VpcId"]])["Vpcs"]
    if which == "raw":
        assert "Ipv6CidrBlockAssociationSet" not in described, retire("ec2.ipv6-addressing")
        return
    [block] = described["Ipv6CidrBlockAssociationSet"]
    assert block == vpc["Ipv6CidrBlockAssociationSet"][0]
    assert block["Ipv6CidrBlock"].endswith("00::/56")
    assert (block["Ipv6CidrBlockState"]["State"], block["Ipv6Pool"]) == ("associated", "Amazon")
    by_block = ec2.describe_vpcs(
        Filters=[
            {
                "Name": "ipv6-cidr-block-association.association-id",
                "Values": [block["AssociationId"]],
            }
        ]
    )
    assert [v["VpcId"] for v in by_block["Vpcs"]] == [vpc["VpcId"]]

    prefix = block["Ipv6CidrBlock"].split("00::/56")[0]
    dual = ec2.create_subnet(
        VpcId=vpc["VpcId"], CidrBlock="10.0.1.0/24", Ipv6CidrBlock=f"{prefix}01::/64"
    )["Subnet"]
    ec2.modify_subnet_attribute(
        SubnetId=dual["SubnetId"], AssignIpv6AddressOnCreation={"Value": True}
    )
    only = ec2.create_subnet(VpcId=vpc["VpcId"], Ipv6Native=True, Ipv6CidrBlock=f"{prefix}02::/64")[
        "Subnet"
    ]
    ec2.modify_subnet_attribute(SubnetId=only["SubnetId"], EnableDns64={"Value": True})
    [association] = dual["Ipv6CidrBlockAssociationSet"]
    found = ec2.describe_subnets(
        Filters=[
            {
                "Name": "ipv6-cidr-block-association.association-id",
                "Values": [association["AssociationId"]],
            }
        ]
    )["Subnets"]
    assert [s["SubnetId"] for s in found] == [dual["SubnetId"]]
    assert found[0]["AssignIpv6AddressOnCreation"] is True
    assert found[0]["Ipv6CidrBlockAssociationSet"][0]["Ipv6CidrBlock"] == f"{prefix}01::/64"
    [native] = ec2.describe_subnets(Filters=[{"Name": "ipv6-native", "Values": ["true"]}])[
        "Subnets"
    ]
    assert native["SubnetId"] == only["SubnetId"] and "CidrBlock" not in native
    assert (native["AvailableIpAddressCount"], native["EnableDns64"]) == (0, True)


def _vpc_with_subnet(ec2: Any) -> tuple[str, str]:
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.0.0/24")["Subnet"]["SubnetId"]
    return vpc, subnet


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_vpc_endpoint_settings(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """An interface endpoint keeps its groups, policy, private DNS and DNS options, and its
    interface takes the declared address; a gateway endpoint has the full-access policy."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc, subnet = _vpc_with_subnet(ec2)
    group = ec2.create_security_group(GroupName="e", Description="d", VpcId=vpc)["GroupId"]
    policy = json.dumps({"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "*"}]})
    made = ec2.create_vpc_endpoint(
        VpcId=vpc,
        ServiceName="com.amazonaws.us-east-1.ecs",
        VpcEndpointType="Interface",
        SubnetIds=[subnet],
        SecurityGroupIds=[group],
        PolicyDocument=policy,
        SubnetConfigurations=[{"SubnetId": subnet, "Ipv4": "10.0.0.10"}],
    )["VpcEndpoint"]
    gateway = ec2.create_vpc_endpoint(VpcId=vpc, ServiceName="com.amazonaws.us-east-1.s3")
    [endpoint] = ec2.describe_vpc_endpoints(VpcEndpointIds=[made["VpcEndpointId"]])["VpcEndpoints"]
    if which == "raw":
        assert "Groups" not in endpoint, retire("ec2.vpc-endpoint-settings")
        return
    assert [g["GroupId"] for g in endpoint["Groups"]] == [group]
    assert endpoint["PolicyDocument"] == policy and endpoint["PrivateDnsEnabled"] is True
    assert endpoint["DnsOptions"]["DnsRecordIpType"] == "ipv4"
    [interface] = ec2.describe_network_interfaces(
        NetworkInterfaceIds=endpoint["NetworkInterfaceIds"]
    )["NetworkInterfaces"]
    assert (interface["SubnetId"], interface["PrivateIpAddress"]) == (subnet, "10.0.0.10")
    assert json.loads(gateway["VpcEndpoint"]["PolicyDocument"])["Statement"][0]["Effect"] == (
        "Allow"
    )
    assert gateway["VpcEndpoint"]["PrivateDnsEnabled"] is False
    ec2.modify_vpc_endpoint(
        VpcEndpointId=made["VpcEndpointId"],
        RemoveSecurityGroupIds=[group],
        ResetPolicy=True,
        PrivateDnsEnabled=False,
    )
    [changed] = ec2.describe_vpc_endpoints(VpcEndpointIds=[made["VpcEndpointId"]])["VpcEndpoints"]
    assert changed["Groups"] == [] and changed["PrivateDnsEnabled"] is False
    assert json.loads(changed["PolicyDocument"])["Statement"][0]["Action"] == "*"
    ec2.delete_vpc_endpoints(VpcEndpointIds=[made["VpcEndpointId"]])
    left = ec2.describe_network_interfaces()["NetworkInterfaces"]
    assert interface["NetworkInterfaceId"] not in {i["NetworkInterfaceId"] for i in left}


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_gateway_creation_settings(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A customer gateway keeps its device name and creation tags; a VPN gateway its tags."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    tags = [{"Key": "Name", "Value": "branch"}]
    customer = ec2.create_customer_gateway(
        BgpAsn=65000,
        PublicIp="203.0.113.12",
        Type="ipsec.1",
        DeviceName="edge-1",
        TagSpecifications=[{"ResourceType": "customer-gateway", "Tags": tags}],
    )["CustomerGateway"]
    vpn = ec2.create_vpn_gateway(
        Type="ipsec.1", TagSpecifications=[{"ResourceType": "vpn-gateway", "Tags": tags}]
    )["VpnGateway"]
    [read] = ec2.describe_customer_gateways(CustomerGatewayIds=[customer["CustomerGatewayId"]])[
        "CustomerGateways"
    ]
    [gateway] = ec2.describe_vpn_gateways(VpnGatewayIds=[vpn["VpnGatewayId"]])["VpnGateways"]
    if which == "raw":
        assert (read["Tags"], gateway["Tags"], read.get("DeviceName")) == ([], [], None), retire(
            "ec2.gateway-creation-settings"
        )
        return
    assert (read["DeviceName"], read["Tags"], gateway["Tags"]) == ("edge-1", tags, tags)


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_flow_log_settings(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A flow log keeps its role, aggregation interval and tags; its format is AWS's default."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc, _ = _vpc_with_subnet(ec2)
    role = "arn:aws:iam::123456789012:role/flow-logs"
    tags = [{"Key": "Name", "Value": "flow"}]
    made = ec2.create_flow_logs(
        ResourceIds=[vpc],
        ResourceType="VPC",
        TrafficType="ALL",
        LogGroupName="flow-logs",
        DeliverLogsPermissionArn=role,
        MaxAggregationInterval=60,
        TagSpecifications=[{"ResourceType": "vpc-flow-log", "Tags": tags}],
    )
    [log] = ec2.describe_flow_logs(FlowLogIds=made["FlowLogIds"])["FlowLogs"]
    if which == "raw":
        assert "DeliverLogsPermissionArn" not in log and log["Tags"] == [], retire(
            "ec2.flow-log-settings"
        )
        return
    assert (log["DeliverLogsPermissionArn"], log["MaxAggregationInterval"]) == (role, 60)
    assert log["Tags"] == tags and log["LogFormat"].startswith("${version} ${account-id}")


@pytest.mark.parametrize("which", ["plugin", "raw"])
def test_network_acl_associations(
    which: str, ministack: MiniStackEmulator, raw_ministack: MiniStackEmulator
) -> None:
    """A new subnet is associated with its VPC's default ACL; replacing that association
    moves the subnet to another ACL, which ``association.subnet-id`` then finds alone, as
    the aws provider finds it."""
    emulator = ministack if which == "plugin" else raw_ministack
    emulator.reset()
    ec2 = emulator.client("ec2")
    vpc, subnet = _vpc_with_subnet(ec2)
    acl = ec2.create_network_acl(VpcId=vpc)["NetworkAcl"]["NetworkAclId"]

    def associated(*filters: tuple[str, str]) -> list[tuple[str, str]]:
        found = ec2.describe_network_acls(
            Filters=[{"Name": name, "Values": [value]} for name, value in filters]
        )["NetworkAcls"]
        return [
            (a["NetworkAclId"], a["NetworkAclAssociationId"])
            for found_acl in found
            for a in found_acl["Associations"]
            if a["SubnetId"] == subnet
        ]

    default = associated(("vpc-id", vpc), ("default", "true"))
    if which == "raw":
        assert default == [], retire("ec2.network-acl-associations")
        return
    [(default_acl, association)] = default
    ec2.replace_network_acl_association(AssociationId=association, NetworkAclId=acl)
    found = ec2.describe_network_acls(
        Filters=[{"Name": "association.subnet-id", "Values": [subnet]}]
    )["NetworkAcls"]
    assert [a["NetworkAclId"] for a in found] == [acl] and default_acl != acl
    assert [a["SubnetId"] for a in found[0]["Associations"]] == [subnet]
    none = ec2.describe_network_acls(Filters=[{"Name": "network-acl-id", "Values": ["acl-0"]}])
    assert none["NetworkAcls"] == []
