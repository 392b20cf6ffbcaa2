"""The grouped fault matrix as users run it: the same items, ids, -k, reproduce lines, xdist.

``tests/modules/four_queues`` has four independent queues (two with a ``name_prefix``:
a crash after their CreateQueue leaves a second queue) and ``vpc_and_subnet`` a VPC
and a subnet (a lost CreateVpc leaves a duplicate VPC; a crash after CreateSubnet
cannot be re-run, its CIDR taken). Real terraform, moto.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

MODULES = Path(__file__).resolve().parent / "modules"
#: Records on which xdist worker each test ran (the controller sees it on the report).
WORKER_CONFTEST = """
import json, os

def pytest_runtest_logreport(report):
    node = getattr(report, "node", None)
    if report.when == "call" and node is not None:
        with open("workers.jsonl", "a") as out:
            out.write(json.dumps([report.nodeid, node.gateway.id]) + "\\n")
"""


def _run(
    pytester: pytest.Pytester,
    *args: str,
    modules: tuple[str, ...] = ("four_queues", "vpc_and_subnet"),
) -> tuple[pytest.RunResult, dict]:
    for name in modules:
        if not (pytester.path / "mods" / name).exists():
            shutil.copytree(MODULES / name, pytester.path / "mods" / name)
    report = pytester.path / "report.json"
    report.unlink(missing_ok=True)
    result = pytester.runpytest_subprocess(
        "--converge", "mods", "--converge-faults=lost-response,crash", "-p", "no:cacheprovider",
        f"--converge-report={report}", "--junitxml=junit.xml", *args,
    )  # fmt: skip
    return result, json.loads(report.read_text())


def _verdicts(data: dict) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    found = {}
    for s in data["scenarios"]:
        errors = sorted(
            (d["kind"], d["address"])
            for d in data["defects"]
            if d["scenario"] == s["scenario"] and d["module"] == s["module"]
            and d["severity"] == "error"
        )  # fmt: skip
        found[f"{s['module']}::{s['scenario']}"] = (s["outcome"], errors)
    return found


def test_grouped_points_keep_their_items_and_each_reports_the_run_that_decided_it(
    pytester: pytest.Pytester,
) -> None:
    result, data = _run(pytester, "-n", "2")
    verdicts = _verdicts(data)
    # Every point is an item of its own, with today's id.
    assert "mods/vpc_and_subnet::lost-response@CreateVpc#1@aws_vpc.main" in verdicts
    assert verdicts["mods/vpc_and_subnet::lost-response@CreateVpc#1@aws_vpc.main"] == (
        "failed",
        [("duplicate", "aws_vpc.main")],
    )
    assert verdicts["mods/vpc_and_subnet::crash@CreateSubnet#1@aws_subnet.a"][0] == "failed"
    prefixed = "mods/four_queues::crash@CreateQueue#1@aws_sqs_queue.alpha"
    assert verdicts[prefixed] == ("failed", [("duplicate", "aws_sqs_queue.alpha")])
    assert verdicts["mods/four_queues::crash@CreateQueue#1@aws_sqs_queue.bravo"][0] == "passed"
    points = [s for s in data["scenarios"] if "@" in s["scenario"]]
    # Points shared runs: four queues' crashes in one chain, their lost responses in one apply.
    assert all("decided_by" in s for s in points), points
    shared = [s for s in points if s["decided_by"]["points"] > 1]
    assert len(shared) >= len(points) // 2, points
    # A failure still ends with the one line that reruns that point alone.
    text = result.stdout.str()
    assert (
        'pytest --converge mods --converge-faults crash "mods/four_queues::crash@CreateQueue#1'
        '@aws_sqs_queue.alpha"'
    ) in text
    assert "Decided by run" in text
    # Its header names what ran it, as a point's own run does.
    assert re.search(
        r"does not recover from crash@\S+ \(it hit \S+\) \[\S+ [0-9.]+, hashicorp/aws ", text
    )
    assert "converge.decided_by" in (pytester.path / "junit.xml").read_text()


def test_a_batch_stays_on_one_xdist_worker(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(WORKER_CONFTEST)
    _run(pytester, "-n", "2")
    ran = [json.loads(line) for line in (pytester.path / "workers.jsonl").read_text().split("\n")
           if line]  # fmt: skip
    batches: dict[tuple[str, str], set[str]] = {}
    for nodeid, worker in ran:
        module, _, name = nodeid.rpartition("::")
        if "@" in name:
            batches.setdefault((module, name.split("@")[0]), set()).add(worker)
    assert len(batches) == 4, batches  # two modules, two kinds
    assert all(len(workers) == 1 for workers in batches.values()), batches


def test_a_selected_point_runs_alone_with_the_same_verdict(pytester: pytest.Pytester) -> None:
    queues = ("four_queues",)
    _, together = _run(pytester, "-n", "0", modules=queues)
    point = "mods/four_queues::crash@CreateQueue#1@aws_sqs_queue.alpha"
    result, alone = _run(pytester, "-n", "0", point, modules=queues)
    result.assert_outcomes(failed=1)
    [entry] = alone["scenarios"]
    assert "decided_by" not in entry  # its own scenario, replay included
    assert _verdicts(alone)[point] == _verdicts(together)[point]
    # --converge-matrix per-point, one run per point for the whole matrix, gives every
    # point the same verdict: tests/integration/test_matrix.py, on examples/.


#: Records, in order, each run the matrix starts and each point's report.
STREAM_CONFTEST = """
import json
import pytest_converge.run.matrix as matrix

def _log(*event):
    with open("events.jsonl", "a") as out:
        out.write(json.dumps(event) + "\\n")

_group = matrix.GroupScenario.run
def _group_run(self):
    _log("run", [f.label for f in self.faults])
    return _group(self)
matrix.GroupScenario.run = _group_run
_alone = matrix._alone
def _alone_run(stack, fault, run, started):
    _log("run", [fault.label])
    return _alone(stack, fault, run, started)
matrix._alone = _alone_run

def pytest_runtest_logreport(report):
    if report.when == "call" and "@" in report.nodeid:
        _log("report", report.nodeid.rpartition("::")[2])
"""


def test_each_point_reports_as_soon_as_a_run_decides_it(pytester: pytest.Pytester) -> None:
    """A batch whose first run leaves points undecided runs them again; each point is
    reported as soon as its run ends, ahead of its turn if need be, not when the whole
    batch is done."""
    pytester.makeconftest(STREAM_CONFTEST)
    result, data = _run(pytester, "-n", "0", "--converge-faults=crash", modules=("four_queues",))
    result.assert_outcomes(failed=2, passed=3)
    events = [json.loads(line) for line in (pytester.path / "events.jsonl").read_text().split("\n")
              if line]  # fmt: skip
    runs = [i for i, (what, _) in enumerate(events) if what == "run"]
    assert len(runs) >= 2, f"one run decided the batch; pick a module that takes more: {events}"
    reported = {point: i for i, (what, point) in enumerate(events) if what == "report"}
    decided_by = {s["scenario"]: s["decided_by"]["run"] for s in data["scenarios"]
                  if "decided_by" in s}  # fmt: skip
    assert set(reported) == set(decided_by) and len(reported) == 4, (events, decided_by)
    early = [p for p, run in decided_by.items() if run < len(runs)]
    assert early, f"no point was decided before the last run: {events}"
    for point in early:  # on the screen before the next run started
        assert reported[point] < runs[decided_by[point]], (point, events)
    # The items still report in the JUnit file, once each.
    junit = (pytester.path / "junit.xml").read_text()
    assert all(junit.count(f'name="{p}"') == 1 for p in reported), junit
