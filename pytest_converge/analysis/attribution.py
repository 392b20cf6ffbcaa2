"""Whose finding is it: a run that injected several faults, its findings shared out by point.

A grouped run (:mod:`pytest_converge.matrix`) arms the faults of several fault
points at once. Each fault is pinned to one resource, and nearly every finding
names the resource it is about, so a finding belongs to the point whose resource
it names. What cannot be shared out that way is said, so the runner can decide
those points again in smaller groups:

- **ambiguous**: a finding names a resource two fired points of the group are on
  (lost ``CreateVpc`` and lost ``ModifyVpcAttribute`` of one VPC): both are run again,
  apart;
- **unattributed**: an error naming no fired point's resource (nor resembling one,
  for an object no state tracks): the group's fired points are run again, split.

Warnings about the run as a whole (an inventory that could not list a type) go to
every fired point, as each point's own run would have reported them.

    found = attribute(defects, {"crash@CreateVpc#1@aws_vpc.a": "aws_vpc.a"}, origins)
    found.by_point["crash@CreateVpc#1@aws_vpc.a"]   # its defects
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .defects import Defect
from .leftovers import find_leftovers
from .state import StateResource

__all__ = ["Attribution", "attribute", "origin_of"]


@dataclass
class Attribution:
    """A grouped run's findings, shared out by fault point (see the module docstring)."""

    #: Each fired point's findings (a point with none passed).
    by_point: dict[str, list[Defect]] = field(default_factory=dict)
    #: Points a finding could belong to as much as to another fired point of the group.
    ambiguous: set[str] = field(default_factory=set)
    #: Error-level findings no fired point's resource accounts for.
    unattributed: list[Defect] = field(default_factory=list)

    @property
    def decided(self) -> bool:
        """Every fired point's verdict is its own (nothing ambiguous or unattributed)."""
        return not self.ambiguous and not self.unattributed


def attribute(
    defects: Iterable[Defect],
    fired: Mapping[str, str | None],
    origins: Mapping[int, str] | None = None,
) -> Attribution:
    """Share ``defects`` out among the ``fired`` points (label -> the resource it hit).

    ``origins`` maps ``id(defect)`` to the address a leftover with no address
    resembles in a clean apply's state (:func:`origin_of`): an orphan subnet whose
    CIDR is ``aws_subnet.a``'s belongs to the point on ``aws_subnet.a``.
    """
    origins = origins or {}
    by_address: dict[str, list[str]] = {}
    for label, address in fired.items():
        if address is not None:
            by_address.setdefault(address, []).append(label)
    found = Attribution(by_point={label: [] for label in fired})
    shared: list[Defect] = []
    for defect in defects:
        address = defect.address or origins.get(id(defect))
        owners = by_address.get(address, []) if address else []
        if len(owners) == 1:
            found.by_point[owners[0]].append(defect)
        elif owners:
            found.ambiguous.update(owners)
        elif defect.is_error:
            found.unattributed.append(defect)
        else:
            shared.append(defect)
    for label in found.by_point:
        found.by_point[label].extend(shared)
    return found


def origin_of(
    defects: Sequence[Defect], objects: Iterable[object], clean: Sequence[StateResource]
) -> dict[int, str]:
    """For each leftover of ``defects`` without an address, the address its object
    resembles in ``clean`` (the state of a clean apply of the same configuration):
    ``{id(defect): address}``. ``objects`` are the run's created cloud objects."""
    by_id = {getattr(o, "id", None): o for o in objects}
    found: dict[int, str] = {}
    for defect in defects:
        if defect.address is not None or defect.kind not in ("orphan", "duplicate"):
            continue
        created = [by_id[i] for i in defect.objects if i in by_id]
        if not created:
            continue
        # Against the clean state the object is a duplicate of the resource it stands for.
        matches = find_leftovers(created, clean)  # type: ignore[arg-type]
        named = {d.address for d in matches if d.kind == "duplicate" and d.address}
        if len(named) == 1:
            found[id(defect)] = named.pop()
    return found
