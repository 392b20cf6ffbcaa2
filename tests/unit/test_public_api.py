"""The public API: what the package exports, documented, and listed in the docs."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest_converge

REPO = Path(__file__).resolve().parents[2]
#: The API page of the docs (the README's API section moved there).
API_PAGE = REPO / "docs" / "reference" / "api.md"
#: The docs build's hook that renders the generated parts of the reference pages.
REFERENCE_HOOK = REPO / "docs" / "hooks" / "reference.py"
#: Where the suite that expects defects is shown.
FAULTS_PAGE = REPO / "docs" / "guides" / "faults.md"


def _reference_hook() -> ModuleType:
    """The docs build's hook (docs/hooks/reference.py), which generates the API page's import."""
    spec = importlib.util.spec_from_file_location("docs_reference_hook", REFERENCE_HOOK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_api_section_lists_exactly_the_exports() -> None:
    """The README's API section is the docs' API page now (the name is kept for reruns).

    Its import block is generated from ``__all__`` by the docs hook, not hand-kept.
    """
    section = API_PAGE.read_text().split("\n## ", 1)[0]  # the page up to its reference
    assert "<!-- converge:api-imports -->" in section.splitlines()
    assert "from pytest_converge import" not in section, "a hand-kept import block is left"
    generated = _reference_hook().api_imports()
    code = re.fullmatch(r"```python\n(.*?)```", generated, re.S)
    assert code, "the hook renders one python code block"
    [imported] = ast.parse(code.group(1)).body
    assert isinstance(imported, ast.ImportFrom)
    assert imported.module == "pytest_converge"
    names = [a.name for a in imported.names]
    assert sorted(names) == sorted(pytest_converge.__all__)
    assert len(names) == len(set(names))
    # Grouped by the module each name comes from.
    groups = dict(re.findall(r"^    # ([\w.]+)\n((?:    [^#].*\n)+)", code.group(1), re.M))
    assert "ConvergeError" in groups["errors"] and "LoopError" in groups["errors"]
    assert "Crash" in groups["faults"] and "Stack" in groups["run.stack"]
    assert "fault_points" in groups["pytest_converge"]


def test_every_export_and_its_public_members_have_docstrings() -> None:
    missing = []
    for name in pytest_converge.__all__:
        obj = getattr(pytest_converge, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not inspect.getdoc(obj):
            missing.append(name)
        if not inspect.isclass(obj):
            continue
        for attr, value in vars(obj).items():
            if attr.startswith("_"):
                continue
            if isinstance(value, property) or inspect.isfunction(value):
                if not inspect.getdoc(getattr(obj, attr)):
                    missing.append(f"{name}.{attr}")
    assert missing == []


def test_named_members_are_documented() -> None:
    from pytest_converge import ApplyResult, Plan, RecoveryReport, Stack

    for member in (
        RecoveryReport.ok,
        RecoveryReport.errors,
        RecoveryReport.raise_for_defects,
        ApplyResult.raise_for_error,
        Stack.outputs,
        Plan.change,
        Plan.addresses,
        Plan.summary,
    ):
        assert inspect.getdoc(member), member


def test_py_typed_ships_with_the_package() -> None:
    assert (Path(pytest_converge.__file__).parent / "py.typed").is_file()


def test_the_readme_suite_that_expects_defects_is_the_example_that_runs() -> None:
    """Shown in the docs' faults guide now (the README's fault section moved there)."""
    example = REPO / "examples" / "expected_defects" / "test_expected_defects.py"
    body = example.read_text().split('"""\n', 1)[1].lstrip()  # after the module docstring
    assert f"```python\n{body}```" in FAULTS_PAGE.read_text()
