"""Fault kinds: small objects that change one API call's fate.

A fault names the n-th occurrence of an operation (``crash@CreateVpc#1``), so
it hits the same call in every run of the same module. Like pytest-httpserver's
response handlers, each fault has two hooks the proxy calls:

- ``before(request)``: may answer instead of forwarding (the emulator never
  sees the call);
- ``after(request, response, signal)``: runs once the emulator has answered;
  may replace the answer, drop it, or signal the Terraform process.

Faults are immutable and keep no state, so one object can be armed for many
runs; the proxy counts occurrences and remembers which faults fired.
"""

from __future__ import annotations

import signal as _signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import FaultError
from .operations import Operation
from .wire import Response, error_response, throttle_response

#: What a fault calls to stop Terraform: ``signal(signal.SIGKILL)`` / ``signal(signal.SIGINT)``.
Signal = Callable[[int], object]

FAULT_KINDS = ("error", "lost-response", "throttle", "crash", "interrupt")

_FORM = "<kind>@<Operation>#<n>, e.g. crash@CreateVpc#1, with <kind> one of " + ", ".join(
    FAULT_KINDS
)


@dataclass(frozen=True)
class Request:
    """What a fault sees of the call it may hit."""

    operation: Operation
    occurrence: int
    method: str
    path: str
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def content_type(self) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == "content-type"), None)

    def error(self, status: int, code: str, message: str) -> Response:
        """An AWS error in this call's wire protocol."""
        return error_response(
            self.operation.protocol,
            status,
            code,
            message,
            method=self.method,
            content_type=self.content_type,
        )


class Fault:
    """Base of the fault kinds: ``op``, ``n`` (1-based occurrence), ``kind``, ``label``."""

    kind: ClassVar[str] = ""
    op: str
    n: int

    @property
    def label(self) -> str:
        """``kind@Op#n``, the form ``parse_fault`` reads back."""
        return f"{self.kind}@{self.op}#{self.n}"

    def hits(self, operation: str, occurrence: int) -> bool:
        """True when this fault applies to the ``occurrence``-th call of ``operation``."""
        return operation == self.op and occurrence == self.n

    def before(self, request: Request) -> Response | None:
        """Answer instead of forwarding (return a Response), or None to forward."""
        return None

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        """Replace the emulator's answer (return a Response), or None to pass it on."""
        return None

    def _check(self) -> None:
        if not isinstance(self.op, str) or not self.op.strip() or self.op != self.op.strip():
            raise FaultError(
                f"{type(self).__name__}: operation name {self.op!r} is empty or "
                f"padded; write {_FORM}"
            )
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
            raise FaultError(
                f"{type(self).__name__}({self.op!r}): n must be an integer >= 1 "
                f"(the 1-based occurrence of the call), got {self.n!r}"
            )


@dataclass(frozen=True)
class Error(Fault):
    """The proxy answers with an AWS error; the emulator never sees the call."""

    kind: ClassVar[str] = "error"
    op: str
    n: int = 1
    status: int = 500
    code: str = "InternalError"

    def __post_init__(self) -> None:
        self._check()
        if (
            isinstance(self.status, bool)
            or not isinstance(self.status, int)
            or not (400 <= self.status <= 599)
        ):
            raise FaultError(
                f"Error({self.op!r}): status must be an HTTP error status "
                f"400-599, got {self.status!r}"
            )

    def before(self, request: Request) -> Response | None:
        return request.error(self.status, self.code, f"Injected by pytest-converge ({self.label})")


@dataclass(frozen=True)
class LostResponse(Fault):
    """The emulator processes the call; the client gets a 500 instead of the answer."""

    kind: ClassVar[str] = "lost-response"
    op: str
    n: int = 1

    def __post_init__(self) -> None:
        self._check()

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        return request.error(
            500, "InternalError", f"Response lost (injected by pytest-converge, {self.label})"
        )


@dataclass(frozen=True)
class Throttle(Fault):
    """Occurrences n .. n+times-1 are throttled (never forwarded); later ones succeed.

    SDKs retry throttling, and every retry is a new occurrence, so ``times``
    throttles followed by a success is what a client sees of a busy API.
    """

    kind: ClassVar[str] = "throttle"
    op: str
    times: int = 3
    n: int = 1

    def __post_init__(self) -> None:
        self._check()
        if isinstance(self.times, bool) or not isinstance(self.times, int) or self.times < 1:
            raise FaultError(
                f"Throttle({self.op!r}): times must be an integer >= 1, got {self.times!r}"
            )

    def hits(self, operation: str, occurrence: int) -> bool:
        return operation == self.op and self.n <= occurrence < self.n + self.times

    def before(self, request: Request) -> Response | None:
        return throttle_response(
            request.operation.protocol, method=request.method, content_type=request.content_type
        )


@dataclass(frozen=True)
class Crash(Fault):
    """SIGKILL Terraform right after the emulator processed the call; no answer is sent."""

    kind: ClassVar[str] = "crash"
    op: str
    n: int = 1

    def __post_init__(self) -> None:
        self._check()

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        # Signal before answering: a client that read the answer could record
        # the resource in its state, which is exactly what a crash must prevent.
        signal(_signal.SIGKILL)
        return Response.dropped()


@dataclass(frozen=True)
class Interrupt(Fault):
    """SIGINT Terraform after the call (graceful stop, like Ctrl-C); the answer is sent."""

    kind: ClassVar[str] = "interrupt"
    op: str
    n: int = 1

    def __post_init__(self) -> None:
        self._check()

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        signal(_signal.SIGINT)
        return None


_KINDS: dict[str, type[Fault]] = {
    "error": Error,
    "lost-response": LostResponse,
    "throttle": Throttle,
    "crash": Crash,
    "interrupt": Interrupt,
}

#: Faults that stop Terraform and so need a ``signal`` callback when armed.
SIGNALLING = (Crash, Interrupt)


def parse_fault(text: str) -> Fault:
    """Read a fault label: ``parse_fault("crash@CreateVpc#1") == Crash("CreateVpc", n=1)``."""
    if not isinstance(text, str):
        raise FaultError(f"a fault is written {_FORM}; got {text!r}")
    kind, at, rest = text.strip().partition("@")
    op, hash_, count = rest.rpartition("#")
    kind = kind.strip().lower()
    if not at or not hash_ or not op.strip() or not kind:
        raise FaultError(f"bad fault {text!r}: write {_FORM}")
    if kind not in _KINDS:
        raise FaultError(f"unknown fault kind {kind!r} in {text!r}: write {_FORM}")
    count = count.strip()
    if not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise FaultError(
            f"bad occurrence {count!r} in {text!r}: n is an integer >= 1; write {_FORM}"
        )
    return _KINDS[kind](op=op.strip(), n=int(count))  # type: ignore[call-arg]
