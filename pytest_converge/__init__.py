"""pytest-converge: prove that Terraform modules converge.

Apply a real module against a local AWS emulator, inject faults mid-apply,
re-run, and check that the second plan is empty and that no duplicate or
orphaned cloud object exists. The guides, the fixtures and the options are
in the docs (``docs/``; ``mkdocs serve`` shows them).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# First: the package's other modules are then imported plainly (see there).
from . import _plain_imports  # noqa: F401  # isort: skip
from ._version import __version__
from .analysis.classify import Classification
from .analysis.defects import Defect
from .analysis.plan import UNKNOWN, AttributeChange, OutputChange, Plan, ResourceChange
from .emulator.base import Emulator
from .errors import (
    ConvergeError,
    ConvergenceError,
    DefectError,
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
from .faults import (
    ApiError,
    Call,
    Crash,
    Fault,
    Interrupt,
    LostResponse,
    Throttle,
    deprecated_error_alias,
    parse_fault,
)
from .inventory import CloudObject
from .plugin.collect.points import fault_points as _recorded_fault_points
from .run.stack import ApplyResult, ConvergeFactory, RecoveryReport, Stack
from .run.upgrade import UpgradeReport
from .terraform.planfile import explain_plan


def fault_points(config: object, module_dir: str | os.PathLike[str]) -> list[str]:
    """A module's fault points (``["CreateQueue#1@aws_sqs_queue.jobs", ...]``) at collection time.

    For ``pytest_generate_tests``: recorded once per module per session (one
    clean apply against the session's emulator), shared by xdist workers.

    >>> def pytest_generate_tests(metafunc):                        # doctest: +SKIP
    ...     metafunc.parametrize("point", fault_points(metafunc.config, "modules/app"))
    """
    found = _recorded_fault_points(config, Path(module_dir).resolve())  # type: ignore[arg-type]
    if found.error:
        raise FaultError(f"could not record the fault points of {module_dir}: {found.error}")
    return list(found.points)


def __getattr__(name: str) -> Any:
    # ``Error`` is the deprecated name of the ApiError fault: warn where it is used.
    if name == "Error":
        return deprecated_error_alias()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "WriterError",
    "__version__",
    "explain_plan",
    "fault_points",
    "parse_fault",
]
