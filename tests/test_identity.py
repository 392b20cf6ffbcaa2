"""A module is named by its path from the rootdir in every report, so same-named roots stay apart.

Public module trees hold several ``examples/complete`` roots; environments
repeat ``envs/<env>/network``. Real terraform runs here, on ``terraform_data``
modules (no AWS calls) that never converge, so every report has findings.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_converge.plugin.session import module_id

HATCH = 'resource "terraform_data" "deploy" {\n  triggers_replace = timestamp()\n}\n'
SAME_BASE = ("mods/sqs/examples/complete", "mods/s3-bucket/examples/complete")


def _tree(pytester: pytest.Pytester, dirs: tuple[str, ...]) -> None:
    for d in dirs:
        (pytester.path / d).mkdir(parents=True)
        (pytester.path / d / "main.tf").write_text(HATCH)


def _check_reports(pytester: pytest.Pytester, stdout: str, names: tuple[str, ...]) -> None:
    report = json.loads((pytester.path / "report.json").read_text())
    assert sorted(d["module"] for d in report["defects"]) == sorted(names)
    assert sorted(s["module"] for s in report["scenarios"]) == sorted(names)
    assert sorted(report["modules"]) == sorted(names)

    sarif = json.loads((pytester.path / "report.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert sorted(r["properties"]["module"] for r in results) == sorted(names)
    # Each result points at its own module's file, not the other one's.
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results)
    assert uris == sorted(f"{n}/main.tf" for n in names)

    summary = stdout.split("convergence defects")[1].split("short test summary")[0]
    rows = [line.split()[0] for line in summary.splitlines() if "FAILED" in line]
    assert sorted(rows) == sorted(names)


def test_same_base_name_roots_stay_apart_in_zero_code_mode(pytester: pytest.Pytester) -> None:
    _tree(pytester, SAME_BASE)
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "--converge-sarif=report.sarif",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    _check_reports(pytester, out, SAME_BASE)
    for name in SAME_BASE:
        assert f"{name} does not converge" in out
        assert f'"{name}::two-run"' in out  # each reproduce line names its own module

    properties = {
        case.get("classname"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in ET.parse(pytester.path / "junit.xml").iter("testcase")
    }
    modules = sorted(json.loads(p["converge_scenario"])["module"] for p in properties.values())
    assert modules == sorted(SAME_BASE)
    defects = [json.loads(p["converge_defects"])[0]["module"] for p in properties.values()]
    assert sorted(defects) == sorted(SAME_BASE)
    assert sorted(p["converge.module"] for p in properties.values()) == sorted(SAME_BASE)


def test_same_base_name_modules_stay_apart_with_the_fixture(pytester: pytest.Pytester) -> None:
    names = ("envs/dev/network", "envs/prod/network")
    _tree(pytester, names)
    pytester.makepyfile(
        test_envs="""
        import pytest

        @pytest.mark.parametrize("env", ["dev", "prod"])
        def test_network(converge, env):
            converge(f"envs/{env}/network").assert_converged()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "--converge-sarif=report.sarif",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(failed=2)
    _check_reports(pytester, result.stdout.str(), names)
    junit = sorted(
        p.get("value")
        for p in ET.parse(pytester.path / "junit.xml").iter("property")
        if p.get("name") == "converge.module"
    )
    assert junit == sorted(names)


def test_module_id_outside_the_rootdir_is_relative_to_the_converge_paths_parent(
    tmp_path: Path,
) -> None:
    class Config:
        rootpath = tmp_path / "repo"

    other = tmp_path / "elsewhere" / "mods" / "sqs" / "examples" / "complete"
    assert module_id(Config(), Config.rootpath / "a" / "b") == "a/b"  # type: ignore[arg-type]
    converge_root = tmp_path / "elsewhere" / "mods"
    got = module_id(Config(), other, converge_root)  # type: ignore[arg-type]
    assert got == "mods/sqs/examples/complete"
    # Neither under the rootdir nor under a --converge PATH: the absolute path.
    assert module_id(Config(), other) == other.as_posix()  # type: ignore[arg-type]
