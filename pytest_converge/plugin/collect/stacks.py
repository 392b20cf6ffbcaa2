"""The Stack a zero-code item runs: built the way the ``converge`` fixture builds one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ...run.stack import Stack
from ...terraform.tfvars import copy_test_vars
from ..session import get_session


def make_stack(
    config: pytest.Config, module: Path, reproduce: str, name: str | None = None
) -> Stack:
    """A Stack for ``module`` built the way the ``converge`` fixture builds one."""

    def on_defects(stack: Any, defects: list[Any]) -> None:
        # Lets conftest hooks drop or add findings; the item records the result.
        config.hook.pytest_converge_defects(config=config, stack=stack, defects=defects)

    stack = get_session(config).stack(module, on_defects=on_defects, reproduce=reproduce, name=name)
    copy_test_vars(module, stack.workdir)
    return stack
