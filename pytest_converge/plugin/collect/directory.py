"""The collector of zero-code mode: a directory under a ``--converge`` PATH yields
the items of its root module (:mod:`.items`, :mod:`.upgrade_items`), then the directories
beneath it that hold root modules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pytest

from ...errors import UnsupportedServiceError
from ...terraform.tfvars import missing_variables
from ..options import settings
from ..session import get_session, module_id
from .discovery import Discovery
from .items import ConvergeItem
from .points import drift_targets, fault_points
from .upgrade_items import upgrade_items


class ConvergeDirectory(pytest.Directory):
    """A directory under a ``--converge`` PATH: its own items if it is a root module,
    then the directories beneath it that hold root modules."""

    discovery: Discovery

    @classmethod
    def from_parent(  # type: ignore[override]
        cls, parent: pytest.Collector, *, path: Path, discovery: Discovery
    ) -> ConvergeDirectory:
        node = super().from_parent(parent=parent, path=path)
        node.discovery = discovery
        return node

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        if self.path in self.discovery.roots:
            yield from self._module_items()
        for entry in sorted(self.path.iterdir()):
            if not entry.is_dir() or not self.discovery.holds(entry):
                continue
            # --ignore, --ignore-glob, a conftest's collect_ignore, norecursedirs: as in
            # pytest's own walk of a directory.
            if self.ihook.pytest_ignore_collect(collection_path=entry, config=self.config):
                continue
            yield ConvergeDirectory.from_parent(self, path=entry, discovery=self.discovery)

    def _module_items(self) -> Iterator[pytest.Item]:
        missing = missing_variables(self.path)
        if missing:
            raise self.CollectError(
                f"{self._rel()} needs values for variable(s) {', '.join(missing)}: they have "
                "no default and no .tfvars file beside the module sets them. Put them in "
                f'{self._rel()}/converge.tfvars (HCL, e.g. `{missing[0]} = "..."`) or '
                "converge.tfvars.json; terraform.tfvars and *.auto.tfvars are read too."
            )
        mid = module_id(self.config, self.path, self.discovery.path)
        try:  # one clear error (or a skip) before anything is applied
            get_session(self.config).check_served(self.path)
        except UnsupportedServiceError as exc:
            raise self.CollectError(str(exc).replace(self.path.name, mid, 1)) from None
        get_session(self.config).modules.add(mid)
        get_session(self.config).warm_for(self.path)
        yield ConvergeItem.from_parent(self, name="two-run", scenario="two-run")
        drift = settings(self.config).drift
        if drift:
            yield from self._drift_items(drift)

        yield from upgrade_items(self)
        kinds = settings(self.config).faults
        if not kinds:
            return
        found = fault_points(self.config, self.path)
        if found.error is not None:
            yield self._not_recorded("fault-points", found.error)
            return
        for kind in kinds:
            for point in found.points:
                label = f"{kind}@{point}"
                yield ConvergeItem.from_parent(self, name=label, scenario=label)

    def _drift_items(self, kinds: Sequence[str]) -> Iterator[ConvergeItem]:
        found = drift_targets(self.config, self.path)
        if found.error is not None:
            yield self._not_recorded("drift-targets", found.error)
            return
        for kind in kinds:
            for address, _type, taggable in found.targets:
                if kind == "modify" and not taggable:
                    continue  # nothing this plugin can change out of band in general
                label = f"drift-{kind}@{address}"
                yield ConvergeItem.from_parent(self, name=label, scenario=label)

    def _not_recorded(self, what: str, error: str) -> ConvergeItem:
        """The item that fails saying why the clean apply recording ``what`` failed."""
        return ConvergeItem.from_parent(self, name=what, scenario=what, error=error)

    def _rel(self) -> str:
        return self.nodeid or "."
