"""pytest wiring: options, ini keys, markers, hooks, session start/stop, reports."""

from __future__ import annotations

import json
from typing import Any

import pytest

from . import hookspecs
from .fixtures import converge, converge_emulator, converge_toolchain
from .session import BACKENDS, get_session

__all__ = ["converge", "converge_emulator", "converge_toolchain"]

FAULT_CHOICES = ("error", "lost-response", "throttle", "crash", "interrupt")

_OPTIONS: list[tuple[str, dict[str, Any], str]] = [
    # (option name, argparse kwargs, ini help)
    (
        "backend",
        {"metavar": "NAME"},
        f"AWS emulator backend: {' or '.join(BACKENDS)} (default moto)",
    ),
    ("endpoint", {"metavar": "URL"}, "use an already running emulator at this loopback URL"),
    ("terraform", {"metavar": "PATH"}, "terraform/tofu executable (default: PATH, then bundled)"),
    ("faults", {"metavar": "KINDS"}, "fault kinds for --converge: comma list, 'none' or 'all'"),
    ("report", {"metavar": "FILE"}, "write the JSON convergence report here"),
    ("sarif", {"metavar": "FILE"}, "write defects as SARIF 2.1.0 here"),
    ("parallelism", {"metavar": "N"}, "terraform -parallelism (fault scenarios default to 1)"),
    ("timeout", {"metavar": "SECONDS"}, "seconds each terraform plan/apply may take (default 600)"),
    ("localstack_python", {"metavar": "PATH"}, "Python >= 3.12 with localstack-core installed"),
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
        "markers", "converge: a convergence test of a Terraform module (pytest-converge)"
    )
    config.addinivalue_line("markers", "localstack: needs a LocalStack emulator (pytest-converge)")
    _validate(config)
    import importlib

    for dotted, name in (
        ("pytest_converge.inventory", "converge-inventory"),
        ("pytest_converge.analysis.classify", "converge-classify"),
        ("pytest_converge.collect", "converge-collect"),
    ):
        module = importlib.import_module(dotted)
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, name)
    get_session(config)


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
    from .collect import fault_kinds

    try:
        fault_kinds(session.option("faults"))
    except ValueError as exc:
        raise pytest.UsageError(f"--converge-faults: {exc}") from None
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


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Gather defects and scenarios from reports (also those of xdist workers).

    Defects of a test that passed were expected by it (``pytest.raises``):
    only their warnings are kept for the summary.
    """
    if report.when != "call" and not (report.when == "setup" and report.failed):
        return
    session = _current[0] if _current else None
    if session is None:
        return
    from .analysis.defects import Defect

    found: list[Defect] = []
    scenario = None
    for name, value in report.user_properties:
        if name == "converge_defects":
            found.extend(Defect.from_dict(d) for d in json.loads(value))
        elif name == "converge_scenario":
            scenario = json.loads(value)
    if not report.failed:
        found = [d for d in found if not d.is_error]
    session.defects.extend(found)
    if scenario is None and found:
        scenario = {
            "module": found[0].module,
            "scenario": report.nodeid,
            "outcome": report.outcome,
            "seconds": round(report.duration, 3),
        }
    if scenario is not None:
        scenario.setdefault("outcome", report.outcome)
        session.scenarios.append(scenario)
        session.modules.add(scenario["module"])


_current: list[Any] = []


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    _current[:] = [get_session(session.config)]


def pytest_sessionfinish(session: pytest.Session) -> None:
    converge = get_session(session.config)
    # Safety net: whatever fixtures did not stop (Ctrl-C, errors), stop it now.
    converge.close()
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller writes the reports
    _write_reports(session.config, converge)


def _write_reports(config: pytest.Config, converge: Any) -> None:
    from pathlib import Path

    from .report import json_report, sarif_report

    report_path = converge.option("report")
    if report_path:
        path = Path(report_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json_report(sorted(converge.modules), converge.scenarios, converge.defects)
        path.write_text(json.dumps(data, indent=2))
    sarif_path = converge.option("sarif")
    if sarif_path:
        path = Path(sarif_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(sarif_report(converge.defects, config.rootpath), indent=2))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = get_session(config)
    if not session.defects:
        return
    from .report import summary_lines

    by_module: dict[str, list[Any]] = {}
    for d in session.defects:
        by_module.setdefault(d.module or "(module)", []).append(d)
    terminalreporter.section("convergence defects")
    for line in summary_lines(by_module):
        terminalreporter.write_line(line)
    for name in ("report", "sarif"):
        path = session.option(name)
        if path:
            terminalreporter.write_line(f"converge {name} written to {path}")


def pytest_unconfigure(config: pytest.Config) -> None:
    _current[:] = []
