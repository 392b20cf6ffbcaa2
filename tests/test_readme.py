"""The README's first screen, run as a user runs it: its module, its test, its output.

The HCL and Python blocks are read from README.md itself and written into a
fresh directory; real terraform and moto run them, and every line of output
the README shows must be printed (object ids, the engine's version and the
directory the README was run in are the parts that differ from run to run).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

README = Path(__file__).resolve().parents[1] / "README.md"


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
    """A shown line as a pattern: what differs between runs is a wildcard."""
    text = re.escape(line)
    text = re.sub(r"vpc\\-[0-9a-f]+", "vpc-[0-9a-f]+", text)
    text = re.sub(r"\\\[terraform\\ [^\]]*\\\]", r"\\[terraform [^\\]]*\\]", text)
    text = re.sub(r"\\\(/\S*?(modules/\w+/main\\\.tf:\d+)\\\)", r"\\(/\\S*\1\\)", text)
    return re.compile("^" + text + "$")


def assert_printed(result: pytest.RunResult, console: str) -> None:
    printed = result.outlines
    missing = [
        line for line in shown_output(console) if not any(pattern(line).match(o) for o in printed)
    ]
    assert missing == [], "\n".join(printed)


def test_the_first_check_fails_as_the_readme_shows(pytester: pytest.Pytester) -> None:
    first = section("A first convergence check")
    [module] = blocks(first, "hcl")
    [test] = blocks(first, "python")
    [console] = blocks(first, "console")
    here = pytester.path / "modules" / "bastion"
    here.mkdir(parents=True)
    (here / "main.tf").write_text(module)
    (here / "test_bastion.py").write_text(test)
    command = shlex.split(console.splitlines()[0])
    assert command[:2] == ["$", "pytest"]

    result = pytester.runpytest(*command[2:])

    result.assert_outcomes(failed=1)
    assert_printed(result, console)
    # The fix the README names makes it pass.
    assert "Wrap the list in `distinct(...)` and the test passes." in first
    fixed = re.sub(r"cidr_blocks = (\[.*\])", r"cidr_blocks = distinct(\1)", module)
    assert "distinct([" in fixed
    (here / "main.tf").write_text(fixed)
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
    assert_printed(faulted, fault_console)
