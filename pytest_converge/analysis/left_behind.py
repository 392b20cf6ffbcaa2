"""What a fault left behind, named by the resource it hit: one finding per cause.

A crash right after a create leaves the new object untracked, and the clean
re-run then fails on it (``already exists``, a CIDR that conflicts):
:func:`~.leftovers.find_leftovers` sees an ``orphan`` and the re-run a
``recovery-failed``, two findings of one cause. The scenario knows which
resource the fault hit, so::

    defects = left_behind(defects, created, hit="aws_security_group.app")

- an orphan of the hit resource's type, when a ``recovery-failed`` names that
  resource, becomes part of it: its objects, and a fix that adopts the object
  into the resource (``terraform import aws_security_group.app sg-...``) or
  deletes it (the catalogue's command);
- any other orphan (the inventory's, or the world check's) is named by the
  resource the fault hit (the fault on it left the object), and an inventoried
  one's fix adopts it there when the types match.

Pure: defects and the objects the scenario created in, defects out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .defects import Defect
from .gaps import resource_type
from .hints import in_region, left_behind_hints, orphan_fix
from .labels import fault_kind
from .leftovers import left_object

if TYPE_CHECKING:
    from ..inventory import CloudObject


def left_behind(
    defects: Sequence[Defect], created: Iterable[CloudObject], hit: str | None
) -> list[Defect]:
    """``defects`` with each orphan the fault on ``hit`` left joined to its cause (above).

    Without a known ``hit`` they are returned as they are.
    """
    if hit is None:
        return list(defects)
    objects = list(created)
    hit_type = resource_type(hit)
    failed = next((d for d in defects if d.kind == "recovery-failed" and d.address == hit), None)
    found: list[Defect] = []
    joined: list[tuple[Defect, CloudObject]] = []
    for defect in defects:
        obj = left_object(defect, objects)
        if defect.kind != "orphan" or defect.address is not None:
            found.append(defect)
        elif obj is None:  # the world check's: an object no inventory lists
            found.append(replace(defect, address=hit))
        elif failed is not None and obj.type == hit_type:
            joined.append((defect, obj))
        else:
            owner = hit if obj.type == hit_type else None
            found.append(replace(defect, address=hit, fix=orphan_fix(obj, owner)))
    if failed is None or not joined:
        return found
    return [_caused(failed, joined) if d is failed else d for d in found]


def _caused(failed: Defect, joined: list[tuple[Defect, CloudObject]]) -> Defect:
    """``failed`` (a recovery-failed) with the objects the faulted run left as its cause."""
    address = str(failed.address)
    error = str(failed.observed or "")
    first = joined[0][1]
    left = ", ".join(f"{obj.describe()}{in_region(obj)}" for _, obj in joined)
    why, fix = left_behind_hints(first, address, error, fault_kind(failed.scenario))
    return replace(
        failed,
        objects=[*failed.objects, *(o for orphan, _ in joined for o in orphan.objects)],
        message=f"{failed.message} The faulted run left {left} behind, which no state tracks.",
        why=why,
        fix=fix,
    )
