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

from .kinds import (
    FAULT_KINDS,
    Crash,
    Error,
    Fault,
    Interrupt,
    LostResponse,
    Request,
    Throttle,
    parse_fault,
)
from .operations import Operation, identify, is_mutating
from .proxy import Call, Proxy
from .wire import Response

__all__ = [
    "FAULT_KINDS",
    "Call",
    "Crash",
    "Error",
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
