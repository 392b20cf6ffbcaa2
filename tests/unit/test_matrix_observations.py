"""A grouped verdict is judged on its own run's observations, not on the Stack's last run.

``matrix.decide`` runs a clean apply (``_without_faults``) between a group's run and its
verdicts when a finding names no fired point. The verdicts' ``Stack.finish`` (known and
suspected emulator gaps: the plan's configuration, its replaced addresses, the calls of
the apply) must see the group's run. The Stack here is the real one, judging as it
does; only its runs are told instead of made (no terraform, no emulator).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.plan import Plan, ResourceChange
from pytest_converge.analysis.preflight import Preflight
from pytest_converge.faults import Fault, parse_fault
from pytest_converge.run import matrix
from pytest_converge.run import stack as stack_module
from pytest_converge.run.protocol import RunSettings
from pytest_converge.run.results import ApplyResult
from pytest_converge.run.served_part import ServedPart
from pytest_converge.run.stack import Stack
from pytest_converge.run.touched import Touched
from pytest_converge.run.worlds import CleanWorlds

VPC = "lost-response@CreateVpc#1@aws_vpc.a"
SUBNET = "lost-response@CreateSubnet#1@aws_subnet.b"


class _Emulator:
    name = "moto"
    version = "5.2.5"
    region = "us-east-1"

    def is_alive(self) -> bool:
        return True


def _plan(run: str) -> Plan:
    """A second plan of ``run``: its configuration and one replaced resource say whose."""
    replaced = ResourceChange(
        f"aws_instance.{run}", "aws_instance", run, "managed", "aws", ("delete", "create"), {}, {}
    )
    return Plan([replaced], [], [], {"configuration": {"run": run}})


def _module_diff() -> Defect:
    """The module's own finding, whatever the fault: a run without faults finds it too."""
    return Defect(
        kind="permanent-diff",
        address="aws_s3_bucket.c",
        attribute="tags",
        declared={"a": "1"},
        observed={},
        message="aws_s3_bucket.c.tags never converges",
    )


class _Workspace:
    """A workspace no run writes to: its state is empty, whether applied is told."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.variables: dict[str, Any] = {}
        self.applied = False

    def read_state(self) -> dict[str, Any]:
        return {}


class ToldStack(Stack):
    """The real Stack's judging, over runs told rather than made."""

    def __init__(self, workdir: Path) -> None:  # no copy of a module, proxy, provider
        self.settings = RunSettings(name="mods/net")
        self.emulator = _Emulator()  # type: ignore[assignment]
        self.workspace = _Workspace(workdir)  # type: ignore[assignment]
        # Nothing is listed: the runs are told, no object is made.
        self.touched = Touched(self.emulator, workdir, (), listers=lambda emulator: [])
        self.last_apply: ApplyResult | None = None
        self.last_plan: Plan | None = None
        self._on_defects = None
        self.runs: list[str] = []
        self.applies: list[ApplyResult] = []
        self.reports: list[Any] = []
        self._on_seen = None
        self.parallelism = None
        self.worlds = CleanWorlds(self, ())  # the emulator has no world() to compare
        self.served = ServedPart(self, Preflight())  # the backend serves all of it
        self.seeded = False  # no pytest_converge_world hook: the runs start from nothing

    @property
    def ran_with(self) -> str:
        return "terraform (told)"

    def step(self, step: Any, detail: str = "") -> None:
        pass

    def fresh_start(self) -> None:
        self.runs.append(f"run {len(self.runs) + 1}")
        self.workspace.applied = False
        self.last_apply = None

    def check_emulator(self) -> None:
        pass

    def cut_since_start(self) -> list[str]:
        return []

    def take_run_findings(self, scenario: str) -> list[Defect]:
        return []

    def apply(
        self,
        faults: Sequence[Fault] | Fault | None = None,
        *,
        refresh: bool = True,
        targets: Sequence[str] = (),
        clean: Any = None,
    ) -> ApplyResult:
        armed = [faults] if isinstance(faults, Fault) else list(faults or [])
        result = ApplyResult(ok=True, error=None, seconds=0.0, fired=armed)
        self.applies.append(result)
        self.last_apply, self.workspace.applied = result, True
        return result

    def second_plan_defects(self, scenario: str, cut: Collection[str] = ()) -> list[Defect]:
        self.last_plan = _plan(self.runs[-1])
        return [_module_diff()]


@pytest.fixture
def evidence(monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, Any]], list[object]]:
    """What ``Stack.finish`` judged by: the arguments of each gap marking, and the calls
    each model lookup was given."""
    marked: list[dict[str, Any]] = []
    facts_of: list[object] = []

    def mark_emulator_gaps(defects: list[Defect], *args: Any, **kwargs: Any) -> None:
        marked.append(kwargs)

    def model_facts(defects: list[Defect], emulator: object, calls: object) -> None:
        facts_of.append(calls)

    monkeypatch.setattr(stack_module, "mark_emulator_gaps", mark_emulator_gaps)
    monkeypatch.setattr(stack_module, "model_facts", model_facts)
    return marked, facts_of


def test_a_grouped_verdicts_evidence_comes_from_its_own_run(
    tmp_path: Path, evidence: tuple[list[dict[str, Any]], list[object]]
) -> None:
    marked, facts_of = evidence
    stack = ToldStack(tmp_path)

    verdicts = matrix.decide(stack, [parse_fault(VPC), parse_fault(SUBNET)], order=[VPC, SUBNET])

    # The group's finding named no point: a run without faults ran after it, and said
    # the finding is the module's own, so each point's verdict has it.
    assert [len(stack.applies), stack.runs] == [3, ["run 1", "run 2"]]
    group_rerun = stack.applies[1]
    assert sorted(verdicts) == sorted([VPC, SUBNET])
    assert all([d.kind for d in v.defects] == ["permanent-diff"] for v in verdicts.values())
    # Each verdict was judged on the group's run: its second plan, its last apply's calls.
    assert [m["configuration"] for m in marked] == [{"run": "run 1"}] * 2
    assert [list(m["replaced"]) for m in marked] == [["aws_instance.run 1"]] * 2
    assert all(calls is group_rerun.calls for calls in facts_of) and len(facts_of) == 2


def test_a_recovery_is_judged_on_its_first_run_not_its_replay(
    tmp_path: Path, evidence: tuple[list[dict[str, Any]], list[object]]
) -> None:
    marked, facts_of = evidence
    stack = ToldStack(tmp_path)

    report = stack.recover(VPC)  # an error: replayed, and the replay is the Stack's last run

    assert stack.runs == ["run 1", "run 2"] and not report.flaky
    assert [m["configuration"] for m in marked] == [{"run": "run 1"}]
    assert facts_of == [stack.applies[1].calls] and facts_of[0] is stack.applies[1].calls
    assert report.plan is not None and report.plan.raw["configuration"] == {"run": "run 1"}
