"""The stall watch: what stops a terraform command stuck on one call, and what it found.

A Stack holds one :class:`StallWatch` as ``stack.watch``. Each command of the Stack
runs with a ``watch`` from it (:meth:`Runner.run` calls it while the command
runs); a command the watch stopped is a ``stalled`` finding, and the egress the
guard refused during a run an ``egress`` one, kept until the scenario takes them::

    watch = stack.watch.for_command()   # stuck on one call: TerraformStalled
    stack.workspace.terraform("apply", watch=watch, ...)
    stack.watch.take("crash@CreateVpc#1")   # the egress and stalled findings since
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..analysis.egress_check import egress_defects, in_flight
from ..analysis.gaps import Gap, emulator_version, load_catalogue
from ..analysis.stalls import (
    KNOWN_WAIT_LIMITS,
    REFUSED_EGRESS,
    SILENT_WAIT,
    Stall,
    StallLimits,
    catalogued_wait,
    find_silence,
    find_stall,
    provider_sleep,
    provisioning,
    retried_egress,
    stall_defect,
)
from ..errors import TerraformStalled
from ..faults.locate import applying_for

if TYPE_CHECKING:
    from ..analysis.defects import Defect
    from ..emulator.base import Emulator
    from ..faults import Proxy
    from ..isolation.egress import EgressGuard
    from .protocol import RunSettings
    from .results import ApplyResult

#: A run's terraform ``-json`` events, each with when it came (``time.monotonic()``).
Timeline = list[tuple[float, dict[str, Any]]]


class Watched(Protocol):
    """What the watch reads of its Stack: its settings (name, strictness, stall limits),
    emulator, proxy and egress guard."""

    @property
    def settings(self) -> RunSettings: ...
    @property
    def emulator(self) -> Emulator: ...
    @property
    def proxy(self) -> Proxy: ...
    @property
    def egress_guard(self) -> EgressGuard: ...


class StallWatch:
    """The stall watch of a Stack's commands, and the findings it gathered."""

    def __init__(self, stack: Watched) -> None:
        self._stack = stack
        #: The last command was stopped because the emulator under it died (see start).
        self.lost = False
        #: egress and stalled defects of the runs since the scenario started (see take).
        self._egress: list[Defect] = []
        self._stalled: list[Defect] = []
        #: The applies of this scenario the watch cut (see cut).
        self._cut: list[ApplyResult] = []

    def for_command(self) -> Callable[[], str | None]:
        """A ``watch`` for :meth:`Runner.run`: stops a command stuck on one call.

        For runs outside ``Stack.apply``/``Stack.plan`` (a loop's cycles, an old
        revision's apply): the command fails with ``TerraformStalled``.
        """
        return self.start([])[0]

    def egress_of(self, timeline: Timeline) -> list[Defect]:
        """The egress defects of the run that just ended (also kept for :meth:`take`)."""
        stack = self._stack
        found = egress_defects(stack.egress_guard.take(), timeline, module=stack.settings.name)
        self._egress.extend(found)
        return found

    def start(self, timeline: Timeline) -> tuple[Callable[[], str | None], list[Stall]]:
        """A ``watch`` for :meth:`Runner.run` that stops a command stuck on one call,
        and the list it puts that :class:`Stall` in."""
        stack = self._stack
        found: list[Stall] = []
        limits = stack.settings.stall_limits
        known = StallLimits(
            limits.repeats,
            min(limits.seconds, KNOWN_WAIT_LIMITS.seconds),
            min(limits.silence, KNOWN_WAIT_LIMITS.silence),
        )
        begun = time.monotonic()  # the proxy's log may hold an earlier command's calls

        self.lost = False

        def watch() -> str | None:
            # Called from the thread that appends to ``timeline``: no race.
            progress = [t for t, e in timeline if e.get("type") in _PROGRESS_EVENTS]
            calls = [c for c in stack.proxy.calls if c.started >= begun]
            # A dead emulator: the provider would retry its calls for minutes.
            if any(c.unreached for c in calls) and not stack.emulator.is_alive():
                self.lost = True
                return f"the {stack.emulator.name} emulator stopped answering"
            refused = [a for a in stack.egress_guard.attempts if a.at >= begun]
            stall = find_stall(calls, refused, progress, limits)
            if stall is None and known != limits:
                # A wait the catalogue explains is stopped sooner (KNOWN_WAIT_LIMITS).
                early = find_stall(calls, refused, progress, known)
                # The catalogue is read only for such a candidate, not for every command.
                if early is not None and catalogued_wait(
                    early, _waiting(in_flight(timeline, early.last), early), self._catalogue()
                ):
                    stall = early
            if stall is None:
                # A wait that asks nothing at all makes no progress either.
                now = time.monotonic()
                running = provisioning(timeline)
                waiting = [a for a in in_flight(timeline, now) if a not in running]
                pending = len(stack.proxy.in_flight)
                stall = find_silence(calls, progress, waiting, now, begun, limits, pending)
                if stall is None and known.silence < limits.silence:
                    # The provider's own sleep (PROVIDER_SLEEPS) is cut sooner.
                    early = find_silence(calls, progress, waiting, now, begun, known, pending)
                    if early is not None and provider_sleep(early, waiting) is not None:
                        stall = early
            if stall is None:
                return None
            found.append(stall)
            return stall.describe(_silent_for(timeline, stall))

        return watch, found

    def _catalogue(self) -> list[Gap]:
        """The known-gaps entries that apply to this Stack's emulator and its version."""
        emulator = self._stack.emulator
        version = emulator_version(emulator)
        return [g for g in load_catalogue() if g.applies_to(emulator.name, version)]

    def stalled_of(
        self,
        command: str,
        error: BaseException | None,
        stalls: list[Stall],
        timeline: Timeline,
        egress: list[Defect],
    ) -> list[Defect]:
        """The finding of a command stopped on a stall (also kept for :meth:`take`).

        A stall on a refused connection is told on the run's ``egress`` defects for
        that host; a stall on the emulator is a ``stalled`` defect.
        """
        if not isinstance(error, TerraformStalled) or not stalls:
            return []
        stall = stalls[0]
        told = stall.kind == REFUSED_EGRESS and retried_egress(
            egress, stall, command, error.timeout
        )
        if told:
            return []
        gaps = self._catalogue()
        addresses = in_flight(timeline, stall.last)
        owner = stall_owner(addresses, stall, gaps)
        if owner is not None:  # the resource that made the call comes first
            addresses = [owner, *(a for a in addresses if a != owner)]
        found = [
            stall_defect(
                stall,
                command,
                error.timeout,
                addresses,
                gaps,
                emulator=self._stack.emulator.name,
                module=self._stack.settings.name,
                strict=self._stack.settings.strict,
            )
        ]
        self._stalled.extend(found)
        return found

    def take(self, scenario: str) -> list[Defect]:
        """The egress and stalled defects gathered since the last call, one per host and
        resource, as findings of ``scenario``."""
        taken, self._egress = self._egress, []
        unique = {(d.observed, d.address): d for d in taken}
        stalled, self._stalled = self._stalled, []
        for d in (*unique.values(), *stalled):
            d.scenario = scenario
        return [*unique.values(), *stalled]

    def keep_cut(self, result: ApplyResult) -> None:
        """Keep ``result`` when the watch cut it (:attr:`ApplyResult.cut`): see :meth:`cut`."""
        if result.cut:
            self._cut.append(result)

    def cut(self) -> list[str]:
        """The resources in flight when the watch cut an apply of this scenario."""
        return [a for run in self._cut for a in run.in_flight]

    def last_cut_findings(self) -> list[Defect]:
        """The stalled (else egress) findings of the last apply the watch cut, if any."""
        last = self._cut[-1] if self._cut else None
        return (last.stalled or last.egress) if last is not None else []

    def clear(self) -> None:
        """Forget what the runs found and what the watch cut: the start of a scenario."""
        self._egress = []
        self._stalled = []
        self._cut = []


#: Terraform ``-json`` events that show a run moving on (a stall is only one without them).
_PROGRESS_EVENTS = frozenset({"apply_complete", "refresh_complete", "apply_errored"})


def _silent_for(timeline: Timeline, stall: Stall) -> str | None:
    """The resource a silent wait is for (the first in flight), else None."""
    if stall.kind != SILENT_WAIT:
        return None
    waiting = in_flight(timeline, stall.last)
    return waiting[0] if waiting else None


def _waiting(addresses: Sequence[str], stall: Stall) -> str | None:
    """The one resource in flight that ``stall``'s call can be for, if one can tell."""
    return applying_for(addresses, stall.target.partition(":")[0])


def stall_owner(addresses: Sequence[str], stall: Stall, gaps: Sequence[Gap]) -> str | None:
    """Which of the resources in flight made ``stall``'s call: the one of its service,
    else the first whose catalogued gap explains the wait (an SQS queue policy's own
    25 s wait may be in flight beside a redrive allow policy moto never reads back)."""
    return _waiting(addresses, stall) or next(
        (a for a in addresses if catalogued_wait(stall, a, gaps)), None
    )
