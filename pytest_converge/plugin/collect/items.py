"""The items of zero-code mode: one item per scenario of a root module.

Each root module yields ``<module>::two-run``, one ``<module>::<kind>@<Op>#<n>@<address>``
per fault kind and fault point (e.g. ``modules/network::crash@CreateVpc#1@aws_vpc.main``,
the first CreateVpc of that resource's apply),
``<module>::drift-<kind>@<address>`` per drift kind and managed resource, and
the upgrade and stage items of :mod:`.upgrade_items` (:mod:`.directory` collects them
all). An item runs its scenario on
a fresh Stack, records its defects as user properties (so they reach the
controller under xdist) and can say the one command line that runs it again.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ...analysis.defects import Defect
from ...analysis.labels import Label
from ...errors import ConvergeError, ConvergenceError, FaultPointsError
from ...faults import parse_fault
from ...report import convergence_error, defect_json, junit_properties
from ...run.loop import drift_scenario
from ...run.matrix import Verdict
from ...run.stack import Stack
from ..session import get_session, module_id, record_loops, record_toolchain
from .batches import point_kind, verdict_for
from .points import remember_world
from .stacks import make_stack


class ReportedItem(pytest.Item):
    """An item whose failure is its findings' text, shown under its own node id."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        # Defects and terraform diagnostics are the message; a traceback into
        # the plugin would only hide them.
        if isinstance(excinfo.value, ConvergeError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        # pytest shows a test whose nodeid ends with this text with its dots
        # (before any "[") as "::" (python's module.Class.test): aws_vpc::main.
        # A trailing space keeps such a nodeid as it is; a name without dots
        # needs none, so its failure heading stays "_ mods/app::two-run _".
        domain = f"{self.parent.nodeid}::{self.name}"  # type: ignore[union-attr]
        return self.path, None, domain + " " if "." in domain.split("[")[0] else domain


class ConvergeItem(ReportedItem):
    """One scenario of one module: ``two-run`` or a fault label: ``crash@CreateVpc#1@aws_vpc.a``."""

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

        return module_id(self.config, self.path, _converge_root(self))

    def runtest(self) -> None:
        if self.error is not None:
            what = "resources" if self.scenario == "drift-targets" else "fault points"
            raise FaultPointsError(
                f"could not record the {what} of {self.parent.nodeid} "  # type: ignore[union-attr]
                f"(one clean apply):\n{self.error}"
            )

        session = get_session(self.config)
        if point_kind(self.scenario) is not None and self._run_decided():
            return
        if self.scenario == "two-run":
            session.emptied_emulator()  # before any Stack: may skip the reset
        # A fault scenario empties the emulator itself (unless it is fresh).
        with self._recording() as run, self._stack(name=self.module_id) as stack:
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
                    run.defects = list(stack.defects)
            elif self.scenario.startswith("drift-"):
                try:
                    run.defects = self._run_drift(stack)
                except ConvergenceError as exc:
                    run.defects = list(exc.defects)
                    raise
            else:
                try:
                    report = stack.recover(parse_fault(self.scenario))
                except ConvergenceError as exc:
                    run.defects = list(exc.defects)
                    raise
                run.defects = list(report.defects)
                run.flaky = report.flaky
                run.hit = report.hit
                report.raise_for_defects()

    def _run_decided(self) -> bool:
        """Report this point's verdict from its batch's grouped runs (:mod:`.batches`);
        False when it runs on its own."""
        with self._recording() as run:
            verdict = verdict_for(self)
            if verdict is None:
                run.alone = True  # not recorded: the caller runs it
                return False
            run.defects = list(verdict.defects)
            run.hit = verdict.hit
            run.decided = verdict
            if verdict.error is not None:
                raise verdict.error
            if verdict.failed:
                where = f" (it hit {verdict.hit})" if verdict.hit else ""
                where += f" [{verdict.ran_with}]" if verdict.ran_with else ""
                together = (
                    f"Decided by run {verdict.run} of this module's {len(verdict.points)} "
                    f"points together ({verdict.seconds:.0f} s); this point alone: "
                    f"{self.reproduce_command()}"
                    if verdict.shared
                    else ""
                )
                if verdict.shares is not None:
                    together = (
                        f"Shares the verdict of {verdict.shares}: a crash later in the same "
                        "create leaves the object that create made, and the re-run fails on "
                        f"it before any later call (see run/matrix.py). " + together
                    )
                raise convergence_error(
                    verdict.defects,
                    f"{self.module_id} does not recover from {self.scenario}{where}:",
                    together,
                )
        return True

    @contextlib.contextmanager
    def _recording(self) -> Iterator[_Run]:
        """The scenario's outcome and defects, recorded as user properties however it ends."""
        started = time.monotonic()
        run = _Run()
        try:
            yield run
            run.outcome = "passed"
        except ConvergenceError:
            # A replay that disagrees is reported as such, not as a plain failure.
            run.outcome = "flaky" if run.flaky else "failed"
            raise
        except KeyboardInterrupt:
            # Ctrl-C or a cancelling signal (cancel.Cancelled) cut it short: no verdict.
            run.outcome = "interrupted"
            raise
        finally:
            if not run.alone:
                seconds = time.monotonic() - started
                self._record(run.defects, run.outcome, seconds, run.hit, run.decided)

    @contextlib.contextmanager
    def _stack(self, name: str | None = None) -> Iterator[Stack]:
        """A fresh Stack for this scenario, tracked by the session and closed after."""

        session = get_session(self.config)
        stack = make_stack(self.config, self.module, reproduce=self.reproduce_command(), name=name)
        remember_world(self.config, self.module, stack)
        session.track(stack)
        record_toolchain(self, stack)
        try:
            yield stack
        finally:
            session.untrack(stack)
            stack.close(keep=session.settings.keep)

    def _run_drift(self, stack: Stack) -> list[Defect]:
        """``drift-<kind>@<address>``: the loop must notice and repair an out-of-band change."""
        record_loops(self, stack)
        label = Label.parse(self.scenario)
        report = drift_scenario(stack, label.kind.removeprefix("drift-"), label.target or "")
        # The drift's lifetime and the loop's calls: shown with -rA, and on failure.
        self.add_report_section("call", "loop", report.text())
        try:
            report.raise_for_defects()
        except ConvergenceError as exc:
            exc.defects = list(report.defects)
            raise
        return list(report.defects)

    def _record(
        self,
        defects: Sequence[Defect],
        outcome: str,
        seconds: float,
        hit: str | None = None,
        decided: Verdict | None = None,
    ) -> None:
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
        if hit:
            entry["fault_address"] = hit
        if decided is not None:
            # The run that decided it: with other points (grouped), or this point alone.
            by: dict[str, object] = {
                "run": decided.run,
                "points": len(decided.points),
                "seconds": round(decided.seconds, 3),
            }
            if decided.shares is not None:
                by["shares"] = decided.shares
            entry["decided_by"] = by
            self.user_properties.append(
                (
                    "converge.decided_by",
                    f"run {decided.run} of its batch, {len(decided.points)} point(s) "
                    f"together, {decided.seconds:.1f} s",
                )
            )
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
        untested = {
            d.address: str(d.observed) for d in defects if d.kind == "untested" and d.address
        }
        if untested:
            # A skipped part of the verdict: named on the item, never a module error.
            entry["untested"] = untested
            self.user_properties.append(
                (
                    "converge.untested",
                    "; ".join(f"{a}: {op} not served" for a, op in untested.items()),
                )
            )
            warnings.warn(
                ConvergeUntestedWarning(
                    f"{self.nodeid}: partly verified: the backend cannot serve "
                    + ", ".join(f"{a} ({op})" for a, op in untested.items())
                    + "; that part (and what waits on it) was left out, the rest was judged"
                ),
                stacklevel=1,
            )
        self.user_properties.append(("converge_scenario", json.dumps(entry)))
        if outcome == "interrupted":
            # pytest makes no report of a test a KeyboardInterrupt ends: hand it over here.

            get_session(self.config).record_interrupted(entry, self)

    def reproduce_command(self) -> str:
        """The one command line that runs exactly this scenario again."""

        drift = self.scenario.startswith("drift-")
        faults = "none" if self.scenario == "two-run" or drift else Label.parse(self.scenario).kind
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
                _shell_word(f"{here}::{self.name}"),
            ]
        )


@dataclass
class _Run:
    """What a running scenario has found so far (see ``ConvergeItem._recording``)."""

    defects: list[Defect] = field(default_factory=list)
    outcome: str = "error"
    #: A replay gave another outcome: a failure is reported as ``flaky``.
    flaky: bool = False
    #: The resource the fault hit (fault scenarios).
    hit: str | None = None
    #: The grouped run that decided it (zero-code matrix), if one did.
    decided: Verdict | None = None
    #: It runs on its own after all: nothing to record here.
    alone: bool = False


def _shell_word(text: str) -> str:
    """``"mods/a::crash@CreateQueue#1@aws_sqs_queue.q"`` for a shell; single quotes
    when an address's key holds what double quotes do not protect (``"``, ``$``)."""
    if any(ch in text for ch in '"$`\\!'):
        return shlex.quote(text)
    return f'"{text}"'


def _reconfirmed(stack: Stack) -> ConvergenceError:
    """The ConvergenceError of ``stack``'s findings as they are now (after confirming)."""
    return convergence_error(stack.defects, header=stack.failure_header())


class ConvergeCoverageWarning(pytest.PytestWarning):
    """A scenario created resource types that no inventory lister covers."""


class ConvergeUntestedWarning(pytest.PytestWarning):
    """A part of the module the backend cannot serve was left out (partly verified)."""


def _converge_root(item: pytest.Item) -> Path | None:
    """The ``--converge`` PATH above ``item``: the outermost of its collecting directories
    (:class:`.directory.ConvergeDirectory`, each carrying the discovery it came from)."""
    node: Any = item.parent
    root = None
    while getattr(node, "discovery", None) is not None:
        root = node.discovery.path
        node = node.parent
    return root
