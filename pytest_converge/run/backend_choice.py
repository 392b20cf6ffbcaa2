"""Which backend a module runs on: the run's, a pin, or the one that serves it.

A module whose id matches a ``--converge-module-backends`` pattern runs on that
backend. Otherwise a module that needs a service moto has no code for at all (the
pre-flight names it) runs on MiniStack when one is installed (never provisioned
for this: that needs the package registry) and it serves every service the module
declares; its header and reports name the backend that served it. What MiniStack
serves is known per service only, so an operation moto lacks in a service both
have does not move the module (MiniStack may lack it too): it stays on the run's
backend, where that part is left out and named (partly verified)::

    choice = backend_for("mods/cache", addresses, "moto", pins=(), ministack=None)
    choice.backend, choice.why      # "moto", ""
"""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..analysis.preflight import Preflight
from ..emulator.base import resource_service

__all__ = ["BackendChoice", "backend_for"]


@dataclass(frozen=True)
class BackendChoice:
    """The backend a module runs on, and why when it is not the run's."""

    backend: str
    why: str = ""


def backend_for(
    module: str,
    addresses: Sequence[str],
    run_backend: str,
    *,
    pins: Sequence[tuple[str, str]] = (),
    moto: Preflight | None = None,
    ministack_unsupported: Collection[str] | None = None,
) -> BackendChoice:
    """The backend of ``module`` (its id), which declares ``addresses``.

    ``moto`` is the module's pre-flight on moto (None: not asked), and
    ``ministack_unsupported`` the services an installed MiniStack cannot serve (None: no
    MiniStack installed).
    """
    for pattern, backend in pins:
        if fnmatch.fnmatchcase(module, pattern):
            why = f"pinned by --converge-module-backends {pattern}={backend}"
            return BackendChoice(backend, why if backend != run_backend else "")
    if run_backend != "moto" or moto is None or moto.ok or ministack_unsupported is None:
        return BackendChoice(run_backend)
    if not all(u.service_missing for u in moto.unservable):
        return BackendChoice(run_backend)
    needs = {resource_service(a.removeprefix("data.").split(".")[0]) for a in addresses}
    if needs & set(ministack_unsupported):
        return BackendChoice(run_backend)
    return BackendChoice(
        "ministack",
        f"moto has no code for {', '.join(sorted({u.service for u in moto.unservable}))} "
        f"({', '.join(sorted(moto.addresses))}); MiniStack serves every service the "
        "module declares",
    )
