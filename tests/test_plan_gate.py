"""``pytest --converge-plan FILE`` as a pipeline runs it: items, outcomes, reports, errors.

The plans are real (``tests/data/plan_gate/``, its README says how each was
recorded); the binary plan files are made here by the terraform on the PATH
(``terraform_data`` needs no provider to install), as a pipeline makes its own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GATE = REPO / "tests" / "data" / "plan_gate"
MODULE = REPO / "tests" / "modules" / "plan_gate"
SARIF_SCHEMA = REPO.parents[1] / "shared" / "data" / "sarif-schema-2.1.0.json"
TERRAFORM = shutil.which("terraform")
needs_terraform = pytest.mark.skipif(
    TERRAFORM is None, reason="needs terraform on the PATH to make and show binary plan files"
)

#: A conftest that notes every emulator made, every socket bound or connected, and the
#: processes alive at the session's end: a plan gate must have none of them.
SPY = """
import json, os, socket
from pathlib import Path

import pytest

SEEN = {"emulators": [], "sockets": []}

def _spy(name, original):
    def spied(self, address, *args):
        SEEN["sockets"].append(f"{name} {address}")
        return original(self, address, *args)
    return spied

socket.socket.bind = _spy("bind", socket.socket.bind)
socket.socket.connect = _spy("connect", socket.socket.connect)

@pytest.hookimpl(tryfirst=True)
def pytest_converge_make_emulator(config, backend):
    SEEN["emulators"].append(backend)

@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    children = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            children += (task / "children").read_text().split()
        except FileNotFoundError:
            pass  # a thread that ended since the listing has no children
    SEEN["children"] = children
    Path("seen.json").write_text(json.dumps(SEEN))
"""


def _plans(pytester: pytest.Pytester, *names: str) -> None:
    for name in names:
        shutil.copy(GATE / f"{name}.json", pytester.path / f"{name}.json")


def test_each_plan_is_one_item_that_fails_unless_empty(pytester: pytest.Pytester) -> None:
    _plans(pytester, "console_fix", "empty_refresh_noise", "escape_hatch")
    plans = ["console_fix.json", "empty_refresh_noise.json", "escape_hatch.json"]
    args = [a for p in plans for a in ("--converge-plan", p)]
    listed = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, "--collect-only", "-q")
    assert [line for line in listed.outlines if "::" in line] == [f"{p}::plan-gate" for p in plans]

    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    result.assert_outcomes(failed=2, passed=1)
    out = result.stdout.str()
    assert (
        'module.queues["orders"].aws_sqs_queue.this was changed outside terraform: '
        "visibility_timeout_seconds 30 -> 120; this apply sets it back"
    ) in out
    assert "escape-hatch: terraform_data.deploy . triggers_replace" in out
    assert "console_fix.json is not an empty plan:" in out
    assert "reproduce  pytest --converge-plan console_fix.json" in out
    assert re.search(r"console_fix\.json +FAILED +- +1\n", out), out


@pytest.mark.parametrize("ini", ["", "converge_paths = modules"])
def test_a_gate_only_run_starts_no_emulator(pytester: pytest.Pytester, ini: str) -> None:
    """No emulator is made, no socket bound or connected, no process started: also when
    the ini file names modules for ``--converge`` (the emulator is launched for those at
    the session's start otherwise)."""
    _plans(pytester, "console_fix")
    shutil.copytree(REPO / "tests" / "modules" / "two_queues", pytester.path / "modules" / "q")
    pytester.makeini(f"[pytest]\n{ini}\n")
    pytester.makeconftest(SPY)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:xdist", "--converge-plan", "console_fix.json"
    )
    result.assert_outcomes(failed=1)
    assert "modules/q" not in result.stdout.str()  # the modules are not collected either
    seen = json.loads((pytester.path / "seen.json").read_text())
    assert seen == {"emulators": [], "sockets": [], "children": []}


def test_the_reports_carry_the_findings(pytester: pytest.Pytester) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from pytest_converge.report import load_schema

    _plans(pytester, "console_fix", "empty_refresh_noise")
    shutil.copytree(MODULE, pytester.path / "infra")
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--converge-plan",
        "console_fix.json",
        "--converge-plan",
        "empty_refresh_noise.json",
        "--converge-plan-source=infra",
        "--converge-report=out/r.json",
        "--converge-sarif=out/r.sarif",
        "--converge-html=out/r.html",
        "--junitxml=out/j.xml",
    )
    result.assert_outcomes(failed=1, passed=1)
    out = pytester.path / "out"

    report = json.loads((out / "r.json").read_text())
    jsonschema.validate(report, load_schema())
    assert report["modules"] == ["console_fix.json", "empty_refresh_noise.json"]
    assert [(s["module"], s["scenario"], s["outcome"]) for s in report["scenarios"]] == [
        ("console_fix.json", "plan-gate", "failed"),
        ("empty_refresh_noise.json", "plan-gate", "passed"),
    ]
    [reverted] = [d for d in report["defects"] if d["severity"] == "error"]
    assert (reverted["kind"], reverted["module"], reverted["scenario"]) == (
        "reverted-drift",
        "console_fix.json",
        "plan-gate",
    )
    assert reverted["file"].endswith("infra/queue/main.tf") and reverted["line"] == 9
    assert reverted["reproduce"] == (
        "pytest --converge-plan console_fix.json --converge-plan-source infra"
    )

    sarif = json.loads((out / "r.sarif").read_text())
    if SARIF_SCHEMA.exists():
        jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    [result_] = [r for r in sarif["runs"][0]["results"] if r["level"] == "error"]
    assert result_["ruleId"] == "reverted-drift"
    assert result_["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "infra/queue/main.tf", "uriBaseId": "SRCROOT"},
        "region": {"startLine": 9},
    }
    rules = [r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]]
    assert "reverted-drift" in rules

    tree = ET.parse(out / "j.xml")
    [case] = [c for c in tree.iter("testcase") if "console_fix" in (c.get("classname") or "")]
    props = [(p.get("name"), p.get("value")) for p in case.iter("property")]
    assert ("converge.kind", "reverted-drift") in props
    assert ("converge.scenario", "plan-gate") in props
    assert any(n == "converge.location" and v.endswith("queue/main.tf:9") for n, v in props)

    page = (out / "r.html").read_text()
    assert "plan-gate" in page and "reverted-drift" in page and "console_fix.json" in page


def test_bad_input_gets_one_clear_error(pytester: pytest.Pytester) -> None:
    missing = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-plan", "nope.json"
    )
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--converge-plan *nope.json: no such file*"])

    (pytester.path / "plans").mkdir()
    folder = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--converge-plan", "plans")
    assert folder.ret == pytest.ExitCode.USAGE_ERROR
    folder.stderr.fnmatch_lines(["*--converge-plan *plans: a directory; pass the plan file*"])

    (pytester.path / "plan.json").write_text(
        json.dumps({"format_version": "1.2", "resource_changes": []})
    )
    source = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-plan", "plan.json", "--converge-plan-source=nowhere"
    )
    assert source.ret == pytest.ExitCode.USAGE_ERROR
    source.stderr.fnmatch_lines(["*--converge-plan-source 'nowhere': no such directory*"])

    (pytester.path / "state.json").write_text(json.dumps({"format_version": "1.0", "values": {}}))
    (pytester.path / "future.json").write_text(
        json.dumps({"format_version": "2.0", "resource_changes": []})
    )
    (pytester.path / "plan.txt").write_text("Terraform will perform the following actions:\n")
    args = ["state.json", "future.json", "plan.txt"]
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *[a for p in args for a in ("--converge-plan", p)]
    )
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        [
            "*state.json is not a terraform plan: it is a state (`terraform show -json` with no"
            " plan file)*",
            "*future.json is a plan of format_version 2.0, which this pytest-converge does not"
            " read*",
            "*plan.txt is not JSON*",
        ],
        consecutive=False,
    )
    assert "Traceback" not in result.stdout.str()


def test_the_ini_key_adds_the_plans_to_a_plain_run(pytester: pytest.Pytester) -> None:
    (pytester.path / "ci").mkdir()
    shutil.copy(GATE / "empty_refresh_noise.json", pytester.path / "ci" / "plan.json")
    pytester.makeini("[pytest]\nconverge_plan = ci/plan.json\n")
    pytester.makepyfile(test_unit="def test_ok():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["*ci/plan.json::plan-gate PASSED*", "*test_unit.py::test_ok PASSED*"]
    )


# -- binary plan files --------------------------------------------------------------------------


def _pipeline(where: Path) -> Path:
    """A configuration applied as a pipeline applies it; its escape hatch makes the next
    plan non-empty."""
    where.mkdir()
    (where / "main.tf").write_text(
        'resource "terraform_data" "deploy" {\n  triggers_replace = timestamp()\n}\n'
    )
    for command in (["init", "-input=false"], ["apply", "-auto-approve", "-input=false"]):
        subprocess.run([TERRAFORM, *command], cwd=where, check=True, capture_output=True)  # type: ignore[list-item]
    return where


@needs_terraform
def test_a_binary_plan_is_shown_with_your_terraform(pytester: pytest.Pytester) -> None:
    infra = _pipeline(pytester.path / "infra")
    subprocess.run(
        [TERRAFORM, "plan", "-out", "tfplan", "-input=false"],  # type: ignore[list-item]
        cwd=infra,
        check=True,
        capture_output=True,
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-plan", "infra/tfplan"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*escape-hatch: terraform_data.deploy . triggers_replace",
            "*module     infra/tfplan (*infra/main.tf:1)",
        ],
        consecutive=False,
    )


@needs_terraform
def test_the_readme_pipeline_step(pytester: pytest.Pytester) -> None:
    """The three lines of CI YAML the README shows, run as a pipeline runs them."""
    readme = (REPO / "README.md").read_text()
    section = readme.split("\n## Gate your pipeline's own plan\n", 1)[1].split("\n## ", 1)[0]
    [yaml] = re.findall(r"```yaml\n(.*?)```", section, re.S)
    steps = [line.removeprefix("- run: ") for line in yaml.splitlines()]
    assert len(steps) == 3 and steps[-1] == "pytest --converge-plan plan.json"
    infra = _pipeline(pytester.path / "infra")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    }
    done = [
        subprocess.run(["bash", "-c", step], cwd=infra, env=env, capture_output=True, text=True)
        for step in steps
    ]
    assert [d.returncode for d in done] == [0, 0, 1], done[-1].stdout + done[-1].stderr
    out = done[-1].stdout
    assert "escape-hatch: terraform_data.deploy . triggers_replace" in out
    # The plan sits where it was made: the findings name the configuration's file and line.
    assert f"plan.json ({infra}/main.tf:1)" in out


def test_a_binary_plan_and_no_terraform_says_what_is_needed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    with zipfile.ZipFile(pytester.path / "tfplan", "w") as plan:
        plan.writestr("tfplan", "not a real plan")
    bare = pytester.path / "bin"
    bare.mkdir()
    os.symlink(sys.executable, bare / "python")
    monkeypatch.setenv("PATH", str(bare))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--converge-plan", "tfplan")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*tfplan is a binary plan file: only the terraform (or tofu) that made it can read it"
            " (`terraform show -json`), and none is on the PATH: put it there or name it with"
            " --converge-terraform PATH, or save the JSON in the pipeline: `terraform show -json"
            " tfplan > plan.json`*"
        ]
    )


@needs_terraform
def test_a_binary_plan_terraform_cannot_show_names_where_it_ran(pytester: pytest.Pytester) -> None:
    with zipfile.ZipFile(pytester.path / "tfplan", "w") as plan:
        plan.writestr("tfplan", "not a real plan")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--converge-plan", "tfplan")
    result.assert_outcomes(failed=1)
    out = " ".join(result.stdout.str().split())
    assert (
        f"tfplan is a binary plan file, and `terraform show -json tfplan` in {pytester.path}" in out
    )
    assert "after `terraform init` (name it with --converge-plan-source DIR)" in out
