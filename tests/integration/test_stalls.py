"""A run stuck on one call is stopped within a minute and the call named (terraform + moto).

Without the watchdog each of these runs until terraform's timeout (600 s for an apply).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import pytest

from pytest_converge.analysis.stalls import StallLimits
from pytest_converge.errors import ConvergenceError, TerraformStalled

MODULES = Path(__file__).resolve().parents[1] / "modules"


def test_a_waiter_on_an_answer_moto_never_changes_is_stopped_and_named(converge) -> None:
    """aws_dynamodb_table with a replica: provider 3.39 polls DescribeTable, moto never
    lists the replica. Default limits: stopped within 60 s of the stall, a suspected gap."""
    stack = converge(MODULES / "stalled_replica")
    started = time.monotonic()
    result = stack.apply()
    stopped = time.monotonic()
    assert not result.ok
    # The stall starts with the last change (UpdateTable asks for the replica).
    stalled_from = max(c.started for c in result.calls if c.mutating)
    assert [c.operation for c in result.calls if c.started > stalled_from] == (
        ["DescribeTable"] * len([c for c in result.calls if c.started > stalled_from])
    )
    assert stopped - stalled_from < 60, f"stopped {stopped - stalled_from:.0f} s after the stall"
    assert stopped - started < 90, f"the stalled apply ran {stopped - started:.0f} s"
    assert isinstance(result.error, TerraformStalled)
    assert "emulator gap: dynamodb:DescribeTable answered the same (HTTP 200" in str(result.error)
    [found] = result.stalled
    assert (found.kind, found.address, found.attribute) == (
        "stalled",
        "aws_dynamodb_table.global",
        "replica",
    )
    assert found.emulator_suspected and found.severity == "warning"
    assert "polling a waiter for aws_dynamodb_table.global.replica" in found.message
    assert "stopped `terraform apply`" in found.message
    assert found.evidence.startswith("known moto")
    assert "test_moto_ignores_dynamodb_replica_updates" in found.evidence
    with pytest.raises(ConvergenceError, match="stuck on one call"):
        result.raise_for_error()


def test_the_two_run_test_reports_a_stall_as_a_finding_not_a_timeout(converge) -> None:
    stack = converge(MODULES / "stalled_replica")
    stack.settings = dataclasses.replace(
        stack.settings, stall_limits=StallLimits(repeats=3, seconds=8.0)
    )  # the same stall, sooner
    [found] = stack.converged_defects()
    assert (found.kind, found.scenario, found.module) == ("stalled", "two-run", stack.settings.name)
    assert found.emulator_suspected and not found.is_error


def test_a_call_the_egress_guard_refuses_retried_is_stopped_and_named(converge) -> None:
    """The provider keeps retrying a refused SQS endpoint (max_retries = 25)."""
    stack = converge(MODULES / "stalled_egress")
    stack.settings = dataclasses.replace(
        stack.settings, stall_limits=StallLimits(repeats=3, seconds=8.0)
    )
    started = time.monotonic()
    result = stack.apply()
    took = time.monotonic() - started
    assert not result.ok and isinstance(result.error, TerraformStalled)
    assert took < 60, f"the stalled apply ran {took:.0f} s"
    assert "refused egress to sqs.us-east-1.amazonaws.com:443" in str(result.error)
    [egress] = result.egress
    assert not result.stalled  # told on the egress finding, not a second one
    assert egress.kind == "egress" and egress.address == "aws_sqs_queue.jobs"
    assert "the provider kept retrying it (" in egress.message
    assert "pytest-converge stopped `terraform apply`" in egress.message
    assert "sqs.us-east-1.amazonaws.com is a real AWS endpoint" in egress.fix
    with pytest.raises(ConvergenceError, match=r"sqs\.us-east-1\.amazonaws\.com"):
        result.raise_for_error()


def _aws5_build() -> Path | None:
    """An unpacked aws 5.x provider (``$CONVERGE_TEST_AWS5_MIRROR`` or /opt/tf-plugins)."""
    roots = [os.environ.get("CONVERGE_TEST_AWS5_MIRROR", ""), "/opt/tf-plugins"]
    for root in filter(None, roots):
        found = sorted(Path(root).glob("registry.terraform.io/hashicorp/aws/5.*/linux_amd64"))
        if found:
            return found[-1]
    return None


AWS5_TEST = """
def test_redrive(converge):
    stack = converge({module!r})
    result = stack.apply()
    [found] = result.stalled
    assert found.address == "aws_sqs_queue_redrive_allow_policy.dlq", found
    assert found.attribute == "redrive_allow_policy", found
    assert found.emulator_suspected and found.severity == "warning"
    assert "sqs:GetQueueAttributes answered the same" in found.message
    assert "test_moto_never_reads_back_an_sqs_redrive_allow_policy" in found.evidence
    print("STOPPED AFTER", round(result.seconds))
"""


@pytest.mark.slow
@pytest.mark.aws5_extra  # the 5.x corpus (CONVERGE_PUBLIC_CORPUS5) checks 5.x stalls too
def test_aws5_waits_for_a_redrive_allow_policy_moto_never_returns(
    moto_as_released, monkeypatch
) -> None:
    """aws 5.x (a private cache whose mirror holds the 5.x build) on moto as released
    (the embedded server's fidelity layer reads the policy back): the queue's own
    deliberate wait (its attributes read back unchanged 6 times) finishes; the redrive
    allow policy's wait is stopped and named with its catalogue entry."""
    pytester = moto_as_released
    build = _aws5_build()
    if build is None:
        pytest.skip(
            "no aws 5.x provider build (set CONVERGE_TEST_AWS5_MIRROR to a filesystem mirror "
            "holding registry.terraform.io/hashicorp/aws/5.x/linux_amd64)"
        )
    cache = pytester.path / "cache"
    mirror = cache / "mirror" / "registry.terraform.io" / "hashicorp" / "aws"
    target = mirror / build.parent.name / "linux_amd64"
    target.mkdir(parents=True)
    for binary in build.iterdir():  # terraform does not follow a symlinked version dir
        (target / binary.name).symlink_to(binary)
    pytester.makepyfile(AWS5_TEST.format(module=str(MODULES / "stalled_redrive_aws5")))
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(cache))  # never the shared cache
    started = time.monotonic()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "0", "-s")
    result.assert_outcomes(passed=1)
    assert time.monotonic() - started < 240  # 5.x runs are slow; 600 s without the watch


def test_zero_code_two_run_of_a_stalled_module_lists_a_marked_finding(pytester) -> None:
    """``pytest --converge``: the stall is a suspected gap (the item passes, the JSON report
    holds the ``stalled`` defect, valid against the schema); strict keeps it an error."""
    import shutil

    jsonschema = pytest.importorskip("jsonschema")
    from pytest_converge.report import load_schema

    shutil.copytree(MODULES / "stalled_replica", pytester.path / "mods" / "replica")
    args = ["--converge", "mods", "--converge-faults=none", "-p", "no:cacheprovider", "-n", "0"]
    result = pytester.runpytest_subprocess(*args, "--converge-report", "report.json")
    result.assert_outcomes(passed=1)
    assert (
        "suspected emulator gaps (1 of the defects above, probably not the module's):"
        in result.stdout.str()
    )
    data = json.loads((pytester.path / "report.json").read_text())
    jsonschema.validate(data, load_schema())
    [found] = data["defects"]
    assert (found["kind"], found["address"], found["attribute"]) == (
        "stalled",
        "aws_dynamodb_table.global",
        "replica",
    )
    assert found["emulator_suspected"] and found["severity"] == "warning"


def test_after_a_cut_wait_the_second_plan_still_checks_the_rest(converge) -> None:
    """The two-run: the stall is a suspected gap (warning); the security group the apply
    finished is still checked (its repeated CIDR is a permanent diff, an error); the
    table cut mid-apply and the queue never reached are told on the stalled finding."""
    stack = converge(MODULES / "stalled_and_rest")
    stack.settings = dataclasses.replace(
        stack.settings, stall_limits=StallLimits(repeats=3, seconds=8.0)
    )
    found = stack.converged_defects()
    by_kind = {(d.kind, d.address) for d in found if d.kind != "drift"}
    assert by_kind == {
        ("stalled", "aws_dynamodb_table.global"),
        ("permanent-diff", "aws_security_group.ssh"),
    }, found
    [stalled] = [d for d in found if d.kind == "stalled"]
    assert stalled.emulator_suspected and not stalled.is_error
    assert "aws_dynamodb_table.global (cut mid-apply: part of this finding)" in stalled.message
    assert "never reached were not checked: aws_sqs_queue.events" in stalled.message
    [diff] = [d for d in found if d.kind == "permanent-diff"]
    assert diff.is_error and diff.classification == "dedup", diff


def test_a_fault_scenario_whose_rerun_stalls_still_finds_the_duplicate(converge) -> None:
    """The clean re-run is cut on the same wait: no recovery-failed (the stall says why),
    and the second plan and the inventory still run: the lost CreateVpc's second VPC
    is a duplicate, the repeated CIDR a permanent diff."""
    from pytest_converge import LostResponse

    stack = converge(MODULES / "stalled_and_rest")
    stack.settings = dataclasses.replace(
        stack.settings, stall_limits=StallLimits(repeats=3, seconds=8.0)
    )
    report = stack.recover(LostResponse("CreateVpc", address="aws_vpc.main"), replay=False)
    assert report.second is not None
    kinds = {(d.kind, d.address) for d in report.defects}
    assert ("recovery-failed", "aws_dynamodb_table.global") not in kinds
    assert not any(d.kind == "recovery-failed" for d in report.defects), report.defects
    assert ("duplicate", "aws_vpc.main") in kinds, report.defects
    assert ("permanent-diff", "aws_security_group.ssh") in kinds, report.defects
    assert any(d.kind == "stalled" and d.emulator_suspected for d in report.defects)


def test_a_wait_in_silence_is_stopped_and_named(converge, tmp_path) -> None:
    """aws_db_instance on provider 3.39 waits 30 s before its first poll: a wait with no
    call at all. With a short silence limit it is cut, named, and never a timeout."""
    (tmp_path / "main.tf").write_text(
        'provider "aws" {\n  region = "us-east-1"\n}\n'
        'resource "aws_db_instance" "db" {\n'
        '  identifier          = "quiet"\n'
        '  engine              = "postgres"\n'
        '  instance_class      = "db.t3.micro"\n'
        "  allocated_storage   = 20\n"
        '  username            = "app"\n'
        '  password            = "correct-horse-battery"\n'
        "  skip_final_snapshot = true\n"
        "}\n"
    )
    stack = converge(tmp_path)
    stack.settings = dataclasses.replace(
        stack.settings, stall_limits=StallLimits(repeats=3, seconds=8.0, silence=10.0)
    )
    result = stack.apply()
    assert not result.ok
    assert isinstance(result.error, TerraformStalled)
    [found] = result.stalled
    assert (found.kind, found.address) == ("stalled", "aws_db_instance.db")
    assert found.message.startswith("silent wait: no API call and nothing completed for ")
    assert "while aws_db_instance.db was being applied" in found.message
    assert "its last call, rds:CreateDBInstance" in found.message


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_the_providers_own_sleep_is_cut_without_waiting_out_the_silence(
    converge, provider_line, tmp_path
) -> None:
    """aws 5.x sleeps 10 minutes after CreateDomain before its first DescribeDomain, on
    every backend (``PROVIDER_SLEEPS``): with the domain alone in flight the watch cuts
    it after ``KNOWN_WAIT_LIMITS``' silence, not after the two minutes of any silence."""
    from pytest_converge.analysis.stalls import KNOWN_WAIT_LIMITS, STALL_LIMITS

    (tmp_path / "main.tf").write_text(
        'provider "aws" {\n  region = "us-east-1"\n}\n'
        'resource "aws_opensearch_domain" "search" {\n'
        '  domain_name    = "quiet"\n'
        '  engine_version = "OpenSearch_2.11"\n'
        '  cluster_config {\n    instance_type = "t3.small.search"\n  }\n'
        "  ebs_options {\n    ebs_enabled = true\n    volume_size = 10\n  }\n"
        "}\n"
    )
    stack = converge(provider_line.pin(tmp_path))
    assert stack.settings.stall_limits == STALL_LIMITS
    started = time.monotonic()
    result = stack.apply()
    took = time.monotonic() - started
    assert not result.ok and isinstance(result.error, TerraformStalled)
    assert took < STALL_LIMITS.silence - KNOWN_WAIT_LIMITS.silence, took
    [found] = result.stalled
    assert (found.kind, found.address) == ("stalled", "aws_opensearch_domain.search")
    assert not found.is_error and not found.emulator_suspected
    assert "its last call, es:CreateDomain" in found.message
    assert "the aws provider sleeps 600 s after es:CreateDomain" in found.message
