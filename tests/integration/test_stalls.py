"""A run stuck on one call is stopped within a minute and the call named (terraform + moto).

Without the watchdog each of these runs until terraform's timeout (600 s for an apply).
"""

from __future__ import annotations

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
    stack.stall_limits = StallLimits(repeats=3, seconds=8.0)  # the same stall, sooner
    [found] = stack.converged_defects()
    assert (found.kind, found.scenario, found.module) == ("stalled", "two-run", stack.name)
    assert found.emulator_suspected and not found.is_error


def test_a_call_the_egress_guard_refuses_retried_is_stopped_and_named(converge) -> None:
    """The provider keeps retrying a refused SQS endpoint (max_retries = 25)."""
    stack = converge(MODULES / "stalled_egress")
    stack.stall_limits = StallLimits(repeats=3, seconds=8.0)
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
