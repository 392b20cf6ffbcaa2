"""Terraform resource addresses, read in one place.

``module.net["eu"].data.aws_subnet.private[0]`` is a data source ``aws_subnet.private``,
instance ``[0]``, in module call ``net`` (instance ``["eu"]``). Keys are kept as written,
so a key holding a dot or a bracket (``aws_s3_bucket.b["a.b]"]``) stays whole::

    >>> a = Address.parse('module.net["eu"].data.aws_subnet.private[0]')
    >>> (a.type, a.name, a.mode, a.key, a.module_calls)
    ('aws_subnet', 'private', 'data', '[0]', ['net'])
    >>> a.config  # the form terraform's graph and state dependencies use
    'module.net.data.aws_subnet.private'
    >>> a.resource  # every instance of the resource
    'module.net["eu"].data.aws_subnet.private'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

__all__ = [
    "Address",
    "module_calls",
    "outside_keys",
    "resource_type",
    "split_keyed",
    "without_keys",
]

#: Words that start an address of something that is not a resource.
_NOT_RESOURCES = frozenset({"output", "var", "local", "path", "terraform", "each", "count"})


def outside_keys(text: str, char: str) -> list[int]:
    """Where ``char`` stands in ``text`` outside brackets and quoted keys (a ``for_each``
    key may hold any character): ``outside_keys('a["x.y"].b', ".") == [8]``."""
    found: list[int] = []
    depth, quoted, escaped = 0, False, False
    for i, ch in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == char and depth <= 0:
            found.append(i)
    return found


def split_keyed(text: str) -> list[str]:
    """``text`` split at each ``.`` outside brackets and quotes, keys kept on their part:
    ``module.a["x.y"].t.n[0]`` -> ``['module', 'a["x.y"]', 't', 'n[0]']``."""
    ends = [-1, *outside_keys(text, "."), len(text)]
    return [text[a + 1 : b] for a, b in itertools.pairwise(ends)]


def without_keys(text: str) -> str:
    """An address or a reference with every key left out, as the configuration names it:
    ``module.net[0].aws_subnet.a["x"].id`` -> ``module.net.aws_subnet.a.id``."""
    return ".".join(_unkeyed(part)[0] for part in split_keyed(text))


def _unkeyed(part: str) -> tuple[str, str | None]:
    """``'n[0]'`` -> ``('n', '[0]')``; ``'n'`` -> ``('n', None)``."""
    name, bracket, _ = part.partition("[")
    return name, (part[len(name) :] if bracket else None)


@dataclass(frozen=True)
class Address:
    """A resource instance's (or a whole resource's) address, in its parts."""

    #: The module calls that hold it, each with its instance key (``'net["eu"]'``).
    modules: tuple[str, ...]
    mode: str  # "managed" or "data"
    type: str
    name: str
    #: The instance key as written (``'[0]'``, ``'["a"]'``), None for the whole resource.
    key: str | None = None

    @classmethod
    def parse(cls, text: str) -> Address | None:
        """The parts of ``text``; None when it is not a resource's address (an output)."""
        parts = split_keyed(text.strip())
        modules: list[str] = []
        while len(parts) >= 2 and parts[0] == "module":
            modules.append(parts[1])
            parts = parts[2:]
        mode = "managed"
        if parts and parts[0] == "data":
            mode, parts = "data", parts[1:]
        if len(parts) != 2 or not parts[0] or "[" in parts[0] or parts[0] in _NOT_RESOURCES:
            return None
        name, key = _unkeyed(parts[1])
        if not name:
            return None
        return cls(tuple(modules), mode, parts[0], name, key)

    @property
    def module_calls(self) -> list[str]:
        """The module calls' names, without their keys: ``['net']``."""
        return [_unkeyed(m)[0] for m in self.modules]

    @property
    def module(self) -> str | None:
        """The module instance that holds it (``'module.net["eu"]'``), None for the root."""
        return ".".join(f"module.{m}" for m in self.modules) or None

    @property
    def declared(self) -> str:
        """The block that declares it, in whatever module: ``data.aws_subnet.private``."""
        return (
            f"data.{self.type}.{self.name}" if self.mode == "data" else f"{self.type}.{self.name}"
        )

    @property
    def resource(self) -> str:
        """Every instance of the resource: the address without its own key."""
        return ".".join(filter(None, (self.module, self.declared)))

    @property
    def config(self) -> str:
        """No key anywhere (``module.net.data.aws_subnet.private``): how the configuration,
        terraform's graph and state's dependencies name it."""
        calls = ".".join(f"module.{m}" for m in self.module_calls)
        return ".".join(filter(None, (calls, self.declared)))

    def __str__(self) -> str:
        return self.resource + (self.key or "")


def resource_type(address: str | None) -> str | None:
    """``module.net.aws_subnet.public["a"]`` -> ``aws_subnet`` (None for outputs)."""
    found = Address.parse(address) if address else None
    return found.type if found is not None else None


def module_calls(module_address: str | None) -> list[str]:
    """``module.a["x"].module.b`` -> ``['a', 'b']``: the calls of a module's address."""
    parts = split_keyed(module_address or "")
    pairs = zip(parts[::2], parts[1::2], strict=False)
    return [_unkeyed(p)[0] for keyword, p in pairs if keyword == "module"]
