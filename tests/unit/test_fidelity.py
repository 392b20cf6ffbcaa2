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
import json
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


# -- install checks the digests; patch wraps only what was recorded ---------------------
STAND_IN = """
class Queue:
    def attributes(self):
        return "moto"

    def other(self):
        return "moto's other"
"""


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """A module standing in for moto (installing over moto here would change it for
    every test of this process), and a fresh registry of what was installed."""
    (tmp_path / "stand_in_moto.py").write_text(STAND_IN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "stand_in_moto", raising=False)
    for name in ("_STATUS", "_ORIGINALS", "_PUT"):
        monkeypatch.setattr(fidelity, name, {})
    monkeypatch.delenv(fidelity.RECORDED_VARIABLE, raising=False)
    import stand_in_moto  # type: ignore[import-not-found]

    return stand_in_moto


def _wrapping(module: object, name: str = "attributes", label: str = "ours") -> object:
    def install() -> None:
        wrapped = fidelity.original(module.Queue, name)  # type: ignore[attr-defined]
        fidelity.patch(module.Queue, name, lambda self: f"{label}({wrapped(self)})")  # type: ignore[attr-defined]

    return install


def _item(name: str, install: object, replaces: dict[str, str]) -> fidelity.Behaviour:
    return fidelity.Behaviour(name, "does", "https://docs", "t.py::t", install, replaces)  # type: ignore[arg-type]


def test_a_behaviour_whose_moto_function_changed_is_stale_and_not_installed(
    stand_in: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotted = "stand_in_moto:Queue.attributes"
    digest = fidelity.source_digest(dotted)
    fresh = _item("sqs.fresh", _wrapping(stand_in), {dotted: digest})
    assert fidelity.stale(fresh) is None
    # The test hook stands in for the digest the behaviour recorded.
    monkeypatch.setenv(fidelity.RECORDED_VARIABLE, f"{dotted}=0000000000000000")
    assert fidelity.stale(fresh) == f"stale: {dotted} changed"
    monkeypatch.setattr(fidelity, "behaviours", lambda: [fresh])
    assert fidelity.install(off="") == {"sqs.fresh": f"stale: {dotted} changed"}
    assert stand_in.Queue().attributes() == "moto"  # type: ignore[attr-defined]
    assert fidelity.not_installed(fidelity.status()["behaviours"]) == {
        "sqs.fresh": f"stale: {dotted} changed"
    }
    gone = _item("sqs.gone", _wrapping(stand_in), {"stand_in_moto:Queue.gone": digest})
    assert fidelity.stale(gone) == "stale: stand_in_moto:Queue.gone is gone"


def test_patch_wraps_only_the_recorded_original_and_chains_behaviours(stand_in: object) -> None:
    dotted = "stand_in_moto:Queue.attributes"
    digest = fidelity.source_digest(dotted)
    first = _item("sqs.first", _wrapping(stand_in, label="first"), {dotted: digest})
    second = _item("sqs.second", _wrapping(stand_in, label="second"), {dotted: digest})
    assert fidelity._installed(first) == "installed"
    # A second behaviour over the same function wraps the first's wrapper: moto's own
    # function under both is the recorded one, and its digest is still moto's.
    assert fidelity._installed(second) == "installed"
    assert stand_in.Queue().attributes() == "second(first(moto))"  # type: ignore[attr-defined]
    assert fidelity.source_digest(dotted) == digest

    # Not recorded: refused, as graft refuses, and moto's function stays.
    unrecorded = _item("sqs.unrecorded", _wrapping(stand_in, "other"), {dotted: digest})
    assert fidelity._installed(unrecorded).startswith("failed: RuntimeError: moto's Queue.other")
    # Recorded with another digest (moto changed under it): refused too.
    other = "stand_in_moto:Queue.other"
    changed = _item("sqs.changed", _wrapping(stand_in, "other"), {other: "0000000000000000"})
    assert fidelity._installed(changed) == (
        f"failed: RuntimeError: moto's {other} is not the one recorded: re-check this behaviour"
    )
    assert stand_in.Queue().other() == "moto's other"  # type: ignore[attr-defined]
    # A new attribute (a model's default) is added; an access check wraps what it finds.
    fidelity.patch(stand_in.Queue, "redrive_allow_policy", None)  # type: ignore[attr-defined]
    fidelity.patch(stand_in.Queue, "other", lambda self: "denied", recorded=False)  # type: ignore[attr-defined]
    assert stand_in.Queue().other() == "denied"  # type: ignore[attr-defined]


def test_a_functions_digest_is_kept_across_processes_until_its_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding a function's source tokenises its file (0.2-0.3 s for the layer's ~250 at
    every moto start): a server keeps each digest under its file's size and time."""
    import importlib.util
    import inspect

    source = tmp_path / "kept_module.py"
    source.write_text("def answer():\n    return 42\n")
    spec = importlib.util.spec_from_file_location("kept_module", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kept = tmp_path / "cache" / "moto-digests.json"
    monkeypatch.setenv(fidelity.DIGESTS_VARIABLE, str(kept))
    monkeypatch.setattr(fidelity, "_DIGESTS", None)
    monkeypatch.setattr(fidelity, "_USED_DIGESTS", {})
    digest = fidelity.digest_of(module.answer)
    fidelity.save_digests()
    assert list(json.loads(kept.read_text()).values()) == [digest]

    def unread(function: object) -> str:
        raise AssertionError("the source was read again")

    # A new server: the kept digest is read, the source is not.
    monkeypatch.setattr(fidelity, "_DIGESTS", None)
    monkeypatch.setattr(inspect, "getsource", unread)
    assert fidelity.digest_of(module.answer) == digest
    # The file changed (moto upgraded in place): the digest is made anew.
    source.write_text("def answer():\n    return 43  # changed\n")
    with pytest.raises(AssertionError, match="read again"):
        fidelity.digest_of(module.answer)


def test_the_aws_managed_keys_behaviour_is_due_with_the_services_that_make_default_keys():
    """DynamoDB and EC2 make their default key inside a call that imports KMS itself: the
    behaviour must be in place when their models are imported, before that call."""
    [item] = [b for b in fidelity.behaviours() if b.name == "kms.aws-managed-keys"]
    assert {"moto.kms", "moto.dynamodb", "moto.ec2"} <= fidelity._packages(item)
