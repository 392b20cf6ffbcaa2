"""The grouped matrix's runs end: no group of points runs twice.

The decisions run on a Stack whose group runs are told (no terraform, no emulator):
which points each group run fires, and what it finds.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pytest_converge.analysis.attribution import Attribution
from pytest_converge.analysis.defects import Defect
from pytest_converge.faults import Fault, parse_fault
from pytest_converge.run import matrix
from pytest_converge.run.matrix import Verdict
from pytest_converge.run.results import Observations

GROUP = "aws_autoscaling_group.this"
#: The first point fails the group's create; the others are later calls of it, so they
#: never fire while it is armed (a lost response at the create: "already exists").
POINTS = [
    f"lost-response@CreateAutoScalingGroup#1@{GROUP}",
    f"lost-response@PutLifecycleHook#1@{GROUP}",
    f"lost-response@PutScalingPolicy#1@{GROUP}",
    f"lost-response@PutScheduledUpdateGroupAction#1@{GROUP}",
]


class _Stack:
    ran_with = "terraform (told)"

    def __init__(self) -> None:
        self.settings = SimpleNamespace(name="mods/asg", parallelism=None)

    def finish(self, defects: list[Defect], observed: Observations | None = None) -> list[Defect]:
        return defects


class _Scenario:
    """A group run told by the test: the first of its points fires, the rest do not."""

    def __init__(self, stack: Any, faults: list[Fault], *args: Any, **kwargs: Any) -> None:
        self.faults = list(faults)
        self.progress = ""

    def unfired(self) -> list[Fault]:
        return self.faults[1:]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every run, by its points; each group run finds an orphan no point accounts for."""
    ran: list[tuple[str, ...]] = []

    def run_group(scenario: Any, clean: Any, own: Any, run: int, started: float) -> Any:
        ran.append(tuple(f.label for f in scenario.faults))
        if len(ran) > 4 * len(POINTS):
            raise AssertionError(f"the runs do not end: {ran[-3:]}")
        fired = {scenario.faults[0].label: GROUP}
        orphan = Defect(kind="orphan", address=None, message="an instance no state tracks")
        shared = Attribution(unattributed=[orphan])
        return matrix._GroupRun("told", SimpleNamespace(), fired, shared, 1.0)

    def run_alone(
        stack: Any, fault: Fault, run: int, started: float
    ) -> tuple[Verdict, Observations]:
        ran.append((fault.label,))
        return Verdict(fault.label, [], run, (fault.label,), 1.0, GROUP), Observations()

    monkeypatch.setattr(matrix, "GroupScenario", _Scenario)
    monkeypatch.setattr(matrix, "_run_group", run_group)
    monkeypatch.setattr(matrix, "_alone", run_alone)
    return ran


def test_a_run_that_fires_one_point_and_finds_what_none_accounts_for_does_not_repeat(
    runs: list[tuple[str, ...]],
) -> None:
    verdicts = matrix.decide(_Stack(), [parse_fault(p) for p in POINTS])

    assert set(verdicts) == set(POINTS)
    groups = [r for r in runs if len(r) > 1]
    assert len(groups) == len(set(groups)), runs  # no group of points ran twice
    assert len(runs) <= 2 * len(POINTS), runs
    # The one point that fired runs alone next, apart from the points that did not.
    assert runs[:2] == [tuple(POINTS), (POINTS[0],)]


def test_a_group_made_again_runs_its_points_alone() -> None:
    faults = [parse_fault(p) for p in POINTS]
    later = matrix._then([[faults[0]], []], faults[1:], len(faults), split=True)
    assert later == [[faults[0]], faults[1:]]
    merged = matrix._then([[faults[0]]], faults[1:], len(faults))
    assert merged == [[*faults[1:], faults[0]]]
