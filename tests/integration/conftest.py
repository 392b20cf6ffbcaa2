"""Fixtures of the fidelity tests: the session's moto, and moto as released beside it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pytest_converge.emulator import MotoEmulator


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
