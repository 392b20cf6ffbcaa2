"""This package's modules are imported the way Python does, ahead of pytest's assertion rewriter.

pytest rewrites the asserts of every module of a plugin's distribution. With no
bytecode cache to keep the result in (``PYTHONDONTWRITEBYTECODE=1``, common in CI
images, or a fresh checkout) it parses and compiles all of them again at every
start of every pytest process: 0.4-0.8 s each, measured on a 2-core machine, for
a few internal type asserts no user ever sees. Test modules and conftest files
are not this package's and are rewritten as before. Imported first by the
package's ``__init__``.

Where Python writes no bytecode (``PYTHONDONTWRITEBYTECODE=1``, ``-B``) and keeps none
elsewhere (no ``PYTHONPYCACHEPREFIX``), every process also compiled the package again:
each pytest process and each xdist worker, 0.4-0.6 s on a slow 2-core machine (the moto
server process does not import the package, and its environment lets it write its own).
The package's own compiled modules are then kept in the plugin's cache directory
(``<cache>/bytecode/``, see :mod:`.storage`), never beside the sources, and checked
against each source's modification time and size as Python checks its own. Each
checkout (or venv) of the package keeps its own set, so the directory is bounded: when
a process first writes a module there and finds more than ``LIMIT`` kept, it removes
the older half (by modification time); a checkout still in use compiles again once.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import marshal
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import CodeType, ModuleType

PACKAGE = __name__.rpartition(".")[0]
#: Compiled modules kept before the older half is removed (~170 a checkout, ~20 KB each).
LIMIT = 1024
_pruned = False


class PlainImports(importlib.abc.MetaPathFinder):
    """Finds the package's submodules with Python's own path finder."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not name.startswith(PACKAGE + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        loader = spec.loader if spec is not None else None
        if (
            sys.dont_write_bytecode
            and not sys.pycache_prefix
            and type(loader) is importlib.machinery.SourceFileLoader
        ):
            assert spec is not None
            spec.loader = KeptBytecode(loader.name, loader.path)
        return spec


class KeptBytecode(importlib.machinery.SourceFileLoader):
    """A source loader that keeps the compiled module in the plugin's cache directory
    (the module docstring), keyed by the source's path; Python's own loader otherwise."""

    def get_code(self, fullname: str) -> CodeType | None:
        kept = _kept_path(self.path)
        if kept is None:
            return super().get_code(fullname)
        try:
            found = os.stat(self.path)
        except OSError:
            return super().get_code(fullname)
        header = _header(found)
        try:
            data = kept.read_bytes()
            if data[: len(header)] == header:
                code = marshal.loads(data[len(header) :])
                if isinstance(code, CodeType):
                    return code
        except (OSError, EOFError, ValueError, TypeError):
            pass  # none kept yet, or unreadable: compiled again below
        code = self.source_to_code(self.get_data(self.path), self.path)
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            partial = kept.with_name(f"{kept.name}.{os.getpid()}.part")
            partial.write_bytes(header + marshal.dumps(code))
            os.replace(partial, kept)  # whole or not at all: xdist workers share it
        except OSError:
            pass  # a read-only cache: compiled every time, as before
        else:
            _prune_once(kept.parent)
        return code


def _prune_once(directory: Path) -> None:
    """Remove the older half of ``directory``'s kept modules when it holds more than
    ``LIMIT`` (once a process, on its first write: a read costs nothing extra)."""
    global _pruned
    if _pruned:
        return
    _pruned = True
    from .storage import prune_oldest_half

    prune_oldest_half(directory, ".pyc", LIMIT)


def _header(source: os.stat_result) -> bytes:
    """A timestamp-based ``.pyc`` header (PEP 552): magic, flags 0, mtime, size."""
    return b"".join(
        [
            importlib.util.MAGIC_NUMBER,
            (0).to_bytes(4, "little"),
            (int(source.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little"),
            (source.st_size & 0xFFFFFFFF).to_bytes(4, "little"),
        ]
    )


def _kept_path(source: str) -> Path | None:
    """Where the compiled ``source`` is kept: under the cache directory, by the source's
    path (two checkouts of the package never share one); None until :mod:`.storage`,
    which names the cache directory, is imported (it is compiled as Python does)."""
    named = sys.modules.get(f"{PACKAGE}.storage")
    cache_dir = getattr(named, "cache_dir", None)
    if cache_dir is None:
        return None
    key = hashlib.sha256(os.fsencode(source)).hexdigest()[:24]
    name = Path(source).stem
    return cache_dir() / "bytecode" / sys.implementation.cache_tag / f"{name}-{key}.pyc"


if not any(isinstance(finder, PlainImports) for finder in sys.meta_path):
    sys.meta_path.insert(0, PlainImports())

# Names the cache directory the compiled modules are kept in; imported through the finder.
from . import storage  # noqa: E402, F401
