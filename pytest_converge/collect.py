"""Zero-code mode: every Terraform root module under ``--converge PATH`` becomes pytest items.

    pytest --converge modules/                     # two-run + default fault scenarios
    pytest --converge modules/ --converge-faults=all -n 2
    pytest --converge modules/ -k "network and crash" --collect-only -q

Each root module yields ``<module>::two-run`` and one ``<module>::<kind>@<Op>#<n>``
per fault kind and mutating API call of a clean apply (its *fault points*),
e.g. ``modules/network::crash@CreateVpc#1``. The fault points are recorded at
collection time, once per module content per session (and shared between
xdist workers through a file in their common base temp dir), so
``--collect-only`` lists exactly what would run.

With ``--converge`` and no positional arguments only these items run (not
``testpaths``); a ``dir::scenario`` argument runs one scenario. Paths from the
``converge_paths`` ini key are added to what a plain ``pytest`` collects.

A *root module* is a directory with ``.tf`` files that no other module under
PATH calls through a local ``source = "./..."``. Hidden directories,
``.terraform/`` and an ``examples/`` directory nested in a module are skipped;
give such an ``examples/`` directory as its own ``--converge`` PATH to test
the examples.

Variables come from what terraform reads anyway (``terraform.tfvars``,
``*.auto.tfvars``, their ``.json`` forms) plus a ``converge.tfvars`` (or
``converge.tfvars.json``) beside the module, meant for the test only. A
variable with no default and no value is a collection error naming it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .errors import ConvergeError, ConvergenceError, UnsupportedServiceError
from .faults import FAULT_KINDS, parse_fault
from .hcl import HclError, local_source, module_blocks, parse_attributes
from .loop import DRIFT_KINDS
from .report import defect_json, format_defects, junit_properties
from .workspace import (
    local_calls,
    local_module_root,
    module_tree,
    tf_files,
    tree_digest,
    uses_aws,
)

#: What a CI gate runs when ``--converge-faults`` is not given: the two kinds
#: that find real-world defects a two-run test cannot see. A lost response
#: makes the SDK retry a call the cloud already processed (duplicates: the
#: second plan is empty, yet an orphaned copy exists); a crash right after a
#: create leaves an object terraform never recorded (the re-run collides with
#: it or makes a second one). ``error`` and ``throttle`` mostly test the SDK's
#: retries and ``interrupt`` terraform's graceful stop: opt in with ``all``.
DEFAULT_FAULTS = ("lost-response", "crash")

#: Beside the module, the variables meant for the convergence test only.
CONVERGE_TFVARS = ("converge.tfvars", "converge.tfvars.json")
#: The name the converge.tfvars copy gets in the workspace: terraform loads
#: ``*.auto.tfvars`` in lexical order, so this one wins over the module's own.
_AUTO_COPY = {
    "converge.tfvars": "zz-converge.auto.tfvars",
    "converge.tfvars.json": "zz-converge.auto.tfvars.json",
}
_SKIP_DIRS = {".terraform", "__pycache__", "node_modules"}
_EXAMPLES = "examples"


# -- options -------------------------------------------------------------
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


def converge_paths(config: pytest.Config) -> list[Path]:
    """``--converge`` paths (from the invocation dir), else the ``converge_paths`` ini key."""
    given = config.getoption("converge_paths", None) or []
    base = config.invocation_params.dir
    paths = [base / p for p in given] or list(config.getini("converge_paths") or [])
    unique: list[Path] = []
    for path in paths:
        absolute = Path(os.path.abspath(Path(path).expanduser()))
        if absolute not in unique:
            unique.append(absolute)
    return unique


# -- discovery -----------------------------------------------------------
@dataclass
class Discovery:
    """The root modules under one ``--converge`` PATH."""

    path: Path
    roots: list[Path]
    #: Module dirs that another module under PATH calls (never collected alone).
    children: set[Path] = field(default_factory=set)

    def holds(self, directory: Path) -> bool:
        """True when ``directory`` is a root module or has one beneath it."""
        return any(r == directory or directory in r.parents for r in self.roots)


def discover(path: Path) -> Discovery:
    """Find the root modules under ``path`` (see the module docstring for the rules)."""
    modules: list[Path] = []
    for dirpath, dirnames, _files in os.walk(path):
        here = Path(dirpath)
        is_module = bool(tf_files(here))
        # A module's own examples/ call it via ../..; they are examples, not roots.
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".") and d not in _SKIP_DIRS and not (is_module and d == _EXAMPLES)
        )
        if is_module:
            modules.append(here)
    called: set[Path] = set()
    for module in modules:
        called.update(local_calls(module))
    roots = [m for m in modules if m not in called]
    return Discovery(path, roots, called & set(modules))


def _remote_calls(module: Path) -> list[str]:
    """The ``source`` of every ``module`` block that is not a local path."""
    sources = []
    for call in module_blocks(module, "module"):
        source = call.value("source")
        if isinstance(source, str) and local_source(call, module) is None:
            sources.append(source)
    return sources


def _tree_uses_aws(module: Path) -> bool:
    """True when the module or a module it calls may call AWS (registry modules: maybe)."""
    # A module from a registry or git may use aws: record to find out.
    return any(uses_aws(d) or _remote_calls(d) for d in module_tree(module))


# -- variables -----------------------------------------------------------
def declared_variables(module: Path) -> dict[str, bool]:
    """The module's variables: name -> has a default."""
    return {
        block.labels[0]: "default" in block.attributes
        for block in module_blocks(module, "variable")
        if block.labels
    }


def tfvars_files(module: Path) -> list[Path]:
    """The variable files terraform loads by itself, then the converge.tfvars ones."""
    own = [
        p
        for p in sorted(module.iterdir())
        if p.is_file()
        and (
            p.name in ("terraform.tfvars", "terraform.tfvars.json")
            or p.name.endswith((".auto.tfvars", ".auto.tfvars.json"))
        )
    ]
    return own + [module / n for n in CONVERGE_TFVARS if (module / n).is_file()]


def assigned_variables(path: Path) -> set[str]:
    """The variable names a ``.tfvars`` / ``.tfvars.json`` file assigns (values not evaluated)."""
    try:
        return set(parse_attributes(path.read_text(errors="replace"), path))
    except HclError as exc:
        raise ConvergeError(str(exc)) from None


def missing_variables(module: Path) -> list[str]:
    """Variables without a default that no variable file beside the module sets."""
    required = {name for name, has_default in declared_variables(module).items() if not has_default}
    if not required:
        return []
    given: set[str] = set()
    for path in tfvars_files(module):
        given |= assigned_variables(path)
    return sorted(required - given)


# -- fault points --------------------------------------------------------
@dataclass(frozen=True)
class FaultPoints:
    """The mutating calls of one clean apply, or why they could not be recorded."""

    points: tuple[str, ...] = ()
    error: str | None = None
    seconds: float = 0.0


_points_key = pytest.StashKey[dict[str, FaultPoints]]()


def module_digest(module: Path) -> str:
    """Content digest of what a workspace copy of ``module`` takes (as Templates keys it)."""
    root = local_module_root(module)
    return tree_digest(root) + "-" + hashlib.sha256(str(module).encode()).hexdigest()[:8]


def fault_points(config: pytest.Config, module: Path) -> FaultPoints:
    """The module's fault points: recorded once per module content, engine and backend.

    A recorded list is kept in the cache dir, so later sessions skip the clean
    apply until the module (or the toolchain) changes. Under xdist every
    worker collects; the first to get here records, the
    others read its file (same result, so all workers collect the same items).
    """
    cache = config.stash.setdefault(_points_key, {})
    key = module_digest(module)
    if key in cache:
        return cache[key]
    if not _tree_uses_aws(module):
        cache[key] = FaultPoints()
        return cache[key]

    def compute() -> dict[str, Any]:
        data = _remembered_points(config, key)
        if data is None:
            found = _record(config, module)
            data = {"points": list(found.points), "error": found.error, "seconds": found.seconds}
            if found.error is None:
                _remember_points(config, key, data)
        return data

    data = _once_per_run(config, f"points-{key}", compute)
    cache[key] = FaultPoints(tuple(data["points"]), data["error"], data["seconds"])
    return cache[key]


def _once_per_run(
    config: pytest.Config, name: str, compute: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``compute()`` once per test run, shared by xdist workers through a locked file.

    Every worker collects; the first to get here computes, the others read its
    file (the same result, so all workers collect the same items).
    """
    shared = _shared_dir(config) / f"{name}.json"
    shared.parent.mkdir(parents=True, exist_ok=True)
    with open(shared.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if shared.exists():
                return dict(json.loads(shared.read_text()))
            data = compute()
            tmp = shared.with_name(shared.name + f".{os.getpid()}")
            tmp.write_text(json.dumps(data))
            os.replace(tmp, shared)
            return data
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _points_file(config: pytest.Config, key: str) -> Path:
    """Where the fault points of this module content are kept across sessions.

    Keyed like the initialised templates (module files, engine, version, CLI
    config) plus the backend and parallelism: the same inputs make the same
    clean apply. A stale list cannot pass silently: a fault that never fires
    is an error.
    """
    from .session import get_session

    session = get_session(config)
    tc = session.toolchain()
    ident = json.dumps(
        [
            key,
            tc.flavor,
            tc.version,
            tc.command,
            tc.cli_config.read_text() if tc.cli_config.exists() else "",
            session.backend,
            session.option("endpoint") or "",
            session.parallelism,
        ]
    )
    digest = hashlib.sha256(ident.encode()).hexdigest()[:16]
    return tc.plugin_cache.parent / "points" / f"{digest}.json"


def _remembered_points(config: pytest.Config, key: str) -> dict[str, Any] | None:
    try:
        data = json.loads(_points_file(config, key).read_text())
    except (OSError, ValueError, ConvergeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("points"), list):
        return None
    return {"points": data["points"], "error": None, "seconds": 0.0}


def _remember_points(config: pytest.Config, key: str, data: dict[str, Any]) -> None:
    with contextlib.suppress(OSError, ConvergeError):
        path = _points_file(config, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}")
        tmp.write_text(json.dumps({"points": data["points"]}))
        os.replace(tmp, path)


def _shared_dir(config: pytest.Config) -> Path:
    base = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    # xdist workers' base temps are <controller basetemp>/gwN: share the parent.
    return (base.parent if hasattr(config, "workerinput") else base) / "converge-points"


def _record(config: pytest.Config, module: Path) -> FaultPoints:
    started = time.monotonic()
    try:
        stack = make_stack(config, module, reproduce="")
    except ConvergeError as exc:
        return FaultPoints(error=str(exc), seconds=time.monotonic() - started)
    try:
        points = stack.fault_points()
    except ConvergeError as exc:
        return FaultPoints(error=str(exc), seconds=time.monotonic() - started)
    finally:
        stack.close()
    # Sorted: calls of a parallel apply arrive in any order, and every
    # worker and every session must collect the same items in the same order.
    ordered = sorted(points, key=lambda p: (p.rpartition("#")[0], int(p.rpartition("#")[2])))
    return FaultPoints(tuple(ordered), None, time.monotonic() - started)


# -- drift targets -------------------------------------------------------
@dataclass(frozen=True)
class DriftTargets:
    """The managed resources of one clean apply (address, type, taggable), or why not."""

    targets: tuple[tuple[str, str, bool], ...] = ()
    error: str | None = None


_targets_key = pytest.StashKey[dict[str, DriftTargets]]()


def drift_targets(config: pytest.Config, module: Path) -> DriftTargets:
    """The module's managed resources after a clean apply: once per module content per session.

    Shared between xdist workers through a file, as the fault points are.
    """
    cache = config.stash.setdefault(_targets_key, {})
    key = module_digest(module)
    if key in cache:
        return cache[key]

    def compute() -> dict[str, Any]:
        found = _record_targets(config, module)
        return {"targets": [list(t) for t in found.targets], "error": found.error}

    data = _once_per_run(config, f"drift-targets-{key}", compute)
    cache[key] = DriftTargets(tuple(tuple(t) for t in data["targets"]), data["error"])
    return cache[key]


def _record_targets(config: pytest.Config, module: Path) -> DriftTargets:
    from .analysis.state import state_resources

    try:
        stack = make_stack(config, module, reproduce="")
    except ConvergeError as exc:
        return DriftTargets(error=str(exc))
    try:
        # A new Stack's state is empty; every recording empties the emulator after itself.
        stack.apply().raise_for_error()
        resources = state_resources(stack.state())
        stack._fresh_start()
    except ConvergeError as exc:
        return DriftTargets(error=str(exc))
    finally:
        stack.close()
    return DriftTargets(
        tuple(
            # A map of tags can be changed out of band on any resource that has one.
            (r.address, r.type, isinstance(r.values.get("tags", []), dict | None))
            for r in resources
            if r.is_managed
        )
    )


# -- stacks --------------------------------------------------------------
def make_stack(config: pytest.Config, module: Path, reproduce: str, name: str | None = None) -> Any:
    """A Stack for ``module`` built the way the ``converge`` fixture builds one."""
    from .session import get_session

    def on_defects(stack: Any, defects: list[Any]) -> None:
        # Lets conftest hooks drop or add findings; the item records the result.
        config.hook.pytest_converge_defects(config=config, stack=stack, defects=defects)

    stack = get_session(config).stack(module, on_defects=on_defects, reproduce=reproduce, name=name)
    for name in CONVERGE_TFVARS:
        if (module / name).is_file():
            # Terraform does not load converge.tfvars by itself; as *.auto.tfvars it does,
            # with every value form HCL allows (nothing is parsed here).
            shutil.copyfile(module / name, stack.workdir / _AUTO_COPY[name])
    return stack


# -- collectors and items -------------------------------------------------
class ConvergeDirectory(pytest.Directory):
    """A directory under a ``--converge`` PATH: its own items if it is a root module,
    then the directories beneath it that hold root modules."""

    discovery: Discovery

    @classmethod
    def from_parent(  # type: ignore[override]
        cls, parent: pytest.Collector, *, path: Path, discovery: Discovery
    ) -> ConvergeDirectory:
        node = super().from_parent(parent=parent, path=path)
        node.discovery = discovery
        return node

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        if self.path in self.discovery.roots:
            yield from self._module_items()
        for entry in sorted(self.path.iterdir()):
            if entry.is_dir() and self.discovery.holds(entry):
                yield ConvergeDirectory.from_parent(self, path=entry, discovery=self.discovery)

    def _module_items(self) -> Iterator[pytest.Item]:
        missing = missing_variables(self.path)
        if missing:
            raise self.CollectError(
                f"{self._rel()} needs values for variable(s) {', '.join(missing)}: they have "
                "no default and no .tfvars file beside the module sets them. Put them in "
                f'{self._rel()}/converge.tfvars (HCL, e.g. `{missing[0]} = "..."`) or '
                "converge.tfvars.json; terraform.tfvars and *.auto.tfvars are read too."
            )
        from .session import get_session, module_id

        mid = module_id(self.config, self.path, self.discovery.path)
        try:  # one clear error (or a skip) before anything is applied
            get_session(self.config).check_served(self.path)
        except UnsupportedServiceError as exc:
            raise self.CollectError(str(exc).replace(self.path.name, mid, 1)) from None
        get_session(self.config).modules.add(mid)
        yield ConvergeItem.from_parent(self, name="two-run", scenario="two-run")
        drift = drift_kinds(get_session(self.config).option("drift"))
        if drift:
            yield from self._drift_items(drift)

        from .collect_upgrade import upgrade_items

        yield from upgrade_items(self)
        kinds = fault_kinds(get_session(self.config).option("faults"))
        if not kinds:
            return
        found = fault_points(self.config, self.path)
        if found.error is not None:
            yield ConvergeItem.from_parent(
                self, name="fault-points", scenario="fault-points", error=found.error
            )
            return
        for kind in kinds:
            for point in found.points:
                label = f"{kind}@{point}"
                yield ConvergeItem.from_parent(self, name=label, scenario=label)

    def _drift_items(self, kinds: Sequence[str]) -> Iterator[ConvergeItem]:
        found = drift_targets(self.config, self.path)
        if found.error is not None:
            yield ConvergeItem.from_parent(
                self, name="drift-targets", scenario="drift-targets", error=found.error
            )
            return
        for kind in kinds:
            for address, _type, taggable in found.targets:
                if kind == "modify" and not taggable:
                    continue  # nothing this plugin can change out of band in general
                label = f"drift-{kind}@{address}"
                yield ConvergeItem.from_parent(self, name=label, scenario=label)

    def _rel(self) -> str:
        return self.nodeid or "."


class ConvergeItem(pytest.Item):
    """One scenario of one module: ``two-run`` or a fault label like ``crash@CreateVpc#1``."""

    def __init__(self, *, scenario: str, error: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.error = error
        self.add_marker("converge")

    @property
    def module(self) -> Path:
        return self.path

    @property
    def module_id(self) -> str:
        """The module's name in reports: its path relative to the rootdir (see ``module_id``)."""
        from .session import module_id

        return module_id(self.config, self.path, _converge_root(self))

    def runtest(self) -> None:
        if self.error is not None:
            what = "resources" if self.scenario == "drift-targets" else "fault points"
            raise FaultPointsError(
                f"could not record the {what} of {self.parent.nodeid} "  # type: ignore[union-attr]
                f"(one clean apply):\n{self.error}"
            )
        from .session import get_session

        session = get_session(self.config)
        started = time.monotonic()
        outcome = "error"
        flaky = False
        defects: list[Any] = []
        fault_scenario = self.scenario != "two-run" and not self.scenario.startswith("drift-")
        if self.scenario == "two-run" or fault_scenario:
            session.emptied_emulator()  # before any Stack: may skip the reset
        stack = make_stack(
            self.config, self.module, reproduce=self.reproduce_command(), name=self.module_id
        )
        stack.emulator_is_empty = fault_scenario  # emptied just above
        session.track(stack)
        try:
            if self.scenario == "two-run":
                try:
                    stack.assert_converged()
                except ConvergenceError:
                    # --converge-confirm-with: what the other backend does not show is
                    # marked a suspected emulator gap (a warning unless strict).
                    if not session.confirm(stack):
                        raise
                    if any(d.is_error for d in stack.defects):
                        raise _reconfirmed(stack) from None
                finally:
                    defects = list(stack.defects)
            elif self.scenario.startswith("drift-"):
                try:
                    defects = self._run_drift(stack)
                except ConvergenceError as exc:
                    defects = list(exc.defects)
                    raise
            else:
                try:
                    report = stack.recover(parse_fault(self.scenario))
                except ConvergenceError as exc:
                    defects = list(exc.defects)
                    raise
                defects = list(report.defects)
                flaky = report.flaky
                report.raise_for_defects()
            outcome = "passed"
        except ConvergenceError:
            # A replay that disagrees is reported as such, not as a plain failure.
            outcome = "flaky" if flaky else "failed"
            raise
        finally:
            session.untrack(stack)
            stack.close(keep=bool(session.option("keep")))
            self._record(defects, outcome, time.monotonic() - started)

    def _run_drift(self, stack: Any) -> list[Any]:
        """``drift-<kind>@<address>``: the loop must notice and repair an out-of-band change."""
        from .loop import drift_scenario
        from .report import jsonable

        stack.on_loop = lambda record: self.user_properties.append(
            ("converge_loop", json.dumps(jsonable(record)))
        )
        kind, _, address = self.scenario.partition("@")
        report = drift_scenario(stack, kind.removeprefix("drift-"), address)
        # The drift's lifetime and the loop's calls: shown with -rA, and on failure.
        self.add_report_section("call", "loop", report.text())
        try:
            report.raise_for_defects()
        except ConvergenceError as exc:
            exc.defects = list(report.defects)
            raise
        return list(report.defects)

    def _record(self, defects: Sequence[Any], outcome: str, seconds: float) -> None:
        # The same properties the fixture writes: plugin.py gathers them from
        # reports, so they reach the controller under xdist too.
        self.user_properties.append(
            ("converge_defects", json.dumps([defect_json(d) for d in defects]))
        )
        for d in defects:  # JUnit XML carries them as <property> elements
            self.user_properties.extend(junit_properties(d))
        entry = {
            "module": self.module_id,
            "path": self.parent.nodeid,  # type: ignore[union-attr]
            "scenario": self.scenario,
            "outcome": outcome,
            "seconds": round(seconds, 3),
        }
        unverified = sorted({t for d in defects if d.kind == "unverified" for t in d.observed})
        if unverified:
            entry["unverified_types"] = unverified
            warnings.warn(
                ConvergeCoverageWarning(
                    f"{self.nodeid}: no inventory lister covers {', '.join(unverified)}; "
                    "their duplicates and orphans were not looked for"
                ),
                stacklevel=1,
            )
        self.user_properties.append(("converge_scenario", json.dumps(entry)))

    def reproduce_command(self) -> str:
        """The one command line that runs exactly this scenario again."""
        from .session import get_session

        drift = self.scenario.startswith("drift-")
        faults = "none" if self.scenario == "two-run" or drift else self.scenario.partition("@")[0]
        root = _converge_root(self)
        base = self.config.invocation_params.dir
        where = os.path.relpath(root, base) if root else "."
        here = os.path.relpath(self.path, base)
        options = get_session(self.config).outcome_options()
        return " ".join(
            [
                "pytest",
                "--converge",
                shlex.quote(where),
                "--converge-faults",
                faults,
                *options,
                f'"{here}::{self.name}"',
            ]
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        # Defects and terraform diagnostics are the message; a traceback into
        # the plugin would only hide them.
        if isinstance(excinfo.value, ConvergeError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.parent.nodeid}::{self.name}"  # type: ignore[union-attr]


def _reconfirmed(stack: Any) -> ConvergenceError:
    """The ConvergenceError of ``stack``'s findings as they are now (after confirming)."""
    return ConvergenceError(
        format_defects(stack.defects, header=f"{stack.name} does not converge:"), stack.defects
    )


class FaultPointsError(ConvergeError):
    """The clean apply that finds a module's fault points failed."""


class ConvergeCoverageWarning(UserWarning):
    """A scenario created resource types that no inventory lister covers."""


def _converge_root(item: pytest.Item) -> Path | None:
    node: Any = item.parent
    root = None
    while isinstance(node, ConvergeDirectory):
        root = node.discovery.path
        node = node.parent
    return root


# -- hooks ---------------------------------------------------------------
_discoveries_key = pytest.StashKey[dict[Path, Discovery]]()


def pytest_configure(config: pytest.Config) -> None:
    """Validate ``--converge`` paths and make them the collection arguments."""
    paths = converge_paths(config)
    if not paths:
        return
    discoveries: dict[Path, Discovery] = {}
    for path in paths:
        if not path.exists():
            raise pytest.UsageError(f"--converge {path}: no such directory")
        if not path.is_dir():
            raise pytest.UsageError(
                f"--converge {path}: not a directory; pass the directory holding the module(s)"
            )
        found = discover(path)
        if not found.roots:
            raise pytest.UsageError(
                f"--converge {path}: no Terraform root module found (a directory with .tf "
                "files that no other module under it calls). Hidden directories, .terraform/ "
                "and examples/ inside a module are skipped; pass an examples/ directory "
                "itself to test its modules."
            )
        discoveries[path] = found
    config.stash[_discoveries_key] = discoveries
    if config.option.pyargs:
        return
    from_cli = bool(config.getoption("converge_paths", None))
    if from_cli and config.args_source != pytest.Config.ArgsSource.ARGS:
        # `pytest --converge PATH` alone: the convergence items only, not testpaths.
        config.args = [str(p) for p in paths]
        return
    # Positional arguments, or the paths come from the ini file (then a plain
    # `pytest` runs the project's tests and the modules): add the PATHs.
    config.stash[_selection_key] = _take_selection(config, paths)


@dataclass
class _Selection:
    """What positional arguments select among the convergence items."""

    #: Directories given whole (or PATHs added because no argument reaches into them).
    whole: list[Path] = field(default_factory=list)
    #: ``dir::scenario`` arguments, as nodeids.
    named: set[str] = field(default_factory=set)

    def keeps(self, item: pytest.Item) -> bool:
        if not self.named or not isinstance(item, ConvergeItem):
            return True
        path = Path(os.path.abspath(item.path))
        return item.nodeid in self.named or any(w == path or w in path.parents for w in self.whole)


_selection_key = pytest.StashKey[_Selection]()


def _take_selection(config: pytest.Config, paths: list[Path]) -> _Selection:
    """Rewrite positional arguments that name convergence items (``dir::scenario``).

    pytest refuses ``::`` after a directory, but a convergence item's nodeid
    is exactly that (``modules/net::crash@CreateVpc#1``, and ``@``/``#`` are
    not allowed in ``-k``). Such an argument becomes its directory, and
    :func:`pytest_collection_modifyitems` deselects the module's other items.
    """
    selection = _Selection()
    base = config.invocation_params.dir
    given: list[Path] = []
    args: list[str] = []
    for arg in config.args:
        head, sep, parts = arg.partition("::")
        path = Path(os.path.abspath(base / head))
        given.append(path)
        near = any(p == path or p in path.parents or path in p.parents for p in paths)
        if sep and path.is_dir() and near:
            rel = os.path.relpath(path, config.rootpath).replace(os.sep, "/")
            selection.named.add(f"{rel}::{parts}")
            args.append(head)
            continue
        if near and not sep:
            selection.whole.append(path)
        args.append(arg)
    # Each PATH no argument reaches into is collected whole; one an argument
    # reaches into is not added (a nodeid under PATH must not widen to PATH).
    for path in paths:
        if not any(g == path or path in g.parents or g in path.parents for g in given):
            args.append(str(path))
            selection.whole.append(path)
    config.args[:] = args
    return selection


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the named scenarios of ``dir::scenario`` arguments."""
    selection = config.stash.get(_selection_key, None)
    if selection is None or not selection.named:
        return
    kept = [i for i in items if selection.keeps(i)]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if not selection.keeps(i)])
        items[:] = kept


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``--converge`` PATH is collected as Terraform modules, nothing else."""
    discoveries = parent.config.stash.get(_discoveries_key, None)
    if not discoveries:
        return None
    found = discoveries.get(Path(os.path.abspath(path)))
    if found is None:
        return None
    return ConvergeDirectory.from_parent(parent, path=path, discovery=found)
