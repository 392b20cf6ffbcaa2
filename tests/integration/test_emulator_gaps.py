"""Every entry of the emulator-gap catalogue, reproduced against the embedded moto (a
MiniStack entry against a MiniStack the plugin starts, skipped where none is installed).

``pytest_converge/data/emulator_gaps.json`` tells users which findings come from
the emulator, not from their module. Where moto 5.2 answers otherwise than AWS,
the embedded server's fidelity layer answers as AWS does
(``pytest_converge/emulator/fidelity/``, tested in ``test_fidelity_*.py``), and
the entries it retired are kept as test data of moto as released
(``tests/data/moto_as_released_gaps.json``). The entries left are the gaps the
layer does not model, each saying why (``not_modelled``). An entry is only
true while the embedded moto still behaves that way, so each one is backed
here by a reproduction with boto3 against it: when moto (or the layer) fixes a
gap, its test fails and says to narrow the entry's ``versions`` range; when
moto is upgraded outside an entry's range,
``test_installed_moto_is_inside_every_range`` fails and asks for the entry to
be re-verified (re-run this file and widen the range).
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

from pytest_converge.emulator import MotoEmulator, fidelity

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "pytest_converge" / "data" / "emulator_gaps.json"
#: The entries the fidelity layer retired: what moto as released answers otherwise.
RETIRED = REPO / "tests" / "data" / "moto_as_released_gaps.json"
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
        why_not = entry.pop("not_modelled", "")  # why the fidelity layer does not answer so
        if entry["emulator"] == "moto":
            assert len(why_not) > 40, entry
        assert set(entry) == FIELDS, entry
        assert all(isinstance(v, str) and v.strip() for v in entry.values()), entry
        assert entry["resource_type"].startswith("aws_"), entry
        SpecifierSet(entry["versions"])  # raises on a malformed range
    keys = [(e["emulator"], e["resource_type"], e["attribute"]) for e in entries]
    assert len(keys) == len(set(keys)), "one entry per emulator, resource type and attribute"


def test_every_entry_names_a_reproduction_in_this_file() -> None:
    here = Path(__file__)
    tests = {f"{here.name}::{name}" for name in _test_names(here)}
    # MiniStack's entries may name the test of the behaviour that models them there.
    beside = REPO / "tests" / "integration" / "test_ministack_fidelity.py"
    theirs = {f"{beside.name}::{name}" for name in _test_names(beside)}
    for entry in _entries():
        named = [t for t in tests | (theirs if entry["emulator"] == "ministack" else set())
                 if t in entry["evidence"]]  # fmt: skip
        assert named, f"{entry['resource_type']}.{entry['attribute']}: evidence names no test"


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    return {n.name for n in functions if n.name.startswith("test_")}


def test_a_retired_entry_names_the_behaviour_that_models_it_and_is_no_longer_shipped() -> None:
    """Each entry the fidelity layer retired names its behaviour, whose test asks moto with
    and without it; the shipped catalogue no longer marks what a behaviour models."""
    behaviours = {b.name: b for b in fidelity.behaviours()}
    retired = json.loads(RETIRED.read_text())
    shipped = {(e["resource_type"], e["attribute"]) for e in _entries()}
    for entry in retired:
        behaviour = behaviours[entry["modelled_by"]]
        assert behaviour.test in entry["evidence"], entry
        assert (entry["resource_type"], entry["attribute"]) not in shipped, entry


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


def test_the_pinned_ministack_is_inside_every_range() -> None:
    from pytest_converge.emulator.ministack import PINNED_VERSION

    outside = [
        f"{e['resource_type']}.{e['attribute']} ({e['versions']})"
        for e in _entries()
        if e["emulator"] == "ministack"
        and Version(PINNED_VERSION) not in SpecifierSet(e["versions"])
    ]
    assert not outside, f"MiniStack {PINNED_VERSION}: re-verify {', '.join(outside)}"


# -- reproductions, one per entry ------------------------------------------


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
