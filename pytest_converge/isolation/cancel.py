"""Cancellation: nothing pytest-converge started outlives pytest, however pytest ends.

Two parts:

- **Signals.** :func:`install` makes ``SIGTERM`` and ``SIGHUP`` (what CI sends
  when a job is cancelled or times out, and what a closed terminal sends) act
  like ``Ctrl-C``: every tracked process group (running terraform and its
  providers) is killed at once, then :class:`Cancelled` (a ``KeyboardInterrupt``)
  is raised in the main thread, so pytest tears fixtures down (workspaces
  removed, emulator stopped), writes the reports gathered so far and exits
  with status 2. ``SIGINT`` (Ctrl-C) does the same with pytest's own
  ``KeyboardInterrupt``, also when pytest was started with SIGINT ignored (a
  script's ``pytest ... &``: a non-interactive shell starts background jobs so,
  and Python then never raises ``KeyboardInterrupt``). A second signal while
  that runs is ignored: a repeated Ctrl-C, or execnet's own SIGINT to an xdist
  worker that is still cleaning up, must not cut the cleanup short.
- **The reaper.** A tiny process of its own session holds the ids of the
  process groups still running (:func:`track` / :func:`untrack`). It reads them
  from a pipe; when the pipe closes - pytest exited, or was killed with
  ``SIGKILL``, or an xdist worker was killed by its controller - it kills every
  group still listed, then removes the directories still listed
  (:func:`track_dir`: the emulator's and the providers' scratch space). Terraform
  runs in its own process group, so without it a provider plugin would be
  re-parented to init and keep running.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

SIGNALS = tuple(
    s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None
)
#: SIGINT's handlers that are not someone's own: Python's (raises KeyboardInterrupt) and
#: "ignored", which a shell sets for a background job. Another handler is left alone.
_SIGINT_DEFAULTS = (signal.default_int_handler, signal.SIG_IGN)

_REAPER = r"""
import os, shutil, signal, sys, time
groups, dirs = set(), set()
for line in sys.stdin:
    sign, what = line[:1], line[1:].rstrip("\n")
    if sign in "+-" and what.isdigit():
        (groups.add if sign == "+" else groups.discard)(int(what))
    elif sign in "Dd" and what:
        (dirs.add if sign == "D" else dirs.discard)(what)
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
for attempt in range(3):
    for path in list(dirs):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            dirs.discard(path)
    if not dirs:
        break
    time.sleep(0.2)  # a killed process may still be writing there
"""


class Cancelled(KeyboardInterrupt):
    """pytest was told to stop by a signal (SIGTERM, SIGHUP); handled like Ctrl-C."""


class _Reaper:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._pid = 0  # the pytest process the reaper belongs to (forks get their own)
        self.groups: set[int] = set()

    def _send(self, line: str) -> None:
        if self._proc is None or self._pid != os.getpid():
            self._proc = subprocess.Popen(
                [sys.executable, "-S", "-c", _REAPER],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                # Its own session: a signal to pytest's process group must not reach it.
                start_new_session=True,
                close_fds=True,
                cwd="/",  # holds no directory of the run (it may outlive pytest by a moment)
            )
            self._pid = os.getpid()
        assert self._proc.stdin is not None
        self._proc.stdin.write(line.encode() + b"\n")
        self._proc.stdin.flush()

    def track(self, pgid: int) -> None:
        self._tell(f"+{pgid}", lambda: self.groups.add(pgid))

    def untrack(self, pgid: int) -> None:
        self._tell(f"-{pgid}", lambda: self.groups.discard(pgid), started_only=True)

    def track_dir(self, path: str) -> None:
        self._tell(f"D{path}")

    def untrack_dir(self, path: str) -> None:
        self._tell(f"d{path}", started_only=True)

    def _tell(
        self, line: str, change: Callable[[], None] | None = None, started_only: bool = False
    ) -> None:
        """Apply ``change`` here and send ``line`` to the reaper (started for it unless
        ``started_only``: a reaper that was never told to add needs no removal)."""
        with self._lock:
            if change is not None:
                change()
            if started_only and self._proc is None:
                return
            with contextlib.suppress(OSError):
                self._send(line)

    def kill_all(self) -> list[int]:
        with self._lock:
            groups = sorted(self.groups)
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        return groups


_reaper = _Reaper()


def track(pgid: int) -> None:
    """Kill process group ``pgid`` if pytest ends (or dies) before :func:`untrack`."""
    _reaper.track(pgid)


def untrack(pgid: int) -> None:
    """``pgid`` was stopped and reaped by its owner."""
    _reaper.untrack(pgid)


def track_dir(path: str | os.PathLike[str]) -> None:
    """Remove directory ``path`` (after killing the groups) if pytest dies before
    :func:`untrack_dir`: a process's scratch space, which only its owner removes."""
    _reaper.track_dir(os.fspath(path))


def untrack_dir(path: str | os.PathLike[str]) -> None:
    """``path`` was removed by its owner (or is to be kept)."""
    _reaper.untrack_dir(os.fspath(path))


def kill_tracked() -> list[int]:
    """SIGKILL every tracked process group now; returns their ids."""
    return _reaper.kill_all()


def install(on_cancel: Callable[[int], None] | None = None) -> Callable[[], None]:
    """Handle SIGTERM, SIGHUP and SIGINT as described above; returns the old handlers' restorer.

    ``on_cancel(signum)`` runs after the kill (e.g. to pass the signal on to xdist
    workers). Outside the main thread nothing is installed (Python only delivers
    signals there), nor for a signal that already has a handler other than the
    default.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    cancelling = False

    def handler(signum: int, frame: Any) -> None:
        nonlocal cancelling
        if cancelling:
            return  # cleanup is running: let it finish
        cancelling = True
        kill_tracked()
        if on_cancel is not None:
            on_cancel(signum)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt  # Ctrl-C: pytest's own interrupted summary
        raise Cancelled(f"cancelled by {signal.Signals(signum).name}")

    previous = {}
    for sig in (*SIGNALS, signal.SIGINT):
        ours = _SIGINT_DEFAULTS if sig == signal.SIGINT else (signal.SIG_DFL,)
        if signal.getsignal(sig) not in ours:
            continue  # someone (a CI wrapper, another plugin) handles it: leave theirs
        with contextlib.suppress(ValueError, OSError):
            previous[sig] = signal.signal(sig, handler)

    def restore() -> None:
        for sig, old in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(sig, old)

    return restore
