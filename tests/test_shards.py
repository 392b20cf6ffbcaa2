"""CI sharding: pytest-split runs a share of the scenarios per shard, and the shards'
reports merge into one (``python -m pytest_converge.report merge``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")
pytest.importorskip("pytest_split")

REPO = Path(__file__).resolve().parents[1]
#: The examples the shards split (named, so a new example does not change the split).
MODULES = ("permanent_diffs", "escape_hatch", "network", "fault_matrix")
SARIF_SCHEMA = REPO.parent / "shared" / "data" / "sarif-schema-2.1.0.json"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=900
    )


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("shards")
    import shutil

    for name in MODULES:
        shutil.copytree(REPO / "examples" / name, out / "mods" / name)
    # Recorded durations (what `--store-durations` writes): the slow module gets a shard alone.
    durations = out / "durations.json"
    durations.write_text(
        json.dumps(
            {
                "mods/permanent_diffs::two-run": 30.0,
                "mods/escape_hatch::two-run": 10.0,
                "mods/network::two-run": 10.0,
                "mods/fault_matrix::two-run": 10.0,
            }
        )
    )
    procs = []
    for group in (1, 2):
        procs.append(
            run(
                [
                    "-m",
                    "pytest",
                    "-p",
                    "no:cacheprovider",
                    "--converge",
                    "mods",
                    "--converge-faults=none",
                    "--splits",
                    "2",
                    "--group",
                    str(group),
                    "--durations-path",
                    str(durations),
                    "--converge-report",
                    str(out / f"shard{group}.json"),
                    "-q",
                ],
                out,
            )
        )
    return {"out": out, "procs": procs}


def test_each_shard_runs_its_share(shards):
    out = shards["out"]
    first = json.loads((out / "shard1.json").read_text())
    second = json.loads((out / "shard2.json").read_text())
    ran = [{s["module"] for s in doc["scenarios"]} for doc in (first, second)]
    # 30 s against 3 x 10 s: the slow module has a shard to itself.
    assert sorted(ran, key=len) == [
        {"mods/permanent_diffs"},
        {"mods/escape_hatch", "mods/network", "mods/fault_matrix"},
    ], [p.stdout for p in shards["procs"]]


def test_merged_report_and_sarif(shards):
    out = shards["out"]
    done = run(
        [
            "-m",
            "pytest_converge.report",
            "merge",
            str(out / "shard1.json"),
            str(out / "shard2.json"),
            "-o",
            str(out / "all.json"),
            "--sarif",
            str(out / "all.sarif"),
        ],
        out,
    )
    assert done.returncode == 0, done.stderr
    assert "RuntimeWarning" not in done.stderr  # `python -m` on a module the package imports
    from pytest_converge.report import load_schema

    merged = json.loads((out / "all.json").read_text())
    jsonschema.validate(merged, load_schema())
    parts = [json.loads((out / f"shard{g}.json").read_text()) for g in (1, 2)]
    assert len(merged["scenarios"]) == 4
    assert merged["defects"] == parts[0]["defects"] + parts[1]["defects"]
    assert {d["kind"] for d in merged["defects"]} >= {"permanent-diff", "escape-hatch"}
    # Counted as the summary, the page and JUnit count them (one defect per cause).
    assert f"scenarios; {merged['counts']['words']}" in done.stderr
    sarif = json.loads((out / "all.sarif").read_text())
    if SARIF_SCHEMA.exists():
        jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text()))
    rule_ids = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert {"permanent-diff", "escape-hatch"} <= rule_ids
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
        if "physicalLocation" in r["locations"][0]
    }
    assert any(u.endswith("escape_hatch/main.tf") for u in uris), uris
    # What each module ran with, from both shards.
    assert set(merged["toolchains"]) == {s["module"] for s in merged["scenarios"]}
    providers = merged["toolchains"]["mods/network"]["providers"]
    assert list(providers) == ["registry.terraform.io/hashicorp/aws"]
    assert providers["registry.terraform.io/hashicorp/aws"][0].isdigit()
    assert sarif["runs"][0]["properties"]["toolchains"] == merged["toolchains"]


def test_merge_refuses_what_is_not_a_report(tmp_path):
    (tmp_path / "junit.json").write_text('{"tests": 3}')
    (tmp_path / "broken.json").write_text("{")
    for name, expected in (("junit.json", "not a version 1"), ("broken.json", "not JSON")):
        done = run(["-m", "pytest_converge.report", "merge", str(tmp_path / name)], tmp_path)
        assert done.returncode == 2
        assert expected in done.stderr and name in done.stderr


def test_merge_of_plain_documents():
    from pytest_converge.report import merge_reports

    a = {"version": 1, "modules": ["b", "a"], "scenarios": [], "defects": [{"kind": "orphan"}]}
    b = {
        "version": 1,
        "modules": ["a", "c"],
        "scenarios": [{"module": "c", "scenario": "two-run", "outcome": "passed", "seconds": 1}],
        "defects": [],
    }
    merged = merge_reports([a, b])
    assert merged["modules"] == ["a", "b", "c"]
    assert merged["defects"] == [{"kind": "orphan"}]
    assert merged["scenarios"][0]["seconds"] == 1.0


def _not_tf(where: str, names: list[str]) -> list[str]:
    """The example's own test file stays behind: only its module is collected."""
    return [n for n in names if n.endswith(".py")]


def _outcomes(report: Path) -> dict[str, str]:
    """Each item's outcome in a JSON report (a point's scenario, and the two-run)."""
    data = json.loads(report.read_text())
    return {f"{s['module']}::{s['scenario']}": s["outcome"] for s in data["scenarios"]}


def test_three_shards_give_every_point_the_verdict_of_one_run(tmp_path):
    """pytest-split's 3 shards of a grouped fault matrix: together they run every item of
    one whole run once, each with that run's outcome (a shard groups the points it holds)."""
    import os
    import shutil

    from pytest_converge.storage import cache_dir

    for name in ("expected_defects",):  # passing points, and failing ones
        shutil.copytree(REPO / "examples" / name, tmp_path / "mods" / name, ignore=_not_tf)
    env = {**os.environ, "CONVERGE_CACHE_DIR": str(cache_dir())}
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
            "-n", "0", "--converge", "mods", "--converge-faults", "lost-response,crash",
            "-q"]  # fmt: skip

    def report(name: str, *extra: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [*argv, *extra, f"--converge-report={tmp_path / name}"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    whole = report("one.json")
    out, _ = whole.communicate(timeout=900)
    one = _outcomes(tmp_path / "one.json")
    assert len(one) > 3 and "failed" in one.values() and "passed" in one.values(), out
    shards = [report(f"shard{g}.json", "--splits", "3", "--group", str(g)) for g in (1, 2, 3)]
    outputs = [p.communicate(timeout=900)[0] for p in shards]
    parts = [_outcomes(tmp_path / f"shard{g}.json") for g in (1, 2, 3)]
    assert all(parts), outputs
    assert sum(len(p) for p in parts) == len(one), "an item ran in two shards, or in none"
    union = {k: v for part in parts for k, v in part.items()}
    assert union == one, outputs
