"""The shipped aws provider blocks are what the provider says, and spare a fresh cache
``terraform providers schema -json`` (real terraform and providers; no emulator)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pytest_converge.plugin.session import get_session
from pytest_converge.terraform import workspace
from pytest_converge.terraform.runner import Runner
from pytest_converge.terraform.toolchain import resolve_toolchain
from pytest_converge.terraform.workspace import Templates, provider_block, shipped_provider_block

MODULE = Path(__file__).resolve().parents[1] / "modules" / "two_queues"


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_the_shipped_block_of_each_installed_version_is_what_its_provider_says(
    provider_line, pytestconfig, tmp_path
):
    templates = get_session(pytestconfig).templates(tmp_path)
    template = templates.get(provider_line.pin(MODULE))
    assert template.schema is not None
    version = template.schema.version
    shipped = shipped_provider_block(version)
    if shipped is None:
        pytest.skip(f"aws {version} is not in the shipped table (scripts/aws_provider_blocks.py)")
    workdir = template.root / template.subdir
    shown = subprocess.run(
        [*templates.toolchain.command, "providers", "schema", "-json"],
        cwd=workdir,
        env=templates.env(workdir),
        capture_output=True,
        text=True,
        check=True,
    )
    assert provider_block(json.loads(shown.stdout)) == shipped
    assert template.schema.endpoints == frozenset(shipped["endpoints"])


def test_a_fresh_cache_takes_a_shipped_block_and_asks_the_provider_for_any_other(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    toolchain = resolve_toolchain()
    ran: list[str] = []
    real = Runner.run

    def spy(self, cmd, *args, **kwargs):
        ran.append(cmd)
        return real(self, cmd, *args, **kwargs)

    monkeypatch.setattr(Runner, "run", spy)
    template = Templates(toolchain, tmp_path / "t").get(MODULE)
    assert template.schema is not None
    version = template.schema.version
    shipped = shipped_provider_block(version)
    assert shipped is not None, f"the bundled aws {version} is in the shipped table"
    assert "init" in ran and "providers schema" not in ran, ran
    assert template.schema.attributes == frozenset(shipped["attributes"])
    assert not list((tmp_path / "cache").glob("schema-aws-*.json"))

    # A version the table does not hold is read from the provider (and cached).
    monkeypatch.setattr(workspace, "SHIPPED_BLOCKS", tmp_path / "absent.json")
    ran.clear()
    again = Templates(toolchain, tmp_path / "t2", cache=False).get(MODULE)
    assert "providers schema" in ran, ran
    assert again.schema == template.schema
    assert (tmp_path / "cache" / f"schema-aws-{version}.json").exists()
