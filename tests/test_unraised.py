"""Error defects a test never looked at still count; the ones it asserted on were expected.

A test that calls ``recover()`` and never reads nor raises its report's
defects must not pass silently: it fails once, in its call phase, with their
text. A test that asserts on the defect it provoked (the natural way to write
a fault-injection test) is a plain pass. ``@pytest.mark.converge(allow_defects=True)``
accepts unread ones. Real terraform and moto: a lost ``CreateVpc`` response
leaves a duplicate VPC; a second writer on a queue's field flaps.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MODULES = Path(__file__).resolve().parent / "modules"
HATCH = Path(__file__).resolve().parents[1] / "examples" / "escape_hatch"

#: Writes each failed report's phase and text, so a test can tell a call
#: failure from a teardown error and count the failures of one test.
PHASES = """
import json

def pytest_runtest_logreport(report):
    if report.failed:
        with open("failures.jsonl", "a") as out:
            out.write(json.dumps({"test": report.nodeid.rpartition("::")[2],
                                  "when": report.when, "text": report.longreprtext}) + "\\n")
"""


def _failures(pytester: pytest.Pytester) -> list[dict[str, str]]:
    path = pytester.path / "failures.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines]


def test_defects_never_looked_at_fail_the_test_once_in_its_call_phase(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(PHASES)
    pytester.makepyfile(
        test_forgot=f"""
        import pytest
        from pytest_converge import LostResponse

        def test_forgot(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(LostResponse("CreateVpc"))
            assert report.first.ok  # looks at the first apply, never at the defects

        @pytest.mark.converge(allow_defects=True)
        def test_accepts(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(
                LostResponse("CreateVpc"), replay=False
            )
            assert report.first.ok

        def test_unraised_plan_defects(converge):
            converge(r"{HATCH}").converged_defects()  # returned, never looked at
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rA", "--converge-report=report.json"
    )
    # One outcome per test: the forgetful ones failed (not passed plus an error).
    result.assert_outcomes(passed=1, failed=2, errors=0)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*_ test_forgot _*",
            "*defects found that the test never looked at*",
            "*duplicate*aws_vpc.main*",
            "*_ test_unraised_plan_defects _*",
            "*escape-hatch*terraform_data.deploy*",
            "*convergence defects*",
        ]
    )
    assert "ERROR at teardown" not in out

    failures = _failures(pytester)
    assert sorted((f["test"], f["when"]) for f in failures) == [
        ("test_forgot", "call"),
        ("test_unraised_plan_defects", "call"),
    ]
    assert all("never looked at" in f["text"] for f in failures)

    report = json.loads((pytester.path / "report.json").read_text())
    kinds = sorted(d["kind"] for d in report["defects"] if d["severity"] == "error")
    assert kinds == ["duplicate", "escape-hatch"]
    outcomes = {s["scenario"].rpartition("::")[2]: s["outcome"] for s in report["scenarios"]}
    assert outcomes == {"test_forgot": "failed", "test_unraised_plan_defects": "failed"}


def test_a_body_that_fails_keeps_its_own_failure_only(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PHASES)
    pytester.makepyfile(
        test_body=f"""
        def test_body_fails(converge):
            converge(r"{HATCH}").converged_defects()
            assert False, "the body's own failure"

        def test_asserts_plan_defects(converge):
            defects = converge(r"{HATCH}").converged_defects()
            assert [d.kind for d in defects] == ["escape-hatch"]
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1, errors=0)
    [failure] = _failures(pytester)
    assert failure["when"] == "call"
    assert "the body's own failure" in failure["text"]
    assert "never looked at" not in failure["text"]


def test_tests_that_assert_on_the_defects_they_expected_pass(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PHASES)
    pytester.makepyfile(
        test_expected=f"""
        import pytest
        from pytest_converge import ConvergenceError, LostResponse

        def test_a_lost_create_duplicates_the_vpc(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(LostResponse("CreateVpc"))
            assert report.defects[0].kind == "duplicate"

        def test_a_second_writer_flaps(converge):
            stack = converge(r"{MODULES / "loop_queue"}")
            loop = stack.loop()
            url = stack.outputs()["queue_url"]
            loop.writer("autoscaler", lambda cloud: cloud.client("sqs").set_queue_attributes(
                QueueUrl=url, Attributes={{"VisibilityTimeout": "120"}}
            ))
            report = loop.run(cycles=2)
            assert [f.attribute for f in report.flapping] == ["visibility_timeout_seconds"]

        def test_raised_inside_pytest_raises(converge):
            report = converge(r"{MODULES / "vpc_and_subnet"}").recover(
                LostResponse("CreateVpc"), replay=False
            )
            with pytest.raises(ConvergenceError, match="duplicate"):
                report.raise_for_defects()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--converge-report=r.json")
    result.assert_outcomes(passed=3)
    assert _failures(pytester) == []
    report = json.loads((pytester.path / "r.json").read_text())
    # Expected by the tests that passed: not reported as the module's defects.
    assert [d for d in report["defects"] if d["severity"] == "error"] == []


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
