"""The Stack as its runners see it: the steps it tells, and the interface they drive.

The scenario runner (:mod:`.scenario`), the continuous loop (:mod:`.loop`),
upgrades (:mod:`.upgrade`) and zero-code collection (:mod:`pytest_converge.plugin.collect`) drive a
:class:`~pytest_converge.run.stack.Stack` only through :class:`ScenarioStack`, a
``Protocol`` that mypy checks the Stack against wherever one is handed to them.
What a Stack is doing is data, a :class:`Step`, told to ``Stack.on_step``
(the live status line reads it) and logged as text::

    stack.step(Step.FAULTED_APPLY, "crash@CreateVpc#1@aws_vpc.main")
    # log: "mods/net: faulted apply: crash@CreateVpc#1@aws_vpc.main"

The plain values a Stack's runs are made with (its name in reports, the
reproduce line, replay, parallelism, the loop's alert...) are one frozen
:class:`RunSettings`, ``stack.settings``: a runner reads them there and
never changes them.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..analysis.stalls import STALL_LIMITS, StallLimits

if TYPE_CHECKING:
    from ..analysis.defects import Defect
    from ..analysis.plan import Plan
    from ..analysis.world_check import World
    from ..emulator.base import Emulator
    from ..faults import Fault, Proxy
    from ..faults.locate import CleanApply
    from ..terraform.workspace import Workspace
    from .results import ApplyResult, Observations
    from .served_part import ServedPart
    from .touched import Touched
    from .watch import StallWatch
    from .worlds import CleanWorlds


class Step(str, enum.Enum):
    """What a Stack is doing now; its value is how the status line names it."""

    #: The Stack is being made (workspace, provider); a test's own first apply ends it.
    INIT = "init"
    #: An apply with no fault (a test's, the two-run's first).
    APPLY = "apply"
    #: A clean apply recorded to compare recovered worlds with (or for fault points).
    CLEAN_APPLY = "clean apply"
    #: The apply through the scenario's fault(s).
    FAULTED_APPLY = "faulted apply"
    #: The clean re-run after the faulted apply.
    RERUN = "re-run"
    SECOND_PLAN = "second plan"
    #: The second plan had changes: apply them once more and plan a third time.
    THIRD_PLAN = "third plan"
    INVENTORY = "inventory"
    WORLD_CHECK = "world check"
    #: A scenario that found defects runs once more (a differing outcome is flaky).
    REPLAY = "replay"
    #: Findings re-checked on a second emulator (``--converge-confirm-with``).
    CONFIRM = "confirming on the second emulator"
    #: An upgrade: the released revision's apply, then the upgrade's plan and apply.
    OLD_REVISION_APPLY = "old revision apply"
    UPGRADE_PLAN = "upgrade plan"
    UPGRADE_APPLY = "upgrade apply"
    #: A cycle of the continuous loop (writers act, plan, apply).
    LOOP_CYCLE = "loop cycle"


@dataclasses.dataclass(frozen=True)
class RunSettings:
    """How a Stack's runs are made and told: plain values, fixed when the Stack is made.

    A Stack holds one as ``stack.settings``. A setting that must differ for one
    Stack (a test's stall limits, the fixture's ``on_loop``) is a new object::

        stack.settings = dataclasses.replace(stack.settings, stall_limits=StallLimits(3, 8.0))
    """

    #: The module's name in every report: its path relative to the rootdir when made
    #: by the fixture or ``--converge`` (the base name otherwise).
    name: str
    #: The command that reproduces the test; every defect without one gets it.
    reproduce: str = ""
    #: A scenario that found defects runs once more (``--converge-replay``).
    replay: bool = True
    #: ``-parallelism`` of every run (None: an apply no fault is armed in runs with
    #: ``stack.APPLY_PARALLELISM``, a faulted one with 1, the rest with terraform's).
    parallelism: int | None = None
    #: Seconds a terraform command may take, by command (``--converge-timeout``).
    timeouts: Mapping[str, float] | None = None
    #: Findings a known emulator gap explains stay errors (``--converge-strict``).
    strict: bool = False
    #: When a run is stuck on one call and stopped (see :mod:`..analysis.stalls`).
    stall_limits: StallLimits = STALL_LIMITS
    #: Cycles a loop may go without converging before it is a defect (``--converge-loop-alert``).
    loop_alert: int = 3
    #: Called with each loop's JSON record (the fixture and zero-code items report it).
    on_loop: Callable[[dict[str, Any]], None] | None = None
    #: Resource types whose replacement loses data (None: the built-in list); the
    #: session sets it from the ``pytest_converge_stateful_types`` hook.
    stateful_types: frozenset[str] | None = None


class ScenarioStack(Protocol):
    """What the runners use of a Stack (see the module docstring); nothing else of it.

    Settings and places are read-only here; a runner changes a Stack only through
    these methods.
    """

    @property
    def settings(self) -> RunSettings:
        """The plain values its runs are made with (name, reproduce line, replay...)."""

    @property
    def ran_with(self) -> str: ...
    @property
    def workspace(self) -> Workspace:
        """Its copy of the module: places, variables, state, and its terraform commands
        (``workspace.terraform(...)``, ``workspace.applied``, ``workspace.adopt_state``,
        ``workspace.runner_for`` another workspace; :class:`..terraform.workspace.Workspace`)."""

    @property
    def emulator(self) -> Emulator: ...
    @property
    def proxy(self) -> Proxy: ...

    # -- what it is doing ----------------------------------------------------------
    def step(self, step: Step, detail: str = "") -> None: ...

    # -- runs ---------------------------------------------------------------------
    def apply(
        self,
        faults: Sequence[Fault] | Fault | None = None,
        *,
        refresh: bool = True,
        targets: Sequence[str] = (),
        clean: CleanApply | None = None,
    ) -> ApplyResult: ...
    def apply_for_points(self) -> ApplyResult: ...
    def plan(self) -> Plan: ...
    def fresh_start(self) -> None: ...
    def check_emulator(self) -> None: ...
    @property
    def watch(self) -> StallWatch:
        """The stall watch of its commands (:mod:`.watch`)."""

    def cut_since_start(self) -> list[str]: ...
    @property
    def served(self) -> ServedPart:
        """What the backend serves of the module, and the untested rest (:mod:`.served_part`)."""

    # -- observations -----------------------------------------------------------
    @property
    def touched(self) -> Touched:
        """The regions and services its runs touched, and their inventory (:mod:`.touched`)."""

    @property
    def seeded(self) -> bool:
        """Its runs start from objects a ``pytest_converge_world`` hook made, not from an
        empty emulator (the baseline inventory then lists every service)."""

    def second_plan_defects(self, scenario: str, cut: Collection[str] = ()) -> list[Defect]: ...
    def take_run_findings(self, scenario: str) -> list[Defect]: ...
    @property
    def worlds(self) -> CleanWorlds:
        """The clean worlds a recovery is checked against (:mod:`.worlds`)."""

    def world_defects(
        self,
        clean: World | None,
        fault: str | None,
        second: ApplyResult | None,
        scenario: str,
        inventoried: Collection[str] = (),
    ) -> list[Defect]: ...

    def observations(self) -> Observations:
        """What the run just made observed (its last plan and apply), to judge it by."""

    # -- results ------------------------------------------------------------------
    def finish(
        self, defects: list[Defect], observed: Observations | None = None
    ) -> list[Defect]: ...
    def seen(self, defects: list[Defect]) -> None: ...
