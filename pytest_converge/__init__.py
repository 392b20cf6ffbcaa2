"""pytest-converge: prove that Terraform modules converge.

Apply a real module against a local AWS emulator, inject faults mid-apply,
re-run, and check that the second plan is empty and that no duplicate or
orphaned cloud object exists. See the README for the fixtures and options.
"""

from __future__ import annotations

from .analysis.defects import Defect
from .analysis.plan import UNKNOWN, AttributeChange, OutputChange, Plan, ResourceChange
from .errors import (
    ConvergeError,
    ConvergenceError,
    EmulatorError,
    FaultError,
    ModuleError,
    TerraformError,
    TerraformTimeout,
    ToolchainError,
    UnsafeTargetError,
)
from .faults import Crash, Error, Fault, Interrupt, LostResponse, Throttle
from .stack import ApplyResult, RecoveryReport, Stack

__version__ = "0.1.0"

__all__ = [
    "UNKNOWN",
    "ApplyResult",
    "AttributeChange",
    "ConvergeError",
    "ConvergenceError",
    "Crash",
    "Defect",
    "EmulatorError",
    "Error",
    "Fault",
    "FaultError",
    "Interrupt",
    "LostResponse",
    "ModuleError",
    "OutputChange",
    "Plan",
    "RecoveryReport",
    "ResourceChange",
    "Stack",
    "TerraformError",
    "TerraformTimeout",
    "Throttle",
    "ToolchainError",
    "UnsafeTargetError",
    "__version__",
]
