"""moto gaps the aws 5.x public corpus meets, reproduced with boto3 (``tests/corpus5/FINDINGS.md``).

Each is an entry of ``pytest_converge/data/emulator_gaps.json`` whose
``evidence`` names its test here (``test_emulator_gaps.py`` checks that every
entry names a reproduction, in that file or this one). Each test says which
corpus root the gap stops and fails, naming the moto version, once moto fixes
it: then narrow the entry's ``versions`` range and move the root to
``PASSING`` in ``test_public_corpus5.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import pytest
from botocore.exceptions import ClientError
from botocore.parsers import ResponseParserError

FIXED = (
    "moto {} fixed this: narrow the versions range of its entry in "
    "pytest_converge/data/emulator_gaps.json and re-run {} in "
    "tests/integration/test_public_corpus5.py"
)


def _fixed(root: str) -> str:
    return FIXED.format(version("moto"), root)


@pytest.fixture
def emulator(converge_emulator: Any) -> Any:
    """The session's moto (the plugin's own fixture), emptied."""
    converge_emulator.reset()
    return converge_emulator


def _not_served(root: str, call: Callable[..., Any], **kwargs: Any) -> None:
    """``call`` answers HTTP 500 (moto: not implemented), as the provider sees it.

    A JSON-protocol service's 500 is a ClientError; EC2's is an HTML error page
    that the XML parser refuses.
    """
    try:
        call(**kwargs)
    except ClientError as caught:
        assert caught.response["ResponseMetadata"]["HTTPStatusCode"] == 500, caught.response
    except ResponseParserError as caught:
        assert "500 Internal Server Error" in str(caught), caught
    else:
        pytest.fail(_fixed(root))


def _dual_stack_subnet(ec2: Any) -> tuple[str, str, dict[str, Any]]:
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]["VpcId"]
    [v6] = ec2.describe_vpcs(VpcIds=[vpc])["Vpcs"][0]["Ipv6CidrBlockAssociationSet"]
    block = v6["Ipv6CidrBlock"]
    subnet = ec2.create_subnet(
        VpcId=vpc, CidrBlock="10.0.0.0/24", Ipv6CidrBlock=block.replace("::/56", "::/64")
    )["Subnet"]
    return vpc, block, subnet


def test_moto_has_no_vpc_block_public_access(emulator: Any) -> None:
    _not_served(
        "vpc-v5.21.0/examples/block-public-access",
        emulator.client("ec2").modify_vpc_block_public_access_options,
        InternetGatewayBlockMode="block-bidirectional",
    )


def test_moto_ignores_vpc_endpoint_subnet_configurations(emulator: Any) -> None:
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.0.0.0/24")["Subnet"]["SubnetId"]
    endpoint = ec2.create_vpc_endpoint(
        VpcId=vpc,
        ServiceName="com.amazonaws.us-east-1.ecs",
        VpcEndpointType="Interface",
        SubnetIds=[subnet],
        SubnetConfigurations=[{"SubnetId": subnet, "Ipv4": "10.0.0.10"}],
    )["VpcEndpoint"]
    [eni] = ec2.describe_network_interfaces(NetworkInterfaceIds=endpoint["NetworkInterfaceIds"])[
        "NetworkInterfaces"
    ]
    assert eni["PrivateIpAddress"] != "10.0.0.10", _fixed("vpc-v5.21.0/examples/complete")


def test_moto_drops_vpc_endpoint_dns_options(emulator: Any) -> None:
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    created = ec2.create_vpc_endpoint(
        VpcId=vpc,
        ServiceName="com.amazonaws.us-east-1.s3",
        VpcEndpointType="Interface",
        DnsOptions={"PrivateDnsOnlyForInboundResolverEndpoint": False},
    )["VpcEndpoint"]
    [read] = ec2.describe_vpc_endpoints(VpcEndpointIds=[created["VpcEndpointId"]])["VpcEndpoints"]
    assert "DnsOptions" not in read, _fixed("vpc-v5.21.0/examples/complete")


def test_moto_has_no_subnet_ipv6_association_filter(emulator: Any) -> None:
    ec2 = emulator.client("ec2")
    _, _, subnet = _dual_stack_subnet(ec2)
    [association] = subnet["Ipv6CidrBlockAssociationSet"]
    _not_served(
        "vpc-v5.21.0/examples/ipv6-dualstack",
        ec2.describe_subnets,
        Filters=[
            {
                "Name": "ipv6-cidr-block-association.association-id",
                "Values": [association["AssociationId"]],
            }
        ],
    )


def test_moto_ipv6_only_subnet_address_count_underflows(emulator: Any) -> None:
    """The provider's SDK decodes the count as an int32 and gives up."""
    ec2 = emulator.client("ec2")
    vpc, block, _ = _dual_stack_subnet(ec2)
    subnet = ec2.create_subnet(
        VpcId=vpc, Ipv6Native=True, Ipv6CidrBlock=block.replace("00::/56", "01::/64")
    )["Subnet"]
    assert subnet["AvailableIpAddressCount"] == 2**64 - 5, _fixed("vpc-v5.21.0/examples/ipv6-only")


def test_moto_never_reads_enable_dns64_back(emulator: Any) -> None:
    ec2 = emulator.client("ec2")
    _, _, subnet = _dual_stack_subnet(ec2)
    ec2.modify_subnet_attribute(SubnetId=subnet["SubnetId"], EnableDns64={"Value": True})
    [read] = ec2.describe_subnets(SubnetIds=[subnet["SubnetId"]])["Subnets"]
    assert not read.get("EnableDns64"), _fixed("vpc-v5.21.0/examples/network-acls")


def test_moto_never_reads_sqs_redrive_allow_policy_back(emulator: Any) -> None:
    sqs = emulator.client("sqs")
    url = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    sqs.set_queue_attributes(
        QueueUrl=url, Attributes={"RedriveAllowPolicy": '{"redrivePermission":"allowAll"}'}
    )
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "VisibilityTimeout" in attributes  # the others are there
    assert "RedriveAllowPolicy" not in attributes, _fixed("sqs-v4.3.1/examples/complete")


def test_moto_drops_log_group_class(emulator: Any) -> None:
    logs = emulator.client("logs")
    logs.create_log_group(logGroupName="infrequent", logGroupClass="INFREQUENT_ACCESS")
    [group] = logs.describe_log_groups(logGroupNamePrefix="infrequent")["logGroups"]
    assert group.get("logGroupClass") != "INFREQUENT_ACCESS", _fixed(
        "cloudwatch-v5.7.2/examples/log-group-with-log-stream"
    )


def test_moto_has_no_log_data_protection_policy(emulator: Any) -> None:
    logs = emulator.client("logs")
    logs.create_log_group(logGroupName="protected")
    _not_served(
        "cloudwatch-v5.7.2/examples/log-group-with-data-protection-policy",
        logs.put_data_protection_policy,
        logGroupIdentifier="protected",
        policyDocument="{}",
    )


def test_moto_has_no_log_query_definition(emulator: Any) -> None:
    _not_served(
        "cloudwatch-v5.7.2/examples/query-definition",
        emulator.client("logs").put_query_definition,
        name="query",
        queryString="fields @timestamp",
    )
