"""mkdocs hook: tables of the reference pages, generated from the code at build time.

A page asks for a table with a marker line, replaced before the page is rendered:

    <!-- converge:options -->        every --converge* option and its ini key
    <!-- converge:defect-kinds -->   every defect kind, its severity and meaning
    <!-- converge:classifications --> the built-in classes of a permanent diff

So the reference cannot fall behind the code: a new option, defect kind or
class is in the docs the next time they are built. A marker with no table is
an error, which `mkdocs build --strict` (CI) turns into a failed build.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

log = logging.getLogger("mkdocs.plugins.converge")

MARKER = re.compile(r"^<!-- converge:([a-z-]+) -->$", re.M)


def options_table() -> str:
    """The options reference, one row per flag.

    The options table's own rendering once it has one (`pytest_converge/options.py`,
    another branch); until then the options the plugin registers with pytest, so it
    matches `pytest --help` either way. When that branch lands, the fallback can go.
    """
    try:
        from pytest_converge.options import reference_markdown  # type: ignore[import-not-found]
    except ImportError:
        return _options_from_pytest()
    return str(reference_markdown())


def _options_from_pytest() -> str:
    from _pytest.config.argparsing import Parser

    from pytest_converge import plugin

    parser = Parser(_ispytest=True)
    plugin.pytest_addoption(parser)
    ini = parser._inidict  # name -> (help, type, default)
    rows = ["| option | ini key | meaning |", "|---|---|---|"]
    for option in parser.getgroup("converge").options:
        attrs = option.attrs()
        flag = " ".join(option.names())
        if attrs.get("metavar"):
            flag += f" {attrs['metavar']}"
        dest = attrs["dest"]
        if dest in ini:
            key = f"`{dest}`"
        elif dest.replace("_no_", "_", 1) in ini:  # --converge-no-X is `converge_X = false`
            key = f"`{dest.replace('_no_', '_', 1)} = false`"
        else:
            key = ""
        rows.append(f"| `{flag}` | {key} | {_cell(attrs.get('help', ''))} |")
    return "\n".join(rows)


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


TABLES: dict[str, Callable[[], str]] = {
    "options": options_table,
    "defect-kinds": defect_kinds_table,
    "classifications": classifications_list,
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
