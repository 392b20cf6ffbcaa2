"""The world a run leaves: what the emulator holds, matched through state by address.

    world = take_world(stack.emulator, state_resources(state))   # None: not readable
    world.objects["aws_db_instance.main"].attributes["password"]

A backend offers ``world()`` when it can say what it holds beyond its describe
calls (moto: its backend model, read inside the server process, see
:mod:`.emulator.moto_world`). A backend without it has no world to compare:
:func:`take_world` returns None and the recovered world is not checked.
:func:`pytest_converge.analysis.world.world_defects` compares two worlds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .analysis.state import StateResource
from .analysis.world import World, held_objects, match_world

if TYPE_CHECKING:
    from .emulator.base import Emulator

__all__ = ["take_world"]


def take_world(emulator: Emulator, state: Sequence[StateResource]) -> World | None:
    """What ``emulator`` holds now, matched to ``state``; None when it cannot tell."""
    read = getattr(emulator, "world", None)
    if read is None:
        return None
    data = read()
    return match_world(held_objects(data), state, data.get("covered") or ())
