"""The per-session state of the plugin: toolchain, emulator, templates, results.

One ``ConvergeSession`` per pytest config, registered as a plugin named
``converge-session`` (as pytest-xdist registers its ``DSession``): it gathers
the defects and scenarios of every test report through its own hook methods,
so an in-process pytest run inside a test (``pytester.runpytest()``) has its
own session and never touches the outer one's. Fixtures and the collector take
what they need from it, lazily, so a test run that never touches a module
never starts an emulator or resolves terraform.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ..analysis.defects import Defect
from ..analysis.upgrade_check import STATEFUL_TYPES
from ..emulator.base import Emulator
from ..emulator.fidelity import MOTO_VERSIONS, not_installed
from ..emulator.localstack import localstack_missing
from ..emulator.ministack_fidelity import MINISTACK_VERSIONS
from ..errors import ConvergeError, EmulatorError, UnsupportedServiceError
from ..inventory import PLUGIN as INVENTORY_PLUGIN
from ..isolation.safety import ensure_loopback
from ..report import json_report, jsonable
from ..run.stack import Stack
from ..terraform.toolchain import Toolchain, resolve_toolchain
from ..terraform.workspace import Templates, aws_addresses, module_services
from .options import BACKENDS, Settings, settings
from .progress import get_progress

#: The name the session object is registered under as a plugin.
PLUGIN_NAME = "converge-session"

_log = logging.getLogger("pytest_converge")

#: Where each emulator's fidelity layer is tested, and the releases it is pinned to.
FIDELITY_TESTS = {
    "moto": "tests/unit/test_fidelity.py",
    "ministack": "tests/integration/test_ministack_fidelity.py",
}
FIDELITY_VERSIONS = {"moto": MOTO_VERSIONS, "ministack": " or ".join(MINISTACK_VERSIONS)}


def module_id(config: pytest.Config, module: Path, converge_root: Path | None = None) -> str:
    """The name of ``module`` in every report: its path relative to the rootdir.

    Outside the rootdir it is relative to the parent of the ``--converge`` PATH
    that holds it (``converge_root``), else the absolute path. Two modules
    with the same base name (``sqs/examples/complete``, ``s3/examples/complete``)
    never share a name.
    """
    path = Path(os.path.abspath(module))
    for base in (config.rootpath, converge_root.parent if converge_root else None):
        if base is None:
            continue
        base = Path(os.path.abspath(base))
        if path == base:
            return path.name or "."
        if base in path.parents:
            return path.relative_to(base).as_posix()
    return path.as_posix()


class ConvergeSession:
    """Lazily built shared pieces; closed once at session end (or at exit)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._lock = threading.RLock()
        self._toolchain: Toolchain | None = None
        self._emulator: Emulator | None = None
        #: Made (and maybe launched) before its first use, not yet waited for.
        self._pending: Emulator | None = None
        self._confirmer: Emulator | None = None
        #: Backends other than the session's that tests pinned (``converge(backend=...)``).
        self._pinned: dict[str, Emulator] = {}
        self._templates: Templates | None = None
        self._stacks: list[Stack] = []
        self._failed_start: ConvergeError | None = None
        self._stateful: frozenset[str] | None = None
        self._localstack_missing: str | None = None
        #: Clean worlds by module content and emulator, shared by every Stack of the run
        #: (see CleanWorlds.share): one clean apply per module, not per test.
        self._clean_worlds: dict[tuple[str, str], dict[str, Any]] = {}
        #: The emulator was just started and nothing has run against it yet.
        self._pristine = False
        #: The modules each emulator was told of (:meth:`warm_for`), by its ``id``.
        self._told: set[tuple[int, Path]] = set()
        #: Deaths of the emulator with no scenario finished between them.
        self._deaths = 0
        #: Why the run must stop (the emulator died twice in a row), for the next teardown.
        self._stop: str | None = None
        #: Results gathered for the terminal summary and the reports.
        self.defects: list[Defect] = []
        self.scenarios: list[dict[str, Any]] = []
        self.modules: set[str] = set()
        #: Nodeids whose call phase failed (their defects are counted already).
        self.failed_calls: set[str] = set()
        #: Loop records for the JSON report's ``loops`` section, keyed by (test, loop).
        self.loops: dict[tuple[str, int], dict[str, Any]] = {}
        #: Module -> the engine and provider versions its runs used (the JSON report's
        #: ``toolchains``).
        self.toolchains: dict[str, dict[str, Any]] = {}
        #: Behaviours of the emulator's fidelity layer it left out -> why (stale, failed,
        #: moto out of range): the terminal summary warns, the JSON report's ``fidelity``.
        self.fidelity: dict[str, str] = {}
        self._fidelity_read: set[int] = set()
        #: xdist controller: the workers (their ``workeroutput`` holds interrupted scenarios;
        #: xdist's ``WorkerController``, which ships no type information).
        self._workers: list[Any] = []
        atexit.register(self.close)

    # -- settings ------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """The run's ``--converge*`` options, parsed once (:mod:`.options`)."""
        return settings(self.config)

    def option(self, name: str) -> Any:
        """``--converge-NAME`` as given (else the ``converge_NAME`` ini key), or None.

        The text a user wrote, for conftests written against earlier versions;
        the plugin reads the typed :attr:`settings`.
        """
        return self.settings.raw.get(name)

    # -- shared pieces -------------------------------------------------
    def toolchain(self) -> Toolchain:
        with self._lock:
            if self._toolchain is None:
                self._toolchain = resolve_toolchain(
                    self.settings.terraform, provider_mirror=self.settings.provider_mirror
                )
            return self._toolchain

    def templates(self, base: Path) -> Templates:
        with self._lock:
            if self._templates is None:
                self._templates = Templates(self.toolchain(), base)
                self._templates.extra_env.update(go_env(self.config))
            return self._templates

    def emulator(self) -> Emulator:
        """The session's emulator, started on first use; whoever gets it may use it."""
        with self._lock:
            emulator = self._started_emulator()
            self._pristine = False
            self.note_fidelity(emulator)
            return emulator

    def note_fidelity(self, emulator: Emulator) -> None:
        """Read, once per emulator started, which behaviours of its fidelity layer it left
        out (moto's ``GET /converge-api/fidelity``; a backend without one has none).

        Read after start (the status is complete once the server serves); an xdist
        worker hands it to the controller in its ``workeroutput``.
        """
        read = getattr(emulator, "fidelity", None)
        if read is None or id(emulator) in self._fidelity_read or not emulator.is_alive():
            return
        self._fidelity_read.add(id(emulator))
        try:
            status = read()
        except EmulatorError as exc:
            _log.warning("%s", exc)
            return
        self.fidelity.update(not_installed(status.get("behaviours") or {}))
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None and self.fidelity:
            workeroutput[FIDELITY_OUTPUT] = dict(self.fidelity)

    def report_data(self) -> dict[str, Any]:
        """The JSON report of the run so far (before the ``pytest_converge_report`` hook)."""
        return json_report(
            sorted(self.modules),
            self.scenarios,
            self.defects,
            loops=list(self.loops.values()),
            toolchains=self.toolchains,
            fidelity=self.fidelity,
        )

    def fidelity_lines(self) -> list[str]:
        """The terminal summary's warning: each behaviour left out, and why (a MiniStack
        behaviour's name says ``ministack:``; moto's have no prefix)."""
        lines: list[str] = []
        for emulator in ("moto", "ministack"):
            left = {name: why for name, why in self.fidelity.items() if _layer_of(name) == emulator}
            if not left:
                continue
            lines += [
                f"the {emulator} emulator left out {len(left)} behaviour(s) of its fidelity "
                f"layer: a finding one of them models is {emulator}'s, not the module's",
                *(f"  {name}: {why}" for name, why in sorted(left.items())),
                f"Re-check a stale or failed behaviour against {emulator}'s source "
                f"({FIDELITY_TESTS[emulator]} prints the digests), or install {emulator} "
                f"{FIDELITY_VERSIONS[emulator]}.",
            ]
        return lines

    def launch_emulator(self) -> None:
        """Spawn the emulator's process now, without waiting for it.

        For a backend that can (moto): its start-up and warm-up then run on
        another core while pytest collects and builds the first Stack. A failure
        here is left for the first real use to report.
        """
        with self._lock:
            if self._emulator is not None or self._failed_start is not None:
                return
            try:
                launch = getattr(self._unstarted(), "launch", None)
                if launch is not None:
                    launch()
            except ConvergeError:
                self._pending = None

    def _unstarted(self) -> Emulator:
        """The session's emulator, made but maybe not started (or waited for) yet."""
        with self._lock:
            if self._pending is None:
                self._pending = self._made_emulator()
            return self._pending

    def _made_emulator(self) -> Emulator:
        backend = self.settings.backend
        emulator = self.config.hook.pytest_converge_make_emulator(
            config=self.config, backend=backend
        )
        if emulator is None:
            raise EmulatorError(
                f"no emulator backend named {backend!r}; built-in backends: {', '.join(BACKENDS)}"
            )
        return emulator

    def _started_emulator(self, wait: bool = True) -> Emulator:
        """The session's emulator, started. ``wait=False``: a backend that can
        :meth:`launch` is not waited for (its endpoint takes calls already; they
        are served once it is up), so the first Stack is built meanwhile."""
        with self._lock:
            if self._emulator is not None and not self._emulator.is_alive():
                self._note_death()
            if self._failed_start is not None:
                raise self._failed_start
            if self._emulator is None:
                emulator, self._pending = self._pending or self._made_emulator(), None
                launch = None if wait else getattr(emulator, "launch", None)
                try:
                    launch() if launch is not None else emulator.start()
                    ensure_loopback(emulator.endpoint, "emulator endpoint")
                except ConvergeError as exc:
                    emulator.stop()
                    # Do not retry for every test: one clear error, repeated.
                    self._failed_start = exc
                    raise
                self._emulator = emulator
                self._pristine = True
            return self._emulator

    def _note_death(self) -> None:
        """The emulator died (or stopped answering): the next use starts a fresh one, once.

        The scenario it died under has already failed saying so; the next one gets
        a fresh emulator. If that one dies too before any scenario finished on it,
        something kills it (memory, a crash every scenario triggers): the run stops
        with one clear error rather than failing every scenario left.
        """
        dead, self._emulator = self._emulator, None
        assert dead is not None
        self._deaths += 1
        with contextlib.suppress(Exception):
            dead.stop()
        if self._deaths > 1:
            self._stop = (
                f"the {dead.name} emulator died twice in a row (the fresh one started after "
                "the first death died before any scenario finished on it); the run stops "
                "here: look at the emulator's memory and at the scenario that was running"
            )
            self._failed_start = EmulatorError(self._stop)
        else:
            _log.warning("the %s emulator died; the next scenario gets a fresh one", dead.name)

    def scenario_finished(self, emulator: Emulator) -> None:
        """A Stack on ``emulator`` was closed: did the emulator outlive its scenario?"""
        with self._lock:
            if emulator is not self._emulator:
                return
            if emulator.is_alive():
                self._deaths = 0
                self.note_fidelity(emulator)
            else:
                self._note_death()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        yield  # after the fixtures' teardown: their Stacks are closed by now
        if self._stop is not None:
            item.session.shouldstop = self._stop

    def pinned_emulator(self, backend: str) -> Emulator:
        """The started emulator of ``backend``: the session's own when it is the run's
        backend, else a second one a test pinned (``@pytest.mark.converge(backend=...)``),
        started on first use and stopped with the session."""
        if backend == self.settings.backend:
            return self._started_emulator(wait=False)
        with self._lock:
            if backend not in self._pinned:
                self._pinned[backend] = self._other_emulator(
                    backend, f"@pytest.mark.converge(backend={backend!r})"
                )
            return self._pinned[backend]

    def _other_emulator(self, backend: str, asked_by: str) -> Emulator:
        """A started emulator of ``backend`` beside the session's (EmulatorError naming
        ``asked_by`` when no backend has that name)."""
        emulator = self.config.hook.pytest_converge_make_emulator(
            config=self.config, backend=backend
        )
        if emulator is None:
            raise EmulatorError(
                f"{asked_by}: no emulator backend named {backend!r}; "
                f"built-in backends: {', '.join(BACKENDS)}"
            )
        try:
            emulator.start()
            ensure_loopback(emulator.endpoint, "emulator endpoint")
        except ConvergeError:
            emulator.stop()
            raise
        self.note_fidelity(emulator)
        return emulator

    def emptied_emulator(self, backend: str | None = None) -> Emulator:
        """The emulator (of ``backend``, when a test pinned one), emptied; an emulator
        nothing has used since it started is not reset (a reset would throw away the
        backends its warm-up built)."""
        if backend is not None and backend != self.settings.backend:
            emulator = self.pinned_emulator(backend)
            emulator.reset()
            return emulator
        with self._lock:
            emulator = self._started_emulator(wait=False)
            pristine, self._pristine = self._pristine, False
        if not pristine:
            emulator.reset()
        return emulator

    def stack(
        self,
        module: Path,
        *,
        variables: dict[str, Any] | None = None,
        on_defects: Callable[[Stack, list[Defect]], None] | None = None,
        on_seen: Callable[[Stack, list[Defect]], None] | None = None,
        reproduce: str = "",
        name: str | None = None,
        backend: str | None = None,
    ) -> Stack:
        """A Stack wired to this session: its emulator, templates, options and hooks.

        The ``converge`` fixture and the zero-code items both build theirs here.
        ``name`` is the module's identity in reports (:func:`module_id` by default).
        ``backend`` pins another emulator than the run's (emptied by the caller, see
        :meth:`emptied_emulator`).
        """

        config = self.config
        factory = config._tmp_path_factory  # type: ignore[attr-defined]
        base = factory.getbasetemp() / "converge-templates"
        base.mkdir(exist_ok=True)
        pinned = backend is not None and backend != self.settings.backend
        self.check_served(Path(module), self.pinned_emulator(str(backend)) if pinned else None)

        live = get_progress(config)
        if live is not None:
            live.begin()
        with self._lock:  # the first Stack on a fresh emulator needs no reset
            if pinned:
                emulator, pristine = self.pinned_emulator(str(backend)), False
            else:
                emulator = self._started_emulator(wait=False)
                pristine, self._pristine = self._pristine, False
        stack = Stack(
            module,
            emulator=emulator,
            emulator_empty=pristine,
            templates=self.templates(base),
            workdir=factory.mktemp("stack"),
            variables=variables,
            parallelism=self.settings.parallelism,
            timeouts=self.settings.timeouts,
            inventory=self._inventory,
            classify=lambda address, attribute, declared, observed: (
                config.hook.pytest_converge_classify_diff(
                    config=config,
                    address=address,
                    attribute=attribute,
                    declared=declared,
                    observed=observed,
                )
            ),
            on_defects=on_defects,
            on_seen=on_seen,
            reproduce=reproduce,
            name=name or module_id(config, module),
            strict=self.settings.strict,
            reattach=self.settings.reattach,
            world=self._world(),
        )
        stack.settings = dataclasses.replace(
            stack.settings,
            loop_alert=self.settings.loop_alert,
            stateful_types=self.stateful_types(),
        )
        template = stack.workspace.template
        where = str(template.root / template.subdir)
        stack.worlds.share(self._clean_worlds.setdefault((where, emulator.name), {}))
        if live is not None:  # its steps and applying resources on the status line
            live.follow(stack)
        return stack

    def _world(self) -> Callable[[Emulator, Path], object] | None:
        """Calls the ``pytest_converge_world`` implementations (None: there are none, and
        every run starts from an empty emulator)."""
        hook = self.config.hook.pytest_converge_world
        if not hook.get_hookimpls():
            return None
        config = self.config
        return lambda emulator, module: hook(config=config, emulator=emulator, module=module)

    def _inventory(
        self,
        emulator: Emulator,
        regions: list[str] | None = None,
        services: dict[str, set[str]] | None = None,
        builtin: bool = True,
    ) -> Any:
        """Every ``pytest_converge_inventory`` implementation's objects (but the built-in
        listers' unless ``builtin``)."""
        hook = self.config.hook.pytest_converge_inventory
        if not builtin:
            hook = self.config.pluginmanager.subset_hook_caller(
                "pytest_converge_inventory",
                remove_plugins=[self.config.pluginmanager.get_plugin(INVENTORY_PLUGIN)],
            )
        return hook(config=self.config, emulator=emulator, regions=regions, services=services)

    def check_served(self, module: Path, emulator: Emulator | None = None) -> None:
        """Fail (or skip, ``--converge-unsupported=skip``) when ``module`` needs a service
        the backend (``emulator``, else the run's) cannot serve; checked before anything
        is applied."""

        addresses = aws_addresses(module)
        if not addresses:
            return  # no AWS: no emulator needed to know
        # Asking what it serves uses nothing: the emulator stays pristine, and is not
        # waited for (or started: --collect-only): a backend knows it when it is made.
        if emulator is None:
            with self._lock:
                emulator = self._emulator or self._unstarted()
        check = getattr(emulator, "check_served", None)
        if check is not None:
            try:
                check(addresses, module.name)
            except UnsupportedServiceError as exc:
                self.unsupported(exc)
                raise

    def warm_for(self, module: Path) -> None:
        """Tell the session's emulator, launched and able to take the hint (moto), which
        services ``module`` calls: it warms those up first (:meth:`.MotoEmulator.warm`).
        Once per module and emulator."""
        with self._lock:
            emulator = self._emulator or self._pending
            warm = getattr(emulator, "warm", None)
            told = (id(emulator), Path(module).resolve())
            if warm is None or told in self._told:
                return
            self._told.add(told)
        warm(*module_services(module))

    def unsupported(self, exc: UnsupportedServiceError) -> None:
        """Skip the current test or collector when the user asked to skip such modules."""
        if self.settings.unsupported == "skip":
            pytest.skip(" ".join(str(exc).split()))

    def confirm(self, stack: Stack) -> bool:
        """Check ``stack``'s error-level findings on the second backend, if one is set.

        Marks what only the first backend shows (``emulator_suspected``);
        returns False when no second backend is configured.
        """
        name = self.settings.confirm_with
        if not name:
            return False
        with self._lock:
            if self._confirmer is None:
                self._confirmer = self._other_emulator(name, f"--converge-confirm-with {name}")
            other = self._confirmer
        other.reset()
        stack.confirm_with(other)
        return True

    def localstack_missing(self) -> str | None:
        """Why no LocalStack can be had in this run (None when one can): what a test marked
        ``localstack`` is skipped with. Asked once per session."""
        with self._lock:
            if self._localstack_missing is None:
                if self.settings.backend == "localstack":
                    found = ""  # the session's own emulator: its start says what is wrong
                else:
                    found = localstack_missing(self.settings.localstack_python) or ""
                self._localstack_missing = found
            return self._localstack_missing or None

    def stateful_types(self) -> frozenset[str]:
        """The built-in stateful types as the ``pytest_converge_stateful_types`` hook left them."""
        with self._lock:
            if self._stateful is None:
                types = set(STATEFUL_TYPES)
                self.config.hook.pytest_converge_stateful_types(config=self.config, types=types)
                self._stateful = frozenset(types)
            return self._stateful

    def track(self, stack: Stack) -> None:
        with self._lock:
            self._stacks.append(stack)

    def untrack(self, stack: Stack) -> None:
        with self._lock:
            if stack in self._stacks:
                self._stacks.remove(stack)
        self.scenario_finished(stack.emulator)

    def close(self) -> None:
        """Stop everything still running; safe to call more than once."""
        with self._lock:
            stacks, self._stacks = self._stacks, []
            emulator, self._emulator = self._emulator, None
            launched, self._pending = self._pending, None
            confirmer, self._confirmer = self._confirmer, None
            pinned, self._pinned = list(self._pinned.values()), {}
        for unused in (confirmer, launched, *pinned):
            if unused is not None:
                unused.stop()
        for stack in stacks:
            try:
                stack.close()
            except Exception:
                pass
        if emulator is not None:
            emulator.stop()

    # -- reproduce lines ----------------------------------------------
    def outcome_options(self) -> list[str]:
        """The ``--converge-*`` options of this run that change what it finds.

        Given on the command line or in the ini file, each is written out, so
        the reproduce line gives the same outcome wherever it is pasted (the
        rows of :data:`~pytest_converge.plugin.options.OPTIONS` marked ``outcome``;
        ``--converge-faults`` is left to each zero-code item, which names its own).
        """
        return self.settings.outcome_args(skip=("faults",))

    # -- results, gathered from test reports (also those of xdist workers) --
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Gather defects and scenarios from the reports' user properties.

        Defects of a test that passed were expected by it (it asserted on them,
        or on ``pytest.raises``): only their warnings are kept. A test that never
        looked at its error defects fails in its call phase (``fixtures.fail_unseen``),
        so they come with that failed report; those a fixture's teardown found
        come in the teardown report (``converge_unraised``) and fail it there.
        """
        self._gather_loops(report)
        for name, value in report.user_properties:
            if name == TOOLCHAIN_PROPERTY:
                record = json.loads(str(value))
                self.toolchains[record.pop("module")] = record
        if report.when == "teardown":
            self._gather_unraised(report)
            return
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        if report.failed:
            self.failed_calls.add(report.nodeid)
        found: list[Defect] = []
        scenario = None
        for name, value in report.user_properties:
            if name == "converge_defects":
                found.extend(Defect.from_dict(d) for d in json.loads(str(value)))
            elif name == "converge_scenario":
                scenario = json.loads(str(value))
        if not report.failed:
            found = [d for d in found if not d.is_error]
        self.defects.extend(found)
        if scenario is None and found:
            scenario = {
                "module": found[0].module,
                "scenario": report.nodeid,
                "outcome": report.outcome,
                "seconds": round(report.duration, 3),
            }
        if scenario is not None:
            scenario.setdefault("outcome", report.outcome)
            self.scenarios.append(scenario)
            self.modules.add(scenario["module"])

    def _gather_loops(self, report: pytest.TestReport) -> None:
        # A loop may finish in a fixture's teardown: its record can come in any phase.
        for name, value in report.user_properties:
            if name == "converge_loop":
                record = json.loads(str(value))
                key = (report.nodeid, record.get("loop", 0))
                self.loops[key] = {"test": report.nodeid, **record}

    def _gather_unraised(self, report: pytest.TestReport) -> None:
        """Teardown: defects found after the call and never looked at, and flaky scenarios."""
        for name, value in report.user_properties:
            if name != "converge_unraised":
                continue
            found = [Defect.from_dict(d) for d in json.loads(str(value))]
            self.defects.extend(found)
            if not found:
                continue
            module = found[0].module
            self.modules.add(module)
            for scenario in self.scenarios:
                if scenario.get("scenario") == report.nodeid:
                    scenario["outcome"] = "failed"
                    break
            else:
                self.scenarios.append(
                    {
                        "module": module,
                        "scenario": report.nodeid,
                        "outcome": "failed",
                        "seconds": round(report.duration, 3),
                    }
                )
        if any(name == "converge_flaky" for name, _ in report.user_properties):
            self._mark_flaky(report.nodeid)  # after the unraised ones made its scenario

    def record_interrupted(self, scenario: dict[str, Any], node: pytest.Item | None = None) -> None:
        """A scenario a signal (Ctrl-C, SIGTERM, SIGHUP) cut short: outcome ``interrupted``.

        pytest makes no report of the test a ``KeyboardInterrupt`` ends, so the item
        hands its entry over itself; an xdist worker also puts it in its
        ``workeroutput``, which the controller reads when the worker goes down
        (:meth:`pytest_testnodedown`). The engine and provider versions ``node`` ran
        with (its toolchain property) reach the report's ``toolchains`` the same way.
        """
        toolchain = _toolchain_of(node) if node is not None else None
        self._take_scenario(scenario, toolchain)
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput.setdefault(INTERRUPTED_OUTPUT, []).append([scenario, toolchain])

    def _take_scenario(self, scenario: dict[str, Any], toolchain: dict[str, Any] | None) -> None:
        self.scenarios.append(scenario)
        self.modules.add(scenario["module"])
        if toolchain:
            self.toolchains[scenario["module"]] = {
                k: v for k, v in toolchain.items() if k != "module"
            }

    def interrupted_test(self, item: pytest.Item, seconds: float) -> None:
        """A test whose Stacks a signal cut short: one ``interrupted`` scenario, for the
        module of its first Stack, or of the one being made when the signal came (a
        test that asked for none ran nothing of ours)."""
        toolchain = _toolchain_of(item)
        module = toolchain["module"] if toolchain is not None else item.stash.get(BUILDING, None)
        if module is not None:
            entry = {"module": module, "scenario": item.nodeid}
            self.record_interrupted(
                {**entry, "outcome": "interrupted", "seconds": round(seconds, 3)}, item
            )

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodeready(self, node: Any) -> None:
        """xdist controller: a worker started (its output is read when the session ends)."""
        self._workers.append(node)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """xdist controller: the scenarios a worker's signal cut short (see above)."""
        self._take_interrupted(node)

    def take_interrupted_from_workers(self) -> None:
        """xdist controller at session end: a controller that was interrupted itself stops
        handling worker events, but xdist still stores each worker's final output."""
        for node in self._workers:
            self._take_interrupted(node)

    def _take_interrupted(self, node: Any) -> None:
        output = getattr(node, "workeroutput", None) or {}
        self.fidelity.update(output.get(FIDELITY_OUTPUT) or {})
        for scenario, toolchain in output.pop(INTERRUPTED_OUTPUT, []):
            self._take_scenario(scenario, toolchain)

    def _mark_flaky(self, nodeid: str) -> None:
        for scenario in self.scenarios:
            if scenario.get("scenario") == nodeid:
                scenario["outcome"] = "flaky"


def _toolchain_of(node: pytest.Item) -> dict[str, Any] | None:
    """The toolchain record :func:`record_toolchain` left on ``node``, if any."""
    for name, value in node.user_properties:
        if name == TOOLCHAIN_PROPERTY:
            return dict(json.loads(str(value)))
    return None


#: The module of the first Stack a test asked for, noted before the Stack is made: a
#: signal while it is being made (seconds, on aws 5.x) still names the module.
BUILDING = pytest.StashKey[str]()

#: The xdist ``workeroutput`` key of a worker's interrupted scenarios.
INTERRUPTED_OUTPUT = "converge_interrupted"
#: The xdist ``workeroutput`` key of the fidelity behaviours a worker's emulator left out.
FIDELITY_OUTPUT = "converge_fidelity"


def _layer_of(behaviour: str) -> str:
    """The emulator whose fidelity layer a behaviour is of: ``ministack:elasticache.x``
    is MiniStack's, a name without a prefix moto's."""
    emulator, colon, _ = behaviour.partition(":")
    return emulator if colon else "moto"


#: The user property that says which engine and providers a Stack of a test ran with.
TOOLCHAIN_PROPERTY = "converge_toolchain"


def record_toolchain(node: pytest.Item, stack: Stack) -> None:
    """Note on ``node`` the engine, provider versions and emulator ``stack`` runs with (the
    JSON report's ``toolchains`` entry for its module; it reaches an xdist controller too)."""
    record = {
        "module": stack.settings.name,
        "engine": stack.engine,
        "providers": stack.providers,
        "backend": stack.backend,
    }
    node.user_properties.append((TOOLCHAIN_PROPERTY, json.dumps(record)))


def record_loops(node: pytest.Item, stack: Stack) -> None:
    """Note on ``node`` each continuous loop ``stack`` runs (a ``converge_loop`` property:
    the JSON report's loop record, shown in the HTML page's timelines)."""

    def on_loop(record: dict[str, Any]) -> None:
        node.user_properties.append(("converge_loop", json.dumps(jsonable(record))))

    stack.settings = dataclasses.replace(stack.settings, on_loop=on_loop)


session_key = pytest.StashKey[ConvergeSession]()


#: Go's collector target for terraform and its providers (Go's default is 100).
#: Their heaps are mostly the provider's schema, decoded again by each command;
#: collecting less often cut their CPU seconds by ~25% on aws 5.100.0
#: (``examples/network``: apply 16.6 -> 10.7 s, plan 10.4 -> 8.3 s; 3.39: ~10%)
#: for ~120 MB more peak memory per terraform process (327 -> 450 MB on 5.x).
#: 800 saved no more and used 680 MB.
GO_GC = "400"


def go_env(config: pytest.Config, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The Go runtime settings for terraform and its providers: ``GOGC`` (see
    :data:`GO_GC`) and, under xdist, ``GOMAXPROCS`` = the cores per worker.

    Go gives each process every core, and its collector keeps the idle ones
    busy; with as many workers as cores, each worker's terraform and provider
    then fight the others' for them. Measured on 2 cores, 12 fault scenarios
    with ``-n 2``: 54 -> 50 CPU seconds, 29 -> 27 s wall. A serial run keeps
    Go's default ``GOMAXPROCS`` (it is ~5% faster there). A ``GOGC``,
    ``GOMEMLIMIT`` or ``GOMAXPROCS`` the user set is left as it is.
    """
    environ = os.environ if environ is None else environ
    settings: dict[str, str] = {}
    if "GOGC" not in environ and "GOMEMLIMIT" not in environ:
        settings["GOGC"] = GO_GC
    workers = int(getattr(config, "workerinput", {}).get("workercount", 0) or 0)
    if workers >= 2 and "GOMAXPROCS" not in environ:
        settings["GOMAXPROCS"] = str(max(1, (os.cpu_count() or 1) // workers))
    return settings


def get_session(config: pytest.Config) -> ConvergeSession:
    """The session object of ``config`` (made and registered as a plugin on first use)."""
    if session_key not in config.stash:
        session = ConvergeSession(config)
        config.stash[session_key] = session
        if not config.pluginmanager.has_plugin(PLUGIN_NAME):
            config.pluginmanager.register(session, PLUGIN_NAME)
    return config.stash[session_key]
