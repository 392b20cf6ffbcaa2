"""Flaky detection on a module whose outcome really varies between runs.

``tests/modules/flaky_deploy`` reads a file that a provisioner appends to, so
its deploy trigger is unstable on odd runs only: the first run of a fault
scenario finds an escape hatch, the replay of the same scenario does not.
Real terraform and moto; the scenario is reported ``flaky``, not hidden.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parent / "modules" / "flaky_deploy"


def test_a_scenario_whose_replay_differs_is_reported_flaky(pytester: pytest.Pytester) -> None:
    shutil.copytree(MODULE, pytester.path / "mods" / "flaky_deploy")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=lost-response",
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "-k",
        "CreateQueue",
    )
    result.assert_outcomes(failed=1, deselected=1)  # the two-run item
    result.stdout.fnmatch_lines(
        [
            "*mods/flaky_deploy under lost-response@CreateQueue#1@aws_sqs_queue.jobs is FLAKY: "
            "a replay gave no defects instead of escape-hatch terraform_data.deploy*",
            "*flaky convergence scenarios*",
            "mods/flaky_deploy lost-response@CreateQueue#1@aws_sqs_queue.jobs: a replay gave "
            "a different outcome",
        ]
    )
    report = json.loads((pytester.path / "report.json").read_text())
    [scenario] = report["scenarios"]
    assert scenario["module"] == "mods/flaky_deploy"
    assert scenario["scenario"] == "lost-response@CreateQueue#1@aws_sqs_queue.jobs"
    assert scenario["outcome"] == "flaky"
    assert [d["kind"] for d in report["defects"]] == ["escape-hatch"]


def test_the_fixture_reports_a_flaky_scenario_too(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_flaky=f"""
        from pytest_converge import LostResponse

        def test_deploy(converge):
            report = converge(r"{MODULE}").recover(LostResponse("CreateQueue"))
            assert report.flaky
            report.raise_for_defects()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-report=report.json"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*is FLAKY*", "*flaky convergence scenarios*"])
    [scenario] = json.loads((pytester.path / "report.json").read_text())["scenarios"]
    assert scenario["scenario"] == "test_flaky.py::test_deploy"
    assert scenario["outcome"] == "flaky"
