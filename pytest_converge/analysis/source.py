"""Where a resource is written: its block's file and line, and an attribute's source text.

Read through :mod:`pytest_converge.terraform.hcl` (a real HCL parser; nothing is
evaluated). It is used for SARIF locations and to show the expression behind
a value, e.g. ``triggers_replace = timestamp()``::

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

from ..terraform.hcl import Attribute, Block, blocks_of, config_files, local_source, module_blocks

_MODULE_PART = re.compile(r'module\.([^.\[]+)(\[(?:"[^"]*"|[^\]]*)\])?\.')
_INDEX = re.compile(r'\[(?:"[^"]*"|[^\]]*)\]$')


@dataclass(frozen=True)
class SourceLocation:
    """A resource block: the file it is in and the 1-based line of its header."""

    file: Path
    line: int
    #: The text between the block's braces.
    body: str = ""


def module_files(module_dir: Path) -> list[Path]:
    """The module's own ``.tf`` and ``.tf.json`` files, sorted."""
    return config_files(module_dir)


def _find_block(module_dir: Path, address: str) -> Block | None:
    parsed = _split_address(address)
    if parsed is None:
        return None
    modules, mode, rtype, name = parsed
    directory: Path | None = module_dir
    for call in modules:
        child = _child_module_dir(directory, call)
        if child is None:
            return None
        directory = child
    if directory is None:
        return None
    keyword = "data" if mode == "data" else "resource"
    found = blocks_of(module_blocks(directory, keyword), keyword, rtype, name)
    return found[0] if found else None


def find_resource(module_dir: Path, address: str) -> SourceLocation | None:
    """The block that declares ``address`` (instance keys ignored), or None."""
    block = _find_block(module_dir, address)
    if block is None or block.file is None:
        return None
    return SourceLocation(block.file, block.line, block.body)


def attribute_expression(module_dir: Path, address: str, attribute: str) -> str | None:
    """The source text assigned to ``attribute`` (a plan path) in ``address``'s block.

    ``triggers.always`` looks inside a map literal, ``ingress[1].cidr_blocks``
    inside the second ``ingress`` block; when the inner key is not written
    literally, the expression of the outer attribute is returned.
    """
    block = _find_block(module_dir, address)
    if block is None or not attribute:
        return None
    return _expression_in(block, _split_path(attribute))


def ignored_changes(module_dir: Path, address: str) -> frozenset[str] | None:
    """The top-level attributes ``address``'s ``lifecycle { ignore_changes }`` names.

    ``{"*"}`` for ``ignore_changes = all``; an empty set when the block ignores
    nothing; None when the block is not found.
    """
    block = _find_block(module_dir, address)
    if block is None:
        return None
    names: set[str] = set()
    for lifecycle in block.children("lifecycle"):
        attr = lifecycle.attributes.get("ignore_changes")
        if attr is None:
            continue
        text = attr.expression.strip()
        if text == "all":
            return frozenset({"*"})
        # [tags, tags["Name"], ingress[0].cidr_blocks]: the name each entry starts with.
        names.update(re.findall(r"(?:^|[\[,])\s*([A-Za-z_][\w-]*)", text.strip("[]")))
    return frozenset(names)


def _expression_in(block: Block, parts: list[str | int]) -> str | None:
    name, rest = parts[0], parts[1:]
    if not isinstance(name, str):
        return None
    index = 0
    if rest and isinstance(rest[0], int):
        index, rest = rest[0], rest[1:]
    attr = block.attributes.get(name)
    if attr is not None:
        return _entry(attr, rest)
    nested = block.children(name)
    if index < len(nested) and rest:
        return _expression_in(nested[index], rest)
    return None


def _entry(attr: Attribute, parts: list[str | int]) -> str:
    """The expression of ``parts`` inside a map literal, else of the attribute itself."""
    if parts and isinstance(parts[0], str) and parts[0] in attr.entries:
        return _entry(attr.entries[parts[0]], parts[1:])
    return attr.expression


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


def _child_module_dir(directory: Path | None, call: str) -> Path | None:
    if directory is None:
        return None
    for block in blocks_of(module_blocks(directory, "module"), "module", call):
        return local_source(block, directory)
    return None
