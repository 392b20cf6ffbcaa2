"""Which resource of a configuration wrote an object: second writers of the same field.

A security group declared with its own ``ingress`` and, beside it, separate
``aws_security_group_rule`` resources on the same group both write the group's
rules. Terraform records the group before the rules are added, so every
refresh reads the group "changed outside terraform"; if the group declares
``ingress`` itself, each apply removes the others' rules. That is not drift
from outside, it is two writers of one field.

The evidence comes from one apply: terraform's ``-json`` events say when each
resource's apply started and completed, the proxy's call log says when each
mutating API call happened. A call made while ``W`` was being applied was
made for ``W``. ``W`` wrote a drifted field of object ``R`` when the call came
after ``R`` was complete, ``W``'s state refers to ``R``'s id, and the call carried
that field: its operation sends the API member the field is sent as, with that
member among the request's parameters (``CreateTags`` with ``Tag`` for ``tags``),
or, where the API's model names no member for the field, the operation names it
(``AuthorizeSecurityGroupIngress`` and ``ingress``; ``CreateRoute`` and
``route``). Each field is asked on its own: a volume attachment that refers to an
instance and writes its volumes is no writer of its security groups, and a
subnet that refers to its VPC is not a writer of the VPC's drifted attributes.

Pure: events, calls and state in (the API model's lookup handed in as
``members``), ``{drifted address: {field: [writer addresses]}}`` out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .labels import natural

#: ``(resource type, field, operations) -> API members`` the field is sent as, each
#: with ``operations``, ``path`` and ``wire`` (:func:`..awsapi.model.api_members`).
MemberLookup = Callable[[str, str, Sequence[str]], Sequence[Any]]

__all__ = [
    "ApplyWindow",
    "MemberLookup",
    "apply_windows",
    "fault_addresses",
    "natural",
    "sibling_writers",
]


@dataclass(frozen=True)
class ApplyWindow:
    """When one resource's apply ran (seconds since the epoch; ``end`` inf if it never ended)."""

    address: str
    start: float
    end: float

    def holds(self, moment: float) -> bool:
        return self.start <= moment <= self.end


def apply_windows(events: Iterable[Mapping[str, Any]]) -> dict[str, ApplyWindow]:
    """Each address's apply window from terraform's ``apply -json`` events."""
    started: dict[str, float] = {}
    windows: dict[str, ApplyWindow] = {}
    for event in events:
        kind = event.get("type")
        if kind not in ("apply_start", "apply_complete", "apply_errored"):
            continue
        address = (event.get("hook") or {}).get("resource", {}).get("addr")
        moment = _epoch(event.get("@timestamp"))
        if not address or moment is None:
            continue
        if kind == "apply_start":
            started[address] = moment
        elif address in started:
            windows[address] = ApplyWindow(address, started.pop(address), moment)
    for address, start in started.items():
        windows[address] = ApplyWindow(address, start, float("inf"))
    return windows


def fault_addresses(
    calls: Iterable[Any], events: Iterable[Mapping[str, Any]], clock_offset: float = 0.0
) -> list[str]:
    """The resources whose apply made the calls a fault fired on, in call order.

    Fault scenarios apply with ``-parallelism=1``, so one resource's window is
    open at a time; a call no single window holds is left out. ``calls`` and
    ``clock_offset`` are as for :func:`sibling_writers`.
    """
    windows = apply_windows(events)
    found: list[str] = []
    for call in calls:
        if not getattr(call, "fault", None):
            continue
        holding = _holding(windows, call.started + clock_offset)
        if len(holding) == 1 and holding[0] not in found:
            found.append(holding[0])
    return found


def _holding(windows: Mapping[str, ApplyWindow], moment: float) -> list[str]:
    """The addresses whose apply was running at ``moment``."""
    return [w.address for w in windows.values() if w.holds(moment)]


@dataclass(frozen=True)
class _Write:
    """A successful mutating call made during one resource's apply."""

    moment: float
    operation: str
    #: The request's top-level parameter names; empty when not known.
    sent: frozenset[str]
    #: The values the request gave (parameters, path pieces); empty when not known.
    requested: frozenset[str] = frozenset()


def sibling_writers(
    drifted: Mapping[str, Iterable[str]],
    events: Iterable[Mapping[str, Any]],
    calls: Iterable[Any],
    state: Sequence[Any],
    clock_offset: float = 0.0,
    members: MemberLookup | None = None,
    service_of: Callable[[str], str | None] | None = None,
) -> dict[str, dict[str, list[str]]]:
    """For each drifted address and field, the other resources whose apply wrote it.

    ``drifted`` maps an address to the names of its drifted attributes.

    ``calls`` have ``started`` (``time.monotonic()``), ``operation``, ``mutating``,
    ``status`` and ``sent`` (parameter names, may be absent); ``clock_offset`` turns
    ``started`` into epoch seconds (``time.time() - time.monotonic()`` at the apply).
    ``state`` holds records with ``address``, ``type``, ``id`` and ``values``
    (:func:`~.state.state_resources`). ``members`` looks up the API members a field
    is sent as; without it (or when it knows none) the operation's name must name
    the field. ``service_of`` names the service a resource type calls (its SigV4 name):
    a call made while several applies were open is theirs whose service made it (an IAM
    call during an SNS topic's apply and a role policy's is the role policy's).
    """
    windows = apply_windows(events)
    types = {r.address: r.type for r in state}
    writes: dict[str, list[_Write]] = {}
    for call in calls:
        if not getattr(call, "mutating", False) or not 0 < getattr(call, "status", 0) < 400:
            continue
        moment = call.started + clock_offset
        sent = frozenset(getattr(call, "sent", None) or ())
        requested = frozenset(getattr(call, "requested", None) or ())
        holding = _holding(windows, moment)
        if len(holding) > 1 and service_of is not None:
            service = getattr(call, "service", None)
            own = [a for a in holding if a in types and service_of(types[a]) == service]
            holding = own or holding
        for address in holding:
            writes.setdefault(address, []).append(_Write(moment, call.operation, sent, requested))
    by_address = {r.address: r for r in state}
    found: dict[str, dict[str, list[str]]] = {}
    for address, attributes in drifted.items():
        target = by_address.get(address)
        if target is None or not target.id:
            continue
        done = windows[address].end if address in windows else float("-inf")
        names = _names_of(target)
        per_field: dict[str, list[tuple[str, bool]]] = {}
        for other in state:
            after = [w for w in writes.get(other.address, ()) if w.moment > done]
            if other.address == address or not after:
                continue
            fields = _fields_with(other.values, target.id)
            if not fields:
                continue
            direct = bool(fields & _direct_fields(target.type))
            for attribute in attributes:
                if _wrote(target.type, attribute, after, members, names):
                    per_field.setdefault(attribute, []).append((other.address, direct))
        for attribute, writers in per_field.items():
            # A field named after the object's type (security_group_id on a group)
            # is what a writer of it has; another reference (source_security_group_id)
            # only counts when no resource has such a field.
            if any(direct for _, direct in writers):
                writers = [(a, d) for a, d in writers if d]
            found.setdefault(address, {})[attribute] = sorted((a for a, _ in writers), key=natural)
    return found


def _wrote(
    resource_type: str,
    attribute: str,
    writes: Sequence[_Write],
    members: MemberLookup | None,
    names: frozenset[str] = frozenset(),
) -> bool:
    """One of ``writes`` carried ``attribute`` of a ``resource_type`` object named
    ``names`` (its id, ARN, name)."""
    writes = [w for w in writes if not _creates_another(w.operation, resource_type, attribute)]
    operations = list(dict.fromkeys(w.operation for w in writes))
    known = list(members(resource_type, attribute, operations)) if members else []
    if known:
        # A member many objects share (CreateTags' Tag) counts for this one only when
        # the request names it (ResourceId=vol-2), where the request's values are known.
        aimed = [w for w in writes if not w.requested or w.requested & names]
        return any(_carries(m, w) for m in known for w in aimed)
    nouns = _words(attribute) - _VERBS
    return any(nouns & _words(w.operation) or _sets_named(w, attribute, names) for w in writes)


def _creates_another(operation: str, resource_type: str, attribute: str) -> bool:
    """``operation`` makes an object of its own, neither a part of a ``resource_type``
    object nor the field: ``CreateVPCAssociationAuthorization`` sends a zone's VPC but
    only authorizes it (the association writes the zone's ``vpc``), while
    ``CreateNetworkAclEntry`` (a part of the ACL), ``CreateRoute`` and ``CreateTags`` (the
    field) write what they name."""
    if not operation.startswith("Create"):
        return False
    made = _ordered_words(operation.removeprefix("Create"))
    if not made:
        return False
    owner = _words(resource_type.removeprefix("aws_"))
    return not set(made) & owner and made[-1] not in _words(attribute)


def _ordered_words(name: str) -> list[str]:
    """:func:`_words` of one name in their order (``VPCAssociationAuthorization`` -> vpc,
    association, authorization)."""
    return [_singular(w.lower()) for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", name)]


def _sets_named(write: _Write, attribute: str, names: frozenset[str]) -> bool:
    """``write`` sets ``attribute`` by name through an attribute-map operation of the
    object (``SetTopicAttributes`` with ``AttributeName=Policy`` for ``policy``)."""
    if "Attribute" not in write.operation or not write.requested & names:
        return False
    wanted = _plain(attribute)
    return any(_plain(value) == wanted for value in write.requested)


def _carries(member: Any, write: _Write) -> bool:
    """``write`` is a call of an operation that sends ``member``, with it among the
    request's parameters (when their names are known)."""
    if write.operation not in member.operations:
        return False
    if not write.sent:
        return True
    names = {_plain(n) for n in write.sent}
    return bool(names & {_plain(member.path[0]), _plain(getattr(member, "wire", "") or "")})


def _names_of(target: Any) -> frozenset[str]:
    """What a request may name an object by: its id, ARN and name."""
    values = target.values if isinstance(target.values, Mapping) else {}
    found = {target.id, values.get("arn"), values.get("name")}
    return frozenset(v for v in found if isinstance(v, str) and v)


def _plain(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


#: Words of an operation name that say what it does, not what it writes.
_VERBS = {
    "create",
    "put",
    "attach",
    "authorize",
    "associate",
    "modify",
    "update",
    "set",
    "add",
    "tag",
    "enable",
    "register",
    "replace",
    "delete",
    "revoke",
    "remove",
    "detach",
    "id",
}


def _words(name: str) -> set[str]:
    """Lower-case singular words of ``AuthorizeSecurityGroupIngress`` / ``managed_policy_arns``."""
    return {word for chunk in name.split("_") for word in _ordered_words(chunk)}


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _fields_with(values: Any, object_id: str, key: str = "") -> set[str]:
    """The names of the fields of ``values`` (at any depth) whose value is ``object_id``."""
    if isinstance(values, str):
        return {key} if values == object_id and key != "id" else set()
    found: set[str] = set()
    if isinstance(values, Mapping):
        for k, v in values.items():
            found |= _fields_with(v, object_id, str(k))
    elif isinstance(values, list | tuple):
        for v in values:
            found |= _fields_with(v, object_id, key)
    return found


def _direct_fields(resource_type: str) -> set[str]:
    """Field names that point at an object of ``resource_type`` as its owner's target."""
    noun = resource_type.removeprefix("aws_")
    return {noun, f"{noun}_id", f"{noun}_name", f"{noun}_arn"}


def _epoch(stamp: Any) -> float | None:
    """Terraform's ``@timestamp`` (RFC 3339, microseconds) as epoch seconds."""
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
