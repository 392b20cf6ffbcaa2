"""Every ``--converge*`` option in one table, its parsers, and the typed settings of a run.

Each :class:`Option` row names the CLI flag and its ini twin, the default,
the help text, the parser (text in, typed value out, ``ValueError`` naming the
valid form) and whether the option changes what a run finds (then every
reproduce line carries it). :func:`read_settings` reads and checks them all
once, in ``pytest_configure``, into a frozen :class:`Settings`; the rest of the
plugin reads that object (:func:`settings`), never the raw option::

    from pytest_converge.plugin.options import settings

    def pytest_collection_modifyitems(config, items):
        if settings(config).backend == "localstack":
            ...

Adding an option is one row in :data:`OPTIONS` (and a field of the same name
in :class:`Settings`) plus its test. :func:`reference_markdown` renders the
table for the documentation.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import pytest

from ..faults import FAULT_KINDS
from ..isolation.safety import is_loopback_url
from ..run.loop import DRIFT_KINDS
from ..terraform.cliconfig import check_mirror

#: The built-in emulator backends (a user's ``pytest_converge_make_emulator`` may add more).
BACKENDS = ("moto", "localstack", "ministack")

#: What a CI gate runs when ``--converge-faults`` is not given: the two kinds
#: that find real-world defects a two-run test cannot see. A lost response
#: makes the SDK retry a call the cloud already processed (duplicates: the
#: second plan is empty, yet an orphaned copy exists); a crash right after a
#: create leaves an object terraform never recorded (the re-run collides with
#: it or makes a second one). ``error`` and ``throttle`` mostly test the SDK's
#: retries and ``interrupt`` terraform's graceful stop: opt in with ``all``.
DEFAULT_FAULTS = ("lost-response", "crash")

_STAGE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


# -- parsers: text in, typed value out, ValueError naming the valid form -----------------------
#: ``--converge-matrix``: how a module's fault points are run.
MATRIX_MODES = ("grouped", "per-point")


def matrix_mode(value: str | None) -> str:
    """Parse ``--converge-matrix``: ``grouped`` (many points a run) or ``per-point``.

    >>> matrix_mode("Per-Point")
    'per-point'
    """
    text = (value or "").strip().lower() or MATRIX_MODES[0]
    if text not in MATRIX_MODES:
        raise ValueError(f"expected one of {', '.join(MATRIX_MODES)}")
    return text


def fault_kinds(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-faults``: a comma list of kinds, ``none`` or ``all``.

    >>> fault_kinds("crash, lost-response")
    ('crash', 'lost-response')
    >>> fault_kinds(None) == DEFAULT_FAULTS
    True

    Raises ValueError naming the valid values.
    """
    text = (value or "").strip().lower()
    if not text:
        return DEFAULT_FAULTS
    if text == "none":
        return ()
    if text == "all":
        return FAULT_KINDS
    kinds: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part not in FAULT_KINDS:
            raise ValueError(
                f"unknown fault kind {part!r} in {value!r}: expected a comma list of "
                f"{', '.join(FAULT_KINDS)}, or 'none' (two-run only) or 'all'"
            )
        if part not in kinds:
            kinds.append(part)
    if not kinds:
        raise ValueError(f"{value!r} names no fault kind; use 'none' for two-run only")
    return tuple(kinds)


def drift_kinds(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-drift``: a comma list of ``delete``/``modify``, ``none`` or ``all``.

    >>> drift_kinds("delete, modify")
    ('delete', 'modify')
    >>> drift_kinds(None)
    ()

    Raises ValueError naming the valid values.
    """
    text = (value or "").strip().lower()
    if not text or text == "none":
        return ()
    if text == "all":
        return DRIFT_KINDS
    kinds: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if part and part not in DRIFT_KINDS:
            raise ValueError(
                f"unknown drift kind {part!r} in {value!r}: expected a comma list of "
                f"{', '.join(DRIFT_KINDS)}, or 'none' or 'all'"
            )
        if part and part not in kinds:
            kinds.append(part)
    return tuple(kinds)


def stage_names(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-stages``: a comma list of at least two distinct names.

    >>> stage_names("dev, prod")
    ('dev', 'prod')
    """
    names = tuple(n.strip() for n in (value or "").split(",") if n.strip())
    if not names:
        return ()
    bad = [n for n in names if not _STAGE_NAME.match(n)]
    if bad or len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(
            f"{value!r}: expected two or more distinct stage names in promotion order, "
            "letters, digits, '-' and '_' only, e.g. dev,prod"
        )
    return names


def allow_list(value: str | None) -> list[str]:
    """``--converge-allow-replace``: addresses or globs, comma or line separated."""
    return [a.strip() for a in re.split(r"[,\n]", value or "") if a.strip()]


def _allow_tuple(value: str) -> tuple[str, ...]:
    return tuple(allow_list(value))


def _text(value: str) -> str:
    return value


def _whole_number(value: str) -> int:
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not (number > 0 and number.is_integer()):
        raise ValueError("expected a whole number greater than 0")
    return int(number)


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not number > 0:
        raise ValueError("expected a number of seconds greater than 0")
    return number


def _cycles(value: str) -> int:
    if not (value.isdigit() and int(value) >= 1):
        raise ValueError("expected a whole number of cycles >= 1, e.g. 3")
    return int(value)


def _fail_or_skip(value: str) -> str:
    if value not in ("fail", "skip"):
        raise ValueError("expected 'fail' (the default) or 'skip'")
    return value


def _backend_name(value: str) -> str:
    return value.strip().lower()


def module_backends(value: str) -> tuple[tuple[str, str], ...]:
    """``modules/cache*=ministack,legacy=moto`` -> ``(("modules/cache*", "ministack"), ...)``:
    a module whose id (its path from the rootdir) matches a pattern runs on that backend."""
    pins: list[tuple[str, str]] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        pattern, sep, backend = part.rpartition("=")
        backend = backend.strip().lower()
        if not sep or not pattern.strip():
            raise ValueError(f"{part!r} is not PATTERN=BACKEND")
        if backend not in BACKENDS:
            raise ValueError(
                f"no backend named {backend!r}; built-in backends: {', '.join(BACKENDS)}"
            )
        pins.append((pattern.strip(), backend))
    return tuple(pins)


def _loopback_url(value: str) -> str:

    if not is_loopback_url(value):
        raise ValueError(
            "only loopback URLs are allowed "
            "(http://127.0.0.1:PORT or http://localhost:PORT): tests never reach a real cloud"
        )
    return value


def _directory(value: str) -> Path:
    path = Path(value).expanduser()
    if not path.is_dir():
        raise ValueError("no such directory; name the directory of the plan's configuration")
    return Path(os.path.abspath(path))


def _mirror(value: str) -> Path:

    return check_mirror(value)  # its ValueError names the flag and the layout


# -- the table ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One ``--converge*`` option and its ini twin.

    ``kind`` is ``value`` (``--converge-NAME VALUE``), ``switch`` (a flag that
    sets the opposite of ``default``: ``--converge-keep`` on, ``--converge-no-reattach``
    off) or ``paths`` (``--converge PATH``, repeatable). ``usage`` words a parser's
    ``ValueError``: ``{flag}``, ``{value}`` (as given) and ``{reason}`` (the error's text).
    """

    name: str
    help: str
    metavar: str = ""
    parse: Callable[[str], Any] = _text
    default: Any = None
    #: Changes what a run finds: every reproduce line carries it.
    outcome: bool = True
    kind: Literal["value", "switch", "paths"] = "value"
    usage: str = "{flag} {value!r}: {reason}"
    ini_help: str = ""
    #: A value that differs from the default (the docs show it; the tests set it).
    example: str = ""
    flag_name: str = ""
    ini_name: str = ""

    @property
    def flag(self) -> str:
        return self.flag_name or "--converge-" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        """The attribute of ``config.option`` the flag is stored in."""
        if not self.flag.startswith("--converge-"):
            return f"converge_{self.name}"  # --converge PATH: converge_paths
        return "converge_" + self.flag.removeprefix("--converge-").replace("-", "_")

    @property
    def ini(self) -> str:
        return self.ini_name or f"converge_{self.name}"

    @property
    def ini_type(self) -> str:
        """The ini key's type, as ``pytest --help`` shows it."""
        return {"value": "string", "switch": "bool", "paths": "paths"}[self.kind]


OPTIONS: tuple[Option, ...] = (
    Option(
        "paths",
        "collect every Terraform root module under PATH as convergence tests (repeatable)",
        metavar="PATH",
        kind="paths",
        default=(),
        flag_name="--converge",
        ini_help="paths collected as with --converge",
        example="modules",
        outcome=False,  # a reproduce line names its own PATH
    ),
    Option(
        "plan",
        "explain a plan your pipeline saved after its apply (terraform show -json output, or "
        "the binary plan file): the test fails unless it is empty (repeatable; no emulator)",
        metavar="FILE",
        kind="paths",
        default=(),
        ini_help="plan files gated as with --converge-plan",
        example="plan.json",
        outcome=False,  # a reproduce line names its own FILE
    ),
    Option(
        "plan_source",
        "the directory of the --converge-plan plans' configuration: findings name its files "
        "and lines, a binary plan is shown there (default: each plan file's directory)",
        metavar="DIR",
        parse=_directory,
        example="infra",
        outcome=False,  # a plan item's reproduce line names it itself
    ),
    Option(
        "backend",
        f"AWS emulator backend: {' or '.join(BACKENDS)} (default moto)",
        metavar="NAME",
        default="moto",
        example="localstack",
    ),
    Option(
        "endpoint",
        "use an already running emulator at this loopback URL",
        metavar="URL",
        parse=_loopback_url,
        example="http://127.0.0.1:4566",
    ),
    Option(
        "terraform",
        "terraform/tofu executable (default: PATH, then bundled)",
        metavar="PATH",
        example="/usr/local/bin/tofu",
    ),
    Option(
        "provider_mirror",
        "a provider mirror directory (packed zips or unpacked, as `terraform providers mirror` "
        "writes) added to the sources of your CLI config",
        metavar="DIR",
        parse=_mirror,
        usage="{reason}",
        example="/opt/tf-plugins",
    ),
    Option(
        "faults",
        "fault kinds for --converge: comma list, 'none' or 'all'",
        metavar="KINDS",
        parse=fault_kinds,
        default=DEFAULT_FAULTS,
        usage="{flag}: {reason}",
        example="all",
    ),
    Option(
        "report",
        "write the JSON convergence report here",
        metavar="FILE",
        parse=Path,
        outcome=False,
        example="converge.json",
    ),
    Option(
        "sarif",
        "write defects as SARIF 2.1.0 here",
        metavar="FILE",
        parse=Path,
        outcome=False,
        example="converge.sarif",
    ),
    Option(
        "html",
        "write one self-contained HTML page of the run here (the fault matrix as a grid)",
        metavar="FILE",
        parse=Path,
        outcome=False,
        example="converge.html",
    ),
    Option(
        "parallelism",
        "terraform -parallelism (default 32; fault scenarios 1)",
        metavar="N",
        parse=_whole_number,
        example="4",
    ),
    Option(
        "timeout",
        "seconds each terraform plan/apply may take (default 600)",
        metavar="SECONDS",
        parse=_seconds,
        example="120",
    ),
    Option(
        "localstack_python",
        "Python >= 3.13 with localstack-core installed",
        metavar="PATH",
        example="/opt/localstack/bin/python",
    ),
    Option(
        "ministack",
        "the MiniStack to run: a ministack executable, a Python that has it, or its venv "
        "(default: $CONVERGE_MINISTACK, a ministack on PATH, else one the plugin installs "
        "once in its cache)",
        metavar="PATH",
        outcome=False,  # which install runs it; its version is in every report
        example="~/.local/bin/ministack",
    ),
    Option(
        "unsupported",
        "a module needing a service the backend cannot serve: fail (default) or skip",
        metavar="fail|skip",
        parse=_fail_or_skip,
        default="fail",
        example="skip",
    ),
    Option(
        "module_backends",
        "run the modules whose path matches PATTERN on BACKEND (comma list of PATTERN=BACKEND, "
        "fnmatch patterns on the module's path from the rootdir); '*=moto' keeps every module on "
        "moto, where a module moto cannot serve would go to an installed MiniStack that serves it",
        metavar="PATTERN=BACKEND,...",
        parse=module_backends,
        default=(),
        example="modules/cache*=ministack",
    ),
    Option(
        "confirm_with",
        "re-run each module with error-level findings on this second backend (moto, "
        "localstack or ministack) and mark what only one backend shows as a suspected emulator "
        "gap; "
        "an error both show stays one, marked confirmed on that backend (name and version)",
        metavar="NAME",
        parse=_backend_name,
        example="localstack",
    ),
    Option(
        "drift",
        "out-of-band changes for --converge, per managed resource: delete,modify, 'none' or 'all'",
        metavar="KINDS",
        parse=drift_kinds,
        default=(),
        usage="{flag}: {reason}",
        example="delete,modify",
    ),
    Option(
        "loop_alert",
        "cycles a reconciliation loop may go without converging before it is a defect (default 3)",
        metavar="N",
        parse=_cycles,
        default=3,
        example="5",
    ),
    Option(
        "upgrade_from",
        "with --converge: also test each module as an upgrade from git revision REF",
        metavar="REF",
        example="origin/main",
    ),
    Option(
        "stages",
        "with --converge: promote each module through these stages in order, e.g. dev,prod",
        metavar="NAMES",
        parse=stage_names,
        default=(),
        usage="{flag}: {reason}",
        example="dev,prod",
    ),
    Option(
        "allow_replace",
        "upgrade items accept replacing/deleting these addresses or globs (comma list)",
        metavar="ADDRS",
        parse=_allow_tuple,
        default=(),
        example="aws_s3_bucket.logs,module.cache.*",
    ),
    Option(
        "keep",
        "keep each Stack's workspace (state, override, plans) for inspection",
        kind="switch",
        default=False,
        outcome=False,
        ini_help="keep workspaces (true/false)",
        example="true",
    ),
    Option(
        "strict",
        "findings a known emulator gap explains stay errors (default: warnings, "
        "marked 'suspected emulator gap')",
        kind="switch",
        default=False,
        ini_help="emulator-gap findings stay errors (true/false)",
        example="true",
    ),
    Option(
        "matrix",
        "how a module's fault points run: grouped (many faults in one run, a verdict per "
        "point, default) or per-point (one run each, the replay of a failing one included)",
        metavar="MODE",
        parse=matrix_mode,
        default="grouped",
        outcome=False,  # the same verdicts either way; a reproduce line runs one point
        ini_help="grouped or per-point",
        example="per-point",
        usage="{flag} {value!r}: {reason}",
    ),
    Option(
        "reattach",
        "let terraform start its own aws provider for every command "
        "(default: one provider process per Stack, reattached)",
        kind="switch",
        default=True,
        outcome=False,  # the same findings, only slower
        flag_name="--converge-no-reattach",
        ini_help="one reattached aws provider process per Stack (true/false)",
        example="false",
    ),
)

#: The rows by name.
BY_NAME: Mapping[str, Option] = {o.name: o for o in OPTIONS}


# -- registration ------------------------------------------------------------------------------
def add_options(parser: pytest.Parser) -> None:
    """Register every row of :data:`OPTIONS` as a flag in the ``converge`` group and an ini key."""
    group = parser.getgroup("converge", "convergence checks of Terraform modules (pytest-converge)")
    for option in OPTIONS:
        if option.kind == "paths":
            group.addoption(
                option.flag,
                action="append",
                dest=option.dest,
                default=[],
                metavar=option.metavar,
                help=option.help,
            )
            parser.addini(option.ini, option.ini_help, type="paths", default=[])
        elif option.kind == "switch":
            group.addoption(
                option.flag, action="store_true", dest=option.dest, default=None, help=option.help
            )
            parser.addini(option.ini, option.ini_help, type="bool", default=option.default)
        else:
            group.addoption(
                option.flag,
                dest=option.dest,
                default=None,
                metavar=option.metavar,
                help=option.help,
            )
            parser.addini(option.ini, option.ini_help or option.help, default="")


# -- the settings of a run ---------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    """The ``--converge*`` options of one run, parsed and checked (one field per row of
    :data:`OPTIONS`); ``raw`` holds each value as it was given, for reproduce lines."""

    paths: tuple[Path, ...] = ()
    #: The paths came from ``--converge`` (not from the ``converge_paths`` ini key).
    paths_from_cli: bool = False
    plan: tuple[Path, ...] = ()
    #: The plan files came from ``--converge-plan`` (not from the ``converge_plan`` ini key).
    plan_from_cli: bool = False
    plan_source: Path | None = None
    backend: str = "moto"
    endpoint: str | None = None
    terraform: str | None = None
    provider_mirror: Path | None = None
    faults: tuple[str, ...] = DEFAULT_FAULTS
    report: Path | None = None
    sarif: Path | None = None
    html: Path | None = None
    parallelism: int | None = None
    timeout: float | None = None
    localstack_python: str | None = None
    ministack: str | None = None
    unsupported: str = "fail"
    module_backends: tuple[tuple[str, str], ...] = ()
    confirm_with: str | None = None
    drift: tuple[str, ...] = ()
    loop_alert: int = 3
    upgrade_from: str | None = None
    stages: tuple[str, ...] = ()
    allow_replace: tuple[str, ...] = ()
    keep: bool = False
    strict: bool = False
    matrix: str = "grouped"
    reattach: bool = True
    raw: Mapping[str, Any] = field(default_factory=dict)

    @property
    def timeouts(self) -> dict[str, float]:
        """Per-command limits for the runner (init gets at least 5 minutes)."""
        if self.timeout is None:
            return {}
        return {"apply": self.timeout, "plan": self.timeout, "init": max(self.timeout, 300.0)}

    def outcome_args(self, skip: tuple[str, ...] = ()) -> list[str]:
        """``--converge-NAME=VALUE`` for each option given that changes what a run finds."""
        args: list[str] = []
        for option in OPTIONS:
            if not option.outcome or option.name in skip:
                continue
            value = self.raw.get(option.name)
            if option.kind == "switch":
                if getattr(self, option.name) != option.default:
                    args.append(option.flag)
            elif value not in (None, ""):
                args.append(f"{option.flag}={shlex.quote(str(value))}")
        return args


settings_key = pytest.StashKey[Settings]()


def settings(config: pytest.Config) -> Settings:
    """The settings of ``config``'s run (read on first use, normally in ``pytest_configure``)."""
    found = config.stash.get(settings_key, None)
    if found is None:
        found = config.stash[settings_key] = read_settings(config)
    return found


def read_settings(config: pytest.Config) -> Settings:
    """Every option of :data:`OPTIONS` from the command line, else its ini key, parsed.

    Raises ``pytest.UsageError`` naming the option and the valid form.
    """
    values: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    for option in OPTIONS:
        if option.kind == "paths":
            values[option.name], values[f"{option.name}_from_cli"] = _paths(config, option)
            continue
        given = config.getoption(option.dest, None)
        if option.kind == "switch":  # the flag wins; else the ini key (true/false)
            value = (not option.default) if given else bool(config.getini(option.ini))
            values[option.name] = raw[option.name] = value
            continue
        text = given if given not in (None, "") else config.getini(option.ini)
        raw[option.name] = text or None
        if not text:
            continue  # the field's default
        try:
            values[option.name] = option.parse(str(text))
        except ValueError as exc:
            raise pytest.UsageError(
                option.usage.format(flag=option.flag, value=text, reason=exc)
            ) from None
    found = Settings(**values, raw=MappingProxyType(raw))
    _check_backends(config, found)
    return found


def _paths(config: pytest.Config, option: Option) -> tuple[tuple[Path, ...], bool]:
    """``--converge`` paths or ``--converge-plan`` files (from the invocation dir), else the
    ini key's (from the ini file)."""
    given = config.getoption(option.dest, None) or []
    base = config.invocation_params.dir
    paths = [base / p for p in given] or list(config.getini(option.ini) or [])
    unique: list[Path] = []
    for path in paths:
        absolute = Path(os.path.abspath(Path(path).expanduser()))
        if absolute not in unique:
            unique.append(absolute)
    return tuple(unique), bool(given)


def _check_backends(config: pytest.Config, found: Settings) -> None:
    """The backend names, against each other and the built-in ones (unless a plugin adds some:
    a backend of a user's plugin is checked when it is made)."""
    own_only = len(config.hook.pytest_converge_make_emulator.get_hookimpls()) == 1
    backend = found.raw.get("backend")
    if backend and backend not in BACKENDS and own_only:
        raise pytest.UsageError(
            f"--converge-backend {backend!r}: expected one of {', '.join(BACKENDS)}"
        )
    confirm = found.confirm_with
    if not confirm:
        return
    if own_only and confirm not in BACKENDS:
        raise pytest.UsageError(
            f"--converge-confirm-with {found.raw['confirm_with']!r}: expected one of "
            f"{', '.join(BACKENDS)}"
        )
    if confirm == found.backend:
        other = "ministack" if found.backend == "moto" else "moto"
        raise pytest.UsageError(
            f"--converge-confirm-with {found.raw['confirm_with']!r} is already the backend: "
            f"name the other one (--converge-backend {found.backend} "
            f"--converge-confirm-with {other})"
        )


# -- the reference, for the docs ---------------------------------------------------------------
def reference_markdown() -> str:
    """The options table as markdown: flag, ini key, default, example, what it does.

    The docs site renders its options reference from this::

        python -c "from pytest_converge.plugin.options import reference_markdown as r; print(r())"
    """
    rows = [
        "| Option | ini key | Default | Example | What it does |",
        "| --- | --- | --- | --- | --- |",
    ]
    for option in OPTIONS:
        flag = option.flag + (f" {option.metavar}" if option.kind != "switch" else "")
        flag = " ".join(flag.split())  # a pipe inside a code span needs no escape
        rows.append(
            f"| `{flag}` | `{option.ini}` ({option.ini_type}) | {_shown(option)} | "
            f"`{option.ini} = {option.example}` | {_cell(option.help)} |"
        )
    return "\n".join(rows) + "\n"


def _shown(option: Option) -> str:
    default = option.default
    if default in (None, (), []):
        return "not set"
    if isinstance(default, tuple):
        default = ",".join(default)
    if isinstance(default, bool):
        default = str(default).lower()
    return f"`{default}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
