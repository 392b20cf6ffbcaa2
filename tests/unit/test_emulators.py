"""Emulator differences on plain data."""

from __future__ import annotations

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.emulators import Outcome, emulator_differences


def diff(address: str, attribute: str = "policy") -> Defect:
    return Defect(kind="permanent-diff", address=address, attribute=attribute, message="m")


def test_same_findings_on_both_are_not_a_difference():
    a = Outcome("moto", [diff("a.b")], "1 to update")
    b = Outcome("localstack", [diff("a.b")], "1 to update")
    assert emulator_differences("mod", a, b) == []


def test_finding_on_one_side_only_names_both_plans():
    a = Outcome("moto", [diff("a.b")], "1 to update")
    b = Outcome("localstack", [], "no changes")
    [d] = emulator_differences("mod", a, b)
    assert d.kind == "emulator-difference" and d.severity == "warning"
    assert "on moto (second plan: 1 to update)" in d.message
    assert "converges on localstack (second plan: no changes)" in d.message


def test_differences_found_in_both_directions():
    a = Outcome("moto", [diff("a.b")], "1 to update")
    b = Outcome("localstack", [diff("c.d")], "1 to update")
    assert {d.address for d in emulator_differences("mod", a, b)} == {"a.b", "c.d"}


def test_warnings_are_not_compared():
    warn = Defect(kind="needs-second-apply", address="a.b", severity="warning")
    assert emulator_differences("m", Outcome("x", [warn], ""), Outcome("y", [], "")) == []
