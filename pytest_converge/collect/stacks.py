"""The Stack a zero-code item runs: built the way the ``converge`` fixture builds one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..tfvars import copy_test_vars


def make_stack(config: pytest.Config, module: Path, reproduce: str, name: str | None = None) -> Any:
    """A Stack for ``module`` built the way the ``converge`` fixture builds one."""
    from ..session import get_session

    def on_defects(stack: Any, defects: list[Any]) -> None:
        # Lets conftest hooks drop or add findings; the item records the result.
        config.hook.pytest_converge_defects(config=config, stack=stack, defects=defects)

    stack = get_session(config).stack(module, on_defects=on_defects, reproduce=reproduce, name=name)
    copy_test_vars(module, stack.workdir)
    _remember_world(config, module, stack)
    return stack


def _remember_world(config: pytest.Config, module: Path, stack: Any) -> None:
    """The clean world recorded with the module's fault points: no clean apply per item."""
    from ..analysis.world import World
    from .points import recorded_world

    world = recorded_world(config, module)
    if world is not None:
        stack.remember_world(World.from_json(world))
