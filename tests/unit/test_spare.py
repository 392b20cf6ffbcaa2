"""Which command lines spawn moto while pytest starts (emulator.spare.wanted)."""

from __future__ import annotations

import pytest

from pytest_converge.emulator.spare import FOR_WORKERS, wanted


@pytest.mark.parametrize(
    ("argv", "addopts", "expected"),
    [
        (["--converge", "mods"], "", True),
        (["--converge=mods", "-q"], "", True),
        (["--converge", "mods", "--converge-backend", "moto"], "", True),
        (["--converge", "mods", "--converge-faults=none", "-x"], "", True),
        ([], "--converge mods", True),
        (["tests"], "", False),  # no --converge: the session may never need moto
        (["--converge-faults=none", "tests"], "", False),
        (["--converge", "mods", "--converge-backend=ministack"], "", False),
        (["--converge", "mods", "--converge-backend", "localstack"], "", False),
        (["--converge", "mods", "-n", "2"], "", False),  # xdist's controller runs none
        (["--converge", "mods", "-n2"], "", False),
        (["--converge", "mods"], "-n auto", False),
        (["--converge", "mods", "--dist=loadgroup"], "", False),
        (["--converge", "mods", "--co"], "", False),
        (["--converge", "mods", "--converge-endpoint=http://127.0.0.1:4566"], "", False),
        (["--converge", "mods", "--help"], "", False),
        (["--converge", "mods"], "'unbalanced", False),
    ],
)
def test_wanted(argv: list[str], addopts: str, expected: bool) -> None:
    assert wanted(argv, {"PYTEST_ADDOPTS": addopts}) is expected


def test_an_xdist_worker_spawns_one_when_its_controller_says_so() -> None:
    said = {FOR_WORKERS: "4242", "PYTEST_XDIST_WORKER": "gw0"}
    assert wanted(["-c"], said, parent=4242)  # a worker: execnet's argv, the controller's word
    # Another process's word (a pytest started by a worker, which inherits it): not this one's.
    assert not wanted(["-c"], said, parent=999)
    assert not wanted(["-c"], {FOR_WORKERS: "4242"}, parent=4242)  # not a worker
