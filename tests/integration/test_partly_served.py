"""A module part of which the backend cannot serve still gets a verdict on the rest.

``tests/modules/partly_served`` declares a spot instance data feed subscription (moto
has no code for ``ec2:CreateSpotDatafeedSubscription``), a queue that names it and one
that does not.
Real terraform and provider, the embedded moto: the unserved operation fails its
resource at once (one call, no retries), the queue that waits on it is left out with
it, and the rest is applied and judged: an error in it is still found.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[1] / "modules" / "partly_served"
GAP = "aws_spot_datafeed_subscription.spare"


def test_the_rest_is_judged_and_the_untested_part_named(converge):
    stack = converge(MODULE)
    found = stack.converged_defects()
    assert [(d.kind, d.address) for d in found] == [("untested", GAP)]
    [untested] = found
    assert untested.observed == "ec2:CreateSpotDatafeedSubscription"
    assert untested.waiting == ["aws_sqs_queue.waiting"]
    assert not untested.is_error
    # Known before the apply: the pre-flight read it from what moto serves.
    assert [u.address for u in stack.served.preflight.unservable] == [GAP]
    assert untested.evidence.startswith("named before the apply")
    # The queue that does not wait on it was made; the unserved call was made once:
    # answered as not implemented, the SDK did not retry it.
    calls = [c for c in stack.last_apply.calls if c.operation == "CreateSpotDatafeedSubscription"]
    assert len(calls) <= 1
    assert stack.state()["values"]["root_module"]["resources"][0]["address"] == "aws_sqs_queue.jobs"


def test_an_error_in_the_served_part_is_still_found(converge, tmp_path):
    module = _with(
        tmp_path,
        'resource "aws_security_group" "ssh" {\n'
        "  ingress {\n"
        '    protocol    = "tcp"\n'
        "    from_port   = 22\n"
        "    to_port     = 22\n"
        '    cidr_blocks = ["10.0.0.0/8", "10.0.0.0/8"]\n'
        "  }\n"
        "}\n",
    )
    found = converge(module).converged_defects()
    kinds = sorted((d.kind, d.address) for d in found)
    assert ("permanent-diff", "aws_security_group.ssh") in kinds
    assert ("untested", GAP) in kinds
    [diff] = [d for d in found if d.kind == "permanent-diff"]
    assert diff.is_error and diff.classification == "dedup"


def test_zero_code_items_pass_partly_verified_in_every_report(pytester: pytest.Pytester) -> None:
    shutil.copytree(MODULE, pytester.path / "mods" / "partly")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=lost-response",
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "--junitxml=junit.xml",
        "-n",
        "0",
    )
    # The two-run and the one point of the served queue; no point on the unserved part.
    result.assert_outcomes(passed=2, warnings=2)
    out = result.stdout.str()
    assert "partly verified" in out and f"{GAP} untested (ec2:CreateSpotDatafeedSubscription" in out
    assert "ConvergeUntestedWarning" in out
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["partly_verified"] == {
        "mods/partly": [
            {
                "address": GAP,
                "operation": "ec2:CreateSpotDatafeedSubscription",
                "waiting": ["aws_sqs_queue.waiting"],
            }
        ]
    }
    assert all(
        s["untested"] == {GAP: "ec2:CreateSpotDatafeedSubscription"} for s in report["scenarios"]
    )
    assert not [d for d in report["defects"] if d["severity"] == "error"]
    assert "converge.untested" in (pytester.path / "junit.xml").read_text()


def test_a_read_that_fails_at_plan_time_leaves_out_only_what_uses_it(converge):
    stack = converge(MODULE.parent / "partly_served_read")
    found = stack.converged_defects()
    read = "data.aws_codeartifact_authorization_token.packages"
    assert [(d.kind, d.address) for d in found] == [("untested", read)]
    assert found[0].observed == "codeartifact:GetAuthorizationToken"
    assert found[0].evidence.startswith("found by the apply")  # a data source's read
    assert found[0].waiting == ["aws_sqs_queue.token", "module.child.aws_sqs_queue.after"]
    made = sorted(r["address"] for r in _resources(stack.state()))
    assert made == ["aws_sqs_queue.jobs", "module.child.aws_sqs_queue.own"]


def _with(tmp_path: Path, hcl: str) -> Path:
    """A copy of ``partly_served`` in ``tmp_path`` with ``hcl`` added to its main.tf."""
    shutil.copytree(MODULE, tmp_path, dirs_exist_ok=True)
    with (tmp_path / "main.tf").open("a") as tf:
        tf.write(hcl)
    return tmp_path


def _resources(state: dict) -> list[dict]:
    root = state["values"]["root_module"]
    found = list(root.get("resources", []))
    for child in root.get("child_modules", []):
        found.extend(child.get("resources", []))
    return found


def test_a_crash_before_the_rest_was_made_does_not_shrink_the_served_part(converge, tmp_path):
    """A crash kills terraform with resources the backend serves not made yet: they did
    not wait on the untested part, and the re-run, its second plan and the finding must
    treat them as served. (Learned from the crashed apply, the served part was only what
    it had made: the re-run targeted that, and the crash's queue read as an orphan.)"""
    module = _with(
        tmp_path,
        'resource "aws_sqs_queue" "first" {\n  name = "first"\n}\n'
        'resource "aws_sqs_queue" "later" {\n'
        '  name       = "later"\n'
        "  depends_on = [aws_sqs_queue.first]\n"
        "}\n",
    )
    stack = converge(module)
    report = stack.recover("crash@CreateQueue#1@aws_sqs_queue.later", replay=False)
    assert report.first.signalled is not None  # the crash killed terraform
    assert [(d.kind, d.address) for d in report.defects if d.is_error] == []
    [untested] = [d for d in report.defects if d.kind == "untested"]
    assert untested.waiting == ["aws_sqs_queue.waiting"]
    made = sorted(r["address"] for r in _resources(stack.state()))
    assert made == ["aws_sqs_queue.first", "aws_sqs_queue.jobs", "aws_sqs_queue.later"]
