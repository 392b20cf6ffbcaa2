"""Signal, not noise, for real (terraform + AWS provider 3.39 + moto).

A security group with twenty sibling ``aws_security_group_rule`` resources:
refresh reads the group "changed outside terraform" with the twenty rules.
That drift changed nothing in the plan, so it is one line, naming the
resources that wrote it; the one real finding keeps its full block.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_converge import ConvergenceError

MODULES = Path(__file__).resolve().parents[1] / "modules"


def test_twenty_sibling_rules_print_at_most_one_drift_line_per_resource(converge):
    stack = converge(MODULES / "sg_sibling_rules")
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    text = str(failure.value)
    defects = failure.value.defects

    # The one real finding: the bucket's empty tag value (a full block).
    [diff] = [d for d in defects if d.kind == "permanent-diff"]
    assert diff.address == "aws_s3_bucket.logs"

    # The group's drift: not relevant to the plan, one info record, one line.
    [drift] = [d for d in defects if d.kind == "drift"]
    assert drift.severity == "info" and drift.address == "aws_security_group.this"
    assert drift.writers == [f"aws_security_group_rule.ingress[{i}]" for i in range(20)]
    drift_lines = [ln for ln in text.splitlines() if "aws_security_group" in ln]
    assert len(drift_lines) == 1, text
    assert "also written by aws_security_group_rule.ingress[0]" in drift_lines[0]
    assert "(and 18 more)" in drift_lines[0]
    # The element detail is kept for the JSON report, not shown.
    assert [e["path"] for e in drift.elements] == ["ingress"]


def test_zero_code_output_of_twenty_sibling_rules(pytester: pytest.Pytester) -> None:
    shutil.copytree(MODULES / "sg_sibling_rules", pytester.path / "mods" / "sg")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "-p",
        "no:cacheprovider",
        "--converge-report",
        "report.json",
    )
    result.assert_outcomes(failed=1)
    # With CI set, pytest repeats the whole failure text in its short summary: count the
    # output above it (what a user reads once).
    out = result.stdout.str().split("short test summary info")[0]
    group_lines = [ln for ln in out.splitlines() if "aws_security_group.this" in ln]
    assert len(group_lines) == 1, out
    assert "aws_security_group_rule.ingress[" not in out.replace(group_lines[0], "")
    report = json.loads((pytester.path / "report.json").read_text())
    [drift] = [d for d in report["defects"] if d["kind"] == "drift"]
    assert drift["severity"] == "info" and len(drift["writers"]) == 20


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_inline_field_and_separate_resources_are_one_second_writer_finding(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "sg_inline_and_rules"))
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    [finding] = [d for d in failure.value.defects if d.severity != "info"]
    assert finding.kind == "permanent-diff" and finding.severity == "error"
    assert (finding.address, finding.attribute) == ("aws_security_group.this", "ingress")
    assert finding.writers == [
        "aws_security_group_rule.ingress[0]",
        "aws_security_group_rule.ingress[1]",
    ]
    assert finding.message.startswith(
        "aws_security_group.this ingress is also written by aws_security_group_rule.ingress[0]"
    )
    assert "The next plan re-creates them" in finding.message
    assert "one writer per field" in finding.why
    assert "never declare ingress inline in aws_security_group.this" in finding.fix
