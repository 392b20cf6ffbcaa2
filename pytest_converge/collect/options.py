"""The zero-code options parsed into typed values: ``--converge``, ``--converge-faults``,
``--converge-drift``, ``--converge-stages`` and ``--converge-allow-replace``.

Each parser raises ValueError naming the valid form; the plugin turns that
into a ``pytest.UsageError`` before collection.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ..faults import FAULT_KINDS
from ..loop import DRIFT_KINDS

#: What a CI gate runs when ``--converge-faults`` is not given: the two kinds
#: that find real-world defects a two-run test cannot see. A lost response
#: makes the SDK retry a call the cloud already processed (duplicates: the
#: second plan is empty, yet an orphaned copy exists); a crash right after a
#: create leaves an object terraform never recorded (the re-run collides with
#: it or makes a second one). ``error`` and ``throttle`` mostly test the SDK's
#: retries and ``interrupt`` terraform's graceful stop: opt in with ``all``.
DEFAULT_FAULTS = ("lost-response", "crash")

_STAGE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def fault_kinds(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-faults``: a comma list of kinds, ``none`` or ``all``.

    >>> fault_kinds("crash, lost-response")
    ('crash', 'lost-response')
    >>> fault_kinds(None) == DEFAULT_FAULTS
    True

    Raises ValueError naming the valid values.
    """
    text = (value or "").strip().lower()
    if not text:
        return DEFAULT_FAULTS
    if text == "none":
        return ()
    if text == "all":
        return FAULT_KINDS
    kinds: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part not in FAULT_KINDS:
            raise ValueError(
                f"unknown fault kind {part!r} in {value!r}: expected a comma list of "
                f"{', '.join(FAULT_KINDS)}, or 'none' (two-run only) or 'all'"
            )
        if part not in kinds:
            kinds.append(part)
    if not kinds:
        raise ValueError(f"{value!r} names no fault kind; use 'none' for two-run only")
    return tuple(kinds)


def drift_kinds(value: str | None) -> tuple[str, ...]:
    """Parse ``--converge-drift``: a comma list of ``delete``/``modify``, ``none`` or ``all``.

    >>> drift_kinds("delete, modify")
    ('delete', 'modify')
    >>> drift_kinds(None)
    ()

    Raises ValueError naming the valid values.
    """
    text = (value or "").strip().lower()
    if not text or text == "none":
        return ()
    if text == "all":
        return DRIFT_KINDS
    kinds: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if part and part not in DRIFT_KINDS:
            raise ValueError(
                f"unknown drift kind {part!r} in {value!r}: expected a comma list of "
                f"{', '.join(DRIFT_KINDS)}, or 'none' or 'all'"
            )
        if part and part not in kinds:
            kinds.append(part)
    return tuple(kinds)


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


def converge_paths(config: pytest.Config) -> list[Path]:
    """``--converge`` paths (from the invocation dir), else the ``converge_paths`` ini key."""
    given = config.getoption("converge_paths", None) or []
    base = config.invocation_params.dir
    paths = [base / p for p in given] or list(config.getini("converge_paths") or [])
    unique: list[Path] = []
    for path in paths:
        absolute = Path(os.path.abspath(Path(path).expanduser()))
        if absolute not in unique:
            unique.append(absolute)
    return unique
