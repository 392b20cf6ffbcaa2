"""Which backend a module runs on: the run's, a pin, or the one that serves it.

A module whose id matches a ``--converge-module-backends`` pattern runs on that
backend. Otherwise a module that needs a service moto has no code for at all (the
pre-flight names it) runs on MiniStack when one is installed (never provisioned
for this: that needs the package registry), MiniStack's own pre-flight finds every
operation the module's resources make served (``data/served/ministack.json``), and
it serves every service the module declares (types the operations data does not
know are checked by their service); its header and reports name the backend that
served it. An operation moto lacks in a service it has does not move the module:
moto judges the rest as AWS answers (its fidelity layer), and that part is left
out and named (partly verified), as is a module MiniStack cannot serve either::

    choice = backend_for("mods/cache", addresses, "moto", pins=(), moto=None)
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
    ministack: Preflight | None = None,
    ministack_unsupported: Collection[str] | None = None,
) -> BackendChoice:
    """The backend of ``module`` (its id), which declares ``addresses``.

    ``moto`` and ``ministack`` are the module's pre-flights on each (None: not asked),
    and ``ministack_unsupported`` the services an installed MiniStack cannot serve
    (None: no MiniStack installed). A module moves only when what moto lacks is
    whole services and MiniStack serves all of it.
    """
    for pattern, backend in pins:
        if fnmatch.fnmatchcase(module, pattern):
            why = f"pinned by --converge-module-backends {pattern}={backend}"
            return BackendChoice(backend, why if backend != run_backend else "")
    if run_backend != "moto" or moto is None or moto.ok or ministack_unsupported is None:
        return BackendChoice(run_backend)
    needs = {resource_service(a.removeprefix("data.").split(".")[0]) for a in addresses}
    if needs & set(ministack_unsupported):
        return BackendChoice(run_backend)
    # Only a whole service moto lacks moves a module: where moto lacks one operation,
    # the rest of the module is better judged by moto (its fidelity layer answers as AWS
    # does) than by MiniStack, whose answers elsewhere may differ from AWS's (a metric
    # alarm's period and statistic read back empty beside a composite alarm).
    if not all(u.service_missing for u in moto.unservable):
        return BackendChoice(run_backend)
    if ministack is not None and not ministack.ok:
        return BackendChoice(run_backend)
    lacks = sorted({u.service for u in moto.unservable})
    return BackendChoice(
        "ministack",
        f"moto has no code for {', '.join(lacks)} ({', '.join(sorted(moto.addresses))}); "
        "MiniStack serves every "
        + ("operation the pre-flight checks and every " if ministack is not None else "")
        + "service the module declares",
    )
