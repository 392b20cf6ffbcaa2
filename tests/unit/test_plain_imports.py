"""The package's own modules skip pytest's assertion rewriter; test modules do not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook

import pytest_converge
from pytest_converge._plain_imports import PlainImports


def test_the_plugins_modules_are_imported_plainly_and_tests_are_still_rewritten() -> None:
    # This very module went through the rewriter: rewriting is on in this run,
    # so the plugin's modules would have been rewritten without PlainImports.
    assert isinstance(sys.modules[__name__].__loader__, AssertionRewritingHook)
    for name in (
        "pytest_converge.plugin.pytest_plugin",
        "pytest_converge.run.stack",
        "pytest_converge.faults.proxy",
    ):
        assert not isinstance(sys.modules[name].__loader__, AssertionRewritingHook), name
    assert sum(isinstance(f, PlainImports) for f in sys.meta_path) == 1


def test_the_finder_answers_only_for_the_packages_submodules() -> None:
    finder = PlainImports()
    assert finder.find_spec("pytest", None) is None
    assert finder.find_spec("pytest_converge_other.x", list(pytest_converge.__path__)) is None
    spec = finder.find_spec("pytest_converge.errors", list(pytest_converge.__path__))
    assert spec is not None and spec.origin is not None and spec.origin.endswith("errors.py")


def test_without_bytecode_writing_the_compiled_module_is_kept_in_the_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PYTHONDONTWRITEBYTECODE=1``: the package's modules are compiled once and kept
    under the plugin's cache directory (never beside the source), and compiled again
    when the source changes."""
    import os
    from types import CodeType

    from pytest_converge._plain_imports import KeptBytecode

    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "src" / "mod.py"
    source.parent.mkdir()
    source.write_text("VALUE = 1\n")
    loader = KeptBytecode("pytest_converge.mod", str(source))
    compiled: list[str] = []
    real = KeptBytecode.source_to_code

    def counting(self: KeptBytecode, data: bytes, path: str) -> CodeType:
        compiled.append(path)
        return real(self, data, path)

    monkeypatch.setattr(KeptBytecode, "source_to_code", counting)

    def value() -> int:
        scope: dict[str, int] = {}
        code = loader.get_code("pytest_converge.mod")
        assert code is not None
        exec(code, scope)
        return scope["VALUE"]

    assert value() == 1 and len(compiled) == 1
    [kept] = (tmp_path / "cache" / "bytecode").rglob("*.pyc")
    assert kept.name.startswith("mod-") and not (source.parent / "__pycache__").exists()
    assert value() == 1 and len(compiled) == 1  # read back, not compiled
    source.write_text("VALUE = 22\n")  # another size
    os.utime(source, (1_000_000_000, 1_000_000_000))  # another time
    assert value() == 22 and len(compiled) == 2


def test_the_finder_keeps_bytecode_only_where_python_writes_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pytest_converge._plain_imports import KeptBytecode

    finder = PlainImports()
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    spec = finder.find_spec("pytest_converge.errors", list(pytest_converge.__path__))
    assert spec is not None and isinstance(spec.loader, KeptBytecode)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    spec = finder.find_spec("pytest_converge.errors", list(pytest_converge.__path__))
    assert spec is not None and not isinstance(spec.loader, KeptBytecode)


def test_the_kept_modules_are_bounded_by_removing_the_older_half(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every checkout keeps its own compiled modules: past ``LIMIT`` the first write of a
    process removes the older half, and later writes of that process scan nothing."""
    import os

    from pytest_converge import _plain_imports
    from pytest_converge._plain_imports import KeptBytecode

    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(_plain_imports, "LIMIT", 10)
    monkeypatch.setattr(_plain_imports, "_pruned", False)
    kept = tmp_path / "cache" / "bytecode" / sys.implementation.cache_tag
    kept.mkdir(parents=True)
    for n in range(12):  # other checkouts' modules, oldest first
        old = kept / f"old{n}-{n:024d}.pyc"
        old.write_bytes(b"x")
        os.utime(old, (1_000_000_000 + n, 1_000_000_000 + n))
    sources = []
    for n in range(2):
        source = tmp_path / "src" / f"mod{n}.py"
        source.parent.mkdir(exist_ok=True)
        source.write_text(f"VALUE = {n}\n")
        sources.append(source)
    KeptBytecode("pytest_converge.mod0", str(sources[0])).get_code("pytest_converge.mod0")
    left = sorted(p.name.split("-")[0] for p in kept.glob("*.pyc"))
    # 13 kept (12 + the new one): the 6 oldest are gone, the new one stays.
    assert left == sorted(["mod0", *(f"old{n}" for n in range(6, 12))]), left
    for n in range(12, 20):
        (kept / f"old{n}-{n:024d}.pyc").write_bytes(b"x")
    KeptBytecode("pytest_converge.mod1", str(sources[1])).get_code("pytest_converge.mod1")
    assert len(list(kept.glob("*.pyc"))) == 16  # once a process: nothing removed now
