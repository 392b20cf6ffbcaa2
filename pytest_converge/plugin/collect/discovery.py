"""The root modules under a ``--converge`` PATH.

A *root module* is a directory with ``.tf`` files that no other module under
PATH calls through a local ``source = "./..."``. Hidden directories,
``.terraform/`` and an ``examples/`` directory nested in a module are skipped;
give such an ``examples/`` directory as its own ``--converge`` PATH to test
the examples.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ...terraform.hcl import local_source, module_blocks
from ...terraform.workspace import local_calls, module_tree, tf_files, uses_aws

_SKIP_DIRS = {".terraform", "__pycache__", "node_modules"}
_EXAMPLES = "examples"


@dataclass
class Discovery:
    """The root modules under one ``--converge`` PATH."""

    path: Path
    roots: list[Path]
    #: Module dirs that another module under PATH calls (never collected alone).
    children: set[Path] = field(default_factory=set)

    def holds(self, directory: Path) -> bool:
        """True when ``directory`` is a root module or has one beneath it."""
        return any(r == directory or directory in r.parents for r in self.roots)


def discover(path: Path) -> Discovery:
    """Find the root modules under ``path`` (see the module docstring for the rules)."""
    modules: list[Path] = []
    for dirpath, dirnames, _files in os.walk(path):
        here = Path(dirpath)
        is_module = bool(tf_files(here))
        # A module's own examples/ call it via ../..; they are examples, not roots.
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".") and d not in _SKIP_DIRS and not (is_module and d == _EXAMPLES)
        )
        if is_module:
            modules.append(here)
    called: set[Path] = set()
    for module in modules:
        called.update(local_calls(module))
    roots = [m for m in modules if m not in called]
    return Discovery(path, roots, called & set(modules))


def _remote_calls(module: Path) -> list[str]:
    """The ``source`` of every ``module`` block that is not a local path."""
    sources = []
    for call in module_blocks(module, "module"):
        source = call.value("source")
        if isinstance(source, str) and local_source(call, module) is None:
            sources.append(source)
    return sources


def tree_uses_aws(module: Path) -> bool:
    """True when the module or a module it calls may call AWS (registry modules: maybe)."""
    # A module from a registry or git may use aws: record to find out.
    return any(uses_aws(d) or _remote_calls(d) for d in module_tree(module))
