"""Faults: a recording HTTP proxy between Terraform and the emulator, and what it injects.

    from pytest_converge.faults import Proxy, Crash, parse_fault

    proxy = Proxy(upstream=emulator.endpoint)
    proxy.start()
    proxy.arm([parse_fault("crash@CreateVpc#1")], signal=kill_terraform)

Private modules, one job each: ``operations`` (which API call a request is),
``wire`` (AWS error formats per protocol), ``kinds`` (the faults), ``proxy``
(the HTTP server that forwards, records and applies faults).
"""

from __future__ import annotations

from typing import Any

from .kinds import (
    FAULT_KINDS,
    ApiError,
    Crash,
    Fault,
    Interrupt,
    LostResponse,
    Request,
    Throttle,
    deprecated_error_alias,
    parse_fault,
)
from .operations import Operation, identify, is_mutating
from .proxy import Call, Proxy
from .wire import Response

__all__ = [
    "FAULT_KINDS",
    "ApiError",
    "Call",
    "Crash",
    "Fault",
    "Interrupt",
    "LostResponse",
    "Operation",
    "Proxy",
    "Request",
    "Response",
    "Throttle",
    "identify",
    "is_mutating",
    "parse_fault",
]


def __getattr__(name: str) -> Any:
    # ``Error`` is the deprecated name of ApiError: warn where it is used.
    if name == "Error":
        return deprecated_error_alias()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
