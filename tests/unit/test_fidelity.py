"""The fidelity layer is pinned to the moto it was written against.

Each behaviour of ``pytest_converge/emulator/fidelity/`` records the moto
versions (``MOTO_VERSIONS``) and a digest of the source of every moto function
it replaces or wraps. An upgrade that changes one fails here, naming the
behaviour to re-check against the new source (then update its digest); an
upgrade outside the range fails too. Reading source only: nothing is installed
in this process.
"""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

from pytest_converge.emulator import fidelity

REPO = Path(__file__).resolve().parents[2]
BEHAVIOURS = fidelity.behaviours()


def test_the_installed_moto_is_the_one_the_behaviours_were_written_against() -> None:
    installed = version("moto")
    assert installed in SpecifierSet(fidelity.MOTO_VERSIONS), (
        f"moto {installed} is outside {fidelity.MOTO_VERSIONS}, the versions the fidelity "
        "layer was written against: re-check every behaviour (tests/integration/test_fidelity_*), "
        "update the digests this file reports, then widen MOTO_VERSIONS"
    )


@pytest.mark.parametrize("item", BEHAVIOURS, ids=lambda b: b.name)
def test_moto_has_not_changed_under_a_behaviour(item: fidelity.Behaviour) -> None:
    changed = {
        dotted: (recorded, fidelity.source_digest(dotted))
        for dotted, recorded in item.replaces.items()
        if fidelity.source_digest(dotted) != recorded
    }
    assert not changed, (
        f"moto {version('moto')} changed what the fidelity behaviour {item.name} replaces: "
        + "; ".join(f"{d} (recorded {r}, now {n})" for d, (r, n) in changed.items())
        + f". Re-check {item.name} against the new source, then record the new digests."
    )


def test_behaviours_are_named_by_service_and_say_what_and_after_which_document() -> None:
    names = [b.name for b in BEHAVIOURS]
    assert len(names) == len(set(names))
    for item in BEHAVIOURS:
        assert item.service in fidelity.SERVICES, item.name
        assert item.reference.startswith("https://docs.aws.amazon.com/"), item.name
        assert len(item.does) > 30, item.name


@pytest.mark.parametrize("item", BEHAVIOURS, ids=lambda b: b.name)
def test_each_behaviour_names_the_test_that_shows_it(item: fidelity.Behaviour) -> None:
    path, _, name = item.test.partition("::")
    tree = ast.parse((REPO / path).read_text())
    assert name in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}, item.test


def test_the_layer_never_imports_the_plugin() -> None:
    """The moto server loads it by path: an import of ``pytest_converge`` would fail there."""
    for source in Path(fidelity.__file__).parent.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert not (node.module or "").startswith("pytest_converge"), source
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("pytest_converge") for a in node.names), source


def test_graft_adds_a_mixin_and_never_overwrites() -> None:
    class Response:
        def describe(self) -> str:
            return "moto"

    class Adds:
        def create(self) -> str:
            return "added"

    fidelity.graft(Adds, onto=Response)
    assert Response().create() == "added"

    class Clashes:
        def describe(self) -> str:
            return "ours"

    with pytest.raises(RuntimeError, match="already has describe"):
        fidelity.graft(Clashes, onto=Response)
    assert Response().describe() == "moto"


def test_behaviours_are_turned_off_by_name_service_or_all(monkeypatch) -> None:
    assert fidelity._parse_off("ec2.subnet-attributes, logs,") == {"ec2.subnet-attributes", "logs"}
    assert fidelity._parse_off(["all"]) == {"all"}


def test_the_docs_list_every_behaviour_with_its_test() -> None:
    page = (REPO / "docs" / "emulator-gaps.md").read_text()
    for item in BEHAVIOURS:
        row = next((line for line in page.splitlines() if f"| `{item.name}` |" in line), "")
        assert row, f"docs/emulator-gaps.md lists no row for {item.name}"
        assert f"`{item.test.split('::')[1]}`" in row, (item.name, row)
