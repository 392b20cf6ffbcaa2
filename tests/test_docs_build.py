"""The docs site builds with warnings as errors, and its reference is complete.

The API reference is generated from the docstrings (mkdocstrings) and the
options and defect-kind tables from the code (docs/hooks/reference.py): every
public name, every `--converge*` flag `pytest --help` shows and every defect
kind must be on the built pages.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_converge.analysis.defects import KINDS

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def test_the_api_reference_documents_every_export(site: Path) -> None:
    import pytest_converge

    page = (site / "reference" / "api" / "index.html").read_text()
    anchors = set(re.findall(r'id="pytest_converge\.(\w+)"', page))
    assert sorted(set(pytest_converge.__all__) - anchors) == []
    assert "<!-- converge:" not in page  # the generated import block replaced its marker
    hooks = (site / "reference" / "hooks" / "index.html").read_text()
    for name in dir(importlib.import_module("pytest_converge.plugin.hookspecs")):
        if name.startswith("pytest_converge_"):
            assert f'id="pytest_converge.plugin.hookspecs.{name}"' in hooks, name


def test_the_options_reference_lists_every_flag_of_pytest_help(site: Path) -> None:
    helped = subprocess.run(
        [sys.executable, "-m", "pytest", "--help", "-p", "no:cacheprovider"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    flags = set(re.findall(r"(?<![\w-])(--converge[a-z-]*)", helped))
    assert {"--converge", "--converge-faults", "--converge-no-reattach"} <= flags
    page = (site / "reference" / "options" / "index.html").read_text()
    assert sorted(f for f in flags if f"<code>{f}" not in page) == []


def test_the_defect_kinds_reference_lists_every_kind(site: Path) -> None:
    page = (site / "reference" / "defect-kinds" / "index.html").read_text()
    assert [k for k in KINDS if f"<code>{k}</code>" not in page] == []
    assert "converge:" not in page  # no marker left unreplaced
