"""``--converge-plan FILE``: each plan a pipeline saved is one item, ``<file>::plan-gate``.

The item reads the file (:mod:`pytest_converge.terraform.planfile`: the JSON, or a binary
plan shown with the user's terraform), explains it (:mod:`pytest_converge.analysis.gate`)
and fails unless the plan is empty. Its findings go out as user properties, as a
zero-code item's do, so the summary and every report carry them.

    pytest --converge-plan plan.json                      # the plan items only
    pytest --converge-plan plan.json --converge-plan-source infra/

A missing file is a usage error; a file that is not a plan fails its item saying
what it is. A run that only gates plans starts no emulator (:func:`gates_plans_only`).
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ...analysis.classify import classify_with
from ...analysis.defects import Defect
from ...analysis.gate import SCENARIO
from ...report import convergence_error, defect_json, junit_properties
from ...terraform.planfile import explain_plan
from ..options import settings
from ..session import module_id
from .items import ReportedItem

_plans_key = pytest.StashKey[frozenset[Path]]()
_only_key = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Check the ``--converge-plan`` files and make them collection arguments.

    ``pytest --converge-plan FILE`` alone runs the plan items only (with
    ``--converge PATH``, those modules' too); with positional arguments, or with
    the ``converge_plan`` ini key, the files are collected besides them.
    """
    found = settings(config)
    if not found.plan:
        return
    for plan in found.plan:
        if not plan.exists():
            raise pytest.UsageError(f"--converge-plan {plan}: no such file")
        if plan.is_dir():
            raise pytest.UsageError(
                f"--converge-plan {plan}: a directory; pass the plan file (`terraform show "
                "-json tfplan > plan.json`, or tfplan itself)"
            )
    config.stash[_plans_key] = frozenset(found.plan)
    if config.option.pyargs:
        return
    if found.plan_from_cli and config.args_source != pytest.Config.ArgsSource.ARGS:
        # `--converge PATH` (already the arguments) is run besides; testpaths are not.
        kept = list(config.args) if found.paths_from_cli else []
        config.args = kept + [str(p) for p in found.plan]
        config.stash[_only_key] = not kept
        return
    base = config.invocation_params.dir
    given = {Path(os.path.abspath(base / arg.split("::")[0])) for arg in config.args}
    config.args.extend(str(p) for p in found.plan if p not in given)


def gates_plans_only(config: pytest.Config) -> bool:
    """True when this run collects ``--converge-plan`` files and nothing else: it needs no
    emulator (the session does not launch one at its start)."""
    return config.stash.get(_only_key, False)


@pytest.hookimpl(tryfirst=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``--converge-plan`` file is collected as a plan, nothing else."""
    plans = parent.config.stash.get(_plans_key, None)
    if plans and Path(os.path.abspath(file_path)) in plans:
        return PlanFile.from_parent(parent, path=file_path)
    return None


class PlanFile(pytest.File):
    """A plan file given to ``--converge-plan``: one item, ``plan-gate``."""

    def collect(self) -> Iterator[pytest.Item]:
        yield PlanGateItem.from_parent(self, name=SCENARIO)


class PlanGateItem(ReportedItem):
    """Passes when the plan changes nothing; else fails with each reason as a defect."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_marker("converge")

    @property
    def module_id(self) -> str:
        """The plan in reports: its path from the rootdir (see ``session.module_id``)."""
        return module_id(self.config, self.path)

    def runtest(self) -> None:
        started = time.monotonic()
        defects: list[Defect] = []
        outcome = "error"  # the file could not be read as a plan
        try:
            found = settings(self.config)
            defects = explain_plan(
                self.path,
                found.plan_source,
                terraform=found.terraform,
                module=self.module_id,
                classify=classify_with(self.config.hook, self.config),
            )
            for defect in defects:
                defect.reproduce = self.reproduce_command()
            errors = [d for d in defects if d.is_error]
            outcome = "failed" if errors else "passed"
            if errors:
                raise convergence_error(defects, header=f"{self.module_id} is not an empty plan:")
        finally:
            self._record(defects, outcome, time.monotonic() - started)

    def _record(self, defects: list[Defect], outcome: str, seconds: float) -> None:
        """The user properties every report is made from (as a zero-code item's)."""
        self.user_properties.append(
            ("converge_defects", json.dumps([defect_json(d) for d in defects]))
        )
        for defect in defects:
            self.user_properties.extend(junit_properties(defect))
        entry = {
            "module": self.module_id,
            "path": self.parent.nodeid,  # type: ignore[union-attr]
            "scenario": SCENARIO,
            "outcome": outcome,
            "seconds": round(seconds, 3),
        }
        self.user_properties.append(("converge_scenario", json.dumps(entry)))

    def reproduce_command(self) -> str:
        """The command line that gates this plan again."""
        found = settings(self.config)
        base = self.config.invocation_params.dir
        words = ["pytest", "--converge-plan", shlex.quote(os.path.relpath(self.path, base))]
        if found.plan_source is not None:
            source = os.path.relpath(found.plan_source, base)
            words += ["--converge-plan-source", shlex.quote(source)]
        if found.terraform:
            words += ["--converge-terraform", shlex.quote(found.terraform)]
        return " ".join(words)
