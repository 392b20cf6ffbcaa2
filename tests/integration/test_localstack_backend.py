"""The LocalStack host-process backend for real: start, AWS calls, reset, stop, external mode.

Needs a Python >= 3.13 with localstack-core[runtime]; `.ci/install-localstack.sh` makes one.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_converge.emulator import localstack as ls
from pytest_converge.errors import EmulatorError

pytestmark = pytest.mark.localstack


@pytest.fixture(scope="module")
def localstack_python() -> str:
    """The interpreter that runs LocalStack here, or skip with how to get one."""
    python, reasons = ls.find_localstack_python()
    if python is None:
        pytest.skip(
            "no Python with LocalStack found: run `.ci/install-localstack.sh` "
            f"(or set {ls.PYTHON_ENV}); " + "; ".join(reasons)
        )
    return python


@pytest.fixture(scope="module")
def host(localstack_python: str) -> Iterator[ls.HostLocalStack]:
    """One LocalStack host process shared by this module's tests."""
    emulator = ls.HostLocalStack(localstack_python)
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture
def clean_host(host: ls.HostLocalStack) -> ls.HostLocalStack:
    host.reset()
    return host


def processes_in_group(pgid: int) -> list[int]:
    """Live pids whose process group is ``pgid`` (read from /proc, no psutil needed)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


def port_is_listening(port: int) -> bool:
    hex_port = f":{port:04X} "
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        if any(hex_port in line and line.split()[3] == "0A" for line in lines):
            return True
    return False


def test_health_lists_the_services_terraform_modules_use(host: ls.HostLocalStack) -> None:
    services = host.services()
    for name in ("s3", "ec2", "sqs", "iam", "sns", "sts", "logs", "kms"):
        assert name in services, services
    assert host.health()["version"] == "2026.3.0"
    assert host.is_alive()
    assert host.endpoint.startswith("http://127.0.0.1:")


def test_gateway_listens_on_loopback_only(host: ls.HostLocalStack) -> None:
    port = int(host.endpoint.rsplit(":", 1)[1])
    lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    local = [line.split()[1] for line in lines if line.split()[3] == "0A"]
    assert f"0100007F:{port:04X}" in local  # 127.0.0.1
    assert f"00000000:{port:04X}" not in local  # not 0.0.0.0


def test_s3_bucket_round_trip(clean_host: ls.HostLocalStack) -> None:
    s3 = clean_host.client("s3")
    s3.create_bucket(Bucket="converge-bucket")
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == ["converge-bucket"]


def test_ec2_vpc_subnet_security_group(clean_host: ls.HostLocalStack) -> None:
    ec2 = clean_host.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.42.0.0/16")["Vpc"]["VpcId"]
    ec2.create_subnet(VpcId=vpc, CidrBlock="10.42.1.0/24")
    ec2.create_security_group(GroupName="web", Description="web", VpcId=vpc)
    cidrs = sorted(v["CidrBlock"] for v in ec2.describe_vpcs()["Vpcs"])
    assert cidrs == ["10.42.0.0/16", "172.31.0.0/16"]  # ours + the default VPC


def test_sqs_queue_url_is_the_form_the_provider_parses(clean_host: ls.HostLocalStack) -> None:
    # <endpoint>/<account>/<name>: the AWS provider 3.x splits the path in two.
    url = clean_host.client("sqs").create_queue(QueueName="jobs")["QueueUrl"]
    assert url == f"{clean_host.endpoint}/000000000000/jobs"


def test_reset_empties_every_service_in_place(clean_host: ls.HostLocalStack) -> None:
    host = clean_host
    endpoint, pid = host.endpoint, host.pid
    host.client("s3").create_bucket(Bucket="to-be-forgotten")
    host.client("ec2").create_vpc(CidrBlock="10.7.0.0/16")
    host.client("sqs").create_queue(QueueName="to-be-forgotten")
    host.client("iam").create_role(RoleName="to-be-forgotten", AssumeRolePolicyDocument="{}")

    host.reset()

    # In place through LocalStack's state endpoint, not by a restart.
    assert host.reset_method == "state-endpoint"
    assert (host.endpoint, host.pid) == (endpoint, pid)  # same process, same port
    assert host.client("s3").list_buckets()["Buckets"] == []
    assert "QueueUrls" not in host.client("sqs").list_queues()
    assert host.client("iam").list_roles()["Roles"] == []
    vpcs = host.client("ec2").describe_vpcs()["Vpcs"]
    assert [v["CidrBlock"] for v in vpcs] == ["172.31.0.0/16"]  # the default VPC comes back


def test_external_mode_uses_the_running_instance_and_never_wipes_it(
    clean_host: ls.HostLocalStack,
) -> None:
    external = ls.localstack_emulator(endpoint=clean_host.endpoint)
    assert isinstance(external, ls.ExternalLocalStack) and not external.can_reset
    external.start()
    external.client("s3").create_bucket(Bucket="shared-bucket")
    external.reset()
    external.stop()
    names = [b["Name"] for b in clean_host.client("s3").list_buckets()["Buckets"]]
    assert names == ["shared-bucket"]  # reset deleted nothing, stop killed nothing
    assert clean_host.is_alive()


def test_restart_reset_keeps_the_endpoint_and_stop_leaves_nothing(
    localstack_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    emulator = ls.HostLocalStack(localstack_python)
    try:
        emulator.start()
        endpoint, first_pid = emulator.endpoint, emulator.pid
        assert first_pid is not None
        emulator.client("sqs").create_queue(QueueName="before-restart")

        # As if the state reset API were missing (another localstack-core version).
        monkeypatch.setattr(emulator, "_reset_via_endpoint", lambda: False)
        emulator.reset()
        assert emulator.reset_method == "restart"
        assert emulator.endpoint == endpoint and emulator.pid != first_pid
        assert processes_in_group(first_pid) == []
        assert "QueueUrls" not in emulator.client("sqs").list_queues()
        pid = emulator.pid
        assert pid is not None
    finally:
        emulator.stop()
    assert processes_in_group(pid) == []
    assert not os.path.exists(f"/proc/{pid}")
    assert not port_is_listening(int(endpoint.rsplit(":", 1)[1]))
    emulator.stop()  # idempotent


def test_a_python_without_localstack_fails_fast_with_the_log_tail() -> None:
    emulator = ls.HostLocalStack(sys.executable, start_timeout=30)
    with pytest.raises(EmulatorError) as info:
        emulator.start()
    message = str(info.value)
    assert "exited with code" in message and "localstack" in message
    assert emulator.pid is None


def test_a_taken_port_is_reported_not_waited_on(localstack_python: str) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        emulator = ls.HostLocalStack(localstack_python, port=port)
        # Named as the cause (the process's own bind error), not a readiness timeout.
        with pytest.raises(EmulatorError, match=f"could not bind 127.0.0.1:{port}") as info:
            emulator.start()
    assert "did not" not in str(info.value) and "timed out" not in str(info.value)
    assert emulator.pid is None
