"""The package's own modules skip pytest's assertion rewriter; test modules do not."""

from __future__ import annotations

import sys

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
