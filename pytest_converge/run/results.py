"""What the runs of a Stack return: apply results and the reports that hold defects.

    ApplyResult        one ``terraform apply`` (Stack.apply)
    Observations       what one run observed, handed to what judges it (Stack.finish)
    DefectReport       errors / ok / duplicates / raise_for_defects of a report with defects
    ├── RecoveryReport one fault scenario (Stack.recover, zero-code fault items)
    ├── UpgradeReport  one upgrade (Stack.upgrade_from, zero-code upgrade items)
    └── LoopReport     a continuous loop's cycles (Stack.loop().run, drift items)

Plain records: the scenario runner (:mod:`.scenario`), the Stack, the loop and
the upgrade fill them; the public names are re-exported from the modules
users import them from (``pytest_converge``, ``.stack``, ``.upgrade``, ``.loop``).
"""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar, TypeVar

from ..analysis.defects import Defect, WatchedList
from ..analysis.plan import Plan, format_value
from ..analysis.reconciliation import Cycle, DriftEvent, Flapping
from ..analysis.untested import errored_addresses
from ..analysis.upgrade_check import MovedHint, UpgradeAction
from ..errors import FaultError, TerraformError, TerraformStalled
from ..faults import Call, Fault, parse_fault
from ..inventory import CloudObject
from ..report import convergence_error, jsonable

#: Default of ``--converge-loop-alert``: cycles without converging before it is a defect.
DEFAULT_ALERT = 3

_Report = TypeVar("_Report", bound="DefectReport")


class DefectReport:
    """``errors``, ``ok`` and ``raise_for_defects`` of a report that holds ``defects``.

    The base of ``RecoveryReport``, ``UpgradeReport`` and ``LoopReport``: each
    is a dataclass with a ``defects`` field and says its failure header in
    :meth:`_failure_header` (and any text after the defects in
    :meth:`_failure_detail`).
    """

    defects: list[Defect]
    #: Told which defects were raised (by :meth:`raise_for_defects`).
    on_raise: Callable[[list[Defect]], None] | None = None
    #: The attributes that show what the report found: reading one of them after
    #: :meth:`watch` is looking at the defects (a subclass adds its own lists).
    _findings: ClassVar[tuple[str, ...]] = ("defects",)

    def watch(self: _Report, on_seen: Callable[[list[Defect]], None]) -> _Report:
        """Tell ``on_seen`` the report's defects whenever the caller reads what it found.

        Called when the report is handed to a test: reading ``defects``,
        ``errors``, ``ok``, ``duplicates``, ... (or a subclass's own lists of
        findings), or :meth:`raise_for_defects`, counts as having looked at the
        defects; reads before this call (the plugin's own) do not.
        """

        def seen() -> None:
            on_seen(list.copy(self.defects))  # list.copy: not itself a watched read

        for name in self._findings:
            items = getattr(self, name)
            if isinstance(items, WatchedList):
                items = list.copy(items)
            setattr(self, name, WatchedList(items, seen))
        return self

    @property
    def errors(self) -> list[Defect]:
        """The error-level defects (warnings left out): what makes the report fail."""
        return [d for d in self.defects if d.is_error]

    @property
    def ok(self) -> bool:
        """True when no defect is an error (warnings allowed)."""
        return not self.errors

    @property
    def duplicates(self) -> list[Defect]:
        """The ``duplicate`` defects: objects created twice, one of them not in state."""
        return [d for d in self.defects if d.kind == "duplicate"]

    @property
    def orphans(self) -> list[Defect]:
        """The ``orphan`` defects: objects created, in no state, matching nothing."""
        return [d for d in self.defects if d.kind == "orphan"]

    def raise_for_defects(self: _Report) -> _Report:
        """Raise :class:`ConvergenceError` listing every defect if any is an error; else ``self``.

        >>> stack.recover(LostResponse("CreateVpc")).raise_for_defects()   # doctest: +SKIP
        """
        if self.errors:
            if self.on_raise is not None:
                self.on_raise(self.defects)
            raise convergence_error(self.defects, self._failure_header(), self._failure_detail())
        return self

    def _failure_header(self) -> str:
        """The line above the defects in the error's message."""
        raise NotImplementedError

    def _failure_detail(self) -> str:
        """Text after the defects in the error's message (none by default)."""
        return ""


@dataclass(frozen=True)
class Observations:
    """What one run of a Stack observed, for what judges its findings (:meth:`Stack.finish`).

    Taken when the run ends (:meth:`Stack.observations`) and passed along with its
    findings, so a run made in between (``matrix.decide``'s run without faults) is
    never taken for it.
    """

    #: The run's last plan (its second or third): its configuration, what it replaces.
    plan: Plan | None = None
    #: The run's last apply: the calls it made (the evidence of a suspected gap).
    applied: ApplyResult | None = None


@dataclass
class ApplyResult:
    """What one ``terraform apply`` did."""

    ok: bool
    error: TerraformError | None
    seconds: float
    calls: list[Call] = field(default_factory=list)
    #: Faults armed for this run that fired / never fired.
    fired: list[Fault] = field(default_factory=list)
    unfired: list[Fault] = field(default_factory=list)
    #: Addresses whose apply started and never completed (a crash leaves these), each
    #: with its action (``aws_vpc.main (create)``); the bare addresses in ``in_flight``.
    pending: list[str] = field(default_factory=list)
    in_flight: list[str] = field(default_factory=list)
    signalled: int | None = None
    #: ``egress`` defects: connections beyond the emulator this run tried (all refused).
    egress: list[Defect] = field(default_factory=list)
    #: The ``stalled`` finding when pytest-converge stopped the apply (one call repeated
    #: against the same answer: an emulator gap); empty otherwise.
    stalled: list[Defect] = field(default_factory=list)
    #: Terraform's ``-json`` events of this apply (apply_start/apply_complete, ...).
    events: list[dict[str, Any]] = field(default_factory=list, repr=False)
    #: ``time.time() - time.monotonic()`` during the apply: turns a call's
    #: ``started`` into the epoch seconds terraform's events are stamped with.
    clock_offset: float = 0.0
    #: The resources that failed on an operation the backend does not implement:
    #: ``{address: "service:Operation"}`` (:mod:`..analysis.untested`).
    untested: dict[str, str] = field(default_factory=dict)

    @property
    def servable_ok(self) -> bool:
        """The apply did all the backend can serve: it succeeded, or failed only on
        resources the backend cannot serve (left out, see :attr:`untested`). Not an
        apply a fault killed (a crash, an interrupt): what it had not made yet it was
        never given the time to make."""
        if self.ok:
            return True
        if not self.untested or self.cut or self.error is None or self.signalled is not None:
            return False
        unnamed = any(
            e.get("type") == "diagnostic"
            and (e.get("diagnostic") or {}).get("severity") == "error"
            and not (e.get("diagnostic") or {}).get("address")
            for e in self.events
        )
        return not unnamed and set(errored_addresses(self.events)) <= set(self.untested)

    @property
    def cut(self) -> bool:
        """pytest-converge stopped this apply, stuck on one call (a ``stalled`` or a
        retried ``egress`` finding says where): what it finished can still be checked."""
        return isinstance(self.error, TerraformStalled)

    def raise_for_error(self) -> ApplyResult:
        """Raise the apply's :class:`TerraformError` if it failed; else return ``self``.

        When the failure came from a refused connection beyond the emulator, a
        :class:`ConvergenceError` naming the host is raised instead.

        >>> stack.apply().raise_for_error()          # doctest: +SKIP
        """
        if self.error is not None:
            if self.egress:
                raise convergence_error(
                    self.egress + self.stalled, header="the apply tried to leave this machine:"
                ) from self.error
            if self.stalled:
                raise convergence_error(
                    self.stalled, header="the apply was stopped, stuck on one call:"
                ) from self.error
            raise self.error
        return self


@dataclass
class RecoveryReport(DefectReport):
    """The outcome of one fault scenario (see :meth:`Stack.recover`)."""

    module: str
    scenario: str
    defects: list[Defect]
    first: ApplyResult
    second: ApplyResult | None
    plan: Plan | None
    seconds: float
    created: list[CloudObject] = field(default_factory=list)
    #: The replay gave a different outcome: the scenario is not reproducible.
    flaky: bool = False
    #: The defects of the replay (empty when there was none).
    replayed: list[Defect] = field(default_factory=list)
    #: Resource types the scenario created that no inventory lister covers.
    unverified_types: list[str] = field(default_factory=list)
    #: The regions whose objects the inventory listed.
    regions: list[str] = field(default_factory=list)
    #: The resource whose apply the fault hit (None if not known), and the replay's.
    #: ``Op#n`` counts calls in the order terraform makes them, and terraform orders
    #: independent resources freely: two runs can hit two resources.
    hit: str | None = None
    replay_hit: str | None = None
    _findings: ClassVar[tuple[str, ...]] = ("defects", "replayed")
    #: The engine and provider versions the runs used (``terraform 1.11.4, hashicorp/aws 5.100.0``).
    ran_with: str = ""

    def _failure_header(self) -> str:
        if self.flaky:
            return (
                f"{self.module} under {self.scenario} is FLAKY: a replay gave "
                f"{described(self.replayed) or 'no defects'} instead of "
                f"{described(self.defects)}.{self._flaky_cause()} First run:"
            )
        where = f" (it hit {self.hit})" if self.hit else ""
        engine = f" [{self.ran_with}]" if self.ran_with else ""
        return f"{self.module} does not recover from {self.scenario}{where}{engine}:"

    def _flaky_cause(self) -> str:
        """Why the replay differed, as far as the two runs tell."""
        if not (self.hit and self.replay_hit):
            return ""
        if self.hit != self.replay_hit:
            pin = ""
            with contextlib.suppress(FaultError):
                pinned = replace(parse_fault(self.scenario), address=self.hit)
                pin = f"; pin it to one: {pinned.label}"
            return (
                f" The fault hit {self.hit}, then {self.replay_hit}: terraform orders "
                "independent resources freely, so the n-th call of an operation is "
                f"not always the same resource's{pin}."
            )
        first, again = error_names(self.defects), error_names(self.replayed)
        only = [
            f"only the {run} found {', '.join(sorted(found))}"
            for run, found in (("first run", first - again), ("replay", again - first))
            if found
        ]
        return (
            f" The fault hit {self.hit} both times, so the difference is not which resource "
            f"it hit but what the module does: {'; '.join(only)}."
        )


@dataclass
class UpgradeReport(DefectReport):
    """The outcome of :meth:`Stack.upgrade_from`."""

    module: str
    scenario: str
    defects: list[Defect]
    #: The old revision's apply (always succeeded: a failure raises).
    old: ApplyResult
    #: The upgrade plan: the current revision over the old one's state.
    plan: Plan
    actions: list[UpgradeAction]
    moved: list[MovedHint]
    #: The upgrade apply (through the fault, when one was given).
    first: ApplyResult
    #: The clean re-apply after a fault (None without a fault).
    second: ApplyResult | None
    seconds: float
    created: list[CloudObject] = field(default_factory=list)
    flaky: bool = False
    replayed: list[Defect] = field(default_factory=list)
    _findings: ClassVar[tuple[str, ...]] = ("defects", "replayed")
    #: Resource types the upgrade created that no inventory lister covers.
    unverified_types: list[str] = field(default_factory=list)
    #: The regions whose objects the inventory listed.
    regions: list[str] = field(default_factory=list)

    def action(self, address: str) -> str:
        """The upgrade plan's action for ``address`` (``no-op`` when it does not touch it)."""
        return next((a.action for a in self.actions if a.address == address), "no-op")

    def _failure_header(self) -> str:
        if self.flaky:
            return (
                f"{self.module} under {self.scenario} is FLAKY: a replay gave a different "
                "outcome. First run:"
            )
        return f"{self.module} does not upgrade cleanly ({self.scenario}):"


@dataclass
class LoopReport(DefectReport):
    """What a loop run did: ``cycles``, ``drift``, ``flapping`` and ``defects``."""

    module: str
    cycles: list[Cycle]
    drift: list[DriftEvent]
    flapping: list[Flapping]
    defects: list[Defect]
    alert: int = DEFAULT_ALERT
    #: Out-of-band calls per cycle (``Operation by writer``).
    out_of_band: dict[int, list[str]] = field(default_factory=dict)
    _findings: ClassVar[tuple[str, ...]] = ("defects", "drift", "flapping")

    def _failure_header(self) -> str:
        return f"{self.module} under a continuous loop:"

    def _failure_detail(self) -> str:
        return self.text()

    def median_seconds(self) -> float:
        return statistics.median(c.seconds for c in self.cycles) if self.cycles else 0.0

    def text(self) -> str:
        """Cycle by cycle, and each drift event's lifetime: the item's report text."""
        lines = []
        for e in self.drift:
            when = (
                f"reverted in cycle {e.reverted_cycle}"
                if e.reverted_cycle
                else ("kept (terraform accepted it)" if e.outcome == "kept" else "never reverted")
            )
            change = (
                "deleted"
                if e.change == "delete"
                else (f"{format_value(e.expected, 60)} -> {format_value(e.found, 60)}")
            )
            lines.append(
                f"drift {e.label} by {e.by or 'an unknown writer'} ({change}): detected in "
                f"cycle {e.detected_cycle}, {when}; lifetime {e.lifetime_cycles} cycle(s), "
                f"{e.lifetime_seconds:.2f} s"
            )
        for c in self.cycles:
            state = "converged" if c.converged else f"changed {', '.join(c.changed) or '-'}"
            if c.error:
                state = f"error: {c.error[:160]}"
            oob = self.out_of_band.get(c.number)
            lines.append(
                f"cycle {c.number}{' (paused)' if c.paused else ''}: {c.seconds:.2f} s, "
                f"loop calls {c.reads} read(s) {c.writes} write(s)"
                + (f" [{_ops(c.write_operations)}]" if c.write_operations else "")
                + f"; {state}"
                + (f"; out of band: {', '.join(oob)}" if oob else "")
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report's ``loops`` entry."""
        reads = [c.reads_per_resource for c in self.cycles]
        return jsonable(
            {
                "module": self.module,
                "alert": self.alert,
                "cycles": [
                    {**asdict(c), "reads_per_resource": c.reads_per_resource} for c in self.cycles
                ],
                "reads_per_resource_per_cycle": round(statistics.mean(reads), 2) if reads else 0,
                "median_cycle_seconds": round(self.median_seconds(), 3),
                "drift": [
                    {k: v for k, v in asdict(e).items() if k not in ("at", "reverted_at")}
                    for e in self.drift
                ],
                "flapping": [asdict(f) for f in self.flapping],
                "defects": [d.kind for d in self.defects],
            }
        )


def _ops(counts: dict[str, int]) -> str:
    return ", ".join(f"{op} x{n}" if n > 1 else op for op, n in sorted(counts.items()))


def outcome(defects: Sequence[Defect]) -> str:
    """The comparable outcome of a scenario: the kinds of its errors.

    Not their addresses: a crash leaves unrecorded everything the run created
    before it, and which independent resources that is depends on terraform's
    walk order, so a replay that fails the same way names other objects.
    """
    return ", ".join(sorted({d.kind for d in defects if d.is_error}))


def described(defects: Sequence[Defect]) -> str:
    """Errors by kind and address, for a FLAKY header."""
    return ", ".join(sorted(error_names(defects)))


def error_names(defects: Sequence[Defect]) -> set[str]:
    """``{"duplicate aws_vpc.main", ...}``: the errors by kind and address."""
    return {f"{d.kind} {d.address or ''}".strip() for d in defects if d.is_error}
