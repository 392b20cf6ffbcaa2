"""Gaps found before anyone catalogues them: from botocore's model and moto's source.

Each module here meets a gap of moto 5.2 that ``data/emulator_gaps.json`` does
not name. The finding is suspected from the chain attribute -> API member ->
"moto's backend never reads it" (or a refused value the API's model lists), and
is a warning unless ``--converge-strict``; a finding on a member moto reads stays
an error.
"""

from __future__ import annotations

import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from pytest_converge.analysis.gaps import load_catalogue
from pytest_converge.emulator import moto_facts as model_facts
from pytest_converge.emulator.moto_source import SourceIndex
from pytest_converge.errors import TerraformError

#: These tests inspect the defects they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)

MODULES = Path(__file__).resolve().parents[1] / "modules" / "model_gaps"
#: The installed moto, as the findings name it.
MOTO = version("moto")


def _uncatalogued(resource_type: str, attribute: str) -> None:
    """The gap is found without a catalogue entry (else this test proves nothing)."""
    named = {(g.resource_type, g.attribute) for g in load_catalogue()}
    assert (resource_type, attribute) not in named


def test_a_dropped_dead_letter_config_is_suspected_from_the_model(converge):
    _uncatalogued("aws_lambda_function", "dead_letter_config")
    stack = converge(MODULES / "lambda_dead_letters")
    stack.assert_converged()  # the only finding is a suspected gap: a warning
    [dropped] = stack.defects
    assert (dropped.attribute, dropped.classification) == ("dead_letter_config", "dropped")
    assert dropped.emulator_suspected and dropped.severity == "warning"
    assert dropped.evidence.startswith(
        "aws_lambda_function.dead_letter_config -> lambda CreateFunction/"
        f"UpdateFunctionConfiguration DeadLetterConfig -> moto {MOTO}'s lambda backend "
        "never reads it"
    ), dropped.evidence
    assert "moto/awslambda never mentions DeadLetterConfig" in dropped.evidence


def test_a_member_the_emulator_reads_is_not_excused(converge, monkeypatch, tmp_path):
    """The same run, with a fidelity module that reads DeadLetterConfig for moto's
    lambda backend: the member is carried, so the finding is the module's (an error)."""
    extra = tmp_path / "fidelity"
    extra.mkdir()
    (extra / "dead_letters.py").write_text(
        "from moto.awslambda.models import LambdaFunction\n\n"
        "def dead_letter_config(spec):\n    return spec.get('DeadLetterConfig')\n"
    )
    monkeypatch.setattr(model_facts, "source_index", lambda: SourceIndex(extra=[extra]))
    stack = converge(MODULES / "lambda_dead_letters")
    [found] = stack.converged_defects()
    assert (found.attribute, found.classification) == ("dead_letter_config", "dropped")
    assert not found.emulator_suspected and found.severity == "error"


def test_zero_code_shows_the_evidence_and_strict_keeps_it_an_error(pytester):
    for name in ("lambda_dead_letters", "worker_code"):  # a root and the module it calls
        shutil.copytree(MODULES / name, pytester.path / "mods" / name)
    args = ["--converge", "mods", "--converge-faults=none", "-p", "no:cacheprovider"]
    strict = pytester.runpytest_subprocess(*args, "--converge-strict")
    strict.assert_outcomes(failed=1)
    out = strict.stdout.str()
    assert "permanent-diff (dropped) [suspected emulator gap]" in out
    assert "suspected emulator gaps (1 of the defects above, probably not the module's):" in out
    assert (
        "aws_lambda_function.worker . dead_letter_config: aws_lambda_function.dead_letter_config"
        " -> lambda CreateFunction/UpdateFunctionConfiguration DeadLetterConfig -> "
        f"moto {MOTO}'s"
        " lambda backend never reads it"
    ) in out


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_a_dropped_logging_config_on_aws_5_is_suspected(converge, provider_line):
    _uncatalogued("aws_lambda_function", "logging_config")
    stack = converge(provider_line.pin(MODULES / "lambda_logging"))
    stack.assert_converged()  # the only finding is a suspected gap: a warning
    [found] = stack.defects
    assert (found.address, found.attribute) == ("aws_lambda_function.worker", "logging_config")
    assert found.emulator_suspected and found.severity == "warning"
    assert found.evidence.startswith(
        "aws_lambda_function.logging_config -> lambda CreateFunction/"
        f"UpdateFunctionConfiguration LoggingConfig -> moto {MOTO}'s lambda backend never "
        "reads it"
    ), found.evidence
    assert "CreateFunctionRequest.LoggingConfig" in found.evidence


def test_a_value_moto_refuses_and_the_api_lists_is_named_in_the_error(converge):
    stack = converge(MODULES / "change_calendar")
    with pytest.raises(TerraformError) as raised:
        stack.apply().raise_for_error()
    first = raised.value.diagnostics[0].text
    assert first.startswith(
        f"suspected emulator gap: moto {MOTO} answered ValidationException to "
        "ssm:CreateDocument with DocumentFormat=TEXT: botocore's ssm model lists 'TEXT' "
        f"for CreateDocument.DocumentFormat and moto {MOTO}'s ssm backend never mentions "
        "that value"
    ), first
    assert "Invalid document format TEXT" in first
