"""Every ``pytest_converge_*`` hook, used the way users use it: a conftest.py in a real run.

Each implementation checks it got the run's ``config`` and records that it
was called; each changes the outcome in a way the tests then see.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = """
import json
from pathlib import Path

import pytest

from pytest_converge import CloudObject

CALLS = {}


def _called(config, hook):
    assert isinstance(config, pytest.Config), hook
    CALLS[hook] = CALLS.get(hook, 0) + 1
    Path(str(config.rootpath), "calls.json").write_text(json.dumps(CALLS))


@pytest.hookimpl(tryfirst=True)
def pytest_converge_make_emulator(config, backend):
    _called(config, "make_emulator")
    assert backend == "mine"
    from pytest_converge.emulator.moto import MotoEmulator

    return MotoEmulator()


def pytest_converge_inventory(config, emulator):
    _called(config, "inventory")
    # Listed after each scenario's apply only (every second call): an orphan.
    if CALLS["inventory"] % 2 == 0:
        return [CloudObject("aws_custom_thing", "thing-1")]
    return []


@pytest.hookimpl(tryfirst=True)
def pytest_converge_classify_diff(config, address, attribute, declared, observed):
    _called(config, "classify_diff")
    return "case"


def pytest_converge_defects(config, stack, defects):
    _called(config, "defects")
    # This project accepts its escape hatch.
    defects[:] = [d for d in defects if d.address != "terraform_data.deploy"]


def pytest_converge_report(config, report):
    _called(config, "report")
    report["ci"] = {"pipeline": "hooks-test", "modules": len(report["modules"])}
"""

TESTS = f"""
import pytest
from pytest_converge import ConvergenceError, LostResponse


def test_accepted_escape_hatch_passes(converge):
    converge(r"{ROOT / "examples" / "escape_hatch"}").assert_converged()


def test_own_classification(converge):
    with pytest.raises(ConvergenceError) as failure:
        converge(r"{ROOT / "examples" / "permanent_diffs"}").assert_converged()
    diffs = [d for d in failure.value.defects if d.kind == "permanent-diff"]
    assert diffs and {{d.classification for d in diffs}} == {{"case"}}


def test_own_lister_finds_an_orphan(converge):
    stack = converge(r"{ROOT / "tests" / "modules" / "two_queues"}")
    report = stack.recover(LostResponse("CreateQueue"), replay=False)
    [orphan] = report.errors
    assert orphan.kind == "orphan" and "thing-1" in orphan.objects
    with pytest.raises(ConvergenceError, match="thing-1"):
        report.raise_for_defects()
"""


def test_each_hook_from_a_conftest(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_hooks=TESTS)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-backend=mine", "--converge-report=report.json"
    )
    result.assert_outcomes(passed=3)
    calls = json.loads((pytester.path / "calls.json").read_text())
    assert calls["make_emulator"] == 1  # once per session
    assert calls["inventory"] == 2  # before and after the one scenario
    assert calls["classify_diff"] >= 1
    assert calls["defects"] >= 3
    assert calls["report"] == 1
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["ci"]["pipeline"] == "hooks-test"
