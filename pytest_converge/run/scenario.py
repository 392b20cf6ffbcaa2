"""The scenario runner: the one sequence every scenario of a Stack runs.

    prepare -> faulted run -> clean re-run -> second plan -> inventory
            -> leftovers -> the world check (wrong-fixed-point) -> coverage -> egress

Fault scenarios (:meth:`Stack.recover`, the zero-code ``<kind>@<Op>#<n>``
items) and faulted upgrades (:func:`.upgrade.upgrade_from`) run it as it is;
an upgrade's ``prepare`` applies the old revision and plans the upgrade, and
without a fault its failed apply is an ``upgrade-failed`` defect instead of a
re-run. Drift scenarios and loop cycles (:mod:`.loop`) start from
:meth:`Stack.fresh_start` and report through :meth:`Stack.finish` as these do.

    found = Scenario(stack, fault).run()          # one run, from an empty emulator
    first, again = Scenario(stack, fault).run_and_replay(replay=True)

The runner drives the Stack only through :class:`~.protocol.ScenarioStack`
(mypy checks the Stack against it), never its private members; it decides what
a run found and leaves the wording to ``analysis/``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.defects import Defect
from ..analysis.hints import recovery_failed_hints
from ..analysis.labels import fault_kind
from ..analysis.left_behind import left_behind
from ..analysis.leftovers import find_leftovers, unverified_defect, unverified_types
from ..analysis.state import StateResource, state_resources
from ..analysis.world_check import World
from ..analysis.writers import fault_addresses
from ..errors import Diagnostic, FaultError
from ..faults import Call, Fault
from ..inventory import CloudObject
from .protocol import ScenarioStack, Step
from .results import ApplyResult, Observations, outcome

#: ``prepare()`` of a scenario: runs after the baseline inventory, before the
#: faulted run; returns the defects it found (an upgrade's plan analysis).
Prepare = Callable[[], list[Defect]]
#: ``failed(first)`` of a scenario without a fault whose apply failed (an upgrade's).
Failed = Callable[[ApplyResult], Defect]


@dataclass
class Observed:
    """What one run of a scenario saw and found (before :meth:`Stack.finish`)."""

    first: ApplyResult
    second: ApplyResult | None
    defects: list[Defect]
    created: list[CloudObject] = field(default_factory=list)
    #: Created types no inventory lister covers (the ``unverified`` warning's).
    unverified: list[str] = field(default_factory=list)
    #: The regions the inventory listed.
    regions: list[str] = field(default_factory=list)
    #: What the run observed (its last plan and apply): what judges its defects reads.
    observed: Observations = field(default_factory=Observations)

    @property
    def hit(self) -> str | None:
        """The resource whose apply the fault hit (None if not known)."""
        return fault_hit(self.first)


class Scenario:
    """One scenario on ``stack``: ``fault`` through the first apply, then every check.

    ``label`` names it in defects (default: the fault's label). ``prepare``
    runs after the baseline inventory and before the faulted apply;
    ``what`` names that apply in a never-fired error (``apply_step`` is how the
    status line shows it); with no ``fault``,
    ``failed`` turns a failed apply into its defect. ``fresh=False`` keeps
    what the emulator and state hold (a later stage of a promotion).
    """

    def __init__(
        self,
        stack: ScenarioStack,
        fault: Fault | None,
        *,
        label: str = "",
        prepare: Prepare | None = None,
        failed: Failed | None = None,
        what: str = "apply",
        fresh: bool = True,
        apply_step: Step | None = None,
    ) -> None:
        if fault is None and failed is None:
            raise ValueError("a scenario without a fault needs failed= for a failed apply")
        self.stack = stack
        self.fault = fault
        self.label = label or (fault.label if fault is not None else "")
        self.prepare = prepare
        self.failed = failed
        self.what = what
        #: The step the first apply is shown as (an upgrade's is ``UPGRADE_APPLY``).
        self.apply_step = apply_step or (Step.FAULTED_APPLY if fault is not None else Step.APPLY)
        self.fresh = fresh
        #: The prepared runs' calls (an old revision's apply): coverage counts them.
        self.prepared_calls: list[Call] = []

    def hit_of(self, first: ApplyResult) -> str | None:
        """The resource the scenario's fault hit (its left-behind objects are that fault's)."""
        return fault_hit(first)

    @property
    def faulted(self) -> bool:
        """The scenario injects a fault (its recovered world is compared with a clean one)."""
        return self.fault is not None

    # -- the sequence ------------------------------------------------------------
    def run(self) -> Observed:
        """One run of the scenario (from an empty emulator and state unless ``fresh=False``)."""
        stack, label = self.stack, self.label
        # The world a clean apply makes, to compare the recovered one with (made
        # first: its clean apply empties the emulator after itself). A later stage
        # keeps the emulator's content: there is no clean world to compare with.
        clean = stack.worlds.clean() if self.fresh and self.faulted else None
        if self.fresh:
            stack.fresh_start()
        # The regions known so far; a region first seen during the scenario had
        # nothing in it before (the emulator was just emptied). An emulator that is no
        # Emulator (a test's stand-in) is not known to empty: its baseline is listed.
        # A world a hook made is listed whole: what the run adds is told from it.
        emptied = self.fresh and getattr(stack.emulator, "can_reset", False) and not stack.seeded
        baseline = stack.touched.inventory(emptied=emptied, every_service=stack.seeded)
        stack.touched.warm()
        defects = self.prepare() if self.prepare is not None else []
        first, second = self.faulted_run(defects)
        # After a wait the stall watch cut (a finding of its own), or a re-run that failed
        # on some resources (a recovery-failed each), the rest is still checked.
        failed = errored(second) if second is not None and not second.ok else []
        # A plan creates and removes nothing: the inventory is taken while it runs.
        listing = stack.touched.inventory_soon()
        if (second or first).ok or stack.cut_since_start() or failed:
            defects.extend(stack.second_plan_defects(label, cut=failed))
        stack.step(Step.INVENTORY)
        after = listing()
        created = list(after.minus(baseline))
        # The raw state file: no terraform run (and provider start) needed.
        state = state_resources(stack.workspace.read_state())
        defects.extend(self.leftovers(created, state))
        covered = after.covered | baseline.covered
        defects.extend(self.world_check(clean, second, covered))
        defects = left_behind(defects, created, self.hit_of(first))
        unverified = self.coverage(first, second, state, covered)
        if unverified:
            defects.append(
                unverified_defect(unverified, module=stack.settings.name, scenario=label)
            )
        return Observed(
            first,
            second,
            stack.take_run_findings(label) + defects,
            created,
            unverified,
            sorted(stack.touched.regions),
            stack.observations(),
        )

    def run_and_replay(self, replay: bool) -> tuple[Observed, Observed | None]:
        """:meth:`run`, and once more when it found errors and ``replay`` (else None).

        Compare the two with :func:`.results.outcome`: a replay that differs is flaky.
        """
        found = self.run()
        if not (replay and any(d.is_error for d in found.defects)):
            return found, None
        self.stack.step(Step.REPLAY, f"{self.label} found defects; running it once more")
        return found, self.run()

    # -- the steps ---------------------------------------------------------------
    def faulted_run(self, defects: list[Defect]) -> tuple[ApplyResult, ApplyResult | None]:
        """The apply through the fault and the clean re-run (None without a fault).

        Adds the ``recovery-failed`` defect of a failed re-run (or ``failed(first)``
        of a failed apply without a fault) to ``defects``.
        """
        stack, fault = self.stack, self.fault
        stack.step(self.apply_step, fault.label if fault is not None else "")
        first = stack.apply(fault)
        if fault is None:
            if first.error is not None and not first.cut and self.failed is not None:
                defects.append(self.failed(first))
            return first, None
        second, failed = rerun_clean(stack, fault, first, self.label, self.what)
        defects.extend(failed)
        return first, second

    def leftovers(self, created: list[CloudObject], state: list[StateResource]) -> list[Defect]:
        """``duplicate`` / ``orphan``: the objects created that no state accounts for."""
        return find_leftovers(
            created,
            state,
            module=self.stack.settings.name,
            scenario=self.label,
            provider_regions=self.stack.touched.provider_regions,
        )

    def world_check(
        self, clean: World | None, second: ApplyResult | None, inventoried: frozenset[str]
    ) -> list[Defect]:
        """``wrong-fixed-point``: after the clean re-run with an empty plan, what the
        emulator holds that a clean apply does not (:meth:`Stack.world_defects`;
        ``inventoried`` types already had their leftovers looked for)."""
        if clean is None:
            return []
        self.stack.step(Step.WORLD_CHECK)
        return self.stack.world_defects(clean, self.label, second, self.label, inventoried)

    def coverage(
        self,
        first: ApplyResult,
        second: ApplyResult | None,
        state: list[StateResource],
        covered: frozenset[str],
    ) -> list[str]:
        """The types the scenario created that no inventory lister covers (``unverified``).

        Only when some run of it created something (a successful mutating call).
        """
        calls = [*self.prepared_calls, *first.calls, *(second.calls if second else [])]
        if not any(c.mutating and 0 < c.status < 400 for c in calls):
            return []
        return unverified_types(state, first.pending, covered)


def rerun_clean(
    stack: ScenarioStack, fault: Fault, first: ApplyResult, scenario: str, what: str = "apply"
) -> tuple[ApplyResult, list[Defect]]:
    """After ``first`` ran through ``fault``: the clean re-run, and its recovery-failed defect.

    A fault that never fired is a FaultError (the scenario did not happen),
    unless the emulator died under the run (then that is the error).
    """
    if first.unfired:
        stack.check_emulator()
        seen = sorted({c.label for c in first.calls if c.mutating})
        raise FaultError(
            f"{fault.label} never fired: the {what} made no call {fault.op}#{fault.n}. "
            f"Mutating calls seen: {', '.join(seen) or 'none'}"
        )
    stack.check_emulator()
    stack.step(Step.RERUN, f"after {fault.label}")
    second = stack.apply()
    # A re-run the stall watch cut, or one that failed on a resource a cut left half
    # made, failed on the emulator: the ``stalled`` finding tells it.
    failed_on = address_in(second.error.diagnostics) if second.error is not None else None
    # A part the backend cannot serve failing again is that part, not a failed recovery.
    stall_cut = set(stack.cut_since_start()) - set(stack.served.untested)
    done = second.ok or second.cut or second.servable_ok or failed_on in stall_cut
    failed = [] if done else recovery_failures(stack.settings.name, scenario, first, second)
    if not second.ok and done and not second.cut and first.stalled:
        first.stalled[0].message += (
            f". The clean re-run then failed on {failed_on}, which the cut left half made: "
            f"{'; '.join(d.text for d in second.error.diagnostics) if second.error else ''}"
        )
    return second, failed


def errored(result: ApplyResult) -> list[str]:
    """The resources whose apply failed in ``result`` (its ``apply_errored`` events)."""
    found = [
        (e.get("hook") or {}).get("resource", {}).get("addr")
        for e in result.events
        if e.get("type") == "apply_errored"
    ]
    return list(dict.fromkeys(a for a in found if a))


def recovery_failures(
    module: str, scenario: str, first: ApplyResult, second: ApplyResult
) -> list[Defect]:
    """The ``recovery-failed`` defects of a clean re-run that failed: one per resource its
    diagnostics name (several faults of one run can break several), else one."""
    err = second.error
    diags = err.diagnostics if err is not None else []
    by_address: dict[str, list[Diagnostic]] = {}
    for d in diags:
        if d.address is not None:
            by_address.setdefault(d.address, []).append(d)
    unnamed = [d for d in diags if d.address is None]
    if len(by_address) < 2:
        # One cause: the resource the diagnostics name, or the one the faulted run was on.
        address = address_in(diags) or (first.in_flight[0] if first.in_flight else None)
        return [recovery_failed(module, scenario, address, diags, err, replaced(second))]
    # A record naming no resource (a note "the moto emulator does not implement
    # `ec2:Op`") is the one resource's whose own diagnostic is about that operation.
    given: dict[str, list[Diagnostic]] = {}
    for d in list(unnamed):
        owners = [a for a, shown in by_address.items() if _same_call(d, shown)]
        if len(owners) == 1:
            given.setdefault(owners[0], []).append(d)
            unnamed.remove(d)
    by_address = {a: [*given.get(a, []), *shown] for a, shown in by_address.items()}
    # A diagnostic naming no resource is the one failed resource's that none names.
    silent = [a for a in errored(second) if a not in by_address]
    if unnamed and len(silent) == 1:
        by_address[silent[0]] = unnamed
        unnamed = []
    replacing = replaced(second)
    found = [
        recovery_failed(module, scenario, named, shown, err, replacing)
        for named, shown in by_address.items()
    ]
    if unnamed:  # whose it is, nothing tells: a finding of its own
        found.append(recovery_failed(module, scenario, None, unnamed, err))
    return found


def _same_call(note: Diagnostic, shown: Sequence[Diagnostic]) -> bool:
    """One of ``shown`` is about the operation ``note`` is about. Operations only: the
    SDK names a service by its id (``CloudWatch Logs``), the proxy by its signing name
    (``logs``)."""
    return note.operation is not None and any(d.operation == note.operation for d in shown)


def replaced(result: ApplyResult) -> frozenset[str]:
    """The resources ``result``'s plan replaced (its ``planned_change`` events): in state
    already, tainted by a failed create or changed in a way that forces a new one."""
    return frozenset(
        str(change["resource"]["addr"])
        for e in result.events
        if e.get("type") == "planned_change"
        and isinstance(change := e.get("change"), dict)
        and change.get("action") == "replace"
        and isinstance(change.get("resource"), dict)
        and change["resource"].get("addr")
    )


def recovery_failed(
    module: str,
    scenario: str,
    address: str | None,
    diags: Sequence[Diagnostic],
    err: BaseException | None,
    replacing: Collection[str] = (),
) -> Defect:
    """The ``recovery-failed`` defect of a clean re-run that failed on ``address``, with
    its ``diags`` (terraform's diagnostics; ``err`` where there are none); ``replacing``:
    the resources the re-run replaced (the object was in state, not left out of it)."""
    text = "; ".join(d.text for d in diags) or str(err)
    why, fix = recovery_failed_hints(
        text, address, replacing=address in replacing, kind=fault_kind(scenario)
    )
    return Defect(
        kind="recovery-failed",
        address=address,
        module=module,
        scenario=scenario,
        observed=text,
        objects=[],
        message=f"after {scenario} the clean re-run failed: {text}",
        scenario_at=len("after "),
        why=why,
        fix=fix,
    )


def fault_hit(result: ApplyResult) -> str | None:
    """The resource whose apply the armed fault fired on (see :class:`.results.RecoveryReport`)."""
    located = next((c.address for c in result.calls if c.fault and c.address), None)
    if located is not None:
        return located
    found = fault_addresses(result.calls, result.events, result.clock_offset)
    return found[0] if found else None


def points(calls: Sequence[Call]) -> list[str]:
    """The fault points of a clean apply's calls: its successful mutating ones."""
    return [c.point for c in calls if c.mutating and c.status < 400]


def address_in(diags: Sequence[Diagnostic]) -> str | None:
    """The resource address the first diagnostic naming one names (instance keys, ``[0]``,
    included), else None."""
    return next((d.address for d in diags if d.address is not None), None)


def is_flaky(found: Observed, again: Observed | None) -> bool:
    """A replay whose outcome (the kinds of its errors) differs from the first run's."""
    return again is not None and outcome(again.defects) != outcome(found.defects)


def report_fields(found: Observed, again: Observed | None) -> dict[str, Any]:
    """What every scenario report (``RecoveryReport``, ``UpgradeReport``) takes from the runs."""
    return {
        "first": found.first,
        "second": found.second,
        "created": found.created,
        "flaky": is_flaky(found, again),
        "replayed": again.defects if again is not None else [],
        "unverified_types": list(found.unverified),
        "regions": found.regions,
    }
