"""mkdocs hook: tables of the reference pages, generated from the code at build time.

A page asks for a table with a marker line, replaced before the page is rendered:

    <!-- converge:options -->        every --converge* option and its ini key
    <!-- converge:defect-kinds -->   every defect kind, its severity and meaning
    <!-- converge:classifications --> the built-in classes of a permanent diff
    <!-- converge:api-imports -->    the import of every name in pytest_converge.__all__
    <!-- converge:served -->          what each backend serves, from the pre-flight's data

So the reference cannot fall behind the code: a new option, defect kind or
class is in the docs the next time they are built. A marker with no table is
an error, which `mkdocs build --strict` (CI) turns into a failed build.
"""

from __future__ import annotations

import ast
import logging
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.plugins.converge")

MARKER = re.compile(r"^<!-- converge:([a-z-]+) -->$", re.M)


def options_table() -> str:
    """The options reference, one row per flag, rendered by the options table itself."""
    from pytest_converge.plugin.options import reference_markdown

    return reference_markdown()


def defect_kinds_table() -> str:
    """Every defect kind (``analysis.defects.KINDS``), its severity and its legend line."""
    from pytest_converge.analysis.defects import KINDS, severity_of
    from pytest_converge.report import KIND_HELP

    rows = ["| kind | severity | meaning |", "|---|---|---|"]
    for kind in KINDS:
        rows.append(f"| `{kind}` | {severity_of(kind)} | {_cell(KIND_HELP.get(kind, ''))} |")
    return "\n".join(rows)


def classifications_list() -> str:
    from pytest_converge.analysis.defects import CLASSIFICATIONS

    return ", ".join(f"`{name}`" for name in CLASSIFICATIONS)


def api_imports() -> str:
    """A code block importing every name of ``pytest_converge.__all__``, grouped by its module.

    Each group is headed by the module the package imports the names from
    (``# errors``, ``# faults``, ``# analysis.plan``); names the package
    defines itself (or takes from a private module, ``__version__``) come
    last, under ``# pytest_converge``.
    """
    import pytest_converge

    source = Path(pytest_converge.__file__).read_text()
    exported = set(pytest_converge.__all__)
    groups: dict[str, list[str]] = {}
    body = ast.parse(source).body
    # Imported at the top, or (the lazily imported ones) under ``if TYPE_CHECKING:``.
    nodes = [*body, *(n for b in body if isinstance(b, ast.If) for n in b.body)]
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            if node.module.startswith(("_", "plugin")):  # the package's own names
                continue
            names = [a.asname or a.name for a in node.names if (a.asname or a.name) in exported]
            if names:
                groups.setdefault(node.module, []).extend(names)
    grouped = {name for names in groups.values() for name in names}
    groups["pytest_converge"] = [n for n in pytest_converge.__all__ if n not in grouped]
    lines = ["```python", "from pytest_converge import ("]
    for module, names in groups.items():
        if not names:
            continue
        lines.append(f"    # {module}")
        wrapped = textwrap.wrap(", ".join(names) + ",", width=84, break_on_hyphens=False)
        lines.extend(f"    {line}" for line in wrapped)
    lines += [")", "```"]
    return "\n".join(lines)


def served_table() -> str:
    """Per backend and service: the operations served, and the resource types the pre-flight
    says it cannot serve (the create or read operation missing), from the data it reads."""
    from pytest_converge.awsapi.operations import _data, entries, service_model
    from pytest_converge.emulator.served import DATA_DIR, served

    out: list[str] = []
    for path in sorted(DATA_DIR.glob("*.json")):
        backend = served(path.stem)
        needs: dict[str, dict[str, str]] = {}
        for major, kind, ops in entries(_data()):
            if major != "5":
                continue
            for phase in ("create", "read"):
                missing = [o for o in ops.of(phase) if backend.serves(ops.service, o) is False]
                if missing:
                    needs.setdefault(ops.service, {})[kind] = missing[0]
                    break
        out += [
            f"### {backend.backend} {backend.version}",
            "",
            "| service | operations served | of botocore's | added by the fidelity layer "
            "| resource types it cannot serve (aws 5.x: the first operation missing) |",
            "|---|---|---|---|---|",
        ]
        for name in sorted(backend.services):
            found = backend.service(name)
            assert found is not None
            model = service_model(name) or {}
            total = len(model.get("operations", {}))
            count = (
                "all (one handler)" if found.whole else str(len(found.operations | found.unlisted))
            )
            lacking = ", ".join(
                f"`{kind}` ({op})" for kind, op in sorted(needs.get(name, {}).items())
            )
            added = ", ".join(sorted(found.fidelity)) or "-"
            out.append(f"| {name} | {count} | {total} | {_cell(added)} | {_cell(lacking) or '-'} |")
        out.append("")
    return "\n".join(out)


TABLES: dict[str, Callable[[], str]] = {
    "options": options_table,
    "defect-kinds": defect_kinds_table,
    "classifications": classifications_list,
    "api-imports": api_imports,
    "served": served_table,
}


def _cell(text: str) -> str:
    """Text fit for one markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in TABLES:
            log.warning("%s: no generated table named %r", page.file.src_path, name)
            return match.group(0)
        return TABLES[name]()

    return MARKER.sub(table, markdown)
