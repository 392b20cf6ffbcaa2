"""Fault kinds: small objects that change one API call's fate.

A fault names the n-th occurrence of an operation (``crash@CreateVpc#1``), or
the n-th made while one resource's apply runs (``crash@CreateQueue#1@aws_sqs_queue.jobs``,
*pinned*): terraform orders independent resources freely, so only a pinned fault
hits the same resource's call in every run. Like pytest-httpserver's
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

from ..analysis.addresses import outside_keys
from ..errors import FaultError
from .operations import Operation
from .wire import Response, error_response, throttle_response

#: What a fault calls to stop Terraform: ``signal(signal.SIGKILL)`` / ``signal(signal.SIGINT)``.
Signal = Callable[[int], object]

FAULT_KINDS = ("error", "lost-response", "throttle", "crash", "interrupt")

_FORM = (
    "<kind>@<Operation>#<n>[@<resource address>][:key=value,...], e.g. crash@CreateVpc#1, "
    "crash@CreateQueue#1@aws_sqs_queue.jobs or "
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
    """Base of the fault kinds: ``op``, ``n`` (1-based occurrence), ``address``, ``label``.

    With ``address`` the fault is pinned to that resource: ``n`` counts only the
    calls of ``op`` made while its apply is open (``Crash("CreateQueue",
    address="aws_sqs_queue.jobs")``). Without, ``n`` counts every call of ``op``.

    A kind is a frozen dataclass subclass with its own ``kind`` name and
    ``before()`` and/or ``after()``; its settings are further fields with
    defaults, checked in ``__post_init__`` after ``super().__post_init__()``.
    """

    kind: ClassVar[str] = ""
    op: str
    n: int = 1
    address: str | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        self._check()

    @property
    def label(self) -> str:
        """``kind@Op#n``, ``@address`` if pinned, ``:key=value,...`` for settings off default.

        ``parse_fault(fault.label) == fault`` for every fault:
        ``ApiError("CreateVpc", status=503).label == "error@CreateVpc#1:status=503"``,
        ``Crash("CreateQueue", address="aws_sqs_queue.jobs").label ==
        "crash@CreateQueue#1@aws_sqs_queue.jobs"``.
        """
        settings = ",".join(
            f"{f.name}={getattr(self, f.name)}"
            for f in _settings(type(self))
            if getattr(self, f.name) != f.default
        )
        return f"{self.kind}@{self.point}" + (f":{settings}" if settings else "")

    @property
    def point(self) -> str:
        """The fault point: ``Op#n``, or ``Op#n@address`` when pinned (as ``Call.point``)."""
        return f"{self.op}#{self.n}" + (f"@{self.address}" if self.address else "")

    def hits(self, operation: str, occurrence: int) -> bool:
        """True when this fault applies to the ``occurrence``-th call of ``operation``.

        For a pinned fault the proxy counts occurrences within ``address``'s apply
        and asks only about the calls made for it.
        """
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
        address = self.address
        if address is not None and (
            not isinstance(address, str)
            or "." not in address
            or address != address.strip()
            or _split_settings(address)[1] is not None
        ):
            raise FaultError(
                f"{type(self).__name__}({self.op!r}): address must be a resource address "
                f"such as 'aws_sqs_queue.jobs' or 'module.app.aws_vpc.main[0]', got {address!r}"
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
    """A fault kind's settings beyond ``op``, ``n`` and ``address`` (``status``, ``times``)."""
    return [f for f in dataclasses.fields(cls) if f.name not in ("op", "n", "address")]


def _split_settings(text: str) -> tuple[str, str | None]:
    """``aws_x.q["a:b"]:times=5`` -> ``('aws_x.q["a:b"]', 'times=5')``.

    The settings start at the first colon outside an address's brackets and
    quoted keys (a ``for_each`` key may hold any character); None when there are none.
    """
    colons = outside_keys(text, ":")
    if colons:
        return text[: colons[0]], text[colons[0] + 1 :]
    return text, None


def parse_fault(text: str) -> Fault:
    """Read a fault label: ``parse_fault("crash@CreateVpc#1") == Crash("CreateVpc", n=1)``.

    A resource address after the occurrence pins the fault to that resource
    (``crash@CreateQueue#1@aws_sqs_queue.jobs``); settings follow a colon:
    ``parse_fault("throttle@CreateQueue#1:times=5")``.
    """
    if not isinstance(text, str):
        raise FaultError(f"a fault is written {_FORM}; got {text!r}")
    whole = text.strip()
    kind, at, rest = whole.partition("@")
    # An operation name has no '#' (a URL fragment is never sent): the first one ends it.
    op, hash_, tail = rest.partition("#")
    count, after = re.match(r"([^@:]*)(.*)", tail, re.S).groups()  # type: ignore[union-attr]
    address: str | None = None
    given: str | None = after[1:] if after.startswith(":") else None
    if after.startswith("@"):
        address, given = _split_settings(after[1:])
    # The label without its settings, for the messages.
    text = whole if given is None else whole[: -len(given) - 1]
    given = given or ""
    kind = kind.strip().lower()
    if not at or not hash_ or not op.strip() or not kind or ":" in op:
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
    if address is not None and not address.strip():
        raise FaultError(f"bad fault {text!r}: no resource address after '@'; write {_FORM}")
    return cls(op.strip(), int(count), address=address, **settings)


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
