"""pytest wiring: options, ini keys, markers, hooks, session start/stop, reports."""

# ruff: noqa: E402  (moto is spawned before the plugin's other imports: see emulator.spare)

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Generator
from typing import Any

import pytest

# First of the plugin's own imports: moto's start then overlaps the rest of pytest's.
from ..emulator import spare

spare.launch(sys.argv[1:])

from _pytest import junitxml  # its stash key: the public way to the XML is a fixture

from ..analysis.defects import Defect
from ..emulator.base import Emulator
from ..emulator.localstack import localstack_emulator
from ..emulator.ministack import MiniStackEmulator
from ..emulator.moto import MotoEmulator
from ..errors import ConvergeError, ToolchainError
from ..inventory import PLUGIN as INVENTORY_PLUGIN
from ..isolation import cancel
from ..report import junit_suite_properties, sarif_report, summary_lines
from ..report.html import html_report
from ..terraform.cliconfig import read_cli_config
from . import hookspecs
from .collect.batches import XdistBatches, report_as_decided, stop_deciding
from .collect.plans import gates_plans_only
from .fixtures import converge, converge_emulator, converge_toolchain, fail_unseen
from .options import add_options, read_settings, settings, settings_key
from .progress import PLUGIN_NAME, Progress
from .session import ConvergeSession, get_session

__all__ = ["converge", "converge_emulator", "converge_toolchain"]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "converge(allow_defects=False, backend=None): a convergence test of a Terraform module "
        "(pytest-converge); allow_defects=True accepts error defects the test never looked at; "
        "backend='ministack' (or moto, localstack) runs its Stacks on that emulator",
    )
    config.addinivalue_line(
        "markers",
        "localstack: the test needs LocalStack (pytest-converge); skipped, saying why and how "
        "to install it, when no way to run LocalStack is available here",
    )
    # Every option parsed and checked once; the rest of the plugin reads these settings.
    config.stash[settings_key] = read_settings(config)
    _check_cli_config(config)
    import importlib

    for dotted, name in (
        ("pytest_converge.inventory", INVENTORY_PLUGIN),
        ("pytest_converge.analysis.classify", "converge-classify"),
        ("pytest_converge.plugin.collect.arguments", "converge-collect"),
        (
            "pytest_converge.plugin.collect.plans",
            "converge-collect-plans",
        ),  # after: it adds to args
        ("pytest_converge.plugin.collect.upgrade_items", "converge-collect-upgrade"),
        ("pytest_converge.plugin.html_plugin", "converge-html"),
    ):
        module = importlib.import_module(dotted)
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, name)
    get_session(config)
    _offer_spares(config)

    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(Progress(config), PLUGIN_NAME)
    if config.pluginmanager.has_plugin("xdist") and not config.pluginmanager.has_plugin(
        "converge-batches"
    ):  # its hook exists only with xdist: a grouped matrix's batch stays on one worker
        config.pluginmanager.register(XdistBatches(), "converge-batches")

    # SIGTERM/SIGHUP (CI cancelling a job) and SIGINT (Ctrl-C) stop cleanly; see cancel.py.
    config.add_cleanup(cancel.install(lambda signum: _signal_workers(config, signum)))


def _signal_workers(config: pytest.Config, signum: int) -> None:
    """An xdist controller told to stop passes the signal on to its workers at once.

    Otherwise a worker hears of it only when execnet, asked to end the worker,
    has waited 5 s for the running test and then sends it a SIGINT of its own.
    A worker that already got the signal (Ctrl-C reaches the whole process
    group) ignores the repeat.
    """
    if hasattr(config, "workerinput"):
        return
    dsession = config.pluginmanager.getplugin("dsession")
    group = getattr(getattr(dsession, "nodemanager", None), "group", None)
    for gateway in list(group or ()):
        # The worker process of a popen gateway (execnet keeps no public pid; asking the
        # worker for it would wait for the test it runs).
        popen = getattr(getattr(gateway, "_io", None), "popen", None)
        pid = getattr(popen, "pid", None)
        if isinstance(pid, int) and pid > 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signum)


def _check_cli_config(config: pytest.Config) -> None:
    """Zero-code mode runs terraform for sure: a CLI config it cannot use is one error
    now, not the same failure in every item."""
    if not settings(config).paths:
        return

    try:
        read_cli_config()
    except ToolchainError as exc:
        raise pytest.UsageError(str(exc)) from None


@pytest.hookimpl(trylast=True)
def pytest_converge_make_emulator(config: pytest.Config, backend: str) -> Emulator | None:
    """The built-in backends: moto (embedded), LocalStack and MiniStack."""
    session = get_session(config)
    if backend == "moto":
        return spare.take() or MotoEmulator()
    if backend == "localstack":
        return localstack_emulator(
            endpoint=session.settings.endpoint, python=session.settings.localstack_python
        )
    if backend == "ministack":
        return MiniStackEmulator(named=session.settings.ministack)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``localstack`` is skipped when LocalStack cannot be had here.

    Before its fixtures are set up, so none of them starts anything for nothing. With
    ``--converge-backend=localstack`` it always runs: the session's emulator is LocalStack,
    and a LocalStack that cannot start is an error naming why.
    """
    if item.get_closest_marker("localstack") is None:
        return
    missing = get_session(item.config).localstack_missing()
    if missing:
        pytest.skip("needs LocalStack: " + " ".join(missing.split()))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test body that returned fails for error defects it never looked at.

    In the call phase, so the test has one outcome (failed), not a pass and an
    error at teardown; a body that raised keeps its own failure only. A body a
    signal cut short is recorded as an ``interrupted`` scenario of its module.
    """
    started = time.monotonic()
    try:
        result = yield
    except KeyboardInterrupt:
        if isinstance(item, pytest.Function):  # zero-code items record their own
            get_session(item.config).interrupted_test(item, time.monotonic() - started)
        raise
    fail_unseen(item)
    return result


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Our own errors are reported as their message, not as a Python traceback.

    A ConvergenceError's message is the defect list; a TerraformError's is
    terraform's diagnostics: that is what the person fixing the module needs.
    """
    outcome = yield
    report = outcome.get_result()
    excinfo = call.excinfo

    if excinfo is None or not isinstance(excinfo.value, ConvergeError) or not report.failed:
        return
    if not isinstance(item, pytest.Function):
        return  # zero-code items write their own failure text
    if item.config.getoption("tbstyle", "auto") not in ("auto", "short", "line", "no"):
        return  # --tb=long / native: the user asked for the traceback
    path, lineno, _ = item.reportinfo()
    in_test = [e for e in excinfo.traceback if str(e.path) == str(item.path)]
    where = (
        f"{in_test[-1].path}:{in_test[-1].lineno + 1}" if in_test else f"{path}:{(lineno or 0) + 1}"
    )
    report.longrepr = f"{type(excinfo.value).__name__}: {excinfo.value}\n\n(raised at {where})"


#: Fixtures whose tests need the session's emulator.
EMULATOR_FIXTURES = ("converge", "converge_emulator")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """``--converge`` runs will need the emulator: spawn it now (see launch_emulator).
    A run that only gates ``--converge-plan`` files needs none."""
    config = session.config
    if _runs_tests_here(config) and settings(config).paths and not gates_plans_only(config):
        get_session(config).launch_emulator()
    spare.drop()  # one the command line spawned and the session did not take


def pytest_collection_finish(session: pytest.Session) -> None:
    """Tests that use the fixtures will need the emulator: spawn it before the first runs."""
    if _runs_tests_here(session.config) and any(
        name in getattr(item, "fixturenames", ())
        for item in session.items
        for name in EMULATOR_FIXTURES
    ):
        get_session(session.config).launch_emulator()


def _offer_spares(config: pytest.Config) -> None:
    """An xdist controller of a ``--converge`` run on moto: its workers spawn moto as they
    import the plugin (before their configure), as a single process does (emulator.spare)."""
    found = settings(config)
    if (
        getattr(config, "workerinput", None) is None
        and config.getoption("dist", "no") != "no"
        and found.paths
        and found.backend == "moto"
        and not found.endpoint
        and not config.option.collectonly
        and not gates_plans_only(config)
    ):
        spare.offer_to_workers()


def _runs_tests_here(config: pytest.Config) -> bool:
    """Not ``--collect-only``, and not an xdist controller (its workers run the tests)."""
    return not config.option.collectonly and not config.pluginmanager.has_plugin("dsession")


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    """Once every test ran (before ``--junitxml`` is written at session finish): the
    run's defect count as ``<testsuite>`` properties, the summary's and the JSON's."""
    try:
        return (yield)
    finally:
        xml = session.config.stash.get(junitxml.xml_key, None)
        if xml is not None and not hasattr(session.config, "workerinput"):
            for name, value in junit_suite_properties(get_session(session.config).defects):
                xml.add_global_property(name, value)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A grouped matrix's point is reported as soon as a run decides it (see
    :func:`.collect.batches.report_as_decided`)."""
    return report_as_decided(item, nextitem)


def pytest_sessionfinish(session: pytest.Session) -> None:
    converge = get_session(session.config)
    # A batch's runs for points the session did not reach (-x, --maxfail, Ctrl-C).
    stop_deciding(session.config)
    # Safety net: whatever fixtures did not stop (Ctrl-C, errors), stop it now.
    converge.close()
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller writes the reports
    converge.take_interrupted_from_workers()
    _write_reports(session.config, converge)


def _write_reports(config: pytest.Config, converge: ConvergeSession) -> None:

    report_path = converge.settings.report
    html_path = converge.settings.html
    if report_path or html_path:
        data = converge.report_data()
        # Users add their own keys (CI run id, commit) before it is written.
        config.hook.pytest_converge_report(config=config, report=data)
    if report_path:
        path = report_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2))
    if html_path:
        path = html_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html_report(data), encoding="utf-8")
    sarif_path = converge.settings.sarif
    if sarif_path:
        path = sarif_path
        path.parent.mkdir(parents=True, exist_ok=True)
        sarif = sarif_report(converge.defects, config.rootpath, toolchains=converge.toolchains)
        path.write_text(json.dumps(sarif, indent=2))


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    session = get_session(config)
    fidelity = session.fidelity_lines()
    if fidelity:
        terminalreporter.section("emulator fidelity", yellow=True)
        for line in fidelity:
            terminalreporter.write_line(line)
    flaky = [s for s in session.scenarios if s.get("outcome") == "flaky"]
    if flaky:
        terminalreporter.section("flaky convergence scenarios")
        for s in flaky:
            terminalreporter.write_line(
                f"{s['module']} {s['scenario']}: a replay gave a different outcome"
            )
    if not session.defects:
        return

    by_module: dict[str, list[Defect]] = {}
    for d in session.defects:
        by_module.setdefault(d.module or "(module)", []).append(d)
    terminalreporter.section("convergence defects")
    for line in summary_lines(by_module):
        terminalreporter.write_line(line)
    settings = session.settings
    for name, path in (
        ("report", settings.report),
        ("sarif", settings.sarif),
        ("html", settings.html),
    ):
        if path:
            terminalreporter.write_line(f"converge {name} written to {path}")
