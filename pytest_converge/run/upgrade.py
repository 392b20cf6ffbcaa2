"""Upgrades: apply the released revision, then this one over the same state.

    report = stack.upgrade_from("../released/modules/app")
    report.actions            # what the upgrade plan does per address
    report.moved              # renames without a `moved` block, with the block
    report.raise_for_defects()

The old revision runs in a second workspace of the same Stack: the same
emulator, the same proxy endpoint (ids embedding the endpoint stay valid),
then its state becomes the Stack's state. The upgrade is then planned,
analysed (:mod:`.analysis.upgrade`), applied (through a fault when one is
given, followed by a clean re-apply, as :meth:`Stack.recover` does), planned
again, and the cloud is checked for objects no state accounts for: the
steps of every scenario, run by :class:`.scenario.Scenario` with the old
revision's apply and the upgrade plan as its ``prepare``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from ..analysis.defects import Defect
from ..analysis.plan import Plan
from ..analysis.upgrade_check import STATEFUL_TYPES, moved_hints, upgrade_actions, upgrade_defects
from ..errors import TerraformError
from ..faults import Fault, parse_fault
from ..terraform.runner import IsFlagged
from ..terraform.tfvars import AUTO_COPY, copy_test_vars
from ..terraform.workspace import STATE_FILE
from .protocol import ScenarioStack, Step
from .results import ApplyResult, UpgradeReport
from .scenario import Scenario, address_in, points, report_fields


def upgrade_from(
    stack: ScenarioStack,
    old_module_dir: str | Path,
    vars: dict[str, Any] | None = None,
    *,
    allow_replace: Iterable[str] = (),
    fault: Fault | str | None = None,
    replay: bool | None = None,
    old_label: str = "",
    fresh: bool = True,
    scenario: str = "",
) -> UpgradeReport:
    """The body of :meth:`Stack.upgrade_from` (see there).

    ``old_label`` names the old revision in messages, ``scenario`` overrides
    the scenario label, and ``fresh=False`` keeps what the emulator holds
    (a later stage of a promotion shares it with the earlier ones).
    """
    if isinstance(fault, str):
        fault = parse_fault(fault)
    allowed = list(allow_replace)
    started = time.monotonic()
    scenario = scenario or (f"upgrade-{fault.label}" if fault is not None else "upgrade")
    run = _Upgrade(stack, Path(old_module_dir), vars, allowed, scenario, old_label, fresh)
    # A scenario without a fault is not replayed: nothing in it is left to chance.
    again_too = fault is not None and (stack.settings.replay if replay is None else replay)
    found, again = run.scenario(fault).run_and_replay(again_too)
    old, plan = run.prepared[0]
    return UpgradeReport(
        module=stack.settings.name,
        scenario=scenario,
        defects=stack.finish(found.defects, found.observed),
        old=old,
        plan=plan,
        actions=upgrade_actions(plan),
        moved=moved_hints(plan),
        seconds=time.monotonic() - started,
        **report_fields(found, again),
    )


def upgrade_fault_points(
    stack: ScenarioStack, old_module_dir: str | Path, vars: dict[str, Any] | None = None
) -> list[str]:
    """The mutating API calls of a clean upgrade apply (``["UpdateTable#1@aws_dynamodb_table.t"]``).

    The old revision's own calls are not fault points: only what the upgrade
    does, pinned to their resources as :meth:`Stack.fault_points` are.
    """
    run = _Upgrade(stack, Path(old_module_dir), vars, [], "upgrade", "", True)
    run.install_old(fresh=True)
    result = stack.apply_for_points()
    stack.fresh_start()
    if not result.ok:
        raise result.error  # type: ignore[misc]
    return points(result.calls)


class _Upgrade:
    """One upgrade scenario's steps, repeatable for the replay."""

    def __init__(
        self,
        stack: ScenarioStack,
        old: Path,
        variables: dict[str, Any] | None,
        allowed: list[str],
        scenario: str,
        old_label: str,
        fresh: bool,
    ) -> None:
        self.stack = stack
        self.old = old
        self.variables = stack.workspace.variables if variables is None else variables
        self.allowed = allowed
        self.scenario_label = scenario
        self.old_label = old_label or f"the old revision ({old})"
        self.fresh = fresh
        #: Each run's old-revision apply and upgrade plan (:meth:`prepare`), a replay's second.
        self.prepared: list[tuple[ApplyResult, Plan]] = []
        self._running: Scenario | None = None

    def scenario(self, fault: Fault | None) -> Scenario:
        """The upgrade as a scenario: :meth:`prepare`, then the (faulted) upgrade apply."""
        run = Scenario(
            self.stack,
            fault,
            label=self.scenario_label,
            prepare=self.prepare,
            failed=self._failed,
            what="upgrade apply",
            fresh=self.fresh,
            apply_step=Step.UPGRADE_APPLY,
        )
        self._running = run
        return run

    def prepare(self) -> list[Defect]:
        """Apply the old revision, adopt its state, plan the upgrade: its defects."""
        stack = self.stack
        old = self.install_old(fresh=False)
        if self._running is not None:
            self._running.prepared_calls = list(old.calls)
        stack.step(Step.UPGRADE_PLAN)
        plan = stack.plan()
        self.prepared.append((old, plan))
        return upgrade_defects(
            plan,
            stateful=_stateful(stack),
            allow_replace=self.allowed,
            module=stack.settings.name,
            scenario=self.scenario_label,
            old=self.old_label,
        )

    def install_old(self, fresh: bool) -> ApplyResult:
        """Apply the old revision (on an empty emulator and state if ``fresh``), adopt its state."""
        stack = self.stack
        if fresh:
            stack.fresh_start()
        workspace = stack.workspace
        template = workspace.templates.get(self.old)
        root = workspace.root.with_name(workspace.root.name + "-old")
        shutil.rmtree(root, ignore_errors=True)
        try:
            workdir = template.instantiate(root, stack.proxy.endpoint, self.variables)
            _copy_test_vars(self.old, workspace.workdir, workdir)
            # The old revision's apply is refused egress like the Stack's own runs.
            runner = workspace.runner_for(workdir, root)
            stack.step(Step.OLD_REVISION_APPLY, self.old_label)
            stack.proxy.clear()
            begun = time.monotonic()
            done = runner.run(
                "apply",
                input=False,
                no_color=IsFlagged,
                auto_approve=IsFlagged,
                json=IsFlagged,
                parallelism=stack.settings.parallelism,
                watch=stack.watch.for_command(),  # stuck on one call: TerraformStalled
            )
            if done.returncode != 0:
                raise TerraformError(
                    done.command,
                    done.returncode,
                    [f"{self.old_label} does not apply:", *done.diagnostics()],
                    done.stdout + done.stderr,
                    str(workdir),
                )
            workspace.adopt_state(workdir / STATE_FILE)
            result = ApplyResult(True, None, time.monotonic() - begun, stack.proxy.calls)
            stack.touched.note(result.calls)  # the inventory lists what the old revision touched
        finally:
            shutil.rmtree(root, ignore_errors=True)
        return result

    def _failed(self, first: ApplyResult) -> Defect:
        err = first.error
        diags = err.diagnostics if err is not None else []
        text = "; ".join(d.text for d in diags) or str(err)
        return Defect(
            kind="upgrade-failed",
            address=address_in(diags),
            module=self.stack.settings.name,
            scenario=self.scenario_label,
            observed=text,
            message=f"applying this revision over {self.old_label} failed: {text}",
            why=(
                "an object the old revision made is in the way of the new configuration "
                "(a name still taken while its replacement is created, a dependency the "
                "provider cannot update in place), or the new revision needs a setting the "
                "old state lacks"
            ),
            fix=(
                "apply the upgrade by hand to see the order of operations; a rename needs a "
                "`moved` block, a replacement of a named object needs `create_before_destroy` "
                "with a new name, or a two-step release"
            ),
        )


def _stateful(stack: ScenarioStack) -> Collection[str]:
    types = stack.settings.stateful_types
    return STATEFUL_TYPES if types is None else types


def _copy_test_vars(old: Path, new_workdir: Path, old_workdir: Path) -> None:
    """The old revision gets its own converge.tfvars, else the current one's."""
    if copy_test_vars(old, old_workdir):
        return
    for name in AUTO_COPY.values():
        if (new_workdir / name).is_file():
            shutil.copyfile(new_workdir / name, old_workdir / name)
