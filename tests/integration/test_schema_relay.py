"""The schema relay in front of a reattached provider, for real (terraform, the provider, moto).

terraform asks for the provider's schema and validates the provider block several
times per command; the relay answers the repeats from memory and forwards the rest
byte for byte. What terraform plans and applies must not change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_converge.terraform import schema_proxy

MODULES = Path(__file__).resolve().parents[1] / "modules"


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_repeated_schema_and_config_calls_are_answered_once_per_build(converge, provider_line):
    stack = converge(provider_line.pin(MODULES / "vpc_and_subnet"))
    stack.apply().raise_for_error()
    provider = stack.workspace.runner.provider
    assert provider is not None and provider._relay is not None, "the Stack's provider is relayed"
    relay = provider._relay
    first = (relay.forwarded, relay.replayed)
    pid = provider.pid
    assert pid is not None
    before = _cpu_seconds(pid)
    assert stack.plan().is_empty
    # The plan's schema and provider-config calls were all answered from memory...
    assert relay.forwarded == first[0], "a repeat was sent to the provider"
    assert relay.replayed > first[1]
    # ... so the provider only worked on the plan's reads (aws 5.x: ~5 CPU s without it).
    assert _cpu_seconds(pid) - before < 1.0
    assert schema_proxy.cached_builds() >= 2


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_one_command_asks_for_the_schema_once(converge, provider_line):
    """The replayed schema says it need not be asked for again: terraform keeps it for
    every provider client of the command (without that, one call per client: 3 here)."""
    stack = converge(provider_line.pin(MODULES / "vpc_and_subnet"))
    stack.apply().raise_for_error()
    provider = stack.workspace.runner.provider
    assert provider is not None and provider._relay is not None
    relay = provider._relay
    before = relay.schema_calls
    assert stack.plan().is_empty
    assert relay.schema_calls - before == 1


def test_a_relayed_plan_is_the_plan_without_the_relay(converge, tmp_path):
    """The same module, changed after its apply: the plan's JSON is the same both ways."""
    module = tmp_path / "m"
    module.mkdir()
    (module / "main.tf").write_text(
        'variable "cidr" {}\n'
        'resource "aws_vpc" "main" {\n  cidr_block = var.cidr\n  tags = { Name = "r" }\n}\n'
        'resource "aws_sqs_queue" "q" {\n  name = "relay-q"\n}\n'
    )
    plans = []
    for relay in (True, False):
        stack = converge(module, vars={"cidr": "10.1.0.0/16"})
        assert stack.workspace.runner.provider is not None
        stack.workspace.runner.provider.relay_schema = relay
        stack.workspace.runner.provider.stop()  # the next command starts it with the setting
        stack.apply().raise_for_error()
        stack.reconfigure({"cidr": "10.2.0.0/16"})
        plan = stack.plan()
        assert (stack.workspace.runner.provider._relay is not None) is relay
        plans.append(
            [
                (
                    rc.address,
                    rc.actions,
                    sorted((a.path, str(a.declared), a.forces_replacement) for a in rc.attributes),
                )
                for rc in plan.changes
            ]
        )
    assert plans[0] == plans[1]
    [(address, actions, attributes)] = plans[0]
    assert address == "aws_vpc.main" and "create" in actions
    assert ("cidr_block", "10.2.0.0/16", True) in attributes


def test_a_relay_that_cannot_start_leaves_terraform_talking_to_the_provider(
    converge, monkeypatch, caplog
):
    def refuse(self):
        raise OSError(f"cannot listen on unix:{self.listen}")

    monkeypatch.setattr(schema_proxy.SchemaRelay, "start", refuse)
    stack = converge(MODULES / "vpc_and_subnet")
    stack.apply().raise_for_error()
    assert stack.plan().is_empty
    provider = stack.workspace.runner.provider
    assert provider is not None and provider._relay is None
    assert "provider schema relay not started" in caplog.text


def test_a_trimmed_schema_serves_a_called_modules_types_and_a_type_only_state_names(
    converge, tmp_path
):
    """terraform gets only the types the module's files and state name: a type declared
    in a module it calls, a data source, and a type left only in state (its resource
    removed from the configuration: the plan deletes it) are all served."""
    module = tmp_path / "m"
    (module / "child").mkdir(parents=True)
    calls = 'module "child" {\n  source = "./child"\n}\n'
    (module / "main.tf").write_text(
        calls + 'resource "aws_s3_bucket" "gone" {\n  bucket = "trim-gone"\n}\n'
    )
    (module / "child" / "main.tf").write_text(
        'data "aws_region" "here" {}\n'
        'resource "aws_sqs_queue" "q" {\n  name = "trim-${data.aws_region.here.name}"\n}\n'
    )
    stack = converge(module)
    stack.apply().raise_for_error()
    provider = stack.workspace.runner.provider
    assert provider is not None and provider._relay is not None
    relay = provider._relay
    assert relay.trimmed >= 1, "the schema answer was not trimmed"
    assert stack.plan().is_empty

    (stack.workspace.workdir / "main.tf").write_text(calls)
    plan = stack.plan()
    assert [(rc.address, "delete" in rc.actions) for rc in plan.changes] == [
        ("aws_s3_bucket.gone", True)
    ]
