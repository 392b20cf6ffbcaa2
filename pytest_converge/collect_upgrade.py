"""Zero-code upgrade and stage items, added to each root module :mod:`.collect` finds.

    pytest --converge modules/ --converge-upgrade-from=origin/main
    pytest --converge modules/ --converge-stages=dev,prod

``--converge-upgrade-from=REF`` reads the repository holding each module at
git revision REF (``git archive`` into a temp dir: the checkout, its index
and its worktrees are never touched) and adds ``<module>::upgrade-from@REF``
(the old revision applied, then the working tree's over its state) and, per
fault kind, ``<module>::upgrade-<kind>@<Op>#<n>`` for each mutating call of
the upgrade apply. A module that does not exist at REF is new: its
``upgrade-from@REF`` item runs a plain two-run and says so.

``--converge-stages=dev,prod`` adds ``<module>::stages@dev,prod``: the same
revision in one isolated emulator account per stage, in order (an upgrade
from REF when one is given, else a two-run); a stage that does not converge
stops the promotion before the next one. The terminal summary shows where.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import subprocess
import tarfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .collect import (
    ConvergeItem,
    _shared_dir,
    converge_paths,
    fault_kinds,
    make_stack,
    module_digest,
)
from .errors import ConvergeError, ConvergenceError
from .faults import parse_fault
from .workspace import local_module_root, tree_digest

_STAGE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


# -- options ---------------------------------------------------------------------------------
def stage_names(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-stages``: a comma list of at least two distinct names.

    >>> stage_names("dev, prod")
    ('dev', 'prod')
    """
    names = tuple(n.strip() for n in (value or "").split(",") if n.strip())
    if not names:
        return ()
    bad = [n for n in names if not _STAGE_NAME.match(n)]
    if bad or len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(
            f"{value!r}: expected two or more distinct stage names in promotion order, "
            "letters, digits, '-' and '_' only, e.g. dev,prod"
        )
    return names


def allow_list(value: str | None) -> list[str]:
    """``--converge-allow-replace``: addresses or globs, comma or line separated."""
    return [a.strip() for a in re.split(r"[,\n]", value or "") if a.strip()]


# -- the old revision ------------------------------------------------------------------------
@dataclass(frozen=True)
class Revision:
    """REF of the repository holding a module, extracted into ``tree``."""

    ref: str
    commit: str
    repo: Path
    tree: Path

    def module(self, current: Path) -> Path | None:
        """The module's directory at this revision, or None when it did not exist there."""
        old = self.tree / current.resolve().relative_to(self.repo)
        if old.is_dir() and any(
            p.suffix == ".tf" or p.name.endswith(".tf.json") for p in old.iterdir()
        ):
            return old
        return None

    @property
    def label(self) -> str:
        return f"{self.ref} ({self.commit[:10]})"


class RevisionError(ConvergeError):
    """REF cannot be read from the module's repository."""


#: Variables that would point git at another repository than the module's.
_GIT_REDIRECTS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")
_GIT_ENV = {k: v for k, v in os.environ.items() if k not in _GIT_REDIRECTS}


def _git(repo: Path, *args: str, binary: bool = False) -> Any:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        check=False,
        env={**_GIT_ENV, "GIT_TERMINAL_PROMPT": "0"},
    )
    if done.returncode != 0:
        error = done.stderr.decode(errors="replace").strip()
        raise RevisionError(f"`git {' '.join(args)}` failed in {repo}: {error}")
    return done.stdout if binary else done.stdout.decode().strip()


def resolve_revision(path: Path, ref: str) -> tuple[Path, str]:
    """The repository holding ``path`` and REF's commit id; RevisionError says what is wrong."""
    try:
        repo = Path(_git(path, "rev-parse", "--show-toplevel")).resolve()
    except FileNotFoundError:
        raise RevisionError("--converge-upgrade-from needs git on PATH") from None
    except RevisionError:
        raise RevisionError(
            f"--converge-upgrade-from {ref}: {path} is not inside a git repository; the old "
            "revision is read from the repository holding the module"
        ) from None
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except RevisionError:
        shallow = _git(repo, "rev-parse", "--is-shallow-repository") == "true"
        raise RevisionError(
            f"--converge-upgrade-from {ref}: no such revision in {repo}"
            + (
                ". This clone is shallow: fetch the history first (`git fetch --unshallow`, "
                "or `fetch-depth: 0` in actions/checkout)"
                if shallow
                else "; fetch it first (`git fetch origin main`) or name a commit, tag or branch"
            )
        ) from None
    return repo, commit


_revisions_key = pytest.StashKey[dict[tuple[Path, str], Revision]]()


def revision(config: pytest.Config, module: Path, ref: str) -> Revision:
    """REF of ``module``'s repository, extracted once per session (``git archive``)."""
    repo, commit = resolve_revision(module, ref)
    cache = config.stash.setdefault(_revisions_key, {})
    key = (repo, commit)
    if key not in cache:
        base = config._tmp_path_factory.getbasetemp() / "converge-upgrade"  # type: ignore[attr-defined]
        tree = base / f"{commit[:12]}-{abs(hash(str(repo))) % 10**8}"
        if not tree.exists():
            data = _git(repo, "archive", "--format=tar", commit, binary=True)
            partial = tree.with_name(tree.name + ".partial")
            partial.mkdir(parents=True, exist_ok=True)
            with tarfile.open(fileobj=io.BytesIO(data)) as archive:
                if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4 / 3.10.12
                    archive.extractall(partial, filter="data")
                else:  # pragma: no cover - git archive of the user's own repository
                    archive.extractall(partial)
            partial.rename(tree)
        cache[key] = Revision(ref, commit, repo, tree)
    return cache[key]


# -- upgrade fault points --------------------------------------------------------------------
_points_key = pytest.StashKey[dict[str, tuple[list[str], str | None]]]()


def upgrade_points(config: pytest.Config, module: Path, old: Path) -> tuple[list[str], str | None]:
    """The mutating calls of a clean upgrade apply: once per session, shared by xdist workers."""
    cache = config.stash.setdefault(_points_key, {})
    # The old tree's content, not its path: every xdist worker extracts its own copy.
    key = f"{module_digest(module)}-{tree_digest(local_module_root(old))}"
    if key in cache:
        return cache[key]
    shared = _shared_dir(config) / f"upgrade-points-{key}.json"
    shared.parent.mkdir(parents=True, exist_ok=True)
    with open(shared.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if shared.exists():
                data = json.loads(shared.read_text())
            else:
                data = {"points": [], "error": None}
                try:
                    stack = make_stack(config, module, reproduce="")
                    try:
                        points = stack.upgrade_fault_points(old)
                    finally:
                        stack.close()
                    data["points"] = sorted(
                        points, key=lambda p: (p.rpartition("#")[0], int(p.rpartition("#")[2]))
                    )
                except ConvergeError as exc:
                    data["error"] = str(exc)
                tmp = shared.with_name(shared.name + f".{os.getpid()}")
                tmp.write_text(json.dumps(data))
                os.replace(tmp, shared)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    cache[key] = (list(data["points"]), data["error"])
    return cache[key]


# -- items -----------------------------------------------------------------------------------
def upgrade_items(directory: Any) -> Iterator[pytest.Item]:
    """The upgrade and stage items of one root module (called by ``ConvergeDirectory``)."""
    from .session import get_session

    session = get_session(directory.config)
    ref = session.option("upgrade_from")
    stages = stage_names(session.option("stages"))
    if ref:
        try:
            found = revision(directory.config, directory.path, str(ref))
        except RevisionError as exc:
            raise directory.CollectError(str(exc)) from None
        yield UpgradeItem.from_parent(
            directory, name=f"upgrade-from@{ref}", scenario=f"upgrade-from@{ref}", old=found
        )
        old = found.module(directory.path)
        kinds = fault_kinds(session.option("faults"))
        if old is not None and kinds:
            points, error = upgrade_points(directory.config, directory.path, old)
            if error is not None:
                yield ConvergeItem.from_parent(
                    directory, name="upgrade-fault-points", scenario="fault-points", error=error
                )
            for kind in kinds:
                for point in points:
                    label = f"upgrade-{kind}@{point}"
                    yield UpgradeItem.from_parent(directory, name=label, scenario=label, old=found)
    if stages:
        found_old = revision(directory.config, directory.path, str(ref)) if ref else None
        name = "stages@" + ",".join(stages)
        yield StagesItem.from_parent(
            directory, name=name, scenario=name, old=found_old, stages=stages
        )


class UpgradeItem(ConvergeItem):
    """``upgrade-from@REF`` or ``upgrade-<kind>@<Op>#<n>`` of one module."""

    def __init__(self, *, old: Revision | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.old = old
        self.extra: dict[str, Any] = {}

    @property
    def fault(self) -> Any:
        if self.scenario.startswith("upgrade-from@"):
            return None
        return parse_fault(self.scenario[len("upgrade-") :])

    def runtest(self) -> None:
        from .session import get_session

        session = get_session(self.config)
        started = time.monotonic()
        outcome, defects = "error", []
        stack = _stack(self)
        session.track(stack)
        try:
            defects = self.run_on(stack)
            errors = [d for d in defects if d.is_error]
            if errors:
                from .report import format_defects

                raise ConvergenceError(
                    format_defects(
                        defects,
                        header=f"{self.parent.nodeid} {self.scenario}:",  # type: ignore[union-attr]
                    ),
                    defects,
                )
            outcome = "passed"
        except ConvergenceError:
            outcome = "failed"
            raise
        finally:
            session.untrack(stack)
            stack.close(keep=bool(session.option("keep")))
            self._record(defects, outcome, time.monotonic() - started)

    def run_on(self, stack: Any, fresh: bool = True) -> list[Any]:
        """The scenario's defects on ``stack`` (a two-run when the module is new)."""
        from .session import get_session
        from .upgrade import upgrade_from

        assert self.old is not None
        old = self.old.module(self.path)
        self.extra = {"upgrade_from": self.old.label, "new_module": old is None}
        if old is None:
            if fresh:
                stack._fresh_start()
            stack._progress(f"{stack.name}: not in {self.old.label}: a new module, two-run")
            return stack.converged_defects(self.scenario)
        allowed = allow_list(get_session(self.config).option("allow_replace"))
        report = upgrade_from(
            stack,
            old,
            allow_replace=allowed,
            fault=self.fault,
            old_label=self.old.label,
            fresh=fresh,
            scenario=self.scenario,
        )
        self.extra["actions"] = {a.address: a.action for a in report.actions}
        return report.defects

    def _record(self, defects: Sequence[Any], outcome: str, seconds: float) -> None:
        super()._record(defects, outcome, seconds)
        name, value = self.user_properties[-1]
        self.user_properties[-1] = (name, json.dumps({**json.loads(str(value)), **self.extra}))

    def reproduce_command(self) -> str:
        base = super().reproduce_command()
        faults = "none" if self.fault is None else self.fault.kind
        # --converge-upgrade-from and --converge-stages come with the run's options.
        return re.sub(r"--converge-faults \S+", f"--converge-faults {faults}", base)


class StagesItem(UpgradeItem):
    """``stages@dev,prod``: the same revision per stage account, stopping at the first failure."""

    def __init__(self, *, stages: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stages = tuple(stages)

    @property
    def fault(self) -> Any:
        return None

    def runtest(self) -> None:
        from .emulator.account import AccountView, stage_account
        from .session import get_session

        session = get_session(self.config)
        if session.backend != "moto":
            pytest.skip(
                f"--converge-stages needs isolated accounts on one emulator: only the moto "
                f"backend offers them here (this run uses {session.backend})"
            )
        started = time.monotonic()
        results: list[dict[str, Any]] = [{"stage": s, "outcome": "not run"} for s in self.stages]
        defects: list[Any] = []
        stopped: str | None = None
        outcome = "error"
        session.emulator().reset()
        try:
            for i, stage in enumerate(self.stages):
                stack = _stack(self)
                view = AccountView(session.emulator(), stage_account(i))
                stack.emulator = view
                stack.proxy.extra_headers = view.headers
                session.track(stack)
                try:
                    stack._progress(f"{stack.name}: stage {stage} (account {view.account_id})")
                    if self.old is not None:
                        found = self.run_on(stack, fresh=False)
                    else:
                        found = stack.converged_defects(f"stage-{stage}")
                except Exception:
                    results[i]["outcome"], stopped = "error", stage
                    raise
                finally:
                    session.untrack(stack)
                    stack.close(keep=bool(session.option("keep")))
                for d in found:
                    d.scenario = f"stage-{stage}"
                defects.extend(found)
                failed = any(d.is_error for d in found)
                results[i]["outcome"] = "failed" if failed else "converged"
                if failed:
                    stopped = stage
                    break
            self.extra = {**self.extra, "stages": results, "stopped_at": stopped}
            if stopped is not None:
                from .report import format_defects

                rest = ", ".join(self.stages[self.stages.index(stopped) + 1 :]) or "none"
                raise ConvergenceError(
                    format_defects(
                        defects,
                        header=(
                            f"{self.parent.nodeid}: promotion stopped at stage {stopped!r} "  # type: ignore[union-attr]
                            f"(not run: {rest}):"
                        ),
                    ),
                    defects,
                )
            outcome = "passed"
        except ConvergenceError:
            outcome = "failed"
            raise
        finally:
            self.extra = {**self.extra, "stages": results, "stopped_at": stopped}
            self._record(defects, outcome, time.monotonic() - started)


def _stack(item: Any) -> Any:
    return make_stack(item.config, item.path, reproduce=item.reproduce_command())


# -- hooks -----------------------------------------------------------------------------------
def pytest_configure(config: pytest.Config) -> None:
    """Bad ``--converge-upgrade-from`` / ``--converge-stages`` values fail before collection."""
    from .session import get_session

    session = get_session(config)
    try:
        stage_names(session.option("stages"))
    except ValueError as exc:
        raise pytest.UsageError(f"--converge-stages: {exc}") from None
    ref = session.option("upgrade_from")
    if not ref:
        return
    for path in converge_paths(config):
        if path.is_dir():
            try:
                resolve_revision(path, str(ref))
            except RevisionError as exc:
                raise pytest.UsageError(str(exc)) from None


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Where each module's upgrade and promotion ended."""
    from .session import get_session

    session = get_session(config)
    upgrades = [s for s in session.scenarios if "upgrade_from" in s and "stages" not in s]
    staged = [s for s in session.scenarios if "stages" in s]
    if upgrades:
        terminalreporter.section("convergence upgrades")
        for s in upgrades:
            what = "new module (not in that revision): two-run" if s.get("new_module") else ""
            if "actions" not in s and not what:
                what = "did not finish: see its error above"
            if not what:
                counts = Counter((s.get("actions") or {}).values())
                what = ", ".join(f"{n} to {a}" for a, n in sorted(counts.items())) or "no changes"
            terminalreporter.write_line(
                f"{s['path']}::{s['scenario']}  from {s['upgrade_from']}: {s['outcome']} ({what})"
            )
    if staged:
        terminalreporter.section("convergence stages")
        for s in staged:
            steps = " -> ".join(f"{r['stage']} {r['outcome']}" for r in s["stages"])
            stop = f"  (stopped at {s['stopped_at']})" if s.get("stopped_at") else ""
            terminalreporter.write_line(f"{s['path']}: {steps}{stop}")
