"""cancel.install's SIGINT rules, in this process: which handlers it takes over, what it raises.

The end-to-end runs (a real pytest, terraform and emulator) are in
tests/integration/test_cancel.py; these pin the rules they rest on.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from pytest_converge.isolation import cancel


@pytest.fixture
def sigint(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """SIGINT's handler is put back afterwards (this pytest run has installed its own).

    The handler kills every tracked process group: a reaper of the test's own, so
    that is only the test's (not this run's emulator, which the run tracks too).
    """
    monkeypatch.setattr(cancel, "_reaper", cancel._Reaper())
    before = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_ctrl_c_kills_tracked_groups_and_raises_pytests_own_keyboard_interrupt(sigint) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    heard: list[int] = []
    restore = cancel.install(heard.append)
    terraform = subprocess.Popen(["sleep", "60"], start_new_session=True)
    cancel.track(terraform.pid)
    try:
        with pytest.raises(KeyboardInterrupt) as interrupted:
            signal.raise_signal(signal.SIGINT)
        assert type(interrupted.value) is KeyboardInterrupt  # not Cancelled: pytest's summary
        assert terraform.wait(timeout=10) == -signal.SIGKILL
        assert heard == [signal.SIGINT]
        signal.raise_signal(signal.SIGINT)  # a second Ctrl-C while cleanup runs: ignored
    finally:
        cancel.untrack(terraform.pid)
        terraform.kill()
        terraform.wait()
        restore()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigint_ignored_at_start_is_taken_over(sigint) -> None:
    # A script's `pytest ... &`: the shell starts it with SIGINT ignored; kill -INT still stops it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    restore = cancel.install()
    try:
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    finally:
        restore()
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_someone_elses_sigint_handler_is_left_alone(sigint) -> None:
    def theirs(signum: int, frame: Any) -> None:
        heard.append(signum)

    heard: list[int] = []
    signal.signal(signal.SIGINT, theirs)
    restore = cancel.install()
    try:
        assert signal.getsignal(signal.SIGINT) is theirs
        signal.raise_signal(signal.SIGINT)
    finally:
        restore()
    assert heard == [signal.SIGINT]


def test_the_reaper_removes_the_directories_of_an_owner_killed_with_sigkill(tmp_path) -> None:
    """SIGKILL leaves no owner to clean up: the reaper removes what is still tracked."""
    import sys
    import time

    kept, dropped = tmp_path / "kept-by-owner", tmp_path / "scratch"
    owner = subprocess.Popen(
        [sys.executable, "-c", (
            "import os, sys, time\n"
            "from pytest_converge.isolation import cancel\n"
            f"for d in ({str(kept)!r}, {str(dropped)!r}):\n"
            "    os.makedirs(os.path.join(d, 'sub'))\n"
            "    cancel.track_dir(d)\n"
            f"cancel.untrack_dir({str(kept)!r})\n"
            "print('ready', flush=True)\n"
            "time.sleep(600)\n"
        )],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert owner.stdout is not None and owner.stdout.readline().strip() == "ready"
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    deadline = time.monotonic() + 20
    while dropped.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not dropped.exists()
    assert (kept / "sub").is_dir()
