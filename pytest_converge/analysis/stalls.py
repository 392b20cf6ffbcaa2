"""Stalls: a terraform command that keeps asking the same thing and getting the same answer,
or waits in silence.

Where the emulator never changes what a provider waits for (moto never makes a
DynamoDB replica appear, never reads an SQS ``RedriveAllowPolicy`` back), the
provider polls its waiter until terraform's timeout; where a call is refused
(the egress guard, a host beyond the emulator) or keeps failing, its SDK
retries it for as long. Either costs up to ten minutes and ends in a timeout
that names no operation. :func:`find_stall` sees it in the proxy's call log
and the guard's refusals after :data:`STALL_LIMITS`, so the Stack stops the
command within a minute, and :func:`stall_defect` says which call it was.
A wait that asks nothing at all (a provider sleeping minutes for an object to
become ready, no call, nothing completing) makes no progress either:
:func:`find_silence` sees it after :attr:`StallLimits.silence` seconds.

Pure: the calls (``pytest_converge.faults.Call``), the refusals
(``pytest_converge.isolation.egress.Attempt``) and the times the run made progress in,
a :class:`Stall` or a ``stalled`` defect out.

    stall = find_stall(proxy.calls, guard.attempts, progress=[...])
    if stall is not None:
        print(stall.describe())   # emulator gap: dynamodb:DescribeTable answered ...
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .defects import ERROR, WARNING, Defect
from .egress_check import Refused, fix_for
from .gaps import Gap, operation_name, resource_type
from .plan import Plan, ResourceChange, holds_unknown

__all__ = [
    "KNOWN_WAIT_LIMITS",
    "SILENT_WAIT",
    "STALL_LIMITS",
    "Stall",
    "StallLimits",
    "answer_digest",
    "catalogued_wait",
    "error_code",
    "find_silence",
    "find_stall",
    "provider_sleep",
    "provisioning",
    "request_digest",
    "retried_egress",
    "stall_defect",
]

EMULATOR_GAP = "emulator-gap"
REFUSED_EGRESS = "refused-egress"
SILENT_WAIT = "silent-wait"


@dataclass(frozen=True)
class StallLimits:
    """When a command is stalled: the same request answered the same way ``repeats``
    times over at least ``seconds``, with no progress in between."""

    repeats: int = 3
    seconds: float = 35.0
    #: A wait with resources in flight and no call, nothing pending and no progress
    #: for this long is stalled whether or not it repeated anything. Provider waiters
    #: poll at least every 10-30 s (3.39's back off to 10 s; 5.x's SDK retries at most
    #: 20 s apart): two quiet minutes is no waiter of theirs.
    silence: float = 120.0


#: The limits a Stack uses (a Stack's ``settings.stall_limits`` overrides them, e.g. in a test).
#: Some waits see the same answer on purpose: aws 5.x creates an SQS queue and then
#: wants its attributes read back unchanged 6 times, 5 s apart (25 s; real AWS too).
#: 35 s stays clear of that; provider 3.39's waiters poll at most every 10 s, so a
#: stall is stopped 35-50 s after it starts, within a minute. A real wait (a resource
#: going pending -> available) changes its answer and is never stopped.
STALL_LIMITS = StallLimits()

#: A wait whose cause is already known is stopped sooner: the stalled read is polled for
#: the one resource of its service in flight, and the catalogue has an entry about that
#: resource type saying the provider polls that operation for an attribute the emulator
#: never changes (DynamoDB replicas, a subnet's DNS64, an SQS redrive allow policy).
#: 15 s leaves the provider three polls; on the 5.x corpus this saved ~35 s a stall.
KNOWN_WAIT_LIMITS = StallLimits(repeats=3, seconds=15.0, silence=15.0)

#: Silent waits the aws provider makes on purpose, on every backend: after the call
#: named, a resource of the type sleeps this many seconds before it first asks about
#: the object. Longer than :attr:`StallLimits.silence`, so such a wait is always cut;
#: knowing it, the watch cuts it after :attr:`KNOWN_WAIT_LIMITS`' silence instead,
#: when every resource in flight is such a sleeper (nothing else could still call).
#: ``(resource type, service:Operation) -> seconds``.
PROVIDER_SLEEPS: dict[tuple[str, str], float] = {
    # aws 5.x, opensearch waitForDomainCreation: tfresource.WithDelay(10*time.Minute)
    # before the first DescribeDomain (AWS takes 15-30 minutes to create a domain).
    ("aws_opensearch_domain", "es:CreateDomain"): 600.0,
}


class Answered(Protocol):
    """What the proxy records of a call (see ``pytest_converge.faults.Call``)."""

    service: str
    operation: str
    method: str
    path: str
    status: int
    started: float
    mutating: bool
    fault: str | None
    request_digest: str
    answer_digest: str
    error_code: str | None


@dataclass(frozen=True)
class Stall:
    """One request a command kept making against the same answer."""

    #: ``emulator-gap`` (the emulator's answer never changed), ``refused-egress``, or
    #: ``silent-wait`` (no call at all).
    kind: str
    #: ``dynamodb:DescribeTable``, or the refused ``host:port``; for a silent wait the
    #: last call made before it ("" when none).
    target: str
    times: int
    #: Seconds from the first to the last of the identical answers.
    seconds: float
    first: float
    last: float
    #: HTTP status of the answer (0 for a refusal) and its AWS error code, if any.
    status: int = 0
    error: str | None = None
    #: The repeated call changes something (a failing Create is retried, not polled).
    mutating: bool = False
    host: str = ""

    @property
    def answer(self) -> str:
        """``HTTP 200, unchanged``, ``HTTP 400 ResourceNotFoundException``, ``refused``."""
        if self.kind == REFUSED_EGRESS:
            return "refused"
        if self.kind == SILENT_WAIT:
            return f"HTTP {self.status}" + (f" {self.error}" if self.error else "")
        if self.status < 400:
            return f"HTTP {self.status}, an unchanged body"
        return f"HTTP {self.status}" + (f" {self.error}" if self.error else "")

    @property
    def polling(self) -> bool:
        """A waiter polling a read (rather than the SDK retrying a failing call)."""
        return not self.mutating and self.status < 400

    def describe(self, waited_for: str | None = None) -> str:
        """One sentence naming the call: the finding's message and the stopped command's error."""
        spent = f"{self.times} times in {self.seconds:.0f} s"
        if self.kind == SILENT_WAIT:
            last = (
                f"; its last call, {self.target}, was answered {self.answer}" if self.target else ""
            )
            return (
                f"silent wait: no API call and nothing completed for {self.seconds:.0f} s "
                f"while {waited_for or 'a resource'} was being applied (the provider waits "
                f"for the object to become ready without asking the emulator{last})"
            )
        if self.kind == REFUSED_EGRESS:
            return (
                f"refused egress to {self.target}: the provider kept retrying a call the "
                f"egress guard refused ({spent})"
            )
        doing = (
            f"polling a waiter for {waited_for}"
            if self.polling and waited_for
            else "polling a waiter"
            if self.polling
            else "retrying a failing call"
        )
        return (
            f"emulator gap: {self.target} answered the same ({self.answer}) {spent} "
            f"({doing}); the emulator may not implement what the provider waits for"
        )


def find_stall(
    calls: Iterable[Answered],
    refused: Iterable[Refused] = (),
    progress: Iterable[float] = (),
    limits: StallLimits = STALL_LIMITS,
) -> Stall | None:
    """The request a command is stuck on, or None.

    A request (operation and request digest; a refused ``host:port``) is stuck
    when it was answered the same way ``limits.repeats`` times over at least
    ``limits.seconds`` with no progress in between. Progress is a mutating call
    that succeeded, another request's answer changing (a resource moving from
    pending to available), or a time in ``progress`` (a resource's apply
    completing). Of several stuck requests the most repeated is returned.
    """
    # (time, order, key, answer, progress, call or refusal)
    seen: list[tuple[float, int, tuple[Any, ...], tuple[Any, ...], bool, Any]] = []
    for n, call in enumerate(calls):
        if call.status == 0 or call.fault is not None:
            continue  # a fault's answer (Throttle repeats one) is ours, not the emulator's
        key: tuple[Any, ...] = ("call", call.service, call.operation, call.request_digest)
        answer = (call.status, call.answer_digest)
        seen.append((call.started, n, key, answer, call.mutating and call.status < 400, call))
    for n, attempt in enumerate(refused):
        key = ("egress", attempt.host, attempt.port)
        seen.append((attempt.at, n, key, (), False, _Refusal(attempt)))
    seen.extend((t, n, ("progress",), (), True, None) for n, t in enumerate(progress))
    seen.sort(key=lambda s: (s[0], s[1]))

    # key -> [answer, first, last, times, sample]
    streaks: dict[tuple[Any, ...], list[Any]] = {}
    for at, _, key, answer, is_progress, item in seen:
        if is_progress:
            streaks.clear()
            continue
        streak = streaks.get(key)
        if streak is not None and streak[0] == answer:
            streak[2], streak[3] = at, streak[3] + 1
            continue
        if streak is not None:  # the answer changed: that request is moving
            streaks.clear()
        streaks[key] = [answer, at, at, 1, item]
    stuck = [
        s for s in streaks.values() if s[3] >= limits.repeats and s[2] - s[1] >= limits.seconds
    ]
    if not stuck:
        return None
    _, first, last, times, item = max(stuck, key=lambda s: (s[3], s[2] - s[1]))
    if isinstance(item, _Refusal):
        host, port = item.attempt.host, item.attempt.port
        return Stall(REFUSED_EGRESS, f"{host}:{port}", times, last - first, first, last, host=host)
    return Stall(
        EMULATOR_GAP,
        operation_name(item.service, item.operation, item.method, item.path),
        times,
        last - first,
        first,
        last,
        status=item.status,
        error=item.error_code,
        mutating=item.mutating,
    )


@dataclass(frozen=True)
class _Refusal:
    attempt: Refused


def provisioning(timeline: Iterable[tuple[float, dict[str, Any]]]) -> set[str]:
    """Addresses whose provisioner (``local-exec``...) is running, from terraform's
    ``-json`` events: such a resource waits on its own script, not on the emulator."""
    running: set[str] = set()
    for _, event in timeline:
        address = (event.get("hook") or {}).get("resource", {}).get("addr")
        kind = event.get("type")
        if not address:
            continue
        if kind == "provision_start":
            running.add(address)
        elif kind in ("provision_complete", "provision_errored"):
            running.discard(address)
    return running


def find_silence(
    calls: Iterable[Answered],
    progress: Iterable[float],
    waiting: Sequence[str],
    now: float,
    since: float,
    limits: StallLimits = STALL_LIMITS,
    pending: int = 0,
) -> Stall | None:
    """A command waiting in silence, or None.

    ``waiting`` are the resources whose apply is open (a provisioner running is no
    such wait: leave its resource out); ``since`` is when the command started,
    ``now`` the time it is (the calls' clock); ``pending`` how many calls are
    waiting for the emulator's answer (then the emulator is busy, not the provider
    quiet). Silent when nothing happened (no call made, no progress) for
    ``limits.silence`` seconds: the provider waits for something it never asks about.
    Only the AWS provider's resources wait on the emulator (a ``time_sleep`` waits on
    purpose).
    """
    waiting = [a for a in waiting if (resource_type(a) or "").startswith("aws_")]
    if not waiting or pending:
        return None
    answered = [c for c in calls if c.status != 0 and c.fault is None]
    last = max(answered, key=lambda c: c.started, default=None)
    quiet_from = max([since, *progress, *(c.started for c in answered)])
    quiet = now - quiet_from
    if quiet < limits.silence:
        return None
    return Stall(
        SILENT_WAIT,
        operation_name(last.service, last.operation, last.method, last.path) if last else "",
        0,
        quiet,
        quiet_from,
        now,
        status=last.status if last else 0,
        error=last.error_code if last else None,
        mutating=last.mutating if last else False,
    )


def provider_sleep(stall: Stall, waiting: Sequence[str]) -> tuple[str, float] | None:
    """The provider's own sleep that explains the silent wait ``stall`` (its resource
    type and seconds), or None.

    ``waiting`` are the resources in flight: every AWS one must be of a type that
    sleeps after ``stall``'s last call (:data:`PROVIDER_SLEEPS`); another resource in
    flight may be in a shorter wait of its own, and that must not be cut short.
    """
    if stall.kind != SILENT_WAIT or not stall.target:
        return None
    types = {resource_type(a) or "" for a in waiting}
    types = {t for t in types if t.startswith("aws_")}
    sleeps = [PROVIDER_SLEEPS.get((t, stall.target)) for t in sorted(types)]
    if not types or any(s is None for s in sleeps):
        return None
    return sorted(types)[0], max(s for s in sleeps if s is not None)


def stall_defect(
    stall: Stall,
    command: str,
    stopped_after: float,
    addresses: Sequence[str],
    gaps: Sequence[Gap] = (),
    *,
    emulator: str = "moto",
    module: str = "",
    scenario: str = "",
    strict: bool = False,
) -> Defect:
    """The ``stalled`` finding of a command stopped on ``stall``.

    ``addresses`` are the resources in flight when it was stopped; ``gaps`` the
    catalogue entries that apply to this emulator: one about a waiting
    resource's type that names the stalled operation gives the attribute waited
    for (and is the evidence). An emulator gap is ``emulator_suspected`` and, as
    other suspected gaps, a warning unless ``strict``; a refused connection is
    an error.
    """
    address = addresses[0] if addresses else None
    gap = _waited_for(address, stall, gaps)
    attribute = gap.attribute if gap is not None and gap.attribute not in ("", "*") else None
    waited_for = f"{address}.{attribute}" if address and attribute else address
    found = Defect(
        kind="stalled",
        address=address,
        module=module,
        scenario=scenario,
        message=f"{stall.describe(waited_for)}; pytest-converge stopped `{command}` "
        f"{stopped_after:.0f} s after it started, instead of letting it run into its timeout",
    )
    severity = ERROR if strict else WARNING
    if stall.kind == SILENT_WAIT:
        return _silent_wait_defect(found, stall, addresses, emulator, severity)
    if stall.kind == REFUSED_EGRESS:
        return replace(
            found,
            declared="only the local emulator",
            observed=f"{stall.times} refused connections to {stall.target} in "
            f"{stall.seconds:.0f} s",
            why=_REFUSED_EGRESS_WHY,
            fix=fix_for(stall.host),
        )
    spent = f"{stall.times} times in {stall.seconds:.0f} s"
    return replace(
        found,
        attribute=attribute,
        declared="an answer that changes (the state the provider waits for)",
        observed=f"{stall.target} answered {stall.answer} {spent}",
        why=f"the {emulator} emulator " + _EMULATOR_GAP_WHY,
        fix=f"test the resource that needs `{stall.target}` " + _EMULATOR_GAP_FIX,
        severity=severity,
        emulator_suspected=True,
        evidence=gap.describe(None)
        if gap is not None
        else f"the {emulator} emulator answered {stall.target} the same way {stall.times} "
        f"times over {stall.seconds:.0f} s while nothing else progressed",
    )


def _silent_wait_defect(
    found: Defect, stall: Stall, addresses: Sequence[str], emulator: str, severity: str
) -> Defect:
    """:func:`stall_defect` of a silent wait: the provider's own sleep named, if it is one."""
    address = addresses[0] if addresses else None
    fix = (
        f"if {address or 'the resource'} waits for a state the {emulator} emulator "
        "never reaches, " + _SILENT_WAIT_FIX
    )
    slept = provider_sleep(stall, addresses)
    if slept is not None:
        found = replace(
            found,
            message=f"{found.message} (the aws provider sleeps {slept[1]:.0f} s after "
            f"{stall.target} before it first reads an {slept[0]}, on every backend: "
            "stopped once nothing else was in flight)",
        )
        fix = (
            f"no backend shortens the provider's own sleep: leave {address} out of the "
            "module under test (a count/for_each switched off in converge.tfvars) to "
            "check what depends on it, or keep it as the untested part"
        )
    return replace(
        found,
        declared="progress: an API call, or the resource completing",
        observed=f"no API call for {stall.seconds:.0f} s",
        why=_SILENT_WAIT_WHY,
        fix=fix,
        severity=severity,
    )


#: Why each kind of stall happens, and the rest of its fix.
_SILENT_WAIT_WHY = (
    "the provider waited for the object to become ready without a call the emulator could "
    "answer (a long sleep, or a backoff after an answer that said not ready yet): a wait "
    "that makes no progress runs into terraform's timeout"
)
_SILENT_WAIT_FIX = (
    "test it on another backend (--converge-backend) or leave it out of the module under "
    "test (a count/for_each switched off in converge.tfvars); if it waits on purpose (a "
    "sleep in the module), shorten the wait for the test"
)
_REFUSED_EGRESS_WHY = (
    "the provider sends this service's calls to a real host, not to the emulator endpoint "
    "the provider override sets, and its SDK retries a refused connection until "
    "terraform's timeout"
)
_EMULATOR_GAP_WHY = (
    "accepted the request but never changes the answer the provider waits for (or keeps "
    "failing a call AWS serves), so the provider would poll or retry it until terraform's "
    "timeout"
)
_EMULATOR_GAP_FIX = (
    "on another backend (--converge-backend), or leave it out of the module under test "
    "(a count/for_each switched off in converge.tfvars)"
)


def retried_egress(
    egress: Sequence[Defect], stall: Stall, command: str, stopped_after: float
) -> bool:
    """Tell the ``egress`` defects of ``stall``'s host that the provider kept retrying.

    A refused connection already is an ``egress`` finding; the stall adds how
    long it went on, that the command was stopped, and the fix. False when no
    defect is about that host (then the stall is a finding of its own).
    """
    told = False
    for defect in egress:
        if defect.kind != "egress" or f" {stall.host}:" not in f" {defect.observed}":
            continue
        defect.message += (
            f"; the provider kept retrying it ({stall.times} refused connections in "
            f"{stall.seconds:.0f} s), so pytest-converge stopped `{command}` after "
            f"{stopped_after:.0f} s instead of letting it run into its timeout"
        )
        defect.fix = fix_for(stall.host)
        told = True
    return told


def catalogued_wait(stall: Stall, address: str | None, gaps: Sequence[Gap]) -> Gap | None:
    """The catalogue entry that explains ``stall``, a waiter of ``address`` polling an
    answer the emulator never changes, or None (then the stall must wait its full limits).

    ``address`` is the one resource in flight whose service the stalled call is for
    (None when several could have made it: a legitimate wait of another resource of
    the same service must not be cut short).
    """
    if stall.kind != EMULATOR_GAP or not stall.polling or address is None:
        return None
    gap = _waited_for(address, stall, gaps)
    return gap if gap is not None and "poll" in gap.real_api else None


def _waited_for(address: str | None, stall: Stall, gaps: Sequence[Gap]) -> Gap | None:
    """The catalogue entry about the waiting resource's type that names the stalled operation.

    Of several (aws_subnet has gaps in DescribeSubnets' answer for more than one
    attribute), a waiter's stall is the entry that says the provider polls for it.
    """
    rtype = resource_type(address)
    operation = stall.target.rpartition(":")[2]
    named = [g for g in gaps if g.resource_type == rtype and operation in g.real_api + g.evidence]
    if stall.polling:
        named.sort(key=lambda g: "poll" not in g.real_api)  # stable: catalogue order otherwise
    return named[0] if named else None


# -- digests the proxy records -------------------------------------------------------------

#: Parts of an answer that differ between two identical answers: request ids, UUIDs.
_VOLATILE = re.compile(
    rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-zA-Z]{12}"
    rb"|<RequestId>[^<]*</RequestId>|<requestId>[^<]*</requestId>"
    rb'|"RequestId"\s*:\s*"[^"]*"'
)
_DIGEST_LIMIT = 1 << 16


def request_digest(method: str, target: str, body: bytes) -> str:
    """What identifies one request across its repeats: method, path and query, body."""
    return _digest(method.encode() + b" " + target.encode() + b"\n" + body)


def answer_digest(status: int, body: bytes) -> str:
    """What identifies an answer across repeats: status and body, without request ids."""
    if len(body) <= _DIGEST_LIMIT:
        body = _VOLATILE.sub(b"", body)
    return _digest(str(status).encode() + b"\n" + body)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


_XML_CODE = re.compile(rb"<Code>([^<]{1,100})</Code>")


def error_code(status: int, body: bytes) -> str | None:
    """The AWS error code of a failed answer (``ResourceNotFoundException``), if it has one."""
    if status < 400 or not body:
        return None
    head = body[:4096]
    found = _XML_CODE.search(head)
    if found:
        return found.group(1).decode(errors="replace").strip()
    try:
        data = json.loads(head)
    except ValueError:
        return None
    if isinstance(data, dict):
        code = data.get("__type") or data.get("code") or data.get("Code")
        if isinstance(code, str) and code:
            return code.rpartition("#")[2]
    return None


_XML_MESSAGE = re.compile(rb"<Message>([^<]{0,2000})</Message>")


def error_message(status: int, body: bytes) -> str:
    """The message of a failed answer (``1 validation error detected: ...``), or ``""``."""
    if status < 400 or not body:
        return ""
    head = body[:8192]
    found = _XML_MESSAGE.search(head)
    if found:
        return html.unescape(found.group(1).decode(errors="replace")).strip()
    try:
        data = json.loads(head)
    except ValueError:
        return ""
    if isinstance(data, dict):
        said = data.get("message") or data.get("Message") or ""
        return said.strip() if isinstance(said, str) else ""
    return ""


# -- after a cut wait: what the second plan can still check --------------------------


@dataclass
class AfterCut:
    """A plan made after an apply the stall watch stopped, split by what it can tell.

    ``checked`` holds the changes of resources the apply finished (and outputs known
    now): they are analysed as any second plan's. ``cut`` are the changes of the
    resources in flight when the wait was cut (tainted, half made: the stall's
    consequence, not a finding of their own); ``unreached`` the resources the apply
    never got to (a create of an address not in state).
    """

    checked: Plan
    cut: list[ResourceChange]
    unreached: list[str]
    #: Outputs the cut apply never wrote (absent from state, known now).
    unwritten: list[str] = field(default_factory=list)

    def note(self) -> str:
        """What the ``stalled`` finding says of the rest of the run."""
        parts = []
        if self.cut:
            done = ", ".join(f"{rc.action}s {rc.address}" for rc in self.cut)
            parts.append(f"the second plan {done} (cut mid-apply: part of this finding)")
        if self.unreached:
            parts.append(
                f"{len(self.unreached)} resource(s) the apply never reached were not "
                f"checked: {', '.join(self.unreached)}"
            )
        if self.unwritten:
            parts.append(
                f"{len(self.unwritten)} output(s) the cut apply never wrote were not checked: "
                f"{', '.join(self.unwritten)}"
            )
        parts.append("the second plan and the inventory checked everything else")
        return "After the cut, " + "; ".join(parts) + "."


def split_after_cut(plan: Plan, in_flight: Iterable[str], in_state: Iterable[str]) -> AfterCut:
    """Split ``plan`` (made after a cut apply) into :class:`AfterCut`'s three parts.

    ``in_flight`` are the addresses whose apply was open at the cut, ``in_state`` the
    managed addresses the state holds now. A data source read deferred to apply
    (its arguments wait on a value not known yet) was not reached either: what it
    waits on is what the cut left unmade, and ``-target`` of it would apply that again.
    An output whose value is not known yet (or one of its elements') waits on a
    resource the cut left unmade, so it is not checked either; nor is one the plan
    creates: terraform writes an output when its
    walk evaluates it, and the cut stopped the walk first (one that falls back on
    another resource, ``try(a.x, b.x)``, is known now and was never written).
    """
    flying, stated = set(in_flight), set(in_state)
    cut = [rc for rc in plan.changes if rc.address in flying]
    unreached = [
        rc.address
        for rc in plan.changes
        if rc.address not in flying
        and (
            (rc.action == "create" and rc.address not in stated)
            # a read deferred to apply: its arguments wait on something not made yet
            or (rc.mode == "data" and rc.action_reason in _DEFERRED_READS)
        )
    ]
    skipped = {rc.address for rc in cut} | set(unreached)
    known = [o for o in plan.outputs if not holds_unknown(o.declared)]
    unwritten = [o.name for o in known if "create" in o.actions]
    checked = replace(
        plan,
        changes=[rc for rc in plan.changes if rc.address not in skipped],
        outputs=[o for o in known if o.name not in unwritten],
    )
    return AfterCut(checked, cut, unreached, unwritten)


#: Why terraform reads a data source during apply: its configuration holds a value
#: known only after apply, or it depends on a resource with changes pending.
_DEFERRED_READS = frozenset({"read_because_config_unknown", "read_because_dependency_pending"})
