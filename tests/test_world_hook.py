"""``pytest_converge_world``: the objects a module reads but does not make, made in the
emulator before every run, as a user's conftest.py does it (real terraform, real moto).

tests/modules/reads_a_vpc looks up a VPC by its Name tag and makes a security group in it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parent / "modules" / "reads_a_vpc"

CONFTEST = """
import json
from pathlib import Path

import pytest

MADE = []


def pytest_converge_world(config, emulator, module):
    assert isinstance(config, pytest.Config) and module.name == "joins"
    ec2 = emulator.client("ec2", region="eu-west-1")
    shared = [{"Name": "tag:Name", "Values": ["shared"]}]
    # Made in an emptied emulator each time: none is there yet.
    assert not ec2.describe_vpcs(Filters=shared)["Vpcs"]
    tags = [{"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "shared"}]}]
    vpc = ec2.create_vpc(CidrBlock="10.77.0.0/16", TagSpecifications=tags)["Vpc"]["VpcId"]
    MADE.append(vpc)
    Path(str(config.rootpath), "made.json").write_text(json.dumps(MADE))
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    shutil.copytree(MODULE, pytester.path / "mods" / "joins")
    return pytester.runpytest_subprocess(
        "--converge", "mods", "-p", "no:cacheprovider", "-n", "0",
        "--converge-report=report.json", "-rA", *args,
    )  # fmt: skip


def test_the_world_a_module_reads_is_made_before_every_run(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    result = _run(pytester, "--converge-faults=crash,lost-response")
    report = json.loads((pytester.path / "report.json").read_text())
    # The two-run passed (the fault points' failures are the module's: a fixed group
    # name); each fault point's run started from the VPC again.
    assert "PASSED mods/joins::two-run" in result.stdout.str(), result.stdout.str()
    made = json.loads((pytester.path / "made.json").read_text())
    # Made after each emptying (the hook asserts the emulator had none): the collecting
    # clean apply, its emptying after, and each fault run; no run went without it.
    assert len(report["scenarios"]) >= 3 and len(made) >= 3, made
    out = result.stdout.str()
    assert "found nothing" not in out and "pytest_converge_world hook failed" not in out
    assert {s["outcome"] for s in report["scenarios"]} <= {"passed", "failed"}
    # The VPC is the world before each run: never a leftover of one.
    found = json.dumps(report["defects"])
    assert not [vpc for vpc in made if vpc in found], found


def test_without_it_the_lookup_names_the_hook(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--converge-faults=none")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "data.aws_vpc.shared found nothing" in out
    assert "pytest_converge_world(config, emulator, module)" in out
