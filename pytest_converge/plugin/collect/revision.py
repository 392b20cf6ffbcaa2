"""A module's repository at a git revision (``--converge-upgrade-from=REF``).

REF is read from the repository holding the module with ``git archive`` into
a temp dir: the checkout, its index and its worktrees are never touched.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ...errors import RevisionError


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
