"""Stack: one module under test, and the runs that prove (or disprove) it converges.

A Stack owns a private workspace (an initialised copy of the module) and a
recording, fault-injecting proxy in front of the emulator. Every terraform
run of the Stack goes through that proxy, so the endpoint written into the
provider configuration never changes between runs.

>>> stack = converge("modules/network")            # doctest: +SKIP
>>> stack.apply().ok                                # doctest: +SKIP
True
>>> stack.assert_converged()                        # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import shutil
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .analysis.defects import Defect
from .analysis.diffs import plan_defects
from .analysis.plan import Plan, parse_plan
from .emulator.base import Emulator
from .errors import ConvergenceError, EmulatorError, FaultError, TerraformError
from .faults import Call, Fault, Proxy
from .report import format_defects
from .safety import ensure_loopback
from .terraform import Completed, IsFlagged, Runner, read_json
from .workspace import Template, Templates

_counter = itertools.count(1)
_log = logging.getLogger("pytest_converge")


@dataclass
class ApplyResult:
    """What one ``terraform apply`` did."""

    ok: bool
    error: TerraformError | None
    seconds: float
    calls: list[Call] = field(default_factory=list)
    #: Faults armed for this run that fired / never fired.
    fired: list[Fault] = field(default_factory=list)
    unfired: list[Fault] = field(default_factory=list)
    #: Addresses whose apply started and never completed (a crash leaves these).
    pending: list[str] = field(default_factory=list)
    signalled: int | None = None

    def raise_for_error(self) -> ApplyResult:
        """Raise the apply's :class:`TerraformError` if it failed; else return ``self``.

        >>> stack.apply().raise_for_error()          # doctest: +SKIP
        """
        if self.error is not None:
            raise self.error
        return self


@dataclass
class RecoveryReport:
    """The outcome of one fault scenario (see :meth:`Stack.recover`)."""

    module: str
    scenario: str
    defects: list[Defect]
    first: ApplyResult
    second: ApplyResult | None
    plan: Plan | None
    seconds: float
    created: list[Any] = field(default_factory=list)
    #: The replay gave a different outcome: the scenario is not reproducible.
    flaky: bool = False
    #: The defects of the replay (empty when there was none).
    replayed: list[Defect] = field(default_factory=list)
    #: Told which defects were raised (the ``converge`` fixture fails a test at
    #: teardown for error defects it never raised).
    on_raise: Callable[[list[Defect]], None] | None = field(default=None, repr=False, compare=False)

    @property
    def errors(self) -> list[Defect]:
        """The error-level defects (warnings left out): what makes the scenario fail."""
        return [d for d in self.defects if d.is_error]

    @property
    def ok(self) -> bool:
        """True when the module recovered: no error-level defect (warnings allowed)."""
        return not self.errors

    def raise_for_defects(self) -> RecoveryReport:
        """Raise :class:`ConvergenceError` listing every defect if any is an error; else ``self``.

        >>> stack.recover(LostResponse("CreateVpc")).raise_for_defects()   # doctest: +SKIP
        """
        if self.errors:
            if self.on_raise is not None:
                self.on_raise(self.defects)
            header = f"{self.module} does not recover from {self.scenario}:"
            if self.flaky:
                header = (
                    f"{self.module} under {self.scenario} is FLAKY: a replay gave "
                    f"{_outcome(self.replayed) or 'no defects'} instead of "
                    f"{_outcome(self.defects)}. First run:"
                )
            raise ConvergenceError(format_defects(self.defects, header=header), self.defects)
        return self


class Stack:
    """A module under test. Made by the ``converge`` fixture; see its docs."""

    def __init__(
        self,
        module_dir: str | Path,
        *,
        emulator: Emulator,
        templates: Templates,
        workdir: Path,
        variables: dict[str, Any] | None = None,
        parallelism: int | None = None,
        timeouts: dict[str, float] | None = None,
        inventory: Callable[[Emulator], Any] | None = None,
        classify: Callable[[str, str, Any, Any], str | None] | None = None,
        on_defects: Callable[[Stack, list[Defect]], None] | None = None,
        reproduce: str = "",
        progress: Callable[[str], None] | None = None,
        replay: bool = True,
        on_raise: Callable[[Stack, list[Defect]], None] | None = None,
        name: str | None = None,
    ) -> None:
        self.emulator = emulator
        self.variables = dict(variables or {})
        self.parallelism = parallelism
        self.reproduce = reproduce
        self._classify = classify
        self._inventory = inventory
        self._on_defects = on_defects
        self._on_raise = on_raise
        # Live progress with `--log-cli-level=INFO` (or any logging setup).
        self._progress = progress or _log.info
        self._templates = templates
        self._timeouts = timeouts
        self.template: Template = templates.get(module_dir)
        self.module = self.template.module
        #: The module's name in every report: its path relative to the rootdir
        #: when made by the fixture or ``--converge`` (the base name otherwise).
        self.name = name or self.module.name
        ensure_loopback(emulator.endpoint, "emulator endpoint")
        self.proxy = Proxy(upstream=emulator.endpoint)
        self.proxy.start()
        try:
            base = workdir / f"stack-{next(_counter)}-{self.module.name}"
            self.workdir = self.template.instantiate(base, self.proxy.endpoint, self.variables)
            self._root = base
            self.runner = Runner(
                templates.toolchain.command, self.workdir, templates.env(base), timeouts
            )
        except BaseException:
            self.proxy.stop()
            raise
        self.replay = replay
        self.applied = False
        self.last_apply: ApplyResult | None = None
        self.last_plan: Plan | None = None
        self.defects: list[Defect] = []
        #: Every fault scenario's report, in the order :meth:`recover` made them.
        self.reports: list[RecoveryReport] = []

    # -- runs ----------------------------------------------------------
    def apply(self, faults: Sequence[Fault] | Fault | None = None) -> ApplyResult:
        """``terraform apply`` through ``faults`` (none by default).

        Returns the result whether or not terraform succeeded; a failed apply
        is data here (a fault is *meant* to break it). Use
        ``.raise_for_error()`` when it must succeed.
        """
        armed = [faults] if isinstance(faults, Fault) else list(faults or [])
        self._check_emulator()
        parallelism = self.parallelism or (1 if armed else None)
        self.proxy.clear()
        if armed:
            self.proxy.arm(armed, signal=self.runner.signal)
        started = time.monotonic()
        try:
            done = self.runner.run(
                "apply",
                input=False,
                no_color=IsFlagged,
                auto_approve=IsFlagged,
                json=IsFlagged,
                parallelism=parallelism,
            )
            error = None
            if done.returncode != 0:
                error = TerraformError(
                    done.command,
                    done.returncode,
                    done.diagnostics() or _signal_note(done),
                    done.stdout + done.stderr,
                    str(self.workdir),
                )
        except TerraformError as exc:  # a timeout
            done, error = None, exc
        finally:
            unfired = self.proxy.disarm() if armed else []
        result = ApplyResult(
            ok=error is None,
            error=error,
            seconds=time.monotonic() - started,
            calls=self.proxy.calls,
            fired=[f for f in armed if f not in unfired],
            unfired=unfired,
            pending=done.pending() if done is not None else [],
            signalled=done.signalled if done is not None else None,
        )
        self.applied = self.applied or result.ok
        self.last_apply = result
        if not armed and error is not None and not self.emulator.is_alive():
            raise EmulatorError(f"the {self.emulator.name} emulator died during apply: {error}")
        return result

    def plan(self) -> Plan:
        """``terraform plan``: what the next apply would change, down to attributes.

        An empty plan costs one ``plan``; only a non-empty one is also shown
        with ``show -json`` for its attribute-level detail (and its drift).
        Drift under an empty plan changed nothing terraform manages, so it
        cannot break convergence: its addresses are kept in ``drifted``.
        """
        self._check_emulator()
        self.proxy.clear()
        planfile = "converge.tfplan"
        done = self.runner.run(
            "plan",
            input=False,
            no_color=IsFlagged,
            json=IsFlagged,
            detailed_exitcode=IsFlagged,
            out=planfile,
            parallelism=self.parallelism,
            check=True,
            ok_codes=(0, 2),
        )
        if done.returncode == 0:
            self.last_plan = Plan([], [], [], {"complete": True}, _drifted(done))
        else:
            shown = self.runner.run(
                "show", planfile, json=IsFlagged, no_color=IsFlagged, check=True
            )
            self.last_plan = parse_plan(json.loads(shown.stdout))
        return self.last_plan

    def state(self) -> dict[str, Any]:
        """The current state as ``terraform show -json`` prints it."""
        shown = self.runner.run("show", json=IsFlagged, no_color=IsFlagged, check=True)
        return json.loads(shown.stdout) if shown.stdout.strip() else {}

    def outputs(self) -> dict[str, Any]:
        """The root module's outputs after the last apply, read from the state: ``{name: value}``.

        Sensitive outputs are included as values (this is a test run).
        """
        data = read_json(self.workdir / "terraform.tfstate")
        return {k: v.get("value") for k, v in (data.get("outputs") or {}).items()}

    # -- convergence ---------------------------------------------------
    def converged_defects(self, scenario: str = "two-run") -> list[Defect]:
        """Apply if not yet applied, then plan; a non-empty plan is applied and planned again.

        Returns the defects (empty when the module converges).
        """
        return self._finish(self._second_plan_defects(scenario))

    def _second_plan_defects(self, scenario: str) -> list[Defect]:
        if not self.applied:
            self._progress(f"{self.name}: apply")
            self.apply().raise_for_error()
        self._progress(f"{self.name}: second plan")
        second = self.plan()
        if second.is_empty and not second.drift:
            return []
        third = None
        if not second.is_empty:
            # Permanence: what is still there after one more apply never goes away.
            self._progress(f"{self.name}: changes found, apply again and plan a third time")
            again = self.apply()
            if again.ok:
                third = self.plan()
        return plan_defects(
            second,
            third,
            module=self.name,
            scenario=scenario,
            classify=self._classify,
            module_dir=self.module,
        )

    def assert_converged(self) -> None:
        """Raise :class:`ConvergenceError` unless the plan after apply is empty.

        The error lists each defect: address, attribute path, declared ->
        observed, its classification, why it happens and how to fix it.
        """
        defects = self.converged_defects()
        self.defects.extend(defects)
        errors = [d for d in defects if d.is_error]
        if errors:
            if self._on_raise is not None:
                self._on_raise(self, defects)
            raise ConvergenceError(
                format_defects(defects, header=f"{self.name} does not converge:"), defects
            )

    def compare_with(self, other: Emulator) -> list[Defect]:
        """Run the two-run test here and on ``other``; what only one of them finds.

        Returns ``emulator-difference`` findings (warnings) showing both sides'
        second plans. Both emulators are emptied first.
        """
        from .analysis.emulators import Outcome, emulator_differences

        def outcome(stack: Stack) -> Outcome:
            stack._fresh_start()
            stack.apply().raise_for_error()
            defects = stack._second_plan_defects("two-run")
            summary = stack.last_plan.summary() if stack.last_plan else "not planned"
            return Outcome(stack.emulator.name, defects, summary)

        twin = Stack(
            self.module,
            emulator=other,
            templates=self._templates,
            workdir=self._root.parent,
            variables=self.variables,
            parallelism=self.parallelism,
            timeouts=self._timeouts,
            classify=self._classify,
            name=self.name,
        )
        try:
            mine, theirs = outcome(self), outcome(twin)
        finally:
            twin.close()
        return self._finish(emulator_differences(self.name, mine, theirs))

    # -- faults --------------------------------------------------------
    def fault_points(self) -> list[str]:
        """The mutating API calls of a clean apply, e.g. ``["CreateVpc#1", ...]``.

        Runs one clean apply on an empty emulator and state (so use it at
        collection time or in a session fixture), then empties both again.
        """
        self._fresh_start()
        result = self.apply()
        calls = result.calls
        self._fresh_start()
        if not result.ok:
            raise result.error  # type: ignore[misc]
        return [c.label for c in calls if c.mutating and c.status < 400]

    def recover(self, fault: Fault | str, replay: bool | None = None) -> RecoveryReport:
        """Apply through ``fault``, apply again with no fault, then check everything.

        Defects: ``recovery-failed`` when the clean re-run fails, ``duplicate``
        / ``orphan`` for cloud objects created and not in state, and the
        second-plan defects of :meth:`assert_converged`. A scenario with
        defects is replayed once (``replay=False`` skips that); when the
        replay's outcome differs the report is ``flaky``, not hidden.
        """
        from .faults import parse_fault

        if isinstance(fault, str):
            fault = parse_fault(fault)
        started = time.monotonic()
        first, second, defects, created = self._scenario(fault)
        flaky, replayed = False, []
        if (self.replay if replay is None else replay) and any(d.is_error for d in defects):
            self._progress(f"{self.name}: {fault.label} found defects; replaying it once")
            replayed = self._scenario(fault)[2]
            flaky = _outcome(replayed) != _outcome(defects)
        report = RecoveryReport(
            self.name,
            fault.label,
            self._finish(defects),
            first,
            second,
            self.last_plan,
            time.monotonic() - started,
            created,
            flaky=flaky,
            replayed=replayed,
            on_raise=self._report_raised,
        )
        self.reports.append(report)
        return report

    def _report_raised(self, defects: list[Defect]) -> None:
        if self._on_raise is not None:
            self._on_raise(self, defects)

    def _scenario(self, fault: Fault) -> tuple[ApplyResult, ApplyResult, list[Defect], list[Any]]:
        """One run of a fault scenario from an empty emulator and state."""
        from .analysis.leftovers import find_leftovers
        from .analysis.state import state_resources
        from .inventory import take_inventory

        scenario = fault.label
        self._fresh_start()
        baseline = take_inventory(self.emulator, self._inventory)
        self._progress(f"{self.name}: apply through {scenario}")
        first = self.apply(fault)
        if first.unfired:
            seen = sorted({c.label for c in first.calls if c.mutating})
            raise FaultError(
                f"{scenario} never fired: the apply made no call {fault.op}#{fault.n}. "
                f"Mutating calls seen: {', '.join(seen) or 'none'}"
            )
        self._check_emulator()
        self._progress(f"{self.name}: clean re-run after {scenario}")
        second = self.apply()
        defects: list[Defect] = []
        if not second.ok:
            defects.append(self._recovery_failed(scenario, first, second))
        else:
            defects.extend(self._second_plan_defects(scenario))
        after = take_inventory(self.emulator, self._inventory)
        created = list(after.minus(baseline))
        defects.extend(
            find_leftovers(
                created,
                # The raw state file: no terraform run (and provider start) needed.
                state_resources(read_json(self.workdir / "terraform.tfstate")),
                module=self.name,
                scenario=scenario,
            )
        )
        return first, second, defects, created

    def _recovery_failed(self, scenario: str, first: ApplyResult, second: ApplyResult) -> Defect:
        err = second.error
        diags = err.diagnostics if err is not None else []
        address = _address_in(diags) or (first.pending[0].split(" ")[0] if first.pending else None)
        text = "; ".join(diags) or str(err)
        exists = "already exist" in text.lower() or "inuse" in text.lower().replace(" ", "")
        return Defect(
            kind="recovery-failed",
            address=address,
            module=self.name,
            scenario=scenario,
            observed=text,
            objects=[],
            message=f"after {scenario} the clean re-run failed: {text}",
            why=(
                "the first run created the object, then died before recording it in state; "
                "the re-run tries to create it again and the name is taken"
                if exists
                else "the re-run cannot complete from the state the interrupted run left"
            ),
            fix=(
                f"`terraform import {address} <id>` (or an `import {{ to = {address} ... }}` "
                "block) adopts the object; a module can avoid it with names that do not "
                "collide (name_prefix) or by tolerating existing objects"
                if exists
                else "make the resource's create idempotent, or document the manual recovery"
            ),
        )

    # -- plumbing ------------------------------------------------------
    def _fresh_start(self) -> None:
        """Empty emulator, empty state: the start of a scenario."""
        self._check_emulator()
        self.emulator.reset()
        for name in (
            "terraform.tfstate",
            "terraform.tfstate.backup",
            ".terraform.tfstate.lock.info",
        ):
            path = self.workdir / name
            if path.exists():
                path.unlink()
        self.applied = False

    def _check_emulator(self) -> None:
        if not self.emulator.is_alive():
            raise EmulatorError(
                f"the {self.emulator.name} emulator behind {self.proxy.endpoint} does not "
                "answer; it died or was stopped mid-scenario"
            )

    def _finish(self, defects: list[Defect]) -> list[Defect]:
        for d in defects:
            d.module = d.module or self.name
            d.reproduce = d.reproduce or self.reproduce
        if self._on_defects is not None:
            self._on_defects(self, defects)
        return defects

    def close(self, keep: bool = False) -> None:
        """Stop the proxy and (unless ``keep``) delete the workspace."""
        self.proxy.stop()
        if not keep:
            shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Stack {self.name} at {self.workdir}>"


def _signal_note(done: Completed) -> list[str]:
    if done.signalled == signal.SIGKILL:
        return ["terraform was killed (SIGKILL) mid-apply by a Crash fault"]
    if done.signalled == signal.SIGINT:
        return ["terraform was interrupted (SIGINT) mid-apply by an Interrupt fault"]
    return []


def _outcome(defects: Sequence[Defect]) -> str:
    """The comparable outcome of a scenario: its error kinds per address."""
    return ", ".join(sorted({f"{d.kind} {d.address or ''}".strip() for d in defects if d.is_error}))


def _drifted(done: Completed) -> list[str]:
    return [
        e.get("change", {}).get("resource", {}).get("addr", "")
        for e in done.events
        if e.get("type") == "resource_drift"
    ]


def _address_in(diags: Sequence[str]) -> str | None:
    import re

    for d in diags:
        match = re.search(r"\[([a-z0-9_.\[\]\"-]+\.[a-z0-9_-]+[^,\]]*)", d)
        if match:
            return match.group(1)
    return None


class ConvergeFactory(Protocol):
    """The ``converge`` fixture's value: ``converge(module_dir, vars=None) -> Stack``.

    Annotate a test's parameter with it for type checking::

        def test_vpc(converge: ConvergeFactory) -> None:
            converge("modules/vpc", vars={"cidr": "10.0.0.0/16"}).assert_converged()
    """

    def __call__(
        self, module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None
    ) -> Stack: ...
