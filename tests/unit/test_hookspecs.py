"""Every hook says since when it exists and how to use it from a conftest.py."""

from __future__ import annotations

import inspect
import re
import textwrap

import pytest

from pytest_converge.plugin import hookspecs

HOOKS = [
    (name, fn)
    for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
    if name.startswith("pytest_converge_")
]


def test_there_are_hooks() -> None:
    assert len(HOOKS) >= 6


@pytest.mark.parametrize(("name", "hook"), HOOKS, ids=[n for n, _ in HOOKS])
def test_a_hook_has_versionadded_and_a_conftest_example_that_compiles(name: str, hook) -> None:
    doc = inspect.getdoc(hook) or ""
    assert re.search(r"^\.\. versionadded:: \d+\.\d+\.\d+$", doc, re.M), name
    assert "Use in conftest::" in doc, name
    example = doc.split("Use in conftest::", 1)[1].split("\n.. ", 1)[0]
    code = textwrap.dedent(example).strip("\n")
    compiled = compile(code, f"<{name} example>", "exec")
    assert name in compiled.co_names, f"the example of {name} defines {name}"
