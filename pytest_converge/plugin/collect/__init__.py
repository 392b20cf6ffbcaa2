"""Zero-code mode: every Terraform root module under ``--converge PATH`` becomes pytest items.

    pytest --converge modules/                     # two-run + default fault scenarios
    pytest --converge modules/ --converge-faults=all -n 2
    pytest --converge modules/ -k "network and crash" --collect-only -q

Each root module yields ``<module>::two-run`` and one ``<module>::<kind>@<Op>#<n>``
per fault kind and mutating API call of a clean apply (its *fault points*),
e.g. ``modules/network::crash@CreateVpc#1``. The fault points are recorded at
collection time, once per module content per session (and shared between
xdist workers through a file in their common base temp dir), so
``--collect-only`` lists exactly what would run.

One module per job:

- :mod:`.discovery`: the root modules under a PATH;
- :mod:`.cache`: work done once per run and shared by xdist workers (a locked file);
- :mod:`.points`: fault points and drift targets, recorded by one clean apply;
- :mod:`.stacks`: the Stack an item runs, built as the fixture builds one;
- :mod:`.items`: the collectors and items, their reports and reproduce lines;
- :mod:`.arguments`: ``--converge`` paths checked, ``dir::scenario`` arguments rewritten
  (this module's hooks);
- :mod:`.revision` and :mod:`.upgrade_items`: ``--converge-upgrade-from`` and
  ``--converge-stages`` (its own hooks);
- :mod:`.plans`: ``--converge-plan FILE``, a saved plan's gate, ``<file>::plan-gate``
  (its own hooks; no emulator).

The ``--converge*`` values are parsed once, in :mod:`pytest_converge.plugin.options`
(``settings(config).faults``, ``.drift``, ``.stages``, ...). A module's variables
(``converge.tfvars``) are read by :mod:`pytest_converge.terraform.tfvars`.
The hooks live in ``arguments``, ``plans`` and ``upgrade``; ``plugin.py`` registers
those modules, so nothing here is a hook.
"""

from __future__ import annotations

from ..options import DEFAULT_FAULTS, allow_list, drift_kinds, fault_kinds, stage_names
from .directory import ConvergeDirectory
from .discovery import Discovery, discover
from .items import ConvergeCoverageWarning, ConvergeItem, ConvergeUntestedWarning, FaultPointsError
from .points import DriftTargets, FaultPoints, drift_targets, fault_points
from .stacks import make_stack

__all__ = [
    "DEFAULT_FAULTS",
    "ConvergeCoverageWarning",
    "ConvergeDirectory",
    "ConvergeItem",
    "ConvergeUntestedWarning",
    "Discovery",
    "DriftTargets",
    "FaultPoints",
    "FaultPointsError",
    "allow_list",
    "discover",
    "drift_kinds",
    "drift_targets",
    "fault_kinds",
    "fault_points",
    "make_stack",
    "stage_names",
]
