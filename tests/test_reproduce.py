"""The reproduce line reproduces: run as printed, it runs that one test with the same options.

A user backend (a conftest ``pytest_converge_make_emulator``) proves the
options are carried: the printed line must select it again, or the rerun
would use moto and never touch the marker file it writes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HATCH = 'resource "terraform_data" "deploy" {\n  triggers_replace = timestamp()\n}\n'

CONFTEST = """
import pytest
from pathlib import Path

@pytest.hookimpl(tryfirst=True)
def pytest_converge_make_emulator(config, backend):
    if backend != "marked":
        return None
    from pytest_converge.emulator.moto import MotoEmulator

    marker = Path(str(config.rootpath)) / "backend-used"
    marker.write_text(marker.read_text() + "x" if marker.exists() else "x")
    return MotoEmulator()
"""

OPTIONS = ["--converge-backend=marked", "--converge-parallelism=3", "--converge-timeout=300"]


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _rerun(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert line.startswith("pytest "), line
    command = f"{sys.executable} -m pytest -p no:cacheprovider {line[len('pytest ') :]}"
    return subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300)


def _reproduce_line(output: str) -> str:
    found = re.findall(r"reproduce\s+(pytest .*)$", output, re.M)
    assert found, output
    return found[0].strip()


def test_zero_code_reproduce_line_runs_the_one_scenario_with_its_options(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    for name in ("a", "b"):
        (pytester.path / "mods" / name).mkdir(parents=True)
        (pytester.path / "mods" / name / "main.tf").write_text(HATCH)
    first = _pytest(pytester.path, "--converge", "mods", "--converge-faults=none", *OPTIONS)
    assert first.returncode == 1, first.stdout
    line = _reproduce_line(first.stdout)
    for option in OPTIONS:
        assert option in line
    assert '"mods/a::two-run"' in line
    (pytester.path / "backend-used").unlink()

    again = _rerun(line, pytester.path)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "1 failed" in again.stdout and "mods/b" not in again.stdout
    assert "escape-hatch" in again.stdout
    assert (pytester.path / "backend-used").read_text() == "x", "the user backend ran again"


def test_fixture_reproduce_line_works_from_another_directory(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nconverge_parallelism = 2\n")
    pytester.makeconftest(CONFTEST)
    (pytester.path / "mods" / "hatch").mkdir(parents=True)
    (pytester.path / "mods" / "hatch" / "main.tf").write_text(HATCH)
    tests = pytester.path / "tests"
    tests.mkdir()
    (tests / "test_hatch.py").write_text(
        "def test_hatch(converge):\n"
        "    converge('../mods/hatch').assert_converged()\n"
        "def test_other():\n"
        "    pass\n"
    )
    # Invoked from tests/ while the rootdir (the ini file) is one level up.
    first = _pytest(tests, "--converge-backend=marked")
    assert first.returncode == 1, first.stdout
    line = _reproduce_line(first.stdout)
    assert "--converge-backend=marked" in line
    assert "--converge-parallelism=2" in line  # from the ini file, written out
    assert '"test_hatch.py::test_hatch"' in line
    (pytester.path / "backend-used").unlink()

    again = _rerun(line, tests)
    assert again.returncode == 1, again.stdout + again.stderr
    assert "1 failed" in again.stdout and "passed" not in again.stdout
    assert "mods/hatch does not converge" in again.stdout
    assert (pytester.path / "backend-used").exists()
