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
again, and the cloud is checked for objects no state accounts for.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .analysis.defects import Defect, DefectReport
from .analysis.plan import Plan
from .analysis.upgrade import (
    STATEFUL_TYPES,
    MovedHint,
    UpgradeAction,
    moved_hints,
    upgrade_actions,
    upgrade_defects,
)
from .errors import TerraformError
from .faults import Fault
from .terraform import IsFlagged, Runner, read_json
from .tfvars import AUTO_COPY, copy_test_vars

if TYPE_CHECKING:
    from .stack import ApplyResult, Stack


@dataclass
class UpgradeReport(DefectReport):
    """The outcome of :meth:`Stack.upgrade_from`."""

    module: str
    scenario: str
    defects: list[Defect]
    #: The old revision's apply (always succeeded: a failure raises).
    old: ApplyResult
    #: The upgrade plan: the current revision over the old one's state.
    plan: Plan
    actions: list[UpgradeAction]
    moved: list[MovedHint]
    #: The upgrade apply (through the fault, when one was given).
    first: ApplyResult
    #: The clean re-apply after a fault (None without a fault).
    second: ApplyResult | None
    seconds: float
    created: list[Any] = field(default_factory=list)
    flaky: bool = False
    replayed: list[Defect] = field(default_factory=list)
    _findings: ClassVar[tuple[str, ...]] = ("defects", "replayed")

    def action(self, address: str) -> str:
        """The upgrade plan's action for ``address`` (``no-op`` when it does not touch it)."""
        return next((a.action for a in self.actions if a.address == address), "no-op")

    def _failure_header(self) -> str:
        if self.flaky:
            return (
                f"{self.module} under {self.scenario} is FLAKY: a replay gave a different "
                "outcome. First run:"
            )
        return f"{self.module} does not upgrade cleanly ({self.scenario}):"


def upgrade_from(
    stack: Stack,
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
    from .faults import parse_fault

    if isinstance(fault, str):
        fault = parse_fault(fault)
    allowed = list(allow_replace)
    started = time.monotonic()
    scenario = scenario or (f"upgrade-{fault.label}" if fault is not None else "upgrade")
    run = _Upgrade(stack, Path(old_module_dir), vars, allowed, scenario, old_label, fresh)
    first = run.once(fault)
    flaky, replayed = False, []
    if (
        fault is not None
        and (stack.replay if replay is None else replay)
        and any(d.is_error for d in first.defects)
    ):
        stack._progress(f"{stack.name}: {scenario} found defects; replaying it once")
        replayed = run.once(fault).defects
        from .stack import _outcome

        flaky = _outcome(replayed) != _outcome(first.defects)
    first.defects = stack._finish(first.defects)
    first.flaky, first.replayed = flaky, replayed
    first.seconds = time.monotonic() - started
    return first


def upgrade_fault_points(stack: Stack, old_module_dir: str | Path, vars: Any = None) -> list[str]:
    """The mutating API calls of a clean upgrade apply (``["UpdateTable#1@aws_dynamodb_table.t"]``).

    The old revision's own calls are not fault points: only what the upgrade
    does, pinned to their resources as :meth:`Stack.fault_points` are.
    """
    from .stack import _points

    run = _Upgrade(stack, Path(old_module_dir), vars, [], "upgrade", "", True)
    run.install_old(fresh=True)
    result = stack._apply_for_points()
    stack._fresh_start()
    if not result.ok:
        raise result.error  # type: ignore[misc]
    return _points(result.calls)


class _Upgrade:
    """One upgrade scenario's steps, repeatable for the replay."""

    def __init__(
        self,
        stack: Stack,
        old: Path,
        variables: dict[str, Any] | None,
        allowed: list[str],
        scenario: str,
        old_label: str,
        fresh: bool,
    ) -> None:
        self.stack = stack
        self.old = old
        self.variables = stack.variables if variables is None else variables
        self.allowed = allowed
        self.scenario = scenario
        self.old_label = old_label or f"the old revision ({old})"
        self.fresh = fresh

    def install_old(self, fresh: bool) -> ApplyResult:
        """Apply the old revision (on an empty emulator and state if ``fresh``), adopt its state."""
        from .stack import ApplyResult

        stack = self.stack
        if fresh:
            stack._fresh_start()
        template = stack._templates.get(self.old)
        root = stack._root.with_name(stack._root.name + "-old")
        shutil.rmtree(root, ignore_errors=True)
        try:
            workdir = template.instantiate(root, stack.proxy.endpoint, self.variables)
            _copy_test_vars(self.old, stack.workdir, workdir)
            runner = Runner(
                stack._templates.toolchain.command,
                workdir,
                # The old revision's apply is refused egress like the Stack's own runs.
                {**stack._templates.env(root), **stack.egress_guard.proxy_env()},
                stack._timeouts,
            )
            stack._progress(f"{stack.name}: apply {self.old_label}")
            stack.proxy.clear()
            begun = time.monotonic()
            done = runner.run(
                "apply",
                input=False,
                no_color=IsFlagged,
                auto_approve=IsFlagged,
                json=IsFlagged,
                parallelism=stack.parallelism,
                watch=stack._stall_watch([])[0],  # stuck on one call: TerraformStalled
            )
            if done.returncode != 0:
                raise TerraformError(
                    done.command,
                    done.returncode,
                    [f"{self.old_label} does not apply:", *done.diagnostics()],
                    done.stdout + done.stderr,
                    str(workdir),
                )
            state = workdir / "terraform.tfstate"
            if state.exists():
                shutil.copyfile(state, stack.workdir / "terraform.tfstate")
            result = ApplyResult(True, None, time.monotonic() - begun, stack.proxy.calls)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        stack.applied = False
        return result

    def once(self, fault: Fault | None) -> UpgradeReport:
        from .analysis.leftovers import find_leftovers
        from .analysis.state import state_resources
        from .inventory import take_inventory

        stack = self.stack
        # The world a clean apply of this revision makes (a later stage keeps the
        # emulator's content: none to compare with).
        clean = stack._clean_world() if self.fresh and fault is not None else None
        if self.fresh:
            stack._fresh_start()
        baseline = take_inventory(stack.emulator, stack._inventory)
        old = self.install_old(fresh=False)
        stack._progress(f"{stack.name}: upgrade plan")
        plan = stack.plan()
        defects = upgrade_defects(
            plan,
            stateful=_stateful(stack),
            allow_replace=self.allowed,
            module=stack.name,
            scenario=self.scenario,
            old=self.old_label,
        )
        stack._progress(
            f"{stack.name}: upgrade apply" + (f" through {fault.label}" if fault else "")
        )
        first = stack.apply(fault)
        second = None
        if fault is not None:
            second, failed = stack._rerun_clean(fault, first, self.scenario, "upgrade apply")
            defects.extend(failed)
        elif first.error is not None:
            defects.append(self._failed(first))
        if (second or first).ok:
            defects.extend(stack._second_plan_defects(self.scenario))
        after = take_inventory(stack.emulator, stack._inventory)
        created = list(after.minus(baseline))
        defects.extend(
            find_leftovers(
                created,
                state_resources(read_json(stack.workdir / "terraform.tfstate")),
                module=stack.name,
                scenario=self.scenario,
            )
        )
        inventoried = after.covered | baseline.covered
        defects.extend(stack._world_defects(clean, fault, second, self.scenario, inventoried))
        return UpgradeReport(
            stack.name,
            self.scenario,
            defects,
            old,
            plan,
            upgrade_actions(plan),
            moved_hints(plan),
            first,
            second,
            0.0,
            created,
        )

    def _failed(self, first: ApplyResult) -> Defect:
        err = first.error
        diags = err.diagnostics if err is not None else []
        text = "; ".join(diags) or str(err)
        from .stack import _address_in

        named = re.search(r"changes to ((?:module\.[\w-]+\.)*[a-z0-9_]+\.[\w-]+)", text)
        return Defect(
            kind="upgrade-failed",
            address=_address_in(diags) or (named.group(1) if named else None),
            module=self.stack.name,
            scenario=self.scenario,
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


def _stateful(stack: Stack) -> Collection[str]:
    types = getattr(stack, "stateful_types", None)
    return STATEFUL_TYPES if types is None else types


def _copy_test_vars(old: Path, new_workdir: Path, old_workdir: Path) -> None:
    """The old revision gets its own converge.tfvars, else the current one's."""
    if copy_test_vars(old, old_workdir):
        return
    for name in AUTO_COPY.values():
        if (new_workdir / name).is_file():
            shutil.copyfile(new_workdir / name, old_workdir / name)
