"""``explain_plan``: a conftest's way to gate a plan file (the JSON; binary plan files are
shown with terraform in ``tests/test_plan_gate.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import pytest_converge
from pytest_converge import ModuleError, PlanFileError, explain_plan

GATE = Path(__file__).resolve().parents[1] / "data" / "plan_gate"
MODULE = Path(__file__).resolve().parents[1] / "modules" / "plan_gate"
QUEUE = 'module.queues["orders"].aws_sqs_queue.this'


def test_a_plan_file_or_its_json(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    shutil.copy(GATE / "console_fix.json", plan)
    [error] = [d for d in explain_plan(plan) if d.is_error]
    assert (error.kind, error.address, error.module) == ("reverted-drift", QUEUE, str(plan))
    assert error.file is None  # no configuration beside the plan
    data = json.loads(plan.read_text())
    [error] = [d for d in explain_plan(data, module="prod") if d.is_error]
    assert (error.kind, error.module, error.scenario) == ("reverted-drift", "prod", "plan-gate")
    assert explain_plan(GATE / "empty_refresh_noise.json") == []
    assert pytest_converge.explain_plan is explain_plan


def test_the_configuration_beside_the_plan_or_named(tmp_path: Path) -> None:
    infra = tmp_path / "infra"
    shutil.copytree(MODULE, infra)
    shutil.copy(GATE / "console_fix.json", infra / "plan.json")
    [error] = [d for d in explain_plan(infra / "plan.json") if d.is_error]
    assert error.file == str(infra / "queue" / "main.tf") and error.line == 9
    [error] = [d for d in explain_plan(GATE / "console_fix.json", source=infra) if d.is_error]
    assert error.file == str(infra / "queue" / "main.tf")
    with pytest.raises(ModuleError, match="is not a directory"):
        explain_plan(GATE / "console_fix.json", source=tmp_path / "nowhere")


def test_a_plan_saved_by_windows_powershell(tmp_path: Path) -> None:
    """``terraform show -json tfplan > plan.json`` in Windows PowerShell writes UTF-16."""
    plan = tmp_path / "plan.json"
    plan.write_text((GATE / "console_fix.json").read_text(), encoding="utf-16")
    assert plan.read_bytes()[:2] == b"\xff\xfe"
    assert [d.kind for d in explain_plan(plan) if d.is_error] == ["reverted-drift"]


def test_what_cannot_be_read_is_one_plan_file_error(tmp_path: Path) -> None:
    with pytest.raises(PlanFileError, match=r"nope\.json: no such file"):
        explain_plan(tmp_path / "nope.json", module="nope.json")
    with pytest.raises(PlanFileError, match="is a directory: give the plan file"):
        explain_plan(tmp_path)
    (tmp_path / "state.json").write_text(json.dumps({"format_version": "1.0", "values": {}}))
    with pytest.raises(PlanFileError, match="it is a state"):
        explain_plan(tmp_path / "state.json")
    assert issubclass(PlanFileError, ValueError)
