"""The option parsers moved to :mod:`pytest_converge.plugin.options` (the table of every option);
these names stay importable from here for code written against earlier versions."""

from __future__ import annotations

from ..options import DEFAULT_FAULTS, allow_list, drift_kinds, fault_kinds, stage_names

__all__ = ["DEFAULT_FAULTS", "allow_list", "drift_kinds", "fault_kinds", "stage_names"]
