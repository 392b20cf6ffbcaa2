"""Run terraform: command lines, -json event streams, process control, typed errors.

Command lines are built by python-terraform's ``Terraform.generate_cmd_string``.
Its 0.10.1 release cannot be used to *run* them here: it has no env
parameter (we must pass our own CLI config and scrubbed credentials), turns
``synchronous=False`` into a CLI flag, cannot stream output, has no timeout
and does not put terraform in its own process group. :class:`Runner`
subclasses it and replaces ``cmd`` with a runner that does all of these.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import selectors
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import python_terraform

from ..analysis.gaps import sdk_call, undecodable_call
from ..errors import Diagnostic, TerraformError, TerraformStalled, TerraformTimeout
from ..isolation import cancel
from .provider import ProviderStartError, ReattachedProvider

_log = logging.getLogger("pytest_converge")

IsFlagged = python_terraform.IsFlagged

#: Commands that load providers, and so use a reattached one (init installs them).
REATTACH_COMMANDS = frozenset({"plan", "apply", "show", "refresh", "destroy", "import", "state"})

#: Default seconds each command may take before it is killed.
DEFAULT_TIMEOUTS = {"init": 300.0, "plan": 300.0, "apply": 600.0, "show": 120.0, "other": 120.0}

#: Seconds between two looks of a command's ``watch`` (see :meth:`Runner.run`).
WATCH_INTERVAL = 1.0
#: Seconds a stopped (SIGINT) command has to exit before its group is killed: terraform
#: writes the state of what it created meanwhile.
STOP_GRACE = 5.0


@dataclass
class Completed:
    """What one terraform command did."""

    argv: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    #: Parsed ``-json`` UI events (empty for commands run without -json).
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The signal our own code sent to terraform (Crash/Interrupt), if any.
    signalled: int | None = None
    #: Pid of the reattached aws provider this command used (None: terraform started its own).
    provider_pid: int | None = None

    @property
    def command(self) -> str:
        return " ".join(self.argv)

    def diagnostics(self) -> list[Diagnostic]:
        """Terraform's error diagnostics, one record each (``-json`` or plain text)."""
        found = [
            diagnostic_of(event.get("diagnostic", {}))
            for event in self.events
            if event.get("type") == "diagnostic" and event.get("@level") == "error"
        ]
        return found or plain_text_errors(self.stderr or self.stdout)

    def pending(self) -> list[str]:
        """Addresses whose apply started and never finished (in event order), each with
        its action: ``aws_vpc.main (create)``."""
        return [f"{a} ({act})" if act else a for a, act in self._open().items()]

    def open_addresses(self) -> list[str]:
        """The addresses of :meth:`pending`, as data."""
        return list(self._open())

    def _open(self) -> dict[str, str]:
        started: dict[str, str] = {}
        for event in self.events:
            kind = event.get("type", "")
            hook = event.get("hook", {})
            address = hook.get("resource", {}).get("addr")
            if not address:
                continue
            if kind == "apply_start":
                started[address] = hook.get("action", "")
            elif kind in ("apply_complete", "apply_errored"):
                started.pop(address, None)
        return started


def diagnostic_of(diag: dict[str, Any]) -> Diagnostic:
    """The record of one ``-json`` ``diagnostic`` event's body: its line
    (:func:`format_diagnostic`), the address terraform gives (else the one its text
    names, :func:`named_in_text`), the call its text names."""
    return _record(format_diagnostic(diag), diag.get("address") or None)


def _record(text: str, address: str | None) -> Diagnostic:
    """The record of a diagnostic's ``text``: ``address`` (else the resource the text
    names, :func:`named_in_text`), the call its SDK error names, and whether the
    provider could not decode that call's answer."""
    undecodable = undecodable_call(text)
    service, operation = undecodable or sdk_call(text) or (None, None)
    return Diagnostic(
        text,
        address or named_in_text(text),
        service,
        operation,
        undecodable=undecodable is not None,
    )


def format_diagnostic(diag: dict[str, Any]) -> str:
    text = diag.get("summary", "").strip()
    detail = " ".join(diag.get("detail", "").split())
    if detail:
        text += f": {detail}"
    address = diag.get("address")
    rng = diag.get("range") or {}
    where = []
    if address:
        where.append(address)
    if rng.get("filename"):
        where.append(f"{rng['filename']}:{rng.get('start', {}).get('line', '?')}")
    return text + (f" [{', '.join(where)}]" if where else "")


def plain_text_errors(text: str) -> list[Diagnostic]:
    """Pull ``Error: ...`` blocks out of terraform's human output, one record each (its
    address from the block's ``with ADDRESS,`` line)."""
    lines = [line.strip(" │╷╵") for line in text.splitlines()]
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if line.startswith("Error: "):
            current = [line[len("Error: ") :].strip()]
            blocks.append(current)
        elif current is not None:
            if line.startswith("Warning: "):
                current = None
            elif line:
                current.append(line)
    return [_plain_diagnostic(block) for block in blocks if block]


def _plain_diagnostic(block: list[str]) -> Diagnostic:
    text = " ".join(" ".join(block).split())
    named = next((m.group(1) for m in map(_WITH_ADDRESS.fullmatch, block) if m), None)
    return _record(text, named)


#: The line of a human-output error block that names its resource: ``with aws_vpc.main,``.
_WITH_ADDRESS = re.compile(r"with (\S.*),")

#: Terraform's words for the resource a provider's wrong answer was about, in diagnostics
#: that carry no address of their own ("Provider produced inconsistent result after
#: apply: When applying changes to aws_s3_bucket.b, provider ... produced an unexpected
#: new value"; "... inconsistent final plan: When expanding the plan for aws_x.y to
#: include new values learned so far during apply, ...").
_NAMED_IN_TEXT = re.compile(
    r"When applying changes to (\S.*?), provider|When expanding the plan for (\S.*?) to include"
)


def named_in_text(text: str) -> str | None:
    """The resource a diagnostic's ``text`` names as terraform words a provider's wrong
    answer (``When applying changes to aws_s3_bucket.b, provider ...``), else None."""
    found = _NAMED_IN_TEXT.search(text)
    return (found.group(1) or found.group(2)) if found else None


class OpenApplies:
    """The resources whose apply is running now, from a live ``apply -json`` event stream.

    Feed it every event (``on_event=open_applies.see``); ``addresses()`` is
    safe to call from other threads (the fault proxy's).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, None] = {}

    def see(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind not in ("apply_start", "apply_complete", "apply_errored"):
            return
        address = (event.get("hook") or {}).get("resource", {}).get("addr")
        if not address:
            return
        with self._lock:
            if kind == "apply_start":
                self._open[address] = None
            else:
                self._open.pop(address, None)

    def addresses(self) -> list[str]:
        """The open applies, in the order they started."""
        with self._lock:
            return list(self._open)


class Runner(python_terraform.Terraform):
    """python-terraform's command builder with a process runner fit for tests.

    Every command gets ``env`` (our CLI config, fake credentials), runs in a
    new process group so the provider plugins it starts die with it, and has a
    timeout. ``signal(sig)`` delivers a signal to the running command's whole
    group (used by the Crash and Interrupt faults).

    With a ``provider`` (:class:`~pytest_converge.terraform.provider.ReattachedProvider`)
    commands that load providers use that running aws provider instead of
    starting their own. SIGKILL (a crash) kills it too, and a signalled or
    timed-out command retires it, so the next command starts a fresh one,
    as it would without reattaching.
    """

    def __init__(
        self,
        command: Sequence[str],
        working_dir: str | os.PathLike[str],
        env: dict[str, str],
        timeouts: Mapping[str, float] | None = None,
        provider: ReattachedProvider | None = None,
    ) -> None:
        super().__init__(working_dir=str(working_dir), is_env_vars_included=False)
        self.engine = list(command)
        self.env = env
        self.provider = provider
        self.timeouts = {**DEFAULT_TIMEOUTS, **(timeouts or {})}
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._signalled: int | None = None
        #: Held by the event pump while it reads and parses; with the stdout pipe
        #: of the running command, what :meth:`caught_up` looks at.
        self._pump_lock = threading.Lock()
        self._stdout_fd: int | None = None

    # -- command lines -------------------------------------------------
    def argv(self, cmd: str, *args: str, **options: Any) -> list[str]:
        """``argv("plan", out="p", detailed_exitcode=IsFlagged)`` -> full argv list."""
        built = self.generate_cmd_string(cmd, *args, **options)
        # generate_cmd_string puts terraform_bin_path first; ours may be several words.
        return [*self.engine, *built[1:]]

    # -- process control -----------------------------------------------
    def signal(self, sig: int) -> bool:
        """Send ``sig`` to the running command's process group. True if delivered."""
        with self._lock:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                return False
            self._signalled = sig
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return False
            if sig == signal.SIGKILL and self.provider is not None:
                # Without reattaching, the provider is in terraform's group and
                # dies with it: a crash must take this one down too.
                self.provider.kill()
            return True

    def caught_up(self, timeout: float = 2.0) -> bool:
        """Wait until every event the running command has printed so far reached ``on_event``.

        Terraform prints a resource's ``apply_start`` before it asks the provider
        to apply it, so the fault proxy, holding an API call of that apply, knows
        every open apply once this returns True: the stdout pipe is empty and
        the pump is not mid-line. False after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._pump_lock:
                fd = self._stdout_fd
                if fd is None or _unread(fd) == 0:
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.001)

    def close(self) -> None:
        """Stop the reattached provider, if any (commands may still run: they start a new one)."""
        if self.provider is not None:
            self.provider.stop()

    def _provider_env(self, name: str) -> tuple[dict[str, str], int | None]:
        provider = self.provider
        if provider is None or name not in REATTACH_COMMANDS:
            return self.env, None
        try:
            extra = provider.reattach_env()
        except ProviderStartError as exc:
            _log.warning("not reattaching the aws provider (terraform starts its own): %s", exc)
            provider.stop()
            self.provider = None
            return self.env, None
        return {**self.env, **extra}, provider.pid

    def cmd(self, cmd: str, *args: Any, **kwargs: Any) -> tuple[int | None, str, str]:
        """python-terraform's entry point, routed through :meth:`run`."""
        done = self.run(cmd, *args, **kwargs)
        return done.returncode, done.stdout, done.stderr

    def run(
        self,
        cmd: str,
        *args: str,
        timeout: float | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        check: bool = False,
        ok_codes: Sequence[int] = (0,),
        watch: Callable[[], str | None] | None = None,
        **options: Any,
    ) -> Completed:
        """Run one command to completion (or timeout) and return what it did.

        With ``json=IsFlagged`` among ``options`` stdout is parsed as the
        machine-readable UI event stream and each event is passed to
        ``on_event`` as it arrives.

        ``watch()`` is called about every :data:`WATCH_INTERVAL` seconds while the
        command runs; when it returns a reason the command is stopped (SIGINT,
        then SIGKILL after :data:`STOP_GRACE` seconds) and
        :class:`~pytest_converge.errors.TerraformStalled` carries the reason.
        """
        argv = self.argv(cmd, *args, **options)
        name = cmd.split()[0]
        limit = timeout if timeout is not None else self.timeouts.get(name, self.timeouts["other"])
        json_stream = options.get("json") is IsFlagged
        events: list[dict[str, Any]] = []
        out_chunks: list[bytes] = []
        err_chunks: list[bytes] = []
        env, provider_pid = self._provider_env(name)
        started = time.monotonic()
        proc = self._start(argv, env)
        timed_out = False
        stalled: str | None = None
        try:
            finished, stalled = _pump(
                proc,
                limit,
                out_chunks,
                err_chunks,
                events if json_stream else None,
                on_event,
                watch,
                self._pump_lock,
            )
            timed_out = not finished
        finally:
            self._end(proc, provider_pid, cut_short=timed_out or bool(stalled))
        done = Completed(
            argv,
            proc.returncode,
            b"".join(out_chunks).decode(errors="replace"),
            b"".join(err_chunks).decode(errors="replace"),
            time.monotonic() - started,
            events,
            self._signalled,
            provider_pid,
        )
        self._raise_failure(
            done,
            stalled=stalled,
            timed_out_after=limit if timed_out else None,
            ok_codes=ok_codes if check else None,
        )
        return done

    def _raise_failure(
        self,
        done: Completed,
        *,
        stalled: str | None,
        timed_out_after: float | None,
        ok_codes: Sequence[int] | None,
    ) -> None:
        """Raise what went wrong with ``done``: the ``stalled`` reason it was stopped for,
        the timeout it ran into, or (with ``ok_codes``) an exit code not among them."""
        if stalled is not None:
            raise TerraformStalled(
                done.command,
                stalled,
                done.seconds,
                ", ".join(done.pending()),
                done.stdout + done.stderr,
                str(self.working_dir),
            )
        if timed_out_after is not None:
            raise TerraformTimeout(
                done.command,
                timed_out_after,
                ", ".join(done.pending()),
                done.stdout + done.stderr,
                str(self.working_dir),
            )
        if ok_codes is not None and done.returncode not in ok_codes:
            raise TerraformError(
                done.command,
                done.returncode,
                done.diagnostics(),
                done.stdout + done.stderr,
                str(self.working_dir),
            )

    def _start(self, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        """Start ``argv`` in its own process group, as the command :meth:`signal` reaches."""
        with self._lock:
            self._signalled = None
            self._proc = subprocess.Popen(
                argv,
                cwd=self.working_dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            proc = self._proc
        cancel.track(proc.pid)  # killed even if pytest dies before _end
        assert proc.stdout is not None
        self._stdout_fd = proc.stdout.fileno()
        return proc

    def _end(
        self, proc: subprocess.Popen[bytes], provider_pid: int | None, cut_short: bool
    ) -> None:
        """Whatever happened, nothing terraform started may outlive it; a reattached
        provider goes too when the command was ``cut_short`` (a timeout, a stall) or
        signalled, as terraform would have taken it down with it."""
        with self._pump_lock:
            self._stdout_fd = None
        _kill_group(proc)
        cancel.untrack(proc.pid)
        with self._lock:
            self._proc = None
        if provider_pid is not None:
            assert self.provider is not None
            self.provider.end_command()  # its configurations' processes, if any
            if cut_short or self._signalled is not None:
                self.provider.stop()


def _pump(
    proc: subprocess.Popen[bytes],
    limit: float,
    out_chunks: list[bytes],
    err_chunks: list[bytes],
    events: list[dict[str, Any]] | None,
    on_event: Callable[[dict[str, Any]], None] | None,
    watch: Callable[[], str | None] | None = None,
    lock: threading.Lock | None = None,
) -> tuple[bool, str | None]:
    """Read stdout/stderr until EOF and exit: (False if ``limit`` passed first, the
    reason ``watch`` gave to stop the command, if it did).

    ``lock`` is held from each read to the last event it completed (see
    :meth:`Runner.caught_up`).
    """
    lock = lock or threading.Lock()
    deadline = time.monotonic() + limit
    next_look = time.monotonic() + WATCH_INTERVAL
    stalled: str | None = None
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, out_chunks)
    sel.register(proc.stderr, selectors.EVENT_READ, err_chunks)
    pending = b""
    open_streams = 2
    while open_streams:
        now = time.monotonic()
        remaining = deadline - now
        if remaining <= 0:
            return False, stalled
        if watch is not None and stalled is None and now >= next_look:
            next_look = now + WATCH_INTERVAL
            stalled = watch()
            if stalled is not None:
                # terraform's own way out: it stops its walk and writes the state it has.
                _signal_group(proc, signal.SIGINT)
                deadline = min(deadline, now + STOP_GRACE)
                continue
        for key, _ in sel.select(timeout=min(remaining, 0.5)):
            with lock:
                data = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
                if not data:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                key.data.append(data)
                if key.data is out_chunks and events is not None:
                    pending += data
                    *lines, pending = pending.split(b"\n")
                    for line in lines:
                        _emit(line, events, on_event)
    if events is not None and pending.strip():
        _emit(pending, events, on_event)
    sel.close()
    try:
        proc.wait(timeout=max(deadline - time.monotonic(), 0.1))
    except subprocess.TimeoutExpired:
        return False, stalled
    return True, stalled


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _emit(
    line: bytes,
    events: list[dict[str, Any]],
    on_event: Callable[[dict[str, Any]], None] | None,
) -> None:
    try:
        event = json.loads(line)
    except ValueError:
        return
    if isinstance(event, dict):
        events.append(event)
        if on_event is not None:
            on_event(event)


def _unread(fd: int) -> int:
    """Bytes waiting in the pipe ``fd`` (FIONREAD); 0 once it is closed."""
    try:
        return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0])
    except OSError:
        return 0


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group and reap; terraform's providers share it."""
    _signal_group(proc, signal.SIGKILL)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
        pass
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
