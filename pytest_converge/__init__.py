"""pytest-converge: prove that Terraform modules converge.

Apply a real module against a local AWS emulator, inject faults mid-apply,
re-run, and check that the second plan is empty and that no duplicate or
orphaned cloud object exists. The guides, the fixtures and the options are
in the docs (``docs/``; ``mkdocs serve`` shows them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# First: the package's other modules are then imported plainly (see there).
from . import _plain_imports  # noqa: F401  # isort: skip
from ._version import __version__
from .errors import (
    ConvergeError,
    ConvergenceError,
    DefectError,
    Diagnostic,
    EmulatorError,
    FaultError,
    FaultPointsError,
    LoopError,
    ModuleError,
    PlanFileError,
    RevisionError,
    TerraformError,
    TerraformStalled,
    TerraformTimeout,
    ToolchainError,
    UnsafeTargetError,
    UnsupportedServiceError,
    WriterError,
)

if TYPE_CHECKING:
    from .analysis.classify import Classification
    from .analysis.defects import Defect
    from .analysis.plan import UNKNOWN, AttributeChange, OutputChange, Plan, ResourceChange
    from .emulator.base import Emulator
    from .faults import ApiError, Call, Crash, Fault, Interrupt, LostResponse, Throttle, parse_fault
    from .inventory import CloudObject
    from .plugin.collect.points import point_labels as fault_points
    from .run.stack import ApplyResult, ConvergeFactory, RecoveryReport, Stack
    from .run.upgrade import UpgradeReport
    from .terraform.planfile import explain_plan
    from .terraform.workspace import Workspace

#: The rest of the public API, by the module that defines it, imported on first use
#: (``pytest_converge.Stack``): a process that needs none of it (``converge-terraform``,
#: run for every terraform command of the bundled engine) does not pay for the package.
_LAZY = {
    ".analysis.classify": ("Classification",),
    ".analysis.defects": ("Defect",),
    ".analysis.plan": ("UNKNOWN", "AttributeChange", "OutputChange", "Plan", "ResourceChange"),
    ".emulator.base": ("Emulator",),
    ".faults": ("ApiError", "Call", "Crash", "Fault", "Interrupt", "LostResponse", "Throttle",
                "parse_fault"),
    ".inventory": ("CloudObject",),
    ".run.stack": ("ApplyResult", "ConvergeFactory", "RecoveryReport", "Stack"),
    ".run.upgrade": ("UpgradeReport",),
    ".terraform.planfile": ("explain_plan",),
    ".terraform.workspace": ("Workspace",),
}  # fmt: skip
_HOME = {name: (module, name) for module, names in _LAZY.items() for name in names}
#: Public names defined under another name.
_HOME["fault_points"] = (".plugin.collect.points", "point_labels")


def __getattr__(name: str) -> Any:
    if name == "Error":
        # The deprecated name of the ApiError fault: warn where it is used.
        return importlib.import_module(".faults", __name__).deprecated_error_alias()
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _HOME[name]
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "UNKNOWN",
    "ApiError",
    "ApplyResult",
    "AttributeChange",
    "Call",
    "Classification",
    "CloudObject",
    "ConvergeError",
    "ConvergeFactory",
    "ConvergenceError",
    "Crash",
    "Defect",
    "DefectError",
    "Diagnostic",
    "Emulator",
    "EmulatorError",
    "Fault",
    "FaultError",
    "FaultPointsError",
    "Interrupt",
    "LoopError",
    "LostResponse",
    "ModuleError",
    "OutputChange",
    "Plan",
    "PlanFileError",
    "RecoveryReport",
    "ResourceChange",
    "RevisionError",
    "Stack",
    "TerraformError",
    "TerraformStalled",
    "TerraformTimeout",
    "Throttle",
    "ToolchainError",
    "UnsafeTargetError",
    "UnsupportedServiceError",
    "UpgradeReport",
    "Workspace",
    "WriterError",
    "__version__",
    "explain_plan",
    "fault_points",
    "parse_fault",
]
