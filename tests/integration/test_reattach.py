"""One aws provider process per Stack, reattached: faster, and crashes stay crashes.

Real terraform, the real provider 3.39 in ``-debug`` mode, moto. The crash
scenarios are run both ways (reattached and with terraform starting its own
providers) and must give the same outcome.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pytest_converge import Crash, Interrupt, LostResponse
from pytest_converge.run.stack import Stack, _outcome
from pytest_converge.terraform.workspace import Templates

MODULES = Path(__file__).resolve().parents[1] / "modules"


@pytest.fixture
def make_stack(converge_emulator, converge_toolchain, tmp_path):
    templates = Templates(converge_toolchain, tmp_path / "templates")
    (tmp_path / "templates").mkdir()
    made: list[Stack] = []
    converge_emulator.reset()  # the session's emulator: what an earlier test left (a bucket)

    def make(module: Path, reattach: bool = True) -> Stack:
        stack = Stack(
            module,
            emulator=converge_emulator,
            templates=templates,
            workdir=tmp_path,
            reattach=reattach,
            replay=False,
        )
        made.append(stack)
        return stack

    yield make
    for stack in made:
        stack.close()


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"  # a zombie is dead, just not reaped
    except OSError:
        return False


def test_terraform_uses_the_stacks_provider_not_its_own(make_stack):
    stack = make_stack(MODULES / "vpc_and_subnet")
    # Without the installed provider terraform could not start one itself:
    # the runs below can only work through the reattached process.
    shutil.rmtree(stack.workspace.workdir / ".terraform" / "providers")
    provider = stack.workspace.runner.provider
    assert provider is not None
    stack.apply().raise_for_error()
    assert stack.plan().is_empty
    assert stack.state()["values"]["root_module"]["resources"]
    assert provider.starts == 1, "apply, plan and show shared one process"
    pid = provider.pid
    assert pid is not None and pid_alive(pid)
    stack.close()
    assert not pid_alive(pid), "the provider is stopped with its Stack"


def test_without_reattach_terraform_starts_its_own(make_stack):
    stack = make_stack(MODULES / "vpc_and_subnet", reattach=False)
    assert stack.workspace.runner.provider is None
    stack.apply().raise_for_error()
    assert stack.plan().is_empty


def test_a_crash_kills_the_provider_and_the_next_run_gets_a_fresh_one(make_stack):
    stack = make_stack(MODULES / "vpc_and_subnet")
    provider = stack.workspace.runner.provider
    assert provider is not None
    crashed = stack.apply(Crash("CreateVpc"))
    assert not crashed.ok and crashed.signalled is not None
    assert provider.starts == 1
    assert not provider.alive(), "SIGKILL took the provider down with terraform"
    stack.apply().raise_for_error()
    assert provider.starts == 2 and provider.alive()


def test_an_interrupt_retires_the_provider_too(make_stack):
    stack = make_stack(MODULES / "vpc_and_subnet")
    provider = stack.workspace.runner.provider
    assert provider is not None
    first = provider.reattach_env()  # waits until it serves
    interrupted = stack.apply(Interrupt("CreateVpc"))
    assert not interrupted.ok
    assert not provider.alive()
    stack.apply().raise_for_error()
    assert provider.reattach_env() != first


@pytest.mark.parametrize(
    ("module", "fault"),
    [
        ("table_then_queue", Crash("CreateTable")),
        ("vpc_and_subnet", Crash("CreateVpc")),
        ("vpc_and_subnet", Crash("CreateSubnet")),
        ("two_queues", Crash("CreateQueue", n=2)),
        ("vpc_and_subnet", Interrupt("CreateVpc")),
        ("vpc_and_subnet", LostResponse("CreateVpc")),
        # Two configurations: a process each behind the relay (schema_proxy).
        ("two_regions", Crash("CreateBucket")),
    ],
    ids=lambda v: v if isinstance(v, str) else v.label,
)
def test_fault_outcomes_are_the_same_with_and_without_reattach(make_stack, module, fault):
    outcomes = {}
    for reattach in (True, False):
        report = make_stack(MODULES / module, reattach=reattach).recover(fault)
        outcomes[reattach] = (
            report.first.ok,
            report.first.signalled,
            report.second.ok if report.second else None,
            _outcome(report.defects),
            len(report.created),
        )
    assert outcomes[True] == outcomes[False]


def _configuration_processes(provider) -> list:
    """Record the processes the relay starts for ``provider``'s configurations."""
    started: list = []
    start = provider._configuration_process

    def recorded():
        process = start()
        started.append(process)
        return process

    provider._configuration_process = recorded
    return started


def _regions(calls) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for call in calls:
        if call.operation in ("CreateVpc", "CreateBucket"):
            found.setdefault(call.operation, set()).add(call.region)
    return found


def test_each_configuration_gets_a_provider_process_of_its_own(make_stack):
    """A module with an alias: one reattached process would hold the last configuration
    terraform sent it, so every call would sign for one region. Each configuration of a
    command gets its own process behind the relay; they end with the command."""
    stack = make_stack(MODULES / "two_regions")
    provider = stack.workspace.runner.provider
    assert provider is not None and provider.per_configuration
    started = _configuration_processes(provider)
    result = stack.apply()
    result.raise_for_error()
    # Each call signed for its own configuration's region, as terraform's own processes do.
    assert _regions(result.calls) == {
        "CreateVpc": {"eu-west-1", "us-west-2"},
        "CreateBucket": {"us-west-2"},
    }
    assert len(started) >= 2, "a process for each configuration the apply made"
    assert {p.pid for p in started}.isdisjoint({provider.pid})
    assert not any(p.alive() for p in started), "they end with the command"
    assert stack.plan().is_empty
    assert provider.starts == 1, "the Stack's own process served apply and plan"
    own = make_stack(MODULES / "two_regions", reattach=False)
    assert own.workspace.runner.provider is None
    assert _regions(own.apply().calls) == _regions(result.calls)


def test_a_crash_kills_each_configurations_process_too(make_stack):
    stack = make_stack(MODULES / "two_regions")
    provider = stack.workspace.runner.provider
    assert provider is not None
    started = _configuration_processes(provider)
    crashed = stack.apply(Crash("CreateVpc"))  # a VPC's re-run makes another: it passes
    assert not crashed.ok and crashed.signalled is not None
    assert started and not any(p.alive() for p in started)
    assert not provider.alive()
    stack.apply().raise_for_error()
    assert provider.alive() and provider.starts == 2


def test_a_provider_that_cannot_serve_falls_back_to_terraforms_own(make_stack, tmp_path):
    stack = make_stack(MODULES / "two_queues")
    provider = stack.workspace.runner.provider
    assert provider is not None
    provider.stop()
    # A provider build without -debug (2.x) exits without a reattach value.
    fake = tmp_path / "terraform-provider-aws_v0.0.1_x5"
    fake.write_text("#!/bin/sh\necho 'unknown flag -debug' >&2\nexit 1\n")
    fake.chmod(0o755)
    provider.binary = fake
    stack.apply().raise_for_error()
    assert stack.workspace.runner.provider is None
    assert stack.plan().is_empty


def test_the_provider_runs_in_the_stacks_workdir_with_its_environment(make_stack, monkeypatch):
    monkeypatch.setenv("AWS_PROFILE", "nonexistent")
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    stack = make_stack(MODULES / "two_queues")
    provider = stack.workspace.runner.provider
    assert provider is not None
    provider.reattach_env()
    pid = provider.pid
    assert os.readlink(f"/proc/{pid}/cwd") == str(stack.workspace.workdir)
    environ = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    config_file = str(stack.workspace.runner.env["TF_CLI_CONFIG_FILE"])
    assert b"TF_CLI_CONFIG_FILE=" + config_file.encode() in environ
    assert not any(e.startswith(b"AWS_PROFILE=") for e in environ)
    # The only proxy it knows is the Stack's own egress guard, never the user's.
    proxies = {e for e in environ if e.startswith(b"HTTPS_PROXY=")}
    guard = stack.egress_guard.proxy_env()["HTTPS_PROXY"].encode()
    assert proxies == {b"HTTPS_PROXY=" + guard}
    stack.apply().raise_for_error()
    assert stack.plan().is_empty


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_a_killed_pytest_leaves_no_provider_behind(tmp_path, sig):
    """Killed without any cleanup (a cancelled CI job), pytest still takes its
    providers down: the kernel kills them when their parent dies."""
    import signal
    import subprocess
    import sys
    import time

    pid_file = tmp_path / "provider.pid"
    (tmp_path / "test_hang.py").write_text(
        "import time\n"
        "def test_hang(converge):\n"
        f"    stack = converge(r'{MODULES / 'two_queues'}')\n"
        "    stack.workspace.runner.provider.reattach_env()\n"
        f"    open(r'{pid_file}', 'w').write(str(stack.workspace.runner.provider.pid))\n"
        "    time.sleep(600)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300
        while not pid_file.exists() or not pid_file.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, "pytest never got there"
            time.sleep(0.2)
        provider = int(pid_file.read_text())
        assert pid_alive(provider)
        proc.send_signal(getattr(signal, sig))
        proc.wait(timeout=60)
        deadline = time.monotonic() + 30
        while pid_alive(provider) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not pid_alive(provider)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
