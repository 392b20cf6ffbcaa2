"""MiniStack's served-operations data (``data/served/ministack.json``): fresh and per operation.

Written by ``scripts/ministack_operations.py`` in MiniStack's own Python (it pins
botocore exactly); the staleness check runs it there and skips, saying why, when no
MiniStack is installed where the plugin looks.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pytest_converge.emulator.ministack import (
    PINNED_VERSION,
    find_ministack,
    ministack_missing,
    python_of,
)
from pytest_converge.emulator.served import preflight_of, served

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ministack_operations.py"

#: Operations MiniStack 1.5.33 routes to no code in a service it serves (its EC2
#: ``_ACTION_MAP``, its ECR ``handlers`` name none of them).
MISSING = [
    ("ec2", "AssociateVpcCidrBlock"),
    ("ec2", "CreateSpotDatafeedSubscription"),
    ("ec2", "CreateTransitGateway"),
    ("ecr", "PutRegistryPolicy"),
    ("ecr", "PutRegistryScanningConfiguration"),
    ("ecr", "CreatePullThroughCacheRule"),
]
SERVED = [
    ("ec2", "CreateVpc"),
    ("ec2", "CreateSubnet"),
    ("ecr", "CreateRepository"),
    ("elasticache", "CreateCacheParameterGroup"),
    ("elasticache", "CreateReplicationGroup"),
    ("sqs", "CreateQueue"),
    ("iam", "CreateRole"),
    ("cloudwatch", "PutCompositeAlarm"),
    ("sts", "GetCallerIdentity"),
]


def test_the_data_is_of_the_pinned_ministack() -> None:
    assert served("ministack").version == PINNED_VERSION


@pytest.mark.parametrize(("service", "operation"), MISSING)
def test_operations_ministack_lacks(service: str, operation: str) -> None:
    assert served("ministack").serves(service, operation) is False


@pytest.mark.parametrize(("service", "operation"), SERVED)
def test_operations_ministack_serves(service: str, operation: str) -> None:
    assert served("ministack").serves(service, operation) is True


def test_a_service_it_has_no_entry_for_is_unknown() -> None:
    ministack = served("ministack")
    for service in ("memorydb", "ram", "redshift", "ecr-public"):
        assert ministack.serves(service, "CreateThing") is None
        assert service not in ministack.services


def test_a_rest_service_is_served_whole_and_names_are_botocores() -> None:
    """EFS's requests are told apart by path in code, not a table: served whole."""
    import botocore.loaders

    ministack = served("ministack")
    efs = ministack.service("efs")
    assert efs is not None and efs.whole
    assert ministack.serves("efs", "PutBackupPolicy") is True
    loader = botocore.loaders.create_loader()
    assert ministack.services <= set(loader.list_available_services("service-2"))
    ec2 = ministack.service("ec2")
    assert ec2 is not None and not ec2.whole
    assert ec2.operations <= set(loader.load_service_model("ec2", "service-2")["operations"])


def test_the_pre_flight_names_the_operation_before_any_apply() -> None:
    addresses = ["aws_vpc.main", "aws_vpc_ipv4_cidr_block_association.extra"]
    for major in ("3", "5"):
        found = preflight_of(addresses, "ministack", major)
        assert [
            (u.address, u.service, u.operation, u.service_missing) for u in found.unservable
        ] == [("aws_vpc_ipv4_cidr_block_association.extra", "ec2", "AssociateVpcCidrBlock", False)]
        assert preflight_of(addresses, "moto", major).ok
    # A service MiniStack has no entry for is named as such.
    [share] = preflight_of(["aws_ram_resource_share.s"], "ministack", "5").unservable
    assert share.service_missing and share.service == "ram"


def test_regenerating_the_data_changes_nothing() -> None:
    missing = ministack_missing()
    if missing is not None:
        pytest.skip(f"needs MiniStack to read its dispatch: {missing}")
    command, _ = find_ministack()
    assert command is not None
    python = python_of(command.argv)
    if python is None:
        pytest.skip(f"{command} is not a Python this script can run in")
    done = subprocess.run(
        [python, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
