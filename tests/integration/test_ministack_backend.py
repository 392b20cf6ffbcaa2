"""MiniStack as a backend: start, reset, stop, loopback only, real terraform runs, faults.

MiniStack runs from its own environment (``.ci/install-ministack.sh``, or a ``ministack``
on PATH, or ``$CONVERGE_MINISTACK``); without one these tests skip, saying why. They never
provision it themselves: that needs the package registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_converge import LostResponse
from pytest_converge.emulator.ministack import (
    EXECUTABLE_ENV,
    PINNED_VERSION,
    MiniStackEmulator,
    find_ministack,
    ministack_missing,
)
from pytest_converge.inventory import pytest_converge_inventory
from pytest_converge.run.stack import Stack
from pytest_converge.terraform.workspace import Templates

MODULES = Path(__file__).resolve().parents[1] / "modules"
QUEUE_AND_CACHE = MODULES / "queue_and_cache_parameters"

#: Found before any test moves HOME (pytester does), where the plugin itself looks.
COMMAND, _ = find_ministack()
pytestmark = pytest.mark.skipif(
    COMMAND is None, reason=f"needs MiniStack: {ministack_missing() or ''}"
)


def processes_in_group(pgid: int) -> list[int]:
    """Live pids whose process group is ``pgid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


def listening_addresses(pids: list[int]) -> list[str]:
    """``ADDR:PORT`` (as /proc/net writes them) of every TCP socket these processes listen on."""
    return [local for local, _, state in tcp_sockets(pids) if state == "0A"]  # LISTEN


#: A remote address on loopback as /proc/net/tcp{,6} write it (127.0.0.0/8, ::1, mapped).
_LOOPBACK_HEX = ("7F:", "00000000000000000000000001000000:", "0000000000000000FFFF0000")


def foreign_connections(pids: list[int]) -> list[str]:
    """Connected TCP sockets of these processes whose far end is not on loopback."""
    return [
        f"{local} -> {remote}"
        for local, remote, state in tcp_sockets(pids)
        if state != "0A" and not (remote[6:9] == "7F:" or remote.startswith(_LOOPBACK_HEX[1:]))
    ]


def tcp_sockets(pids: list[int]) -> list[tuple[str, str, str]]:
    """(local, remote, state) of every TCP socket these processes hold (/proc/net/tcp{,6})."""
    inodes = set()
    for pid in pids:
        fd_dir = Path(f"/proc/{pid}/fd")
        for fd in fd_dir.iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.append((fields[1], fields[2], fields[3]))
    return found


def test_starts_answers_resets_and_stops(ministack: MiniStackEmulator) -> None:
    assert ministack.version == PINNED_VERSION
    assert ministack.is_alive()
    assert ministack.endpoint.startswith("http://127.0.0.1:")
    assert {"sqs", "elasticache", "ec2", "s3"} <= set(ministack.health()["services"])
    sqs = ministack.client("sqs")
    url = sqs.create_queue(QueueName="to-be-forgotten")["QueueUrl"]
    assert "/123456789012/" in url  # the run's fake account, moto's default
    assert ministack.client("sts").get_caller_identity()["Account"] == "123456789012"
    ministack.reset()
    assert sqs.list_queues().get("QueueUrls", []) == []


def test_stop_leaves_no_process_and_no_directory() -> None:
    emulator = MiniStackEmulator(command=COMMAND)
    emulator.start()
    pid, scratch = emulator.pid, emulator.log_path
    assert pid is not None and scratch is not None and processes_in_group(pid)
    emulator.stop()
    assert processes_in_group(pid) == []
    assert not scratch.parent.exists()
    emulator.stop()  # twice is fine


def test_it_listens_on_loopback_only(ministack: MiniStackEmulator) -> None:
    assert ministack.pid is not None
    pids = processes_in_group(ministack.pid)
    ministack.client("elasticache").create_cache_parameter_group(
        CacheParameterGroupName="sockets", CacheParameterGroupFamily="redis7", Description="x"
    )
    addresses = listening_addresses(pids)
    port = int(ministack.endpoint.rsplit(":", 1)[1])
    assert addresses == [f"0100007F:{port:04X}"]  # 127.0.0.1, nothing else, no other port
    ministack.reset()


def _stack(emulator: Any, module: Path, templates: Templates, workdir: Path) -> Stack:
    emulator.reset()
    return Stack(
        module,
        emulator=emulator,
        templates=templates,
        workdir=workdir,
        inventory=pytest_converge_inventory,
    )


@pytest.fixture(params=["3.39", "5.x"])
def line_templates(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Templates]:
    """The templates of a provider line: 3.39 bundled, 5.x from the aws5 mirror (skips
    without one)."""
    if request.param == "5.x":
        _, templates = request.getfixturevalue("aws5_templates")
        return "5", templates
    toolchain = request.getfixturevalue("converge_toolchain")
    return "3.39", Templates(toolchain, tmp_path / "templates")


def test_cache_parameter_group_converges(
    ministack: MiniStackEmulator, line_templates: tuple[str, Templates], tmp_path: Path
) -> None:
    """A queue and an ElastiCache parameter group (moto has no CreateCacheParameterGroup)
    apply on MiniStack and converge with no finding: its fidelity layer answers
    DescribeCacheParameters ``Source=user`` with the parameters the module set
    (``elasticache.parameters-by-source``; MiniStack as released answered every default
    of the family, one permanent diff of ``parameter``)."""
    line, templates = line_templates
    stack = _stack(ministack, QUEUE_AND_CACHE, templates, tmp_path / "work")
    try:
        stack.apply().raise_for_error()
        assert stack.providers["registry.terraform.io/hashicorp/aws"].startswith(line)
        assert stack.ran_with.endswith(f", on ministack {PINNED_VERSION}")
        defects = stack.converged_defects()
        assert defects == [], [d.message for d in defects]
        stack.assert_converged()
        assert ministack.pid is not None
        assert foreign_connections(processes_in_group(ministack.pid)) == []
        names = [q.rsplit("/", 1)[1] for q in ministack.client("sqs").list_queues()["QueueUrls"]]
        assert names == ["converge-jobs"]
    finally:
        stack.close()


def test_lost_response_on_a_create_leaves_a_duplicate(
    ministack: MiniStackEmulator, converge_toolchain: Any, tmp_path: Path
) -> None:
    """The SDK retries a CreateVpc whose answer was lost: MiniStack made two VPCs, the
    second plan is empty, the inventory finds the one state does not track."""
    templates = Templates(converge_toolchain, tmp_path / "templates")
    stack = _stack(ministack, MODULES / "vpc_and_subnet", templates, tmp_path / "work")
    try:
        report = stack.recover(LostResponse("CreateVpc"))
        assert [(d.kind, d.address) for d in report.errors] == [("duplicate", "aws_vpc.main")]
        assert "10.30.0.0/16" in report.errors[0].message
    finally:
        stack.close()


def test_a_service_it_lacks_is_left_untested_and_the_rest_judged(
    ministack: MiniStackEmulator, converge_toolchain: Any, tmp_path: Path
) -> None:
    """MiniStack serves no RAM: the module is not refused, the share is left untested
    (its answer counts as not implemented, so terraform goes on) and the queue is judged."""
    templates = Templates(converge_toolchain, tmp_path / "templates")
    stack = _stack(ministack, MODULES / "queue_and_share", templates, tmp_path / "work")
    try:
        found = stack.converged_defects()
        assert [(d.kind, d.address, d.observed) for d in found] == [
            ("untested", "aws_ram_resource_share.shared", "ram:CreateResourceShare")
        ]
        made = [r["address"] for r in stack.state()["values"]["root_module"]["resources"]]
        assert made == ["aws_sqs_queue.jobs"]
    finally:
        stack.close()


def test_lost_response_on_a_named_create_leaves_a_leftover_the_rerun_collides_with(
    ministack: MiniStackEmulator, converge_toolchain: Any, tmp_path: Path
) -> None:
    templates = Templates(converge_toolchain, tmp_path / "templates")
    stack = _stack(ministack, QUEUE_AND_CACHE, templates, tmp_path / "work")
    try:
        report = stack.recover(LostResponse("CreateCacheParameterGroup"))
        [error] = report.errors
        assert error.kind == "recovery-failed"
        assert error.address == "aws_elasticache_parameter_group.redis"
        assert "CacheParameterGroupAlreadyExists" in error.message
    finally:
        stack.close()


def _leftovers(marker: str) -> list[str]:
    """Processes whose command line or working directory mentions ``marker``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if marker in cmd or marker in cwd:
            found.append(f"{pid} {cmd[:200]}")
    return found


def test_a_session_on_ministack_names_it_and_leaves_nothing_running(tmp_path: Path) -> None:
    """``--converge-backend ministack`` from the command line: the plugin starts it, the
    failure header and the JSON report name it and its version, nothing outlives pytest."""
    assert COMMAND is not None
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    (tmp_path / "test_on_ministack.py").write_text(
        "def test_two_run(converge):\n"
        f"    stack = converge(r'{QUEUE_AND_CACHE}')\n"
        "    stack.apply().raise_for_error()\n"
        "    stack.assert_converged()\n"
        "    assert stack.emulator.name == 'ministack'\n"
        "def test_escape(converge):\n"
        f"    converge(r'{MODULES / 'vpc_and_subnet'}').recover(\n"
        "        __import__('pytest_converge').LostResponse('CreateVpc')).raise_for_defects()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
         "--converge-backend", "ministack", "--converge-report", "converge.json", str(tmp_path)],
        cwd=tmp_path,
        # Its temp dir under tmp_path: a MiniStack left behind would be found by it.
        env={**os.environ, "TMPDIR": str(scratch), EXECUTABLE_ENV: " ".join(COMMAND.argv[:1])},
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    out = proc.stdout + proc.stderr
    assert "1 failed, 1 passed" in proc.stdout, out
    assert f"on ministack {PINNED_VERSION}]" in proc.stdout, out
    report = json.loads((tmp_path / "converge.json").read_text())
    backends = [t["backend"] for t in report["toolchains"].values()]
    assert backends == [{"name": "ministack", "version": PINNED_VERSION}] * 2, backends
    assert [d["kind"] for d in report["defects"] if d["severity"] == "error"] == ["duplicate"]
    assert _leftovers(str(tmp_path)) == []


REDRIVE = (
    'provider "aws" {\n  region = "us-east-1"\n}\n'
    'resource "aws_sqs_queue" "dlq" {\n  name = "confirm-dlq"\n}\n'
    'resource "aws_sqs_queue" "work" {\n  name = "confirm-work"\n'
    "  redrive_policy = jsonencode({\n"
    "    deadLetterTargetArn = aws_sqs_queue.dlq.arn\n"
    "    maxReceiveCount     = 5\n  })\n}\n"
)
#: A queue that changes on every plan wherever it runs (the module's own defect).
STAMPED = (
    'resource "aws_sqs_queue" "stamped" {\n  name = "confirm-stamped"\n'
    "  tags = {\n    deployed = timestamp()\n  }\n}\n"
)


def test_zero_code_confirm_with_ministack(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """moto as released answers an SQS redrive policy re-spaced (a permanent diff, an
    error); MiniStack answers it compact: ``--converge-confirm-with ministack`` makes it a
    suspected emulator gap with MiniStack's second plan as evidence. A queue tagged with
    ``timestamp()`` changes on both: that error stays one, confirmed on MiniStack (name and
    version), and the suspected one carries no such mark. No Docker, no token."""
    from pytest_converge.emulator.fidelity import OFF_VARIABLE

    assert COMMAND is not None
    # pytester points HOME elsewhere: tell the inner run where MiniStack is.
    monkeypatch.setenv(EXECUTABLE_ENV, COMMAND.argv[0])
    monkeypatch.setenv(OFF_VARIABLE, "sqs.redrive-policy-json")  # moto as released, there
    module = pytester.path / "mods" / "redrive"
    module.mkdir(parents=True)
    (module / "main.tf").write_text(REDRIVE + STAMPED)
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "--converge-confirm-with=ministack",
        "-p",
        "no:cacheprovider",
        "--converge-report",
        "report.json",
        "--junitxml",
        "junit.xml",
    )
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "suspected emulator gaps (1" in out
    report = json.loads((pytester.path / "report.json").read_text())
    diffs = {d["address"]: d for d in report["defects"] if d["kind"] == "permanent-diff"}
    diff, stamped = diffs["aws_sqs_queue.work"], diffs["aws_sqs_queue.stamped"]
    assert diff["emulator_suspected"] and "ministack does not show" in diff["evidence"]
    assert diff["severity"] == "warning" and diff["confirmed_by"] is None
    assert "its second plan: 1 to update" in diff["evidence"]  # MiniStack's: the stamped one
    # Both show the timestamp's change: an error, and it says who confirmed it.
    assert stamped["severity"] == "error" and not stamped["emulator_suspected"]
    assert stamped["confirmed_by"]["emulator"] == "ministack"
    assert stamped["confirmed_by"]["version"] == PINNED_VERSION
    assert "to update" in stamped["confirmed_by"]["plan"]  # MiniStack's second plan
    mark = f"[confirmed on ministack {PINNED_VERSION}]"
    # Once in the failure; pytest repeats it in the short summary where CI is set.
    marked = [ln for ln in out.splitlines() if mark in ln]
    assert marked and all("aws_sqs_queue.stamped" in ln for ln in marked), marked
    assert f"confirmed  ministack {PINNED_VERSION} shows it too" in out
    junit = (pytester.path / "junit.xml").read_text()
    assert f'name="converge.confirmed_by" value="ministack {PINNED_VERSION}"' in junit
    assert junit.count("converge.confirmed_by") == 1  # not on the suspected one


def test_a_test_module_pins_ministack_beside_the_runs_moto(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pytestmark = pytest.mark.converge(backend="ministack")``: that file's Stacks run on
    MiniStack (moto has no CreateCacheParameterGroup), the other file's on the run's moto;
    the report names each module's backend."""
    assert COMMAND is not None
    monkeypatch.setenv(EXECUTABLE_ENV, COMMAND.argv[0])  # pytester points HOME elsewhere
    pytester.makepyfile(
        test_cache=(
            "import pytest\n"
            "pytestmark = pytest.mark.converge(backend='ministack')\n"
            "def test_cache(converge):\n"
            f"    stack = converge(r'{QUEUE_AND_CACHE}')\n"
            "    stack.apply().raise_for_error()\n"
            "    stack.assert_converged()\n"
            "    assert stack.emulator.name == 'ministack'\n"
        ),
        test_network=(
            "def test_network(converge):\n"
            f"    stack = converge(r'{MODULES / 'vpc_and_subnet'}')\n"
            "    stack.apply().raise_for_error()\n"
            "    stack.assert_converged()\n"
            "    assert stack.emulator.name == 'moto'\n"
        ),
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge-report", "report.json"
    )
    result.assert_outcomes(passed=2)
    report = json.loads((pytester.path / "report.json").read_text())
    names = {m: t["backend"]["name"] for m, t in report["toolchains"].items()}
    assert sorted(names.values()) == ["ministack", "moto"], names


def test_a_killed_pytest_leaves_no_ministack(tmp_path: Path) -> None:
    """SIGKILL to pytest (no cleanup runs): the cancel reaper kills MiniStack's process
    group and removes its temp dir."""
    assert COMMAND is not None
    ready = tmp_path / "pid"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    (tmp_path / "test_hang.py").write_text(
        "import time\n"
        "def test_hang(converge_emulator):\n"
        f"    open(r'{ready}', 'w').write(str(converge_emulator.pid))\n"
        "    time.sleep(300)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
         "--converge-backend", "ministack", str(tmp_path)],
        cwd=tmp_path,
        env={**os.environ, EXECUTABLE_ENV: COMMAND.argv[0], "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (ready.exists() and ready.read_text()) and time.monotonic() < deadline:
            assert proc.poll() is None, "pytest ended before MiniStack started"
            time.sleep(0.2)
        pid = int(ready.read_text())
        assert processes_in_group(pid)
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        while processes_in_group(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_in_group(pid) == []
        while list(scratch.glob("converge-ministack-*")) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert list(scratch.glob("converge-ministack-*")) == []
    finally:
        if proc.poll() is None:
            proc.kill()


def test_zero_code_keeps_a_module_with_an_operation_gap_on_moto_and_pins_another(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module needing an operation moto lacks in a service it has (a spot datafeed
    subscription: ec2) stays on moto, partly verified (MiniStack's pre-flight finds
    it lacks ``ec2:CreateSpotDatafeedSubscription`` too); another is pinned to MiniStack
    by ``--converge-module-backends``; a third stays on moto. The report names each
    module's backend."""
    import shutil

    assert COMMAND is not None
    monkeypatch.setenv(EXECUTABLE_ENV, COMMAND.argv[0])  # pytester points HOME elsewhere
    shutil.copytree(MODULES / "partly_served", pytester.path / "mods" / "capacity")
    shutil.copytree(MODULES / "vpc_and_subnet", pytester.path / "mods" / "pinned")
    shutil.copytree(MODULES / "two_queues", pytester.path / "mods" / "queues")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "--converge-module-backends=mods/pin*=ministack",
        "-p",
        "no:cacheprovider",
        "--converge-report",
        "report.json",
    )
    report = json.loads((pytester.path / "report.json").read_text())
    names = {m: t["backend"]["name"] for m, t in report["toolchains"].items()}
    assert names == {
        "mods/capacity": "moto",
        "mods/pinned": "ministack",
        "mods/queues": "moto",
    }, result.stdout.str()[-3000:]


CIDR_ASSOCIATION = "aws_vpc_ipv4_cidr_block_association.extra"


def test_the_pre_flight_names_an_operation_it_lacks_before_any_apply(
    ministack: MiniStackEmulator, converge_toolchain: Any, tmp_path: Path
) -> None:
    """MiniStack serves EC2 and has no AssociateVpcCidrBlock (``data/served/ministack.json``,
    from its EC2 dispatch table): the Stack knows it before any apply, the apply leaves
    the association out and judges the VPC, and the finding says it was named before."""
    templates = Templates(converge_toolchain, tmp_path / "templates")
    stack = _stack(ministack, MODULES / "vpc_cidr_association", templates, tmp_path / "work")
    try:
        assert stack.last_apply is None and not stack.workspace.applied
        assert [
            (u.address, f"{u.service}:{u.operation}") for u in stack.served.preflight.unservable
        ] == [(CIDR_ASSOCIATION, "ec2:AssociateVpcCidrBlock")]
        found = stack.converged_defects()
        assert [(d.kind, d.address, d.observed) for d in found] == [
            ("untested", CIDR_ASSOCIATION, "ec2:AssociateVpcCidrBlock")
        ]
        assert found[0].evidence.startswith("named before the apply")
        made = [r["address"] for r in stack.state()["values"]["root_module"]["resources"]]
        assert made == ["aws_vpc.main"]
    finally:
        stack.close()


def test_zero_code_on_ministack_says_the_pre_flight_before_the_apply(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--converge-backend ministack``: the pre-flight line names the association and
    its operation before the clean apply starts, and the item passes partly verified."""
    import shutil

    assert COMMAND is not None
    monkeypatch.setenv(EXECUTABLE_ENV, COMMAND.argv[0])  # pytester points HOME elsewhere
    shutil.copytree(MODULES / "vpc_cidr_association", pytester.path / "mods" / "cidr")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-backend=ministack",
        "--converge-faults=none",
        "-p",
        "no:cacheprovider",
        "-n",
        "0",
        "--log-cli-level=INFO",
        "--converge-report",
        "report.json",
    )
    out = result.stdout.str() + result.stderr.str()
    line = f"pre-flight: ministack cannot serve {CIDR_ASSOCIATION} (ec2:AssociateVpcCidrBlock)"
    assert line in out, out[-3000:]
    assert out.index(line) < out.index("mods/cidr: apply"), out[-3000:]  # before any apply
    assert "partly verified" in out, out[-3000:]
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["partly_verified"]["mods/cidr"][0]["operation"] == "ec2:AssociateVpcCidrBlock"
    assert not [d for d in report["defects"] if d["severity"] == "error"]
    [untested] = [d for d in report["defects"] if d["kind"] == "untested"]
    assert untested["evidence"].startswith("named before the apply"), untested


#: (service, operation) pairs whose served answer the data gives, asked of MiniStack
#: itself: a service's table names it, or its answer is "Unknown ... action".
ASKED = [
    ("ec2", "AssociateVpcCidrBlock"),
    ("ec2", "CreateTransitGateway"),
    ("ec2", "CreateSpotDatafeedSubscription"),
    ("ecr", "PutRegistryPolicy"),
    ("ecr", "CreatePullThroughCacheRule"),
    ("ec2", "CreateVpc"),
    ("ec2", "DescribeVpcs"),
    ("ecr", "DescribeRepositories"),
    ("elasticache", "CreateCacheParameterGroup"),
    ("cloudwatch", "PutCompositeAlarm"),
    ("sqs", "ListQueues"),
]


def _dummy(shape: Any, depth: int = 0) -> Any:
    kind = getattr(shape, "type_name", "string")
    if kind == "structure":
        members = getattr(shape, "members", {})
        required = getattr(shape, "required_members", [])
        return {m: _dummy(members[m], depth + 1) for m in required} if depth < 4 else {}
    return {"list": [], "map": {}, "integer": 1, "long": 1, "boolean": False}.get(kind, "x")


def test_the_served_data_agrees_with_ministack_itself(ministack: MiniStackEmulator) -> None:
    """Each operation the data says MiniStack lacks is answered "Unknown ... action"
    (400 InvalidAction, at once); each it serves is answered otherwise."""
    from botocore.config import Config
    from botocore.exceptions import ClientError

    from pytest_converge.emulator.served import served

    options = ministack.client_options()
    options["config"] = options["config"].merge(
        Config(parameter_validation=False, retries={"max_attempts": 0})
    )
    said: dict[tuple[str, str], bool | None] = {}
    for service, operation in ASKED:
        client = ministack.session().client(service, **options)
        model = client.meta.service_model.operation_model(operation)
        params = _dummy(model.input_shape) if model.input_shape is not None else {}
        method = {v: k for k, v in client.meta.method_to_api_mapping.items()}[operation]
        try:
            getattr(client, method)(**params)
            said[(service, operation)] = True
        except ClientError as exc:
            error = exc.response.get("Error", {})
            unknown = error.get("Code") == "InvalidAction" and "nknown" in error.get("Message", "")
            said[(service, operation)] = not unknown
    assert said == {(s, o): served("ministack").serves(s, o) for s, o in ASKED}
