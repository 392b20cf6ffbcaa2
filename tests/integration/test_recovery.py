"""Faults mid-apply, for real: what happens when an apply dies and is simply repeated.

Each module here is small and made for one behaviour; together they show the
plugin finding a duplicate, an unrecoverable crash, and clean recoveries.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_converge import ConvergenceError, Crash, FaultError, Interrupt, LostResponse
from pytest_converge.run.protocol import Step

MODULES = Path(__file__).resolve().parents[1] / "modules"


def processes_under(path: Path) -> list[str]:
    """Processes whose working directory is inside ``path`` (terraform and its providers),
    except the Stack's own reattached provider, which lives until the Stack is closed."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or _is_stack_provider(pid):
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if cwd.startswith(str(path)):
            found.append(f"{pid}: {cmd}")
    return found


def _is_stack_provider(pid: str) -> bool:
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    except OSError:
        return False
    return len(cmd) > 1 and b"terraform-provider-aws" in cmd[0] and cmd[1] == b"-debug"


def test_fault_points_are_the_mutating_calls(converge):
    stack = converge(MODULES / "vpc_and_subnet")
    assert stack.fault_points() == ["CreateVpc#1@aws_vpc.main", "CreateSubnet#1@aws_subnet.a"]


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_lost_response_on_create_vpc_leaves_a_duplicate_with_an_empty_plan(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "vpc_and_subnet"))
    # The replay is provider-independent: asked on 3.39, where it costs 5 s, not 25 s.
    replay = provider_line.name == "3.39"
    report = stack.recover(LostResponse("CreateVpc"), replay=replay)
    assert report.first.ok, "the SDK retried the create and the apply succeeded"
    assert report.second.ok
    assert stack.plan().is_empty  # the two-run test alone would pass
    [dup] = report.errors
    assert dup.kind == "duplicate"
    assert dup.address == "aws_vpc.main"
    assert dup.objects and dup.objects[0].startswith("vpc-")
    state_vpc = stack.state()["values"]["root_module"]["resources"][0]["values"]["id"]
    assert dup.objects[0] != state_vpc  # the extra one, not the one terraform manages
    # Found defects are replayed once: the same outcome again, so not flaky.
    assert [d.kind for d in report.replayed if d.is_error] == (["duplicate"] if replay else [])
    assert not report.flaky
    with pytest.raises(ConvergenceError, match="duplicate"):
        report.raise_for_defects()


@pytest.mark.converge(allow_defects=True)  # the defects are asserted, not raised
@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_crash_after_create_table_cannot_recover(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "table_then_queue"))
    report = stack.recover(Crash("CreateTable"))
    assert not report.first.ok and report.first.signalled is not None
    assert not report.second.ok
    kinds = {d.kind for d in report.errors}
    assert "recovery-failed" in kinds
    failed = next(d for d in report.errors if d.kind == "recovery-failed")
    assert failed.address == "aws_dynamodb_table.orders"
    assert "already exists" in failed.message.lower()
    assert "terraform import" in failed.fix
    assert processes_under(stack.workspace.workdir) == []


@pytest.mark.parametrize("fault", [LostResponse("CreateQueue"), Crash("CreateQueue")])
def test_sqs_create_queue_is_idempotent(converge, fault):
    stack = converge(MODULES / "two_queues")
    report = stack.recover(fault)
    assert report.defects == [], report.defects
    assert report.ok
    assert processes_under(stack.workspace.workdir) == []


@pytest.mark.converge(allow_defects=True)  # 5.x: what it may find is asserted below
@pytest.mark.aws5_extra  # the fault claim's 5.x tests are the lost response and the crash
@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_interrupt_is_a_clean_recovery(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "vpc_and_subnet"))
    report = stack.recover(Interrupt("CreateVpc"))
    assert not report.first.ok  # terraform stopped gracefully...
    assert report.second.ok  # ...and the re-run finished the job
    if provider_line.name == "3.39":
        assert report.defects == []
        return
    # 5.x (aws-sdk-go-v2) cancels the call in flight when terraform stops it: the VPC
    # that CreateVpc made may never reach the state, and the re-run makes another.
    # Whether it does is a race (its replay may disagree: flaky); never anything else.
    assert all((d.kind, d.address) == ("duplicate", "aws_vpc.main") for d in report.defects), (
        report.defects
    )


def test_fault_string_form(converge):
    stack = converge(MODULES / "two_queues")
    told = []
    stack.on_step = lambda step, detail: told.append((step, detail))
    report = stack.recover("lost-response@CreateQueue#2")
    assert report.scenario == "lost-response@CreateQueue#2"
    assert report.ok
    # The steps it went through are data, in order (the status line reads them).
    steps = [step for step, _ in told]
    order = [Step.FAULTED_APPLY, Step.RERUN, Step.SECOND_PLAN, Step.INVENTORY]
    assert [s for s in steps if s in order] == order, told
    assert (Step.FAULTED_APPLY, "lost-response@CreateQueue#2") in told


def test_a_fault_that_never_fires_is_an_error_listing_the_calls(converge):
    stack = converge(MODULES / "two_queues")
    with pytest.raises(FaultError) as failure:
        stack.recover(Crash("CreateVpc"))
    text = str(failure.value)
    assert "never fired" in text
    assert "CreateQueue#1" in text and "CreateQueue#2" in text


def test_unknown_fault_kind_is_an_error():
    from pytest_converge.faults import parse_fault

    with pytest.raises(FaultError, match="crash"):
        parse_fault("explode@CreateVpc#1")


def test_an_emulator_that_died_mid_scenario_is_named(converge_toolchain, tmp_path):
    from pytest_converge.emulator import MotoEmulator
    from pytest_converge.errors import EmulatorError
    from pytest_converge.run.stack import Stack
    from pytest_converge.terraform.workspace import Templates

    emulator = MotoEmulator()
    emulator.start()
    stack = Stack(
        MODULES / "two_queues",
        emulator=emulator,
        templates=Templates(converge_toolchain, tmp_path / "t"),
        workdir=tmp_path / "w",
    )
    try:
        emulator.stop()  # dies between two runs of the scenario
        with pytest.raises(EmulatorError, match="does not answer"):
            stack.recover(LostResponse("CreateQueue"))
    finally:
        stack.close()


CHAINED_QUEUES = """
provider "aws" {
  region = "us-east-1"
}
resource "aws_sqs_queue" "dead" {
  name = "orders-dead"
}
resource "aws_sqs_queue" "jobs" {
  name       = "orders"
  depends_on = [aws_sqs_queue.dead]
}
"""


@pytest.mark.parametrize(("n", "address"), [(1, "aws_sqs_queue.dead"), (2, "aws_sqs_queue.jobs")])
def test_the_report_names_the_resource_the_fault_hit(converge, tmp_path, n, address):
    # jobs depends on dead, so terraform always creates dead first: CreateQueue#1 is dead's.
    (tmp_path / "main.tf").write_text(CHAINED_QUEUES)
    report = converge(tmp_path).recover(Crash("CreateQueue", n))
    assert report.hit == address


def test_independent_resources_of_one_operation_are_named_whichever_was_hit(converge):
    # jobs and dead do not depend on each other: either may be the first CreateQueue.
    report = converge(MODULES / "two_queues").recover(Crash("CreateQueue", 1))
    assert report.hit in {"aws_sqs_queue.jobs", "aws_sqs_queue.dead"}
