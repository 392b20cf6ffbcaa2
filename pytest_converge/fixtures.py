"""The fixtures: ``converge_emulator``, ``converge_toolchain`` and ``converge``."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .analysis.defects import Defect
from .emulator.base import Emulator
from .report import defect_json, format_defects, jsonable, junit_properties
from .session import get_session, record_toolchain
from .stack import ConvergeFactory, Stack
from .toolchain import Toolchain


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

    Error-level defects a Stack found that the test never raised (a
    ``recover()`` whose report was not ``raise_for_defects()``-ed, a
    ``converged_defects()`` list) fail the test at teardown with their text,
    and appear in the summary and the reports. Opt out per test with
    ``@pytest.mark.converge(allow_defects=True)``.
    """
    session = get_session(request.config)
    converge_emulator.reset()
    made: list[Stack] = []
    keep = bool(session.option("keep"))
    found: list[Defect] = []
    raised: set[int] = set()

    def record(stack: Stack, defects: list[Defect]) -> None:
        request.config.hook.pytest_converge_defects(
            config=request.config, stack=stack, defects=defects
        )
        found.extend(defects)
        if not defects:
            return
        request.node.user_properties.append(
            ("converge_defects", json.dumps([defect_json(d) for d in defects]))
        )
        for d in defects:  # JUnit XML carries them as <property> elements
            request.node.user_properties.extend(junit_properties(d))

    def mark_raised(stack: Stack, defects: list[Defect]) -> None:
        raised.update(id(d) for d in defects)

    def factory(module_dir: str | os.PathLike[str], vars: dict[str, Any] | None = None) -> Stack:
        path = Path(module_dir)
        if not path.is_absolute():
            beside = Path(request.path).parent / path
            path = beside if beside.exists() else Path.cwd() / path
        stack = session.stack(
            path,
            variables=vars,
            on_defects=record,
            on_raise=mark_raised,
            reproduce=reproduce_line(request.config, request.node),
        )
        made.append(stack)  # first: a signal from here on still finds it at teardown
        session.track(stack)
        record_toolchain(request.node, stack)
        stack.on_loop = lambda record: request.node.user_properties.append(
            ("converge_loop", json.dumps(jsonable(record)))
        )
        return stack

    yield factory
    for stack in made:
        session.untrack(stack)
        stack.close(keep=keep)
    if any(r.flaky for stack in made for r in stack.reports):
        request.node.user_properties.append(("converge_flaky", "true"))
    unraised = [d for d in found if d.is_error and id(d) not in raised]
    call_failed = request.node.nodeid in session.failed_calls  # counted with the failure
    if unraised and not call_failed and not _allows_defects(request.node):
        request.node.user_properties.append(
            ("converge_unraised", json.dumps([defect_json(d) for d in unraised]))
        )
        modules = ", ".join(sorted({d.module for d in unraised}))
        pytest.fail(
            format_defects(
                unraised,
                header=(
                    f"{modules}: defects found and never raised by the test (call "
                    "report.raise_for_defects(), or mark the test "
                    "@pytest.mark.converge(allow_defects=True) to accept them):"
                ),
            ),
            pytrace=False,
        )


def _allows_defects(node: pytest.Item) -> bool:
    return any(m.kwargs.get("allow_defects") for m in node.iter_markers("converge"))


def reproduce_line(config: pytest.Config, node: pytest.Item) -> str:
    """The command that runs ``node`` again with every outcome-changing option of this run."""
    base = config.invocation_params.dir
    path, _, rest = node.nodeid.partition("::")
    here = os.path.relpath(config.rootpath / path, base)
    options = get_session(config).outcome_options()
    return " ".join(["pytest", *options, f'"{here}::{rest}"' if rest else f'"{here}"'])
