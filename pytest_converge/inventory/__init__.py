"""Cloud inventory: which objects exist in the emulator right now, in every region.

Three modules, one job each:

* :mod:`.engine`: the model (:class:`CloudObject`, :class:`Inventory`) and how
  an inventory is taken (:func:`take_inventory`: regions, services, the thread
  pool, cached clients, errors), with the built-in hook implementation;
* :mod:`.listers`: how each resource type is listed (:data:`BUILTIN_LISTERS`);
* :mod:`.catalogue`: what is known of each resource type (:data:`CATALOGUE`),
  which the listers and ``analysis/`` (leftovers, hints) read.

This module re-exports the names the rest of the project and users import;
the plugin registers it as ``converge-inventory`` (:data:`PLUGIN`).
"""

from __future__ import annotations

from . import listers as listers
from .catalogue import CATALOGUE, GLOBAL, ResourceType, route_id, rule_ids
from .engine import (
    BUILTIN_LISTERS,
    MAX_WORKERS,
    CloudObject,
    Inventory,
    Listed,
    Lister,
    Scope,
    hookimpl,
    planned,
    prepare_clients,
    pytest_converge_inventory,
    take_inventory,
)
from .engine import (
    _client as _client,  # tests build clients of the embedded moto with it
)
from .listers import one_call, simple

#: The name this module is registered under as a pytest plugin.
PLUGIN = "converge-inventory"

__all__ = [
    "BUILTIN_LISTERS",
    "CATALOGUE",
    "GLOBAL",
    "MAX_WORKERS",
    "PLUGIN",
    "CloudObject",
    "Inventory",
    "Listed",
    "Lister",
    "ResourceType",
    "Scope",
    "hookimpl",
    "one_call",
    "planned",
    "prepare_clients",
    "pytest_converge_inventory",
    "route_id",
    "rule_ids",
    "simple",
    "take_inventory",
]
