"""What the backend serves of a Stack's module: the untested part, and what the runs target.

A Stack holds one :class:`ServedPart` as ``stack.served``. It starts from what the
backend is known not to serve before any apply (its ``preflight``), learns from
each failed apply the resources the backend cannot serve (``untested``:
``{address: "service:Operation"}``) and what waits on them, and from then on every
run targets what a clean apply made beside them::

    if stack.served.learn(result):          # a failed apply showed a new gap
        ...                                 # the next runs target stack.served.targets()
    stack.served.findings(scenario)         # the untested warning, once per scenario
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..analysis.state import state_resources
from ..analysis.untested import Graph, unreached, untested_defects
from ..emulator.moto_source import implements
from ..errors import TerraformError
from ..terraform.runner import read_json

if TYPE_CHECKING:
    from ..analysis.defects import Defect
    from ..analysis.preflight import Preflight
    from ..emulator.base import Emulator
    from ..terraform.workspace import Workspace
    from .protocol import RunSettings
    from .results import ApplyResult


class Learner(Protocol):
    """What the served part uses of its Stack: its backend and workspace (its state, and
    the runner of its commands)."""

    @property
    def settings(self) -> RunSettings: ...
    @property
    def emulator(self) -> Emulator: ...
    @property
    def workspace(self) -> Workspace: ...
    @property
    def progress(self) -> Callable[[str], None]: ...


class ServedPart:
    """The part of a module its backend serves, and the untested rest, as the runs learn it."""

    def __init__(self, stack: Learner, preflight: Preflight) -> None:
        self._stack = stack
        #: What the backend is known not to serve of the module, before any apply (the
        #: runs confirm it: :attr:`untested` is what they found).
        self.preflight = preflight
        #: What this backend cannot serve of the module, learned from its applies
        #: (``{address: "service:Operation"}``), and the resources a clean apply made
        #: beside them: every later run targets those (:meth:`targets`).
        self.untested: dict[str, str] = {}
        self._servable: list[str] = []
        #: The resources that waited on an untested one (never reached), as first seen.
        self._waiting: list[str] = []
        #: This scenario's runs have told the untested part already (:meth:`findings`).
        self._told = False

    def start(self) -> None:
        """A scenario starts: its runs tell the untested part again."""
        self._told = False

    def targets(self) -> list[str]:
        """``-target`` for a run of a module with an untested part: what a clean apply made
        beside it (nothing to add when the backend serves the whole module)."""
        return list(self._servable) if self.untested else []

    def retry(self, result: ApplyResult, targets: Sequence[str]) -> bool:
        """Learn what ``result`` left untested; True when the apply stopped before any
        resource (a read failed at plan time) and the part the backend serves is now
        known, so the apply runs again on that part."""
        learned = result.untested and result.servable_ok and self.learn(result)
        return bool(learned and not targets and not _applied_any(result) and self._servable)

    def learn(self, result: ApplyResult) -> bool:
        """Keep what ``result`` showed this backend cannot serve, and what can be applied
        beside it (what the apply made; terraform's graph when a read at plan time
        stopped it before anything was made): later runs target only that."""
        new = {a: op for a, op in result.untested.items() if a not in self.untested}
        if not new:
            return False
        self.untested.update(new)
        stack = self._stack
        made = managed_in_state(stack.workspace.workdir)
        if made:
            self._waiting = unreached(result.events, made, self.untested)
            self._servable = [a for a in made if a not in self.untested]
        else:
            graph = Graph.from_dot(stack.workspace.terraform("graph", check=True).stdout)
            self._waiting = graph.waiting_on(self.untested)
            self._servable = graph.servable(self.untested)
        waiting = f"; {len(self._waiting)} resource(s) wait on it" if self._waiting else ""
        stack.progress(
            f"{stack.settings.name}: the {stack.emulator.name} emulator cannot serve "
            + ", ".join(f"{a} ({op})" for a, op in new.items())
            + f"{waiting}: left out, the rest is applied and judged"
        )
        return True

    def explains(self, error: BaseException) -> bool:
        """``error`` names only resources this backend cannot serve (a data source read at
        plan time, say): the untested part failed, nothing of the module did."""
        diagnostics = error.diagnostics if isinstance(error, TerraformError) else []
        named = [d.address for d in diagnostics if d.address is not None]
        return bool(named) and all(a in self.untested for a in named)

    def findings(self, scenario: str) -> list[Defect]:
        """The ``untested`` warning of the part the backend cannot serve, once per scenario
        (none when it serves the whole module)."""
        if not self.untested or self._told:
            return []
        self._told = True
        stack = self._stack
        return untested_defects(
            self.untested,
            self._waiting,
            stack.emulator.name,
            module=stack.settings.name,
            scenario=scenario,
            predicted=self.preflight.addresses,
            failing={op for op in self.untested.values() if self._has_code_for(op)},
        )

    def _has_code_for(self, operation: str) -> bool:
        """The emulator has code for ``operation`` (``svc:Op``): its error page was it
        failing on the request (moto's dispatch tells; other backends cannot)."""
        service, _, name = operation.partition(":")
        return self._stack.emulator.name == "moto" and implements(service, name) is True


def managed_in_state(workdir: Path) -> list[str]:
    """The managed resources the state file in ``workdir`` holds, by address."""
    state = state_resources(read_json(workdir / "terraform.tfstate"))
    return [r.address for r in state if r.is_managed]


def _applied_any(result: ApplyResult) -> bool:
    """Terraform started applying some managed resource (it did not stop at the plan;
    a data source's read at plan time is an ``apply_start`` too)."""
    return any(
        e.get("type") == "apply_start"
        and (e.get("hook") or {}).get("action") != "read"
        and not str(((e.get("hook") or {}).get("resource") or {}).get("addr", "")).startswith(
            "data."
        )
        for e in result.events
    )
