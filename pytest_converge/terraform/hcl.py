"""Terraform configuration files read by a parser, not by scanning braces.

Every part of the plugin that needs to know what a module declares (its
variables, module calls, provider blocks and their regions, where a resource
is written) reads it here. ``.tf`` files are parsed with ``python-hcl2``'s
grammar (comments, heredocs, templates, ``dynamic`` blocks: everything HCL
allows); ``.tf.json`` files with :mod:`json`. Both give the same
:class:`Block` tree, with line numbers and each attribute's source text::

    >>> [b] = blocks_of(parse_text('provider "aws" {\\n  region = "eu-west-1"\\n}\\n'), "provider")
    >>> b.labels, b.line, b.value("region")
    (('aws',), 1, 'eu-west-1')

Nothing is evaluated: :meth:`Block.value` returns literal values only (strings
without templates, numbers, booleans, lists and maps of them) and
:data:`NOT_LITERAL` for anything else.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import logging
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from ..storage import cache_dir, prune_oldest_half

T = TypeVar("T")

__all__ = [
    "NOT_LITERAL",
    "Attribute",
    "Block",
    "HclError",
    "blocks_of",
    "config_files",
    "declared_regions",
    "local_source",
    "module_blocks",
    "module_tree",
    "parse_attributes",
    "parse_config",
    "parse_file",
    "parse_text",
    "provider_regions",
]

log = logging.getLogger(__name__)


class _NotLiteral:
    def __repr__(self) -> str:
        return "NOT_LITERAL"

    def __reduce__(self) -> str:
        return "NOT_LITERAL"  # unpickled as this module's one instance (see _ParseCache)

    def __bool__(self) -> bool:
        return False


#: What :meth:`Block.value` returns for an expression that is not a literal.
NOT_LITERAL: Any = _NotLiteral()


class HclError(ValueError):
    """A configuration file that does not parse; the message names the file and line."""


@dataclass(frozen=True)
class Attribute:
    """``name = expression``: the expression's source text and, if literal, its value."""

    name: str
    expression: str
    line: int
    value: Any = NOT_LITERAL
    #: For an object expression ``{ k = v, ... }``: each element, by key (nested likewise).
    entries: dict[str, Attribute] = field(default_factory=dict)


@dataclass(frozen=True)
class Block:
    """``type "label" ... { body }`` with its attributes and nested blocks, in source order."""

    type: str
    labels: tuple[str, ...]
    line: int
    end_line: int
    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: tuple[Block, ...] = ()
    #: The text between the braces (for a ``.tf.json`` block: its JSON).
    body: str = ""
    file: Path | None = None

    def value(self, name: str, default: Any = NOT_LITERAL) -> Any:
        """The literal value of attribute ``name``; ``default`` when it is absent."""
        attr = self.attributes.get(name)
        return default if attr is None else attr.value

    def children(self, type: str) -> list[Block]:
        """The nested blocks of one type (``ingress``, ``dynamic`` ...), in order."""
        return [b for b in self.blocks if b.type == type]


# -- HCL native syntax -----------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _parser() -> Any:
    try:
        from hcl2.parser import parser
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise HclError("python-hcl2 is not installed: `pip install 'python-hcl2>=8.1,<9'`") from exc
    return parser()


def parse_text(text: str, file: Path | None = None) -> list[Block]:
    """The top-level blocks of one ``.tf`` file's text (or of JSON for a ``.tf.json``)."""
    if file is not None and file.name.endswith(".json"):
        return _json_blocks(text, file)

    def parse() -> list[Block]:
        reader, body = _read(text, file)
        return reader.body(body)

    return [_with_file(b, file) for b in _PARSES.get("blocks", text, parse)]


def parse_attributes(text: str, file: Path | None = None) -> dict[str, Attribute]:
    """The top-level attributes of a file: a ``.tfvars`` file's assignments.

    ``.json`` files (``.tfvars.json``) are read as one JSON object.
    """
    if file is not None and file.name.endswith(".json"):
        data = json_object(text, file, "expected one JSON object of variable values")
        return {k: Attribute(k, json.dumps(v), 1, v) for k, v in data.items()}

    def parse() -> dict[str, Attribute]:
        reader, body = _read(text, file)
        return reader.attributes(body)

    return _PARSES.get("attributes", text, parse)


def parse_config(text: str, file: Path | None = None) -> tuple[dict[str, Attribute], list[Block]]:
    """A file's top-level attributes and blocks, from one parse (a Terraform CLI config).

    The CLI config is HCL 1; what it holds (blocks, strings, lists, maps) reads the same
    as HCL 2, except quoted attribute names (``dev_overrides``), which raise HclError.
    """

    def parse() -> tuple[dict[str, Attribute], list[Block]]:
        reader, body = _read(text, file)
        return reader.attributes(body), reader.body(body)

    attributes, blocks = _PARSES.get("config", text, parse)
    return attributes, [_with_file(b, file) for b in blocks]


def json_object(text: str, file: Path | None, expected: str) -> dict[str, Any]:
    """``text`` as one JSON object, or HclError naming the file and what it should hold."""
    where = file or "<text>"
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise HclError(f"{where}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise HclError(f"{where}: {expected}")
    return data


class _ParseCache:
    """What a text parses to, kept on disk across processes (``<cache dir>/hcl``).

    Parsing is the plugin's largest own cost before the first apply of a large
    module: python-hcl2's lark parser takes 0.3 s to import and build, and
    ~1.5 s for the 16 files of terraform-aws-modules/vpc (a 2-core machine).
    Keyed on the text (not the path: a Stack's copy of a module hits too), the
    kind of parse and python-hcl2's version; only successful parses are kept.
    The entries are pickles in the cache directory, which also holds the
    provider binaries every run executes: no less trusted than those. Any entry
    that cannot be read is parsed again; more than ``LIMIT`` entries lose the
    oldest half.
    """

    FORMAT = 1
    LIMIT = 4096

    def __init__(self) -> None:
        self._dir: Path | None = None
        self._salt: bytes | None = None

    def get(self, kind: str, text: str, parse: Callable[[], T]) -> T:
        path = self._path(kind, text)
        if path is not None:
            with contextlib.suppress(Exception):  # missing, truncated, from another version
                with open(path, "rb") as f:
                    return cast(T, pickle.load(f))
        value = parse()
        if path is not None:
            self._put(path, value)
        return value

    def _path(self, kind: str, text: str) -> Path | None:
        if self._salt is None:
            try:
                from importlib.metadata import version

                hcl2 = version("python-hcl2")
            except Exception:
                hcl2 = "?"
            self._salt = f"{self.FORMAT}\0{hcl2}\0".encode()
        if self._dir is None:
            self._dir = cache_dir() / "hcl"
        digest = hashlib.sha256(self._salt + kind.encode() + b"\0" + text.encode()).hexdigest()
        return self._dir / f"{digest}.pickle"

    def _put(self, path: Path, value: Any) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)  # whole or not at all, for concurrent readers
            prune_oldest_half(path.parent, ".pickle", self.LIMIT)
        except Exception as exc:  # a read-only cache: every process parses, as before
            log.debug("parse cache %s not written: %s", path.parent, exc)


_PARSES = _ParseCache()


def _with_file(block: Block, file: Path | None) -> Block:
    """``block`` (and its nested blocks) as read from ``file`` (cached parses are shared)."""
    if block.file == file:
        return block
    nested = tuple(_with_file(b, file) for b in block.blocks)
    return dataclasses.replace(block, file=file, blocks=nested)


def _read(text: str, file: Path | None) -> tuple[_Reader, Any]:
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(source)
    except Exception as exc:  # lark's errors (compared by class, lark may be re-imported)
        if not type(exc).__module__.startswith("lark"):
            raise
        line = getattr(exc, "line", "?")
        raise HclError(f"{file or '<text>'}:{line}: not valid HCL: {_first_line(exc)}") from None
    return _Reader(source, file), tree.children[0]


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]


class _Reader:
    """Turns python-hcl2's parse tree (lark, with positions) into :class:`Block` objects.

    The grammar's rule names (``body``, ``block``, ``attribute``, ``string``,
    ``expr_term`` ...) are python-hcl2's; the dependency pins its major version.
    """

    # Trees and tokens are told apart by shape, not class: an in-process pytester run
    # drops lark from sys.modules afterwards, and a re-imported lark's classes are not
    # those of the parser cached here.
    def __init__(self, text: str, file: Path | None) -> None:
        self.text = text
        self.file = file

    @staticmethod
    def _tree(node: Any) -> bool:
        return hasattr(node, "data") and hasattr(node, "children")

    @staticmethod
    def _token(node: Any) -> bool:
        return isinstance(node, str) and hasattr(node, "type")

    def body(self, node: Any) -> list[Block]:
        return [self.block(c) for c in self._kids(node, "block")]

    def attributes(self, node: Any) -> dict[str, Attribute]:
        found = (self.attribute(c) for c in self._kids(node, "attribute"))
        return {a.name: a for a in found}

    def _kids(self, node: Any, name: str) -> list[Any]:
        return [c for c in getattr(node, "children", []) if self._tree(c) and c.data == name]

    def block(self, node: Any) -> Block:
        head: list[str] = []
        body = None
        for child in node.children:
            if self._tree(child):
                if child.data == "body":
                    body = child
                elif child.data == "string":
                    head.append(self._string(child))
                elif child.data in ("identifier", "keyword", "literal_value"):
                    head.append(self._source(child))
        attributes: dict[str, Attribute] = {}
        blocks: list[Block] = []
        inner = ""
        if body is not None:
            for child in body.children:
                if not self._tree(child):
                    continue
                if child.data == "attribute":
                    attr = self.attribute(child)
                    attributes[attr.name] = attr
                elif child.data == "block":
                    blocks.append(self.block(child))
        lbrace = next((c for c in node.children if self._token(c) and c.type == "LBRACE"), None)
        rbrace = next((c for c in node.children if self._token(c) and c.type == "RBRACE"), None)
        if lbrace is not None and rbrace is not None:
            inner = self.text[lbrace.end_pos : rbrace.start_pos]
        return Block(
            type=head[0] if head else "",
            labels=tuple(head[1:]),
            line=node.meta.line,
            end_line=node.meta.end_line,
            attributes=attributes,
            blocks=tuple(blocks),
            body=inner,
            file=self.file,
        )

    def attribute(self, node: Any) -> Attribute:
        name_node, expression = node.children[0], node.children[-1]
        return Attribute(
            name=self._source(name_node).strip(),
            expression=self._source(expression).strip(),
            line=node.meta.line,
            value=self.literal(expression),
            entries=self.entries(expression),
        )

    def entries(self, node: Any) -> dict[str, Attribute]:
        """The elements of an object expression, by key (empty for anything else)."""
        if self._tree(node) and node.data == "expr_term" and len(node.children) == 1:
            node = node.children[0]
        if not self._tree(node) or node.data != "object":
            return {}
        found: dict[str, Attribute] = {}
        for elem in self._kids(node, "object_elem"):
            key_node, value_node = elem.children[0], elem.children[-1]
            key = self.literal(key_node)
            if not isinstance(key, str):
                key = self._source(key_node).strip()
            found[key] = Attribute(
                name=key,
                expression=self._source(value_node).strip(),
                line=elem.meta.line,
                value=self.literal(value_node),
                entries=self.entries(value_node),
            )
        return found

    def _source(self, node: Any) -> str:
        if self._token(node):
            return str(node)
        meta = node.meta
        if getattr(meta, "empty", True):
            return ""
        return self.text[meta.start_pos : meta.end_pos]

    def _string(self, node: Any) -> str:
        """The value of a label or string literal (``"aws"`` -> ``aws``)."""
        value = self.literal(node)
        return value if isinstance(value, str) else self._source(node).strip('"')

    def literal(self, node: Any) -> Any:
        """The Python value of a literal expression, else NOT_LITERAL."""
        if self._token(node):
            return NOT_LITERAL
        kind = node.data
        if kind == "expr_term" and len(node.children) == 1:
            return self.literal(node.children[0])
        if kind == "string":
            parts = [c for c in node.children if self._tree(c)]
            chars: list[str] = []
            for part in parts:
                token = part.children[0] if part.children else None
                if token is None or not self._token(token):
                    return NOT_LITERAL  # an interpolation or a directive
                if token.type == "STRING_CHARS":
                    chars.append(token)
                elif token.type in ("ESCAPED_INTERPOLATION", "ESCAPED_DIRECTIVE"):
                    chars.append(str(token)[1:])  # $${ -> ${ (a literal, not a template)
                else:
                    return NOT_LITERAL
            try:
                return json.loads('"' + "".join(chars) + '"')
            except ValueError:
                return "".join(chars)
        if kind in ("int_lit", "float_lit"):
            text = self._source(node)
            try:
                return json.loads(text)
            except ValueError:
                return NOT_LITERAL
        if kind == "literal_value":
            return {"true": True, "false": False, "null": None}.get(self._source(node), NOT_LITERAL)
        if kind == "tuple":
            items = [self.literal(c) for c in node.children if self._tree(c)]
            return NOT_LITERAL if any(i is NOT_LITERAL for i in items) else items
        if kind == "object":
            found: dict[str, Any] = {}
            for elem in self._kids(node, "object_elem"):
                key_node, value_node = elem.children[0], elem.children[-1]
                key = self.literal(key_node)
                if key is NOT_LITERAL:
                    key = self._source(key_node).strip()  # a bare key: `Name = "x"`
                value = self.literal(value_node)
                if value is NOT_LITERAL or not isinstance(key, str):
                    return NOT_LITERAL
                found[key] = value
            return found
        if kind == "object_elem_key" and len(node.children) == 1:
            return self.literal(node.children[0])
        if kind in ("heredoc_template", "heredoc_template_trim"):
            return NOT_LITERAL  # templates may interpolate; their text is in `expression`
        return NOT_LITERAL


# -- JSON syntax -----------------------------------------------------------------------------

#: How many labels each top-level block type has in JSON syntax.
_JSON_LABELS = {
    "resource": 2,
    "data": 2,
    "provider": 1,
    "variable": 1,
    "output": 1,
    "module": 1,
    "locals": 0,
    "terraform": 0,
    "moved": 0,
    "import": 0,
    "check": 1,
    "removed": 0,
}


def _json_blocks(text: str, file: Path | None) -> list[Block]:
    data = json_object(text, file, "a .tf.json file holds one JSON object")
    lines = text.splitlines()
    blocks: list[Block] = []
    for type_, content in data.items():
        if type_.startswith("//"):
            continue  # a JSON-syntax comment
        for labels, body in _json_instances(content, _JSON_LABELS.get(type_, 0)):
            line = _json_line(lines, labels[-1] if labels else type_)
            blocks.append(_json_block(type_, labels, body, line, file))
    return blocks


def _json_instances(content: Any, depth: int, labels: tuple[str, ...] = ()) -> Iterator[tuple]:
    """``(labels, body)`` for each block: label levels are nested objects, repeats are lists."""
    if isinstance(content, list):
        for item in content:
            yield from _json_instances(item, depth, labels)
        return
    if depth == 0:
        if isinstance(content, dict):
            yield labels, content
        return
    if isinstance(content, dict):
        for key, inner in content.items():
            yield from _json_instances(inner, depth - 1, (*labels, key))


def _json_block(
    type_: str, labels: tuple[str, ...], body: dict[str, Any], line: int, file: Path | None
) -> Block:
    attributes = {}
    for name, value in body.items():
        if name.startswith("//"):
            continue
        literal = value
        if isinstance(value, str) and ("${" in value or "%{" in value):
            literal = NOT_LITERAL  # a template: JSON syntax strings are templates
        attributes[name] = Attribute(name, json.dumps(value), line, literal)
    return Block(type_, labels, line, line, attributes, (), json.dumps(body), file)


def _json_line(lines: list[str], key: str) -> int:
    needle = json.dumps(key)
    for n, text in enumerate(lines, 1):
        if needle in text:
            return n
    return 1


# -- files and modules -----------------------------------------------------------------------


def config_files(directory: Path) -> list[Path]:
    """The ``.tf`` and ``.tf.json`` files of one module directory, sorted by name."""
    if not directory.is_dir():
        return []
    return sorted(
        p for p in directory.iterdir() if p.is_file() and p.name.endswith((".tf", ".tf.json"))
    )


def parse_file(path: Path) -> list[Block]:
    """The top-level blocks of one file (cached on path, size and mtime).

    Raises :class:`HclError` naming the file and line when it does not parse.
    """
    stat = path.stat()
    return list(_parse_cached(str(path), stat.st_size, stat.st_mtime_ns))


@functools.lru_cache(maxsize=512)
def _parse_cached(path: str, size: int, mtime: int) -> tuple[Block, ...]:
    file = Path(path)
    return tuple(parse_text(file.read_text(errors="replace"), file))


def module_blocks(directory: Path, *types: str, strict: bool = False) -> list[Block]:
    """Every top-level block of a module directory's files, file by file.

    With ``types`` (``"module"``, ``"variable"`` ...) only blocks of those
    types are returned, and a file whose text never mentions one of them is
    not parsed at all (parsing a 3,000-line ``variables.tf`` takes ~0.3 s).
    A file that does not parse is logged and skipped (terraform itself will
    name the error when it runs) unless ``strict``, which raises HclError.
    """
    found: list[Block] = []
    for path in config_files(directory):
        try:
            if types and not _mentions(path, types):
                continue
            blocks = parse_file(path)
            found.extend(b for b in blocks if not types or b.type in types)
        except HclError as exc:
            if strict:
                raise
            log.warning("skipping %s: %s", path, exc)
        except OSError as exc:
            log.warning("cannot read %s: %s", path, exc)
    return found


def _mentions(path: Path, words: tuple[str, ...]) -> bool:
    text = path.read_text(errors="replace")
    return any(word in text for word in words)


def blocks_of(blocks: list[Block], type: str, *labels: str) -> list[Block]:
    """The blocks of one type whose labels start with ``labels``."""
    return [b for b in blocks if b.type == type and b.labels[: len(labels)] == labels]


def local_source(block: Block, directory: Path) -> Path | None:
    """The directory a ``module`` block's local ``source`` (``./x``, ``../x``) names, else None."""
    source = block.value("source")
    if isinstance(source, str) and (source.startswith(("./", "../")) or source in (".", "..")):
        return Path(os.path.abspath(directory / source))
    return None


def module_tree(directory: Path) -> list[Path]:
    """The module and every local module it calls, transitively (existing dirs only)."""
    seen: list[Path] = []
    todo = [Path(os.path.abspath(directory))]
    while todo:
        current = todo.pop()
        if current in seen or not current.is_dir():
            continue
        seen.append(current)
        for call in module_blocks(current, "module"):
            target = local_source(call, current)
            if target is not None:
                todo.append(target)
    return seen


def module_dirs(module: Path) -> list[Path]:
    """The module, the local modules it calls and, once initialised, the modules
    ``.terraform/modules/modules.json`` lists (absolute, existing, each once)."""
    dirs = module_tree(module)
    with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
        manifest = json.loads((module / ".terraform" / "modules" / "modules.json").read_text())
        dirs += [Path(os.path.abspath(module / m["Dir"])) for m in manifest.get("Modules", [])]
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def provider_regions(directory: Path, provider: str = "aws") -> dict[str, str]:
    """``{"aws": "eu-west-1", "aws.west": "us-west-2"}``: the literal region of each
    ``provider`` configuration of the module's own files.

    ``region = var.name`` resolves to the variable's literal default; any other
    expression (or no region) leaves the configuration out.
    """
    blocks = module_blocks(directory, "provider", "variable")
    defaults = {b.labels[0]: b.value("default") for b in blocks_of(blocks, "variable") if b.labels}
    found: dict[str, str] = {}
    for block in blocks_of(blocks, "provider", provider):
        alias = block.value("alias", None)
        key = f"{provider}.{alias}" if isinstance(alias, str) else provider
        region = block.value("region")
        attr = block.attributes.get("region")
        if region is NOT_LITERAL and attr is not None and attr.expression.startswith("var."):
            region = defaults.get(attr.expression[4:].strip(), NOT_LITERAL)
        if isinstance(region, str) and region:
            found[key] = region
    return found


def declared_regions(directory: Path, provider: str = "aws") -> set[str]:
    """Every literal region of the module's and its local modules' provider configurations."""
    return {r for d in module_tree(directory) for r in provider_regions(d, provider).values()}
