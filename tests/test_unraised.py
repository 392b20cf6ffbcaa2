"""Error defects a test never raised still count: summary, JSON, and a failure at teardown.

A test that calls ``recover()`` and forgets ``raise_for_defects()`` must not
pass silently; ``@pytest.mark.converge(allow_defects=True)`` accepts them.
Real terraform and moto: a lost ``CreateVpc`` response leaves a duplicate VPC.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MODULES = Path(__file__).resolve().parent / "modules"
HATCH = Path(__file__).resolve().parents[1] / "examples" / "escape_hatch"


def test_an_unraised_recovery_report_fails_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_forgot=f"""
        import pytest
        from pytest_converge import LostResponse

        def test_forgot(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(LostResponse("CreateVpc"))
            assert report.first.ok  # looks at the report, never raises its defects

        @pytest.mark.converge(allow_defects=True)
        def test_accepts(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(
                LostResponse("CreateVpc"), replay=False
            )
            assert not report.ok

        def test_unraised_plan_defects(converge):
            assert converge(r"{HATCH}").converged_defects()  # returned, never raised
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--converge-report=report.json"
    )
    # passed: the call phases of the two forgetful tests and the accepting test;
    # errors: the forgetful tests, at teardown.
    result.assert_outcomes(passed=3, errors=2)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_forgot*",
            "*defects found and never raised by the test*",
            "*duplicate*aws_vpc.main*",
            "*ERROR at teardown of test_unraised_plan_defects*",
            "*escape-hatch*terraform_data.deploy*",
            "*convergence defects*",
        ]
    )
    assert "ERROR at teardown of test_accepts" not in out

    report = json.loads((pytester.path / "report.json").read_text())
    kinds = sorted(d["kind"] for d in report["defects"] if d["severity"] == "error")
    assert kinds == ["duplicate", "escape-hatch"]
    outcomes = {s["scenario"].rpartition("::")[2]: s["outcome"] for s in report["scenarios"]}
    assert outcomes == {"test_forgot": "failed", "test_unraised_plan_defects": "failed"}


def test_raised_and_expected_defects_do_not_fail_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_expected=f"""
        import pytest
        from pytest_converge import ConvergenceError

        def test_expected(converge):
            with pytest.raises(ConvergenceError, match="escape-hatch"):
                converge(r"{HATCH}").assert_converged()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "convergence defects" not in result.stdout.str()
