"""Arming a Stack's fault proxy for one apply: which resource made each call, and when.

A Stack holds one :class:`FaultArming` as ``stack.arming``. An apply arms the
proxy with its faults through it, feeds the :class:`ArmedApply` it gets back
terraform's events, and disarms the proxy when terraform ends::

    armed = stack.arming.arm(faults, clean)     # each fault fires on its resource's call
    stack.workspace.terraform("apply", "-json", on_event=armed.see)
    unfired = stack.arming.disarm()
    armed.applying.addresses()                  # what a crash left open

Every mutating call is told to the resource whose apply made it (``Call.address``):
with one open apply, that one; of several, the one whose type the call's service
serves; in a parallel grouped apply (``clean``, what a clean apply of the same
configuration did), the one the request names (:class:`.faults.locate.RequestMatcher`),
and crashes gather into one cut (:class:`.faults.cut.Gather`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from ..faults import Crash, Fault
from ..faults.cut import Gather
from ..faults.locate import CleanApply, RequestMatcher, applying_for
from ..terraform.runner import OpenApplies

if TYPE_CHECKING:
    from ..faults import Operation, Proxy
    from ..faults.proxy import Locate
    from ..terraform.workspace import Workspace

_log = logging.getLogger("pytest_converge")


class Armable(Protocol):
    """What the arming uses of its Stack: the fault proxy, and the workspace whose runner
    runs its applies."""

    @property
    def proxy(self) -> Proxy: ...
    @property
    def workspace(self) -> Workspace: ...


class ArmedApply:
    """One armed apply: the resources whose apply is open, and (in a parallel grouped
    apply) the matcher that tells which of them made a call."""

    def __init__(self, matcher: RequestMatcher | None) -> None:
        self.applying = OpenApplies()
        self.matcher = matcher

    def see(self, event: dict[str, Any]) -> None:
        """One of the apply's ``-json`` events."""
        self.applying.see(event)
        if self.matcher is not None:
            self.matcher.see(event)


class FaultArming:
    """Arms and disarms a Stack's fault proxy around its applies."""

    def __init__(self, stack: Armable) -> None:
        self._stack = stack

    def arm(self, faults: list[Fault], clean: CleanApply | None = None) -> ArmedApply:
        """Arm the proxy with ``faults`` for the apply about to run: a pinned fault fires
        only on its resource's calls. With ``clean`` (and faults), the apply may run in
        parallel: its calls are told to resources by what their requests say."""
        runner = self._stack.workspace.runner
        armed = ArmedApply(RequestMatcher(clean) if clean is not None and faults else None)
        matcher = armed.matcher
        gather = None
        if matcher is not None and any(isinstance(f, Crash) for f in faults):
            gather = Gather(lambda: len(armed.applying.addresses()), runner.caught_up)
        self._stack.proxy.arm(
            faults,
            signal=runner.signal,
            locate=self._locator(armed),
            answered=matcher.answered if matcher is not None else None,
            gather=gather,
        )
        return armed

    def disarm(self) -> list[Fault]:
        """Disarm the proxy; returns the faults that never fired."""
        return self._stack.proxy.disarm()

    def _locator(self, armed: ArmedApply) -> Locate:
        """``locate(operation, body, path)`` for the proxy: the one resource whose apply
        makes the call.

        With ``-parallelism=1`` (fault scenarios and fault point recording, unless
        ``parallelism`` says otherwise) one apply is open at a time; of several,
        the one whose type the call's service serves, if only one does; in a
        parallel grouped apply, the one the matcher tells.
        """
        runner = self._stack.workspace.runner

        def locate(operation: Operation, body: bytes = b"", path: str = "") -> str | None:
            if not runner.caught_up():
                _log.warning("terraform's events lag; %s is not located", operation.name)
                return None
            addresses = armed.applying.addresses()
            if armed.matcher is not None and len(addresses) > 1:
                return armed.matcher.made(addresses, operation.name, body, path, operation.service)
            return applying_for(addresses, operation.service)

        return locate
