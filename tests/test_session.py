"""Per-run state lives on the session object registered as a plugin, not in module globals.

The outer run here is a subprocess; one of its tests runs pytest again
*in-process* (``pytester.runpytest()``), as plugin authors and this project's
own tests do. The inner run must leave the outer run's defect gathering alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_an_in_process_run_inside_a_test_keeps_the_outer_sessions_defects(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest('pytest_plugins = ["pytester"]\n')
    pytester.makepyfile(
        test_outer=f"""
        def test_1_inner_run(pytester):
            pytester.makepyfile(test_inner="def test_ok():\\n    pass\\n")
            pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)

        def test_2_escape_hatch(converge):
            converge(r"{EXAMPLES / "escape_hatch"}").assert_converged()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-report", "report.json"
    )
    result.assert_outcomes(passed=1, failed=1)
    report = json.loads((pytester.path / "report.json").read_text())
    assert [d["kind"] for d in report["defects"]] == ["escape-hatch"]
    assert [s["outcome"] for s in report["scenarios"]] == ["failed"]
    result.stdout.fnmatch_lines(["*convergence defects*", "*escape-hatch*"])


def test_the_session_object_is_a_registered_plugin(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        def pytest_sessionstart(session):
            from pytest_converge.plugin.session import ConvergeSession, get_session

            config = session.config
            session = config.pluginmanager.get_plugin("converge-session")
            assert isinstance(session, ConvergeSession)
            assert session is get_session(config)
        """
    )
    pytester.makepyfile("def test_ok():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=1)


@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["serial", "xdist"])
def test_a_fidelity_behaviour_left_out_is_named_in_the_run_and_its_report(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, workers: list[str]
) -> None:
    """moto's function under a behaviour changed (the test's digest stands in for the
    one recorded): the server leaves the behaviour out, and the run says which and why."""
    from pytest_converge.emulator.fidelity import RECORDED_VARIABLE

    monkeypatch.setenv(RECORDED_VARIABLE, "moto.sqs.models:Queue.attributes=0000000000000000")
    pytester.makepyfile(
        test_fidelity="""
        def test_uses_the_emulator(converge_emulator):
            assert converge_emulator.client("sqs").list_queues()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *workers, "--converge-report", "report.json"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "*emulator fidelity*",
            "*left out 1 behaviour(s) of its fidelity layer*",
            "*sqs.redrive-policy-json: stale: moto.sqs.models:Queue.attributes changed",
        ]
    )
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["fidelity"] == {
        "sqs.redrive-policy-json": "stale: moto.sqs.models:Queue.attributes changed"
    }
