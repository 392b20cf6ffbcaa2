"""The per-session state of the plugin: toolchain, emulator, templates, results.

One ``ConvergeSession`` lives in ``config.stash``; fixtures and the collector
take what they need from it, lazily, so a test run that never touches a
module never starts an emulator or resolves terraform.
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path
from typing import Any

import pytest

from .analysis.defects import Defect
from .emulator.base import Emulator
from .errors import ConvergeError, EmulatorError
from .safety import ensure_loopback
from .toolchain import Toolchain, resolve_toolchain
from .workspace import Templates

BACKENDS = ("moto", "localstack")


class ConvergeSession:
    """Lazily built shared pieces; closed once at session end (or at exit)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._lock = threading.RLock()
        self._toolchain: Toolchain | None = None
        self._emulator: Emulator | None = None
        self._templates: Templates | None = None
        self._stacks: list[Any] = []
        self._failed_start: ConvergeError | None = None
        #: The emulator was just started and nothing has run against it yet.
        self._pristine = False
        #: Results gathered for the terminal summary and the reports.
        self.defects: list[Defect] = []
        self.scenarios: list[dict[str, Any]] = []
        self.modules: set[str] = set()
        atexit.register(self.close)

    # -- settings ------------------------------------------------------
    def option(self, name: str) -> Any:
        """``--converge-NAME`` if given, else the ``converge_NAME`` ini key."""
        value = self.config.getoption(f"converge_{name}", None)
        if value in (None, [], ""):
            value = self.config.getini(f"converge_{name}")
        return value

    @property
    def backend(self) -> str:
        return str(self.option("backend") or "moto")

    @property
    def timeouts(self) -> dict[str, float]:
        value = self.option("timeout")
        if not value:
            return {}
        seconds = float(value)
        return {"apply": seconds, "plan": seconds, "init": max(seconds, 300.0)}

    @property
    def parallelism(self) -> int | None:
        value = self.option("parallelism")
        return int(value) if value else None

    @property
    def reattach(self) -> bool:
        """One reattached aws provider per Stack, unless --converge-no-reattach / ini false."""
        if self.config.getoption("converge_no_reattach", None):
            return False
        return bool(self.config.getini("converge_reattach"))

    # -- shared pieces -------------------------------------------------
    def toolchain(self) -> Toolchain:
        with self._lock:
            if self._toolchain is None:
                self._toolchain = resolve_toolchain(self.option("terraform") or None)
            return self._toolchain

    def templates(self, base: Path) -> Templates:
        with self._lock:
            if self._templates is None:
                self._templates = Templates(self.toolchain(), base)
            return self._templates

    def emulator(self) -> Emulator:
        """The session's emulator, started on first use; whoever gets it may use it."""
        with self._lock:
            emulator = self._started_emulator()
            self._pristine = False
            return emulator

    def _started_emulator(self) -> Emulator:
        with self._lock:
            if self._failed_start is not None:
                raise self._failed_start
            if self._emulator is None:
                emulator = self.config.hook.pytest_converge_make_emulator(
                    config=self.config, backend=self.backend
                )
                if emulator is None:
                    raise EmulatorError(
                        f"no emulator backend named {self.backend!r}; "
                        f"built-in backends: {', '.join(BACKENDS)}"
                    )
                try:
                    emulator.start()
                    ensure_loopback(emulator.endpoint, "emulator endpoint")
                except ConvergeError as exc:
                    emulator.stop()
                    # Do not retry for every test: one clear error, repeated.
                    self._failed_start = exc
                    raise
                self._emulator = emulator
                self._pristine = True
            return self._emulator

    def emptied_emulator(self) -> Emulator:
        """The emulator, emptied; an emulator nothing has used since it started is
        not reset (a reset would throw away the backends its warm-up built)."""
        with self._lock:
            emulator = self._started_emulator()
            pristine, self._pristine = self._pristine, False
        if not pristine:
            emulator.reset()
        return emulator

    def stack(
        self,
        module: Path,
        *,
        variables: dict[str, Any] | None = None,
        on_defects: Any = None,
        reproduce: str = "",
    ) -> Any:
        """A Stack wired to this session: its emulator, templates, options and hooks.

        The ``converge`` fixture and the zero-code items both build theirs here.
        """
        from .stack import Stack

        config = self.config
        factory = config._tmp_path_factory  # type: ignore[attr-defined]
        base = factory.getbasetemp() / "converge-templates"
        base.mkdir(exist_ok=True)
        return Stack(
            module,
            emulator=self.emulator(),
            templates=self.templates(base),
            workdir=factory.mktemp("stack"),
            variables=variables,
            parallelism=self.parallelism,
            timeouts=self.timeouts,
            inventory=lambda emulator: config.hook.pytest_converge_inventory(emulator=emulator),
            classify=lambda address, attribute, declared, observed: (
                config.hook.pytest_converge_classify_diff(
                    address=address, attribute=attribute, declared=declared, observed=observed
                )
            ),
            on_defects=on_defects,
            reproduce=reproduce,
            reattach=self.reattach,
        )

    def track(self, stack: Any) -> None:
        with self._lock:
            self._stacks.append(stack)

    def untrack(self, stack: Any) -> None:
        with self._lock:
            if stack in self._stacks:
                self._stacks.remove(stack)

    def close(self) -> None:
        """Stop everything still running; safe to call more than once."""
        with self._lock:
            stacks, self._stacks = self._stacks, []
            emulator, self._emulator = self._emulator, None
        for stack in stacks:
            try:
                stack.close()
            except Exception:
                pass
        if emulator is not None:
            emulator.stop()


session_key = pytest.StashKey[ConvergeSession]()


def get_session(config: pytest.Config) -> ConvergeSession:
    if session_key not in config.stash:
        config.stash[session_key] = ConvergeSession(config)
    return config.stash[session_key]
