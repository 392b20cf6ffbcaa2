"""Live progress while a run works: the status line on a terminal, a line per step in CI logs.

The terminal test runs pytest in a pseudo-terminal (``pty``) under ``-n 2`` on a
module whose apply waits on one resource (a ``local-exec`` sleep), and reads what
the terminal showed while it waited. Real terraform, moto. (How a wait past a
minute reads, ``1m05s``, is a unit test of ``status_text``.)
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from pytest_converge.plugin.progress import get_progress, status_text
from pytest_converge.run.protocol import Step

REPO = Path(__file__).resolve().parents[1]


def slow_module(seconds: int) -> str:
    return f"""
provider "aws" {{
  region = "us-east-1"
}}
resource "aws_sqs_queue" "q" {{
  name = "slow-queue"
}}
resource "terraform_data" "wait" {{
  input = aws_sqs_queue.q.name
  provisioner "local-exec" {{
    command = "sleep {seconds}"
  }}
}}
"""


QUICK_MODULE = """
provider "aws" {
  region = "us-east-1"
}
resource "aws_sqs_queue" "q" {
  name = "quick-queue"
}
"""


def write_modules(root: Path, wait: int) -> None:
    for name, text in (("slow", slow_module(wait)), ("quick", QUICK_MODULE)):
        (root / "mods" / name).mkdir(parents=True)
        (root / "mods" / name / "main.tf").write_text(text)


def run_in_pty(args: list[str], cwd: Path, timeout: float = 600) -> tuple[int, str]:
    """pytest run as a user runs it in a terminal; everything the terminal received."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="220", LINES="40", TERM="xterm")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: the run ended
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
    return proc.returncode, out.decode("utf-8", "replace")


def test_a_followed_stacks_steps_are_its_status(pytester: pytest.Pytester) -> None:
    """The Stack tells a Step (data); the status shows its value, whatever the detail says."""
    progress = get_progress(pytester.parseconfigure())
    assert progress is not None

    class Told:
        name = "mods/net"
        on_step = on_event = None

    stack = Told()
    progress.follow(stack)
    stack.on_step(Step.UPGRADE_APPLY, "crash@TagQueue#1")  # type: ignore[misc]
    assert progress._status["step"] == "upgrade apply"
    stack.on_step(Step.RERUN, "after crash@TagQueue#1")  # type: ignore[misc]
    assert progress._status["step"] == "re-run"
    assert stack.on_event == progress.event


def test_the_status_names_the_resource_waited_on_longest() -> None:
    status = {
        "worker": "gw1",
        "nodeid": "mods/net::crash@CreateVpc#1@aws_vpc.main",
        "step": "faulted apply",
        "step_started": 100.0,
        "applying": {"aws_subnet.a": 150.0, "aws_vpc.main": 110.0},
    }
    assert status_text(status, now=175.0) == (
        "[gw1] mods/net::crash@CreateVpc#1@aws_vpc.main faulted apply 1m15s, "
        "applying aws_vpc.main (+1) 1m05s"
    )
    # A test that made no Stack (yet), or none running: nothing to show.
    assert status_text({**status, "step": None}, now=175.0) == ""
    assert status_text({**status, "nodeid": None}, now=175.0) == ""


def test_quiet_runs_show_no_progress(pytester: pytest.Pytester) -> None:
    assert get_progress(pytester.parseconfigure("-q"))._enabled() is False  # type: ignore[union-attr]
    assert get_progress(pytester.parseconfigure())._enabled() is True  # type: ignore[union-attr]


def test_a_terminal_shows_each_worker_and_a_long_wait_on_one_resource(
    tmp_path: Path,
) -> None:
    pytest.importorskip("xdist")
    write_modules(tmp_path, wait=14)
    code, screen = run_in_pty(
        ["--converge", "mods", "--converge-faults=none", "-n", "2", "-p", "no:cacheprovider"],
        tmp_path,
    )
    assert code == 0, screen[-3000:]
    shown = [part.split("\x1b[K")[0] for part in screen.split("\r")]
    # Both workers on one status line, each with its scenario and step.
    assert any(
        "[gw0] mods/" in line and "[gw1] mods/" in line and "::two-run" in line for line in shown
    ), shown[:40]
    waits = [
        int(m.group(1))
        for line in shown
        for m in [re.search(r"::two-run apply \S+, applying terraform_data\.wait (\d+)s", line)]
        if m
    ]
    # The wait on the resource is shown while it lasts, its clock going on.
    assert waits and max(waits) >= 10, [line for line in shown if "wait" in line][-5:]
    assert len(set(waits)) >= 5, waits
    assert any("second plan" in line for line in shown)
    # The line is taken off the terminal before pytest's summary.
    summary = screen.split("passed in")[0].rsplit("\n", 1)[-1]
    assert "applying" not in summary


def test_without_a_terminal_a_line_per_step_at_most_every_interval(
    pytester: pytest.Pytester,
) -> None:
    write_modules(pytester.path, wait=8)
    # The interval is 30 s; this run is shorter, so the conftest makes it 3 s.
    pytester.makeconftest("import pytest_converge.plugin.progress as p\np.LOG_INTERVAL = 3.0\n")
    # A test that makes no Stack never shows, however long it takes.
    pytester.makepyfile(test_plain="import time\n\ndef test_plain():\n    time.sleep(4)\n")
    started = time.monotonic()
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods/slow",
        "test_plain.py",
        "--converge-faults=none",
        "-p",
        "no:cacheprovider",
    )
    seconds = time.monotonic() - started
    result.assert_outcomes(passed=2)
    # On stderr, apart from the output tests and tools read.
    assert "converge: " not in result.stdout.str()
    out = result.stderr.str()
    lines = [line for line in out.splitlines() if line.startswith("converge: ")]
    assert any("mods/slow::two-run apply" in line for line in lines), out
    assert any("applying terraform_data.wait" in line for line in lines), out
    assert len(lines) <= seconds / 3.0 + 1, lines
    assert "\r" not in out and "\x1b[K" not in out
    assert "test_plain" not in out

    quiet = pytester.runpytest_subprocess(
        "--converge", "mods/quick", "--converge-faults=none", "-p", "no:cacheprovider", "-q"
    )
    quiet.assert_outcomes(passed=1)
    assert "converge: " not in quiet.stdout.str() + quiet.stderr.str()


def test_a_tests_own_apply_ends_the_init_step_at_its_first_resource(
    pytester: pytest.Pytester,
) -> None:
    """A fixture test's stack.apply() sends no step message: the line said ``init`` for
    the whole apply; the first resource terraform opens makes it ``apply``."""
    progress = get_progress(pytester.parseconfigure())
    assert progress is not None
    progress.begin()
    assert progress._status["step"] == "init"
    opened = {"type": "apply_start", "hook": {"resource": {"addr": "aws_vpc.main"}}}
    progress.event(opened)
    assert progress._status["step"] == "apply"
    assert list(progress._status["applying"]) == ["aws_vpc.main"]
    progress.step(Step.SECOND_PLAN)
    progress.event({**opened, "hook": {"resource": {"addr": "aws_subnet.a"}}})
    assert progress._status["step"] == "second plan"  # a told step is kept


def unique_module(root: Path, name: str) -> None:
    """A one-queue module of content never seen before: its fault points are recorded at
    collection (a kept list of an earlier run would skip the clean apply)."""
    (root / "mods" / name).mkdir(parents=True)
    text = QUICK_MODULE.replace("quick-queue", f"q-{uuid.uuid4().hex[:12]}")
    (root / "mods" / name / "main.tf").write_text(text)


FIXTURE_TESTS = """
def test_first():
    pass

def test_slow(converge):
    converge("mods/slow").apply().raise_for_error()

def test_last():
    pass
"""


def run_to_one_file(args: list[str], cwd: Path) -> list[str]:
    """pytest's stdout and stderr into one file, as a CI log has them (no terminal)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    log = cwd / "ci.log"
    with log.open("w") as out:
        subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=600,
            check=False,
        )
    return log.read_text().splitlines()


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_ci_log_has_each_status_line_on_a_line_of_its_own(tmp_path: Path, workers: str) -> None:
    """Output to a file: a status line never continues pytest's dots (``.Fconverge: ...``)
    nor splits a line of pytest's; serially during a fixture test, and under xdist."""
    if workers != "0":
        pytest.importorskip("xdist")
    write_modules(tmp_path, wait=6)
    unique_module(tmp_path, "fresh")
    (tmp_path / "conftest.py").write_text(
        "import pytest_converge.plugin.progress as p\np.LOG_INTERVAL = 2.0\n"
    )
    (tmp_path / "test_fixture.py").write_text(FIXTURE_TESTS)
    args = ["test_fixture.py", "-n", workers]
    if workers != "0":  # zero-code items too, one module's points recorded at collection
        args += ["--converge", "mods/fresh", "--converge-faults=crash"]
    lines = run_to_one_file(args, tmp_path)
    text = "\n".join(lines)
    assert re.search(r"passed in ", text), text[-3000:]
    status = [line for line in lines if "converge: " in line]
    assert any("test_fixture.py::test_slow apply" in line for line in status), text
    assert [line for line in status if not line.startswith("converge: ")] == [], text
    # pytest's own lines of results hold results only.
    results = [line for line in lines if re.match(r"^(test_fixture\.py )?[.FEsx]+", line)]
    assert results, text
    for line in results:
        assert re.fullmatch(r"(test_fixture\.py )?[.FEsx]+ *(\[ *\d+%\])?", line), line
    if workers != "0":
        notice = "converge: collecting mods/fresh: one clean apply records its fault points"
        assert lines.count(notice) == 1, text


def test_the_collection_that_records_fault_points_says_so_also_under_q(tmp_path: Path) -> None:
    unique_module(tmp_path, "fresh")
    notice = "converge: collecting mods/fresh: one clean apply records its fault points"
    # On a terminal: a line of its own above the listing.
    code, screen = run_in_pty(
        ["--converge", "mods", "--collect-only", "-q", "-p", "no:cacheprovider"], tmp_path
    )
    assert code == 0, screen[-3000:]
    lines = [line.split("\r")[-1].replace("\x1b[K", "") for line in screen.splitlines()]
    assert notice in lines, screen
    assert "mods/fresh::two-run" in lines and "mods/fresh::crash@CreateQueue#1@aws_sqs_queue.q" in (
        lines
    )
    # Recorded once: the next collection reads the kept list and says nothing.
    code, screen = run_in_pty(
        ["--converge", "mods", "--collect-only", "-q", "-p", "no:cacheprovider"], tmp_path
    )
    assert code == 0 and "converge: collecting" not in screen, screen[-3000:]
