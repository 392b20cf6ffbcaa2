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

import dataclasses
import itertools
import json
import logging
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..analysis.defects import Defect, WatchedList
from ..analysis.diffs import plan_defects
from ..analysis.egress_check import in_flight
from ..analysis.emulators import Outcome, emulator_differences
from ..analysis.gaps import (
    emulator_version,
    mark_disagreements,
    mark_emulator_gaps,
    undecodable_notes,
    unimplemented_notes,
)
from ..analysis.model_gaps import ModelFacts, refusal_notes
from ..analysis.plan import Plan, parse_plan, top_attribute
from ..analysis.stalls import split_after_cut
from ..analysis.state import state_resources
from ..analysis.untested import untested_resources
from ..analysis.world_check import World, world_defects
from ..analysis.writers import sibling_writers
from ..awsapi.model import api_members
from ..awsapi.operations import service_of
from ..emulator.base import Emulator
from ..emulator.moto_facts import model_facts, refusal_facts
from ..emulator.moto_source import implements
from ..emulator.served import preflight_of
from ..errors import ConvergeError, ConvergenceError, Diagnostic, EmulatorError, TerraformError
from ..faults import Call, Fault, Proxy, parse_fault
from ..faults.locate import CleanApply, serving
from ..isolation.egress import EgressGuard
from ..isolation.safety import ensure_loopback, sdk_endpoint
from ..report import convergence_error, ran_with
from ..terraform import schema_proxy
from ..terraform.provider import ReattachedProvider
from ..terraform.runner import Completed, IsFlagged, Runner
from ..terraform.workspace import Template, Templates, Workspace, aws_addresses, aws_major
from . import upgrade as upgrades
from .arming import ArmedApply, FaultArming
from .loop import Loop
from .protocol import RunSettings, Step
from .results import ApplyResult, Observations, RecoveryReport, UpgradeReport
from .results import outcome as _outcome  # noqa: F401  (the name tests import from here)
from .scenario import Scenario, points, report_fields
from .served_part import ServedPart, managed_in_state
from .touched import Touched
from .watch import StallWatch
from .worlds import CleanWorlds

_counter = itertools.count(1)
_log = logging.getLogger("pytest_converge")

#: ``-parallelism`` of an apply no fault is armed in, unless ``--converge-parallelism``
#: says otherwise. terraform's own 10 runs a wide module's resources in waves, each as
#: long as the provider's fixed wait in it (aws 5.x waits 15 s after each Route 53
#: change before its first GetChange: 21 records were 3 waves, 45 s); the emulator
#: answers one wave of them as fast. A faulted apply stays at 1.
APPLY_PARALLELISM = 32


class Stack:
    """A module under test. Made by the ``converge`` fixture; see its docs.

    The plain values its runs are made with (``name``, ``reproduce``, ``replay``,
    ``parallelism``, ``timeouts``, ``strict``, ``stall_limits``, ``loop_alert``,
    ``on_loop``, ``stateful_types``) are one frozen :class:`.protocol.RunSettings`,
    :attr:`settings`.
    """

    #: Told every terraform ``-json`` event of an apply (the live status line).
    on_event: Callable[[dict[str, Any]], None] | None = None
    #: Told each step the Stack starts, with its detail (the live status line).
    on_step: Callable[[Step, str], None] | None = None

    def __init__(
        self,
        module_dir: str | Path,
        *,
        emulator: Emulator,
        templates: Templates,
        workdir: Path,
        variables: dict[str, Any] | None = None,
        parallelism: int | None = None,
        timeouts: Mapping[str, float] | None = None,
        inventory: Callable[[Emulator], Any] | None = None,
        classify: Callable[[str, str, Any, Any], str | None] | None = None,
        on_defects: Callable[[Stack, list[Defect]], None] | None = None,
        reproduce: str = "",
        progress: Callable[[str], None] | None = None,
        replay: bool = True,
        on_seen: Callable[[Stack, list[Defect]], None] | None = None,
        name: str | None = None,
        strict: bool = False,
        reattach: bool = True,
        emulator_empty: bool = False,
        world: Callable[[Emulator, Path], object] | None = None,
    ) -> None:
        self.emulator = emulator
        #: Makes the objects the module reads but does not make, after each emptying
        #: (the ``pytest_converge_world`` hook); None: the runs start from nothing.
        self._world = world
        #: Its runs start from objects ``world`` made, not from an empty emulator.
        self.seeded = False
        #: ``world`` made them since the emulator was last emptied for this Stack.
        self._world_made = False
        self._classify = classify
        self._on_defects = on_defects
        #: Told the defects a test looked at (see :meth:`_seen`).
        self._on_seen = on_seen
        #: Each step as a log line, ``<name>: <step>: <detail>`` (``--log-cli-level=INFO``).
        self.progress: Callable[[str], None] = progress or _log.info
        template = templates.get(module_dir)
        self.module = template.module
        #: The plain values the runs are made with (see :class:`.protocol.RunSettings`).
        self.settings = RunSettings(
            name=name or self.module.name,
            reproduce=reproduce,
            replay=replay,
            parallelism=parallelism,
            timeouts=timeouts,
            strict=strict,
        )
        self._start_record(emulator_empty)
        self._read_module(template, inventory)
        self._start_servers(template, templates, workdir, dict(variables or {}), reattach)

    def _start_record(self, emulator_empty: bool) -> None:
        """What the runs have made, learned and found: nothing yet."""
        self.last_apply: ApplyResult | None = None
        self.last_plan: Plan | None = None
        self.defects: list[Defect] = []
        #: Every fault scenario's report, in the order :meth:`recover` made them.
        self.reports: list[RecoveryReport] = []
        #: Nothing has used the emulator since it started or was emptied (the
        #: session knows): the first scenario skips its reset; any apply ends it.
        self._emulator_empty = emulator_empty
        #: The stall watch of the runs, and the egress and stalled findings it gathered.
        self.watch = StallWatch(self)
        #: What arms the fault proxy for an apply and tells each call to its resource.
        self.arming = FaultArming(self)

    def _read_module(self, template: Template, listers: Callable[[Emulator], Any] | None) -> None:
        """What the module declares (its providers' regions, its AWS resources) and, before
        any apply, what of it the backend is known not to serve."""
        emulator = self.emulator
        # The AWS resources and data sources the module and its modules declare.
        addresses = aws_addresses(template.root / template.subdir)
        #: The regions and services the runs touched (the declared regions to start
        #: with), and the inventory of them.
        self.touched = Touched(emulator, self.module, addresses, listers)
        #: The clean worlds (and state files) a recovery is checked against.
        self.worlds = CleanWorlds(self, addresses)
        check_served = getattr(emulator, "check_served", None)
        if check_served is not None:  # before any apply: not minutes of provider retries
            check_served(addresses, self.settings.name)
        #: What the backend serves of the module: known before any apply (its preflight),
        #: then learned from the applies (the untested part, what later runs target).
        self.served = ServedPart(
            self, preflight_of(addresses, emulator.name, aws_major(template.providers))
        )
        preflight = self.served.preflight
        if preflight.unservable:
            self.progress(f"{self.settings.name}: pre-flight: {preflight.words(emulator.name)}")

    def _start_servers(
        self,
        template: Template,
        templates: Templates,
        workdir: Path,
        variables: dict[str, Any],
        reattach: bool,
    ) -> None:
        """Start the fault proxy and the egress guard, make the workspace in a directory of
        its own under ``workdir`` and its runner (with a reattached provider when
        ``reattach``); whatever fails on the way stops what had started."""
        emulator = self.emulator
        ensure_loopback(emulator.endpoint, "emulator endpoint")
        self.proxy = Proxy(
            upstream=emulator.endpoint,
            unserved=emulator.unsupported_services
            if getattr(emulator, "answers_unsupported", False)
            else (),
        )
        self.proxy.start()
        self.egress_guard = EgressGuard()
        base = workdir / f"stack-{next(_counter)}-{self.module.name}"
        provider: ReattachedProvider | None = None
        try:
            self.egress_guard.start()
            copy = template.instantiate(base, self.proxy.endpoint, variables)
            env = {**templates.env(base), **self.egress_guard.proxy_env()}
            env.update(sdk_endpoint(self.proxy.endpoint))
            provider = _reattached_provider(template, copy, env, reattach)
            runner = Runner(
                templates.toolchain.command, copy, env, self.settings.timeouts, provider=provider
            )
            #: Its copy of the module (in a directory of its own), variables, state and
            #: the runner of its terraform commands.
            self.workspace = Workspace(
                template,
                templates,
                root=base,
                workdir=copy,
                variables=variables,
                runner=runner,
                endpoint=self.proxy.endpoint,
                guard_env=self.egress_guard.proxy_env(),
            )
        except BaseException:
            # Cancelled (SIGTERM) can land here too: the caller never gets this Stack
            # to close, so nothing it started may outlive the exception.
            if provider is not None:
                provider.stop()
            self.proxy.stop()
            self.egress_guard.stop()
            shutil.rmtree(base, ignore_errors=True)
            raise

    # -- runs ----------------------------------------------------------
    def apply(
        self,
        faults: Sequence[Fault] | Fault | None = None,
        *,
        refresh: bool = True,
        targets: Sequence[str] = (),
        clean: CleanApply | None = None,
    ) -> ApplyResult:
        """``terraform apply`` through ``faults`` (none by default).

        Returns the result whether or not terraform succeeded; a failed apply
        is data here (a fault is *meant* to break it). Use
        ``.raise_for_error()`` when it must succeed. ``refresh=False`` plans from
        the state alone (``-refresh=false``); ``targets`` applies only those addresses
        (``-target``, and what they depend on).

        An apply with no fault runs with :data:`APPLY_PARALLELISM` unless the settings
        say otherwise. Faults apply with ``-parallelism=1`` (one open apply makes every call),
        unless ``clean``, what a clean apply of this configuration did, is given:
        then terraform runs as parallel as it likes, each call is told to its
        resource by what its request says (:class:`.faults.locate.RequestMatcher`),
        and crashes gather into one cut (:class:`.faults.cut.Gather`).
        """
        armed = [faults] if isinstance(faults, Fault) else list(faults or [])
        if clean is not None:
            return self._apply(armed, self.settings.parallelism, targets, refresh, clean)
        parallelism = self.settings.parallelism or (1 if armed else APPLY_PARALLELISM)
        return self._apply(armed, parallelism, targets, refresh=refresh)

    def _apply(
        self,
        armed: list[Fault],
        parallelism: int | None,
        targets: Sequence[str] = (),
        refresh: bool = True,
        clean: CleanApply | None = None,
    ) -> ApplyResult:
        self.check_emulator()
        if not self._world_made:  # the Stack's first apply, on the emulator its test emptied
            self._make_world()
        self._emulator_empty = False
        self.proxy.clear()
        targets = list(targets) or self.served.targets()
        armed_apply = self.arming.arm(armed, clean)
        started = time.monotonic()
        timeline: list[tuple[float, dict[str, Any]]] = []
        watch, stalls = self.watch.start(timeline)
        try:
            done, error = self._run_apply(
                parallelism, targets, refresh, watch, self._listener(armed_apply, timeline)
            )
        finally:
            unfired = self.arming.disarm()
        if self.watch.lost:
            raise EmulatorError(self._emulator_died("during apply"))
        if error is not None and not _name_emulator_gaps(error, self.proxy.calls, self.emulator):
            _name_lookups(error, self.seeded)
        egress = self.watch.egress_of(timeline)
        events = done.events if done is not None else []
        result = ApplyResult(
            ok=error is None,
            error=error,
            seconds=time.monotonic() - started,
            calls=self.proxy.calls,
            fired=[f for f in armed if f not in unfired],
            unfired=unfired,
            pending=done.pending() if done is not None else [],
            # What the stall watch cut, else what terraform left open (a crash).
            in_flight=in_flight(timeline, stalls[0].last)
            if stalls
            else done.open_addresses()
            if done is not None
            else armed_apply.applying.addresses(),
            signalled=done.signalled if done is not None else None,
            egress=egress,
            stalled=self.watch.stalled_of("terraform apply", error, stalls, timeline, egress),
            events=events,
            clock_offset=time.time() - time.monotonic(),
            untested=untested_resources(events, self.proxy.calls, _served_by) if error else {},
        )
        if self.served.retry(result, targets):
            # A read that failed at plan time stopped the whole apply: run it again on
            # the part the backend serves (the same faults, armed afresh).
            return self._apply(armed, parallelism, (), refresh, clean)
        self._keep_apply(result, armed)
        return result

    def _listener(
        self, armed_apply: ArmedApply, timeline: list[tuple[float, dict[str, Any]]]
    ) -> Callable[[dict[str, Any]], None]:
        """What sees each of the apply's events: its arming (open applies, the matcher),
        the timeline (stalls, egress) and the test's own ``on_event``."""

        def on_event(event: dict[str, Any]) -> None:
            armed_apply.see(event)
            timeline.append((time.monotonic(), event))
            if self.on_event is not None:
                self.on_event(event)

        return on_event

    def _run_apply(
        self,
        parallelism: int | None,
        targets: Sequence[str],
        refresh: bool,
        watch: Callable[[], str | None],
        on_event: Callable[[dict[str, Any]], None],
    ) -> tuple[Completed | None, TerraformError | None]:
        """``terraform apply``: what it completed (None when it did not), and its error."""
        try:
            done = self.workspace.terraform(
                "apply",
                input=False,
                no_color=IsFlagged,
                auto_approve=IsFlagged,
                json=IsFlagged,
                parallelism=parallelism,
                target=list(targets) or None,
                refresh=None if refresh else False,
                on_event=on_event,
                watch=watch,
            )
        except TerraformError as exc:  # a timeout, or stopped by ``watch``
            return None, exc
        if done.returncode == 0:
            return done, None
        return done, TerraformError(
            done.command,
            done.returncode,
            done.diagnostics() or _signal_note(done),
            done.stdout + done.stderr,
            str(self.workspace.workdir),
        )

    def _keep_apply(self, result: ApplyResult, armed: list[Fault]) -> None:
        """What the Stack keeps of an apply: applied once, the last apply, its calls (and
        the watch its cut); a no-fault apply that failed with the emulator gone is its death."""
        if result.ok:
            self.workspace.note_applied()
        self.last_apply = result
        self.watch.keep_cut(result)
        self.touched.note(result.calls)
        if not armed and result.error is not None and not self.emulator.is_alive():
            raise EmulatorError(self._emulator_died("during apply", result.error))

    def plan(self) -> Plan:
        """``terraform plan``: what the next apply would change, down to attributes.

        An empty plan costs one ``plan``; only a non-empty one is also shown
        with ``show -json`` for its attribute-level detail (and its drift).
        Drift under an empty plan changed nothing terraform manages, so it
        cannot break convergence: its addresses are kept in ``drifted``.
        """
        self.check_emulator()
        self.proxy.clear()
        planfile = "converge.tfplan"
        timeline: list[tuple[float, dict[str, Any]]] = []
        watch, stalls = self.watch.start(timeline)
        try:
            done = self.workspace.terraform(
                "plan",
                input=False,
                no_color=IsFlagged,
                json=IsFlagged,
                detailed_exitcode=IsFlagged,
                out=planfile,
                parallelism=self.settings.parallelism,
                target=self.served.targets() or None,
                check=True,
                ok_codes=(0, 2),
                on_event=lambda event: timeline.append((time.monotonic(), event)),
                watch=watch,
            )
        except TerraformError as exc:
            if self.watch.lost:
                raise EmulatorError(self._emulator_died("during plan")) from exc
            if not _name_emulator_gaps(exc, self.proxy.calls, self.emulator):
                _name_lookups(exc, self.seeded)
            self.watch.stalled_of(
                "terraform plan", exc, stalls, timeline, self.watch.egress_of(timeline)
            )
            raise
        else:
            self.watch.egress_of(timeline)
        if done.returncode == 0:
            self.last_plan = Plan([], [], [], {"complete": True}, _drifted(done))
        else:
            shown = self.workspace.terraform(
                "show", planfile, json=IsFlagged, no_color=IsFlagged, check=True
            )
            self.last_plan = parse_plan(json.loads(shown.stdout))
        return self.last_plan

    def state(self) -> dict[str, Any]:
        """The current state as ``terraform show -json`` prints it."""
        shown = self.workspace.terraform("show", json=IsFlagged, no_color=IsFlagged, check=True)
        return json.loads(shown.stdout) if shown.stdout.strip() else {}

    def outputs(self) -> dict[str, Any]:
        """The root module's outputs after the last apply, read from the state: ``{name: value}``.

        Sensitive outputs are included as values (this is a test run).
        """
        data = self.workspace.read_state()
        return {k: v.get("value") for k, v in (data.get("outputs") or {}).items()}

    # -- convergence ---------------------------------------------------
    def converged_defects(self, scenario: str = "two-run") -> list[Defect]:
        """Apply if not yet applied, then plan; a non-empty plan is applied and planned again.

        Returns the defects (empty when the module converges). A run that tried to
        reach a host beyond the emulator gives ``egress`` defects; when that made
        the apply fail, they are returned instead of terraform's error.
        """
        found = self._converged_defects(scenario)
        return WatchedList(found, lambda: self.seen(found))

    def _converged_defects(self, scenario: str) -> list[Defect]:
        try:
            defects = self.second_plan_defects(scenario)
        except (TerraformError, ConvergenceError) as exc:
            found = self.take_run_findings(scenario)
            # What the run's own findings explain (egress, a stall, a part the backend
            # cannot serve) is reported as them; anything else is raised.
            if not any(d.kind != "untested" for d in found) and not self.served.explains(exc):
                raise
            return self.finish(found)
        return self.finish(self.take_run_findings(scenario) + defects)

    def second_plan_defects(self, scenario: str, cut: Collection[str] = ()) -> list[Defect]:
        """Apply if not yet applied, then plan; a plan with changes is applied and planned
        again (permanence). Its defects, not finished (part of the runner's interface).

        After an apply the stall watch cut (:attr:`ApplyResult.cut`) the plan still
        runs: what the apply finished is checked as usual (permanence through an apply
        of those resources only), the resources it cut or never reached are told on
        the ``stalled`` finding (:func:`.analysis.stalls.split_after_cut`). ``cut`` adds
        resources a failed apply left half made (a re-run's ``recovery-failed`` ones):
        they and what they block are left out the same way.
        """
        cut = {*cut, *self.cut_since_start()}
        if not self.workspace.applied and not cut:
            self.step(Step.APPLY)
            result = self.apply()
            cut.update(self.cut_since_start())
            if not cut:
                result.raise_for_error()
        self.step(Step.SECOND_PLAN)
        applied = self.last_apply
        second = self.plan()
        state: list[str] = []
        if cut:
            state = managed_in_state(self.workspace.workdir)
            after = split_after_cut(second, cut, state)
            for finding in self.watch.last_cut_findings():
                finding.message = f"{finding.message}. {after.note()}"
            second = after.checked
        if second.is_empty and not second.drift:
            return []
        writers = self._sibling_writers(second, applied)
        third = None
        targets = [rc.address for rc in second.changes]
        if not second.is_empty and (not cut or targets):
            # Permanence: what is still there after one more apply never goes away.
            # After a cut, only the resources it finished are applied again.
            self.step(Step.THIRD_PLAN, "changes found: apply again, then plan")
            again = (
                self._apply([], self.settings.parallelism or APPLY_PARALLELISM, targets)
                if cut
                else self.apply()
            )
            if again.ok:
                third = self.plan()
                if cut:
                    third = split_after_cut(third, cut, state).checked
        return plan_defects(
            second,
            third,
            module=self.settings.name,
            scenario=scenario,
            classify=self._classify,
            module_dir=self.module,
            writers=writers,
        )

    def cut_since_start(self) -> list[str]:
        """The resources in flight when the stall watch cut an apply of this scenario
        (since :meth:`fresh_start`), and those the backend cannot serve (part of the
        runner's interface)."""
        return list(dict.fromkeys([*self.watch.cut(), *self.served.untested]))

    def _sibling_writers(
        self, plan: Plan, applied: ApplyResult | None
    ) -> dict[str, dict[str, list[str]]]:
        """Drifted fields another resource of this configuration wrote during ``applied``."""
        if not plan.drift or applied is None or not applied.events:
            return {}
        drifted = {rc.address: {top_attribute(a.path) for a in rc.attributes} for rc in plan.drift}
        state = state_resources(self.workspace.read_state())
        return sibling_writers(
            drifted,
            applied.events,
            applied.calls,
            state,
            applied.clock_offset,
            lambda rtype, field, operations: api_members(rtype, field, None, operations),
            _signing_name_of,
        )

    def assert_converged(self) -> None:
        """Raise :class:`ConvergenceError` unless the plan after apply is empty.

        The error lists each defect: address, attribute path, declared ->
        observed, its classification, why it happens and how to fix it.
        """
        defects = self._converged_defects("two-run")
        self.defects.extend(defects)
        errors = [d for d in defects if d.is_error]
        if errors:
            self.seen(defects)  # raised: the test fails with them, or caught them
            raise convergence_error(defects, header=self.failure_header())

    def compare_with(self, other: Emulator) -> list[Defect]:
        """Run the two-run test here and on ``other``; what only one of them finds.

        Returns ``emulator-difference`` findings (warnings) showing both sides'
        second plans. Both emulators are emptied first.
        """

        def outcome(stack: Stack) -> Outcome:
            stack.fresh_start()
            stack.apply().raise_for_error()
            defects = stack.second_plan_defects("two-run")
            summary = stack.last_plan.summary() if stack.last_plan else "not planned"
            return Outcome(stack.emulator.name, defects, summary)

        twin = self._twin(other)
        try:
            mine, theirs = outcome(self), outcome(twin)
        finally:
            twin.close()
        return self.finish(emulator_differences(self.settings.name, mine, theirs))

    def confirm_with(
        self, other: Emulator, defects: Sequence[Defect] | None = None
    ) -> list[Defect]:
        """Re-run the two-run test on ``other``; mark the findings only this emulator shows.

        ``defects`` (default: this Stack's ``defects``) get ``emulator_suspected``
        and ``evidence`` naming ``other``'s second plan; an error becomes a
        warning unless ``strict``. An error ``other`` shows too stays one, and its
        ``confirmed_by`` names ``other``, its version and second plan. Returns the
        marked (suspected) findings; none when the module cannot be applied on
        ``other`` (then there is no evidence, and nothing is confirmed either).
        ``--converge-confirm-with`` does this for each module with error-level findings.
        """
        found = list(self.defects if defects is None else defects)
        twin = self._twin(other)
        try:
            twin.fresh_start()
            self.step(Step.CONFIRM, other.name)
            if not twin.apply().ok:
                self.progress(
                    f"{self.settings.name}: apply failed on {other.name}; nothing confirmed"
                )
                return []
            theirs = twin.second_plan_defects("two-run")
            plan = twin.last_plan.summary() if twin.last_plan else "not planned"
        finally:
            twin.close()
        return mark_disagreements(
            found,
            theirs,
            self.emulator.name,
            other.name,
            other_plan=plan,
            other_version=emulator_version(other),
            strict=self.settings.strict,
        )

    def _twin(self, other: Emulator) -> Stack:
        """The same module, variables and options, on ``other``."""
        return Stack(
            self.module,
            emulator=other,
            templates=self.workspace.templates,
            workdir=self.workspace.root.parent,
            variables=self.workspace.variables,
            parallelism=self.settings.parallelism,
            timeouts=self.settings.timeouts,
            classify=self._classify,
            name=self.settings.name,
            strict=self.settings.strict,
            world=self._world,
        )

    # -- continuous reconciliation --------------------------------------
    def loop(self, alert: int | None = None) -> Loop:
        """A simulated continuous agent over this Stack (applies first if needed).

        See :class:`pytest_converge.run.loop.Loop`: ``writer()``, ``console()``,
        ``run(cycles=N)``, ``paused()``.
        """
        return Loop(self, alert=self.settings.loop_alert if alert is None else alert)

    def reconfigure(self, vars: dict[str, Any]) -> None:
        """Set variable values for the runs that follow: a change landing in the code."""
        self.workspace.set_variables(vars)

    # -- faults --------------------------------------------------------
    def fault_points(self) -> list[str]:
        """The mutating API calls of a clean apply, each pinned to the resource that made it.

        ``["CreateVpc#1@aws_vpc.main", "CreateSubnet#1@aws_subnet.a[0]", ...]``: one
        per (resource, operation, occurrence), so a scenario of each hits its
        resource whatever order terraform walks in; a call no single resource's
        apply held stays ``Op#n``. Runs one clean apply (``-parallelism=1``, as
        fault scenarios do, unless ``parallelism`` is set) on an empty emulator
        and state (so use it at collection time or in a session fixture), then
        empties both again.
        """
        self.fresh_start()
        result = self.apply_for_points()
        if result.servable_ok:
            self.worlds.record()
        self.fresh_start()
        if not result.servable_ok:
            result.raise_for_error()
        return points(result.calls)

    def apply_for_points(self) -> ApplyResult:
        """A clean apply as a fault scenario's runs it (see :meth:`fault_points`); part of
        the runner's interface."""
        return self._apply([], self.settings.parallelism or 1)

    def recover(self, fault: Fault | str, replay: bool | None = None) -> RecoveryReport:
        """Apply through ``fault``, apply again with no fault, then check everything.

        Defects: ``recovery-failed`` when the clean re-run fails, ``duplicate``
        / ``orphan`` for cloud objects created and not in state, and the
        second-plan defects of :meth:`assert_converged`. A scenario with
        defects is replayed once (``replay=False`` skips that); when the
        replay's outcome differs the report is ``flaky``, not hidden.
        """
        if isinstance(fault, str):
            fault = parse_fault(fault)
        started = time.monotonic()
        found, again = Scenario(self, fault).run_and_replay(
            self.settings.replay if replay is None else replay
        )
        report = RecoveryReport(
            module=self.settings.name,
            scenario=fault.label,
            defects=self.finish(found.defects, found.observed),
            plan=found.observed.plan,
            seconds=time.monotonic() - started,
            hit=found.hit,
            replay_hit=again.hit if again is not None else None,
            ran_with=self.ran_with,
            **report_fields(found, again),
        )
        self.reports.append(report)
        return report.watch(self.seen)

    def seen(self, defects: list[Defect]) -> None:
        """The test looked at ``defects`` (read a report's findings, or caught them raised)."""
        if self._on_seen is not None:
            self._on_seen(self, defects)

    # -- the recovered world -------------------------------------------
    def world_defects(
        self,
        clean: World | None,
        fault: str | None,
        second: ApplyResult | None,
        scenario: str,
        inventoried: Collection[str] = (),
    ) -> list[Defect]:
        """After the scenario of ``fault`` (its label) re-ran clean (``second``) with an
        empty plan: what the emulator holds that a clean apply does not (``wrong-fixed-point``, see
        :mod:`.analysis.world_check`). ``inventoried`` types had their leftovers looked for."""
        plan = self.last_plan
        if clean is None or fault is None or second is None or not second.ok:
            return []
        if self.last_apply is not second or plan is None or not plan.is_empty:
            return []  # the second plan changed something: its own defects say what

        recovered = self.worlds.now()
        if recovered is None:
            return []
        return world_defects(
            clean,
            recovered,
            fault=fault,
            module=self.settings.name,
            scenario=scenario,
            inventoried=inventoried,
        )

    # -- upgrades ------------------------------------------------------
    def upgrade_from(
        self,
        old_module_dir: str | Path,
        vars: dict[str, Any] | None = None,
        *,
        allow_replace: Sequence[str] = (),
        fault: Fault | str | None = None,
        replay: bool | None = None,
    ) -> UpgradeReport:
        """Apply the old revision, then this module over the same state, and check the upgrade.

        ``old_module_dir`` is the released revision of this module (a checkout
        of the last tag, for example; a relative path is from the current
        directory); ``vars`` its variables (default: this Stack's).

        Defects: ``destructive-upgrade`` (the upgrade plan replaces or deletes
        an object of a stateful type, or renames an object without a
        ``moved`` block: the fix is that block), ``upgrade-failed``, the
        second-plan defects after the upgrade, and leftovers.
        ``allow_replace`` accepts addresses (or globs). With ``fault`` the
        upgrade apply runs through it and is re-run clean, as in
        :meth:`recover` (``replay`` as there).

        >>> stack.upgrade_from("../v1/modules/app").raise_for_defects()  # doctest: +SKIP
        """
        report = upgrades.upgrade_from(
            self, old_module_dir, vars, allow_replace=allow_replace, fault=fault, replay=replay
        )
        return report.watch(self.seen)

    def upgrade_fault_points(
        self, old_module_dir: str | Path, vars: dict[str, Any] | None = None
    ) -> list[str]:
        """The mutating API calls of a clean upgrade apply from ``old_module_dir``."""
        return upgrades.upgrade_fault_points(self, old_module_dir, vars)

    # -- the runner's interface ----------------------------------------
    # What scenario.py, loop.py, upgrade.py and collect/ use of a Stack besides its
    # public API: the ScenarioStack Protocol (run/protocol.py), which mypy checks
    # this class against wherever a Stack is handed to them. Nothing outside this
    # module reaches into the private members below.
    def step(self, step: Step, detail: str = "") -> None:
        """Start ``step``: logged as ``<name>: <step>: <detail>`` and told to :attr:`on_step`."""
        self.progress(
            f"{self.settings.name}: {step.value}: {detail}"
            if detail
            else f"{self.settings.name}: {step.value}"
        )
        if self.on_step is not None:
            self.on_step(step, detail)

    def take_run_findings(self, scenario: str) -> list[Defect]:
        """The egress and stalled defects gathered since the last call, one per host and
        resource, and the untested part once a scenario (part of the runner's interface)."""
        return [*self.watch.take(scenario), *self.served.findings(scenario)]

    def fresh_start(self) -> None:
        """Empty emulator, empty state: the start of a scenario (part of the runner's interface)."""
        self.check_emulator()
        self.watch.clear()
        if not self._emulator_empty:
            self.emulator.reset()
        self.workspace.clear_state()
        self.last_apply = None
        self._world_made = False
        self._make_world()  # before the scenario's baseline inventory
        self.served.start()

    def _make_world(self) -> None:
        """The objects the module reads but does not make (the ``world`` hook), made in
        the emptied emulator: after each emptying, or before the Stack's first apply (on
        the emulator its test emptied); the next start empties it again."""
        self._world_made = True
        if self._world is None:
            return
        self._emulator_empty = False
        try:
            self._world(self.emulator, self.module)
        except Exception as exc:
            raise ConvergeError(
                f"{self.settings.name}: the pytest_converge_world hook failed making the "
                f"objects the module reads: {type(exc).__name__}: {exc}"
            ) from exc
        self.seeded = True

    def check_emulator(self) -> None:
        """Raise :class:`EmulatorError` when the emulator under this Stack went away."""
        if not self.emulator.is_alive():
            raise EmulatorError(self._emulator_died("mid-scenario"))

    def _emulator_died(self, when: str, error: object = None) -> str:
        """Why this scenario has no outcome: the emulator under it went away."""
        detail = f" (terraform said: {error})" if error else ""
        return (
            f"the {self.emulator.name} emulator behind {self.proxy.endpoint} does not answer: "
            f"it died or stopped answering {when}{detail}. "
            "This scenario's outcome is unknown: it is an error of the test set-up, not a "
            f"finding about {self.settings.name}. The next scenario runs on a fresh "
            f"{self.emulator.name} emulator."
        )

    def observations(self) -> Observations:
        """What the run just made observed: its last plan and apply (part of the runner's
        interface; a runner takes them when its run ends and hands them to :meth:`finish`)."""
        return Observations(self.last_plan, self.last_apply)

    def finish(self, defects: list[Defect], observed: Observations | None = None) -> list[Defect]:
        """Complete ``defects`` (module, reproduce line, known emulator gaps) and hand them
        to the session; returns them (part of the runner's interface).

        ``observed`` is the run that found them (its plan's configuration and replaced
        addresses, its apply's calls: the evidence of a gap); by default the run this
        Stack just made, for a caller that judges it straight away.
        """
        seen = observed if observed is not None else self.observations()
        plan = seen.plan
        for d in defects:
            d.module = d.module or self.settings.name
            d.reproduce = d.reproduce or self.settings.reproduce
        # Known emulator gaps: still listed, marked, warnings unless strict.
        mark_emulator_gaps(
            defects,
            self.emulator.name,
            emulator_version(self.emulator),
            strict=self.settings.strict,
            configuration=plan.raw.get("configuration") if plan else None,
            replaced=[c.address for c in plan.changes if c.action == "replace"] if plan else (),
            model=self._model_facts(defects, seen.applied),
        )
        if self._on_defects is not None:
            self._on_defects(self, defects)
        return defects

    def _model_facts(self, defects: list[Defect], applied: ApplyResult | None) -> ModelFacts | None:
        """What the API's model and the emulator's source say of ``defects`` and of the
        calls ``applied`` made (see :mod:`..emulator.moto_facts`): the evidence of a gap no
        catalogue entry names yet."""
        calls = applied.calls if applied is not None else []
        return model_facts(defects, self.emulator, calls)

    def close(self, keep: bool = False) -> None:
        """Stop the proxies and the provider, and (unless ``keep``) delete the workspace."""
        self.workspace.close(keep)
        self.proxy.stop()
        self.egress_guard.stop()

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Stack {self.settings.name} at {self.workspace.workdir}>"

    @property
    def engine(self) -> dict[str, str]:
        """``{"flavor": "terraform", "version": "1.11.4"}``: the engine every run uses."""
        toolchain = self.workspace.templates.toolchain
        return {"flavor": toolchain.flavor, "version": toolchain.version}

    @property
    def providers(self) -> dict[str, str]:
        """The provider versions init selected, by address (from the lock file)."""
        return self.workspace.template.providers

    @property
    def backend(self) -> dict[str, str | None]:
        """``{"name": "ministack", "version": "1.5.33"}``: the emulator every run uses
        (version None where it cannot be told)."""
        return {"name": self.emulator.name, "version": emulator_version(self.emulator)}

    @property
    def ran_with(self) -> str:
        """``terraform 1.11.4, hashicorp/aws 5.100.0, on moto 5.2.6``: what a failure
        header names."""
        return ran_with(
            {"engine": self.engine, "providers": self.providers, "backend": self.backend}
        )

    def failure_header(self) -> str:
        """``network does not converge [terraform 1.11.4, hashicorp/aws 5.100.0, on moto
        5.2.6]:``."""
        return f"{self.settings.name} does not converge [{self.ran_with}]:"


def _name_emulator_gaps(error: TerraformError, calls: Sequence[Call], emulator: Emulator) -> bool:
    """Put "the moto emulator does not implement `svc:Op`" first in ``error``, and a call
    the emulator refused on a value it does not know (:func:`..emulator.moto_facts.refusal_facts`),
    each a record of its call (service, operation, the resource that made it where known)
    that the error's message shows; True if it put any.

    The provider reports such an answer as a hex dump of an HTML page (or
    retries it until the timeout); the proxy saw the answer and knows the operation.
    """
    name = emulator.name
    served = implements if name == "moto" else None
    notes = unimplemented_notes(calls, name, served) + undecodable_notes(error.diagnostics, name)
    notes += refusal_notes(refusal_facts(emulator, calls))
    if notes:
        error.diagnostics[:] = notes + [
            dataclasses.replace(d, text=_HEX_DUMP.sub(" (an HTML page)", d.text))
            for d in error.diagnostics
        ]
    return bool(notes)


#: A data source's error when what it looks up is not there (aws 3.x and 5.x wordings).
_NOTHING_FOUND = re.compile(
    r"no matching|not found|couldn't find|could not find|does not exist|no \S+( \S+){0,4} found"
    r"|NotFound|NoSuch",
    re.IGNORECASE,
)
#: A data source's address, in the root or a called module (``module.a.data.aws_x.y``).
_DATA_SOURCE = re.compile(r"(^|\.)data\.[a-z0-9_]+\.")


def _name_lookups(error: TerraformError, seeded: bool) -> None:
    """Put a note first in ``error`` for each data source that found nothing: every run
    starts from an emptied emulator, so what a module only reads must be made for it
    (called when no emulator gap explains the error)."""
    lookups = [
        d.address
        for d in error.diagnostics
        if d.address and _DATA_SOURCE.search(d.address) and _NOTHING_FOUND.search(d.text)
    ]
    if not lookups:
        return
    names = ", ".join(dict.fromkeys(lookups))
    why = (
        "the pytest_converge_world hook did not make what it looks up (its name, or its region)"
        if seeded
        else "every run starts from an emptied emulator, so an object a module reads but does "
        "not make is not there: make it in a pytest_converge_world(config, emulator, module) "
        "hook in conftest.py (docs/guides/zero-code.md)"
    )
    error.diagnostics[:0] = [Diagnostic(f"{names} found nothing: {why}", address=lookups[0])]


#: The provider's hex dump of a response body it could not parse.
_HEX_DUMP = re.compile(r"(\s*[0-9a-f]{8}(\s+[0-9a-f]{2}){1,16}\s+\|[^|\n]*\|)+")


def _reattached_provider(
    template: Template, workdir: Path, env: dict[str, str], reattach: bool
) -> ReattachedProvider | None:
    """The Stack's own aws provider process, started now (it is ready by the first run).

    Terraform configures a reattached process once per configuration, so with an
    alias (or a nested module's own provider block) one process would sign every call
    with the last configuration's region. A module with more than one aws provider
    configuration is reattached through the relay, which gives each configuration a
    process of its own (``per_configuration``, see ``terraform/schema_proxy.py``);
    without grpcio it gets terraform's own processes, one per configuration.
    """
    if not reattach or template.provider is None:
        return None
    several = _aws_configurations(template) > 1
    if several and not schema_proxy.available():
        return None
    provider = ReattachedProvider(
        template.provider, cwd=workdir, env=env, per_configuration=several
    )
    provider.start()
    return provider


def _signing_name_of(resource_type: str) -> str | None:
    """The service a resource type's calls are signed for (``aws_sns_topic``: ``sns``)."""
    service = service_of(resource_type)
    return service.signing_name if service is not None else None


def _aws_configurations(template: Template) -> int:
    """How many aws provider configurations a run of the template configures: the
    module's blocks, those of the modules it calls (local and downloaded), and the
    default one the workspace adds when the module has none of its own."""
    added = 0 if any(c.alias is None for c in template.configs) else 1
    return len(template.configs) + sum(map(len, template.nested.values())) + added


def _signal_note(done: Completed) -> list[str]:
    if done.signalled == signal.SIGKILL:
        return ["terraform was killed (SIGKILL) mid-apply by a Crash fault"]
    if done.signalled == signal.SIGINT:
        return ["terraform was interrupted (SIGINT) mid-apply by an Interrupt fault"]
    return []


def _drifted(done: Completed) -> list[str]:
    return [
        e.get("change", {}).get("resource", {}).get("addr", "")
        for e in done.events
        if e.get("type") == "resource_drift"
    ]


def _served_by(address: str, service: str) -> bool:
    """``address`` is of a type ``service`` serves (the rule calls are located by)."""
    return bool(serving([address], service))


class ConvergeFactory(Protocol):
    """The ``converge`` fixture's value: ``converge(module_dir, vars=None) -> Stack``.

    Annotate a test's parameter with it for type checking::

        def test_vpc(converge: ConvergeFactory) -> None:
            converge("modules/vpc", vars={"cidr": "10.0.0.0/16"}).assert_converged()
    """

    def __call__(
        self, module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None
    ) -> Stack: ...
