"""Which of several open applies made an API call: told by what the request says.

With ``-parallelism=1`` one resource's apply is open at a time and every call is
its own. A grouped fault run (:mod:`pytest_converge.run.matrix`) applies in parallel,
so a call can come from any open apply of a type its service serves (three
``aws_subnet`` creates at once). :class:`RequestMatcher` tells them apart with
a clean apply of the same configuration (:class:`CleanApply`): only a candidate
that made the call's operation there can have made it, and of several, the
request's parameter values are compared with each candidate's values there (its CIDR block, its
``Name`` tag), ids translated to this run's (the clean apply's ``subnet-1`` of
``aws_subnet.a`` is this run's ``subnet-9``), and with the ids this run's answers
gave each candidate first (``CreateVpc`` answers ``vpc-9``; the
``ModifyVpcAttribute`` naming ``vpc-9`` is that VPC's). The candidate that
matches most, and alone, made the call; a tie is said as None, and the fault
pinned there waits for a run that can tell.

    matcher = RequestMatcher(CleanApply(state_resources(clean_state), points))
    matcher.see(event)                                  # every apply -json event
    matcher.made(["aws_subnet.a", "aws_subnet.b"], "CreateSubnet",
                 b"Action=CreateSubnet&CidrBlock=10.0.1.0/24")
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from ..analysis.gaps import resource_type
from ..analysis.labels import FaultPoint
from ..analysis.state import StateResource
from ..awsapi.operations import service_of
from .operations import request_tokens

__all__ = ["CleanApply", "RequestMatcher", "applying_for", "serving"]

#: Values too common to tell resources apart (``true``, a region, a bare count).
_MIN_LENGTH = 4
#: An answer's word that names one object (``vpc-0a1b2c3d``, an ARN), not a region,
#: a date or a word every answer has.
_ID = re.compile(r"(?=.*\d)(?=.*[a-zA-Z])[A-Za-z0-9:/._-]{8,}")
_NOT_ID = re.compile(r"[a-z]{2}(-[a-z]+)+-\d[a-z]?|\d{4}-\d\d-\d\d.*")


_SHAPED = re.compile(r"([a-z][a-z0-9]*(?:-[a-z]+)*)-[0-9a-f]{8,}")


@dataclass(frozen=True)
class CleanApply:
    """What a clean apply of a configuration did: its state, and its fault points
    (``CreateVpc#1@aws_vpc.main``: which resource made which call). What a matcher
    reads of them is worked out once, on first use, for every apply of a run."""

    state: Sequence[StateResource]
    points: Sequence[str] = ()

    @cached_property
    def makers(self) -> dict[str, frozenset[str]]:
        """operation -> the resources whose applies made it."""
        found: dict[str, set[str]] = {}
        for point in map(FaultPoint.parse, self.points):
            if point.address:
                found.setdefault(point.operation, set()).add(point.address)
        return {op: frozenset(addresses) for op, addresses in found.items()}

    @cached_property
    def values(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """address -> (its values that are not ids, plus the kind of its own id;
        the addresses whose ids it holds)."""
        old_ids = {r.id: r.address for r in self.state if r.is_managed and r.id}
        found = {}
        for r in self.state:
            if not r.is_managed:
                continue
            plain: set[str] = set()
            holds: set[str] = set()
            for value in _leaves(r.values):
                owner = old_ids.get(value)
                if owner is None:
                    plain.add(value)
                elif owner != r.address:
                    holds.add(owner)  # a dependency's id: read as this run has it
                elif shape := _shape(value):
                    plain.add(shape)  # its own id is new, of the same kind: ``acl-*``
            found[r.address] = (frozenset(plain), frozenset(holds))
        return found


class RequestMatcher:
    """Tells which open apply made a call from its request (see the module docstring).

    Thread-safe: terraform's event pump calls :meth:`see`, the proxy's handler
    threads :meth:`made` and :meth:`answered`.
    """

    def __init__(self, clean: CleanApply) -> None:
        self._clean = clean
        self._lock = threading.Lock()
        #: address -> its id in this run (``apply_complete``'s ``id_value``).
        self._ids: dict[str, str] = {}
        #: token -> the address whose call's answer named it first in this run.
        self._first: dict[str, str] = {}
        #: address -> the tokens this run's answers named first for it.
        self._own: dict[str, set[str]] = {}

    def see(self, event: dict[str, Any]) -> None:
        """One ``apply -json`` event: a completed apply tells its id in this run."""
        if event.get("type") != "apply_complete":
            return
        hook = event.get("hook") or {}
        address = (hook.get("resource") or {}).get("addr")
        value = hook.get("id_value")
        if address and isinstance(value, str) and value:
            with self._lock:
                self._ids[address] = value

    def answered(self, address: str | None, tokens: Iterable[str]) -> None:
        """The answer to a call ``address``'s apply made named ``tokens``: those no
        earlier answer named are its own (the id its create was given)."""
        if address is None:
            return
        with self._lock:
            for token in tokens:
                if token in self._first or not _ID.fullmatch(token) or _NOT_ID.fullmatch(token):
                    continue
                self._first[token] = address
                self._own.setdefault(address, set()).add(token)

    def made(
        self,
        candidates: Sequence[str],
        operation: str,
        body: bytes,
        path: str = "",
        service: str = "",
    ) -> str | None:
        """The one of ``candidates`` (open applies) whose ``operation`` request (to
        ``service``) this is, or None when one cannot tell."""
        makers = self._clean.makers.get(operation)
        if makers and any(a in makers for a in candidates):
            candidates = [a for a in candidates if a in makers]
        elif service:
            candidates = serving(candidates, service) or list(candidates)
        if len(candidates) == 1:
            return candidates[0]
        said = _said(body, path)
        if not said or len(candidates) < 2:
            return None
        with self._lock:
            scores = {a: len(said & self._values(a)) for a in candidates}
        best = max(scores.values())
        winners = [a for a, score in scores.items() if score == best]
        return winners[0] if best > 0 and len(winners) == 1 else None

    def _values(self, address: str) -> set[str]:
        """What a request by ``address``'s apply may say: its clean values (ids as
        this run has them) and the ids this run's answers gave it first."""
        found = set(self._own.get(address, ()))
        own = self._ids.get(address)
        if own:
            found.add(own)
        plain, holds = self._clean.values.get(address, (frozenset(), frozenset()))
        found |= plain
        found.update(self._ids[owner] for owner in holds if owner in self._ids)
        return found


def _said(body: bytes, path: str) -> set[str]:
    """The values a request gives: its parameters and the pieces of its path, and
    the kind of each id (``acl-*`` for ``acl-0a1b2c3d4e``)."""
    values = {v for v in request_tokens(body, path) if v.lower() not in ("true", "false")}
    return values | {shape for v in values if (shape := _shape(v))}


def _shape(value: str) -> str | None:
    """``acl-0a1b2c3d4e`` -> ``acl-*``: the kind of object an EC2-style id names."""
    found = _SHAPED.fullmatch(value)
    return f"{found[1]}-*" if found else None


def _leaves(value: object) -> Iterable[str]:
    """Every scalar of a state value as text but booleans, nested ones too."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, bool):
        return  # says nothing of which resource it is
    elif isinstance(value, (str, int, float)) and value != "":
        text = str(value)
        if len(text) >= _MIN_LENGTH:
            yield text


def applying_for(addresses: Sequence[str], service: str) -> str | None:
    """Which of the open applies ``addresses`` made a call to ``service``, if one can tell.

    One open apply made it; of several, the only one of a type that ``service``
    serves (its service by :func:`..awsapi.operations.service_of`, or the type named
    after it: ``aws_sqs_queue`` and ``sqs``); None when that is not one.
    """
    if len(addresses) <= 1:
        return addresses[0] if addresses else None
    found = serving(addresses, service)
    return found[0] if len(found) == 1 else None


def serving(addresses: Sequence[str], service: str) -> list[str]:
    """Those of ``addresses`` of a type ``service`` serves (see :func:`applying_for`):
    the one rule from a type to its service (:func:`..awsapi.operations.service_of`),
    whose signing name is what a call's credential scope names (``states`` for
    ``aws_sfn_state_machine``)."""
    return [a for a in addresses if service in _signed_as(resource_type(a) or "")]


@lru_cache(maxsize=4096)
def _signed_as(type_: str) -> frozenset[str]:
    """The names a call of resource type ``type_``'s service is signed with: its signing
    name and its name."""
    found = service_of(type_)
    if found is not None:
        return frozenset({found.signing_name, found.name})
    return frozenset({type_.removeprefix("aws_").split("_")[0]})
