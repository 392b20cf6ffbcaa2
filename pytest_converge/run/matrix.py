"""A module's fault matrix in few runs: many faults in one run, a verdict per fault point.

One run per fault point repeats, for every point, an emulator reset, a faulted apply
of the whole module, a clean re-run, a second plan, an inventory and a world check.
:func:`decide` runs many points together and shares the findings out:

- **Faults that do not end terraform** (lost responses, errors, throttling) are armed
  together in one apply: each is pinned to its resource and fires on that resource's
  call.
- **Faults that end it** (crash, interrupt) run as a chain of applies in one scenario,
  one fault a link, in the order a clean apply made their calls: each link continues
  from the state the last one left (``-refresh=false``), so it is a short apply up to
  its call; the clean re-run, second plan, inventory and world check run once, after
  the last link.
- Each finding goes to the point whose resource it names
  (:func:`.analysis.attribution.attribute`; an object no state tracks, to the resource
  it resembles in a clean apply's state). A point whose fault did not fire is run
  again in a later group; points a finding cannot tell apart are run again apart; a
  group with a finding no point accounts for is split in halves, down to single
  points, which run as :class:`~.scenario.Scenario` does for one fault (adaptive group
  testing). No group of points runs twice (its points then run alone), so the runs
  end. Every verdict belongs to one point.
- **A crash later in one create shares that create's verdict** (:func:`same_create`)
  where nothing can tell the two apart. With one apply open at a time (how fault
  points are recorded and each point runs alone), a resource's create makes its calls
  in a row, and terraform records the resource only when its create ends. So a crash
  at a later call ``pk`` of the create leaves the state a crash at its first call
  ``p1`` leaves (the resource missing, everything else as it was) and the object
  ``p1`` made, changed by the calls between. When those calls only change that object
  or add parts the leftover check counts with it (verbs Modify, Update, Authorize,
  Revoke, Enable, Disable, Set, Tag, Untag; EC2's CreateTags and DeleteTags: a group's
  rules go with the group), and ``p1``'s verdict is a failed re-run on the resource
  with that object joined to it as its cause (its create collided with the object: a
  taken name) and no other error, ``pk``'s re-run plans the same, makes the same
  create, meets the same object and fails the same way before any call where the two
  objects differ: ``pk`` gets ``p1``'s verdict without a run (:attr:`Verdict.shares`).
  ``pk`` is armed in the groups as any point; only when a run did not fire it (the
  create failed first) and ``p1``'s verdict is as above does it take that verdict
  instead of a run of its own. Otherwise it runs as any other point.

    verdicts = decide(stack, [parse_fault(l) for l in labels], clean_state=state)
    verdicts["crash@CreateVpc#1@aws_vpc.main"].defects

Grouped runs are not replayed: a point's own scenario (``pytest ... "mod::<label>"``,
its reproduce line) runs it alone, replay included.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..analysis.addresses import Address
from ..analysis.attribution import Attribution, attribute, finding_key, origin_of
from ..analysis.defects import Defect
from ..analysis.gaps import resource_type
from ..analysis.labels import FaultPoint
from ..analysis.left_behind import left_behind
from ..analysis.leftovers import left_object
from ..analysis.state import StateResource
from ..errors import ConvergeError
from ..faults import Crash, Fault, Interrupt
from ..faults.locate import CleanApply
from .protocol import ScenarioStack, Step
from .results import ApplyResult, Observations
from .scenario import Observed, Scenario, errored, fault_hit, recovery_failures

if TYPE_CHECKING:
    from ..faults.proxy import Call
    from ..inventory import CloudObject

__all__ = ["Verdict", "decide", "decisions", "ends_terraform", "same_create"]

_log = logging.getLogger("pytest_converge")

#: Fault kinds that end the terraform process they fire in: one per apply.
_ENDING = (Crash, Interrupt)


def ends_terraform(fault: Fault) -> bool:
    """A crash or an interrupt: the apply stops at its call, so one fires per apply."""
    return isinstance(fault, _ENDING)


@dataclass
class Verdict:
    """One fault point's outcome, and the run that decided it."""

    label: str
    defects: list[Defect] = field(default_factory=list)
    #: Which run of this :func:`decide` decided it (1-based), its points and seconds.
    run: int = 0
    points: tuple[str, ...] = ()
    seconds: float = 0.0
    #: The resource the fault hit.
    hit: str | None = None
    #: The point could not be run (its fault never fired, even alone; the emulator died).
    error: ConvergeError | None = None
    #: The engine and providers that ran it (``terraform 1.11.4, hashicorp/aws 5.100.0``).
    ran_with: str = ""
    #: The point whose verdict this one shares without a run of its own: the crash at
    #: the first call of the create this point's call is part of (:func:`same_create`).
    shares: str | None = None

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.defects)

    @property
    def shared(self) -> bool:
        """Decided by a run of several points, or by another point's run."""
        return len(self.points) > 1 or self.shares is not None


class GroupScenario(Scenario):
    """Several faults in one scenario, then every check once.

    The faulted applies are armed with every fault not fired yet: faults that leave
    terraform running all fire in one apply; of those that end it (crash, interrupt)
    the first the walk reaches fires and stops it, and the next apply goes on from the
    state it left (``-refresh=false``), as a re-run would. Terraform stops its walk at a resource
    that fails (a retried create that finds its own first object: "already exists"),
    so the applies go on past it: the faults not fired yet are armed again, with every
    resource of ``clean_state`` targeted but the failed ones and what depends on them.
    """

    def __init__(
        self,
        stack: ScenarioStack,
        faults: Sequence[Fault],
        label: str,
        clean_state: Sequence[StateResource] = (),
        points: Sequence[str] = (),
    ) -> None:
        super().__init__(stack, faults[0], label=label)
        self.faults = list(faults)
        self.clean_state = list(clean_state)
        #: With a clean apply's state, the faulted applies run in parallel (see Stack.apply).
        self.clean = CleanApply(self.clean_state, tuple(points)) if self.clean_state else None
        #: What the status line adds to each step (``35 of 148 points decided``).
        self.progress = ""
        self.results: list[ApplyResult] = []

    def faulted_run(self, defects: list[Defect]) -> tuple[ApplyResult, ApplyResult | None]:
        stack = self.stack
        self.results = []
        remaining = list(self.faults)
        failed: set[str] = set()
        while remaining:
            # Every fault not fired yet is armed: the first call the walk reaches fires (an
            # ending one then stops this apply), whatever order terraform walks in.
            armed = remaining
            targets = _targets(self.clean_state, failed) if failed else []
            if failed and not _reachable(remaining, targets):
                break  # every fault left is on what failed or depends on it
            stack.step(
                Step.FAULTED_APPLY, f"{len(armed)} faults armed ({self.label}{self.progress})"
            )
            # A later apply goes on from the state the last one left, as a re-run would.
            result = stack.apply(armed, refresh=not self.results, targets=targets, clean=self.clean)
            self.results.append(result)
            stack.check_emulator()
            fired = {f.label for f in result.fired}
            remaining = [f for f in remaining if f.label not in fired]
            broken = set(errored(result)) - failed if result.signalled is None else set()
            failed |= broken
            if not fired and not broken:
                break  # the rest cannot fire here: a later group tries them
        # The later applies' calls count for the coverage's created types (coverage()).
        self.prepared_calls = [c for r in self.results[1:] for c in r.calls]
        first = self.results[0]
        stack.step(Step.RERUN, f"after {self.label}{self.progress}")
        second = stack.apply()
        failed_on = errored(second) if not second.ok else []
        cut = set(stack.cut_since_start())
        if not second.ok and not second.cut and not set(failed_on) <= cut:
            defects.extend(recovery_failures(stack.settings.name, self.label, first, second))
        return first, second

    def hit_of(self, first: ApplyResult) -> None:
        """Several faults hit several resources: what each left behind is joined to its
        cause once the findings are shared out (:func:`decide`)."""
        return None

    def fired(self) -> dict[str, str | None]:
        """Each fault that fired -> the resource its call was made for."""
        found: dict[str, str | None] = {}
        for result in self.results:
            for fault in result.fired:
                call = next((c for c in result.calls if c.fault == fault.label), None)
                found[fault.label] = fault.address or (call.address if call else None)
        return found

    def makers(
        self, defects: Sequence[Defect], created: Sequence[CloudObject] = ()
    ) -> dict[int, str]:
        """``id(leftover) -> point`` for each leftover whose object a fault made: the first
        faulted apply whose answers name the object, and in it the fault on the call that
        made it, or else the one fault on that call's resource (the apply it stopped).
        Where ``created`` tells the object's type, only a call of a resource of that type
        made it (two types may share an id: subnet groups of two services, one name)."""
        found: dict[int, str] = {}
        for defect in defects:
            if not defect.objects or defect.kind not in ("duplicate", "orphan"):
                continue
            made = defect.objects[0]
            obj = left_object(defect, created)
            for result in self.results:
                call = next((c for c in result.calls if _could_make(c, made, obj)), None)
                if call is None:
                    continue
                labels = {f.label for f in result.fired}
                if call.fault in labels:
                    found[id(defect)] = str(call.fault)
                else:
                    fired = self.fired()
                    on = [f.label for f in result.fired if fired.get(f.label) == call.address]
                    if len(on) == 1 and call.address is not None:
                        found[id(defect)] = on[0]
                break
        return found

    def unfired(self) -> list[Fault]:
        fired = set(self.fired())
        return [f for f in self.faults if f.label not in fired]


#: Called with each verdict as it is decided (the items report it; progress shows it).
OnVerdict = Callable[[Verdict], None]


def decide(
    stack: ScenarioStack,
    faults: Sequence[Fault],
    *,
    clean_state: Sequence[StateResource] | None = None,
    order: Sequence[str] = (),
    reproduce: Mapping[str, str] | None = None,
    on_verdict: OnVerdict | None = None,
) -> dict[str, Verdict]:
    """Decide every fault point of ``faults`` (one module, one Stack) in as few runs as
    the findings allow, by label; see :func:`decisions` and the module docstring."""
    verdicts: dict[str, Verdict] = {}
    for verdict in decisions(
        stack, faults, clean_state=clean_state, order=order, reproduce=reproduce
    ):
        verdicts[verdict.label] = verdict
        if on_verdict is not None:
            on_verdict(verdict)
    return verdicts


def decisions(
    stack: ScenarioStack,
    faults: Sequence[Fault],
    *,
    clean_state: Sequence[StateResource] | None = None,
    order: Sequence[str] = (),
    reproduce: Mapping[str, str] | None = None,
) -> Iterator[Verdict]:
    """Each fault point's verdict as soon as a run decides it (a group's run decides
    several at once); the module docstring says how.

    ``clean_state`` is the state of a clean apply (to tell whose leftover an object no
    state tracks is); ``order`` the fault points in the order a clean apply made their
    calls (a chain of ending faults follows it); ``reproduce`` each label's reproduce
    line, put on its defects. Stop iterating to stop deciding: the run in progress ends
    first.
    """
    rank = {point: i for i, point in enumerate(order)}
    queue: list[list[Fault]] = [group for group in _first_groups(faults, rank) if group]
    decided = 0
    runs = 0
    own = _OwnFindings(stack)
    # A crash later in a create whose first call's crash left its object (module docstring)
    # is not run again: when its group's run did not fire it, it shares that verdict.
    leaders = same_create(faults, order) if (stack.settings.parallelism or 1) == 1 else {}
    leading = {f.label: f.address for f in faults if f.label in leaders.values()}
    #: Each leader's verdict as its run found it (before judging), when it is shared.
    shareable: dict[str, tuple[Verdict, Observations]] = {}
    #: The groups run so far (their points): none runs twice, so the runs end.
    ran_together: set[frozenset[str]] = set()

    def judged(verdict: Verdict, observed: Observations) -> Verdict:
        """``verdict``'s defects judged on the run that decided it (``observed``): a run
        without faults may have run since (:func:`_without_faults`). A leader's verdict
        its followers share is kept first, as found."""
        nonlocal decided
        decided += 1
        address = leading.get(verdict.label)
        if address is not None and _left_its_object(verdict, address):
            shareable[verdict.label] = (_sharing(verdict, verdict.label), observed)
        for d in verdict.defects:
            d.reproduce = (reproduce or {}).get(verdict.label, d.reproduce)
        verdict.defects = stack.finish(verdict.defects, observed)
        verdict.ran_with = stack.ran_with
        return verdict

    while queue:
        group = queue.pop(0)
        for fault in [f for f in group if leaders.get(f.label) in shareable]:
            group.remove(fault)
            found, observed = shareable[leaders[fault.label]]
            yield judged(_sharing(found, fault.label), observed)
        if not group:
            continue
        runs += 1
        started = time.monotonic()
        if len(group) == 1:
            yield judged(*_alone(stack, group[0], runs, started))
            continue
        ran_together.add(_key(group))
        scenario = GroupScenario(
            stack, group, f"{len(group)} points together", clean_state or (), order
        )
        scenario.progress = f"; {decided} of {len(faults)} points decided"
        run = _run_group(scenario, clean_state, own, runs, started)
        by_label = {f.label: f for f in group}
        later: list[list[Fault]] = []
        split = bool(run.shared.unattributed)
        if split:
            # A finding no point accounts for: none of this run's verdicts is sure.
            points = [by_label[p] for p in run.fired]
            half = max(1, len(points) // 2)
            later += [points[:half], points[half:]]
        else:
            for verdict in _group_verdicts(run, runs):
                yield judged(verdict, run.found.observed)
            # Points a finding could belong to are run again, each in another group.
            apart = sorted(run.shared.ambiguous, key=lambda p: rank.get(p, 0))
            later.extend(_spread([by_label[p] for p in apart]))
        queue[:0] = _not_again(_then(later, scenario.unfired(), len(group), split), ran_together)


class _OwnFindings:
    """The module's own findings (:func:`_without_faults`), asked of a clean run once:
    when a grouped run first finds something no point accounts for."""

    def __init__(self, stack: ScenarioStack) -> None:
        self._stack = stack
        #: None until the clean run has run.
        self.known: set[tuple[object, ...]] | None = None

    def ask(self) -> set[tuple[object, ...]]:
        if self.known is None:
            self.known = _without_faults(self._stack)
        return self.known


@dataclass(frozen=True)
class _GroupRun:
    """One run of several points, its findings shared out by point."""

    label: str
    found: Observed
    #: Each fault that fired -> the resource its call was made for.
    fired: dict[str, str | None]
    shared: Attribution
    seconds: float


def _run_group(
    scenario: GroupScenario,
    clean_state: Sequence[StateResource] | None,
    own: _OwnFindings,
    run: int,
    started: float,
) -> _GroupRun:
    """Run ``scenario`` (the ``run``-th of its :func:`decisions`) and share its findings
    out among the points that fired; what no point accounts for may be the module's
    ``own``, so a clean run is asked then, once."""
    found = scenario.run()
    seconds = time.monotonic() - started
    fired = scenario.fired()
    origins = origin_of(found.defects, found.created, clean_state) if clean_state else {}
    makers = scenario.makers(found.defects, found.created)
    shared = attribute(found.defects, fired, origins, makers, own.known or ())
    if shared.unattributed and own.known is None:
        shared = attribute(found.defects, fired, origins, makers, own.ask())
    _log.info(
        "%s: run %d of %d points (%.0f s): %d fired, %d unfired, ambiguous %s, unattributed %s",
        scenario.stack.settings.name,
        run,
        len(scenario.faults),
        seconds,
        len(fired),
        len(scenario.faults) - len(fired),
        sorted(shared.ambiguous),
        [(d.kind, d.address, d.message[:120]) for d in shared.unattributed],
    )
    return _GroupRun(scenario.label, found, fired, shared, seconds)


def _group_verdicts(run: _GroupRun, number: int) -> Iterator[Verdict]:
    """The verdict of each point the group ``run`` (its ``number``) decided: every fired
    point but the ambiguous ones, with the findings shared out to it."""
    together = tuple(p for p in run.fired if p not in run.shared.ambiguous)
    for point in together:
        hit = run.fired[point]
        own = [d.for_scenario(point) for d in run.shared.by_point[point]]
        yield Verdict(
            point, left_behind(own, run.found.created, hit), number, together, run.seconds, hit
        )


def _then(
    later: list[list[Fault]], missed: list[Fault], size: int, split: bool = False
) -> list[list[Fault]]:
    """The groups a run leaves to run next: ``later``'s, with the points whose fault did
    not fire (what they need failed first) in the first of them; a group of ``size``
    that fired none of them gives each its own run. When the run was ``split`` (a
    finding no point accounts for: ``later`` are halves of what fired) the missed
    points run after the halves, in a group of their own: joined to the first half they
    could make the same group again, and a run that fires one point of it and finds
    the same would repeat for ever."""
    if len(missed) == size:
        later.extend([f] for f in missed)
    elif missed and later and not split:
        later[0] = [*missed, *later[0]]
    elif missed:
        later.append(missed)
    return [g for g in later if g]


def _key(group: Sequence[Fault]) -> frozenset[str]:
    return frozenset(f.label for f in group)


def _not_again(groups: list[list[Fault]], ran: set[frozenset[str]]) -> list[list[Fault]]:
    """``groups``, but a group whose points ran together before (``ran``) gives each its
    own run: together again they would find the same."""
    again = [g for g in groups if _key(g) in ran]
    return [g for g in groups if g not in again] + [[f] for g in again for f in g]


def _without_faults(stack: ScenarioStack) -> set[tuple[object, ...]]:
    """What a clean apply and its second plan find (:func:`finding_key` each): the
    module's own findings, which every fault point's run finds too. Its apply is as
    parallel as a grouped run's."""
    stack.fresh_start()
    if not stack.apply().ok:
        stack.take_run_findings("no fault")
        return set()
    found = stack.second_plan_defects("no fault") + stack.take_run_findings("no fault")
    return {finding_key(d) for d in found}


def _first_groups(faults: Sequence[Fault], rank: Mapping[str, int]) -> list[list[Fault]]:
    """One group of the faults that leave terraform running, one chain of those that
    end it (in the clean apply's order of their calls)."""
    key = lambda f: (rank.get(f.point, len(rank)), f.label)  # noqa: E731
    staying = sorted((f for f in faults if not ends_terraform(f)), key=key)
    ending = sorted((f for f in faults if ends_terraform(f)), key=key)
    return [staying, ending]


#: Verbs of calls that only change the object a create's first call made, or add parts
#: of it the leftover check counts with it (a group's rules): see :func:`same_create`.
_CHANGING_VERBS = frozenset(
    {"Modify", "Update", "Authorize", "Revoke", "Enable", "Disable", "Set", "Tag", "Untag"}
)
#: EC2's tag calls: a Create or Delete verb, no object made or removed.
_TAG_CALLS = frozenset({"CreateTags", "DeleteTags"})
_VERB = re.compile(r"[A-Z][a-z]*")


def changes_only(operation: str) -> bool:
    """The call only changes an existing object (``ModifyVpcAttribute``, ``CreateTags``,
    ``AuthorizeSecurityGroupIngress``): it makes and removes none of its own."""
    verb = _VERB.match(operation)
    return operation in _TAG_CALLS or (verb is not None and verb.group() in _CHANGING_VERBS)


def same_create(faults: Sequence[Fault], order: Sequence[str]) -> dict[str, str]:
    """``{label: leader}``: each crash of ``faults`` at a later call of a create whose
    verdict may be the crash's at that create's first call (``leader``, also in
    ``faults``), once that one's verdict shows it (:func:`_left_its_object`).

    ``order`` is a clean apply's fault points in the order it made their calls, one apply
    open at a time. A resource's points must stand in a row there, the first being its
    first call (the create); a later point follows its leader only if it and every call
    between them :func:`changes_only`. The module docstring says why these share::

        same_create([crash("CreateSecurityGroup#1@sg"), crash("RevokeSecurityGroupEgress#1@sg")],
                    ["CreateSecurityGroup#1@sg", "RevokeSecurityGroupEgress#1@sg"])
        # {"crash@RevokeSecurityGroupEgress#1@sg": "crash@CreateSecurityGroup#1@sg"}
    """
    crashes = {f.point: f.label for f in faults if isinstance(f, Crash) and f.address}
    walk: list[FaultPoint] = []
    for text in order:
        try:
            walk.append(FaultPoint.parse(text))
        except ValueError:
            return {}  # not a walk of fault points: nothing is known of its order
    rows: dict[str, list[list[FaultPoint]]] = {}
    for i, point in enumerate(walk):
        if point.address is None:
            continue
        mine = rows.setdefault(point.address, [])
        if i and walk[i - 1].address == point.address:
            mine[-1].append(point)
        else:
            mine.append([point])
    found: dict[str, str] = {}
    for row in (r[0] for r in rows.values() if len(r) == 1):  # one row: one create
        leader = crashes.get(str(row[0]))
        if leader is None:
            continue
        for point in row[1:]:
            if not changes_only(point.operation):
                break
            if str(point) in crashes:
                found[crashes[str(point)]] = leader
    return found


def _left_its_object(verdict: Verdict, address: str | None) -> bool:
    """``verdict`` (the crash at the first call of ``address``'s create) is one the
    crashes later in that create share: decided by a run, it hit ``address``, and every
    error is a failed re-run on that resource with the object the crash left joined to
    it as its cause (:func:`.left_behind.left_behind`)."""
    errors = [d for d in verdict.defects if d.is_error]
    return (
        verdict.error is None
        and address is not None
        and verdict.hit == address
        and bool(errors)
        and all(d.kind == "recovery-failed" and d.address == address and d.objects for d in errors)
    )


def _sharing(leader: Verdict, label: str) -> Verdict:
    """The verdict of point ``label``: ``leader``'s findings as its own (a copy; see
    :func:`same_create`)."""
    return Verdict(
        label,
        [d.for_scenario(label) for d in leader.defects],
        leader.run,
        leader.points,
        leader.seconds,
        leader.hit,
        shares=leader.label if leader.label != label else leader.shares,
    )


def _spread(faults: list[Fault]) -> list[list[Fault]]:
    """Groups in which no two faults are on one resource (they were told apart badly)."""
    groups: list[list[Fault]] = []
    for fault in faults:
        home = next((g for g in groups if all(f.address != fault.address for f in g)), None)
        if home is None:
            groups.append([fault])
        else:
            home.append(fault)
    return groups


def _alone(
    stack: ScenarioStack, fault: Fault, run: int, started: float
) -> tuple[Verdict, Observations]:
    """One point's own scenario, as :meth:`Stack.recover` runs it (without the replay),
    and what its run observed."""
    try:
        found = Scenario(stack, fault).run()
    except ConvergeError as exc:
        seconds = time.monotonic() - started
        return Verdict(fault.label, [], run, (fault.label,), seconds, error=exc), Observations()
    verdict = Verdict(
        fault.label,
        found.defects,
        run,
        (fault.label,),
        time.monotonic() - started,
        fault_hit(found.first),
    )
    return verdict, found.observed


def _could_make(call: Call, made: str, obj: CloudObject | None) -> bool:
    """``call``'s answer (or request) named ``made`` and, where the object's type is
    known, the call was made for a resource of that type (or for none terraform said)."""
    if made not in call.answered and made not in call.requested:
        return False
    return obj is None or call.address is None or resource_type(call.address) == obj.type


def _targets(clean: Sequence[StateResource], failed: set[str]) -> list[str]:
    """Every managed instance of ``clean`` a run can still apply: all but the ``failed``
    ones and those of resources that depend, directly or not, on a failed one's resource
    (a target brings what it depends on, by resource, so those would fail again)."""
    deps = {_resource_of(r.address): set(r.dependencies) for r in clean}
    reached = {_resource_of(a) for a in failed}
    blocked: set[str] = set()
    while True:
        more = {r for r, needs in deps.items() if r not in blocked and needs & (reached | blocked)}
        if not more:
            break
        blocked |= more
    return [
        r.address
        for r in clean
        if r.is_managed and r.address not in failed and _resource_of(r.address) not in blocked
    ]


def _reachable(faults: Sequence[Fault], targets: Sequence[str]) -> bool:
    """Can an apply of ``targets`` fire any of ``faults`` (one not pinned, or pinned to
    a target)?"""
    wanted = set(targets)
    return any(f.address is None or f.address in wanted for f in faults)


def _resource_of(address: str) -> str:
    """``module.a["x"].aws_subnet.b[0]`` -> ``module.a.aws_subnet.b`` (state's dependency form)."""
    found = Address.parse(address)
    return found.config if found is not None else address
