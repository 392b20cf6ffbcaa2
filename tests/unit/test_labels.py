"""Fault points and scenario labels are read by one parser (analysis/labels.py)."""

from __future__ import annotations

import pytest

from pytest_converge.analysis.labels import FaultPoint, Label
from pytest_converge.plugin.collect.points import ordered


def test_a_point_reads_and_writes_back() -> None:
    point = FaultPoint.parse('PutRolePolicy#2@aws_iam_role_policy.p["a"]')
    assert point == FaultPoint("PutRolePolicy", 2, 'aws_iam_role_policy.p["a"]')
    assert str(point) == 'PutRolePolicy#2@aws_iam_role_policy.p["a"]'
    assert FaultPoint.parse("CreateVpc#1") == FaultPoint("CreateVpc", 1)
    assert str(FaultPoint("CreateVpc", 1)) == "CreateVpc#1"


@pytest.mark.parametrize("text", ["CreateVpc", "CreateVpc#", "CreateVpc#x@a.b", "#1@a.b"])
def test_what_is_not_a_point_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a fault point"):
        FaultPoint.parse(text)


def test_labels_of_every_item_kind() -> None:
    crash = Label.parse("crash@CreateQueue#1@aws_sqs_queue.jobs")
    assert (crash.kind, crash.point, crash.address) == (
        "crash", FaultPoint("CreateQueue", 1, "aws_sqs_queue.jobs"), "aws_sqs_queue.jobs",
    )  # fmt: skip
    throttled = Label.parse("throttle@CreateQueue#1@aws_sqs_queue.jobs:times=5")
    assert throttled.point == FaultPoint("CreateQueue", 1, "aws_sqs_queue.jobs")
    drift = Label.parse("drift-delete@aws_sqs_queue.q")
    assert (drift.kind, drift.point, drift.target, drift.address) == (
        "drift-delete", None, "aws_sqs_queue.q", "aws_sqs_queue.q",
    )  # fmt: skip
    assert Label.parse("upgrade-from@v1.2.0").target == "v1.2.0"
    assert Label.parse("two-run") == Label("two-run")


def test_points_sort_by_operation_resource_and_call() -> None:
    points = ["CreateRule#1@r[10]", "CreateRule#2@r[2]", "CreateRule#1@r[2]", "AddTags#1@r[2]"]
    assert ordered(points) == [
        "AddTags#1@r[2]", "CreateRule#1@r[2]", "CreateRule#2@r[2]", "CreateRule#1@r[10]",
    ]  # fmt: skip
