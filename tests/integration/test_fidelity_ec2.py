"""The fidelity layer's EC2 behaviours, asked through boto3 of the embedded server.

Each test asks the session's moto (fidelity layer on) and a moto with it off
the same question: the first must answer as the EC2 API reference says
(``pytest_converge/emulator/fidelity/ec2.py`` names the page), the second
still answers as moto 5.2 does. When moto answers as AWS does itself, the
second assertion fails: retire the behaviour.
"""

from __future__ import annotations

from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from botocore.parsers import ResponseParserError


def retire(name: str) -> str:
    return f"moto {version('moto')} answers so itself: retire the fidelity behaviour {name}"


def _dual_stack_subnet(ec2: Any, native: bool = False) -> dict[str, Any]:
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]["VpcId"]
    [v6] = ec2.describe_vpcs(VpcIds=[vpc])["Vpcs"][0]["Ipv6CidrBlockAssociationSet"]
    block = v6["Ipv6CidrBlock"].replace("::/56", "::/64")
    if native:
        return ec2.create_subnet(VpcId=vpc, Ipv6Native=True, Ipv6CidrBlock=block)["Subnet"]
    return ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.0.0/24", Ipv6CidrBlock=block)["Subnet"]


def _association_state(emulator: Any) -> str:
    ec2 = emulator.client("ec2")
    subnet = _dual_stack_subnet(ec2)
    [described] = ec2.describe_subnets(SubnetIds=[subnet["SubnetId"]])["Subnets"]
    [association] = described["Ipv6CidrBlockAssociationSet"]
    return association["Ipv6CidrBlockState"]["State"]


def test_a_subnets_ipv6_association_state_is_a_string(emulator, raw_moto) -> None:
    assert _association_state(emulator) == "associated"
    assert _association_state(raw_moto) == "{'State': 'associated'}", retire(
        "ec2.subnet-ipv6-association-state"
    )


def _subnet_attributes(emulator: Any) -> tuple[Any, Any, Any, Any]:
    ec2 = emulator.client("ec2")
    subnet = _dual_stack_subnet(ec2)["SubnetId"]
    [before] = ec2.describe_subnets(SubnetIds=[subnet])["Subnets"]
    ec2.modify_subnet_attribute(SubnetId=subnet, EnableDns64={"Value": True})
    ec2.modify_subnet_attribute(
        SubnetId=subnet, EnableResourceNameDnsAAAARecordOnLaunch={"Value": True}
    )
    ec2.modify_subnet_attribute(SubnetId=subnet, PrivateDnsHostnameTypeOnLaunch="resource-name")
    [after] = ec2.describe_subnets(SubnetIds=[subnet])["Subnets"]
    options = after["PrivateDnsNameOptionsOnLaunch"]
    return (
        before.get("EnableDns64"),
        after.get("EnableDns64"),
        options.get("EnableResourceNameDnsAAAARecord"),
        options.get("HostnameType"),
    )


def test_a_subnets_dns64_and_dns_name_options_are_read_back(emulator, raw_moto) -> None:
    assert _subnet_attributes(emulator) == (False, True, True, "resource-name")
    assert _subnet_attributes(raw_moto) == (None, None, False, "ip-name"), retire(
        "ec2.subnet-attributes"
    )


def _ipv6_only(emulator: Any) -> tuple[int, str]:
    subnet = _dual_stack_subnet(emulator.client("ec2"), native=True)
    return (
        subnet["AvailableIpAddressCount"],
        subnet["PrivateDnsNameOptionsOnLaunch"]["HostnameType"],
    )


def test_an_ipv6_only_subnet_has_no_ipv4_addresses(emulator, raw_moto) -> None:
    assert _ipv6_only(emulator) == (0, "resource-name")
    assert _ipv6_only(raw_moto) == (2**64 - 5, "ip-name"), retire("ec2.ipv6-only-subnet")


def _found_by_association(emulator: Any) -> list[str]:
    ec2 = emulator.client("ec2")
    subnet = _dual_stack_subnet(ec2)
    vpc = subnet["VpcId"]
    [association] = subnet["Ipv6CidrBlockAssociationSet"]
    found = []
    for name, value in [
        ("ipv6-cidr-block-association.association-id", association["AssociationId"]),
        ("ipv6-cidr-block-association.ipv6-cidr-block", association["Ipv6CidrBlock"]),
        ("ipv6-cidr-block-association.state", "associated"),
        ("ipv6-native", "false"),
    ]:
        filters = [{"Name": name, "Values": [value]}, {"Name": "vpc-id", "Values": [vpc]}]
        subnets = ec2.describe_subnets(Filters=filters)["Subnets"]
        found.extend(s["SubnetId"] for s in subnets)
    assert found == [subnet["SubnetId"]] * 4
    return found


def test_subnets_are_found_by_their_ipv6_association(emulator, raw_moto) -> None:
    _found_by_association(emulator)
    with pytest.raises(ResponseParserError, match="500 Internal Server Error"):
        _found_by_association(raw_moto)  # FilterNotImplementedError


def _device_name(emulator: Any) -> Any:
    ec2 = emulator.client("ec2")
    created = ec2.create_customer_gateway(
        Type="ipsec.1", BgpAsn=65112, PublicIp="1.2.3.4", DeviceName="edge-router"
    )["CustomerGateway"]
    [described] = ec2.describe_customer_gateways(CustomerGatewayIds=[created["CustomerGatewayId"]])[
        "CustomerGateways"
    ]
    return described.get("DeviceName")


def test_a_customer_gateways_device_name_is_kept(emulator, raw_moto) -> None:
    assert _device_name(emulator) == "edge-router"
    assert _device_name(raw_moto) is None, retire("ec2.customer-gateway-device-name")


def _dhcp_tags(emulator: Any) -> list[dict[str, str]]:
    ec2 = emulator.client("ec2")
    created = ec2.create_dhcp_options(
        DhcpConfigurations=[{"Key": "domain-name", "Values": ["example.internal"]}],
        TagSpecifications=[
            {"ResourceType": "dhcp-options", "Tags": [{"Key": "Name", "Value": "complete"}]}
        ],
    )["DhcpOptions"]
    [described] = ec2.describe_dhcp_options(DhcpOptionsIds=[created["DhcpOptionsId"]])[
        "DhcpOptions"
    ]
    return described["Tags"]


def test_dhcp_options_are_tagged_at_creation(emulator, raw_moto) -> None:
    assert _dhcp_tags(emulator) == [{"Key": "Name", "Value": "complete"}]
    assert _dhcp_tags(raw_moto) == [], retire("ec2.dhcp-options-tags")


def _launch_template(emulator: Any) -> tuple[Any, list[dict[str, str]]]:
    ec2 = emulator.client("ec2")
    instance = [{"ResourceType": "instance", "Tags": [{"Key": "Name", "Value": "web"}]}]
    made = ec2.create_launch_template(
        LaunchTemplateName="ex",
        LaunchTemplateData={"ImageId": "ami-12c6146b", "TagSpecifications": instance},
        TagSpecifications=[
            {"ResourceType": "launch-template", "Tags": [{"Key": "Team", "Value": "core"}]}
        ],
    )["LaunchTemplate"]
    bare = ec2.create_launch_template(
        LaunchTemplateName="bare",
        LaunchTemplateData={"ImageId": "ami-12c6146b"},
        TagSpecifications=[
            {"ResourceType": "launch-template", "Tags": [{"Key": "Team", "Value": "core"}]}
        ],
    )["LaunchTemplate"]
    data = [
        ec2.describe_launch_template_versions(LaunchTemplateId=template["LaunchTemplateId"])[
            "LaunchTemplateVersions"
        ][0]["LaunchTemplateData"].get("TagSpecifications")
        for template in (made, bare)
    ]
    [described] = ec2.describe_launch_templates(LaunchTemplateIds=[made["LaunchTemplateId"]])[
        "LaunchTemplates"
    ]
    return data, described["Tags"]


def test_a_launch_templates_own_tags_stay_out_of_its_data(emulator, raw_moto) -> None:
    instance = {"ResourceType": "instance", "Tags": [{"Key": "Name", "Value": "web"}]}
    own = {"ResourceType": "launch-template", "Tags": [{"Key": "Team", "Value": "core"}]}
    # The template is tagged; its data keeps what was given in it, and nothing else.
    assert _launch_template(emulator) == ([[instance], None], [own["Tags"][0]])
    # The layer off: moto 5.2 adds the template's own tags to its data.
    assert _launch_template(raw_moto)[0] == [[instance, own], [own]], retire(
        "ec2.launch-template-data-tags"
    )


def _endpoint(emulator: Any, **extra: Any) -> tuple[Any, dict[str, Any]]:
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    created = ec2.create_vpc_endpoint(
        VpcId=vpc,
        ServiceName="com.amazonaws.us-east-1.ecs",
        VpcEndpointType="Interface",
        SubnetIds=[subnet],
        **extra,
    )["VpcEndpoint"]
    [read] = ec2.describe_vpc_endpoints(VpcEndpointIds=[created["VpcEndpointId"]])["VpcEndpoints"]
    return ec2, dict(read, subnet=subnet)


def _dns_options(emulator: Any) -> Any:
    _, read = _endpoint(emulator, DnsOptions={"PrivateDnsOnlyForInboundResolverEndpoint": False})
    return read.get("DnsOptions"), read.get("IpAddressType")


def test_an_interface_endpoints_dns_options_are_kept(emulator, raw_moto) -> None:
    expected = {"DnsRecordIpType": "ipv4", "PrivateDnsOnlyForInboundResolverEndpoint": False}
    assert _dns_options(emulator) == (expected, "ipv4")
    assert _dns_options(raw_moto) == (None, None), retire("ec2.vpc-endpoint-dns-options")


def _interface_addresses(emulator: Any) -> tuple[list[str], list[str]]:
    ec2, read = _endpoint(emulator)
    subnet = read["subnet"]
    vpc = read["VpcId"]
    second = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.2.0/24")["Subnet"]["SubnetId"]
    declared = ec2.create_vpc_endpoint(
        VpcId=vpc,
        ServiceName="com.amazonaws.us-east-1.ecr.api",
        VpcEndpointType="Interface",
        SubnetIds=[subnet, second],
        SubnetConfigurations=[
            {"SubnetId": subnet, "Ipv4": "10.0.1.10"},
            {"SubnetId": second, "Ipv4": "10.0.2.10"},
        ],
    )["VpcEndpoint"]
    return tuple(  # type: ignore[return-value]
        sorted(
            i["PrivateIpAddress"]
            for i in ec2.describe_network_interfaces(
                NetworkInterfaceIds=endpoint["NetworkInterfaceIds"]
            )["NetworkInterfaces"]
        )
        for endpoint in (read, declared)
    )


def test_an_endpoints_interface_takes_the_declared_address(emulator, raw_moto) -> None:
    [undeclared], declared = _interface_addresses(emulator)
    assert declared == ["10.0.1.10", "10.0.2.10"]
    assert undeclared.startswith("10.0.1.")  # an address of its subnet
    assert _interface_addresses(raw_moto)[1] != declared, retire(
        "ec2.vpc-endpoint-subnet-configuration"
    )


def _block_public_access(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    default = ec2.describe_vpc_block_public_access_options()["VpcBlockPublicAccessOptions"]
    assert (default["InternetGatewayBlockMode"], default["State"]) == ("off", "default-state")
    modified = ec2.modify_vpc_block_public_access_options(
        InternetGatewayBlockMode="block-bidirectional"
    )["VpcBlockPublicAccessOptions"]
    assert modified["State"] == "update-in-progress"
    options = ec2.describe_vpc_block_public_access_options()["VpcBlockPublicAccessOptions"]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    exclusion = ec2.create_vpc_block_public_access_exclusion(
        VpcId=vpc,
        InternetGatewayExclusionMode="allow-egress",
        TagSpecifications=[
            {
                "ResourceType": "vpc-block-public-access-exclusion",
                "Tags": [{"Key": "Name", "Value": "egress"}],
            }
        ],
    )["VpcBlockPublicAccessExclusion"]
    ids = [exclusion["ExclusionId"]]
    ec2.modify_vpc_block_public_access_exclusion(
        ExclusionId=ids[0], InternetGatewayExclusionMode="allow-bidirectional"
    )
    [read] = ec2.describe_vpc_block_public_access_exclusions(ExclusionIds=ids)[
        "VpcBlockPublicAccessExclusions"
    ]
    ec2.delete_vpc_block_public_access_exclusion(ExclusionId=ids[0])
    [deleted] = ec2.describe_vpc_block_public_access_exclusions(ExclusionIds=ids)[
        "VpcBlockPublicAccessExclusions"
    ]
    return {
        "mode": (options["InternetGatewayBlockMode"], options["State"]),
        "exclusion": (read["InternetGatewayExclusionMode"], read["State"], read["Tags"]),
        "arn": read["ResourceArn"].endswith(f":vpc/{vpc}"),
        "deleted": deleted["State"],
    }


def test_vpc_block_public_access_options_and_exclusions(emulator, raw_moto) -> None:
    assert _block_public_access(emulator) == {
        "mode": ("block-bidirectional", "update-complete"),
        "exclusion": (
            "allow-bidirectional",
            "update-complete",
            [{"Key": "Name", "Value": "egress"}],
        ),
        "arn": True,
        "deleted": "delete-complete",
    }
    with pytest.raises((ResponseParserError, ClientError), match=r"500|NotImplemented"):
        raw_moto.client("ec2").describe_vpc_block_public_access_options()


def _outpost_subnet(emulator: Any) -> tuple[Any, str]:
    outposts = emulator.client("outposts", region="eu-west-1")
    site = outposts.create_site(Name="SEA19")["Site"]["SiteId"]
    outpost = outposts.create_outpost(Name="SEA19.07", SiteId=site, AvailabilityZone="eu-west-1a")
    arn = outpost["Outpost"]["OutpostArn"]
    ec2 = emulator.client("ec2", region="eu-west-1")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(
        VpcId=vpc, CidrBlock="10.0.50.0/24", AvailabilityZone="eu-west-1a", OutpostArn=arn
    )["Subnet"]["SubnetId"]
    filters = [{"Name": "outpost-arn", "Values": [arn]}]
    [found] = ec2.describe_subnets(Filters=filters)["Subnets"]
    assert found["SubnetId"] == subnet
    return found.get("OutpostArn"), arn


def test_a_subnet_on_an_outpost_keeps_its_outpost(emulator, raw_moto) -> None:
    kept, arn = _outpost_subnet(emulator)
    assert kept == arn
    ec2 = emulator.client("ec2", region="eu-west-1")
    vpc = ec2.create_vpc(CidrBlock="10.1.0.0/16")["Vpc"]["VpcId"]
    with pytest.raises(ClientError, match="InvalidParameterValue"):
        ec2.create_subnet(VpcId=vpc, CidrBlock="10.1.0.0/24", OutpostArn=arn + "0")
    raw = raw_moto.client("ec2", region="eu-west-1")
    vpc = raw.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = raw.create_subnet(VpcId=vpc, CidrBlock="10.0.50.0/24", OutpostArn=arn)["Subnet"]
    assert "OutpostArn" not in subnet, retire("ec2.subnet-outpost")


def _run(ec2: Any, **extra: Any) -> str:
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    [instance] = ec2.run_instances(
        ImageId="ami-1e749f67", MinCount=1, MaxCount=1, SubnetId=subnet, **extra
    )["Instances"]
    return str(instance["InstanceId"])


def _enclave_options(emulator: Any) -> list[Any]:
    ec2 = emulator.client("ec2")
    plain = _run(ec2, InstanceType="t3.micro")
    enclave = _run(ec2, InstanceType="m5.xlarge", EnclaveOptions={"Enabled": True})
    found = {
        i["InstanceId"]: i.get("EnclaveOptions")
        for r in ec2.describe_instances(InstanceIds=[plain, enclave])["Reservations"]
        for i in r["Instances"]
    }
    return [found[plain], found[enclave]]


def test_an_instance_has_enclave_options(emulator, raw_moto) -> None:
    assert _enclave_options(emulator) == [{"Enabled": False}, {"Enabled": True}]
    assert _enclave_options(raw_moto) == [None, None], retire("ec2.instance-enclave-options")


def _cpu_credits(emulator: Any) -> list[str]:
    ec2 = emulator.client("ec2")
    t3 = _run(ec2, InstanceType="t3.micro")
    t2 = _run(ec2, InstanceType="t2.micro")
    asked = _run(ec2, InstanceType="t3.micro", CreditSpecification={"CpuCredits": "standard"})

    def credits(*ids: str) -> list[str]:
        found = ec2.describe_instance_credit_specifications(InstanceIds=list(ids))
        by_id = {s["InstanceId"]: s["CpuCredits"] for s in found["InstanceCreditSpecifications"]}
        return [by_id[i] for i in ids]

    read = credits(t3, t2, asked)
    try:
        modified = ec2.modify_instance_credit_specification(
            InstanceCreditSpecifications=[
                {"InstanceId": t2, "CpuCredits": "unlimited"},
                {"InstanceId": "i-0123456789abcdef0", "CpuCredits": "unlimited"},
            ]
        )
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return [*read, "not implemented"]
    assert modified["SuccessfulInstanceCreditSpecifications"] == [{"InstanceId": t2}]
    [failed] = modified["UnsuccessfulInstanceCreditSpecifications"]
    assert failed["Error"]["Code"] == "InvalidInstanceID.NotFound"
    return [*read, *credits(t2)]


def test_an_instances_cpu_credits_are_kept(emulator, raw_moto) -> None:
    assert _cpu_credits(emulator) == ["unlimited", "standard", "standard", "unlimited"]
    assert _cpu_credits(raw_moto) == ["standard", "standard", "standard", "not implemented"], (
        retire("ec2.instance-credit-specification")
    )


_LAUNCH_OPTIONS = ("CpuOptions", "CapacityReservationSpecification", "MaintenanceOptions")


def _launch_options(emulator: Any) -> list[Any]:
    ec2 = emulator.client("ec2")
    plain = _run(ec2, InstanceType="m5.xlarge")
    asked = _run(
        ec2,
        InstanceType="m5.xlarge",
        CpuOptions={"CoreCount": 2, "ThreadsPerCore": 1},
        MaintenanceOptions={"AutoRecovery": "disabled"},
        PrivateDnsNameOptions={"HostnameType": "ip-name", "EnableResourceNameDnsARecord": True},
    )

    def described(instance_id: str) -> list[Any]:
        [r] = ec2.describe_instances(InstanceIds=[instance_id])["Reservations"]
        [found] = r["Instances"]
        return [found.get(key) for key in (*_LAUNCH_OPTIONS, "PrivateDnsNameOptions")]

    read = [described(plain), described(asked)]
    try:
        ec2.modify_instance_maintenance_options(InstanceId=plain, AutoRecovery="disabled")
        ec2.modify_private_dns_name_options(
            InstanceId=plain, PrivateDnsHostnameType="resource-name"
        )
        ec2.modify_instance_capacity_reservation_attributes(
            InstanceId=plain,
            CapacityReservationSpecification={"CapacityReservationPreference": "none"},
        )
    except ResponseParserError:  # moto 5.2: 500, the actions are not implemented
        return [*read, "not implemented"]
    return [*read, described(plain)]


def test_an_instance_keeps_its_launch_options(emulator, raw_moto) -> None:
    ip_name = {
        "HostnameType": "ip-name",
        "EnableResourceNameDnsARecord": False,
        "EnableResourceNameDnsAAAARecord": False,
    }
    default = [
        {"CoreCount": 2, "ThreadsPerCore": 2},
        {"CapacityReservationPreference": "open"},
        {"AutoRecovery": "default"},
        ip_name,
    ]
    assert _launch_options(emulator) == [
        default,
        [
            {"CoreCount": 2, "ThreadsPerCore": 1},
            {"CapacityReservationPreference": "open"},
            {"AutoRecovery": "disabled"},
            dict(ip_name, EnableResourceNameDnsARecord=True),
        ],
        [
            default[0],
            {"CapacityReservationPreference": "none"},
            {"AutoRecovery": "disabled"},
            dict(ip_name, HostnameType="resource-name"),
        ],
    ]
    assert _launch_options(raw_moto) == [[None] * 4, [None] * 4, "not implemented"], retire(
        "ec2.instance-launch-options"
    )


def _launched_with_an_interface(emulator: Any, public: bool) -> dict[str, Any]:
    """What DescribeInstances (and DescribeNetworkInterfaces) answer for an instance
    launched as the aws provider launches one declaring associate_public_ip_address."""
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    group = ec2.create_security_group(GroupName="web", Description="web", VpcId=vpc)["GroupId"]
    spec = {"DeviceIndex": 0, "AssociatePublicIpAddress": public, "SubnetId": subnet,
            "Groups": [group]}  # fmt: skip
    [launched] = ec2.run_instances(
        ImageId="ami-1e749f67", MinCount=1, MaxCount=1, NetworkInterfaces=[spec]
    )["Instances"]
    [reservation] = ec2.describe_instances(InstanceIds=[launched["InstanceId"]])["Reservations"]
    [instance] = reservation["Instances"]
    [interface] = instance["NetworkInterfaces"]
    [described] = ec2.describe_network_interfaces(
        NetworkInterfaceIds=[interface["NetworkInterfaceId"]]
    )["NetworkInterfaces"]
    return {
        "groups": [g["GroupId"] == group for g in instance["SecurityGroups"]],
        "public ip": "PublicIpAddress" in instance,
        "association": ["Association" in interface, "Association" in described],
    }


def test_an_instance_has_its_primary_interfaces_groups(emulator, raw_moto) -> None:
    assert _launched_with_an_interface(emulator, public=True)["groups"] == [True]
    assert _launched_with_an_interface(raw_moto, public=True)["groups"] == [], retire(
        "ec2.instance-security-groups"
    )


def test_an_interface_without_a_public_address_has_no_association(emulator, raw_moto) -> None:
    public = _launched_with_an_interface(emulator, public=True)
    assert (public["public ip"], public["association"]) == (True, [True, True])
    private = _launched_with_an_interface(emulator, public=False)
    assert (private["public ip"], private["association"]) == (False, [False, False])
    raw = _launched_with_an_interface(raw_moto, public=False)
    # moto: DescribeInstances answers an empty Association; DescribeNetworkInterfaces none.
    assert (raw["public ip"], raw["association"]) == (False, [True, False]), retire(
        "ec2.network-interface-association"
    )


def _volume_performance(emulator: Any) -> tuple[Any, Any]:
    ec2 = emulator.client("ec2")
    ebs = {"VolumeSize": 50, "VolumeType": "gp3", "Iops": 4000, "Throughput": 200}
    instance = _run(ec2, BlockDeviceMappings=[{"DeviceName": "/dev/xvda", "Ebs": ebs}])
    [volume] = ec2.describe_volumes(
        Filters=[
            {"Name": "attachment.instance-id", "Values": [instance]},
            {"Name": "attachment.device", "Values": ["/dev/xvda"]},
        ]
    )["Volumes"]
    return volume.get("Iops"), volume.get("Throughput")


def test_an_instances_volume_has_the_performance_asked_for(emulator, raw_moto) -> None:
    assert _volume_performance(emulator) == (4000, 200)
    assert _volume_performance(raw_moto) == (3000, None), retire("ec2.instance-volume-performance")


def _spot_instance(emulator: Any, **spec: Any) -> dict[str, Any]:
    """The instance a spot request with a VPC launch specification launched."""
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    group = ec2.create_security_group(GroupName="app", Description="app", VpcId=vpc)["GroupId"]
    nic = {"DeviceIndex": 0, "SubnetId": subnet, "Groups": [group]}
    nic["AssociatePublicIpAddress"] = True
    ebs = {"VolumeSize": 5, "VolumeType": "gp3", "Throughput": 200, "Encrypted": True}
    [request] = ec2.request_spot_instances(
        LaunchSpecification={
            "ImageId": "ami-1e749f67",
            "InstanceType": "t3.micro",
            "BlockDeviceMappings": [{"DeviceName": "/dev/sdf", "Ebs": ebs}],
            **({"NetworkInterfaces": [nic]} if not spec else {"SubnetId": subnet}),
            **({"SecurityGroupIds": [group]} if spec.get("by_ids") else {}),
        }
    )["SpotInstanceRequests"]
    [instance] = ec2.describe_instances(InstanceIds=[request["InstanceId"]])["Reservations"][0][
        "Instances"
    ]
    devices = {m["DeviceName"]: m["Ebs"]["VolumeId"] for m in instance["BlockDeviceMappings"]}
    volume = (
        ec2.describe_volumes(VolumeIds=[devices["/dev/sdf"]])["Volumes"][0]
        if "/dev/sdf" in devices
        else {}
    )
    return {
        "subnet": instance.get("SubnetId") == subnet,
        "groups": [g["GroupId"] for g in instance["SecurityGroups"]] == [group],
        "public": bool(instance.get("PublicIpAddress")),
        "device": (volume.get("Size"), volume.get("Throughput")),
    }


def test_a_spot_request_launches_its_launch_specification(emulator, raw_moto) -> None:
    launched = {"subnet": True, "groups": True, "public": True, "device": (5, 200)}
    assert _spot_instance(emulator) == launched
    assert _spot_instance(emulator, by_ids=True)["groups"] is True
    raw = _spot_instance(raw_moto)
    assert (raw["subnet"], raw["device"]) == (False, (None, None)), retire(
        "ec2.spot-launch-specification"
    )


def _default_association(emulator: Any) -> list[Any]:
    ec2 = emulator.client("ec2")
    tgw = ec2.create_transit_gateway(Description="ex")["TransitGateway"]
    default = tgw["Options"]["AssociationDefaultRouteTableId"]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    attachment = ec2.create_transit_gateway_vpc_attachment(
        TransitGatewayId=tgw["TransitGatewayId"], VpcId=vpc, SubnetIds=[subnet]
    )["TransitGatewayVpcAttachment"]["TransitGatewayAttachmentId"]
    ids = {"TransitGatewayRouteTableId": default, "TransitGatewayAttachmentId": attachment}
    try:
        ended = ec2.disassociate_transit_gateway_route_table(**ids)["Association"]["State"]
    except ResponseParserError:  # moto 5.2: 500, a KeyError
        return ["500"]
    left = ec2.get_transit_gateway_route_table_associations(TransitGatewayRouteTableId=default)
    [described] = ec2.describe_transit_gateway_attachments(
        TransitGatewayAttachmentIds=[attachment]
    )["TransitGatewayAttachments"]
    with pytest.raises(ClientError) as again:
        ec2.disassociate_transit_gateway_route_table(**ids)
    own = ec2.create_transit_gateway_route_table(TransitGatewayId=tgw["TransitGatewayId"])[
        "TransitGatewayRouteTable"
    ]["TransitGatewayRouteTableId"]
    ec2.associate_transit_gateway_route_table(
        TransitGatewayRouteTableId=own, TransitGatewayAttachmentId=attachment
    )
    [moved] = ec2.describe_transit_gateway_attachments(TransitGatewayAttachmentIds=[attachment])[
        "TransitGatewayAttachments"
    ]
    return [
        ended,
        left["Associations"],
        described.get("Association"),
        again.value.response["Error"]["Code"],
        moved["Association"]["TransitGatewayRouteTableId"] == own,
    ]


def test_a_default_transit_gateway_association_is_ended(emulator, raw_moto) -> None:
    assert _default_association(emulator) == [
        "disassociating",
        [],
        None,
        "InvalidAssociation.NotFound",
        True,
    ]
    assert _default_association(raw_moto) == ["500"], retire(
        "ec2.transit-gateway-route-table-disassociation"
    )


def _attachment_tags(emulator: Any) -> list[dict[str, str]]:
    ec2 = emulator.client("ec2")
    tgw = ec2.create_transit_gateway(Description="ex")["TransitGateway"]["TransitGatewayId"]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    tags = [{"Key": "Name", "Value": "vpc1"}]
    attachment = ec2.create_transit_gateway_vpc_attachment(
        TransitGatewayId=tgw,
        VpcId=vpc,
        SubnetIds=[subnet],
        TagSpecifications=[{"ResourceType": "transit-gateway-attachment", "Tags": tags}],
    )["TransitGatewayVpcAttachment"]["TransitGatewayAttachmentId"]
    [described] = ec2.describe_transit_gateway_vpc_attachments(
        TransitGatewayAttachmentIds=[attachment]
    )["TransitGatewayVpcAttachments"]
    return described.get("Tags", [])


def test_a_transit_gateway_vpc_attachment_is_tagged_at_creation(emulator, raw_moto) -> None:
    assert _attachment_tags(emulator) == [{"Key": "Name", "Value": "vpc1"}]
    assert _attachment_tags(raw_moto) == [], retire("ec2.transit-gateway-vpc-attachment-tags")


def _transit_gateway_routes(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    tgw = ec2.create_transit_gateway(Description="ex")["TransitGateway"]["TransitGatewayId"]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.1.0/24")["Subnet"]["SubnetId"]
    attachment = ec2.create_transit_gateway_vpc_attachment(
        TransitGatewayId=tgw, VpcId=vpc, SubnetIds=[subnet]
    )["TransitGatewayVpcAttachment"]["TransitGatewayAttachmentId"]
    table = ec2.create_transit_gateway_route_table(TransitGatewayId=tgw)[
        "TransitGatewayRouteTable"
    ]["TransitGatewayRouteTableId"]
    created = ec2.create_transit_gateway_route(
        TransitGatewayRouteTableId=table,
        DestinationCidrBlock="30.0.0.0/16",
        TransitGatewayAttachmentId=attachment,
    )["Route"]
    ec2.create_transit_gateway_route(
        TransitGatewayRouteTableId=table, DestinationCidrBlock="0.0.0.0/0", Blackhole=True
    )

    def found(cidr: str) -> Any:
        # the provider's finder: static routes, by exact destination
        [route] = ec2.search_transit_gateway_routes(
            TransitGatewayRouteTableId=table,
            Filters=[{"Name": "type", "Values": ["static"]},
                     {"Name": "route-search.exact-match", "Values": [cidr]}],
        )["Routes"]  # fmt: skip
        return route

    try:
        ec2.create_transit_gateway_route(
            TransitGatewayRouteTableId=table,
            DestinationCidrBlock="40.0.0.0/16",
            TransitGatewayAttachmentId="tgw-attach-0123456789abcdef0",
        )
        unknown = "created"
    except ClientError as error:
        unknown = error.response["Error"]["Code"]
    return {
        "created": created.get("TransitGatewayAttachments"),
        "found": found("30.0.0.0/16"),
        "blackhole": found("0.0.0.0/0"),
        "vpc": vpc,
        "attachment": attachment,
        "no attachment": unknown,
    }


def test_a_transit_gateway_route_lists_its_attachment(emulator, raw_moto) -> None:
    answer = _transit_gateway_routes(emulator)
    listed = [
        {
            "ResourceId": answer["vpc"],
            "ResourceType": "vpc",
            "TransitGatewayAttachmentId": answer["attachment"],
        }
    ]
    assert answer["created"] == listed
    assert answer["found"] == {
        "DestinationCidrBlock": "30.0.0.0/16",
        "TransitGatewayAttachments": listed,
        "Type": "static",
        "State": "active",
    }
    assert answer["blackhole"] == {
        "DestinationCidrBlock": "0.0.0.0/0",
        "Type": "static",
        "State": "blackhole",
    }
    assert answer["no attachment"] == "InvalidTransitGatewayAttachmentID.NotFound"
    raw = _transit_gateway_routes(raw_moto)
    assert (raw["found"]["TransitGatewayAttachments"], raw["no attachment"]) == (
        [],
        "created",
    ), retire("ec2.transit-gateway-route-attachments")


def _propagating(emulator: Any) -> list[Any]:
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    vgw = ec2.create_vpn_gateway(Type="ipsec.1")["VpnGateway"]["VpnGatewayId"]
    ec2.attach_vpn_gateway(VpcId=vpc, VpnGatewayId=vgw)
    table = ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"]

    def propagating() -> Any:
        [found] = ec2.describe_route_tables(RouteTableIds=[table])["RouteTables"]
        return found.get("PropagatingVgws")

    try:
        ec2.enable_vgw_route_propagation(RouteTableId=table, GatewayId=vgw)
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return [propagating(), "not implemented"]
    seen = [propagating()]
    ec2.disable_vgw_route_propagation(RouteTableId=table, GatewayId=vgw)
    seen.append(propagating())
    for ids in ({"RouteTableId": "rtb-0123456789abcdef0", "GatewayId": vgw},
                {"RouteTableId": table, "GatewayId": "vgw-0123456789abcdef0"}):  # fmt: skip
        with pytest.raises(ClientError) as missing:
            ec2.enable_vgw_route_propagation(**ids)
        seen.append(missing.value.response["Error"]["Code"])
    return [s if not isinstance(s, list) else [g["GatewayId"] == vgw for g in s] for s in seen]


def test_a_route_table_lists_its_propagating_gateway(emulator, raw_moto) -> None:
    assert _propagating(emulator) == [
        [True],
        [],
        "InvalidRouteTableID.NotFound",
        "InvalidVpnGatewayID.NotFound",
    ]
    assert _propagating(raw_moto) == [None, "not implemented"], retire("ec2.vgw-route-propagation")


def _capacity_reservation(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    try:
        made = ec2.create_capacity_reservation(
            InstanceType="t3.micro",
            InstancePlatform="Linux/UNIX",
            AvailabilityZone="us-east-1a",
            InstanceCount=2,
            InstanceMatchCriteria="targeted",
            TagSpecifications=[
                {"ResourceType": "capacity-reservation", "Tags": [{"Key": "Name", "Value": "cr"}]}
            ],
        )["CapacityReservation"]
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"created": "not implemented"}
    ids = [made["CapacityReservationId"]]
    image = ec2.describe_images(Owners=["amazon"])["Images"][0]["ImageId"]
    ec2.run_instances(
        ImageId=image, MinCount=1, MaxCount=1, InstanceType="t3.micro",
        Placement={"AvailabilityZone": "us-east-1a"},
        CapacityReservationSpecification={"CapacityReservationTarget": {
            "CapacityReservationId": ids[0]}},
    )  # fmt: skip
    [read] = ec2.describe_capacity_reservations(CapacityReservationIds=ids)["CapacityReservations"]
    ec2.modify_capacity_reservation(
        CapacityReservationId=ids[0],
        InstanceCount=3,
        EndDateType="limited",
        EndDate=datetime(2030, 1, 1, tzinfo=timezone.utc),
    )
    [modified] = ec2.describe_capacity_reservations(
        Filters=[{"Name": "tag:Name", "Values": ["cr"]}]
    )["CapacityReservations"]
    ec2.create_tags(Resources=ids, Tags=[{"Key": "team", "Value": "a"}])
    ec2.cancel_capacity_reservation(CapacityReservationId=ids[0])
    [cancelled] = ec2.describe_capacity_reservations(CapacityReservationIds=ids)[
        "CapacityReservations"
    ]
    missing = "cr-0123456789abcdef0"
    return {
        "created": (made["State"], made["EndDateType"], made["Tenancy"], made["EbsOptimized"]),
        "read": {k: read[k] for k in ("InstanceType", "AvailabilityZone", "InstanceMatchCriteria",
                                      "TotalInstanceCount", "AvailableInstanceCount", "Tags")},
        "arn": read["CapacityReservationArn"].endswith(f":capacity-reservation/{ids[0]}"),
        "modified": (modified["TotalInstanceCount"], modified["EndDateType"],
                     modified["EndDate"].year),
        "cancelled": (cancelled["State"], sorted(t["Key"] for t in cancelled["Tags"])),
        "missing": _error_code(ec2.describe_capacity_reservations,
                               CapacityReservationIds=[missing]),
        "cancel again": _error_code(ec2.cancel_capacity_reservation,
                                    CapacityReservationId=ids[0]),
    }  # fmt: skip


def _error_code(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return str(caught.value.response["Error"]["Code"])


def test_a_capacity_reservation_is_kept_changed_and_cancelled(emulator, raw_moto) -> None:
    assert _capacity_reservation(emulator) == {
        "created": ("active", "unlimited", "default", False),
        "read": {
            "InstanceType": "t3.micro",
            "AvailabilityZone": "us-east-1a",
            "InstanceMatchCriteria": "targeted",
            "TotalInstanceCount": 2,
            "AvailableInstanceCount": 1,
            "Tags": [{"Key": "Name", "Value": "cr"}],
        },
        "arn": True,
        "modified": (3, "limited", 2030),
        "cancelled": ("cancelled", ["Name", "team"]),
        "missing": "InvalidCapacityReservationId.NotFound",
        "cancel again": "IncorrectState",
    }
    assert _capacity_reservation(raw_moto) == {"created": "not implemented"}, retire(
        "ec2.capacity-reservations"
    )


def _placement_group(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    try:
        made = ec2.create_placement_group(
            GroupName="web",
            Strategy="cluster",
            TagSpecifications=[
                {"ResourceType": "placement-group", "Tags": [{"Key": "Name", "Value": "web"}]}
            ],
        )["PlacementGroup"]
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"created": "not implemented"}
    ec2.create_placement_group(GroupName="parts", Strategy="partition")
    ec2.create_placement_group(GroupName="spread", Strategy="spread")
    by_id = ec2.describe_placement_groups(GroupIds=[made["GroupId"]])["PlacementGroups"]
    [parts, spread] = ec2.describe_placement_groups(GroupNames=["parts", "spread"])[
        "PlacementGroups"
    ]
    image = ec2.describe_images(Owners=["amazon"])["Images"][0]["ImageId"]
    [instance] = ec2.run_instances(
        ImageId=image, MinCount=1, MaxCount=1, InstanceType="c5.large",
        Placement={"GroupName": "web"},
    )["Instances"]  # fmt: skip
    [described] = ec2.describe_instances(InstanceIds=[instance["InstanceId"]])["Reservations"][0][
        "Instances"
    ]
    in_use = _error_code(ec2.delete_placement_group, GroupName="web")
    ec2.terminate_instances(InstanceIds=[instance["InstanceId"]])
    ec2.delete_placement_group(GroupName="web")
    return {
        "created": (made["GroupName"], made["State"], made["Strategy"], made["Tags"]),
        "by id": [g["GroupName"] for g in by_id],
        "arn": made["GroupArn"].endswith(":placement-group/web"),
        "defaults": (parts["PartitionCount"], spread["SpreadLevel"]),
        "filtered": [g["GroupName"] for g in ec2.describe_placement_groups(
            Filters=[{"Name": "strategy", "Values": ["partition"]}])["PlacementGroups"]],
        "instance": (described["Placement"]["GroupName"],
                     described["Placement"]["GroupId"] == made["GroupId"]),
        "duplicate": _error_code(ec2.create_placement_group, GroupName="parts",
                                 Strategy="cluster"),
        "in use": in_use,
        "deleted": _error_code(ec2.describe_placement_groups, GroupNames=["web"]),
        "unknown launch": _error_code(ec2.run_instances, ImageId=image, MinCount=1, MaxCount=1,
                                      Placement={"GroupName": "web"}),
    }  # fmt: skip


def test_an_instance_is_launched_into_a_placement_group(emulator, raw_moto) -> None:
    assert _placement_group(emulator) == {
        "created": ("web", "available", "cluster", [{"Key": "Name", "Value": "web"}]),
        "by id": ["web"],
        "arn": True,
        "defaults": (2, "rack"),
        "filtered": ["parts"],
        "instance": ("web", True),
        "duplicate": "InvalidPlacementGroup.Duplicate",
        "in use": "InvalidPlacementGroup.InUse",
        "deleted": "InvalidPlacementGroup.Unknown",
        "unknown launch": "InvalidPlacementGroup.Unknown",
    }
    assert _placement_group(raw_moto) == {"created": "not implemented"}, retire(
        "ec2.placement-groups"
    )


def _vpn_routes(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    cgw = ec2.create_customer_gateway(Type="ipsec.1", PublicIp="198.51.100.1", BgpAsn=65000)[
        "CustomerGateway"
    ]["CustomerGatewayId"]
    vgw = ec2.create_vpn_gateway(Type="ipsec.1")["VpnGateway"]["VpnGatewayId"]
    vpn = ec2.create_vpn_connection(
        Type="ipsec.1", CustomerGatewayId=cgw, VpnGatewayId=vgw, Options={"StaticRoutesOnly": True}
    )["VpnConnection"]["VpnConnectionId"]
    try:
        ec2.create_vpn_connection_route(VpnConnectionId=vpn, DestinationCidrBlock="10.1.0.0/16")
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"created": "not implemented"}
    ec2.create_vpn_connection_route(VpnConnectionId=vpn, DestinationCidrBlock="10.2.0.0/16")

    def found(cidr: str) -> list[Any]:
        return ec2.describe_vpn_connections(
            Filters=[{"Name": "vpn-connection-id", "Values": [vpn]},
                     {"Name": "route.destination-cidr-block", "Values": [cidr]}]
        )["VpnConnections"]  # fmt: skip

    [connection] = found("10.1.0.0/16")
    ec2.delete_vpn_connection_route(VpnConnectionId=vpn, DestinationCidrBlock="10.2.0.0/16")
    [after] = ec2.describe_vpn_connections(VpnConnectionIds=[vpn])["VpnConnections"]
    return {
        "created": connection["Routes"],
        "not a route": found("10.9.0.0/16"),
        "deleted": {r["DestinationCidrBlock"]: r["State"] for r in after["Routes"]},
        "again": _error_code(ec2.delete_vpn_connection_route, VpnConnectionId=vpn,
                             DestinationCidrBlock="10.2.0.0/16"),
        "no connection": _error_code(ec2.create_vpn_connection_route,
                                     VpnConnectionId="vpn-0123456789abcdef0",
                                     DestinationCidrBlock="10.3.0.0/16"),
    }  # fmt: skip


def test_a_vpn_connection_lists_its_static_routes(emulator, raw_moto) -> None:
    static = {"Source": "Static", "State": "available"}
    assert _vpn_routes(emulator) == {
        "created": [
            {"DestinationCidrBlock": "10.1.0.0/16", **static},
            {"DestinationCidrBlock": "10.2.0.0/16", **static},
        ],
        "not a route": [],
        "deleted": {"10.1.0.0/16": "available", "10.2.0.0/16": "deleted"},
        "again": "InvalidRoute.NotFound",
        "no connection": "InvalidVpnConnectionID.NotFound",
    }
    assert _vpn_routes(raw_moto) == {"created": "not implemented"}, retire(
        "ec2.vpn-connection-routes"
    )


def _vpn_options(emulator: Any) -> dict[str, Any]:
    ec2 = emulator.client("ec2")
    cgw = ec2.create_customer_gateway(Type="ipsec.1", PublicIp="198.51.100.1", BgpAsn=65000)[
        "CustomerGateway"
    ]["CustomerGatewayId"]
    vgw = ec2.create_vpn_gateway(Type="ipsec.1", AmazonSideAsn=64620)["VpnGateway"]
    # tunnel 1 asks for nothing (so sends no parameter): tunnel 2's options stay its own
    tunnel2 = {"TunnelInsideCidr": "169.254.10.0/30", "PreSharedKey": "tunnel2_key.x",
               "IKEVersions": [{"Value": "ikev2"}], "DPDTimeoutSeconds": 45,
               "Phase1DHGroupNumbers": [{"Value": 14}, {"Value": 15}]}  # fmt: skip
    vpn = ec2.create_vpn_connection(
        Type="ipsec.1",
        CustomerGatewayId=cgw,
        VpnGatewayId=vgw["VpnGatewayId"],
        Options={
            "StaticRoutesOnly": True,
            "LocalIpv4NetworkCidr": "10.0.0.0/8",
            "TunnelOptions": [{}, tunnel2],
        },
    )["VpnConnection"]["VpnConnectionId"]
    [connection] = ec2.describe_vpn_connections(VpnConnectionIds=[vpn])["VpnConnections"]
    options = connection.get("Options")
    if options is None:
        return {"options": None}
    first, second = options["TunnelOptions"]
    ec2.modify_vpn_tunnel_options(
        VpnConnectionId=vpn,
        VpnTunnelOutsideIpAddress=first["OutsideIpAddress"],
        TunnelOptions={"PreSharedKey": "tunnel1_key.x", "StartupAction": "start"},
    )
    ec2.modify_vpn_connection_options(VpnConnectionId=vpn, RemoteIpv4NetworkCidr="10.1.0.0/16")
    [modified] = ec2.describe_vpn_connections(VpnConnectionIds=[vpn])["VpnConnections"]
    configuration = connection["CustomerGatewayConfiguration"]
    return {
        "options": {k: v for k, v in options.items() if k != "TunnelOptions"},
        "first": sorted(first),
        "second": {k: v for k, v in second.items() if k != "OutsideIpAddress"},
        "ordered": first["OutsideIpAddress"] < second["OutsideIpAddress"],
        "first inside": first["TunnelInsideCidr"].startswith("169.254."),
        "telemetry": [t["OutsideIpAddress"] for t in connection["VgwTelemetry"]]
        == [first["OutsideIpAddress"], second["OutsideIpAddress"]],
        "configuration": [
            f"<ip_address>{second['OutsideIpAddress']}</ip_address>" in configuration,
            "<ip_address>169.254.10.1</ip_address>" in configuration,  # AWS's side
            "<ip_address>169.254.10.2</ip_address>" in configuration,  # the customer's
            "<pre_shared_key>tunnel2_key.x</pre_shared_key>" in configuration,
            "<asn>64620</asn>" in configuration,
        ],
        "modified": modified["Options"]["RemoteIpv4NetworkCidr"],
        "modified tunnel": {
            k: modified["Options"]["TunnelOptions"][0][k] for k in ("PreSharedKey", "StartupAction")
        },
    }


def test_a_vpn_connection_keeps_its_options(emulator, raw_moto) -> None:
    assert _vpn_options(emulator) == {
        "options": {
            "EnableAcceleration": False,
            "StaticRoutesOnly": True,
            "LocalIpv4NetworkCidr": "10.0.0.0/8",
            "RemoteIpv4NetworkCidr": "0.0.0.0/0",
            "OutsideIpAddressType": "PublicIpv4",
            "TunnelInsideIpVersion": "ipv4",
        },
        "first": ["LogOptions", "OutsideIpAddress", "PreSharedKey", "TunnelInsideCidr"],
        "second": {
            "LogOptions": {"CloudWatchLogOptions": {"LogEnabled": False}},
            "TunnelInsideCidr": "169.254.10.0/30",
            "PreSharedKey": "tunnel2_key.x",
            "IkeVersions": [{"Value": "ikev2"}],
            "DpdTimeoutSeconds": 45,
            "Phase1DHGroupNumbers": [{"Value": 14}, {"Value": 15}],
        },
        "ordered": True,
        "first inside": True,
        "telemetry": True,
        "configuration": [True, True, True, True, True],
        "modified": "10.1.0.0/16",
        "modified tunnel": {"PreSharedKey": "tunnel1_key.x", "StartupAction": "start"},
    }
    assert _vpn_options(raw_moto) == {"options": None}, retire("ec2.vpn-connection-options")


MODULES = Path(__file__).resolve().parents[1] / "modules"


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_an_instance_converges_on_aws5(converge, provider_line) -> None:
    """tests/modules/fidelity_ec2_instance on aws 5.100: a t3 instance declaring
    ``enclave_options { enabled = null }`` and unlimited CPU credits, an enclave
    instance and one declaring its CPU, capacity reservation, maintenance and
    hostname options; on moto as released each plans a change on every run."""
    stack = converge(provider_line.pin(MODULES / "fidelity_ec2_instance"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_transit_gateway_and_vgw_routing_converge_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    """tests/modules/fidelity_ec2_routing on aws 5.100: a tagged attachment moved from the
    transit gateway's default route table to its own, with a static route to it and a
    blackhole route there, and a VPN gateway propagating to a route table; the second
    plan is empty, and destroying the association and the propagation ends them."""
    stack = converge(provider_line.pin(MODULES / "fidelity_ec2_routing"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    # Destroying the association and the propagation ends them
    # (DisassociateTransitGatewayRouteTable, DisableVgwRoutePropagation), as the
    # provider waits to see. (The attachment itself is left: moto 5.2 forgets a
    # deleted attachment at once, where the provider waits to read it ``deleted``.)
    stack.workspace.terraform(
        "destroy",
        "-auto-approve",
        "-input=false",
        "-target=aws_ec2_transit_gateway_route_table_association.this",
        "-target=aws_vpn_gateway_route_propagation.private",
        check=True,
        timeout=600,
    )
    ec2 = converge_emulator.client("ec2", region="eu-west-1")
    [table] = ec2.describe_route_tables(
        Filters=[{"Name": "association.main", "Values": ["false"]}]
    )["RouteTables"]
    assert table["PropagatingVgws"] == []


def test_ec2_operations_moto_lacks_converge(converge, converge_emulator) -> None:
    """tests/modules/fidelity_ec2_operations on aws 3.39: a capacity reservation, a
    placement group with an instance in it and two static routes of a VPN connection,
    which moto as released has no code for (the plugin left them untested), the
    connection's static_routes_only and tunnel options, which it keeps none of, and two
    instances declaring associate_public_ip_address true and false, which on moto as
    released plan their security groups back (and the private one a replacement, the
    public one's gp3 root volume its throughput after the first apply); the second plan
    is empty, and destroying them cancels the reservation, deletes the group
    once its instance is gone and the routes."""
    stack = converge(MODULES / "fidelity_ec2_operations")
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    outputs = stack.outputs()
    stack.workspace.terraform("destroy", "-auto-approve", "-input=false", check=True, timeout=600)
    ec2 = converge_emulator.client("ec2", region="eu-west-1")
    [reservation] = ec2.describe_capacity_reservations(
        CapacityReservationIds=[outputs["capacity_reservation_id"]]
    )["CapacityReservations"]
    assert reservation["State"] == "cancelled"
    assert ec2.describe_placement_groups()["PlacementGroups"] == []
    [connection] = ec2.describe_vpn_connections(VpnConnectionIds=[outputs["vpn_connection_id"]])[
        "VpnConnections"
    ]
    assert {r["DestinationCidrBlock"]: r["State"] for r in connection["Routes"]} == {
        "10.100.0.0/16": "deleted",
        "10.101.0.0/16": "deleted",
    }


def _group_rule_descriptions(moto: Any) -> tuple[list[Any], list[Any]]:
    ec2 = moto.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.12.0.0/16")["Vpc"]["VpcId"]
    sg = ec2.create_security_group(GroupName="lustre", Description="d", VpcId=vpc)["GroupId"]
    pair = {"GroupId": sg, "Description": "Allows Lustre traffic between Lustre clients"}
    made = ec2.authorize_security_group_ingress(
        GroupId=sg,
        IpPermissions=[{"IpProtocol": "tcp", "FromPort": 988, "ToPort": 988,
                        "UserIdGroupPairs": [pair]}],
    )["SecurityGroupRules"]  # fmt: skip
    rules = ec2.describe_security_group_rules(Filters=[{"Name": "group-id", "Values": [sg]}])
    read = [r.get("Description") for r in rules["SecurityGroupRules"] if not r["IsEgress"]]
    return [r.get("Description") for r in made], read


def test_a_group_rule_keeps_its_description(emulator, raw_moto) -> None:
    text = "Allows Lustre traffic between Lustre clients"
    assert _group_rule_descriptions(emulator) == ([text], [text])
    assert _group_rule_descriptions(raw_moto) == ([None], [None]), retire(
        "ec2.group-rule-description"
    )
