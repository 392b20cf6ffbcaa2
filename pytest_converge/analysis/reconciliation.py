"""What a continuous reconciliation loop did, cycle by cycle: drift, flapping, health.

Pure: the observations of each cycle (its plan, what its apply completed, the
out-of-band calls the proxy recorded and who signed them) in, cycles, drift
events, flapping fields and defects out. No processes, no pytest.

Cycles are numbered from 1 over the loop's whole life. In cycle *n* the other
writers act first, then the loop plans (with refresh) and, unless paused,
applies. So an out-of-band change made before cycle *n* is *detected* by
cycle *n*'s plan and, when terraform reverts it, *reverted* by the apply of
the first unpaused cycle after that.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .defects import Defect
from .plan import Plan, ResourceChange, diff_values, format_value
from .stateful import STATEFUL_TYPES

#: The loop's own principal: every call signed with terraform's key.
TERRAFORM = "terraform"


@dataclass(frozen=True)
class OutOfBand:
    """One mutating call another writer made, as the proxy recorded it.

    ``at`` is wall time (epoch seconds) of the call. ``targets`` are the
    managed addresses whose identifiers (id, ARN, name, URL) the call named,
    when the writer's client told us its parameters; empty when unknown (then
    the call may have touched anything).
    """

    writer: str
    operation: str
    at: float
    cycle: int
    access_key: str | None = None
    targets: tuple[str, ...] = ()
    #: A one-off console change (``loop.console``), not a recurring writer.
    once: bool = False


@dataclass
class Observation:
    """What one cycle saw and did: the input of :func:`analyse`."""

    number: int
    paused: bool
    #: Wall time (epoch seconds) the cycle started and its duration.
    started: float
    seconds: float
    #: API calls signed by terraform in this cycle (plan and apply).
    reads: int
    writes: int
    #: The plan (None when it failed; then ``plan_error`` says why).
    plan: Plan | None
    plan_error: str | None = None
    applied: bool = False
    apply_error: str | None = None
    #: Address -> wall time its apply completed (the reverting call's answer).
    completed: dict[str, float] = field(default_factory=dict)
    out_of_band: list[OutOfBand] = field(default_factory=list)
    #: Read calls per operation (the rate-limit budget).
    read_operations: dict[str, int] = field(default_factory=dict)
    write_operations: dict[str, int] = field(default_factory=dict)
    #: Managed resource instances in state at the end of the cycle.
    resources: int = 0
    #: Types of the addresses in state, for the stateful check (address -> type).
    types: dict[str, str] = field(default_factory=dict)


@dataclass
class Cycle:
    """One cycle of the loop, as reported: ``report.cycles[i]``."""

    number: int
    seconds: float
    #: API calls the loop (terraform) made: reads and writes.
    reads: int
    writes: int
    #: Addresses the cycle's plan changes.
    changed: list[str]
    #: The plan was empty (nothing to do) and nothing failed.
    converged: bool
    paused: bool = False
    applied: bool = False
    error: str | None = None
    read_operations: dict[str, int] = field(default_factory=dict)
    write_operations: dict[str, int] = field(default_factory=dict)
    resources: int = 0

    @property
    def reads_per_resource(self) -> float:
        return round(self.reads / self.resources, 2) if self.resources else float(self.reads)


@dataclass
class DriftEvent:
    """One out-of-band change the loop observed: ``report.drift[i]``.

    ``attribute`` is None when the whole object was deleted. ``lifetime_cycles``
    counts the cycles whose plan saw the drift (detection to revert, both
    included); ``lifetime_seconds`` is wall time from the out-of-band call to
    the reverting call's completion. Until reverted, both run to the end of
    the latest cycle and ``reverted_cycle`` is None.
    """

    address: str
    attribute: str | None
    by: str | None
    detected_cycle: int
    reverted_cycle: int | None = None
    lifetime_cycles: int = 0
    lifetime_seconds: float = 0.0
    #: terraform's value (state) and the value found (refresh); None when deleted.
    expected: Any = None
    found: Any = None
    #: ``delete`` (the object is gone) or ``modify``.
    change: str = "modify"
    #: ``reverted``, ``kept`` (terraform accepted the value: the code now says
    #: so, or ignores it) or ``open``.
    outcome: str = "open"
    #: The out-of-band calls that made it (``Operation by writer``).
    calls: list[str] = field(default_factory=list)
    at: float | None = None
    reverted_at: float | None = None
    kept_cycle: int | None = None

    @property
    def label(self) -> str:
        return f"{self.address}" + (f" . {self.attribute}" if self.attribute else " (deleted)")


@dataclass
class Flapping:
    """A field two writers keep setting: ``report.flapping[i]``."""

    address: str
    attribute: str | None
    #: The values it took, in order of first appearance (terraform's first).
    values: list[Any]
    #: The writers that set it: ``terraform`` and the others, in order.
    writers: list[str]
    #: The cycles in which it flapped.
    cycles: list[int]


#: A defect and the cycles it is about (a run's report keeps those touching its cycles).
Finding = tuple[Defect, list[int]]


@dataclass
class Analysis:
    cycles: list[Cycle]
    drift: list[DriftEvent]
    flapping: list[Flapping]
    defects: list[Defect]


# -- drift in one plan ----------------------------------------------------------------------


@dataclass(frozen=True)
class Drifted:
    """One attribute (or a whole object) refresh found changed outside terraform."""

    address: str
    attribute: str | None
    expected: Any
    found: Any
    change: str


def drifted(plan: Plan | None) -> list[Drifted]:
    """The drift in a plan, one entry per attribute (``tags.env``) or deleted object.

    ``tags_all`` mirrors ``tags``: its entries are dropped where the same key
    drifted in ``tags``. Null/empty differences are refresh noise, not drift.
    """
    if plan is None:
        return []
    found: list[Drifted] = []
    for rc in plan.drift:
        if rc.mode != "managed":
            continue
        if rc.action == "delete" or rc.after is None:
            found.append(Drifted(rc.address, None, rc.before, None, "delete"))
            continue
        paths = [
            (path, before, after)
            for path, before, after in diff_values(rc.before, rc.after)
            if _meaningful(before) or _meaningful(after)
        ]
        tagged = {p.partition(".")[2] for p, _, _ in paths if p.startswith("tags.")}
        for path, before, after in paths:
            if path == "tags_all" and any(
                p == "tags" or p.startswith("tags.") for p, _, _ in paths
            ):
                continue
            if path.startswith("tags_all.") and path.partition(".")[2] in tagged:
                continue
            found.append(Drifted(rc.address, path or None, before, after, "modify"))
    return found


def _meaningful(value: Any) -> bool:
    return value not in (None, "", {}, [])


# -- the analysis ---------------------------------------------------------------------------


def analyse(
    observations: Sequence[Observation],
    *,
    alert: int = 3,
    module: str = "",
    scenario: str = "loop",
    since: int = 1,
    stateful: Collection[str] = STATEFUL_TYPES,
) -> Analysis:
    """Cycles, drift events, flapping fields and defects of a loop's life.

    Only findings that touch cycles ``>= since`` are returned (one run's
    report); the events are still tracked from the first cycle on.
    """
    events = track_drift(observations)
    flapping = find_flapping(events)
    findings: list[Finding] = [
        *flapping_defects(flapping, module, scenario),
        *not_converging(observations, events, alert, module, scenario),
        *destructive_corrections(observations, events, module, scenario, stateful),
        *unnoticed_console_changes(observations, events, module, scenario),
    ]
    last = observations[-1].number if observations else 0
    return Analysis(
        cycles=[to_cycle(o) for o in observations if o.number >= since],
        drift=[e for e in events if (e.reverted_cycle or last) >= since],
        flapping=[f for f in flapping if max(f.cycles) >= since],
        defects=[d for d, cycles in findings if not cycles or max(cycles) >= since],
    )


def to_cycle(o: Observation) -> Cycle:
    return Cycle(
        number=o.number,
        seconds=round(o.seconds, 3),
        reads=o.reads,
        writes=o.writes,
        changed=sorted({rc.address for rc in o.plan.changes}) if o.plan else [],
        converged=o.plan is not None
        and o.plan.is_empty
        and o.plan_error is None
        and o.apply_error is None,
        paused=o.paused,
        applied=o.applied,
        error=o.plan_error or o.apply_error,
        read_operations=dict(o.read_operations),
        write_operations=dict(o.write_operations),
        resources=o.resources,
    )


def track_drift(observations: Sequence[Observation]) -> list[DriftEvent]:
    """Follow each out-of-band change from the cycle that saw it to the one that reverted it."""
    events: list[DriftEvent] = []
    open_: dict[tuple[str, str | None], DriftEvent] = {}
    #: The last cycle after which each address was known to match terraform's state.
    clean: dict[str, int] = {}
    previous: Observation | None = None
    for o in observations:
        seen = drifted(o.plan)
        seen_keys = {(d.address, d.attribute) for d in seen}
        for d in seen:
            key = (d.address, d.attribute)
            if key in open_:
                open_[key].found = d.found
                continue
            window = [
                c
                for c in _calls_until(observations, o.number)
                if clean.get(d.address, 0) < c.cycle <= o.number
                and (not c.targets or d.address in c.targets)
            ]
            writers = _unique(c.writer for c in window)
            if not writers and previous is not None and previous.applied:
                # Nobody else wrote: the read-back of terraform's own last apply (a
                # queue's policy set by another resource), not an out-of-band change.
                continue
            event = DriftEvent(
                address=d.address,
                attribute=d.attribute,
                by=", ".join(writers) or None,
                detected_cycle=o.number,
                expected=d.expected,
                found=d.found,
                change=d.change,
                calls=[f"{c.operation} by {c.writer}" for c in window],
                at=min((c.at for c in window), default=None),
            )
            events.append(event)
            open_[key] = event
        drifted_addresses = {a for a, _ in seen_keys}
        for address in {e.address for e in events}:
            if address not in drifted_addresses:
                clean[address] = o.number
        # Reverts and keeps: the apply of this cycle.
        if o.applied and o.plan is not None:
            changed = {rc.address for rc in o.plan.changes}
            for key, event in list(open_.items()):
                if event.address in o.completed and event.address in changed:
                    event.reverted_cycle = o.number
                    event.reverted_at = o.completed[event.address]
                    event.outcome = "reverted"
                    clean[event.address] = o.number
                    del open_[key]
                elif key in seen_keys and event.address not in changed and o.apply_error is None:
                    # Applied with no change to it: terraform took the value into state.
                    event.outcome = "kept"
                    event.kept_cycle = o.number
                    clean[event.address] = o.number
                    del open_[key]
        for key, event in list(open_.items()):
            if key not in seen_keys and event.detected_cycle < o.number:
                # Gone without a revert of ours: someone put it back.
                event.outcome = "kept"
                event.kept_cycle = o.number
                del open_[key]
        previous = o
    end = observations[-1] if observations else None
    for e in events:
        last = e.reverted_cycle or e.kept_cycle or (end.number if end else e.detected_cycle)
        e.lifetime_cycles = last - e.detected_cycle + 1
        if e.reverted_at is not None and e.at is not None:
            e.lifetime_seconds = round(max(e.reverted_at - e.at, 0.0), 3)
        elif e.at is not None and end is not None:
            e.lifetime_seconds = round(max(end.started + end.seconds - e.at, 0.0), 3)
    return events


def _calls_until(observations: Sequence[Observation], number: int) -> list[OutOfBand]:
    return [c for o in observations if o.number <= number for c in o.out_of_band]


def _unique(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def find_flapping(events: Sequence[DriftEvent]) -> list[Flapping]:
    """Fields set by another writer again after terraform reverted them: two owners."""
    by_field: dict[tuple[str, str | None], list[DriftEvent]] = {}
    for e in events:
        if e.by:
            by_field.setdefault((e.address, e.attribute), []).append(e)
    found = []
    for (address, attribute), group in by_field.items():
        if len(group) < 2 or group[0].reverted_cycle is None:
            continue
        values: list[Any] = []
        for e in group:
            for value in (e.expected, e.found) if e.change == "modify" else ("present", "absent"):
                if value not in values:
                    values.append(value)
        writers = [TERRAFORM, *_unique(w for e in group for w in (e.by or "").split(", ") if w)]
        cycles = sorted(
            {e.detected_cycle for e in group}
            | {e.reverted_cycle for e in group if e.reverted_cycle}
        )
        found.append(Flapping(address, attribute, values, writers, cycles))
    return found


def flapping_defects(flapping: Sequence[Flapping], module: str, scenario: str) -> list[Finding]:
    defects: list[Finding] = []
    for f in flapping:
        others = [w for w in f.writers if w != TERRAFORM]
        where = f"{f.address}" + (f" . {f.attribute}" if f.attribute else "")
        d = Defect(
            kind="flapping",
            address=f.address,
            attribute=f.attribute,
            declared=f.values[0] if f.values else None,
            observed=f.values[1] if len(f.values) > 1 else None,
            module=module,
            scenario=scenario,
            message=(
                f"{where} flaps between {', '.join(format_value(v) for v in f.values)}: "
                f"set by {' and '.join(f.writers)} in turn (cycles "
                f"{_span(f.cycles)}); the audit trail names {', '.join(others)}"
            ),
            why=(
                "two writers own one field: the loop reverts the other writer's value every "
                "cycle and the other writer sets it again"
            ),
            fix=(
                f"give the field one owner: if {', '.join(others)} owns it, add "
                f"`lifecycle {{ ignore_changes = [{(f.attribute or '').split('.')[0]}] }}` to "
                f"{f.address}; otherwise stop the other writer"
            ),
        )
        defects.append((d, f.cycles))
    return defects


def _span(cycles: Sequence[int]) -> str:
    if not cycles:
        return "-"
    return f"{cycles[0]}-{cycles[-1]}" if len(cycles) > 1 else str(cycles[0])


def _signature(o: Observation) -> list[str]:
    if o.plan_error or o.apply_error:
        return [f"error: {o.plan_error or o.apply_error}"]
    if o.plan is None:
        return []
    items = []
    for rc in o.plan.changes:
        attrs = ",".join(sorted(a.path for a in rc.attributes))
        items.append(f"{rc.action} {rc.address}" + (f" ({attrs})" if attrs else ""))
    items += [f"output {oc.name}" for oc in o.plan.outputs]
    return sorted(items)


def _explained(o: Observation, events: Sequence[DriftEvent]) -> bool:
    """Every change of this cycle reverts drift another writer made: not the loop's fault."""
    if o.plan_error or o.apply_error or o.plan is None or not o.plan.changes:
        return False
    drifting = {
        e.address
        for e in events
        if e.by
        and e.detected_cycle <= o.number
        and (e.reverted_cycle is None or e.reverted_cycle >= o.number)
    }
    return all(rc.address in drifting for rc in o.plan.changes)


def not_converging(
    observations: Sequence[Observation],
    events: Sequence[DriftEvent],
    alert: int,
    module: str,
    scenario: str,
) -> list[Finding]:
    """``alert`` consecutive unpaused cycles that did not converge: one defect per streak.

    Paused cycles never apply, so they break a streak; cycles whose only
    changes revert another writer's drift are flapping or drift, not this.
    """
    defects: list[Finding] = []
    streak: list[Observation] = []

    def close() -> None:
        if len(streak) >= alert:
            defects.append(_not_converging(streak, module, scenario))

    for o in observations:
        converged = o.plan is not None and o.plan.is_empty and not (o.plan_error or o.apply_error)
        if o.paused or converged or _explained(o, events):
            close()
            streak.clear()
            continue
        streak.append(o)
    close()
    return defects


def _not_converging(streak: Sequence[Observation], module: str, scenario: str) -> Finding:
    signatures = [_signature(o) for o in streak]
    common = [s for s in signatures[-1] if all(s in other for other in signatures)]
    repeats = common or signatures[-1]
    last = streak[-1]
    change: ResourceChange | None = None
    if last.plan is not None and last.plan.changes and not (last.plan_error or last.apply_error):
        change = last.plan.changes[0]
    attribute = change.attributes[0] if change and change.attributes else None
    writes = sum(o.writes for o in streak)
    numbers = [o.number for o in streak]
    d = Defect(
        kind="not-converging",
        address=change.address if change else None,
        attribute=attribute.path if attribute else None,
        declared=attribute.declared if attribute else None,
        observed=attribute.observed if attribute else None,
        module=module,
        scenario=scenario,
        message=(
            f"the loop has not converged for {len(streak)} consecutive cycles "
            f"({_span(numbers)}); every cycle: {'; '.join(repeats) or 'a change'}. "
            f"It made {writes} write call(s) over those cycles"
        ),
        why=(
            "the same change is planned (or the same error raised) on every cycle: applying it "
            "never makes the next plan empty, so a loop hammers the API forever"
        ),
        fix=(
            "make the change stick: see the permanent-diff fix for the attribute (declare the "
            "form the API returns), or fix the error; then the plan after one apply is empty"
        ),
    )
    return d, numbers


def destructive_corrections(
    observations: Sequence[Observation],
    events: Sequence[DriftEvent],
    module: str,
    scenario: str,
    stateful: Collection[str] = STATEFUL_TYPES,
) -> list[Finding]:
    """A plan that reverts drift by replacing or deleting a ``stateful`` object."""
    defects: list[Finding] = []
    reported: set[str] = set()
    for o in observations:
        if o.plan is None:
            continue
        for rc in o.plan.changes:
            if rc.action not in ("replace", "delete") or rc.type not in stateful:
                continue
            cause = next(
                (
                    e
                    for e in events
                    if e.address == rc.address
                    and e.detected_cycle <= o.number
                    and (e.reverted_cycle or o.number) >= o.number
                ),
                None,
            )
            if cause is None or rc.address in reported:
                continue
            reported.add(rc.address)
            forcing = [a.path for a in rc.attributes if a.forces_replacement]
            d = Defect(
                kind="destructive-correction",
                address=rc.address,
                attribute=(forcing or [cause.attribute or ""])[0] or None,
                declared=cause.expected,
                observed=cause.found,
                module=module,
                scenario=scenario,
                message=(
                    f"to revert {cause.label} (changed by {cause.by or 'an unknown writer'}), "
                    f"cycle {o.number}'s plan would {rc.action} {rc.address}, a {rc.type}: its "
                    "data would be lost" + (" (paused: not applied)" if o.paused else "")
                ),
                why=(
                    "the drifted attribute forces replacement; a loop applies that without "
                    "asking, destroying the data the object holds"
                ),
                fix=(
                    f"add `lifecycle {{ prevent_destroy = true }}` to {rc.address} so the loop "
                    "stops instead of destroying it, and ignore_changes for "
                    f"{', '.join(forcing) or 'the attribute'} if the out-of-band value is right"
                ),
            )
            defects.append((d, [o.number]))
    return defects


def unnoticed_console_changes(
    observations: Sequence[Observation],
    events: Sequence[DriftEvent],
    module: str,
    scenario: str,
) -> list[Finding]:
    """A console change that named a managed object, and no plan ever saw a difference."""
    # (writer, address, cycle) -> the calls of that change
    changes: dict[tuple[str, str, int], list[str]] = {}
    for o in observations:
        for call in o.out_of_band:
            if call.once:
                for address in call.targets:
                    key = (call.writer, address, call.cycle)
                    changes.setdefault(key, []).append(f"{call.operation} by {call.writer}")
    defects: list[Finding] = []
    for (writer, address, cycle), calls in changes.items():
        later = [o for o in observations if o.number >= cycle]
        seen = any(e.address == address and e.detected_cycle >= cycle for e in events) or any(
            o.plan is not None and address in {rc.address for rc in o.plan.changes} for o in later
        )
        if not seen:
            defects.append(
                unnoticed_drift(address, writer, calls, [o.number for o in later], module, scenario)
            )
    return defects


def unnoticed_drift(
    address: str,
    by: str,
    calls: Sequence[str],
    cycles: Sequence[int],
    module: str,
    scenario: str,
    change: str = "changed",
) -> Finding:
    """The defect of an out-of-band change no plan of the loop noticed."""
    d = Defect(
        kind="unnoticed-drift",
        address=address,
        module=module,
        scenario=scenario,
        message=(
            f"{address} was {change} out of band by {by} ({', '.join(calls) or 'no call seen'}) "
            f"and the loop's plans in cycle(s) {_span(list(cycles))} proposed nothing for it: "
            "the estate stays wrong for good"
        ),
        why=(
            "the provider's Read of this resource does not see the change (it ignores the "
            "object being gone, or never reads the attribute back), so refresh keeps the old "
            "state and the plan is empty"
        ),
        fix=(
            "do not rely on a reconciliation loop for this resource: monitor it separately, "
            "use a resource/provider version whose Read detects it, or replace it on a trigger"
        ),
    )
    return d, list(cycles)
