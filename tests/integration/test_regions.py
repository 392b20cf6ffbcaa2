"""Leftovers outside us-east-1: a module in eu-west-1 with a provider alias in us-west-2.

Real terraform, real (embedded) moto: the regions come from the provider
blocks and from the SigV4 scope of every call the proxy saw, and each
duplicate or orphan is reported in its own region.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge import Crash, LostResponse

MODULES = Path(__file__).resolve().parents[1] / "modules"
#: The tests inspect the defects they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)
TWO_REGIONS = MODULES / "two_regions"


def _faulted_region(report, label: str) -> str:
    [call] = [c for c in report.first.calls if c.fault == label]
    return call.region


@pytest.mark.parametrize("n", [1, 2], ids=["first-vpc", "second-vpc"])
def test_lost_create_vpc_duplicate_is_found_in_its_region(converge, n: int) -> None:
    stack = converge(TWO_REGIONS)
    fault = LostResponse("CreateVpc", n)
    report = stack.recover(fault, replay=False)
    # Terraform orders the two VPCs as it likes: the proxy says where the faulted call went.
    region = _faulted_region(report, fault.label)
    assert region in ("eu-west-1", "us-west-2")
    address = {"eu-west-1": "aws_vpc.main", "us-west-2": "aws_vpc.dr"}[region]

    [dup] = report.errors
    assert dup.kind == "duplicate" and dup.address == address
    assert f" in {region} duplicates {address}" in dup.message
    assert f"--region {region}" in dup.fix
    [extra] = [o for o in report.created if o.id == dup.objects[0]]
    assert extra.region == region and extra.type == "aws_vpc"
    # Both regions were inventoried, and the default one too.
    assert {"eu-west-1", "us-west-2"} <= set(report.regions)
    assert stack.plan().is_empty  # the two-run test alone would have passed


def test_crash_after_create_vpc_leaves_an_extra_vpc_in_its_region(converge) -> None:
    stack = converge(TWO_REGIONS)
    fault = Crash("CreateVpc", 2)
    report = stack.recover(fault, replay=False)
    region = _faulted_region(report, fault.label)
    [extra] = report.errors
    # Same CIDR and Name tag as the VPC the re-run recorded: a duplicate of it.
    assert extra.kind == "duplicate"
    assert f" in {region} " in extra.message
    assert [o.region for o in report.created if o.id == extra.objects[0]] == [region]


def test_crash_after_create_bucket_through_the_alias_leaves_it_in_us_west_2(converge) -> None:
    stack = converge(TWO_REGIONS)
    report = stack.recover(Crash("CreateBucket"), replay=False)
    assert _faulted_region(report, "crash@CreateBucket#1") == "us-west-2"
    # Outside us-east-1 a second CreateBucket of one's own bucket is BucketAlreadyOwnedByYou
    # (as on AWS): the re-run fails on the bucket the first run made and never recorded.
    [failed] = report.errors
    assert failed.kind == "recovery-failed" and "BucketAlreadyOwnedByYou" in failed.message
    assert failed.objects == ["converge-two-regions-replica"]
    assert "converge-two-regions-replica in us-west-2 behind" in failed.message
    assert "--region us-west-2`" in failed.fix
    [bucket] = [o for o in report.created if o.type == "aws_s3_bucket"]
    assert bucket.region == "us-west-2"


def test_a_clean_apply_through_the_alias_creates_the_bucket_in_us_west_2(converge) -> None:
    """CreateBucket through the us-west-2 alias succeeds (no 500) and is signed for us-west-2."""
    stack = converge(TWO_REGIONS)
    result = stack.apply().raise_for_error()
    [create] = [c for c in result.calls if c.operation == "CreateBucket"]
    assert (create.status, create.region) == (200, "us-west-2")
    regions = {c.label: c.region for c in result.calls if c.operation == "CreateVpc"}
    assert sorted(regions.values()) == ["eu-west-1", "us-west-2"]
    assert stack.touched.regions >= {"eu-west-1", "us-west-2"}
    assert stack.touched.provider_regions == {"aws": "eu-west-1", "aws.west": "us-west-2"}
