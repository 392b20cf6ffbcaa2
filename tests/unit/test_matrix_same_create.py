"""A crash later in one create shares the verdict of the crash at its first call, where the
rule of :func:`pytest_converge.run.matrix.same_create` proves the two cannot differ.

The walk is plain data; the decisions run on a Stack whose runs are told (no terraform,
no emulator): which points ran, and what each verdict holds.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.errors import FaultError
from pytest_converge.faults import Fault, parse_fault
from pytest_converge.run import matrix
from pytest_converge.run.matrix import Verdict, changes_only, same_create
from pytest_converge.run.results import Observations

SG = "aws_security_group.app"
CREATE = f"CreateSecurityGroup#1@{SG}"
REVOKE1 = f"RevokeSecurityGroupEgress#1@{SG}"
REVOKE2 = f"RevokeSecurityGroupEgress#2@{SG}"
AUTHORIZE = f"AuthorizeSecurityGroupIngress#1@{SG}"
VPC = "CreateVpc#1@aws_vpc.main"
WALK = [VPC, CREATE, REVOKE1, REVOKE2, AUTHORIZE]


def _crashes(*points: str) -> list[Fault]:
    return [parse_fault(f"crash@{p}") for p in points]


def test_the_later_calls_of_a_create_follow_the_crash_at_its_first_call() -> None:
    faults = _crashes(*WALK)
    assert same_create(faults, WALK) == {
        f"crash@{REVOKE1}": f"crash@{CREATE}",
        f"crash@{REVOKE2}": f"crash@{CREATE}",
        f"crash@{AUTHORIZE}": f"crash@{CREATE}",
    }


def test_only_crashes_follow_and_only_a_crash_at_the_first_call_leads() -> None:
    # A lost response or an error at a later call is another outcome (the SDK's retry).
    lost = [parse_fault(f"lost-response@{p}") for p in WALK]
    assert same_create(lost, WALK) == {}
    # Without the create's own crash among the points, nothing decides the later ones.
    assert same_create(_crashes(REVOKE1, AUTHORIZE), WALK) == {}


def test_a_call_that_makes_or_removes_an_object_ends_the_row() -> None:
    # After a CreateRoute-like call the crash leaves a second object: the row stops there.
    walk = [
        "CreateRouteTable#1@aws_route_table.a",
        "CreateTags#1@aws_route_table.a",
        "CreateRoute#1@aws_route_table.a",
        "ModifyRouteTable#1@aws_route_table.a",
    ]
    assert same_create(_crashes(*walk), walk) == {
        "crash@CreateTags#1@aws_route_table.a": "crash@CreateRouteTable#1@aws_route_table.a"
    }


def test_a_resource_whose_calls_are_not_in_a_row_shares_nothing() -> None:
    # Another resource's call between two of its calls: the apply was not one at a time.
    walk = [CREATE, VPC, REVOKE1]
    assert same_create(_crashes(*walk), walk) == {}
    # A walk of unpinned points tells no resource.
    assert same_create(_crashes("CreateVpc#1", "ModifyVpcAttribute#1"), ["CreateVpc#1"]) == {}


def test_changes_only_reads_the_verb() -> None:
    assert changes_only("ModifyVpcAttribute") and changes_only("AuthorizeSecurityGroupIngress")
    assert changes_only("CreateTags") and changes_only("TagResource")
    assert not changes_only("CreateRoute") and not changes_only("PutRolePolicy")
    assert not changes_only("DeleteSecurityGroup") and not changes_only("Modifying")


class _Stack:
    """What :func:`matrix.decisions` uses of a Stack when every point runs alone."""

    ran_with = "terraform (told)"

    def __init__(self, parallelism: int | None = None) -> None:
        self.settings = SimpleNamespace(name="mods/net", parallelism=parallelism)

    def finish(self, defects: list[Defect], observed: Observations | None = None) -> list[Defect]:
        return defects


def _failed_recovery(label: str, objects: list[str]) -> Defect:
    return Defect(
        kind="recovery-failed",
        address=SG,
        scenario=label,
        scenario_at=len("after "),
        objects=objects,
        message=f"after {label} the clean re-run failed: InvalidGroup.Duplicate",
    )


@pytest.fixture
def alone(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], dict[str, Any]]:
    """Each point run alone is recorded; its verdict is told by ``verdicts[label]``."""
    ran: list[str] = []
    told: dict[str, Any] = {}

    def run_alone(
        stack: Any, fault: Fault, run: int, started: float
    ) -> tuple[Verdict, Observations]:
        ran.append(fault.label)
        made = told.get(fault.label, [])
        if isinstance(made, Exception):
            return Verdict(fault.label, [], run, (fault.label,), error=made), Observations()
        return Verdict(fault.label, list(made), run, (fault.label,), 1.0, SG), Observations()

    monkeypatch.setattr(matrix, "_alone", run_alone)
    # Each point in a group of its own, in the order given (a group's run needs a Stack).
    monkeypatch.setattr(matrix, "_first_groups", lambda faults, rank: [[f] for f in faults])
    return ran, told


def test_a_create_that_left_its_object_decides_its_later_crashes(
    alone: tuple[list[str], dict[str, Any]],
) -> None:
    ran, told = alone
    leader, later = _crashes(CREATE, AUTHORIZE)
    told[leader.label] = [_failed_recovery(leader.label, ["sg-1"])]

    verdicts = matrix.decide(_Stack(), [leader, later], order=WALK)

    assert ran == [leader.label]
    shared = verdicts[later.label]
    assert shared.shares == leader.label and shared.shared and shared.failed
    assert [(d.kind, d.address, d.scenario) for d in shared.defects] == [
        ("recovery-failed", SG, later.label)
    ]
    assert shared.defects[0].message.startswith(f"after {later.label} the clean re-run failed")
    assert verdicts[leader.label].defects[0].scenario == leader.label


@pytest.mark.parametrize(
    "leader_found",
    [
        pytest.param([], id="passed"),
        pytest.param([_failed_recovery("x", [])], id="no-object-joined"),
        pytest.param(
            [_failed_recovery("x", ["sg-1"]), Defect(kind="duplicate", address=SG)],
            id="another-error",
        ),
        pytest.param(FaultError("never fired"), id="not-run"),
    ],
)
def test_later_crashes_run_when_the_create_did_not_fail_on_its_object(
    alone: tuple[list[str], dict[str, Any]], leader_found: Any
) -> None:
    ran, told = alone
    leader, later = _crashes(CREATE, AUTHORIZE)
    told[leader.label] = leader_found

    verdicts = matrix.decide(_Stack(), [leader, later], order=WALK)

    assert ran == [leader.label, later.label]
    assert verdicts[later.label].shares is None


def test_nothing_is_shared_when_applies_run_in_parallel(
    alone: tuple[list[str], dict[str, Any]],
) -> None:
    ran, told = alone
    leader, later = _crashes(CREATE, AUTHORIZE)
    told[leader.label] = [_failed_recovery(leader.label, ["sg-1"])]

    matrix.decide(_Stack(parallelism=4), [leader, later], order=WALK)

    assert ran == [leader.label, later.label]
