"""pytest wiring: options, ini keys, markers, hooks, session start/stop, reports."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Generator
from typing import Any

import pytest

from . import hookspecs
from .fixtures import converge, converge_emulator, converge_toolchain, fail_unseen
from .session import BACKENDS, get_session

__all__ = ["converge", "converge_emulator", "converge_toolchain"]


_OPTIONS: list[tuple[str, dict[str, Any], str]] = [
    # (option name, argparse kwargs, ini help)
    (
        "backend",
        {"metavar": "NAME"},
        f"AWS emulator backend: {' or '.join(BACKENDS)} (default moto)",
    ),
    ("endpoint", {"metavar": "URL"}, "use an already running emulator at this loopback URL"),
    ("terraform", {"metavar": "PATH"}, "terraform/tofu executable (default: PATH, then bundled)"),
    (
        "provider_mirror",
        {"metavar": "DIR"},
        "a provider mirror directory (packed zips or unpacked, as `terraform providers mirror` "
        "writes) added to the sources of your CLI config",
    ),
    ("faults", {"metavar": "KINDS"}, "fault kinds for --converge: comma list, 'none' or 'all'"),
    ("report", {"metavar": "FILE"}, "write the JSON convergence report here"),
    ("sarif", {"metavar": "FILE"}, "write defects as SARIF 2.1.0 here"),
    ("html", {"metavar": "FILE"}, "write one self-contained HTML page of the run here"),
    ("parallelism", {"metavar": "N"}, "terraform -parallelism (fault scenarios default to 1)"),
    ("timeout", {"metavar": "SECONDS"}, "seconds each terraform plan/apply may take (default 600)"),
    ("localstack_python", {"metavar": "PATH"}, "Python >= 3.12 with localstack-core installed"),
    (
        "unsupported",
        {"metavar": "fail|skip"},
        "a module needing a service the backend cannot serve: fail (default) or skip",
    ),
    (
        "confirm_with",
        {"metavar": "NAME"},
        "re-run each module with error-level findings on this second backend (moto or "
        "localstack) and mark what only one backend shows as a suspected emulator gap",
    ),
    (
        "drift",
        {"metavar": "KINDS"},
        "out-of-band changes for --converge, per managed resource: delete,modify, 'none' or 'all'",
    ),
    (
        "loop_alert",
        {"metavar": "N"},
        "cycles a reconciliation loop may go without converging before it is a defect (default 3)",
    ),
    (
        "upgrade_from",
        {"metavar": "REF"},
        "with --converge: also test each module as an upgrade from git revision REF",
    ),
    (
        "stages",
        {"metavar": "NAMES"},
        "with --converge: promote each module through these stages in order, e.g. dev,prod",
    ),
    (
        "allow_replace",
        {"metavar": "ADDRS"},
        "upgrade items accept replacing/deleting these addresses or globs (comma list)",
    ),
]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("converge", "convergence checks of Terraform modules (pytest-converge)")
    group.addoption(
        "--converge",
        action="append",
        dest="converge_paths",
        default=[],
        metavar="PATH",
        help="collect every Terraform root module under PATH as convergence tests (repeatable)",
    )
    parser.addini("converge_paths", "paths collected as with --converge", type="paths", default=[])
    for name, kwargs, text in _OPTIONS:
        flag = "--converge-" + name.replace("_", "-")
        group.addoption(flag, dest=f"converge_{name}", default=None, help=text, **kwargs)
        parser.addini(f"converge_{name}", text, default="")
    group.addoption(
        "--converge-keep",
        action="store_true",
        dest="converge_keep",
        default=None,
        help="keep each Stack's workspace (state, override, plans) for inspection",
    )
    parser.addini("converge_keep", "keep workspaces (true/false)", type="bool", default=False)
    group.addoption(
        "--converge-strict",
        action="store_true",
        dest="converge_strict",
        default=None,
        help="findings a known emulator gap explains stay errors (default: warnings, "
        "marked 'suspected emulator gap')",
    )
    parser.addini(
        "converge_strict",
        "emulator-gap findings stay errors (true/false)",
        type="bool",
        default=False,
    )
    group.addoption(
        "--converge-no-reattach",
        action="store_true",
        dest="converge_no_reattach",
        default=None,
        help="let terraform start its own aws provider for every command "
        "(default: one provider process per Stack, reattached)",
    )
    parser.addini(
        "converge_reattach",
        "one reattached aws provider process per Stack (true/false)",
        type="bool",
        default=True,
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "converge(allow_defects=False): a convergence test of a Terraform module "
        "(pytest-converge); allow_defects=True accepts error defects the test never looked at",
    )
    config.addinivalue_line("markers", "localstack: needs a LocalStack emulator (pytest-converge)")
    _validate(config)
    import importlib

    for dotted, name in (
        ("pytest_converge.inventory", "converge-inventory"),
        ("pytest_converge.analysis.classify", "converge-classify"),
        ("pytest_converge.collect.arguments", "converge-collect"),
        ("pytest_converge.collect.upgrade", "converge-collect-upgrade"),
        ("pytest_converge.report.html_plugin", "converge-html"),
    ):
        module = importlib.import_module(dotted)
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, name)
    get_session(config)
    from .progress import PLUGIN_NAME, Progress

    if not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(Progress(config), PLUGIN_NAME)
    from . import cancel

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


def _validate(config: pytest.Config) -> None:
    """Bad option values fail fast with the valid form, as pytest.UsageError."""
    session = get_session(config)
    backend = session.option("backend")
    # A backend of a user's plugin is checked when it is made (session.emulator).
    own_backends_only = len(config.hook.pytest_converge_make_emulator.get_hookimpls()) == 1
    if backend and backend not in BACKENDS and own_backends_only:
        raise pytest.UsageError(
            f"--converge-backend {backend!r}: expected one of {', '.join(BACKENDS)}"
        )
    confirm = session.option("confirm_with")
    if confirm:
        if own_backends_only and confirm not in BACKENDS:
            raise pytest.UsageError(
                f"--converge-confirm-with {confirm!r}: expected one of {', '.join(BACKENDS)}"
            )
        if confirm == (backend or "moto"):
            raise pytest.UsageError(
                f"--converge-confirm-with {confirm!r} is already the backend: name the other "
                f"one (--converge-backend {backend or 'moto'} --converge-confirm-with "
                f"{'localstack' if (backend or 'moto') == 'moto' else 'moto'})"
            )
    for name in ("parallelism", "timeout"):
        value = session.option(name)
        if value in (None, ""):
            continue
        try:
            ok = float(value) > 0 and (name != "parallelism" or float(value).is_integer())
        except ValueError:
            ok = False
        if not ok:
            kind = "a whole number" if name == "parallelism" else "a number of seconds"
            raise pytest.UsageError(f"--converge-{name} {value!r}: expected {kind} greater than 0")
    unsupported = session.option("unsupported")
    if unsupported not in (None, "", "fail", "skip"):
        raise pytest.UsageError(
            f"--converge-unsupported {unsupported!r}: expected 'fail' (the default) or 'skip'"
        )
    from .collect.options import drift_kinds, fault_kinds

    try:
        fault_kinds(session.option("faults"))
    except ValueError as exc:
        raise pytest.UsageError(f"--converge-faults: {exc}") from None
    try:
        drift_kinds(session.option("drift"))
    except ValueError as exc:
        raise pytest.UsageError(f"--converge-drift: {exc}") from None
    alert = session.option("loop_alert")
    if alert not in (None, "") and not (str(alert).isdigit() and int(alert) >= 1):
        raise pytest.UsageError(
            f"--converge-loop-alert {alert!r}: expected a whole number of cycles >= 1, e.g. 3"
        )
    mirror = session.option("provider_mirror")
    if mirror:
        from .cliconfig import check_mirror

        try:
            check_mirror(str(mirror))
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    from .collect.options import converge_paths

    if converge_paths(config):
        # Zero-code mode runs terraform for sure: a CLI config it cannot use is one error
        # now, not the same failure in every item.
        from .cliconfig import read_cli_config
        from .errors import ToolchainError

        try:
            read_cli_config()
        except ToolchainError as exc:
            raise pytest.UsageError(str(exc)) from None
    endpoint = session.option("endpoint")
    if endpoint:
        from .safety import is_loopback_url

        if not is_loopback_url(str(endpoint)):
            raise pytest.UsageError(
                f"--converge-endpoint {endpoint!r}: only loopback URLs are allowed "
                "(http://127.0.0.1:PORT or http://localhost:PORT): tests never reach a real cloud"
            )


@pytest.hookimpl(trylast=True)
def pytest_converge_make_emulator(config: pytest.Config, backend: str) -> Any:
    """The built-in backends: moto (embedded) and LocalStack."""
    session = get_session(config)
    if backend == "moto":
        from .emulator.moto import MotoEmulator

        return MotoEmulator()
    if backend == "localstack":
        from .emulator.localstack import localstack_emulator

        return localstack_emulator(
            endpoint=session.option("endpoint") or None,
            python=session.option("localstack_python") or None,
        )
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test body that returned fails for error defects it never looked at.

    In the call phase, so the test has one outcome (failed), not a pass and an
    error at teardown; a body that raised keeps its own failure only.
    """
    result = yield
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
    from .errors import ConvergeError

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
    """``--converge`` runs will need the emulator: spawn it now (see launch_emulator)."""
    from .collect.options import converge_paths

    if _runs_tests_here(session.config) and converge_paths(session.config):
        get_session(session.config).launch_emulator()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Tests that use the fixtures will need the emulator: spawn it before the first runs."""
    if _runs_tests_here(session.config) and any(
        name in getattr(item, "fixturenames", ())
        for item in session.items
        for name in EMULATOR_FIXTURES
    ):
        get_session(session.config).launch_emulator()


def _runs_tests_here(config: pytest.Config) -> bool:
    """Not ``--collect-only``, and not an xdist controller (its workers run the tests)."""
    return not config.option.collectonly and not config.pluginmanager.has_plugin("dsession")


def pytest_sessionfinish(session: pytest.Session) -> None:
    converge = get_session(session.config)
    # Safety net: whatever fixtures did not stop (Ctrl-C, errors), stop it now.
    converge.close()
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller writes the reports
    _write_reports(session.config, converge)


def report_data(converge: Any) -> dict[str, Any]:
    """The JSON report of the run so far (before the ``pytest_converge_report`` hook)."""
    from .report import json_report

    return json_report(
        sorted(converge.modules),
        converge.scenarios,
        converge.defects,
        loops=list(converge.loops.values()),
        toolchains=converge.toolchains,
    )


def _write_reports(config: pytest.Config, converge: Any) -> None:
    from pathlib import Path

    from .report import sarif_report

    report_path = converge.option("report")
    html_path = converge.option("html")
    if report_path or html_path:
        data = report_data(converge)
        # Users add their own keys (CI run id, commit) before it is written.
        config.hook.pytest_converge_report(config=config, report=data)
    if report_path:
        path = Path(report_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2))
    if html_path:
        from .report.html import html_report

        path = Path(html_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html_report(data), encoding="utf-8")
    sarif_path = converge.option("sarif")
    if sarif_path:
        path = Path(sarif_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        sarif = sarif_report(converge.defects, config.rootpath, toolchains=converge.toolchains)
        path.write_text(json.dumps(sarif, indent=2))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = get_session(config)
    flaky = [s for s in session.scenarios if s.get("outcome") == "flaky"]
    if flaky:
        terminalreporter.section("flaky convergence scenarios")
        for s in flaky:
            terminalreporter.write_line(
                f"{s['module']} {s['scenario']}: a replay gave a different outcome"
            )
    if not session.defects:
        return
    from .report import summary_lines

    by_module: dict[str, list[Any]] = {}
    for d in session.defects:
        by_module.setdefault(d.module or "(module)", []).append(d)
    terminalreporter.section("convergence defects")
    for line in summary_lines(by_module):
        terminalreporter.write_line(line)
    for name in ("report", "sarif", "html"):
        path = session.option(name)
        if path:
            terminalreporter.write_line(f"converge {name} written to {path}")
