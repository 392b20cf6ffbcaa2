"""The same module, the same checks, on LocalStack: two-run and a lost-response duplicate.

The emulators are compared on an SQS redrive policy that moto as released
(``raw_moto``: the fidelity layer off) answers re-spaced, a permanent diff,
and LocalStack, like AWS and the embedded moto, answers compact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge import LostResponse
from pytest_converge.emulator.fidelity import OFF_VARIABLE
from pytest_converge.emulator.localstack import VENV_ENV, default_venv_python

#: Found before any test moves HOME (pytester does).
LOCALSTACK_VENV = default_venv_python().parent.parent

pytestmark = pytest.mark.localstack
MODULES = Path(__file__).resolve().parents[1] / "modules"


def test_two_run_passes_on_localstack(stack_on):
    stack = stack_on(MODULES / "vpc_and_subnet")
    stack.apply().raise_for_error()
    stack.assert_converged()


def test_the_same_module_passes_on_moto(converge):
    # The twin of the test above, on the default backend (the lost-response
    # duplicate on moto is in test_recovery.py, on the same module).
    stack = converge(MODULES / "vpc_and_subnet")
    stack.apply().raise_for_error()
    stack.assert_converged()


def test_lost_response_duplicate_found_on_localstack(stack_on):
    stack = stack_on(MODULES / "vpc_and_subnet")
    report = stack.recover(LostResponse("CreateVpc"))
    assert [d.kind for d in report.errors] == ["duplicate"]
    assert report.errors[0].address == "aws_vpc.main"


def test_emulator_difference_is_a_finding(stack_on, raw_moto, tmp_path):
    """moto as released answers an SQS redrive policy re-spaced (a permanent diff);
    LocalStack answers it compact. The module is the same: the emulators differ."""
    module = tmp_path / "redrive"
    module.mkdir()
    (module / "main.tf").write_text(
        'provider "aws" {\n  region = "us-east-1"\n}\n'
        'resource "aws_sqs_queue" "dlq" {\n  name = "diff-dlq"\n}\n'
        'resource "aws_sqs_queue" "work" {\n  name = "diff-work"\n'
        "  redrive_policy = jsonencode({\n"
        "    deadLetterTargetArn = aws_sqs_queue.dlq.arn\n"
        "    maxReceiveCount     = 5\n  })\n}\n"
    )
    stack = stack_on(module)
    [diff] = stack.compare_with(raw_moto)
    assert diff.kind == "emulator-difference"
    assert diff.address == "aws_sqs_queue.work" and diff.attribute == "redrive_policy"
    assert "permanent-diff on moto" in diff.message
    assert "converges on localstack" in diff.message
    assert "1 to update" in diff.message  # moto's second plan, shown


REDRIVE = (
    'provider "aws" {\n  region = "us-east-1"\n}\n'
    'resource "aws_sqs_queue" "dlq" {\n  name = "confirm-dlq"\n}\n'
    'resource "aws_sqs_queue" "work" {\n  name = "confirm-work"\n'
    "  redrive_policy = jsonencode({\n"
    "    deadLetterTargetArn = aws_sqs_queue.dlq.arn\n"
    "    maxReceiveCount     = 5\n  })\n}\n"
)
#: A queue that changes on every plan wherever it runs (the module's own defect).
STAMPED = (
    'resource "aws_sqs_queue" "stamped" {\n  name = "confirm-stamped"\n'
    "  tags = {\n    deployed = timestamp()\n  }\n}\n"
)


def test_compare_with_marks_the_difference_a_suspected_emulator_gap(stack_on, raw_moto, tmp_path):
    module = tmp_path / "redrive"
    module.mkdir()
    (module / "main.tf").write_text(REDRIVE)
    [diff] = stack_on(module).compare_with(raw_moto)
    assert diff.emulator_suspected
    assert diff.evidence.startswith("only moto shows it; on localstack")


def test_confirm_with_marks_what_only_one_backend_shows(stack_on, raw_moto, localstack, tmp_path):
    module = tmp_path / "redrive"
    module.mkdir()
    (module / "main.tf").write_text(REDRIVE + STAMPED)
    stack = stack_on(module, raw_moto)
    with pytest.raises(Exception):  # noqa: B017 - the ConvergenceError on moto
        stack.assert_converged()
    diffs = {d.address: d for d in stack.defects if d.kind == "permanent-diff"}
    diff, stamped = diffs["aws_sqs_queue.work"], diffs["aws_sqs_queue.stamped"]
    assert diff.severity == "error" and not diff.emulator_suspected
    localstack.reset()
    assert stack.confirm_with(localstack) == [diff]
    assert diff.emulator_suspected and diff.severity == "warning"
    assert "localstack does not show this finding" in diff.evidence
    assert "1 to update" in diff.evidence  # LocalStack's second plan: the stamped queue
    assert diff.confirmed_by is None
    # Both show the timestamp's change: it stays an error, confirmed on LocalStack.
    assert stamped.severity == "error" and not stamped.emulator_suspected
    assert stamped.confirmed_by is not None and stamped.confirmed_by["emulator"] == "localstack"
    assert stamped.confirmed_on.startswith("localstack")


def test_zero_code_confirm_with_localstack(pytester, localstack, monkeypatch):
    # pytester points HOME elsewhere: tell the inner run where LocalStack is.
    monkeypatch.setenv(VENV_ENV, str(LOCALSTACK_VENV))
    monkeypatch.setenv(OFF_VARIABLE, "sqs.redrive-policy-json")  # moto as released, there
    module = pytester.path / "mods" / "redrive"
    module.mkdir(parents=True)
    (module / "main.tf").write_text(REDRIVE + STAMPED)
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "--converge-confirm-with=localstack",
        "-p",
        "no:cacheprovider",
        "--converge-report",
        "report.json",
    )
    result.assert_outcomes(failed=1)  # the stamped queue, on both
    out = result.stdout.str()
    assert "suspected emulator gaps (1" in out
    import json

    report = json.loads((pytester.path / "report.json").read_text())
    diffs = {d["address"]: d for d in report["defects"] if d["kind"] == "permanent-diff"}
    diff, stamped = diffs["aws_sqs_queue.work"], diffs["aws_sqs_queue.stamped"]
    assert diff["emulator_suspected"] and "localstack does not show" in diff["evidence"]
    assert diff["severity"] == "warning" and diff["confirmed_by"] is None
    assert stamped["severity"] == "error" and not stamped["emulator_suspected"]
    assert stamped["confirmed_by"]["emulator"] == "localstack"
    assert stamped["confirmed_by"]["version"]  # LocalStack's, as it says it
    mark = f"[confirmed on localstack {stamped['confirmed_by']['version']}]"
    assert [ln for ln in out.splitlines() if mark in ln and "aws_sqs_queue.stamped" in ln]
