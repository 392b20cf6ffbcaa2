"""Egress findings: connections a run tried to make beyond the emulator, as defects.

Pure: the guard's refused connections and terraform's timed ``-json`` events
in, ``egress`` defects out. A connection is attributed to the resources whose
operation was in flight when it arrived (preferring one whose operation then
failed); when none was, to the resources whose apply failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .defects import Defect

_STARTS = ("apply_start", "refresh_start")
_ENDS = ("apply_complete", "apply_errored", "refresh_complete")

WHY = (
    "the provider (or a data source or provisioner) fetched something from the network "
    "during plan/apply; a run against the emulator must not depend on the internet, and "
    "against AWS the same call leaves your network from wherever terraform runs"
)
FIX = (
    "give the value to the module directly instead of having terraform fetch it, or keep "
    "the resource that needs the network out of the module under test"
)
#: Known fetchers: host -> a more precise fix.
FIXES = {
    "keybase.io": "give `pgp_key` a base64-encoded PGP public key instead of "
    '"keybase:<user>" (the provider fetches keybase keys over the internet at apply time)',
}


#: A real AWS API host: the provider configuration that called it is not on the emulator.
AWS_HOST_FIX = (
    "{host} is a real AWS endpoint: the provider configuration that made this call is not "
    "pointed at the emulator (a service pytest-converge's provider override does not cover, "
    "or a provider version that signs global services such as STS and IAM with their own "
    "endpoint, e.g. aws 5.x with no provider block). Declare the provider in the module "
    '(`provider "aws" { region = "..." }`) so the override covers it, and report the service '
    "to pytest-converge"
)


def fix_for(host: str) -> str:
    """What to change so the run does not reach ``host``."""
    host = host.lower()
    if host in FIXES:
        return FIXES[host]
    if host.endswith((".amazonaws.com", ".amazonaws.com.cn", ".api.aws")):
        return AWS_HOST_FIX.replace("{host}", host)
    return FIX


class Refused(Protocol):
    """What the egress guard records (see ``pytest_converge.isolation.egress.Attempt``)."""

    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def at(self) -> float: ...


def in_flight(timeline: Sequence[tuple[float, dict[str, Any]]], at: float) -> list[str]:
    """Addresses whose apply or refresh had started and not ended at time ``at``."""
    started: dict[str, None] = {}
    for when, event in timeline:
        if when > at:
            break
        address = event.get("hook", {}).get("resource", {}).get("addr")
        if not address:
            continue
        if event.get("type") in _STARTS:
            started[address] = None
        elif event.get("type") in _ENDS:
            started.pop(address, None)
    return list(started)


def errored(timeline: Iterable[tuple[float, dict[str, Any]]]) -> list[str]:
    """Addresses whose apply failed, in event order."""
    found: dict[str, None] = {}
    for _, event in timeline:
        if event.get("type") == "apply_errored":
            address = event.get("hook", {}).get("resource", {}).get("addr")
            if address:
                found[address] = None
    return list(found)


def egress_defects(
    attempts: Iterable[Refused],
    timeline: Sequence[tuple[float, dict[str, Any]]],
    *,
    module: str = "",
    scenario: str = "",
) -> list[Defect]:
    """One ``egress`` defect per (host, resource) the run tried to reach.

    An attempt no resource was known to be in flight for, to a host another attempt
    was told to a resource for, is that resource's too: terraform's events reach the
    timeline after the connections they led to (later still on a loaded machine), so
    the first attempts of a resource's apply can precede its ``apply_start``."""
    failed = errored(timeline)
    seen: dict[tuple[str, str | None], Defect] = {}
    for attempt in attempts:
        running = in_flight(timeline, attempt.at)
        addresses: list[str | None] = (
            [a for a in running if a in failed] or running or failed or [None]  # type: ignore[assignment]
        )
        for address in addresses:
            key = (attempt.host, address)
            if key in seen:
                continue
            where = f" from {address}" if address else ""
            seen[key] = Defect(
                kind="egress",
                address=address,
                declared="only the local emulator",
                observed=f"{attempt.method} {attempt.host}:{attempt.port}",
                module=module,
                scenario=scenario,
                message=f"the module tried to reach {attempt.host}{where}; pytest-converge "
                "refused the connection (runs stay on this machine)",
                why=WHY,
                fix=fix_for(attempt.host),
            )
    placed = {host for host, address in seen if address is not None}
    return [d for (host, address), d in seen.items() if address is not None or host not in placed]
