"""griffe extension for the API reference: the docstrings' reST markup read as Markdown.

The package's docstrings are written for ``help()`` and Sphinx-style readers:
``:class:`~pytest_converge.Emulator``` roles and ``::`` before an example.
mkdocstrings renders docstrings as Markdown, where those would show as typed;
this turns a role into a code span of its target (the last dotted part when
the target starts with ``~``), a closing ``::`` into ``:`` (the indented
block after it is a code block in Markdown as well) and a
``.. versionadded:: 0.1.0`` line into "*Added in version 0.1.0.*".
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|data|exc|mod|obj):`(~?)([^`]+)`")
LITERAL = re.compile(r"(\S)::$", re.M)
VERSION = re.compile(r"^\.\. (versionadded|versionchanged):: (\S+)$", re.M)
VERSION_TEXT = {"versionadded": "Added", "versionchanged": "Changed"}


def markdown_of(text: str) -> str:
    def code(match: re.Match[str]) -> str:
        short, target = match.groups()
        return f"`{target.rsplit('.', 1)[-1] if short else target}`"

    def version(match: re.Match[str]) -> str:
        return f"*{VERSION_TEXT[match.group(1)]} in version {match.group(2)}.*"

    return VERSION.sub(version, LITERAL.sub(r"\1:", ROLE.sub(code, text)))


class RstRoles(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **_: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
