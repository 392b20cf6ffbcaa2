"""A LocalStack at an ``https://127.0.0.1`` endpoint: accepted by every check, and it works.

Before one loopback rule, such an endpoint passed the session's and LocalStack's
checks and failed every Stack at the fault proxy's (which allowed http:// only).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge.emulator.localstack import ExternalLocalStack
from pytest_converge.errors import EmulatorError
from pytest_converge.run.stack import Stack
from pytest_converge.terraform.workspace import Templates

pytestmark = pytest.mark.localstack
MODULES = Path(__file__).resolve().parents[1] / "modules"


@pytest.fixture(scope="module")
def https_localstack():
    from pytest_converge.emulator.localstack import localstack_emulator

    try:
        host = localstack_emulator()
        host.start()
    except EmulatorError as exc:
        pytest.skip(f"no LocalStack: {exc}")
    try:
        # LocalStack serves TLS (a self-signed certificate) on its one port.
        external = ExternalLocalStack(host.endpoint.replace("http://", "https://"))
        external.start()
        yield external
    finally:
        host.stop()


def test_a_stack_runs_against_an_https_loopback_endpoint(
    https_localstack, converge_toolchain, tmp_path
):
    assert https_localstack.endpoint.startswith("https://127.0.0.1:")
    stack = Stack(
        MODULES / "vpc_and_subnet",
        emulator=https_localstack,
        templates=Templates(converge_toolchain, tmp_path / "templates"),
        workdir=tmp_path,
    )
    try:
        assert stack.proxy.upstream.startswith("https://")
        stack.apply().raise_for_error()
        stack.assert_converged()
        vpcs = https_localstack.client("ec2").describe_vpcs()["Vpcs"]
        vpc_ids = {v["VpcId"] for v in vpcs}
        state = stack.state()["values"]["root_module"]["resources"]
        created = next(r["values"]["id"] for r in state if r["type"] == "aws_vpc")
        assert created in vpc_ids
    finally:
        stack.close()
