"""The JSON, SARIF and JUnit outputs of a real failing run validate."""

from __future__ import annotations

import json
import os
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


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    import subprocess
    import sys

    where = tmp_path_factory.mktemp("reports")
    (where / "test_escape.py").write_text(
        "def test_escape(converge):\n"
        f"    stack = converge(r'{EXAMPLES / 'escape_hatch'}')\n"
        "    stack.apply().raise_for_error()\n"
        "    stack.assert_converged()\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "test_escape.py",
            "--converge-report",
            "out/converge.json",
            "--converge-sarif",
            "out/converge.sarif",
            "--junitxml",
            "out/junit.xml",
        ],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
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
    assert defect["attribute"] == "triggers_replace"
    assert data["scenarios"][0]["outcome"] == "failed"


def test_sarif_validates_against_the_oasis_schema(run):
    if not SARIF_SCHEMA.exists():
        pytest.skip(f"SARIF 2.1.0 schema not found at {SARIF_SCHEMA} (../shared/data)")
    data = json.loads((run["dir"] / "converge.sarif").read_text())
    jsonschema.validate(data, json.loads(SARIF_SCHEMA.read_text()))
    [result] = data["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith("escape_hatch/main.tf")
    assert location["region"]["startLine"] == 3


def test_junit_carries_the_defect_as_properties(run):
    tree = ET.parse(run["dir"] / "junit.xml")
    names = {p.get("name") for p in tree.iter("property")}
    assert any(n.startswith("converge.") for n in names), names
