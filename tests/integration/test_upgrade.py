"""Upgrades, for real: the released revision applied, then the change over its state."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge import ConvergenceError, Crash, LostResponse
from pytest_converge.run.protocol import Step

#: These tests inspect the defects they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)

MODULES = Path(__file__).resolve().parents[1] / "modules" / "upgrade"

MOVED = "moved {\n  from = aws_sqs_queue.jobs\n  to   = aws_sqs_queue.work\n}"


def test_rename_without_moved_is_destructive_with_the_moved_block_as_fix(converge):
    stack = converge(MODULES / "renamed")
    report = stack.upgrade_from(MODULES / "v1")
    assert report.action("aws_sqs_queue.jobs") == "delete"
    assert report.action("aws_sqs_queue.work") == "create"
    assert [(h.old, h.new) for h in report.moved] == [("aws_sqs_queue.jobs", "aws_sqs_queue.work")]
    [found] = [d for d in report.errors if d.kind == "destructive-upgrade"]
    assert found.address == "aws_sqs_queue.work"
    assert MOVED in found.fix
    with pytest.raises(ConvergenceError, match="destructive-upgrade"):
        report.raise_for_defects()


def test_rename_with_the_moved_block_is_clean(converge):
    stack = converge(MODULES / "moved")
    report = stack.upgrade_from(MODULES / "v1")
    assert report.action("aws_sqs_queue.work") == "move"
    assert not report.moved
    assert report.defects == []
    report.raise_for_defects()
    assert stack.plan().is_empty


#: The upgrade claim's 5.x leg. (Not the rename above: on 5.x its queue's delete and
#: re-create wait on the provider's own waiters, 130 s against 11 s on 3.39 in a suite run.)
@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_changing_a_tables_hash_key_replaces_it_and_loses_its_items(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "hash_key"))
    report = stack.upgrade_from(provider_line.pin(MODULES / "v1"))
    assert report.action("aws_dynamodb_table.orders") == "replace"
    [found] = report.errors
    assert (found.kind, found.address, found.attribute) == (
        "destructive-upgrade",
        "aws_dynamodb_table.orders",
        "hash_key",
    )
    assert (found.observed, found.declared) == ("id", "order_id")
    assert 'allow_replace=["aws_dynamodb_table.orders"]' in found.fix


def test_allow_replace_accepts_the_listed_replacement(converge):
    stack = converge(MODULES / "hash_key")
    report = stack.upgrade_from(MODULES / "v1", allow_replace=["aws_dynamodb_table.orders"])
    assert report.action("aws_dynamodb_table.orders") == "replace"
    assert report.errors == []


def test_adding_a_tag_is_a_clean_in_place_upgrade(converge):
    stack = converge(MODULES / "tagged")
    report = stack.upgrade_from(MODULES / "v1")
    assert {a.address: a.action for a in report.actions} == {
        "aws_dynamodb_table.orders": "update",
        "aws_sqs_queue.jobs": "update",
    }
    assert report.defects == []


def test_upgrade_fault_points_are_the_calls_of_the_upgrade_apply_only(converge):
    stack = converge(MODULES / "tagged")
    points = stack.upgrade_fault_points(MODULES / "v1")
    assert not [p for p in points if p.startswith(("CreateTable#", "CreateQueue#"))]
    assert "TagResource#1@aws_dynamodb_table.orders" in points  # DynamoDB tags
    assert "TagQueue#1@aws_sqs_queue.jobs" in points


@pytest.mark.parametrize("point", ["TagResource#1", "TagQueue#1"])
def test_a_crash_during_the_upgrade_apply_is_recovered_by_a_clean_rerun(converge, point):
    stack = converge(MODULES / "tagged")
    told = []
    stack.on_step = lambda step, detail: told.append(step)
    op, _, n = point.partition("#")
    report = stack.upgrade_from(MODULES / "v1", fault=Crash(op, int(n)))
    assert report.scenario == f"upgrade-crash@{point}"
    # An upgrade's own steps are named (its faulted apply once matched none of them).
    order = [Step.OLD_REVISION_APPLY, Step.UPGRADE_PLAN, Step.UPGRADE_APPLY, Step.RERUN]
    assert [s for s in told if s in order] == order, told
    assert not report.first.ok and report.first.signalled
    assert report.second is not None and report.second.ok
    assert report.errors == [], report.defects
    assert stack.plan().is_empty


def test_a_crash_during_a_replacing_upgrade_is_reported_like_any_fault(converge):
    stack = converge(MODULES / "hash_key")
    report = stack.upgrade_from(
        MODULES / "v1",
        fault="crash@CreateTable#1",
        allow_replace=["aws_dynamodb_table.orders"],
        replay=False,
    )
    assert not report.first.ok and report.first.signalled
    # The new table was created and never recorded: the re-run collides with it.
    assert report.second is not None and not report.second.ok
    failed = [d for d in report.errors if d.kind == "recovery-failed"]
    assert [d.address for d in failed] == ["aws_dynamodb_table.orders"]
    assert "already exists" in failed[0].observed
    # The table the crash left is that recovery's cause, not a finding of its own.
    assert failed[0].objects == ["orders"] and "orphan" not in {d.kind for d in report.errors}
    assert "`terraform import aws_dynamodb_table.orders orders`" in failed[0].fix


def test_a_lost_create_vpc_through_an_alias_region_is_a_duplicate_the_upgrade_finds(converge):
    """The new release adds a VPC in us-west-2 through an alias of an eu-west-1 module.

    The SDK retries the lost CreateVpc, a second VPC is made in us-west-2, and the
    re-run and second plan are clean: only an inventory of that region sees it, as
    :meth:`Stack.recover` of the same module does.
    """
    stack = converge(MODULES / "alias_added")
    fault = LostResponse("CreateVpc")
    report = stack.upgrade_from(MODULES / "alias_v1", fault=fault, replay=False)
    [faulted] = [c for c in report.first.calls if c.fault == fault.label]
    assert faulted.region == "us-west-2"
    assert report.second is not None and report.second.ok
    [dup] = report.errors
    assert (dup.kind, dup.address) == ("duplicate", "aws_vpc.dr")
    assert " in us-west-2 duplicates aws_vpc.dr" in dup.message
    assert "--region us-west-2" in dup.fix
    assert [o.region for o in report.created if o.id == dup.objects[0]] == ["us-west-2"]
    assert {"eu-west-1", "us-west-2"} <= set(report.regions)
    assert stack.plan().is_empty  # the second plan alone would have passed

    recovered = stack.recover(fault, replay=False)
    assert [d.kind for d in recovered.errors] == ["duplicate"]
