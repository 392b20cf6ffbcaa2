"""The fixtures: ``converge_emulator``, ``converge_toolchain`` and ``converge``."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from .emulator.base import Emulator
from .report import jsonable, junit_properties
from .session import get_session
from .stack import Stack
from .toolchain import Toolchain


class ConvergeFactory(Protocol):
    def __call__(
        self, module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None
    ) -> Stack: ...


@pytest.fixture(scope="session")
def converge_toolchain(pytestconfig: pytest.Config) -> Toolchain:
    """The terraform engine and CLI config every run uses (resolved once)."""
    return get_session(pytestconfig).toolchain()


@pytest.fixture(scope="session")
def converge_emulator(pytestconfig: pytest.Config) -> Iterator[Emulator]:
    """The AWS emulator of this session (one per xdist worker), on loopback.

    ``.endpoint``, ``.reset()``, ``.client("s3")``. Stopped at session end.
    """
    session = get_session(pytestconfig)
    yield session.emulator()
    session.close()


@pytest.fixture
def converge(
    request: pytest.FixtureRequest,
    converge_emulator: Emulator,
    converge_toolchain: Toolchain,
) -> Iterator[ConvergeFactory]:
    """Make a :class:`Stack` from a module directory: ``converge("modules/vpc", vars={...})``.

    A relative path is looked up beside the test file first, then from the
    current directory. The emulator is emptied before the test, and every
    Stack's proxy and workspace are cleaned up after it.
    """
    session = get_session(request.config)
    converge_emulator.reset()
    made: list[Stack] = []
    keep = bool(session.option("keep"))

    def record(stack: Stack, defects: list[Any]) -> None:
        request.config.hook.pytest_converge_defects(stack=stack, defects=defects)
        if not defects:
            return
        request.node.user_properties.append(
            ("converge_defects", json.dumps([jsonable(d.to_dict()) for d in defects]))
        )
        for d in defects:  # JUnit XML carries them as <property> elements
            request.node.user_properties.extend(junit_properties(d))

    def factory(module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None) -> Stack:
        path = Path(module_dir)
        if not path.is_absolute():
            beside = Path(request.path).parent / path
            path = beside if beside.exists() else Path.cwd() / path
        stack = session.stack(
            path, variables=vars, on_defects=record, reproduce=f'pytest "{request.node.nodeid}"'
        )
        stack.on_loop = lambda record: request.node.user_properties.append(
            ("converge_loop", json.dumps(jsonable(record)))
        )
        made.append(stack)
        session.track(stack)
        return stack

    yield factory
    for stack in made:
        session.untrack(stack)
        stack.close(keep=keep)
