"""Every entry of the emulator-gap catalogue, reproduced against the installed moto.

``pytest_converge/data/emulator_gaps.json`` tells users which findings come from
the emulator, not from their module. An entry is only true while moto still
behaves that way, so each one is backed here by a reproduction with boto3
against the embedded emulator: when moto fixes a gap, its test fails and says
to narrow the entry's ``versions`` range; when moto is upgraded outside an
entry's range, ``test_installed_moto_is_inside_every_range`` fails and asks
for the entry to be re-verified (re-run this file and widen the range).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from pytest_converge.emulator import MotoEmulator

CATALOGUE = Path(__file__).resolve().parents[2] / "pytest_converge" / "data" / "emulator_gaps.json"
GAPS5 = Path(__file__).with_name("test_emulator_gaps5.py")
FIELDS = {"emulator", "versions", "resource_type", "attribute", "real_api", "evidence"}
FIXED = "moto {} now keeps this value: narrow the catalogue entry's versions range to exclude it"


def _entries() -> list[dict[str, str]]:
    return json.loads(CATALOGUE.read_text())


@pytest.fixture(scope="module")
def moto_emulator() -> Iterator[MotoEmulator]:
    emulator = MotoEmulator()
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture
def ec2(moto_emulator: MotoEmulator) -> Any:
    moto_emulator.reset()
    return moto_emulator.client("ec2")


def _moto() -> str:
    return version("moto")


# -- the catalogue itself ------------------------------------------------


def test_every_entry_is_well_formed() -> None:
    entries = _entries()
    assert entries, "the catalogue is empty"
    for entry in entries:
        entry = dict(entry)
        errors = entry.pop("errors", [])  # optional: regexes of the errors the gap causes
        assert isinstance(errors, list) and all(re.compile(e) for e in errors), entry
        assert set(entry) == FIELDS, entry
        assert all(isinstance(v, str) and v.strip() for v in entry.values()), entry
        assert entry["resource_type"].startswith("aws_"), entry
        SpecifierSet(entry["versions"])  # raises on a malformed range
    keys = [(e["emulator"], e["resource_type"], e["attribute"]) for e in entries]
    assert len(keys) == len(set(keys)), "one entry per emulator, resource type and attribute"


def test_every_entry_names_a_reproduction_in_this_file() -> None:
    here = Path(__file__)
    tests = {f"{here.name}::{name}" for name in globals() if name.startswith("test_")}
    # The gaps aws 5.x meets are reproduced beside this file (one file per corpus).
    tests |= {f"{GAPS5.name}::{name}" for name in _test_names(GAPS5)}
    for entry in _entries():
        if entry["emulator"] != "moto":
            continue
        named = [t for t in tests if t in entry["evidence"]]
        assert named, f"{entry['resource_type']}.{entry['attribute']}: evidence names no test"


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    return {n.name for n in functions if n.name.startswith("test_")}


def test_installed_moto_is_inside_every_range() -> None:
    installed = Version(_moto())
    outside = [
        f"{e['resource_type']}.{e['attribute']} ({e['versions']})"
        for e in _entries()
        if e["emulator"] == "moto" and installed not in SpecifierSet(e["versions"])
    ]
    assert not outside, (
        f"moto {installed} is outside the verified range of: {', '.join(outside)}. "
        "Re-run tests/integration/test_emulator_gaps.py and widen the ranges that still hold."
    )


# -- reproductions, one per entry ------------------------------------------


def test_moto_subnet_ipv6_cidr_block(ec2: Any) -> None:
    """The association state comes back as a stringified dict, so the provider
    (which keeps only associations in state ``associated``) reads no IPv6 CIDR."""
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]
    [vpc_v6] = ec2.describe_vpcs(VpcIds=[vpc["VpcId"]])["Vpcs"][0]["Ipv6CidrBlockAssociationSet"]
    assert vpc_v6["Ipv6CidrBlockState"]["State"] == "associated"  # the VPC's is right
    block = vpc_v6["Ipv6CidrBlock"].replace("/56", "/64")
    subnet = ec2.create_subnet(VpcId=vpc["VpcId"], CidrBlock="10.0.1.0/24", Ipv6CidrBlock=block)
    [described] = ec2.describe_subnets(SubnetIds=[subnet["Subnet"]["SubnetId"]])["Subnets"]
    [association] = described["Ipv6CidrBlockAssociationSet"]
    assert association["Ipv6CidrBlock"] == block
    state = association["Ipv6CidrBlockState"]["State"]
    assert state != "associated", FIXED.format(_moto())
    assert state == "{'State': 'associated'}"


def test_moto_customer_gateway_device_name(ec2: Any) -> None:
    created = ec2.create_customer_gateway(
        Type="ipsec.1", BgpAsn=65112, PublicIp="1.2.3.4", DeviceName="some_name"
    )["CustomerGateway"]
    assert "DeviceName" not in created, FIXED.format(_moto())
    [described] = ec2.describe_customer_gateways(CustomerGatewayIds=[created["CustomerGatewayId"]])[
        "CustomerGateways"
    ]
    assert described["IpAddress"] == "1.2.3.4"  # the rest is kept
    assert "DeviceName" not in described, FIXED.format(_moto())


def test_moto_security_group_rule_prefix_list_description(ec2: Any) -> None:
    vpc_id = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    pl_id = ec2.create_managed_prefix_list(
        PrefixListName="office", MaxEntries=2, AddressFamily="IPv4",
        Entries=[{"Cidr": "10.1.0.0/16"}],
    )["PrefixList"]["PrefixListId"]  # fmt: skip
    sg_id = ec2.create_security_group(GroupName="g", Description="d", VpcId=vpc_id)["GroupId"]
    ec2.authorize_security_group_ingress(
        GroupId=sg_id,
        IpPermissions=[
            {
                "IpProtocol": "tcp",
                "FromPort": 443,
                "ToPort": 443,
                "PrefixListIds": [{"PrefixListId": pl_id, "Description": "from the office"}],
                "IpRanges": [{"CidrIp": "10.2.0.0/16", "Description": "kept"}],
            }
        ],
    )
    [group] = ec2.describe_security_groups(GroupIds=[sg_id])["SecurityGroups"]
    [permission] = group["IpPermissions"]
    assert permission["IpRanges"] == [{"CidrIp": "10.2.0.0/16", "Description": "kept"}]
    assert permission["PrefixListIds"] == [{"PrefixListId": pl_id}], FIXED.format(_moto())


def test_moto_vpc_dhcp_options_tags(ec2: Any) -> None:
    """Tags sent with CreateDhcpOptions (TagSpecifications) are dropped; CreateTags works,
    so terraform adds them on the second apply (``needs-second-apply``)."""
    created = ec2.create_dhcp_options(
        DhcpConfigurations=[{"Key": "domain-name", "Values": ["example.internal"]}],
        TagSpecifications=[
            {"ResourceType": "dhcp-options", "Tags": [{"Key": "Name", "Value": "complete"}]}
        ],
    )["DhcpOptions"]
    [described] = ec2.describe_dhcp_options(DhcpOptionsIds=[created["DhcpOptionsId"]])[
        "DhcpOptions"
    ]
    assert described["Tags"] == [], FIXED.format(_moto())
    ec2.create_tags(Resources=[created["DhcpOptionsId"]], Tags=[{"Key": "Name", "Value": "x"}])
    [described] = ec2.describe_dhcp_options(DhcpOptionsIds=[created["DhcpOptionsId"]])[
        "DhcpOptions"
    ]
    assert described["Tags"] == [{"Key": "Name", "Value": "x"}]


def test_moto_never_reads_back_an_sqs_redrive_allow_policy(moto_emulator: MotoEmulator) -> None:
    """Provider 5.x waits for GetQueueAttributes to return the policy it set: it never does."""
    moto_emulator.reset()
    sqs = moto_emulator.client("sqs", region="us-east-1")
    url = sqs.create_queue(QueueName="dlq")["QueueUrl"]
    policy = json.dumps({"redrivePermission": "allowAll"})
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedriveAllowPolicy": policy})
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "QueueArn" in attributes  # the rest is answered
    assert "RedriveAllowPolicy" not in attributes, FIXED.format(_moto())
    from botocore.exceptions import ClientError

    with pytest.raises(ClientError) as caught:
        sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedriveAllowPolicy"])
    assert caught.value.response["Error"]["Code"] in ("InvalidAttributeName", "InvalidArgument")


def _ipv6_vpc(ec2: Any) -> tuple[str, str]:
    """A VPC with an Amazon-provided /56: (its id, the /56)."""
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]
    [v6] = ec2.describe_vpcs(VpcIds=[vpc["VpcId"]])["Vpcs"][0]["Ipv6CidrBlockAssociationSet"]
    return vpc["VpcId"], v6["Ipv6CidrBlock"]


def test_moto_never_turns_on_a_subnets_dns64(ec2: Any) -> None:
    """Provider 5.x waits (5 minutes a subnet) for DescribeSubnets to say EnableDns64."""
    vpc_id, block = _ipv6_vpc(ec2)
    subnet = ec2.create_subnet(
        VpcId=vpc_id, CidrBlock="10.0.1.0/24", Ipv6CidrBlock=block.replace("/56", "/64")
    )["Subnet"]
    ec2.modify_subnet_attribute(SubnetId=subnet["SubnetId"], EnableDns64={"Value": True})
    [described] = ec2.describe_subnets(SubnetIds=[subnet["SubnetId"]])["Subnets"]
    assert described["SubnetId"] == subnet["SubnetId"]
    assert described.get("EnableDns64") is not True, FIXED.format(_moto())


def test_moto_answers_an_ipv6_only_subnet_with_a_count_no_provider_decodes(ec2: Any) -> None:
    """AvailableIpAddressCount 2^64 - 5: boto3 reads any integer, Go's int64 cannot."""
    vpc_id, block = _ipv6_vpc(ec2)
    subnet = ec2.create_subnet(
        VpcId=vpc_id, Ipv6Native=True, Ipv6CidrBlock=block.replace("00::/56", "01::/64")
    )["Subnet"]
    count = subnet["AvailableIpAddressCount"]
    assert count > 2**63 - 1, FIXED.format(_moto())  # AWS answers 0
    assert count == 2**64 - 5


# -- suspects that are not emulator gaps (kept out of the catalogue) ---------


def test_moto_keeps_an_empty_name_tag_on_a_default_network_acl(ec2: Any) -> None:
    """Control: moto keeps ``Name = ""`` on a default NACL when it is sent.

    The permanent diff ``aws_default_network_acl tags.Name "" -> null`` seen on
    terraform-aws-modules/vpc v3.7.0 examples/network-acls comes from provider
    3.39, which never sends the empty tag (its only CreateTags call carries the
    other tags; hashicorp/terraform-provider-aws#20371): real AWS would show it too,
    so it is no emulator gap and has no catalogue entry.
    """
    vpc_id = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    [acl] = ec2.describe_network_acls(
        Filters=[{"Name": "vpc-id", "Values": [vpc_id]}, {"Name": "default", "Values": ["true"]}]
    )["NetworkAcls"]
    ec2.create_tags(
        Resources=[acl["NetworkAclId"]],
        Tags=[{"Key": "Name", "Value": ""}, {"Key": "Other", "Value": "x"}],
    )
    [acl] = ec2.describe_network_acls(NetworkAclIds=[acl["NetworkAclId"]])["NetworkAcls"]
    assert {t["Key"]: t["Value"] for t in acl["Tags"]} == {"Name": "", "Other": "x"}


# -- calls moto cannot serve (a failed apply, not a finding: no catalogue entry) --
# Seen on the public corpus; a run that needs them fails with moto's HTML 500 page.


def _fails_with_500(call: Any, **kwargs: Any) -> None:
    from botocore.exceptions import ClientError

    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    assert caught.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500


def test_moto_has_no_sso_admin_list_tags_for_resource(moto_emulator: MotoEmulator) -> None:
    """aws_ssoadmin_permission_set (terraform-aws-modules/iam v4.24.1 iam-read-only-policy)."""
    sso = moto_emulator.client("sso-admin")
    _fails_with_500(
        sso.list_tags_for_resource,
        InstanceArn="arn:aws:sso:::instance/example",
        ResourceArn="arn:aws:sso:::permissionSet/example/ps-1",
    )


def _answers_an_html_500(call: Any, **kwargs: Any) -> None:
    """moto's error page for an action it lacks, on a query-protocol service (EC2)."""
    from botocore.parsers import ResponseParserError

    with pytest.raises(ResponseParserError, match="500 Internal Server Error"):
        call(**kwargs)


def test_moto_has_no_vpc_block_public_access_options(moto_emulator: MotoEmulator) -> None:
    """aws_vpc_block_public_access_options (provider 5.x; ModifyVpcBlockPublicAccessOptions)."""
    moto_emulator.reset()
    _answers_an_html_500(
        moto_emulator.client("ec2").modify_vpc_block_public_access_options,
        InternetGatewayBlockMode="block-bidirectional",
    )


def test_moto_has_no_ipv6_association_filter_on_describe_subnets(ec2: Any) -> None:
    """Provider 5.x looks subnets up by their IPv6 association (a 500 from moto)."""
    _, block = _ipv6_vpc(ec2)
    _answers_an_html_500(
        ec2.describe_subnets,
        Filters=[{"Name": "ipv6-cidr-block-association.ipv6-cidr-block", "Values": [block]}],
    )


def test_moto_has_no_outposts_service(moto_emulator: MotoEmulator) -> None:
    """data aws_outposts_outpost (terraform-aws-modules/vpc v3.7.0 examples/outpost)."""
    _fails_with_500(moto_emulator.client("outposts").list_outposts)


def test_moto_put_bucket_logging_fails_on_a_string_principal(
    moto_emulator: MotoEmulator,
) -> None:
    """PutBucketLogging reads the target bucket's policy and crashes on ``"Principal": "*"``
    (terraform-aws-modules/s3-bucket v2.8.0 examples/complete: a deny-insecure-transport
    policy on the log bucket)."""
    moto_emulator.reset()
    s3 = moto_emulator.client("s3", region="us-east-1")
    s3.create_bucket(Bucket="logs")
    s3.create_bucket(Bucket="data")
    deny_http = {
        "Effect": "Deny",
        "Principal": "*",
        "Action": "s3:*",
        "Resource": ["arn:aws:s3:::logs", "arn:aws:s3:::logs/*"],
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
    }
    policy = {"Version": "2012-10-17", "Statement": [deny_http]}
    s3.put_bucket_policy(Bucket="logs", Policy=json.dumps(policy))
    _fails_with_500(
        s3.put_bucket_logging,
        Bucket="data",
        BucketLoggingStatus={"LoggingEnabled": {"TargetBucket": "logs", "TargetPrefix": "l/"}},
    )


def test_moto_ignores_dynamodb_replica_updates(moto_emulator: MotoEmulator) -> None:
    """UpdateTable ReplicaUpdates (global tables 2019.11.21) is accepted and forgotten:
    DescribeTable never lists the replica, so the provider waits for it until the
    apply times out (terraform-aws-modules/dynamodb-table v1.2.2 examples/global-tables)."""
    moto_emulator.reset()
    dynamodb = moto_emulator.client("dynamodb", region="eu-west-1")
    dynamodb.create_table(
        TableName="t",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    dynamodb.update_table(TableName="t", ReplicaUpdates=[{"Create": {"RegionName": "eu-west-2"}}])
    table = dynamodb.describe_table(TableName="t")["Table"]
    assert not table.get("Replicas"), FIXED.format(_moto())
    # A catalogue entry since pytest-converge stops the wait: aws_dynamodb_table.replica.


PREFIX_LIST_RULE = """
resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_ec2_managed_prefix_list" "office" {
  name           = "office"
  address_family = "IPv4"
  max_entries    = 2

  entry {
    cidr = "10.1.0.0/16"
  }
}

resource "aws_security_group" "this" {
  name   = "rules"
  vpc_id = aws_vpc.this.id
}

resource "aws_security_group_rule" "office" {
  type              = "ingress"
  security_group_id = aws_security_group.this.id
  from_port         = 443
  to_port           = 443
  protocol          = "tcp"
  prefix_list_ids   = [aws_ec2_managed_prefix_list.office.id]
  description       = "from the office"
}
"""


@pytest.mark.slow
def test_terraform_prefix_list_rule_description(converge: Any, tmp_path: Path) -> None:
    """What the gap above looks like to a user: a permanent diff on a correct module."""
    (tmp_path / "main.tf").write_text(PREFIX_LIST_RULE)
    stack = converge(tmp_path)
    assert stack.apply().ok
    [change] = stack.plan().changes
    assert change.address == "aws_security_group_rule.office"
    [attribute] = [a for a in change.attributes if a.path == "description"]
    assert (attribute.declared, attribute.observed) == ("from the office", ""), FIXED.format(
        _moto()
    )


DEFAULT_NACL_EMPTY_NAME = """
provider "aws" {
  region = "us-east-1"
}

resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_default_network_acl" "this" {
  default_network_acl_id = aws_vpc.this.default_network_acl_id
  tags                   = { Name = "", Other = "x" }
}
"""


@pytest.mark.slow
def test_terraform_never_sends_an_empty_tag_of_a_default_network_acl(
    converge: Any, converge_emulator: Any, tmp_path: Path
) -> None:
    """Provider 3.39 tags the adopted default NACL without its empty ``Name`` (on every
    apply), while moto keeps an empty tag it is sent (the control above): the
    permanent diff is the provider's, and real AWS shows it too. No catalogue
    entry may mark it as the emulator's."""
    (tmp_path / "main.tf").write_text(DEFAULT_NACL_EMPTY_NAME)
    stack = converge(tmp_path)
    for _ in range(2):
        assert stack.apply().ok
    ec2 = converge_emulator.client("ec2", region="us-east-1")
    [acl] = ec2.describe_network_acls(
        Filters=[{"Name": "default", "Values": ["true"]}, {"Name": "tag:Other", "Values": ["x"]}]
    )["NetworkAcls"]
    assert {t["Key"]: t["Value"] for t in acl["Tags"]} == {"Other": "x"}
    [change] = stack.plan().changes
    assert [(a.path, a.declared) for a in change.attributes if a.path == "tags.Name"] == [
        ("tags.Name", "")
    ]
    covering = [
        e
        for e in _entries()
        if e["resource_type"] == "aws_default_network_acl"
        and ("tags.Name".startswith(e["attribute"]) or e["attribute"] in ("", "*"))
    ]
    assert not covering, "the empty default-NACL Name tag is the provider's, not moto's"
