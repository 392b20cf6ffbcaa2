"""The part of a module the backend cannot serve: left out of the run, named, never judged.

An operation the emulator has no code for (``elasticache:CreateCacheParameterGroup``
on moto) fails the resource that needs it at once (the proxy answers it as not
implemented, so the provider does not retry it). Terraform goes on with every
resource that does not depend on it; those that do are never reached. The rest of
the module is applied and judged as usual, and each resource left out is one
``untested`` finding (a warning): a skipped part of the verdict, not a module error::

    left = untested_resources(events, calls, served_by)   # {address: "svc:Op"}
    never = unreached(events, in_state, left)            # what waited on them
    findings = untested_defects(left, never, "moto", module="m", scenario="two-run")

Plain data in, plain data out: terraform's ``-json`` events, the proxy's call
records (anything with ``service``, ``operation``, ``address``,
``unimplemented``), addresses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol

from .addresses import Address, without_keys
from .defects import Defect
from .gaps import operation_name

__all__ = [
    "Graph",
    "errored_addresses",
    "unreached",
    "untested_defects",
    "untested_resources",
]


class GapCall(Protocol):
    """What is read of a proxy call record here."""

    service: str
    operation: str
    method: str
    path: str
    address: str | None
    unimplemented: bool


def errored_addresses(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The resources whose apply (``apply_errored``) or read (an error diagnostic naming
    an address) failed, in the order terraform told them."""
    found: list[str] = []
    for event in events:
        kind = event.get("type")
        if kind == "apply_errored":
            address = ((event.get("hook") or {}).get("resource") or {}).get("addr")
        elif kind == "diagnostic":
            diagnostic = event.get("diagnostic") or {}
            address = diagnostic.get("address") if diagnostic.get("severity") == "error" else None
        else:
            continue
        if address:
            found.append(address)
    return list(dict.fromkeys(found))


def untested_resources(
    events: Iterable[Mapping[str, Any]],
    calls: Sequence[GapCall],
    served_by: Callable[[str, str], bool],
) -> dict[str, str]:
    """The failed resources that failed on an operation the emulator does not implement.

    ``{address: "service:Operation"}``. A call located to its resource names it. A
    call no resource was located for (several were open) goes to the failed
    resources whose diagnostic names its operation (the provider's words, as
    ``operation error EC2: EnableVgwRoutePropagation``), else to the failed ones of a
    type its service serves (``served_by(address, service)``) when they are one
    resource block (its ``count``/``for_each`` instances). A resource that failed for
    another reason is not here: its failure is the module's, judged as usual.
    """
    gaps = [c for c in calls if c.unimplemented]
    if not gaps:
        return {}
    events = list(events)
    failed = errored_addresses(events)
    said = _diagnostics(events)
    found: dict[str, str] = {}
    for call in gaps:
        name = operation_name(call.service, call.operation, call.method, call.path)
        if call.address is not None:
            owners = [a for a in failed if a == call.address]
        else:
            operation = name.partition(":")[2]
            owners = [
                a for a in failed if re.search(rf"\b{re.escape(operation)}\b", said.get(a, ""))
            ]
            if not owners:
                owners = [a for a in failed if served_by(a, call.service)]
                if len({_config_address(a) for a in owners}) != 1:
                    owners = []
        for owner in owners:
            found.setdefault(owner, name)
    return found


def _diagnostics(events: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each address's error diagnostics (summary and detail), as terraform told them."""
    said: dict[str, str] = {}
    for event in events:
        diagnostic = event.get("diagnostic") or {}
        if event.get("type") == "diagnostic" and diagnostic.get("severity") == "error":
            address = diagnostic.get("address")
            if address:
                text = f"{diagnostic.get('summary', '')} {diagnostic.get('detail', '')}"
                said[address] = f"{said.get(address, '')} {text}"
    return said


def unreached(
    events: Iterable[Mapping[str, Any]], in_state: Iterable[str], left_out: Iterable[str]
) -> list[str]:
    """The resources the apply planned to create and never made: they wait on one left out."""
    stated, out = set(in_state), set(left_out)
    planned = [
        ((event.get("change") or {}).get("resource") or {}).get("addr")
        for event in events
        if event.get("type") == "planned_change"
        and (event.get("change") or {}).get("action") in ("create", "replace")
    ]
    return list(dict.fromkeys(a for a in planned if a and a not in stated and a not in out))


#: ``"module.a.aws_x.y" -> "data.aws_z.w";`` in ``terraform graph``'s DOT output.
_EDGE = re.compile(r'^\s*"([^"]+)"\s*->\s*"([^"]+)"', re.M)
#: ``"aws_x.y" [label="aws_x.y"];``: a node (a resource or data source) of that output.
_NODE = re.compile(r'^\s*"([^"]+)"\s*\[label=', re.M)


class Graph:
    """Terraform's own resource graph (``terraform graph``): what depends on what.

    Used where no apply made anything to read it from: a read that fails at plan
    time (a data source whose operation the backend lacks) stops the whole plan.
    """

    def __init__(self, nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> None:
        self.nodes = list(dict.fromkeys(nodes))
        #: node -> the nodes that depend on it directly.
        self.dependents: dict[str, set[str]] = {}
        for user, used in edges:
            self.dependents.setdefault(used, set()).add(user)

    @classmethod
    def from_dot(cls, dot: str) -> Graph:
        """Read ``terraform graph``'s output (terraform >= 1.7: resources and data sources)."""
        return cls(_NODE.findall(dot), _EDGE.findall(dot))

    def waiting_on(self, addresses: Iterable[str]) -> list[str]:
        """Every node that depends on one of ``addresses``, directly or through others."""
        seen: set[str] = set()
        todo = [_config_address(a) for a in addresses]
        while todo:
            for user in self.dependents.get(todo.pop(), ()):
                if user not in seen:
                    seen.add(user)
                    todo.append(user)
        return [n for n in self.nodes if n in seen]

    def servable(self, left_out: Iterable[str]) -> list[str]:
        """The managed resources that neither are left out nor wait on what is."""
        out = {_config_address(a) for a in left_out}
        out.update(self.waiting_on(out))
        return [n for n in self.nodes if n not in out and not _is_data(n)]


def _config_address(address: str) -> str:
    """``module.m["a"].aws_x.y[0]`` -> ``module.m.aws_x.y``: the graph names configuration."""
    return without_keys(address)


def _declared(address: str) -> str:
    """``module.m["a"].aws_x.y[0]`` -> ``aws_x.y``: the block that declares it, in any module."""
    found = Address.parse(address)
    return found.declared if found is not None else address


def _is_data(address: str) -> bool:
    found = Address.parse(address)
    return found is not None and found.mode == "data"


def untested_defects(
    untested: Mapping[str, str],
    waiting: Sequence[str],
    backend: str,
    *,
    module: str,
    scenario: str,
    predicted: Collection[str] = (),
    failing: Collection[str] = (),
) -> list[Defect]:
    """One ``untested`` warning per resource the backend cannot serve, naming the
    operation and the resources left out with it; ``predicted`` are the addresses the
    pre-flight named before the apply (told as the finding's evidence); ``failing`` are
    the operations the emulator has code for and answered with an error page all the
    same (it failed on that request: said so, not "does not implement")."""
    found = []
    for address, operation in untested.items():
        evidence = (
            f"named before the apply: the {backend} backend's served-operations data has no "
            f"`{operation}`"
            if _declared(address) in {_declared(p) for p in predicted}
            else f"found by the apply: the {backend} emulator answered `{operation}` with an "
            "error page (its served-operations data did not name it: a gap to add)"
        )
        behind = f"; left out with it: {', '.join(waiting)}" if waiting else ""
        found.append(
            Defect(
                kind="untested",
                address=address,
                module=module,
                scenario=scenario,
                observed=operation,
                waiting=list(waiting),
                evidence=evidence,
                message=(
                    f"not tested on {backend}: the {backend} emulator "
                    + (
                        f"failed on the `{operation}` request {address} made (an error page "
                        "for an operation it has code for)"
                        if operation in failing
                        else f"does not implement `{operation}`, which {address} needs"
                    )
                    + f"{behind}. Every other resource was applied and judged: the module "
                    "is partly verified"
                ),
                why=(
                    "an emulator serves the operations it has code for; this resource's "
                    "create or read calls one it has none for, so nothing about it (or what "
                    "depends on it) can be observed here"
                ),
                fix=(
                    "nothing in the module: test this part on a backend that serves "
                    f"`{operation}` (--converge-backend), or against AWS"
                ),
            )
        )
    return found
