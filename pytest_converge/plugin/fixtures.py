"""The fixtures: ``converge_emulator``, ``converge_toolchain`` and ``converge``."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..analysis.defects import Defect
from ..emulator.base import Emulator
from ..report import defect_json, format_defects, junit_properties
from ..run.stack import ConvergeFactory, Stack
from ..terraform.toolchain import Toolchain
from .session import BUILDING, get_session, module_id, record_loops, record_toolchain


@pytest.fixture(scope="session")
def converge_toolchain(pytestconfig: pytest.Config) -> Toolchain:
    """The terraform engine and CLI config every run uses (resolved once)."""
    return get_session(pytestconfig).toolchain()


@pytest.fixture(scope="session")
def converge_emulator(pytestconfig: pytest.Config) -> Iterator[Emulator]:
    """The AWS emulator of this session (one per xdist worker), on loopback.

    ``.endpoint``, ``.reset()``, ``.client("s3")``. Stopped at session end.
    """
    session = get_session(pytestconfig)
    yield session.emulator()
    session.close()


class Findings:
    """The defects a test's Stacks found, and the ones the test looked at.

    A test has looked at a report's defects when it read them (``defects``,
    ``errors``, ``ok``, ``duplicates``, a loop's ``flapping`` ..., see
    ``DefectReport.watch``), read a ``converged_defects()`` list, or had them
    raised. :func:`fail_unseen` fails it for the error defects it never looked at.
    """

    def __init__(self) -> None:
        self.found: list[Defect] = []
        self._seen: set[int] = set()
        #: ``found[:checked]`` were already judged (in the call phase).
        self.checked = 0

    def add(self, defects: list[Defect]) -> None:
        self.found.extend(defects)

    def see(self, defects: list[Defect]) -> None:
        self._seen.update(id(d) for d in defects)

    def take_unseen(self) -> list[Defect]:
        """The error defects found since the last call that the test never looked at."""
        new, self.checked = self.found[self.checked :], len(self.found)
        return [d for d in new if d.is_error and id(d) not in self._seen]


findings_key = pytest.StashKey[Findings]()


@pytest.fixture
def converge(
    request: pytest.FixtureRequest,
    converge_emulator: Emulator,
    converge_toolchain: Toolchain,
) -> Iterator[ConvergeFactory]:
    """Make a :class:`Stack` from a module directory: ``converge("modules/vpc", vars={...})``.

    A relative path is looked up beside the test file first, then from the
    current directory. The emulator is emptied before the test, and every
    Stack's proxy and workspace are cleaned up after it.

    Error-level defects a Stack found that the test never looked at (a
    ``recover()`` report whose defects it never read nor raised, a
    ``converged_defects()`` list it dropped) fail the test with their text
    when its body returns, and appear in the summary and the reports. A test
    that asserts on the defects it expected passes. Opt out per test with
    ``@pytest.mark.converge(allow_defects=True)``.

    ``@pytest.mark.converge(backend="ministack")`` (on a test, or ``pytestmark`` of a test
    module) runs its Stacks on that backend instead of the run's ``--converge-backend``.
    """
    session = get_session(request.config)
    backend = pinned_backend(request.node)
    session.emptied_emulator(backend)
    made: list[Stack] = []
    keep = session.settings.keep
    findings = request.node.stash[findings_key] = Findings()

    def record(stack: Stack, defects: list[Defect]) -> None:
        request.config.hook.pytest_converge_defects(
            config=request.config, stack=stack, defects=defects
        )
        findings.add(defects)
        if not defects:
            return
        request.node.user_properties.append(
            ("converge_defects", json.dumps([defect_json(d) for d in defects]))
        )
        for d in defects:  # JUnit XML carries them as <property> elements
            request.node.user_properties.extend(junit_properties(d))

    def factory(module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None) -> Stack:
        path = Path(module_dir)
        if not path.is_absolute():
            beside = Path(request.path).parent / path
            path = beside if beside.exists() else Path.cwd() / path
        if BUILDING not in request.node.stash:
            request.node.stash[BUILDING] = module_id(request.config, path)
        stack = session.stack(
            path,
            variables=vars,
            on_defects=record,
            on_seen=lambda stack, defects: findings.see(defects),
            reproduce=reproduce_line(request.config, request.node),
            backend=backend,
        )
        made.append(stack)  # first: a signal from here on still finds it at teardown
        session.track(stack)
        record_toolchain(request.node, stack)
        record_loops(request.node, stack)
        return stack

    yield factory
    for stack in made:
        session.untrack(stack)
        stack.close(keep=keep)
    if any(r.flaky for stack in made for r in stack.reports):
        request.node.user_properties.append(("converge_flaky", "true"))
    # Defects found after the call phase (by a fixture's teardown): only here can
    # they fail the test; those of the test body were judged when it returned.
    unseen = findings.take_unseen()
    call_failed = request.node.nodeid in session.failed_calls  # counted with the failure
    if unseen and not call_failed and not _allows_defects(request.node):
        request.node.user_properties.append(
            ("converge_unraised", json.dumps([defect_json(d) for d in unseen]))
        )
        pytest.fail(_unseen_text(unseen), pytrace=False)


def fail_unseen(item: pytest.Item) -> None:
    """After a test body returned: fail it for error defects it never looked at.

    Called by the plugin's ``pytest_runtest_call`` wrapper, so such a test has
    one outcome, failed, in its call phase (a body that failed is not judged).
    """
    findings = item.stash.get(findings_key, None)
    if findings is None:
        return
    unseen = findings.take_unseen()
    if unseen and not _allows_defects(item):
        pytest.fail(_unseen_text(unseen), pytrace=False)


def _unseen_text(unseen: list[Defect]) -> str:
    modules = ", ".join(sorted({d.module for d in unseen}))
    return format_defects(
        unseen,
        header=(
            f"{modules}: defects found that the test never looked at (assert on the "
            "report's defects, call report.raise_for_defects(), or mark the test "
            "@pytest.mark.converge(allow_defects=True) to accept them):"
        ),
    )


def pinned_backend(node: pytest.Item) -> str | None:
    """The backend the closest ``converge`` marker naming one pins ``node`` to, if any."""
    for marker in node.iter_markers("converge"):
        backend = marker.kwargs.get("backend")
        if backend:
            return str(backend).strip().lower()
    return None


def _allows_defects(node: pytest.Item) -> bool:
    return any(m.kwargs.get("allow_defects") for m in node.iter_markers("converge"))


def reproduce_line(config: pytest.Config, node: pytest.Item) -> str:
    """The command that runs ``node`` again with every outcome-changing option of this run."""
    base = config.invocation_params.dir
    path, _, rest = node.nodeid.partition("::")
    here = os.path.relpath(config.rootpath / path, base)
    options = get_session(config).outcome_options()
    return " ".join(["pytest", *options, f'"{here}::{rest}"' if rest else f'"{here}"'])
