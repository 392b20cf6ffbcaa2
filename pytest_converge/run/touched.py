"""What a Stack's runs touched (regions, and the services called in each), and its inventory.

A Stack holds one :class:`Touched` as ``stack.touched``. It starts from what the
module declares (its providers' literal regions, the emulator's own region),
learns every region and service a run signed a call for, and lists the cloud
objects there: before and after a fault scenario, the objects the runs made::

    before = stack.touched.inventory()      # the regions known so far
    stack.touched.warm()                    # the listers' clients, built meanwhile
    ...                                     # the scenario's runs (each apply noted)
    created = stack.touched.inventory().minus(before)
    stack.touched.note(calls)               # a run outside Stack.apply (an old revision)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..inventory import Inventory, prepare_clients, take_inventory
from ..terraform.hcl import declared_regions, provider_regions

if TYPE_CHECKING:
    from ..emulator.base import Emulator
    from ..faults import Call


class Touched:
    """The regions and services a Stack's runs touched, and the inventory of them."""

    def __init__(
        self,
        emulator: Emulator,
        module: Path,
        addresses: Iterable[str],
        listers: Callable[..., Any] | None = None,
    ) -> None:
        self._emulator = emulator
        #: What lists the objects (the session's ``pytest_converge_inventory`` hook, which
        #: takes ``builtin=False`` to leave the built-in listers out; None: the built-in
        #: listers).
        self._listers = listers
        #: The managed resource types the module declares (whose clients :meth:`warm` builds).
        self._types = {a.split(".")[0] for a in addresses if not a.startswith("data.")}
        #: Provider configuration (``aws``, ``aws.west``) -> its literal region.
        self.provider_regions: dict[str, str] = provider_regions(module)
        #: Every region a run signed a call for, plus the declared ones: what to inventory.
        self.regions: set[str] = {emulator.region} | declared_regions(module)
        #: Region -> SigV4 services the runs called there; None once an unsigned call
        #: (no credential scope) was seen, which makes every service worth listing.
        self.services: dict[str, set[str]] | None = {}
        self._warmed = False

    def note(self, calls: Sequence[Call]) -> None:
        """Add the regions and services ``calls`` signed for to what :meth:`inventory` lists.

        ``Stack.apply`` does it for its own runs; a run of another workspace through
        the Stack's proxy (an old revision's apply) is noted with this.
        """
        self.regions.update(c.region for c in calls if c.region)
        for c in calls:
            if self.services is None:
                break
            if c.region is None:
                self.services = None
            else:
                self.services.setdefault(c.region, set()).add(c.service)

    def inventory(self, emptied: bool = False, every_service: bool = False) -> Inventory:
        """The cloud objects in the emulator now: every region and service the runs touched.

        ``emptied``: the emulator was just emptied (or started). The built-in listers
        leave out what an emulator makes on its own (:mod:`..inventory.listers`), so they
        would find nothing there and are not asked (a scenario's baseline, 0.2-0.3 s of
        list calls on a busy machine); any other implementation of the hook (a user's,
        which may list such objects) still is. ``every_service``: every service of those
        regions, not only those the runs called (the baseline of a world a
        ``pytest_converge_world`` hook made).
        """
        services = None if every_service else self.services
        return take_inventory(
            self._emulator, self._listers, sorted(self.regions), services, not emptied
        )

    def inventory_soon(self) -> Callable[[], Inventory]:
        """:meth:`inventory`, taken in a thread from now, of the regions and services known
        now; the returned function waits for it (and raises what it raised).

        For a step that cannot create or remove an object (a plan) to run meanwhile: a
        region that step is first to call has nothing in it a run made.
        """
        regions = sorted(self.regions)
        services = None if self.services is None else {r: set(s) for r, s in self.services.items()}
        box: dict[str, Any] = {}

        def take() -> None:
            try:
                box["found"] = take_inventory(self._emulator, self._listers, regions, services)
            except BaseException as exc:  # handed to the caller, in its thread
                box["error"] = exc

        thread = threading.Thread(target=take, name="converge-inventory", daemon=True)
        thread.start()

        def result() -> Inventory:
            thread.join()
            if "error" in box:
                raise box["error"]
            found: Inventory = box["found"]
            return found

        return result

    def warm(self) -> None:
        """Build the inventory's clients now (once), while the runs go on."""
        if self._warmed:
            return
        self._warmed = True
        prepare_clients(self._emulator, sorted(self.regions), self._types)
