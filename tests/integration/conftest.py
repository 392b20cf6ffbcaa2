"""Fixtures of the integration tests that run on LocalStack (they skip without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_converge.errors import EmulatorError
from pytest_converge.inventory import pytest_converge_inventory
from pytest_converge.stack import Stack
from pytest_converge.workspace import Templates


@pytest.fixture(scope="module")
def localstack():
    from pytest_converge.emulator.localstack import localstack_emulator

    try:
        emulator = localstack_emulator()
        emulator.start()
    except EmulatorError as exc:
        pytest.skip(f"no LocalStack: {exc}")
    yield emulator
    emulator.stop()


@pytest.fixture
def stack_on(localstack, converge_toolchain, tmp_path):
    made = []

    def make(module: Path, **options: Any) -> Stack:
        localstack.reset()
        stack = Stack(
            module,
            emulator=localstack,
            templates=Templates(converge_toolchain, tmp_path / "templates"),
            workdir=tmp_path,
            inventory=pytest_converge_inventory,
            **options,
        )
        made.append(stack)
        return stack

    yield make
    for stack in made:
        stack.close()
