"""Continuous reconciliation, for real: terraform + moto, writers signed with their own keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge import ConvergenceError

MODULES = Path(__file__).resolve().parents[1] / "modules"
QUEUE = str(MODULES / "loop_queue")


def _timeout(cloud, url: str) -> str:
    attrs = cloud.client("sqs").get_queue_attributes(
        QueueUrl=url, AttributeNames=["VisibilityTimeout"]
    )
    return attrs["Attributes"]["VisibilityTimeout"]


def test_two_writers_on_one_field_flap(converge):
    stack = converge(QUEUE)
    loop = stack.loop()
    url = stack.outputs()["queue_url"]

    def autoscaler(cloud):
        cloud.client("sqs").set_queue_attributes(
            QueueUrl=url, Attributes={"VisibilityTimeout": "120"}
        )

    loop.writer("autoscaler", autoscaler)
    report = loop.run(cycles=4)
    print(report.text())
    assert [f.attribute for f in report.flapping] == ["visibility_timeout_seconds"]
    flap = report.flapping[0]
    assert flap.address == "aws_sqs_queue.work"
    assert flap.values == [60, 120]
    assert flap.writers == ["terraform", "autoscaler"]
    assert flap.cycles == [1, 2, 3, 4]
    assert [d.kind for d in report.defects] == ["flapping"]
    assert all(e.by == "autoscaler" for e in report.drift)
    assert [c.writes for c in report.cycles] == [1, 1, 1, 1]
    with pytest.raises(ConvergenceError, match="autoscaler"):
        report.raise_for_defects()
