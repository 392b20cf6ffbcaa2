"""Continuous reconciliation, for real: terraform + moto, writers signed with their own keys."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    # The loop runs on 5.x in the next test (one 5.x leg per claim keeps the suite short).
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


@dataclass(frozen=True)
class _Fixed:
    """What the console-fix test changes out of band: the module, the field and its
    declared and fixed values, and how the on-call engineer changes and reads it."""

    module: str
    address: str
    declared: object
    fixed: object
    fix: Callable[[Any, dict[str, Any]], object]
    read: Callable[[Any, dict[str, Any]], object]
    #: Attributes the fix changes as a consequence (a parameter's ``version``).
    follows: tuple[str, ...] = ()

    def events(self, report: Any) -> list[Any]:
        return [e for e in report.drift if e.attribute not in self.follows]


_QUEUE_FIX = _Fixed(
    QUEUE,
    "aws_sqs_queue.work",
    60,
    300,
    lambda cloud, out: cloud.client("sqs").set_queue_attributes(
        QueueUrl=out["queue_url"], Attributes={"VisibilityTimeout": "300"}
    ),
    lambda cloud, out: int(_timeout(cloud, out["queue_url"])),
)
#: On provider 5.x every SQS create or write then waits about 25 s for the queue's
#: attributes to read back unchanged 6 times (its own waiter, on AWS too), so the 5.x
#: leg of this claim fixes a parameter instead: the same loop, minutes less.
_PARAMETER_FIX = _Fixed(
    str(MODULES / "loop_parameter"),
    "aws_ssm_parameter.timeout",
    "60",
    "300",
    lambda cloud, out: cloud.client("ssm").put_parameter(
        Name=out["parameter_name"], Value="300", Type="String", Overwrite=True
    ),
    lambda cloud, out: cloud.client("ssm").get_parameter(Name=out["parameter_name"])["Parameter"][
        "Value"
    ],
    follows=("version",),
)


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_console_fix_survives_the_pause_and_is_reverted_after_resume(converge, provider_line):
    target = _QUEUE_FIX if provider_line.name == "3.39" else _PARAMETER_FIX
    stack = converge(provider_line.pin(target.module))
    loop = stack.loop()
    outputs = stack.outputs()

    def emergency_fix(cloud):
        target.fix(cloud, outputs)

    with loop.paused():
        loop.console(emergency_fix, name="oncall")
        paused = loop.run(cycles=3)
        for _ in paused.cycles:
            pass
    paused_end = time.time()
    assert [c.paused for c in paused.cycles] == [True, True, True]
    assert [c.writes for c in paused.cycles] == [0, 0, 0]
    assert all(c.changed == [target.address] for c in paused.cycles)
    [event] = target.events(paused)
    assert (event.by, event.detected_cycle, event.reverted_cycle) == ("oncall", 1, None)
    assert event.expected == target.declared and event.found == target.fixed
    assert not paused.defects  # a paused loop is not a loop that fails to converge

    resumed = loop.run(cycles=1)
    [event] = target.events(resumed)
    assert (event.detected_cycle, event.reverted_cycle) == (1, 4)
    assert event.lifetime_cycles == 4
    # It lived from the fix's call (in the first paused cycle, after that cycle's start)
    # past the end of the paused cycles.
    assert event.at is not None and event.lifetime_seconds > paused_end - event.at
    assert resumed.cycles[0].writes == 1
    assert target.read(loop_cloud(loop), outputs) == target.declared
    assert "reverted in cycle 4" in resumed.text()


def test_codified_fix_is_kept_after_resume(converge):
    stack = converge(QUEUE)
    loop = stack.loop()
    url = stack.outputs()["queue_url"]

    def emergency_fix(cloud):
        cloud.client("sqs").set_queue_attributes(
            QueueUrl=url, Attributes={"VisibilityTimeout": "300"}
        )

    with loop.paused():
        loop.console(emergency_fix)
        loop.run(cycles=2)
        stack.reconfigure({"visibility_timeout": 300})  # the fix lands in code
    report = loop.run(cycles=2)
    assert [c.writes for c in report.cycles] == [0, 0]
    assert report.cycles[-1].converged
    [event] = report.drift
    assert event.by == "oncall" and event.reverted_cycle is None and event.outcome == "kept"
    assert _timeout(loop_cloud(loop), url) == "300"
    assert stack.plan().is_empty
    report.raise_for_defects()


def test_permanent_diff_is_not_converging_after_the_alert_threshold(converge, examples):
    stack = converge(examples / "permanent_diffs")
    loop = stack.loop(alert=3)
    early = loop.run(cycles=2)
    assert not early.defects and not any(c.converged for c in early.cycles)
    report = loop.run(cycles=1)
    [defect] = [d for d in report.defects if d.kind == "not-converging"]
    assert "3 consecutive cycles" in defect.message
    assert defect.address in report.cycles[0].changed
    assert all(c.writes > 0 for c in report.cycles)
    with pytest.raises(ConvergenceError, match="not-converging"):
        report.raise_for_defects()


def loop_cloud(loop):
    from pytest_converge.run.loop import Cloud

    return Cloud(loop, "test-reader")


def test_steady_network_loop_makes_no_writes(converge, examples):
    stack = converge(examples / "network")
    loop = stack.loop()
    report = loop.run(cycles=10)
    assert [c.number for c in report.cycles] == list(range(1, 11))
    assert [c.writes for c in report.cycles[1:]] == [0] * 9
    assert all(c.converged and not c.applied for c in report.cycles)
    assert report.drift == [] and report.defects == []
    # The rate-limit budget: every read is terraform's refresh, the same each cycle.
    assert report.cycles[0].resources == 7
    assert len({c.reads for c in report.cycles}) == 1 and report.cycles[0].reads >= 7
    assert report.cycles[0].read_operations["DescribeVpcs"] >= 1


def test_writer_names_are_checked(converge):
    from pytest_converge.emulator.base import TERRAFORM_ACCESS_KEY

    stack = converge(QUEUE)
    loop = stack.loop()
    assert {c.access_key for c in stack.last_apply.calls} == {TERRAFORM_ACCESS_KEY}
    with pytest.raises(ValueError, match="loop's own writer"):
        loop.writer("terraform", lambda cloud: None)
    loop.writer("autoscaler", lambda cloud: None)
    with pytest.raises(ValueError, match="already registered"):
        loop.writer("autoscaler", lambda cloud: None)


def test_failing_writer_is_named(converge):
    from pytest_converge.run.loop import WriterError

    stack = converge(QUEUE)
    loop = stack.loop()

    def broken(cloud):
        cloud.client("sqs").get_queue_url(QueueName="no-such-queue")

    loop.console(broken, name="oncall")
    with pytest.raises(WriterError, match="console change 'oncall' failed before cycle 1"):
        loop.run(cycles=1)


def test_revert_that_would_replace_a_bucket_is_destructive(converge):
    stack = converge(MODULES / "loop_bucket")
    loop = stack.loop()

    def enable_object_lock(cloud):
        cloud.client("s3").put_object_lock_configuration(
            Bucket="loop-records", ObjectLockConfiguration={"ObjectLockEnabled": "Enabled"}
        )

    with loop.paused():  # look at what the loop would do before letting it
        loop.console(enable_object_lock, name="oncall")
        report = loop.run(cycles=1)
    [cycle] = report.cycles
    assert cycle.changed == ["aws_s3_bucket.records"] and cycle.writes == 0
    [defect] = report.defects
    assert defect.kind == "destructive-correction"
    assert defect.address == "aws_s3_bucket.records"
    assert defect.attribute.startswith("object_lock_configuration")
    assert "would replace aws_s3_bucket.records" in defect.message
    assert "prevent_destroy" in defect.fix
    [event] = report.drift
    assert event.by == "oncall" and event.address == "aws_s3_bucket.records"
    with pytest.raises(ConvergenceError, match="destructive-correction"):
        report.raise_for_defects()
