"""Zero-code upgrade and stage items, added to each root module :mod:`.items` collects.

    pytest --converge modules/ --converge-upgrade-from=origin/main
    pytest --converge modules/ --converge-stages=dev,prod

``--converge-upgrade-from=REF`` reads the repository holding each module at
git revision REF (``git archive`` into a temp dir: the checkout, its index
and its worktrees are never touched) and adds ``<module>::upgrade-from@REF``
(the old revision applied, then the working tree's over its state) and, per
fault kind, ``<module>::upgrade-<kind>@<Op>#<n>@<address>`` for each mutating
call of the upgrade apply (pinned to its resource, as the fault points are).
A module that does not exist at REF is new: its ``upgrade-from@REF`` item
runs a plain two-run and says so.

``--converge-stages=dev,prod`` adds ``<module>::stages@dev,prod``: the same
revision in one isolated emulator account per stage, in order (an upgrade
from REF when one is given, else a two-run); a stage that does not converge
stops the promotion before the next one. The terminal summary shows where.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ...analysis.defects import Defect
from ...emulator.account import AccountView, stage_account
from ...errors import ConvergeError
from ...faults import Fault, parse_fault
from ...report import convergence_error
from ...run.matrix import Verdict
from ...run.stack import Stack
from ...run.upgrade import upgrade_from
from ...terraform.workspace import local_module_root, tree_digest
from ..options import settings
from ..session import get_session
from .cache import once_per_run
from .items import ConvergeItem
from .points import module_digest, ordered
from .revision import Revision, RevisionError, resolve_revision, revision
from .stacks import make_stack

if TYPE_CHECKING:
    from .directory import ConvergeDirectory

# -- upgrade fault points --------------------------------------------------------------------
_points_key = pytest.StashKey[dict[str, tuple[list[str], str | None]]]()


def upgrade_points(config: pytest.Config, module: Path, old: Path) -> tuple[list[str], str | None]:
    """The mutating calls of a clean upgrade apply: once per session, shared by xdist workers."""
    cache = config.stash.setdefault(_points_key, {})
    # The old tree's content, not its path: every xdist worker extracts its own copy.
    key = f"{module_digest(module)}-{tree_digest(local_module_root(old))}"
    if key in cache:
        return cache[key]

    def compute() -> dict[str, Any]:
        data: dict[str, Any] = {"points": [], "error": None}
        try:
            stack = make_stack(config, module, reproduce="")
            try:
                data["points"] = ordered(stack.upgrade_fault_points(old))
            finally:
                stack.close()
        except ConvergeError as exc:
            data["error"] = str(exc)
        return data

    data = once_per_run(config, f"upgrade-points-{key}", compute)
    cache[key] = (list(data["points"]), data["error"])
    return cache[key]


# -- items -----------------------------------------------------------------------------------
def upgrade_items(directory: ConvergeDirectory) -> Iterator[pytest.Item]:
    """The upgrade and stage items of one root module (called by ``ConvergeDirectory``)."""
    ref = settings(directory.config).upgrade_from
    stages = settings(directory.config).stages
    if ref:
        try:
            found = revision(directory.config, directory.path, str(ref))
        except RevisionError as exc:
            raise directory.CollectError(str(exc)) from None
        yield UpgradeItem.from_parent(
            directory, name=f"upgrade-from@{ref}", scenario=f"upgrade-from@{ref}", old=found
        )
        old = found.module(directory.path)
        kinds = settings(directory.config).faults
        if old is not None and kinds:
            points, error = upgrade_points(directory.config, directory.path, old)
            if error is not None:
                yield ConvergeItem.from_parent(
                    directory, name="upgrade-fault-points", scenario="fault-points", error=error
                )
            for kind in kinds:
                for point in points:
                    label = f"upgrade-{kind}@{point}"
                    yield UpgradeItem.from_parent(directory, name=label, scenario=label, old=found)
    if stages:
        found_old = revision(directory.config, directory.path, str(ref)) if ref else None
        name = "stages@" + ",".join(stages)
        yield StagesItem.from_parent(
            directory, name=name, scenario=name, old=found_old, stages=stages
        )


class UpgradeItem(ConvergeItem):
    """``upgrade-from@REF`` or ``upgrade-<kind>@<Op>#<n>@<address>`` of one module."""

    def __init__(self, *, old: Revision | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.old = old
        self.extra: dict[str, Any] = {}

    @property
    def fault(self) -> Fault | None:
        if self.scenario.startswith("upgrade-from@"):
            return None
        return parse_fault(self.scenario[len("upgrade-") :])

    def runtest(self) -> None:
        with self._recording() as run, self._stack() as stack:
            run.defects = self.run_on(stack)
            if any(d.is_error for d in run.defects):
                header = f"{self.parent.nodeid} {self.scenario}:"  # type: ignore[union-attr]
                raise convergence_error(run.defects, header=header)

    def run_on(self, stack: Stack, fresh: bool = True) -> list[Defect]:
        """The scenario's defects on ``stack`` (a two-run when the module is new)."""

        assert self.old is not None
        old = self.old.module(self.path)
        self.extra = {"upgrade_from": self.old.label, "new_module": old is None}
        if old is None:
            if fresh:
                stack.fresh_start()
            stack.progress(f"{stack.settings.name}: not in {self.old.label}: a new module, two-run")
            return stack.converged_defects(self.scenario)
        report = upgrade_from(
            stack,
            old,
            allow_replace=list(settings(self.config).allow_replace),
            fault=self.fault,
            old_label=self.old.label,
            fresh=fresh,
            scenario=self.scenario,
        )
        self.extra["actions"] = {a.address: a.action for a in report.actions}
        return report.defects

    def _record(
        self,
        defects: Sequence[Defect],
        outcome: str,
        seconds: float,
        hit: str | None = None,
        decided: Verdict | None = None,
    ) -> None:
        super()._record(defects, outcome, seconds, hit, decided)
        name, value = self.user_properties[-1]
        self.user_properties[-1] = (name, json.dumps({**json.loads(str(value)), **self.extra}))

    def reproduce_command(self) -> str:
        base = super().reproduce_command()
        faults = "none" if self.fault is None else self.fault.kind
        # --converge-upgrade-from and --converge-stages come with the run's options.
        return re.sub(r"--converge-faults \S+", f"--converge-faults {faults}", base)


class StagesItem(UpgradeItem):
    """``stages@dev,prod``: the same revision per stage account, stopping at the first failure."""

    def __init__(self, *, stages: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stages = tuple(stages)

    @property
    def fault(self) -> Fault | None:
        return None

    def runtest(self) -> None:

        session = get_session(self.config)
        if session.settings.backend != "moto":
            pytest.skip(
                f"--converge-stages needs isolated accounts on one emulator: only the moto "
                f"backend offers them here (this run uses {session.settings.backend})"
            )
        results: list[dict[str, Any]] = [{"stage": s, "outcome": "not run"} for s in self.stages]
        stopped: str | None = None
        session.emulator().reset()
        with self._recording() as run:
            try:
                for i, stage in enumerate(self.stages):
                    with self._stack() as stack:
                        view = AccountView(session.emulator(), stage_account(i))
                        stack.emulator = view
                        stack.proxy.extra_headers = view.headers
                        try:
                            stack.progress(
                                f"{stack.settings.name}: stage {stage} (account {view.account_id})"
                            )
                            if self.old is not None:
                                found = self.run_on(stack, fresh=False)
                            else:
                                found = stack.converged_defects(f"stage-{stage}")
                        except Exception:
                            results[i]["outcome"], stopped = "error", stage
                            raise
                    for d in found:
                        d.scenario = f"stage-{stage}"
                    run.defects.extend(found)
                    failed = any(d.is_error for d in found)
                    results[i]["outcome"] = "failed" if failed else "converged"
                    if failed:
                        stopped = stage
                        break
                self.extra = {**self.extra, "stages": results, "stopped_at": stopped}
                if stopped is not None:
                    rest = ", ".join(self.stages[self.stages.index(stopped) + 1 :]) or "none"
                    header = (
                        f"{self.parent.nodeid}: promotion stopped at stage {stopped!r} "  # type: ignore[union-attr]
                        f"(not run: {rest}):"
                    )
                    raise convergence_error(run.defects, header=header)
            finally:
                self.extra = {**self.extra, "stages": results, "stopped_at": stopped}


# -- hooks -----------------------------------------------------------------------------------
def pytest_configure(config: pytest.Config) -> None:
    """A ``--converge-upgrade-from`` REF the modules' repositories lack fails before collection
    (``--converge-stages`` is checked with the other options)."""
    ref = settings(config).upgrade_from
    if not ref:
        return
    for path in settings(config).paths:
        if path.is_dir():
            try:
                resolve_revision(path, str(ref))
            except RevisionError as exc:
                raise pytest.UsageError(str(exc)) from None


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Where each module's upgrade and promotion ended."""

    session = get_session(config)
    upgrades = [s for s in session.scenarios if "upgrade_from" in s and "stages" not in s]
    staged = [s for s in session.scenarios if "stages" in s]
    if upgrades:
        terminalreporter.section("convergence upgrades")
        for s in upgrades:
            what = "new module (not in that revision): two-run" if s.get("new_module") else ""
            if "actions" not in s and not what:
                what = "did not finish: see its error above"
            if not what:
                counts = Counter((s.get("actions") or {}).values())
                what = ", ".join(f"{n} to {a}" for a, n in sorted(counts.items())) or "no changes"
            terminalreporter.write_line(
                f"{s['path']}::{s['scenario']}  from {s['upgrade_from']}: {s['outcome']} ({what})"
            )
    if staged:
        terminalreporter.section("convergence stages")
        for s in staged:
            steps = " -> ".join(f"{r['stage']} {r['outcome']}" for r in s["stages"])
            stop = f"  (stopped at {s['stopped_at']})" if s.get("stopped_at") else ""
            terminalreporter.write_line(f"{s['path']}: {steps}{stop}")
