"""A simulated continuous reconciliation agent over a Stack: writers, cycles, the pause switch.

::

    loop = stack.loop()                       # applies first if the Stack never applied
    loop.writer("autoscaler", lambda cloud: cloud.client("sqs").set_queue_attributes(...))
    report = loop.run(cycles=4)               # writers act, then plan (refresh) + apply
    with loop.paused():                       # cycles plan and report drift, never apply
        loop.console(lambda cloud: ..., name="oncall")
        loop.run(cycles=3)
    report.raise_for_defects()

Each cycle: every writer's ``fn(cloud)`` runs, then the console changes
queued for this cycle, then ``terraform plan -out`` (with refresh) and, when
the plan is not empty and the loop is not paused, ``terraform apply`` of that
plan. An empty plan costs one ``plan``. Writers' clients talk to the Stack's
recording proxy, signed with their own access key; the proxy's record of
which key signed each call is how writers are told apart, never their values.
The analysis of what happened lives in :mod:`pytest_converge.analysis.reconciliation`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from ..analysis.defects import Defect
from ..analysis.plan import Plan, parse_plan
from ..analysis.reconciliation import TERRAFORM, Observation, OutOfBand, analyse, unnoticed_drift
from ..analysis.state import StateResource, state_resources
from ..analysis.stateful import STATEFUL_TYPES
from ..emulator.base import FAKE_ACCESS_KEY, TERRAFORM_ACCESS_KEY, access_key_for, blind_session
from ..errors import ConvergeError, LoopError, TerraformError, WriterError
from ..faults import Call
from ..terraform.runner import IsFlagged, read_json
from .protocol import ScenarioStack, Step
from .results import DEFAULT_ALERT, LoopReport

PLAN_FILE = "converge-loop.tfplan"
#: ``--converge-drift`` kinds: an out-of-band deletion, an out-of-band tag change.
DRIFT_KINDS = ("delete", "modify")
_loops = itertools.count(1)
#: State attributes that identify an object in API calls (matched against a writer's parameters).
_IDENTIFIERS = ("id", "arn", "name", "bucket", "url", "function_name", "table_name")


class Cloud:
    """Emulator clients signed as one writer: ``cloud.client("sqs", region=None)``.

    Its clients talk to the Stack's recording proxy with the writer's own
    access key (:attr:`access_key`), so every call is in the audit trail
    under that writer's name.
    """

    def __init__(self, loop: Loop, name: str) -> None:
        self.name = name
        self.access_key = access_key_for(name)
        self._loop = loop
        self.endpoint = loop.stack.proxy.endpoint

    def client(self, service: str, region: str | None = None) -> Any:
        from botocore.config import Config  # botocore loads in a scenario, not at start-up

        region = region or self._loop.stack.emulator.region
        client = blind_session(self.access_key, region).client(
            service,
            endpoint_url=self.endpoint,
            region_name=region,
            config=Config(
                retries={"max_attempts": 2},
                s3={"addressing_style": "path"},
                proxies={"http": "", "https": ""},
            ),
        )
        client.meta.events.register("before-parameter-build.*.*", self._note)
        return client

    def terraform(self, *args: str, files: dict[str, str] | None = None) -> None:
        """Run terraform as this writer, in a scratch copy of the Stack's workspace.

        The copy has the Stack's state; what it changes is out of band for the
        loop. ``loop.console(lambda cloud: cloud.terraform("destroy",
        "-target=aws_sqs_queue.jobs", "-auto-approve"))`` deletes one object.
        ``files`` adds files (e.g. an ``*_override.tf``) relative to the module.
        """
        targets = {a.partition("=")[2] for a in args if a.startswith("-target=")}
        if targets:
            # Its calls name no object we can read; the -target addresses do.
            self._loop._targets.setdefault(self.access_key, set()).update(targets)
        scratch_terraform(self._loop.stack, self, list(args), files)

    def _note(self, params: dict[str, Any], model: Any, **kwargs: Any) -> None:
        # ``model``: botocore's OperationModel (botocore ships no type information).
        # Which object a call names (a queue URL, a VPC id): matched to state later.
        self._loop._params.append((self.access_key, model.name, _strings(params)))

    def __repr__(self) -> str:
        return f"<Cloud {self.name} ({self.access_key})>"


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


class Loop:
    """A continuous reconciliation agent over ``stack`` (see the module docstring)."""

    def __init__(self, stack: ScenarioStack, *, alert: int | None = None) -> None:
        self.stack = stack
        self.alert = int(alert if alert is not None else DEFAULT_ALERT)
        if self.alert < 1:
            raise LoopError(f"alert={alert!r}: expected a number of cycles >= 1")
        self.id = next(_loops)
        self._writers: list[tuple[str, Callable[[Cloud], Any]]] = []
        self._console: list[tuple[str, Callable[[Cloud], Any]]] = []
        self._paused = False
        self._observations: list[Observation] = []
        self._params: list[tuple[str, str, set[str]]] = []
        self._targets: dict[str, set[str]] = {}
        self._names = {TERRAFORM_ACCESS_KEY: TERRAFORM, FAKE_ACCESS_KEY: "test"}
        #: Each defect as first reported: later reports hand out the same object.
        self._reported: dict[tuple[Any, ...], Defect] = {}
        # Proxy times are monotonic; terraform's events carry wall time.
        self._wall = time.time() - time.monotonic()
        if not stack.workspace.applied:
            stack.apply().raise_for_error()
        self._baseline()

    # -- the contract ----------------------------------------------------------------------
    def writer(self, name: str, fn: Callable[[Cloud], Any]) -> Loop:
        """Another writer: ``fn(cloud)`` runs before every cycle, signed as ``name``."""
        self._check_name(name)
        if any(n == name for n, _ in self._writers):
            raise LoopError(f"a writer named {name!r} is already registered on this loop")
        self._writers.append((name, fn))
        return self

    def console(self, fn: Callable[[Cloud], Any], name: str = "oncall") -> Loop:
        """A one-off out-of-band change: ``fn(cloud)`` runs once, before the next cycle."""
        self._check_name(name)
        self._console.append((name, fn))
        return self

    @contextlib.contextmanager
    def paused(self) -> Iterator[Loop]:
        """Suspend reconciliation: cycles still plan and report drift, never apply."""
        before, self._paused = self._paused, True
        try:
            yield self
        finally:
            self._paused = before

    @property
    def is_paused(self) -> bool:
        return self._paused

    def run(self, cycles: int = 1, interval: float | None = None) -> LoopReport:
        """Run ``cycles`` cycles (``interval`` seconds apart; none by default) and report them.

        Cycle numbers count over the loop's life, so a drift seen in an earlier
        run and reverted in this one is in this run's report, with its whole
        lifetime.
        """
        if cycles < 1:
            raise LoopError(f"cycles={cycles!r}: expected at least 1")
        first = len(self._observations) + 1
        for i in range(cycles):
            if i and interval:
                time.sleep(interval)
            self._observations.append(self._cycle(len(self._observations) + 1))
        return self._report(since=first)

    @property
    def report(self) -> LoopReport:
        """Everything the loop did so far, every cycle."""
        return self._report(since=1)

    def _baseline(self) -> None:
        """Take terraform's own read-back into state before any writer acts.

        Right after an apply, state can lag what a refresh reads (a role's
        inline policies added by another resource, a queue's policy): that is
        not drift anybody made, so it must not be attributed to the first writer.
        """
        done = self.stack.workspace.terraform(
            "apply",
            input=False,
            no_color=IsFlagged,
            refresh_only=IsFlagged,
            auto_approve=IsFlagged,
            parallelism=self.stack.settings.parallelism,
        )
        if done.returncode != 0:
            raise TerraformError(
                done.command,
                done.returncode,
                done.diagnostics(),
                done.stdout + done.stderr,
                str(self.stack.workspace.workdir),
            )

    # -- one cycle -------------------------------------------------------------------------
    def _cycle(self, number: int) -> Observation:
        stack = self.stack
        stack.check_emulator()
        stack.step(Step.LOOP_CYCLE, f"{number}{' (paused)' if self._paused else ''}")
        proxy = stack.proxy
        proxy.clear()
        self._params = []
        self._targets = {}
        started = time.monotonic()
        paused = self._paused
        console, self._console = self._console, []
        for name, fn, once in [
            *((n, f, False) for n, f in self._writers),
            *((n, f, True) for n, f in console),
        ]:
            cloud = Cloud(self, name)
            self._names[cloud.access_key] = name
            try:
                fn(cloud)
            except ConvergeError:
                raise
            except Exception as exc:
                kind = "console change" if once else "writer"
                raise WriterError(
                    f"the {kind} {name!r} failed before cycle {number}: {type(exc).__name__}: {exc}"
                ) from exc
        once_names = {n for n, _ in console}
        plan, plan_error, drift_seen = self._plan()
        applied, apply_error = False, None
        completed: dict[str, Any] = {}
        if not paused and plan_error is None and plan is not None:
            if not plan.is_empty or drift_seen:
                # An empty plan with drift is applied too: it saves the refreshed state.
                applied, apply_error, completed = self._apply()
        calls = proxy.calls
        state = state_resources(stack.workspace.read_state())
        managed = [r for r in state if r.is_managed]
        ours = [c for c in calls if c.access_key == TERRAFORM_ACCESS_KEY]
        observation = Observation(
            number=number,
            paused=paused,
            started=started + self._wall,
            seconds=time.monotonic() - started,
            reads=sum(not c.mutating for c in ours),
            writes=sum(c.mutating for c in ours),
            plan=plan,
            plan_error=plan_error,
            applied=applied,
            apply_error=apply_error,
            completed=completed,
            out_of_band=self._out_of_band(calls, number, managed, once_names),
            read_operations=dict(Counter(c.operation for c in ours if not c.mutating)),
            write_operations=dict(Counter(c.operation for c in ours if c.mutating)),
            resources=len(managed),
            types={r.address: r.type for r in managed},
        )
        return observation

    def _plan(self) -> tuple[Plan | None, str | None, bool]:
        done = self.stack.workspace.terraform(
            "plan",
            input=False,
            no_color=IsFlagged,
            json=IsFlagged,
            detailed_exitcode=IsFlagged,
            out=PLAN_FILE,
            parallelism=self.stack.settings.parallelism,
            ok_codes=(0, 1, 2),
            watch=self.stack.watch.for_command(),  # stuck on one call: TerraformStalled
        )
        if done.returncode not in (0, 2):
            return (
                None,
                "; ".join(d.text for d in done.diagnostics()) or f"plan exit {done.returncode}",
                False,
            )
        drift_seen = any(e.get("type") == "resource_drift" for e in done.events)
        if done.returncode == 0 and not drift_seen:
            return Plan([], [], [], {"complete": True}), None, False
        shown = self.stack.workspace.terraform(
            "show", PLAN_FILE, json=IsFlagged, no_color=IsFlagged, check=True
        )
        return parse_plan(json.loads(shown.stdout)), None, drift_seen

    def _apply(self) -> tuple[bool, str | None, dict[str, float]]:
        done = self.stack.workspace.terraform(
            "apply",
            PLAN_FILE,
            input=False,
            no_color=IsFlagged,
            json=IsFlagged,
            parallelism=self.stack.settings.parallelism,
            watch=self.stack.watch.for_command(),
        )
        completed: dict[str, float] = {}
        for event in done.events:
            if event.get("type") == "apply_complete":
                address = event.get("hook", {}).get("resource", {}).get("addr")
                if address:
                    completed[address] = _wall_time(event.get("@timestamp")) or time.time()
        error = None
        if done.returncode != 0:
            error = "; ".join(d.text for d in done.diagnostics()) or f"apply exit {done.returncode}"
        self.stack.workspace.note_applied()
        return True, error, completed

    def _out_of_band(
        self, calls: list[Call], number: int, managed: list[StateResource], once: set[str]
    ) -> list[OutOfBand]:
        identifiers: dict[str, set[str]] = {}
        for r in managed:
            for key in _IDENTIFIERS:
                value = r.values.get(key)
                if isinstance(value, str) and value:
                    identifiers.setdefault(value, set()).add(r.address)
        params = list(self._params)
        found = []
        for c in calls:
            if c.access_key == TERRAFORM_ACCESS_KEY or not c.mutating or not 200 <= c.status < 400:
                continue
            name = self._names.get(c.access_key or "", f"unknown key {c.access_key}")
            named = next((p for p in params if p[0] == c.access_key and p[1] == c.operation), None)
            targets = set(self._targets.get(c.access_key or "", set()))
            if named is not None:
                params.remove(named)
                for value in named[2]:
                    targets |= identifiers.get(value, set())
                    # A queue URL or an ARN ends with the object's name.
                    tail = value.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                    if tail != value:
                        targets |= identifiers.get(tail, set())
            found.append(
                OutOfBand(
                    writer=name,
                    operation=c.operation,
                    at=c.started + self._wall,
                    cycle=number,
                    access_key=c.access_key,
                    targets=tuple(sorted(targets)),
                    once=name in once,
                )
            )
        return found

    # -- reporting -------------------------------------------------------------------------
    def _report(self, since: int) -> LoopReport:
        stack = self.stack
        analysis = analyse(
            self._observations,
            alert=self.alert,
            module=stack.settings.name,
            scenario="loop",
            since=since,
            stateful=stack.settings.stateful_types or STATEFUL_TYPES,
        )
        new = [d for d in analysis.defects if d.key() not in self._reported]
        for d in new:
            self._reported[d.key()] = d
        if new:
            stack.finish(new)
        defects = [self._reported[d.key()] for d in analysis.defects]
        for d in defects:
            d.module = d.module or stack.settings.name
            d.reproduce = d.reproduce or stack.settings.reproduce
        report = LoopReport(
            stack.settings.name,
            analysis.cycles,
            analysis.drift,
            analysis.flapping,
            defects,
            alert=self.alert,
            out_of_band={
                o.number: [f"{c.operation} by {c.writer}" for c in o.out_of_band]
                for o in self._observations
                if o.number >= since and o.out_of_band
            },
        )
        on_loop = stack.settings.on_loop
        if on_loop is not None:
            on_loop({"loop": self.id, **self.report_dict()})
        return report.watch(stack.seen)

    def report_dict(self) -> dict[str, Any]:
        analysis = analyse(
            self._observations,
            alert=self.alert,
            module=self.stack.settings.name,
            stateful=self.stack.settings.stateful_types or STATEFUL_TYPES,
        )
        return LoopReport(
            self.stack.settings.name,
            analysis.cycles,
            analysis.drift,
            analysis.flapping,
            analysis.defects,
            alert=self.alert,
        ).to_dict()

    def _check_name(self, name: str) -> None:
        if not name or not isinstance(name, str):
            raise LoopError(f"a writer needs a name, got {name!r}")
        if name == TERRAFORM:
            raise LoopError("'terraform' is the loop's own writer; give the other one a name")

    def __repr__(self) -> str:
        cycles = len(self._observations)
        return f"<Loop {self.stack.settings.name} cycles={cycles} paused={self._paused}>"


def _wall_time(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


# -- out-of-band changes by terraform itself (zero-code drift items) ---------------------------


def scratch_terraform(
    stack: ScenarioStack, cloud: Cloud, args: list[str], files: dict[str, str] | None = None
) -> None:
    """Run terraform in a scratch copy of ``stack``'s workspace, signed as ``cloud``'s writer.

    The copy has the Stack's state and endpoint; its changes are never written
    back, so to the Stack they are out-of-band. ``files`` maps paths (relative
    to the workspace's module dir) to extra file contents (override files).
    """
    workspace = stack.workspace
    template = workspace.template
    scratch = Path(tempfile.mkdtemp(prefix="converge-console-", dir=workspace.root.parent))
    try:
        root = scratch / "ws"
        shutil.copytree(workspace.root, root, symlinks=True)
        workdir = root / template.subdir
        (workdir / PLAN_FILE).unlink(missing_ok=True)
        template.point(workdir, stack.proxy.endpoint, cloud.access_key)
        for rel, text in (files or {}).items():
            path = workdir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        runner = workspace.runner_for(workdir, scratch, guarded=False)
        name, *rest = args
        runner.run(name, *rest, input=False, no_color=IsFlagged, check=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def delete_out_of_band(stack: ScenarioStack, address: str) -> Callable[[Cloud], None]:
    """A console change deleting ``address`` (``terraform destroy -target`` in a scratch copy)."""

    def change(cloud: Cloud) -> None:
        cloud.terraform("destroy", f"-target={address}", "-auto-approve")

    return change


#: The tag a drift-modify scenario sets out of band.
DRIFT_TAG = "converge-drift"


def modify_out_of_band(stack: ScenarioStack, address: str) -> Callable[[Cloud], None]:
    """A console change setting a tag on ``address`` (``apply -target`` of an override)."""
    rtype, rname, module_dir = _resource_location(stack, address)
    text = (
        "# Written by pytest-converge: an out-of-band tag change (drift-modify).\n"
        f'resource "{rtype}" "{rname}" {{\n  tags = {{\n    "{DRIFT_TAG}" = "console"\n  }}\n}}\n'
    )

    def change(cloud: Cloud) -> None:
        cloud.terraform(
            "apply",
            f"-target={address}",
            "-auto-approve",
            files={f"{module_dir}/converge_drift_override.tf": text},
        )

    return change


def _resource_location(stack: ScenarioStack, address: str) -> tuple[str, str, str]:
    """(type, name, module dir relative to the workspace) of a resource address."""
    parts = _split_address(address)
    modules = [p for p in parts[:-1]]
    rtype, _, rname = parts[-1].partition(".")
    rname = rname.split("[", 1)[0]
    if not modules:
        return rtype, rname, "."
    key = ".".join(m.split("[", 1)[0].removeprefix("module.") for m in modules)
    manifest = read_json(stack.workspace.workdir / ".terraform" / "modules" / "modules.json")
    for entry in manifest.get("Modules") or []:
        if entry.get("Key") == key:
            return rtype, rname, entry.get("Dir") or "."
    raise ConvergeError(f"cannot find the directory of module {key!r} (for {address})")


def _split_address(address: str) -> list[str]:
    """``module.a["x"].aws_s3_bucket.b`` -> ``['module.a["x"]', 'aws_s3_bucket.b']``."""
    parts: list[str] = []
    rest = address
    while rest.startswith("module."):
        depth, i = 0, len("module.")
        while i < len(rest):
            ch = rest[i]
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
            elif ch == "." and depth == 0:
                break
            i += 1
        parts.append(rest[:i])
        rest = rest[i + 1 :]
    parts.append(rest)
    return parts


def drift_scenario(
    stack: ScenarioStack, kind: str, address: str, alert: int | None = None
) -> LoopReport:
    """``drift-<kind>@<address>``: change ``address`` out of band, let the loop repair it.

    From an empty emulator and state: apply, then ``console`` deletes the
    object (``delete``) or changes a tag (``modify``), then the loop runs until
    a cycle after the repair converges (at least 2 cycles, at most the alert
    threshold + 1). Adds ``unnoticed-drift`` when no plan saw it.
    """
    if kind not in DRIFT_KINDS:
        raise LoopError(f"unknown drift kind {kind!r}: expected one of {', '.join(DRIFT_KINDS)}")
    stack.fresh_start()
    stack.apply().raise_for_error()
    loop = Loop(stack, alert=stack.settings.loop_alert if alert is None else alert)
    change = delete_out_of_band if kind == "delete" else modify_out_of_band
    loop.console(change(stack, address), name="console")
    loop.run(cycles=2)
    while not loop.report.cycles[-1].converged and len(loop.report.cycles) <= loop.alert:
        loop.run(cycles=1)
    report = loop.report
    first = report.cycles[0]
    noticed = address in first.changed or any(e.address == address for e in report.drift)
    flagged = any(d.kind == "unnoticed-drift" and d.address == address for d in report.defects)
    if not noticed and not flagged:
        calls = report.out_of_band.get(first.number, [])
        defect, _ = unnoticed_drift(
            address,
            "console",
            calls,
            [c.number for c in report.cycles],
            stack.settings.name,
            f"drift-{kind}@{address}",
            change="deleted" if kind == "delete" else f"modified (tag {DRIFT_TAG})",
        )
        report.defects.append(defect)
        stack.finish([defect])
    for d in report.defects:
        d.scenario = f"drift-{kind}@{address}"
    return report
