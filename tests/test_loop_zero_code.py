"""Zero-code drift items and the loop's JSON report, run as a user runs them (subprocesses)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
QUEUE = REPO / "tests" / "modules" / "loop_queue"


def _copy(pytester: pytest.Pytester, *modules: Path) -> list[str]:
    """The modules copied beside the test run (outside this repo's conftest and ini)."""
    import shutil

    names = []
    for module in modules:
        shutil.copytree(module, pytester.path / module.name, ignore=shutil.ignore_patterns("*.py"))
        names.append(module.name)
    return names


def _report(pytester: pytest.Pytester, name: str = "report.json") -> dict:
    from pytest_converge.report import load_schema

    data = json.loads((pytester.path / name).read_text())
    jsonschema.validate(data, load_schema())
    return data


def test_bad_drift_and_alert_values_are_usage_errors(pytester: pytest.Pytester):
    result = pytester.runpytest("--converge-drift=delete,rename")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--converge-drift: unknown drift kind 'rename'*delete, modify*"])
    result = pytester.runpytest("--converge-loop-alert=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--converge-loop-alert '0': expected a whole number*"])


def test_drift_items_per_resource_pass_and_tell_the_lifetime(pytester: pytest.Pytester):
    [queue] = _copy(pytester, QUEUE)
    result = pytester.runpytest_subprocess(
        "--converge",
        queue,
        "--converge-faults=none",
        "--converge-drift=delete,modify",
        "-p",
        "no:cacheprovider",
        "-rA",
        "--converge-report",
        "report.json",
    )
    result.assert_outcomes(passed=3)
    out = result.stdout.str()
    for name in ("two-run", "drift-delete@aws_sqs_queue.work", "drift-modify@aws_sqs_queue.work"):
        assert f"PASSED {queue}::{name}" in out
    result.stdout.re_match_lines(
        [
            r"drift aws_sqs_queue.work \(deleted\) by console \(deleted\): detected in cycle 1, "
            r"reverted in cycle 1; lifetime 1 cycle\(s\), [0-9.]+ s",
            r"cycle 1: .* loop calls \d+ read\(s\) 1 write\(s\) \[CreateQueue\]; changed "
            r"aws_sqs_queue.work; out of band: DeleteQueue by console",
            r"drift aws_sqs_queue.work . tags.converge-drift by console .*: detected in cycle 1, "
            r"reverted in cycle 1; .*",
        ]
    )
    data = _report(pytester)
    loops = {entry["test"].rpartition("::")[2]: entry for entry in data["loops"]}
    assert set(loops) == {"drift-delete@aws_sqs_queue.work", "drift-modify@aws_sqs_queue.work"}
    delete = loops["drift-delete@aws_sqs_queue.work"]
    [event] = delete["drift"]
    assert event["by"] == "console" and event["reverted_cycle"] == 1
    assert event["lifetime_seconds"] > 0
    assert [c["writes"] for c in delete["cycles"]] == [1, 0]
    assert delete["cycles"][1]["converged"] and delete["reads_per_resource_per_cycle"] > 0


@pytest.mark.slow
def test_drift_delete_matrix(pytester: pytest.Pytester):
    """A deleted VPC, bucket, role, queue and parameter are recreated; the one secret is
    never noticed. (Of examples/network three services' objects: every other type of it
    costs a scenario, ~15 CPU s, and shows the same.)"""
    network_dir, unnoticed_dir = _copy(pytester, EXAMPLES / "network", EXAMPLES / "unnoticed_drift")
    network = ["aws_iam_role.worker", "aws_s3_bucket.artifacts", "aws_vpc.main"]
    result = pytester.runpytest_subprocess(
        "--converge",
        network_dir,
        "--converge",
        unnoticed_dir,
        "--converge-faults=none",
        "--converge-drift=delete",
        "-k",
        "two-run or unnoticed_drift or " + " or ".join(a.replace(".", " and ") for a in network),
        "-p",
        "no:cacheprovider",
        "-n",
        "2",
        "--converge-report",
        "report.json",
        timeout=1800,
    )
    data = _report(pytester)
    outcomes = {s["scenario"]: s["outcome"] for s in data["scenarios"]}
    assert not any("aws_subnet" in s for s in outcomes), "-k left them in"
    unnoticed = "aws_secretsmanager_secret.api_key"
    others = ["aws_sqs_queue.events", "aws_ssm_parameter.endpoint"]
    assert {f"drift-delete@{a}" for a in [*network, unnoticed, *others]} <= set(outcomes)
    failed = sorted(s for s, outcome in outcomes.items() if outcome != "passed")
    assert failed == [f"drift-delete@{unnoticed}"], result.stdout.str()
    errors = [d for d in data["defects"] if d["severity"] == "error"]
    assert [(d["kind"], d["address"]) for d in errors] == [("unnoticed-drift", unnoticed)]
    loops = {entry["test"].rpartition("::")[2]: entry for entry in data["loops"]}
    for address in network + others:
        events = {e["address"]: e for e in loops[f"drift-delete@{address}"]["drift"]}
        event = events[address]
        assert event["change"] == "delete" and event["by"] == "console"
        assert (event["detected_cycle"], event["reverted_cycle"]) == (1, 1)
        assert event["lifetime_cycles"] == 1 and event["lifetime_seconds"] > 0
    assert result.ret == 1


def test_loop_alert_from_ini_and_the_loops_section_of_a_fixture_test(pytester: pytest.Pytester):
    [module] = _copy(pytester, EXAMPLES / "permanent_diffs")
    pytester.makeini("[pytest]\nconverge_loop_alert = 2\n")
    pytester.makepyfile(
        test_loop=f"""
        def test_loop(converge):
            stack = converge({module!r})
            report = stack.loop().run(cycles=2)
            report.raise_for_defects()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "test_loop.py", "--converge-report", "report.json"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*not-converging*", "*2 consecutive cycles (1-2)*"])
    data = _report(pytester)
    [loop] = data["loops"]
    assert loop["test"] == "test_loop.py::test_loop" and loop["alert"] == 2
    assert [c["number"] for c in loop["cycles"]] == [1, 2]
    assert all(c["writes"] > 0 and not c["converged"] for c in loop["cycles"])
    assert loop["defects"] == ["not-converging"]
    assert "not-converging" in {d["kind"] for d in data["defects"]}
