"""Fixtures of the integration tests: LocalStack (they skip without it), and the
fidelity tests' moto as released beside the session's moto."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.emulator import MotoEmulator
from pytest_converge.emulator.fidelity import OFF_VARIABLE
from pytest_converge.errors import EmulatorError
from pytest_converge.inventory import pytest_converge_inventory
from pytest_converge.run.stack import Stack
from pytest_converge.terraform.workspace import Templates


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

    def make(module: Path, emulator: Any = None, **options: Any) -> Stack:
        emulator = emulator or localstack
        emulator.reset()
        stack = Stack(
            module,
            emulator=emulator,
            templates=Templates(converge_toolchain, tmp_path / "templates"),
            workdir=tmp_path / f"work-{len(made)}",
            inventory=pytest_converge_inventory,
            **options,
        )
        made.append(stack)
        return stack

    yield make
    for stack in made:
        stack.close()


#: The catalogue entries the fidelity layer retired: moto as released meets them.
RETIRED_GAPS = Path(__file__).resolve().parents[1] / "data" / "moto_as_released_gaps.json"
#: A conftest that catalogues them beside the shipped entries, for a run on moto as released.
_AS_RELEASED_CONFTEST = f"""
import json
from pathlib import Path

from pytest_converge.analysis import gaps

_both = json.loads(Path(gaps.CATALOGUE).read_text())
_both += json.loads(Path({str(RETIRED_GAPS)!r}).read_text())
gaps.CATALOGUE = Path(__file__).with_name("moto_as_released_catalogue.json")
gaps.CATALOGUE.write_text(json.dumps(_both))
"""


@pytest.fixture
def emulator(converge_emulator: Any) -> Any:
    """The session's moto (the plugin's own fixture, fidelity layer on), emptied."""
    converge_emulator.reset()
    return converge_emulator


@pytest.fixture(scope="session")
def raw_moto_server() -> Iterator[MotoEmulator]:
    """A moto with the fidelity layer off: moto 5.2 as released."""
    server = MotoEmulator(fidelity_off="all")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def raw_moto(raw_moto_server: MotoEmulator) -> MotoEmulator:
    """:func:`raw_moto_server`, emptied.

    A fidelity test asks it the same question: while it still answers otherwise,
    the behaviour is no dead code; once moto answers as AWS does itself, the
    test fails and says to retire the behaviour.
    """
    raw_moto_server.reset()
    return raw_moto_server


@pytest.fixture
def moto_as_released(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """``pytester`` whose runs use moto as released: the fidelity layer off, and the gaps it
    retired in the catalogue. For the tests of what the plugin does with a known gap
    (marking, followers, stalls): the gaps they need are ones moto 5.2 has."""
    monkeypatch.setenv(OFF_VARIABLE, "all")
    pytester.makeconftest(_AS_RELEASED_CONFTEST)
    return pytester


def _started_ministack(**settings: Any) -> Iterator[Any]:
    from pytest_converge.emulator.ministack import MiniStackEmulator, find_ministack

    command, tried = find_ministack()
    if command is None:
        pytest.skip(f"needs MiniStack: {'; '.join(tried)}")
    emulator = MiniStackEmulator(command=command, **settings)
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture(scope="module")
def ministack() -> Iterator[Any]:
    """A MiniStack with its fidelity layer, for a test module."""
    yield from _started_ministack()


@pytest.fixture(scope="module")
def raw_ministack() -> Iterator[Any]:
    """MiniStack as released (its fidelity layer off), for a test module."""
    yield from _started_ministack(fidelity_off="all")
