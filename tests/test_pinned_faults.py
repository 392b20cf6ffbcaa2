"""Faults pinned to resources: every scenario hits the resource it names, in every run.

``tests/modules/four_queues`` has four independent queues, two with
``name_prefix`` and two with a fixed ``name``. Terraform creates them in any
order, so an unpinned ``crash@CreateQueue#2`` hits whichever queue came
second. Pinned, each scenario hits its own queue: the crash after a
``name_prefix`` queue's CreateQueue leaves a second queue (the re-run picks
another name), after a fixed-name one's it leaves nothing. Real terraform, moto.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parent / "modules" / "four_queues"
QUEUES = [f"aws_sqs_queue.{name}" for name in ("alpha", "bravo", "charlie", "delta")]
PREFIXED = {"aws_sqs_queue.alpha", "aws_sqs_queue.charlie"}


def test_the_crash_matrix_hits_every_queue_and_finds_the_name_prefix_leftovers(
    pytester: pytest.Pytester,
) -> None:
    shutil.copytree(MODULE, pytester.path / "mods" / "four_queues")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=crash",
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "-k",
        "CreateQueue",
    )
    result.assert_outcomes(failed=2, passed=2, deselected=1)  # the two-run item
    report = json.loads((pytester.path / "report.json").read_text())
    scenarios = {s["scenario"]: s for s in report["scenarios"]}
    # One scenario per queue, named after it, and the fault hit that queue.
    assert sorted(scenarios) == [f"crash@CreateQueue#1@{q}" for q in QUEUES]
    assert {s["fault_address"] for s in scenarios.values()} == set(QUEUES)
    for queue in QUEUES:
        scenario = scenarios[f"crash@CreateQueue#1@{queue}"]
        assert scenario["fault_address"] == queue
        assert scenario["outcome"] == ("failed" if queue in PREFIXED else "passed")
    leftovers = {
        (d["scenario"], d["address"])
        for d in report["defects"]
        if d["kind"] in ("duplicate", "orphan")
    }
    assert leftovers == {(f"crash@CreateQueue#1@{q}", q) for q in PREFIXED}
    result.stdout.fnmatch_lines(
        [
            "*reproduce*pytest --converge mods --converge-faults crash "
            '"mods/four_queues::crash@CreateQueue#1@aws_sqs_queue.alpha"*'
        ]
    )


def test_the_fixture_pins_a_fault_and_reports_its_resource(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_pinned=f"""
        import pytest
        from pytest_converge import ConvergenceError, Crash

        def test_points_and_a_pinned_crash(converge):
            stack = converge(r"{MODULE}")
            points = stack.fault_points()
            assert sorted(points) == [
                "CreateQueue#1@aws_sqs_queue.alpha",
                "CreateQueue#1@aws_sqs_queue.bravo",
                "CreateQueue#1@aws_sqs_queue.charlie",
                "CreateQueue#1@aws_sqs_queue.delta",
            ], points
            report = stack.recover(Crash("CreateQueue", address="aws_sqs_queue.charlie"))
            assert report.hit == "aws_sqs_queue.charlie"
            [faulted] = [c for c in report.first.calls if c.fault]
            assert faulted.address == "aws_sqs_queue.charlie"
            assert [d.address for d in report.errors] == ["aws_sqs_queue.charlie"]
            with pytest.raises(ConvergenceError, match="it hit aws_sqs_queue.charlie"):
                report.raise_for_defects()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
