"""Facts about reports written once and read everywhere: severities, the version, serialisation."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

import pytest_converge
from pytest_converge.analysis.defects import ERROR, KINDS, WARNING, WARNING_KINDS, Defect
from pytest_converge.analysis.plan import UNKNOWN
from pytest_converge.report import defect_json, json_report, sarif_report, summary_lines


@pytest.mark.parametrize("kind", KINDS)
def test_a_kinds_severity_is_the_same_in_defects_sarif_and_summary(kind: str) -> None:
    defect = Defect(kind=kind, address="aws_vpc.main", module="mods/net")
    expected = WARNING if kind in WARNING_KINDS else ERROR
    assert defect.severity == expected
    sarif = sarif_report([defect], Path("/nonexistent"), version="0")
    [rule] = [r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == kind]
    assert rule["defaultConfiguration"]["level"] == expected
    assert sarif["runs"][0]["results"][0]["level"] == expected
    row = next(line for line in summary_lines({"mods/net": [defect]}) if "mods/net" in line)
    # A partly verified module says so before its warnings.
    word = "FAILED" if expected == ERROR else "partly" if kind == "untested" else "warnings"
    assert word in row


def test_an_explicit_severity_is_kept() -> None:
    assert Defect(kind="permanent-diff", severity=WARNING).severity == WARNING


def test_one_version_everywhere() -> None:
    assert pytest_converge.__version__ == version("pytest-converge")
    sarif = sarif_report([], Path("/nonexistent"))
    assert sarif["runs"][0]["tool"]["driver"]["version"] == pytest_converge.__version__


def test_one_serialisation_for_report_and_user_properties() -> None:
    defect = Defect(
        kind="permanent-diff",
        address="aws_sqs_queue.q",
        attribute="redrive_policy",
        declared=UNKNOWN,
        observed={"tags": {"a", "b"}, "path": Path("/x")},
        module="mods/q",
    )
    carried = defect_json(defect)
    # What a user property carries (also across xdist) is exactly the JSON report's entry.
    assert json.loads(json.dumps(carried)) == json_report([], [], [defect])["defects"][0]
    assert carried["declared"] == "(known after apply)"
    assert carried["observed"] == {"tags": ["a", "b"], "path": "/x"}
    assert Defect.from_dict(carried).key() == defect.key()
