"""The world a run leaves: what the emulator holds, matched through state by address.

    world = take_world(stack.emulator, state_resources(state))   # None: not readable
    world.objects["aws_db_instance.main"].attributes["password"]

A backend offers ``world(regions)`` when it can say what it holds: moto from its
backend model, read inside the server process (:mod:`.emulator.moto_world`), which
holds what no describe call returns; LocalStack through its describe and get calls
(:mod:`.emulator.localstack_world`), in the regions asked for: those of the
objects state records. A backend without it has no world to compare:
:func:`take_world` returns None and the recovered world is not checked.
:func:`pytest_converge.analysis.world_check.world_defects` compares two worlds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..analysis.state import StateResource
from ..analysis.world_check import World, held_objects, match_world

if TYPE_CHECKING:
    from ..emulator.base import Emulator

__all__ = ["state_regions", "take_world"]


def take_world(emulator: Emulator, state: Sequence[StateResource]) -> World | None:
    """What ``emulator`` holds now, matched to ``state``; None when it cannot tell."""
    read = getattr(emulator, "world", None)
    if read is None:
        return None
    data = read(regions=state_regions(state))
    return match_world(held_objects(data), state, data.get("covered") or ())


#: The region of an ARN: ``arn:aws:lambda:eu-west-1:123456789012:function:app``.
_ARN_REGION = re.compile(r"^arn:[\w-]+:[\w-]+:([a-z]{2}(?:-[a-z]+)+-\d+):")


def state_regions(state: Sequence[StateResource]) -> list[str]:
    """The regions of the objects ``state`` records (from their ARNs), sorted."""
    found: set[str] = set()
    for resource in state:
        found.update(
            m.group(1)
            for v in resource.values.values()
            if isinstance(v, str) and (m := _ARN_REGION.match(v))
        )
    return sorted(found)
