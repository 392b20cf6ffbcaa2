"""This package's modules are imported the way Python does, ahead of pytest's assertion rewriter.

pytest rewrites the asserts of every module of a plugin's distribution. With no
bytecode cache to keep the result in (``PYTHONDONTWRITEBYTECODE=1``, common in CI
images, or a fresh checkout) it parses and compiles all of them again at every
start of every pytest process: 0.4-0.8 s each, measured on a 2-core machine, for
a few internal type asserts no user ever sees. Test modules and conftest files
are not this package's and are rewritten as before. Imported first by the
package's ``__init__``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]


class PlainImports(importlib.abc.MetaPathFinder):
    """Finds the package's submodules with Python's own path finder."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not name.startswith(PACKAGE + "."):
            return None
        return importlib.machinery.PathFinder.find_spec(name, path, target)


if not any(isinstance(finder, PlainImports) for finder in sys.meta_path):
    sys.meta_path.insert(0, PlainImports())
