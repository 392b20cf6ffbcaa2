"""Inventory coverage is reported, never assumed (real terraform + moto)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_converge import LostResponse, Throttle

MODULE = Path(__file__).resolve().parents[1] / "modules" / "uncovered_type"
LISTED = Path(__file__).resolve().parents[1] / "modules" / "listed_family"

# The tests inspect the warnings they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)


def test_a_created_type_no_lister_covers_is_named(converge) -> None:
    stack = converge(MODULE)
    report = stack.recover(LostResponse("CreateQueue"), replay=False)
    assert report.ok  # CreateQueue is idempotent: nothing is wrong that anyone looked at
    assert report.unverified_types == ["aws_cloudwatch_log_stream"]
    [warning] = [d for d in report.defects if d.kind == "unverified"]
    assert not warning.is_error and warning.observed == ["aws_cloudwatch_log_stream"]
    assert "no inventory lister covers aws_cloudwatch_log_stream" in warning.message


def test_zero_code_run_names_the_types_in_summary_warning_and_json(
    pytester: pytest.Pytester,
) -> None:
    shutil.copytree(MODULE, pytester.path / "mods" / "logs")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=lost-response",
        "--converge-report=report.json",
        "-k",
        "CreateQueue",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret == 0, result.stdout.str()
    out = result.stdout.str()
    assert "ConvergeCoverageWarning" in out and "aws_cloudwatch_log_stream" in out
    result.stdout.fnmatch_lines(["*convergence defects*", "*unverified*", "*0 errors, 1 warning*"])
    data = json.loads((pytester.path / "report.json").read_text())
    assert data["unverified_types"] == ["aws_cloudwatch_log_stream"]
    [scenario] = [s for s in data["scenarios"] if s["scenario"] != "two-run"]
    assert scenario["unverified_types"] == ["aws_cloudwatch_log_stream"]
    assert [d["kind"] for d in data["defects"]] == ["unverified"]


def test_sub_objects_terraform_declares_are_all_tracked(converge) -> None:
    """Rules (inline and standalone), routes (inline and aws_route), associations,
    attachments, inline policies, aliases and subscriptions made by terraform are
    matched to state: a fault that leaves nothing behind reports nothing."""
    stack = converge(LISTED)
    report = stack.recover(Throttle("CreateVpc"), replay=False)
    assert report.first.ok and report.second.ok
    assert report.defects == [], [d.message for d in report.defects]
    assert report.unverified_types == []
    created = {o.type for o in report.created}
    assert created >= {
        "aws_security_group_rule",
        "aws_route",
        "aws_route_table_association",
        "aws_iam_role_policy_attachment",
        "aws_iam_role_policy",
        "aws_kms_alias",
        "aws_sns_topic_subscription",
    }
    rules = {o.id for o in report.created if o.type == "aws_security_group_rule"}
    assert len(rules) == 4  # two CIDRs in, all out, and the group-to-group rule
    assert {o.region for o in report.created if o.type == "aws_route"} == {"eu-west-1"}
