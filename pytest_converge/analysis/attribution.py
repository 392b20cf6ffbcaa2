"""Whose finding is it: a run that injected several faults, its findings shared out by point.

A grouped run (:mod:`pytest_converge.run.matrix`) arms the faults of several fault
points at once. Each fault is pinned to one resource, and nearly every finding
names the resource it is about, so a finding belongs to the point whose resource
it names. What cannot be shared out that way is said, so the runner can decide
those points again in smaller groups:

- **ambiguous**: an error names a resource two fired points of the group are on
  (lost ``CreateVpc`` and lost ``ModifyVpcAttribute`` of one VPC): both are run again,
  apart (a warning there is each one's);
- **unattributed**: an error naming no fired point's resource (nor resembling one,
  for an object no state tracks): the group's fired points are run again, split.

Warnings about the run as a whole (an inventory that could not list a type) go to
every fired point, as each point's own run would have reported them.

    found = attribute(defects, {"crash@CreateVpc#1@aws_vpc.a": "aws_vpc.a"}, origins)
    found.by_point["crash@CreateVpc#1@aws_vpc.a"]   # its defects
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .defects import Defect
from .leftovers import left_object, stands_for
from .state import StateResource

if TYPE_CHECKING:
    from ..inventory import CloudObject

__all__ = ["Attribution", "attribute", "finding_key", "origin_of"]


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
    makers: Mapping[int, str] | None = None,
    common: Collection[tuple[object, ...]] = (),
) -> Attribution:
    """Share ``defects`` out among the ``fired`` points (label -> the resource it hit).

    ``origins`` maps ``id(defect)`` to the address a leftover with no address
    resembles in a clean apply's state (:func:`origin_of`): an orphan subnet whose
    CIDR is ``aws_subnet.a``'s belongs to the point on ``aws_subnet.a``. ``makers`` maps
    ``id(defect)`` of a leftover to the point whose fault made its object (the fault's
    own call made it, or the apply that fault stopped): it decides first, so two points
    on one resource are told apart by the objects they left. ``common`` holds the
    :func:`finding_key` of what a run with no fault finds (a permanent diff of the
    module): such a finding is every fired point's, as each one's own run finds it.
    """
    origins = origins or {}
    makers = makers or {}
    by_address: dict[str, list[str]] = {}
    for label, address in fired.items():
        if address is not None:
            by_address.setdefault(address, []).append(label)
    found = Attribution(by_point={label: [] for label in fired})
    shared: list[Defect] = []
    for defect in defects:
        if finding_key(defect) in common:
            shared.append(defect)
            continue
        maker = makers.get(id(defect))
        if maker in found.by_point:
            found.by_point[maker].append(defect)
            continue
        address = defect.address or origins.get(id(defect))
        owners = by_address.get(address, []) if address else []
        if len(owners) == 1:
            found.by_point[owners[0]].append(defect)
        elif owners and not defect.is_error:
            # A warning cannot change a verdict: each point on the resource has it.
            for owner in owners:
                found.by_point[owner].append(defect)
        elif owners:
            found.ambiguous.update(owners)
        elif defect.is_error:
            found.unattributed.append(defect)
        else:
            shared.append(defect)
    for label in found.by_point:
        found.by_point[label].extend(shared)
    return found


def finding_key(defect: Defect) -> tuple[object, ...]:
    """What makes two runs' findings the same finding: kind, resource, attribute, class."""
    return (defect.kind, defect.address, defect.attribute, defect.classification)


def origin_of(
    defects: Sequence[Defect], objects: Iterable[CloudObject], clean: Sequence[StateResource]
) -> dict[int, str]:
    """For each leftover of ``defects`` without an address, the address its object stands
    for in ``clean``, the state of a clean apply of the same configuration
    (:func:`.leftovers.stands_for`): ``{id(defect): address}``. ``objects`` are the
    run's created cloud objects."""
    objects = list(objects)
    found: dict[int, str] = {}
    for defect in defects:
        if defect.address is not None or not defect.objects:
            continue
        created = left_object(defect, objects)
        address = stands_for(created, clean) if created is not None else None
        if address is not None:
            found[id(defect)] = address
    return found
