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

import dataclasses
import re
import signal as _signal
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import FaultError
from .operations import Operation
from .wire import Response, error_response, throttle_response

#: What a fault calls to stop Terraform: ``signal(signal.SIGKILL)`` / ``signal(signal.SIGINT)``.
Signal = Callable[[int], object]

FAULT_KINDS = ("error", "lost-response", "throttle", "crash", "interrupt")

_FORM = (
    "<kind>@<Operation>#<n>[:key=value,...], e.g. crash@CreateVpc#1 or "
    "error@CreateVpc#1:status=503,code=ServiceUnavailable, with <kind> one of "
    + ", ".join(FAULT_KINDS)
)


#: An AWS error code (``Throttling``, ``InvalidVpcID.NotFound``): no label separators in it.
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_.]*")


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


@dataclass(frozen=True)
class Fault:
    """Base of the fault kinds: ``op``, ``n`` (1-based occurrence), ``kind``, ``label``.

    A kind is a frozen dataclass subclass with its own ``kind`` name and
    ``before()`` and/or ``after()``; its settings are further fields with
    defaults, checked in ``__post_init__`` after ``super().__post_init__()``.
    """

    kind: ClassVar[str] = ""
    op: str
    n: int = 1

    def __post_init__(self) -> None:
        self._check()

    @property
    def label(self) -> str:
        """``kind@Op#n``, plus ``:key=value,...`` for settings not at their default.

        ``parse_fault(fault.label) == fault`` for every fault:
        ``ApiError("CreateVpc", status=503).label == "error@CreateVpc#1:status=503"``.
        """
        settings = ",".join(
            f"{f.name}={getattr(self, f.name)}"
            for f in _settings(type(self))
            if getattr(self, f.name) != f.default
        )
        return f"{self.kind}@{self.op}#{self.n}" + (f":{settings}" if settings else "")

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
class ApiError(Fault):
    """The proxy answers with an AWS error; the emulator never sees the call.

    ``ApiError("CreateVpc", status=503, code="ServiceUnavailable")``; label
    ``error@CreateVpc#1:status=503,code=ServiceUnavailable``.
    """

    kind: ClassVar[str] = "error"
    status: int = 500
    code: str = "InternalError"

    def __post_init__(self) -> None:
        super().__post_init__()
        if (
            isinstance(self.status, bool)
            or not isinstance(self.status, int)
            or not (400 <= self.status <= 599)
        ):
            raise FaultError(
                f"ApiError({self.op!r}): status must be an HTTP error status "
                f"400-599, got {self.status!r}"
            )

        if not isinstance(self.code, str) or not _CODE.fullmatch(self.code):
            raise FaultError(
                f"ApiError({self.op!r}): code must be an AWS error code such as "
                f"'InternalError' or 'InvalidVpcID.NotFound', got {self.code!r}"
            )

    def before(self, request: Request) -> Response | None:
        return request.error(self.status, self.code, f"Injected by pytest-converge ({self.label})")


@dataclass(frozen=True)
class LostResponse(Fault):
    """The emulator processes the call; the client gets a 500 instead of the answer."""

    kind: ClassVar[str] = "lost-response"

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        return request.error(
            500, "InternalError", f"Response lost (injected by pytest-converge, {self.label})"
        )


@dataclass(frozen=True)
class Throttle(Fault):
    """Occurrences n .. n+times-1 are throttled (never forwarded); later ones succeed.

    SDKs retry throttling, and every retry is a new occurrence, so ``times``
    throttles followed by a success is what a client sees of a busy API.
    ``Throttle("CreateQueue", 2, times=5)``; label ``throttle@CreateQueue#2:times=5``.
    """

    kind: ClassVar[str] = "throttle"
    times: int = field(default=3, kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
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

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        # Signal before answering: a client that read the answer could record
        # the resource in its state, which is exactly what a crash must prevent.
        signal(_signal.SIGKILL)
        return Response.dropped()


@dataclass(frozen=True)
class Interrupt(Fault):
    """SIGINT Terraform after the call (graceful stop, like Ctrl-C); the answer is sent."""

    kind: ClassVar[str] = "interrupt"

    def after(self, request: Request, response: Response, signal: Signal) -> Response | None:
        signal(_signal.SIGINT)
        return None


_KINDS: dict[str, type[Fault]] = {
    "error": ApiError,
    "lost-response": LostResponse,
    "throttle": Throttle,
    "crash": Crash,
    "interrupt": Interrupt,
}

#: Faults that stop Terraform and so need a ``signal`` callback when armed.
SIGNALLING = (Crash, Interrupt)


def _settings(cls: type[Fault]) -> list[dataclasses.Field[Any]]:
    """A fault kind's settings beyond ``op`` and ``n`` (``status``, ``code``, ``times``)."""
    return [f for f in dataclasses.fields(cls) if f.name not in ("op", "n")]


def parse_fault(text: str) -> Fault:
    """Read a fault label: ``parse_fault("crash@CreateVpc#1") == Crash("CreateVpc", n=1)``.

    Settings follow a colon: ``parse_fault("throttle@CreateQueue#1:times=5")``.
    """
    if not isinstance(text, str):
        raise FaultError(f"a fault is written {_FORM}; got {text!r}")
    text, _, given = text.partition(":")
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
    cls = _KINDS[kind]
    settings: dict[str, Any] = {}
    known = {f.name: f for f in _settings(cls)}
    for part in (p.strip() for p in given.split(",") if p.strip()):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in known:
            valid = ", ".join(known) or "none"
            raise FaultError(
                f"bad setting {part!r} in {text!r}:{given}: a {kind} fault takes "
                f"key=value settings {valid}; write {_FORM}"
            )
        if isinstance(known[key].default, int):
            if not value.lstrip("-").isdigit():
                raise FaultError(f"{key} in {text!r}:{given} must be an integer, got {value!r}")
            settings[key] = int(value)
        else:
            settings[key] = value
    return cls(op.strip(), int(count), **settings)


def __getattr__(name: str) -> Any:
    if name == "Error":
        return deprecated_error_alias()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deprecated_error_alias() -> type[ApiError]:
    """``Error``, the old name of :class:`ApiError` (read as an exception; renamed)."""
    warnings.warn(
        "pytest_converge Error fault is renamed ApiError (it is a fault, not an exception); "
        "Error will be removed in a future release",
        DeprecationWarning,
        stacklevel=3,
    )
    return ApiError
