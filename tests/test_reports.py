"""The JSON, SARIF and JUnit outputs of a real failing run validate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SARIF_SCHEMA = Path(
    os.environ.get(
        "CONVERGE_SARIF_SCHEMA",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "sarif-schema-2.1.0.json",
    )
)


def run_pytest(where: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in ``where``, as a user's shell runs it."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    where = tmp_path_factory.mktemp("reports")
    module = where / "modules" / "escape_hatch"
    module.mkdir(parents=True)
    (module / "main.tf").write_text((EXAMPLES / "escape_hatch" / "main.tf").read_text())
    (where / "test_escape.py").write_text(
        "def test_escape(converge):\n"
        "    stack = converge('modules/escape_hatch')\n"
        "    stack.apply().raise_for_error()\n"
        "    stack.assert_converged()\n"
    )
    proc = run_pytest(
        where,
        "test_escape.py",
        "--converge-report",
        "out/converge.json",
        "--converge-sarif",
        "out/converge.sarif",
        "--junitxml",
        "out/junit.xml",
    )
    return {"dir": where / "out", "proc": proc}


def test_run_failed_with_the_defect(run):
    assert run["proc"].returncode == 1, run["proc"].stdout
    assert "convergence defects" in run["proc"].stdout
    assert "converge report written to out/converge.json" in run["proc"].stdout


def test_json_report_validates_against_our_schema(run):
    from pytest_converge.report import load_schema

    data = json.loads((run["dir"] / "converge.json").read_text())
    jsonschema.validate(data, load_schema())
    assert data["version"] == 1
    [defect] = data["defects"]
    assert defect["kind"] == "escape-hatch"
    assert defect["severity"] == "error"
    assert defect["module"] == "modules/escape_hatch"
    assert defect["address"] == "terraform_data.deploy"
    assert defect["attribute"] == "triggers_replace"
    assert defect["declared"] == "(known after apply) from timestamp()"
    assert defect["fix"] and defect["why"]
    assert defect["reproduce"] == 'pytest "test_escape.py::test_escape"'
    assert data["modules"] == ["modules/escape_hatch"]
    [scenario] = data["scenarios"]
    assert scenario["module"] == "modules/escape_hatch"
    assert scenario["scenario"] == "test_escape.py::test_escape"
    assert scenario["outcome"] == "failed"
    assert scenario["seconds"] > 0
    # The engine the module ran with (terraform_data needs no provider to install).
    toolchain = data["toolchains"]["modules/escape_hatch"]
    assert toolchain["engine"]["flavor"] in ("terraform", "tofu", "bundled")
    assert toolchain["engine"]["version"][0].isdigit() and toolchain["providers"] == {}
    engine = f"{toolchain['engine']['flavor']} {toolchain['engine']['version']}"
    backend = toolchain["backend"]
    assert backend["name"] == "moto" and backend["version"][0].isdigit()
    on = f"on moto {backend['version']}"
    assert f"modules/escape_hatch does not converge [{engine}, {on}]:" in run["proc"].stdout


def test_sarif_validates_against_the_oasis_schema(run):
    if not SARIF_SCHEMA.exists():
        pytest.skip(f"SARIF 2.1.0 schema not found at {SARIF_SCHEMA} (../shared/data)")
    data = json.loads((run["dir"] / "converge.sarif").read_text())
    jsonschema.validate(data, json.loads(SARIF_SCHEMA.read_text()))
    [result] = data["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "modules/escape_hatch/main.tf",
        "uriBaseId": "SRCROOT",
    }
    assert location["region"]["startLine"] == 3
    assert result["ruleId"] == "escape-hatch" and result["level"] == "error"
    assert result["properties"]["module"] == "modules/escape_hatch"
    engine = result["properties"]["toolchain"]["engine"]
    assert engine == data["runs"][0]["properties"]["toolchains"]["modules/escape_hatch"]["engine"]


def test_junit_carries_the_defect_as_properties(run):
    tree = ET.parse(run["dir"] / "junit.xml")
    [case] = [c for c in tree.iter("testcase") if c.get("name") == "test_escape"]
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["converge.kind"] == "escape-hatch"
    assert props["converge.severity"] == "error"
    assert props["converge.module"] == "modules/escape_hatch"
    assert props["converge.address"] == "terraform_data.deploy"
    assert props["converge.attribute"] == "triggers_replace"
    assert props["converge.reproduce"] == 'pytest "test_escape.py::test_escape"'
    assert props["converge.location"].endswith("modules/escape_hatch/main.tf:3")
    # The machine-readable twin, as the JSON report has it.
    [carried] = json.loads(props["converge_defects"])
    assert carried["kind"] == "escape-hatch" and carried["module"] == "modules/escape_hatch"


@pytest.fixture(scope="module")
def crashes(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """examples/network under ``--converge-faults=crash -n 2``: recovery-failed runs with the
    objects they left, a duplicate, and findings of one cause from several scenarios."""

    where = tmp_path_factory.mktemp("crashes")
    module = where / "modules" / "network"
    module.mkdir(parents=True)
    (module / "main.tf").write_text((EXAMPLES / "network" / "main.tf").read_text())
    proc = run_pytest(
        where,
        "--converge",
        "modules",
        "--converge-faults=crash",
        "-n",
        "2",
        "--converge-report",
        "out/converge.json",
        "--converge-html",
        "out/converge.html",
        "--junitxml",
        "out/junit.xml",
    )
    data = json.loads((where / "out" / "converge.json").read_text())
    return {"dir": where / "out", "proc": proc, "data": data}


def test_the_terminal_html_junit_and_json_count_the_same_defects(crashes):
    from html import escape

    from pytest_converge.report import load_schema

    data, stdout = crashes["data"], crashes["proc"].stdout
    assert crashes["proc"].returncode == 1, stdout[-3000:]
    jsonschema.validate(data, load_schema())
    counts = data["counts"]
    # One defect per cause across scenarios, worked out here from the findings alone.
    causes = {
        (d["kind"], d["module"], d["address"], d["attribute"], d["classification"])
        for d in data["defects"]
        if d["severity"] != "info"
    }
    assert counts["defects"] == len(causes) == counts["errors"] + counts["warnings"]
    assert counts["findings"] > counts["defects"]  # the security group's, from 4 scenarios
    assert counts["words"].startswith(f"{counts['defects']} defects from ")
    # The terminal summary, the HTML header and JUnit's suite say it in the same words.
    assert f"1 module, {counts['words']}" in stdout.splitlines()
    page = (crashes["dir"] / "converge.html").read_text()
    assert f"data-defects='{counts['defects']}'>{escape(counts['words'])}</div>" in page
    tree = ET.parse(crashes["dir"] / "junit.xml")
    suite = {
        p.get("name"): p.get("value")
        for p in next(tree.iter("testsuite")).findall("properties/property")
    }
    assert suite["converge.defects"] == str(counts["defects"])
    assert suite["converge.summary"] == counts["words"]
    cases = {
        p.get("value")
        for case in tree.iter("testcase")
        for p in case.iter("property")
        if p.get("name") == "converge.cause"
    }
    assert cases == {d["cause"] for d in data["defects"]} and len(cases) == counts["defects"]


def test_a_crash_and_the_object_it_left_are_one_finding_named_by_the_resource_hit(crashes):
    data, stdout = crashes["data"], crashes["proc"].stdout
    assert [d for d in data["defects"] if d["kind"] == "orphan" and not d["address"]] == []
    hit = "crash@CreateSecurityGroup#1@aws_security_group.app"
    [failed] = [d for d in data["defects"] if d["scenario"] == hit]
    assert failed["kind"] == "recovery-failed" and failed["address"] == "aws_security_group.app"
    group = failed["objects"][0]
    assert group.startswith("sg-")
    assert f"`terraform import aws_security_group.app {group}`" in failed["fix"]
    assert (
        f"`aws ec2 delete-security-group --group-id {group} --region us-east-1`" in (failed["fix"])
    )
    for text in ("(no address)", "<address>", "<id>", "   declared   null"):
        assert text not in stdout, text
