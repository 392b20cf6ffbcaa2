"""No function of the package is over :data:`LIMIT` lines (issue #37).

A function counts from its ``def`` (decorators aside) to its last line, docstring
included (``end_lineno - lineno + 1``). One that grows past the limit is split along
its jobs into named helpers, not cut at the line.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pytest_converge"
LIMIT = 80


def _lengths(path: Path) -> list[tuple[int, str]]:
    """``(lines, "file:line name")`` of every function and method in ``path``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    where = path.relative_to(PACKAGE.parent)
    return [
        (node.end_lineno - node.lineno + 1, f"{where}:{node.lineno} {node.name}")
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno
    ]


def test_no_function_is_over_the_limit() -> None:
    long = sorted(
        (found for path in PACKAGE.rglob("*.py") for found in _lengths(path) if found[0] > LIMIT),
        reverse=True,
    )
    assert not long, f"functions over {LIMIT} lines (split each along its jobs):\n" + "\n".join(
        f"  {lines} {name}" for lines, name in long
    )
