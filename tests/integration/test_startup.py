"""What a zero-code run pays before its first apply: no reset of a fresh emulator,
fault points remembered across sessions."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

MODULES = Path(__file__).resolve().parents[1] / "modules"

COUNTING_BACKEND = """
import json, os
import pytest
from pytest_converge.emulator.moto import MotoEmulator

class Counting(MotoEmulator):
    resets = 0
    launched = False
    def reset(self):
        Counting.resets += 1
        super().reset()
    def launch(self):
        Counting.launched = True
        super().launch()

@pytest.hookimpl(tryfirst=True)
def pytest_converge_make_emulator(config, backend):
    return Counting()

@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session):
    with open(os.environ["RESETS_FILE"] + ".launched", "a") as f:
        f.write(json.dumps(Counting.launched) + "\\n")

def pytest_sessionfinish(session):
    with open(os.environ["RESETS_FILE"], "a") as f:
        f.write(json.dumps(Counting.resets) + "\\n")
"""


@pytest.fixture
def two_modules(pytester: pytest.Pytester, monkeypatch, tmp_path) -> pytest.Pytester:
    for name in ("a", "b"):
        shutil.copytree(MODULES / "two_queues", pytester.path / "mods" / name)
    pytester.makeconftest(COUNTING_BACKEND)
    monkeypatch.setenv("RESETS_FILE", str(tmp_path / "resets"))
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    return pytester


def test_a_fresh_emulator_is_not_reset_before_the_first_scenario(two_modules, tmp_path):
    ran = two_modules.runpytest_subprocess("--converge", "mods", "--converge-faults=none", "-v")
    ran.stdout.fnmatch_lines(["*mods/a::two-run PASSED*", "*mods/b::two-run PASSED*"])
    # The first two-run starts on the just-started (empty) emulator; the second needs a reset.
    assert (tmp_path / "resets").read_text().split() == ["1"]


def test_fault_points_are_remembered_across_sessions(two_modules, tmp_path):
    args = ["--converge", "mods/a", "--converge-faults=crash", "--collect-only", "-q"]
    first = two_modules.runpytest_subprocess(*args)
    first.stdout.fnmatch_lines(
        [
            "mods/a::crash@CreateQueue#1@aws_sqs_queue.dead",
            "mods/a::crash@CreateQueue#1@aws_sqs_queue.jobs",
        ]
    )
    # Recording them took a clean apply on the fresh emulator, and a reset after it.
    assert (tmp_path / "resets").read_text().split() == ["1"]
    remembered = list((tmp_path / "cache" / "points").glob("*.json"))
    assert len(remembered) == 1
    assert json.loads(remembered[0].read_text())["points"] == [
        "CreateQueue#1@aws_sqs_queue.dead",
        "CreateQueue#1@aws_sqs_queue.jobs",
    ]

    second = two_modules.runpytest_subprocess(*args)
    assert second.stdout.lines[:2] == first.stdout.lines[:2]
    # No clean apply this time: the emulator was never even started.
    assert (tmp_path / "resets").read_text().split() == ["1", "0"]

    # A changed module is recorded again.
    (two_modules.path / "mods" / "a" / "extra.tf").write_text('output "x" {\n  value = 1\n}\n')
    two_modules.runpytest_subprocess(*args)
    assert len(list((tmp_path / "cache" / "points").glob("*.json"))) == 2


def test_a_fault_scenario_on_a_fresh_emulator_is_not_reset(two_modules, tmp_path):
    args = ["--converge", "mods/a", "--converge-faults=lost-response"]
    two_modules.runpytest_subprocess(*args, "--collect-only", "-q")  # records the points
    (tmp_path / "resets").unlink()
    one_each = ["-k", "not two-run", "-v", "--converge-matrix=per-point"]
    ran = two_modules.runpytest_subprocess(*args, *one_each)
    ran.stdout.fnmatch_lines(
        [
            "*lost-response@CreateQueue#1@aws_sqs_queue.dead PASSED*",
            "*lost-response@CreateQueue#1@aws_sqs_queue.jobs PASSED*",
        ]
    )
    # The first scenario starts on the just-started emulator; only the second empties it.
    assert (tmp_path / "resets").read_text().split() == ["1"]
    # Grouped (the default), both points share one run on it: no reset at all.
    (tmp_path / "resets").unlink()
    two_modules.runpytest_subprocess(*args, "-k", "not two-run").assert_outcomes(passed=2)
    assert (tmp_path / "resets").read_text().split() == ["0"]


def test_the_emulator_starts_while_pytest_collects(two_modules, tmp_path):
    launched = tmp_path / "resets.launched"
    ran = two_modules.runpytest_subprocess("--converge", "mods/a", "--converge-faults=none")
    ran.assert_outcomes(passed=1)
    assert launched.read_text().split() == ["true"]
    launched.unlink()
    # Nothing to run, nothing started: --collect-only with the fault points known.
    two_modules.runpytest_subprocess("--converge", "mods/a", "--converge-faults=none", "--co")
    assert launched.read_text().split() == ["false"]


MOTO_CHILDREN = """
import json, os
from pathlib import Path

def moto_children():
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            argv = (entry / "cmdline").read_bytes().split(b"\\0")
        except OSError:
            continue
        if ppid == os.getpid() and any(a.endswith(b"moto_server.py") for a in argv):
            found.append(int(entry.name))
    return found

def _write(when):
    with open(os.environ["CHILDREN_FILE"], "a") as f:
        f.write(json.dumps([when, len(moto_children())]) + "\\n")

def pytest_configure(config):
    _write("configure")

def pytest_sessionfinish(session):
    _write("finish")
"""


def test_the_command_line_spawns_moto_before_pytest_configures(pytester, monkeypatch, tmp_path):
    """``pytest --converge ...``: moto is spawned as the plugin is imported (its start
    overlaps pytest's), and the session adopts that process: one moto, not two."""
    shutil.copytree(MODULES / "two_queues", pytester.path / "mods" / "a")
    pytester.makeconftest(MOTO_CHILDREN)
    children = tmp_path / "children"
    monkeypatch.setenv("CHILDREN_FILE", str(children))
    ran = pytester.runpytest_subprocess("--converge", "mods", "--converge-faults=none")
    ran.assert_outcomes(passed=1)
    seen = [json.loads(line) for line in children.read_text().splitlines()]
    assert seen == [["configure", 1], ["finish", 1]]
    # One the session does not use (--collect-only from the ini file) is stopped when
    # the session starts.
    children.unlink()
    pytester.makeini("[pytest]\naddopts = --collect-only\n")
    pytester.runpytest_subprocess("--converge", "mods", "--converge-faults=none")
    assert [json.loads(line) for line in children.read_text().splitlines()] == [
        ["configure", 1],
        ["finish", 0],
    ]


def test_xdist_workers_spawn_moto_before_they_configure(pytester, monkeypatch, tmp_path):
    """``-n 2``: the controller runs no scenario and spawns no moto; it tells its workers
    (their command lines are execnet's), and each has its moto before its configure."""
    shutil.copytree(MODULES / "two_queues", pytester.path / "mods" / "a")
    pytester.makeconftest(MOTO_CHILDREN)
    children = tmp_path / "children"
    monkeypatch.setenv("CHILDREN_FILE", str(children))
    monkeypatch.delenv("PYTEST_CONVERGE_SPARE_FOR", raising=False)
    ran = pytester.runpytest_subprocess("--converge", "mods", "--converge-faults=none", "-n", "2")
    ran.assert_outcomes(passed=1)
    seen = sorted(json.loads(line) for line in children.read_text().splitlines())
    assert seen == [
        ["configure", 0],  # the controller
        ["configure", 1],
        ["configure", 1],
        ["finish", 0],
        ["finish", 1],
        ["finish", 1],
    ], seen


def test_an_emulator_first_used_long_after_its_launch_starts() -> None:
    """The session launches moto when it starts; the first test may need it minutes later.

    The start timeout bounds the wait for a server that is not up yet: one that
    answered long ago is not refused because the timeout has passed since its launch.
    """
    from pytest_converge.emulator.moto import MotoEmulator

    emulator = MotoEmulator(start_timeout=3)
    emulator.launch()
    try:
        deadline = time.monotonic() + 120
        while not emulator._answers():  # up (its READY line waits, unread)
            assert time.monotonic() < deadline, "moto never came up"
            time.sleep(0.1)
        time.sleep(max(0.0, emulator._launched + 3.5 - time.monotonic()))
        emulator.start()
        assert emulator.client("sts").get_caller_identity()["Account"]
    finally:
        emulator.stop()


def test_the_moto_server_runs_without_importing_the_plugin(tmp_path, monkeypatch) -> None:
    """The server is run as a file: the package's imports (0.4 s) are not paid again there.

    A ``pytest_converge`` that cannot be imported comes first on the server's
    path: it serves, answers the world read (its own module, loaded from its
    file), installs the fidelity layer (its package, loaded from its files) and
    answers an API call all the same.
    """
    import urllib.request

    from pytest_converge.emulator.moto import MotoEmulator

    poisoned = tmp_path / "pytest_converge"
    poisoned.mkdir()
    (poisoned / "__init__.py").write_text("raise ImportError('the server imported the plugin')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    emulator = MotoEmulator()
    try:
        emulator.start()
        assert emulator.client("sqs").list_queues().get("QueueUrls", []) == []
        with urllib.request.urlopen(f"{emulator.endpoint}/converge-api/world", timeout=30) as got:
            assert "covered" in json.loads(got.read())
        # The fidelity layer too: loaded by path, every behaviour installed.
        assert set(emulator.fidelity()["behaviours"].values()) == {"installed"}
    finally:
        emulator.stop()


LAZY_OFFERINGS = """
import sys
sys.path.insert(0, sys.argv[1])
from pytest_converge.emulator import moto_server
moto_server._lazy_instance_type_offerings()
from moto.ec2.models import instance_types
table = instance_types.INSTANCE_TYPE_OFFERINGS
assert sorted(table) == ["availability-zone", "availability-zone-id", "region"], sorted(table)
assert not any(kind._read for kind in table.values()), "read at import"
assert instance_types.listdir is __import__("os").listdir
import json
print(json.dumps({kind: dict(regions) for kind, regions in table.items()}))
"""


def test_moto_reads_instance_type_offerings_on_first_use(tmp_path) -> None:
    """The server's moto imports EC2 without its ~90 offering files (0.2 s of the first
    EC2 call); the first look reads them, as moto as released would have at import."""
    import subprocess
    import sys

    repo = str(Path(__file__).resolve().parents[2])
    lazy = subprocess.run(
        [sys.executable, "-c", LAZY_OFFERINGS, repo], capture_output=True, text=True, check=False
    )
    assert lazy.returncode == 0, lazy.stderr
    released = subprocess.run(
        [sys.executable, "-c", "import json; from moto.ec2.models import instance_types as m;"
         "print(json.dumps(m.INSTANCE_TYPE_OFFERINGS))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    got, expected = json.loads(lazy.stdout), json.loads(released.stdout)
    assert got == expected and len(got["region"]) > 20


COLLECTOR = """
import gc, os, sys
sys.path.insert(0, sys.argv[1])
from pytest_converge.emulator import moto_server
collect_again = moto_server._collect_again
def watched():
    during = gc.isenabled()
    collect_again()
    sys.stderr.write(f"COLLECTOR {during} {gc.isenabled()} {gc.get_freeze_count()}\\n")
    sys.stderr.flush()
    os._exit(0)
moto_server._collect_again = watched
moto_server.main(["--host", "127.0.0.1", "--port", "0"])
"""


def test_the_server_collects_no_cycles_until_its_warm_up_is_done() -> None:
    """The cyclic collector is off while moto starts and warms its backends up (it only
    walked the millions of objects start-up makes: EC2's backend 1.8 -> 1.2-1.3 s of
    CPU), and back on after, with what start-up made frozen out of its walks."""
    import subprocess
    import sys

    repo = str(Path(__file__).resolve().parents[2])
    # Its stdin stays open while it runs (it exits when that closes).
    server = subprocess.Popen(
        [sys.executable, "-c", COLLECTOR, repo],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        lines = iter(server.stderr.readline, "")
        line = next((ln for ln in lines if ln.startswith("COLLECTOR ")), "COLLECTOR (none)")
    finally:
        server.kill()
        server.wait(timeout=30)
    during, after, frozen = [*line.split()[1:], "", ""][:3]
    assert (during, after) == ("False", "True")
    assert int(frozen) > 100_000  # moto's modules and the warmed backends


def _group_alive(pgid: int) -> bool:
    """A live process of group ``pgid`` (the emulator and anything it started)."""
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def _localstack_emulator() -> str:
    from pytest_converge.emulator.localstack import find_localstack_python

    python, reasons = find_localstack_python()
    if python is None:
        pytest.skip(
            "no Python with LocalStack: run .ci/install-localstack.sh; " + "; ".join(reasons)
        )
    return (
        f"from pytest_converge.emulator import localstack as ls\ne = ls.HostLocalStack({python!r})"
    )


@pytest.mark.parametrize(
    ("backend", "prefix"),
    [
        ("moto", "converge-moto-"),
        pytest.param("localstack", "converge-localstack-", marks=pytest.mark.localstack),
    ],
)
def test_a_killed_owner_leaves_no_emulator_and_no_scratch_dir(backend: str, prefix: str) -> None:
    """SIGKILL gives the owner no chance to clean up: the server removes its own HOME
    (moto), cancel's reaper kills the group and removes the state dir (LocalStack)."""
    import os
    import signal
    import subprocess
    import sys

    if backend == "moto":
        make = "from pytest_converge.emulator.moto import MotoEmulator\ne = MotoEmulator()"
    else:
        make = _localstack_emulator()
    owner = subprocess.Popen(
        [sys.executable, "-c", (
            f"{make}\n"
            "import sys, time\n"
            "e.start()\n"
            "print(e.pid, e.log_path.parent, flush=True)\n"
            "time.sleep(600)\n"
        )],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert owner.stdout is not None
        pid, home = owner.stdout.readline().split()
        assert Path(home).is_dir()
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    deadline = time.monotonic() + 30
    while (Path(home).exists() or _group_alive(int(pid))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(int(pid)), f"{backend} outlived its owner"
    assert not Path(home).exists(), f"{home} was left behind"
    assert os.path.basename(home).startswith(prefix)


def test_the_servers_quicker_ec2_start_answers_as_moto_does() -> None:
    """The server's own EC2 start-up (ids in one draw, default AMIs with one zone lookup
    and their files parsed once, one loader for botocore and moto): the same default
    AMIs as moto as released, before and after a reset, and ids of EC2's form that
    ``/moto-api/seed`` makes repeatable."""
    import re
    import urllib.request

    import boto3
    from moto import mock_aws

    from pytest_converge.emulator.moto import MotoEmulator

    def images(client) -> dict[str, str]:
        found = client.describe_images(Owners=["amazon"])["Images"]
        return {image["ImageId"]: image["Name"] for image in found}

    def post(emulator: MotoEmulator, path: str, body: bytes = b"") -> None:
        request = urllib.request.Request(emulator.endpoint + path, data=body, method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()

    with mock_aws():
        released = images(boto3.client("ec2", region_name="eu-west-1"))
    emulator = MotoEmulator()
    try:
        emulator.start()
        ec2 = emulator.client("ec2", region="eu-west-1")
        assert images(ec2) == released and len(released) > 100
        vpcs = []
        for _ in range(2):
            post(emulator, "/moto-api/reset")
            assert images(ec2) == released
            post(emulator, "/moto-api/seed?a=42")
            vpcs.append(ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"])
        assert vpcs[0] == vpcs[1] and re.fullmatch(r"vpc-[0-9a-f]{17}", vpcs[0]), vpcs
    finally:
        emulator.stop()


LAZY_LAYER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pytest_converge.emulator import fidelity
if sys.argv[2] == "eager":
    print(json.dumps(fidelity.install()))
    raise SystemExit
first = fidelity.install(lazy=True)
assert "moto.ec2" not in sys.modules and "moto.elasticache" not in sys.modules
pending = {name for name, state in first.items() if state == fidelity.PENDING}
assert any(name.startswith("ec2.") for name in pending), first
import moto.ec2
fidelity.install_imported()
after_ec2 = fidelity.status()["behaviours"]
assert all(after_ec2[name] == "installed" for name in pending if name.startswith("ec2.")), after_ec2
assert any(state == fidelity.PENDING for name, state in after_ec2.items())
fidelity.install_rest()
print(json.dumps(fidelity.status()["behaviours"]))
"""


def test_the_servers_layer_waits_for_each_services_first_call(tmp_path) -> None:
    """The server installs a behaviour when its service is first imported (its first
    call), so its first answers need not import every service the layer covers; the
    rest follows, and the layer ends as an eager install leaves it."""
    import subprocess
    import sys

    repo = str(Path(__file__).resolve().parents[2])
    states = []
    for how in ("lazy", "eager"):
        ran = subprocess.run(
            [sys.executable, "-c", LAZY_LAYER, repo, how], capture_output=True, text=True
        )
        assert ran.returncode == 0, ran.stderr[-3000:]
        states.append(json.loads(ran.stdout.splitlines()[-1]))
    assert states[0] == states[1] and set(states[0].values()) == {"installed"}


WARM_REPORTING = """
import json, os, time, urllib.request
import pytest
from pytest_converge.emulator.moto import MotoEmulator
from pytest_converge.emulator.moto_server import WARM_PATH

class Reporting(MotoEmulator):
    made = []
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        Reporting.made.append(self)

@pytest.hookimpl(tryfirst=True)
def pytest_converge_make_emulator(config, backend):
    return Reporting()

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):  # before a fixture's emulator stops
    emulator = Reporting.made[0]
    deadline = time.monotonic() + 60
    while True:  # the warm-up goes on beside the run: wait for the module's services
        with urllib.request.urlopen(emulator.endpoint + WARM_PATH, timeout=30) as answer:
            report = json.loads(answer.read())
        if ["kms", "eu-west-1"] in report["warmed"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    with open(os.environ["WARM_FILE"], "w") as f:
        json.dump(report, f)
"""

KEY_AND_QUEUE = """
provider "aws" {
  region = "eu-west-1"
}

resource "aws_kms_key" "k" {
  description             = "warm-up"
  deletion_window_in_days = 7
}

module "queue" {
  source = "./queue"
}
"""


def test_the_server_warms_up_the_services_the_module_calls(pytester, monkeypatch, tmp_path):
    """Told at collection which services a module calls (and in which region), the moto
    server's warm-up makes those next and none of its own list but STS and IAM: the
    module's first KMS call does not pay for KMS's backend, and a module without a VPC
    does not wait for EC2's."""
    module = pytester.path / "mod"
    (module / "queue").mkdir(parents=True)
    (module / "main.tf").write_text(KEY_AND_QUEUE)
    (module / "queue" / "main.tf").write_text('resource "aws_sqs_queue" "q" {}\n')
    pytester.makeconftest(WARM_REPORTING)
    monkeypatch.setenv("WARM_FILE", str(tmp_path / "warm.json"))
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    ran = pytester.runpytest_subprocess("--converge", "mod", "--converge-faults=none")
    ran.assert_outcomes(passed=1)
    report = json.loads((tmp_path / "warm.json").read_text())
    told, warmed = report["told"], [tuple(w) for w in report["warmed"]]
    assert told is not None, f"the server was never told: {warmed}"
    hinted = {(s, "eu-west-1") for s in ("sts", "iam", "kms", "sqs")}
    assert set(warmed[told:]) == hinted  # after the hint: the module's and nothing else
