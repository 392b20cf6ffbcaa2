"""The clean worlds a recovery is checked against: what a clean apply makes, kept per variables.

A Stack holds one :class:`CleanWorlds` as ``stack.worlds``. It records the world
(and state file) a clean apply of the Stack's configuration left, keyed by the
variable values, reads what the emulator holds now to compare with it, and may
share its worlds with the other Stacks of a batch (one clean apply per module,
not per test)::

    clean = stack.worlds.clean()        # recorded once (a clean apply if none was)
    ...                                 # the fault scenario's runs
    recovered = stack.worlds.now()      # compared with ``clean``: wrong-fixed-point
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from ..analysis.state import state_resources
from ..analysis.world_check import World
from ..inventory.world import take_world
from .protocol import Step

if TYPE_CHECKING:
    from ..emulator.base import Emulator
    from ..terraform.workspace import Workspace
    from .results import ApplyResult


class Recorder(Protocol):
    """What the keeper uses of its Stack: its workspace (variables, state), and a clean
    apply to record."""

    @property
    def workspace(self) -> Workspace: ...
    @property
    def emulator(self) -> Emulator: ...
    def step(self, step: Step, detail: str = "") -> None: ...
    def fresh_start(self) -> None: ...
    def apply_for_points(self) -> ApplyResult: ...
    def check_emulator(self) -> None: ...


class CleanWorlds:
    """The worlds (and state files) clean applies of a Stack's configuration made."""

    def __init__(self, stack: Recorder, addresses: Iterable[str]) -> None:
        self._stack = stack
        #: The managed resource types the module declares.
        self._declared = {a.split(".")[0] for a in addresses if not a.startswith("data.")}
        #: The world a clean apply made, by variable values (see clean), and
        #: the types the emulator's world() covers (None: not asked yet).
        self._worlds: dict[str, World | None] = {}
        self._states: dict[str, dict[str, Any]] = {}
        self._covered: frozenset[str] | None = None

    def clean(self) -> World | None:
        """The world a clean apply of this configuration makes, to check a recovery against.

        None when there is nothing to compare: the emulator cannot tell what it
        holds (no ``world()``), or the module declares no type it covers. Recorded
        once per Stack and variable values, with a clean apply (``-parallelism=1``,
        as fault scenarios run) that leaves the emulator to be emptied by the caller;
        ``Stack.fault_points`` records it with its own clean apply (:meth:`record`).
        """
        key = self._key()
        if key not in self._worlds:
            stack = self._stack
            world = None
            if self._types():
                stack.step(Step.CLEAN_APPLY, "to compare recovered worlds with")
                stack.fresh_start()
                if stack.apply_for_points().servable_ok:
                    world = self.now()
            self._worlds[key] = world
        return self._worlds[key]

    def record(self) -> None:
        """Record what the clean apply just made: its state file (which resource a grouped
        run's leftover stands for, and what depends on what) and, when the emulator can
        tell, its world."""
        self._states[self._key()] = self._stack.workspace.read_state()
        if self._types():  # the world to check recoveries against
            self._worlds[self._key()] = self.now()

    def recorded(self) -> World | None:
        """The clean world ``Stack.fault_points`` (or a first scenario) recorded, if any."""
        return self._worlds.get(self._key())

    def recorded_state(self) -> dict[str, Any] | None:
        """The state file ``Stack.fault_points``' clean apply left, if it recorded one."""
        return self._states.get(self._key())

    def share(self, worlds: dict[str, World | None]) -> None:
        """Keep clean worlds in ``worlds``, shared with the other Stacks of this module
        content and emulator (the session's): one clean apply per module, not per test."""
        self._worlds = worlds

    def remember(self, world: World) -> None:
        """Take ``world`` as the clean world of this configuration (recorded elsewhere:
        zero-code mode records it once per module with the fault points)."""
        self._worlds[self._key()] = world

    def now(self) -> World | None:
        """What the emulator holds now, matched to the state file."""

        state = state_resources(self._stack.workspace.read_state())
        return take_world(self._stack.emulator, state)

    def _key(self) -> str:
        return json.dumps(self._stack.workspace.variables, sort_keys=True, default=str)

    def _types(self) -> set[str]:
        """The types of this module whose objects the emulator's ``world()`` reads."""
        read = getattr(self._stack.emulator, "world", None)
        if read is None:
            return set()
        if self._covered is None:
            self._stack.check_emulator()  # a dead emulator is named as such, before any call
            self._covered = frozenset(read().get("covered") or ())
        return self._declared & self._covered
