"""Zero-code mode records a module's clean world once, with its fault points.

Every item's Stack gets that world to compare its recovered world with, so no
item pays a clean apply of its own. Real terraform, moto.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parent / "modules" / "world" / "bucket_object"


def test_the_clean_world_is_recorded_with_the_fault_points_and_shared_by_the_items(
    pytester: pytest.Pytester,
) -> None:
    shutil.copytree(MODULE, pytester.path / "mods" / "site")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=lost-response",
        "-p",
        "no:cacheprovider",
        "--basetemp=bt",
        "--converge-report=report.json",
        "--log-cli-level=INFO",
        "-k",
        "PutObject or CreateBucket",
    )
    result.assert_outcomes(passed=2, deselected=1)  # the two-run item
    [points] = (pytester.path / "bt" / "converge-points").glob("points-*.json")
    world = json.loads(points.read_text())["world"]
    assert sorted(world["objects"]) == ["aws_s3_bucket.site", "aws_s3_bucket_object.index"]
    assert "clean apply, to compare recovered worlds" not in result.stdout.str()
    report = json.loads((pytester.path / "report.json").read_text())
    assert [d for d in report["defects"] if d["kind"] == "wrong-fixed-point"] == []
