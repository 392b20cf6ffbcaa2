"""pytest-converge: prove that Terraform modules converge.

Apply a real module against a local AWS emulator, inject faults mid-apply,
re-run, and check that the second plan is empty and that no duplicate or
orphaned cloud object exists. See the README for the fixtures and options.
"""

from __future__ import annotations

import os

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
from .upgrade import UpgradeReport


def fault_points(config: object, module_dir: str | os.PathLike[str]) -> list[str]:
    """A module's fault points (``["CreateQueue#1", ...]``) at collection time.

    For ``pytest_generate_tests``: recorded once per module per session (one
    clean apply against the session's emulator), shared by xdist workers.

    >>> def pytest_generate_tests(metafunc):                        # doctest: +SKIP
    ...     metafunc.parametrize("point", fault_points(metafunc.config, "modules/app"))
    """
    from pathlib import Path

    from .collect import fault_points as recorded

    found = recorded(config, Path(module_dir).resolve())  # type: ignore[arg-type]
    if found.error:
        raise FaultError(f"could not record the fault points of {module_dir}: {found.error}")
    return list(found.points)


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
    "UpgradeReport",
    "__version__",
    "fault_points",
]
