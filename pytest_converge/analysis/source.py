"""Where a resource is written: its block's file and line, and an attribute's source text.

A light HCL reader (strings, ``${}`` templates, heredocs and comments are
skipped correctly; nothing is evaluated). It is used for SARIF locations and
to show the expression behind a value, e.g. ``triggers_replace = timestamp()``::

    loc = find_resource(Path("modules/build"), "terraform_data.build")
    loc.file, loc.line                     # (Path(".../main.tf"), 3)
    attribute_expression(Path("modules/build"), "terraform_data.build", "triggers_replace")
    # 'timestamp()'

Addresses in child modules (``module.net.aws_vpc.this``) are followed
through local ``source = "./..."`` paths; anything else returns None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_HEREDOC = re.compile(r"<<-?([A-Za-z_][\w-]*)[ \t]*\n")
_IDENT = re.compile(r"[A-Za-z_][\w-]*")
_MODULE_PART = re.compile(r'module\.([^.\[]+)(\[(?:"[^"]*"|[^\]]*)\])?\.')
_INDEX = re.compile(r'\[(?:"[^"]*"|[^\]]*)\]$')


@dataclass(frozen=True)
class SourceLocation:
    """A resource block: the file it is in and the 1-based line of its header."""

    file: Path
    line: int
    #: The text between the block's braces.
    body: str = ""


@dataclass(frozen=True)
class _Item:
    """One top-level entry of a block body: an attribute or a nested block."""

    kind: str  # "attribute" or "block"
    name: str
    text: str  # the expression, or the nested block's body
    labels: tuple[str, ...] = ()


def module_files(module_dir: Path) -> list[Path]:
    """The module's own ``.tf`` files, sorted (``.tf.json`` is not read)."""
    if not module_dir.is_dir():
        return []
    return sorted(p for p in module_dir.iterdir() if p.is_file() and p.suffix == ".tf")


def find_resource(module_dir: Path, address: str) -> SourceLocation | None:
    """The block that declares ``address`` (instance keys ignored), or None."""
    parsed = _split_address(address)
    if parsed is None:
        return None
    modules, mode, rtype, name = parsed
    directory = module_dir
    for call in modules:
        child = _child_module_dir(directory, call)
        if child is None:
            return None
        directory = child
    keyword = "data" if mode == "data" else "resource"
    header = re.compile(
        rf'^[ \t]*{keyword}[ \t]+"{re.escape(rtype)}"[ \t]+"{re.escape(name)}"[ \t]*\{{', re.M
    )
    for tf in module_files(directory):
        text = tf.read_text(errors="replace")
        match = header.search(text)
        if match:
            end = _block_end(text, match.end())
            return SourceLocation(
                tf, text.count("\n", 0, match.start()) + 1, text[match.end() : end - 1]
            )
    return None


def attribute_expression(module_dir: Path, address: str, attribute: str) -> str | None:
    """The source text assigned to ``attribute`` (a plan path) in ``address``'s block.

    ``triggers.always`` looks inside a map literal, ``ingress[1].cidr_blocks``
    inside the second ``ingress`` block; when the inner key is not written
    literally, the expression of the outer attribute is returned.
    """
    location = find_resource(module_dir, address)
    if location is None or not attribute:
        return None
    return _expression_in(location.body, _split_path(attribute))


def _expression_in(body: str, parts: list[str | int]) -> str | None:
    name, rest = parts[0], parts[1:]
    if not isinstance(name, str):
        return None
    index = 0
    if rest and isinstance(rest[0], int):
        index, rest = rest[0], rest[1:]
    items = _items(body)
    for item in items:
        if item.kind == "attribute" and item.name == name:
            if rest:
                inner = _map_entry(item.text, rest)
                if inner is not None:
                    return inner
            return _tidy(item.text)
    blocks = [item for item in items if item.kind == "block" and item.name == name]
    if index < len(blocks) and rest:
        return _expression_in(blocks[index].text, rest)
    return None


def _map_entry(expression: str, parts: list[str | int]) -> str | None:
    """The value of ``key`` inside a map/object literal expression ``{ key = value }``."""
    text = expression.strip()
    if not text.startswith("{") or not isinstance(parts[0], str):
        return None
    end = _block_end(text, 1)
    body = text[1 : end - 1]
    for item in _items(body, allow_quoted=True):
        if item.kind == "attribute" and item.name == parts[0]:
            if len(parts) > 1:
                return _map_entry(item.text, parts[1:]) or _tidy(item.text)
            return _tidy(item.text)
    return None


def _tidy(expression: str) -> str:
    return expression.strip()


# -- addresses -------------------------------------------------------------------------------


def _split_address(address: str) -> tuple[list[str], str, str, str] | None:
    """``module.a["x"].data.t.n[0]`` -> (["a"], "data", "t", "n")."""
    modules = []
    rest = address
    while True:
        match = _MODULE_PART.match(rest)
        if not match:
            break
        modules.append(match.group(1))
        rest = rest[match.end() :]
    rest = _INDEX.sub("", rest)
    mode = "managed"
    if rest.startswith("data."):
        mode, rest = "data", rest[5:]
    rtype, dot, name = rest.partition(".")
    if not dot or not rtype or not name:
        return None
    return modules, mode, rtype, name


def _split_path(attribute: str) -> list[str | int]:
    """``ingress[0].cidr_blocks`` -> ["ingress", 0, "cidr_blocks"]."""
    parts: list[str | int] = []
    for token in re.findall(r"\[(\d+)\]|\[\"([^\"]*)\"\]|([^.\[\]]+)", attribute):
        number, quoted, plain = token
        if number:
            parts.append(int(number))
        else:
            parts.append(quoted or plain)
    return parts


def _child_module_dir(directory: Path, call: str) -> Path | None:
    for tf in module_files(directory):
        text = tf.read_text(errors="replace")
        match = re.search(rf'^[ \t]*module[ \t]+"{re.escape(call)}"[ \t]*\{{', text, re.M)
        if not match:
            continue
        body = text[match.end() : _block_end(text, match.end()) - 1]
        for item in _items(body):
            if item.kind == "attribute" and item.name == "source":
                source = item.text.strip().strip('"')
                if source.startswith(("./", "../")):
                    return (directory / source).resolve()
        return None
    return None


# -- the reader ------------------------------------------------------------------------------


def _items(body: str, allow_quoted: bool = False) -> list[_Item]:
    """The top-level attributes and nested blocks of a block body."""
    items: list[_Item] = []
    i, n = 0, len(body)
    while i < n:
        i = _skip_blank(body, i)
        if i >= n:
            break
        if allow_quoted and body[i] == '"':
            end = _skip_string(body, i)
            name, i = body[i + 1 : end - 1], end
        else:
            match = _IDENT.match(body, i)
            if not match:
                i = _line_end(body, i) + 1
                continue
            name, i = match.group(), match.end()
        j = _skip_spaces(body, i)
        if j < n and body[j] in "=:" and body[j : j + 2] != "==":
            end = _expression_end(body, j + 1)
            items.append(_Item("attribute", name, body[j + 1 : end]))
            i = end
            continue
        labels = []
        while j < n and body[j] == '"':
            end = _skip_string(body, j)
            labels.append(body[j + 1 : end - 1])
            j = _skip_spaces(body, end)
        if j < n and body[j] == "{":
            end = _block_end(body, j + 1)
            items.append(_Item("block", name, body[j + 1 : end - 1], tuple(labels)))
            i = end
            continue
        i = _line_end(body, i) + 1
    return items


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _skip_blank(text: str, i: int) -> int:
    """Past whitespace, commas and comments."""
    while i < len(text):
        if text[i] in " \t\r\n,":
            i += 1
        elif text[i] == "#" or text.startswith("//", i):
            i = _line_end(text, i) + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
        else:
            break
    return i


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _skip_string(text: str, i: int) -> int:
    """Index just past the string literal opening at ``text[i] == '"'``."""
    j, n = i + 1, len(text)
    while j < n:
        ch = text[j]
        if ch == "\\":
            j += 2
        elif ch == '"':
            return j + 1
        elif text.startswith(("${", "%{"), j):
            j = _block_end(text, j + 2)
        elif ch == "\n":
            return j  # unterminated: stop at the line end
        else:
            j += 1
    return n


def _skip_heredoc(text: str, i: int) -> int | None:
    """Index just past a heredoc opening at ``i`` (``<<EOT``/``<<-EOT``), or None."""
    match = _HEREDOC.match(text, i)
    if not match:
        return None
    marker = match.group(1)
    end = re.compile(rf"^[ \t]*{re.escape(marker)}[ \t]*$", re.M).search(text, match.end())
    return len(text) if end is None else end.end()


def _block_end(text: str, i: int) -> int:
    """Index just past the ``}`` closing the brace opened just before ``i``."""
    depth, n = 1, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            continue
        if ch == "<" and text.startswith("<<", i):
            end = _skip_heredoc(text, i)
            if end is not None:
                i = end
                continue
        if ch == "#" or text.startswith("//", i):
            i = _line_end(text, i)
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _expression_end(text: str, i: int) -> int:
    """Index of the end of the expression starting at ``i``: a newline outside brackets."""
    depth, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            continue
        if ch == "<" and text.startswith("<<", i):
            end = _skip_heredoc(text, i)
            if end is not None:
                i = end
                if depth == 0:
                    return i
                continue
        if ch == "#" or text.startswith("//", i):
            if depth == 0:
                return i
            i = _line_end(text, i)
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
            if depth < 0:
                return i
        elif ch in "\n," and depth == 0:
            return i
        i += 1
    return n
