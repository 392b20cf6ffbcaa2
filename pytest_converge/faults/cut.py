"""Several crashes in one cut: a grouped run kills terraform once for many fault points.

A crash fault (:class:`~.kinds.Crash`) lets its call reach the emulator and kills
terraform before the answer: the object exists, the state does not know it. One
run per crash point pays a terraform process (on aws 5.x, seconds of schema
loading) for each. A grouped run (:mod:`pytest_converge.run.matrix`) applies in
parallel and arms every crash point of the group with one :class:`Gather`:

- a crash point's call is forwarded and its answer held (the object is made);
- from then on, a change by a resource that has made none in this apply yet is
  held before it is forwarded: it never happens, as if its apply had not started;
  resources that already made one go on, so they finish (their objects are in
  state, as an apply that reached them before the crash has them);
- when every open apply waits on a held call and no call came for a moment (or
  after ``longest`` seconds), terraform is killed once. Every crash held is a
  point that fired in this cut; each made its own resource's object.

    gather = Gather(open_applies=lambda: len(applying.addresses()), caught_up=runner.caught_up)
    proxy.arm(crashes, signal=runner.signal, locate=locate, gather=gather)
"""

from __future__ import annotations

import logging
import signal as _signal
import threading
import time
from collections.abc import Callable

from .kinds import Signal

__all__ = ["Gather"]

log = logging.getLogger(__name__)


class Gather:
    """One cut for many crashes (see the module docstring). Thread-safe."""

    def __init__(
        self,
        open_applies: Callable[[], int],
        caught_up: Callable[[], bool] = lambda: True,
        *,
        quiet: float = 0.25,
        longest: float = 20.0,
    ) -> None:
        self._open = open_applies
        self._caught_up = caught_up
        self._quiet = quiet
        self._longest = longest
        self._cond = threading.Condition()
        self._crashes = 0
        self._held = 0
        self._changed: set[str] = set()
        self._last = time.monotonic()
        self._first: float | None = None
        self._signal: Signal | None = None
        self._done = threading.Event()
        #: The cut was made: terraform was killed (or the run ended).
        self.made = False

    # -- told by the proxy's handler threads ---------------------------
    def arrived(self) -> None:
        """A call arrived (any call: terraform is still moving)."""
        with self._cond:
            self._last = time.monotonic()

    def changed(self, address: str | None) -> None:
        """``address``'s apply made a change (forwarded): it may finish."""
        if address is not None:
            with self._cond:
                self._changed.add(address)

    def holds(self, address: str | None, mutating: bool) -> bool:
        """Is this call held back (a first change once a crash is held)? If so the
        caller :meth:`wait` s and drops it."""
        with self._cond:
            if self.made or not self._crashes or not mutating:
                return False
            if address is not None and address in self._changed:
                return False
            self._held += 1
            self._cond.notify_all()
            return True

    def crashing(self) -> None:
        """A crash point's call arrived: from now on first changes are held."""
        with self._cond:
            self._crashes += 1

    def hold(self, signal: Signal) -> None:
        """A crash point's call was made: hold its answer until the cut (blocks)."""
        with self._cond:
            if self.made:
                return
            self._held += 1
            self._signal = self._signal or signal
            if self._first is None:
                self._first = time.monotonic()
                threading.Thread(target=self._watch, name="converge-cut", daemon=True).start()
            self._cond.notify_all()
        self.wait()

    def wait(self) -> None:
        """Block until the cut is made (or the run ends)."""
        self._done.wait(self._longest * 3)

    def release(self) -> None:
        """The run ended: nothing waits any more."""
        with self._cond:
            self.made = True
        self._done.set()

    # -- the cut -------------------------------------------------------
    def _ready(self) -> bool:
        now = time.monotonic()
        if self._first is not None and now - self._first >= self._longest:
            log.warning("a gathered cut waited %.0f s for open applies; cutting", self._longest)
            return True
        if now - self._last < self._quiet:
            return False
        return self._open() <= self._held

    def _watch(self) -> None:
        while True:
            with self._cond:
                if self.made:
                    return
                ready = self._ready()
            if ready and self._caught_up():
                with self._cond:
                    ready = not self.made and self._ready()
                    if ready:
                        self.made = True
                        signal = self._signal
                if ready:
                    if signal is not None:
                        signal(_signal.SIGKILL)
                    self._done.set()
                    return
            with self._cond:
                self._cond.wait(0.05)
