"""The grouped fault matrix gives every point the verdict its own run gives (terraform + moto).

``pytest --converge MODS --converge-faults lost-response,crash`` runs once with
``--converge-matrix per-point`` (one scenario per fault point, the replay of a failing
one included) and once grouped (the default); the JSON reports must hold the same
points with the same outcomes and the same error defects on the same addresses.
Every CI run compares the two examples made for the matrix, ``fault_matrix`` and
``expected_defects`` (failing and passing points of several resources, so groups form
and split); the other examples (``network``: 20 points, 13 failing; ``permanent_diffs``:
23 points, all failing, 25 minutes per-point on 2 cores; the loop examples) and the
modules under tests/modules run with ``CONVERGE_TEST_MATRIX_ALL=1``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_converge.storage import cache_dir

ROOT = Path(__file__).resolve().parents[2]
#: Modules made to show something other than recovery (a stall, egress, an upgrade's
#: revisions, a public copy, a plan): their matrices say nothing more.
NOT_MATRICES = {
    "keybase_login_profile", "module_calls_only", "plan_gate", "public", "stalled_and_rest",
    "stalled_egress", "stalled_redrive_aws5", "stalled_replica", "unimplemented_api",
    "upgrade",
}  # fmt: skip


#: In every CI run: the examples made for the fault matrix.
MATRIX_EXAMPLES = {"fault_matrix", "expected_defects"}
ALL = bool(os.environ.get("CONVERGE_TEST_MATRIX_ALL"))


def _roots(where: Path) -> list[Path]:
    roots = [d for d in where.iterdir() if (d / "main.tf").is_file() and d.name not in NOT_MATRICES]
    if not ALL and where.name == "examples":
        roots = [d for d in roots if d.name in MATRIX_EXAMPLES]
    return sorted(roots)


def _verdicts(tmp: Path, modules: list[Path], mode: str) -> dict[tuple[str, str], object]:
    """Each point's outcome and error defects (kind, address), as the JSON report has them."""
    run = tmp / mode
    for module in modules:
        copy = run / "mods" / module.name
        copy.mkdir(parents=True)
        for path in module.iterdir():
            if path.is_file() and path.suffix in (".tf", ".tfvars", ".json", ".txt", ".zip"):
                shutil.copy(path, copy)
    report = run / "report.json"
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--converge", "mods", "--converge-faults", "lost-response,crash",
            "--converge-matrix", mode, "-n", "0", f"--converge-report={report}", "-q"]  # fmt: skip
    env = {**os.environ, "CONVERGE_CACHE_DIR": str(cache_dir())}
    done = subprocess.run(argv, cwd=run, env=env, capture_output=True, text=True, timeout=3000)
    assert report.exists(), done.stdout[-4000:] + done.stderr[-2000:]
    data = json.loads(report.read_text())
    found: dict[tuple[str, str], object] = {}
    for s in data["scenarios"]:
        if s["scenario"] in ("two-run", "fault-points"):
            continue
        # One run per point: no point names a run that decided several.
        assert mode == "grouped" or "decided_by" not in s, s
        errors = {
            (d["kind"], d.get("address"))
            for d in data["defects"]
            if d["module"] == s["module"] and d["scenario"] == s["scenario"]
            and d["severity"] == "error"
        }  # fmt: skip
        outcome = "failed" if s["outcome"] == "flaky" else s["outcome"]
        found[(s["module"], s["scenario"])] = (outcome, sorted(errors, key=str))
    return found


SETS = [
    pytest.param("examples", id="examples"),
    pytest.param("tests/modules", id="tests-modules", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("where", SETS)
def test_grouped_runs_give_every_point_the_verdict_of_its_own_run(tmp_path, where) -> None:
    if where != "examples" and not ALL:
        pytest.skip("set CONVERGE_TEST_MATRIX_ALL=1 to compare tests/modules' matrices too")
    modules = _roots(ROOT / where)
    per_point = _verdicts(tmp_path, modules, "per-point")
    grouped = _verdicts(tmp_path, modules, "grouped")
    assert per_point, "no fault point ran"
    differ = {k: (per_point.get(k), grouped.get(k)) for k in {*per_point, *grouped}
              if per_point.get(k) != grouped.get(k)}  # fmt: skip
    assert differ == {}, json.dumps({str(k): v for k, v in differ.items()}, indent=1)
    # Something failed both ways (the comparison is not one of empty verdicts).
    assert any(outcome == "failed" for outcome, _ in per_point.values())  # type: ignore[misc]


def test_one_cut_takes_the_crashes_of_resources_applied_at_once(converge) -> None:
    """A grouped crash link applies in parallel and kills terraform once for every
    crash point its walk reached together (one run per point kills it once per point);
    each crash is told to its own resource, and each left its own object behind."""
    from pytest_converge.analysis.state import state_resources
    from pytest_converge.faults import parse_fault
    from pytest_converge.run.matrix import GroupScenario

    stack = converge(str(ROOT / "examples" / "network"))
    points = stack.fault_points()
    clean = state_resources(stack.worlds.recorded_state())
    # The first call of each resource that depends on nothing: all open at once.
    firsts = ["CreateVpc#1@aws_vpc.main", "CreateBucket#1@aws_s3_bucket.artifacts",
              "CreateQueue#1@aws_sqs_queue.jobs", "CreateRole#1@aws_iam_role.worker"]  # fmt: skip
    assert set(firsts) <= set(points), points
    crashes = [parse_fault(f"crash@{p}") for p in firsts]
    scenario = GroupScenario(stack, crashes, "4 points together", clean, points)
    found = scenario.run()
    cut = scenario.results[0]
    assert cut.signalled == signal.SIGKILL
    assert sorted(f.label for f in cut.fired) == sorted(f.label for f in crashes)
    assert scenario.fired() == {f.label: f.address for f in crashes}
    # Each crash made its resource's object: the re-run meets it (a duplicate VPC, a
    # queue or role that already exists), named by its own resource.
    named = {d.address for d in found.defects if d.is_error} | {
        a for d in found.defects for a in [d.address] if d.kind in ("duplicate", "orphan")
    }
    assert {"aws_vpc.main", "aws_iam_role.worker"} <= named, [
        (d.kind, d.address) for d in found.defects
    ]


@pytest.mark.converge(allow_defects=True)  # the failed recoveries are the point
def test_a_crash_later_in_a_create_gets_the_verdict_its_own_run_gives(converge) -> None:
    """The crashes at the security group's later calls (its egress revoked twice, its
    ingress authorized) share the verdict of the crash at its create without a run
    (matrix.same_create): each one's own run, one point at a time, gives that verdict."""
    from pytest_converge.analysis.state import state_resources
    from pytest_converge.faults import parse_fault
    from pytest_converge.run.matrix import decide

    stack = converge(str(ROOT / "examples" / "network"))
    walk = stack.fault_points()  # in the order the clean apply made the calls
    clean = state_resources(stack.worlds.recorded_state())
    crashes = [parse_fault(f"crash@{p}") for p in walk if p.endswith("@aws_security_group.app")]
    leader = "crash@CreateSecurityGroup#1@aws_security_group.app"
    assert crashes[0].label == leader and len(crashes) >= 3, walk

    verdicts = decide(stack, crashes, clean_state=clean, order=walk)

    assert {v.shares for label, v in verdicts.items() if label != leader} == {leader}
    for fault in crashes:
        alone = stack.recover(fault, replay=False)
        own = sorted((d.kind, d.address) for d in alone.defects if d.is_error)
        shared = sorted((d.kind, d.address) for d in verdicts[fault.label].defects if d.is_error)
        assert (fault.label, own) == (fault.label, shared)
        assert own == [("recovery-failed", "aws_security_group.app")]
