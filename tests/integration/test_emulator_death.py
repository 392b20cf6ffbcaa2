"""A dying emulator costs the scenario in flight, not the run (real terraform + moto).

The emulator's process is SIGKILLed while a scenario's terraform apply runs,
as when the OOM killer or a crash in moto ends it. That scenario is an error
naming the emulator; the session starts a fresh emulator once and every other
scenario ends as in an undisturbed run. A second death in a row stops the run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.emulator.localstack import VENV_ENV, find_localstack_python

MODULES = Path(__file__).resolve().parents[1] / "modules"
#: Looked up before pytester moves HOME.
LOCALSTACK = find_localstack_python()

# Kills the session's moto as soon as terraform's apply of a listed scenario runs.
KILLER = """
import os, signal, threading, time
import pytest
from pytest_converge.plugin.session import get_session

KILL = {kill!r}

def _apply_running():
    me = str(os.getpid())
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{{pid}}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{{pid}}/cmdline", "rb") as f:
                argv = f.read().split(b"\\0")
        except OSError:
            continue
        if ppid == me and b"apply" in argv:
            return True
    return False

def _kill_when_applying(pid):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _apply_running():
        time.sleep(0.05)
    time.sleep(0.3)
    os.kill(pid, signal.SIGKILL)

@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # Around the whole protocol: a grouped matrix runs a batch's points while its first
    # item waits for its verdict, before that item's call phase.
    # Fault items are pinned to a resource: crash@CreateVpc#1@aws_vpc.main.
    if any(item.name.startswith(point + "@") for point in KILL):
        emulator = get_session(item.config).emulator()
        threading.Thread(target=_kill_when_applying, args=(emulator.pid,), daemon=True).start()
    return (yield)
"""


def _matrix(
    pytester: pytest.Pytester,
    report: str,
    kill: tuple[str, ...] = (),
    faults: str = "crash",
    backend: str = "moto",
) -> Any:
    (pytester.path / "conftest.py").write_text(KILLER.format(kill=set(kill)))
    return pytester.runpytest_subprocess(
        "--converge",
        "mods",
        f"--converge-faults={faults}",
        f"--converge-backend={backend}",
        "-p",
        "no:cacheprovider",
        "-n",
        "0",
        "-p",
        "no:randomly",
        f"--converge-report={report}",
    )


def _outcomes(pytester: pytest.Pytester, report: str) -> dict[str, str]:
    """Outcome by scenario, the resource a pinned fault names left out (crash@CreateVpc#1)."""
    data = json.loads((pytester.path / report).read_text())
    return {_unpinned(s["scenario"]): s["outcome"] for s in data["scenarios"]}


def _unpinned(scenario: str) -> str:
    kind, _, rest = scenario.partition("@")
    return f"{kind}@{rest.partition('@')[0]}" if rest else scenario


@pytest.fixture
def module(pytester: pytest.Pytester) -> Path:
    shutil.copytree(MODULES / "vpc_and_subnet", pytester.path / "mods" / "net")
    return pytester.path / "mods" / "net"


def test_only_the_scenario_in_flight_differs_when_the_emulator_dies(
    pytester: pytest.Pytester, module: Path
) -> None:
    _matrix(pytester, "clean.json")
    undisturbed = _outcomes(pytester, "clean.json")
    assert sorted(undisturbed) == ["crash@CreateSubnet#1", "crash@CreateVpc#1", "two-run"]

    # crash@CreateSubnet#1 runs second: crash@CreateVpc#1 comes after the death.
    result = _matrix(pytester, "killed.json", kill=("crash@CreateSubnet#1",))
    killed = _outcomes(pytester, "killed.json")

    assert killed.pop("crash@CreateSubnet#1") == "error"
    del undisturbed["crash@CreateSubnet#1"]
    assert killed == undisturbed
    out = result.stdout.str()
    assert "the moto emulator behind" in out and "died or stopped answering" in out, out
    assert "a fresh moto emulator" in out, out
    assert result.ret == 1


def test_a_second_death_in_a_row_stops_the_run(pytester: pytest.Pytester, module: Path) -> None:
    result = _matrix(
        pytester,
        "killed.json",
        kill=("crash@CreateSubnet#1", "crash@CreateVpc#1"),
        faults="crash,lost-response",
    )
    ran = _outcomes(pytester, "killed.json")
    assert ran["crash@CreateSubnet#1"] == "error"
    assert ran["crash@CreateVpc#1"] == "error"
    # The death stops the command in flight: the provider's retries against a dead
    # emulator took 20-25 s per scenario.
    seconds = {
        _unpinned(s["scenario"]): s["seconds"]
        for s in json.loads((pytester.path / "killed.json").read_text())["scenarios"]
    }
    assert seconds["crash@CreateSubnet#1"] < 15 and seconds["crash@CreateVpc#1"] < 15, seconds
    assert not any(s.startswith("lost-response@") for s in ran), ran  # the run stopped
    result.stdout.fnmatch_lines(["*Interrupted*moto emulator died twice in a row*"])
    assert result.ret == 2


@pytest.mark.localstack
def test_localstack_dying_costs_only_the_scenario_in_flight(
    pytester: pytest.Pytester, module: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, reasons = LOCALSTACK
    if python is None:
        why = "; ".join(reasons)
        pytest.skip(f"LocalStack is not installed ({why}); run .ci/install-localstack.sh")
    # pytester gives the run a HOME of its own: name the venv found under the real one.
    monkeypatch.setenv(VENV_ENV, str(Path(python).parents[1]))
    # The moto twin above compares with an undisturbed run; here (a LocalStack start is
    # ~15 s) the scenarios after the death must end as scenarios do, not as errors.
    result = _matrix(
        pytester,
        "killed.json",
        kill=("crash@CreateSubnet#1",),
        faults="crash",
        backend="localstack",
    )
    killed = _outcomes(pytester, "killed.json")
    assert killed.pop("crash@CreateSubnet#1") == "error", result.stdout.str()
    assert sorted(killed) == ["crash@CreateVpc#1", "two-run"], killed
    assert "error" not in killed.values(), result.stdout.str()
    out = result.stdout.str()
    assert "the localstack emulator behind" in out and "died or stopped answering" in out, out
