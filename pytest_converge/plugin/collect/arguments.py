"""``--converge PATH`` on the command line: the paths checked, the arguments rewritten.

With ``--converge`` and no positional arguments only the convergence items
run (not ``testpaths``); a ``dir::scenario`` argument runs one scenario.
Paths from the ``converge_paths`` ini key are added to what a plain
``pytest`` collects. A ``--converge`` PATH is collected as Terraform modules
(:class:`.items.ConvergeDirectory`), nothing else.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ..options import settings
from .directory import ConvergeDirectory
from .discovery import Discovery, discover
from .items import ConvergeItem

_discoveries_key = pytest.StashKey[dict[Path, Discovery]]()


def pytest_configure(config: pytest.Config) -> None:
    """Validate ``--converge`` paths and make them the collection arguments."""
    paths = list(settings(config).paths)
    if not paths:
        return
    discoveries: dict[Path, Discovery] = {}
    for path in paths:
        if not path.exists():
            raise pytest.UsageError(f"--converge {path}: no such directory")
        if not path.is_dir():
            raise pytest.UsageError(
                f"--converge {path}: not a directory; pass the directory holding the module(s)"
            )
        found = discover(path)
        if not found.roots:
            raise pytest.UsageError(
                f"--converge {path}: no Terraform root module found (a directory with .tf "
                "files that no other module under it calls). Hidden directories, .terraform/ "
                "and examples/ inside a module are skipped; pass an examples/ directory "
                "itself to test its modules."
            )
        discoveries[path] = found
    config.stash[_discoveries_key] = discoveries
    if config.option.pyargs:
        return
    from_cli = settings(config).paths_from_cli
    if from_cli and config.args_source != pytest.Config.ArgsSource.ARGS:
        # `pytest --converge PATH` alone: the convergence items only, not testpaths.
        config.args = [str(p) for p in paths]
        return
    # Positional arguments, or the paths come from the ini file (then a plain
    # `pytest` runs the project's tests and the modules): add the PATHs.
    config.stash[_selection_key] = _take_selection(config, paths)


@dataclass
class _Selection:
    """What positional arguments select among the convergence items."""

    #: Directories given whole (or PATHs added because no argument reaches into them).
    whole: list[Path] = field(default_factory=list)
    #: ``dir::scenario`` arguments, as nodeids.
    named: set[str] = field(default_factory=set)

    def keeps(self, item: pytest.Item) -> bool:
        if not self.named or not isinstance(item, ConvergeItem):
            return True
        path = Path(os.path.abspath(item.path))
        return item.nodeid in self.named or any(w == path or w in path.parents for w in self.whole)


_selection_key = pytest.StashKey[_Selection]()


def _take_selection(config: pytest.Config, paths: list[Path]) -> _Selection:
    """Rewrite positional arguments that name convergence items (``dir::scenario``).

    pytest refuses ``::`` after a directory, but a convergence item's nodeid
    is exactly that (``modules/net::crash@CreateVpc#1``, and ``@``/``#`` are
    not allowed in ``-k``). Such an argument becomes its directory, and
    :func:`pytest_collection_modifyitems` deselects the module's other items.
    """
    selection = _Selection()
    base = config.invocation_params.dir
    given: list[Path] = []
    args: list[str] = []
    for arg in config.args:
        head, sep, parts = arg.partition("::")
        path = Path(os.path.abspath(base / head))
        given.append(path)
        near = any(p == path or p in path.parents or path in p.parents for p in paths)
        if sep and path.is_dir() and near:
            rel = os.path.relpath(path, config.rootpath).replace(os.sep, "/")
            selection.named.add(f"{rel}::{parts}")
            args.append(head)
            continue
        if near and not sep:
            selection.whole.append(path)
        args.append(arg)
    # Each PATH no argument reaches into is collected whole; one an argument
    # reaches into is not added (a nodeid under PATH must not widen to PATH).
    for path in paths:
        if not any(g == path or path in g.parents or g in path.parents for g in given):
            args.append(str(path))
            selection.whole.append(path)
    config.args[:] = args
    return selection


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the named scenarios of ``dir::scenario`` arguments."""
    selection = config.stash.get(_selection_key, None)
    if selection is None or not selection.named:
        return
    kept = [i for i in items if selection.keeps(i)]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if not selection.keeps(i)])
        items[:] = kept


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``--converge`` PATH is collected as Terraform modules, nothing else."""
    discoveries = parent.config.stash.get(_discoveries_key, None)
    if not discoveries:
        return None
    found = discoveries.get(Path(os.path.abspath(path)))
    if found is None:
        return None
    return ConvergeDirectory.from_parent(parent, path=path, discovery=found)
