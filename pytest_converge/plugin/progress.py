"""Live progress: which scenario runs, its step, the resource terraform is applying.

A Stack tells its steps (``stack.on_step``, a :class:`~pytest_converge.run.protocol.Step`) and
terraform's apply events (``stack.on_event``); :class:`Progress`, registered as the plugin
``converge-progress``, keeps each test-running process's status in a small
JSON file under the run's shared base temp (one per xdist worker), and the
process that owns the terminal (the serial run, or the xdist controller) draws
them:

- on a terminal, one status line, redrawn as it changes (its clocks every second), e.g.
  ``[gw0] mods/net::crash@CreateVpc#1@aws_vpc.main faulted apply 12s, applying aws_vpc.main 12s``;
- without one (CI logs), a line per busy worker at most every :data:`LOG_INTERVAL` seconds,
  on stderr, each on a line of its own: pytest's line of dots is ended first (and
  pytest starts its next one as after any plugin's line);
- a Stack made while collecting is the clean apply that records a module's fault
  points (seconds to minutes): a line says so once per module, also under ``-q``
  and ``--collect-only`` (:data:`COLLECTING`);
- nothing else under ``-q``.

It writes to its own duplicate of the terminal's file descriptor, taken while
pytest's output capture is off, so a line drawn while a test runs reaches the
terminal, not the test's captured output.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

from ..run.protocol import Step
from ..run.stack import Stack

#: The name the plugin is registered under.
PLUGIN_NAME = "converge-progress"
#: Seconds between two lines of one worker without a terminal.
LOG_INTERVAL = 30.0
#: Seconds between two looks at the statuses (the line is written only when it changed):
#: short enough that a step of a second (a second plan) shows.
DRAW_INTERVAL = 0.25
#: Seconds between two writes of a process's status file (when it changed).
PUBLISH_INTERVAL = 0.3
#: The line shown once per module whose collection runs a clean apply.
COLLECTING = "converge: collecting {module}: one clean apply records its fault points"

_log = logging.getLogger("pytest_converge")

_OPEN = "apply_start"
_CLOSED = ("apply_complete", "apply_errored")


def status_text(status: dict[str, Any], now: float) -> str:
    """One worker's part of the status line (empty when it runs nothing)."""
    nodeid, step = status.get("nodeid"), status.get("step")
    if not nodeid or not step:
        return ""
    parts = [f"{step} {_seconds(now - status.get('step_started', now))}"]
    applying = status.get("applying") or {}
    if applying:
        # The resource terraform has waited on longest: the one a stall is about.
        address, since = min(applying.items(), key=lambda item: item[1])
        more = f" (+{len(applying) - 1})" if len(applying) > 1 else ""
        parts.append(f"applying {address}{more} {_seconds(now - since)}")
    worker = status.get("worker")
    prefix = f"[{worker}] " if worker else ""
    collecting = " (collecting)" if status.get("collecting") else ""
    return f"{prefix}{nodeid}{collecting} " + ", ".join(parts)


def _seconds(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Progress:
    """The progress of this run: this process's status, and (where it draws) everyone's."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        workerinput = getattr(config, "workerinput", None)
        self.worker = str(workerinput["workerid"]) if workerinput else ""
        self._lock = threading.RLock()
        self._status: dict[str, Any] = {"worker": self.worker, "nodeid": None}
        self._dirty = False
        self._published = 0.0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._dir: Path | None = None
        # Where this process draws (serial run or xdist controller): set in sessionstart.
        self._out: int | None = None
        # Without a terminal: pytest's own stream, where a line of its is ended first.
        self._terminal: int | None = None
        self._tty = False
        self._shown = ""
        self._hidden = 0
        self._last_line: dict[str, tuple[float, str]] = {}
        # Between collectstart and collection_finish: a Stack made then records points.
        self._collecting = False
        self._noticed: set[tuple[str, str]] = set()

    # -- where statuses live ------------------------------------------------
    def _status_dir(self) -> Path:
        if self._dir is None:
            base = self.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
            # xdist workers' base temps are <controller basetemp>/gwN: share the parent.
            root = base.parent if self.worker else base
            self._dir = root / "converge-progress"
            self._dir.mkdir(exist_ok=True)
        return self._dir

    def _publish(self, force: bool = False) -> None:
        with self._lock:
            if not self._dirty or (not force and time.time() - self._published < PUBLISH_INTERVAL):
                return
            text = json.dumps(self._status)
            self._dirty = False
            self._published = time.time()
        # AttributeError: no base temp (``-p no:tmpdir``), so nothing to show.
        with contextlib.suppress(OSError, AttributeError):
            path = self._status_dir() / f"{self.worker or 'main'}.json"
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text)
            os.replace(tmp, path)

    def _change(self, force: bool = False, **fields: Any) -> None:
        with self._lock:
            self._status.update(fields)
            self._dirty = True
        self._publish(force)

    # -- what a Stack tells ---------------------------------------------------
    def begin(self) -> None:
        """A Stack is being made for the running test: its step is ``init``."""
        self._change(force=True, step=Step.INIT.value, step_started=time.time(), applying={})

    def follow(self, stack: Stack) -> None:
        """Show ``stack``'s steps and the resources its applies open."""
        if self._collecting:  # no test runs: this Stack's clean apply is collection's
            self._change(force=True, nodeid=str(stack.settings.name), collecting=True)
        stack.on_step = self.step
        stack.on_event = self.event

    def step(self, step: Step, detail: str = "") -> None:
        """A Stack started ``step``: the status shows it, and how long it has run."""
        self._change(force=True, step=step.value, step_started=time.time(), applying={})

    def event(self, event: dict[str, Any]) -> None:
        """A terraform ``-json`` event: ``apply_start`` opens a resource, its end closes it."""
        kind = event.get("type")
        if kind != _OPEN and kind not in _CLOSED:
            return
        address = ((event.get("hook") or {}).get("resource") or {}).get("addr")
        if not address:
            return
        with self._lock:
            applying = dict(self._status.get("applying") or {})
            if kind == _OPEN:
                applying.setdefault(address, time.time())
            else:
                applying.pop(address, None)
            # A test's own stack.apply() tells no step: its first resource ends ``init``.
            begun = kind == _OPEN and self._status.get("step") == Step.INIT.value
        if begun:
            self._change(applying=applying, step=Step.APPLY.value, step_started=time.time())
        else:
            self._change(applying=applying)

    # -- pytest's side --------------------------------------------------------
    def _enabled(self) -> bool:
        """Status lines while tests run: not under ``-q`` or ``--collect-only``."""
        return self.config.option.verbose >= 0 and not self.config.option.collectonly

    def _notices(self) -> bool:
        """The collection notice: also under ``-q`` and ``--collect-only``, not ``-qq``."""
        return self.config.option.verbose >= -1

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if not self._notices():
            return
        runs_tests = not self.config.pluginmanager.has_plugin("dsession")
        # pytest's TempPathFactory.getbasetemp() is not thread-safe: called first from a
        # thread of ours while the test's thread calls it too, both remove and make the
        # base temp, and one fails (FileExistsError). Made here, before any thread starts.
        with contextlib.suppress(OSError, AttributeError):
            self._status_dir()
        if runs_tests:
            self._start(self._publisher)
        if self.worker:
            return  # the controller draws
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        with contextlib.suppress(AttributeError, OSError, ValueError):
            # Capture is off between hooks: these fds are the terminal or the CI log.
            # Log lines go to stderr, beside the output tests and tools read.
            self._tty = bool(reporter.isatty)
            self._out = os.dup(reporter._tw._file.fileno() if self._tty else 2)
            self._reporter = reporter
            if not self._tty:  # pytester's in-process runs write to a stream with no fd
                with contextlib.suppress(AttributeError, OSError, ValueError):
                    self._terminal = os.dup(reporter._tw._file.fileno())
            self._start(self._drawer)

    def _start(self, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=f"converge-{target.__name__}", daemon=True)
        thread.start()
        self._threads.append(thread)

    def _publisher(self) -> None:
        while not self._stop.wait(PUBLISH_INTERVAL):
            self._publish()

    def pytest_collectstart(self) -> None:
        self._collecting = True

    def pytest_collectreport(self) -> None:
        """A collector is done: a recording it made is over."""
        with self._lock:
            recording = bool(self._status.get("collecting"))
        if recording:
            self._change(force=True, nodeid=None, step=None, applying={}, collecting=False)

    def pytest_collection_finish(self) -> None:
        self._collecting = False

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self._threads and not self.config.pluginmanager.has_plugin("dsession"):
            now = time.time()
            # Not published: shown once a Stack begins (begin() publishes), so tests
            # without one stay off the status line and cost no file write.
            with self._lock:
                self._status.update(
                    nodeid=nodeid, step=None, step_started=now, started=now, applying={}
                )

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        if self._threads and not self.config.pluginmanager.has_plugin("dsession"):
            with self._lock:
                shown = self._status.get("step") is not None
            if shown:
                self._change(force=True, nodeid=None, step=None, applying={})
            else:
                with self._lock:
                    self._status.update(nodeid=None)

    # -- drawing --------------------------------------------------------------
    def _statuses(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        try:
            paths = sorted(self._status_dir().glob("*.json"))
        except (OSError, AttributeError):
            return found
        for path in paths:
            with contextlib.suppress(OSError, ValueError):
                found.append(json.loads(path.read_text()))
        return found

    def _drawer(self) -> None:
        while not self._stop.wait(DRAW_INTERVAL):
            with contextlib.suppress(OSError, ValueError):
                self._draw()

    def _draw(self) -> None:
        now = time.time()
        statuses = self._statuses()
        busy = [(s, status_text(s, now)) for s in statuses]
        busy = [(s, text) for s, text in busy if text]
        with self._lock:
            if self._out is None or self._hidden:
                return
            for status in statuses:
                module = str(status.get("nodeid") or "")
                seen = (str(status.get("worker") or "main"), module)
                if status.get("collecting") and module and seen not in self._noticed:
                    self._noticed.add(seen)
                    self._line(COLLECTING.format(module=module))
            if not self._enabled():
                return
            if self._tty:
                line = " | ".join(text for _, text in busy)
                width = self._reporter._tw.fullwidth - 1
                current = self._current_line()
                # After pytest's own text on that line where it fits, over it where not.
                if line and len(current) + 2 + len(line) <= width:
                    line = f"{current}  {line}"
                self._show(line[:width])
                return
            for status, text in busy:
                worker = str(status.get("worker") or "main")
                last = self._last_line.get(worker)
                if last is not None and now - last[0] < LOG_INTERVAL:
                    continue
                self._last_line[worker] = (now, text)
                self._line(f"converge: {text}")

    def _current_line(self) -> str:
        return str(getattr(self._reporter._tw, "_current_line", ""))

    def _show(self, line: str) -> None:
        if line == self._shown:
            return
        self._shown = line
        # Over the line pytest is writing (its dots); _restore puts that line back.
        self._write(f"\r{line}\x1b[K" if line else f"\r{self._current_line()}\x1b[K")

    def _line(self, text: str) -> None:
        """``text`` on a line of its own, wherever pytest's line (its dots) stands.

        On a terminal it goes above pytest's line, which is drawn again below it, and
        the status line after both. Without one it goes to stderr, which a CI log
        merges with pytest's stdout: pytest's line (``test_x.py .``) is ended first on
        pytest's stream, and pytest starts its next line afresh, as after a line of
        its own. (pytest's writer itself points at the capture while a test runs.)
        """
        if self._tty:
            self._write(f"\r{text}\x1b[K\n{self._current_line()}")
            self._shown = ""
            return
        if self._current_line() and self._terminal is not None:
            with contextlib.suppress(OSError, ValueError):
                self._reporter._tw.flush()
                os.write(self._terminal, b"\n")
            self._reporter._tw._current_line = ""
            self._reporter.currentfspath = None
        self._write(f"{text}\n")

    def _write(self, text: str) -> None:
        assert self._out is not None
        with contextlib.suppress(OSError):
            self._reporter._tw.flush()
            os.write(self._out, text.encode("utf-8", "replace"))

    @contextlib.contextmanager
    def _quiet(self) -> Generator[None, None, None]:
        """While pytest writes to the terminal, the status line is off it."""
        with self._lock:
            self._hidden += 1
            if self._tty and self._shown:
                self._show("")
        try:
            yield
        finally:
            with self._lock:
                self._hidden -= 1

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> Generator[None, None, None]:
        with self._quiet():
            return (yield)

    @pytest.hookimpl(tryfirst=True)
    def pytest_terminal_summary(self) -> None:
        self.close()

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads and take the status line off the terminal."""
        self._stop.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        self._threads = []
        with self._lock:
            if self._out is not None:
                if self._tty and self._shown:
                    self._show("")
                for fd in (self._out, self._terminal):
                    with contextlib.suppress(OSError, TypeError):
                        os.close(fd)  # type: ignore[arg-type]
                self._out = self._terminal = None


def get_progress(config: pytest.Config) -> Progress | None:
    """The run's :class:`Progress` (None when the plugin is not registered)."""
    found = config.pluginmanager.get_plugin(PLUGIN_NAME)
    return found if isinstance(found, Progress) else None
