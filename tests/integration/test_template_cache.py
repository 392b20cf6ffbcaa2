"""Initialised module copies are reused across sessions until the module, lock file or
engine change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_converge.run.stack import Stack
from pytest_converge.terraform.toolchain import resolve_toolchain
from pytest_converge.terraform.workspace import TEMPLATE_META, Templates

MODULES = Path(__file__).resolve().parents[1] / "modules"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache dir, so nothing here depends on earlier sessions."""
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def module(tmp_path):
    dest = tmp_path / "two_queues"
    shutil.copytree(MODULES / "two_queues", dest)
    return dest


def test_a_second_session_reuses_the_initialised_copy(cache, module, tmp_path, converge_emulator):
    toolchain = resolve_toolchain()
    first = Templates(toolchain, tmp_path / "s1")
    built = first.get(module)
    assert (first.built, first.reused) == (1, 0)
    assert (built.root / TEMPLATE_META).is_file()
    assert built.root.parent == cache / "templates"

    # A new session (a new Templates object, a new base dir): no init, same copy.
    second = Templates(resolve_toolchain(), tmp_path / "s2")
    reused = second.get(module)
    assert (second.built, second.reused) == (0, 1)
    assert reused.root == built.root
    assert reused.schema == built.schema and reused.provider == built.provider
    stack = Stack(module, emulator=converge_emulator, templates=second, workdir=tmp_path / "w")
    try:
        converge_emulator.reset()
        stack.apply().raise_for_error()
        assert stack.plan().is_empty
    finally:
        stack.close()


@pytest.mark.parametrize("change", ["module file", "lock file"])
def test_a_changed_module_or_lock_file_is_initialised_again(cache, module, tmp_path, change):
    toolchain = resolve_toolchain()
    old = Templates(toolchain, tmp_path / "s1").get(module)
    if change == "module file":
        (module / "extra.tf").write_text('output "x" {\n  value = 1\n}\n')
    else:
        shutil.copyfile(
            old.root / old.subdir / ".terraform.lock.hcl", module / ".terraform.lock.hcl"
        )
    again = Templates(toolchain, tmp_path / "s2")
    new = again.get(module)
    assert again.built == 1
    assert new.root != old.root


def test_an_unfinished_copy_is_rebuilt(cache, module, tmp_path):
    toolchain = resolve_toolchain()
    old = Templates(toolchain, tmp_path / "s1").get(module)
    (old.root / TEMPLATE_META).unlink()  # as if the session died during init
    again = Templates(toolchain, tmp_path / "s2")
    assert again.get(module).root == old.root
    assert again.built == 1 and (old.root / TEMPLATE_META).is_file()


def test_cache_off_builds_in_the_session_dir(cache, module, tmp_path):
    templates = Templates(resolve_toolchain(), tmp_path / "s1", cache=False)
    template = templates.get(module)
    assert tmp_path / "s1" in template.root.parents
    assert not (cache / "templates").exists()


def test_the_engine_version_is_asked_once_per_engine_binary(tmp_path):
    from pytest_converge.terraform.toolchain import cached_engine_version

    runs = tmp_path / "runs"
    engine = tmp_path / "terraform"
    engine.write_text(f"#!/bin/sh\necho x >> {runs}\necho 'Terraform v9.9.9'\n")
    engine.chmod(0o755)
    cache = tmp_path / "engines.json"
    for _ in range(3):
        assert cached_engine_version((str(engine),), {}, cache) == "9.9.9"
    assert runs.read_text().count("x") == 1
    engine.write_text(f"#!/bin/sh\necho x >> {runs}\necho 'Terraform v9.9.10'\n")  # upgraded
    assert cached_engine_version((str(engine),), {}, cache) == "9.9.10"
    assert runs.read_text().count("x") == 2
