"""How many defects a run found: its findings grouped by cause, counted once for every output.

A *finding* is one record a scenario made (a :class:`~pytest_converge.analysis.defects.Defect`);
a *defect* is one cause: the findings with the same :meth:`Defect.key` (kind, module,
resource, attribute, classification), whichever scenarios found them. The terminal
summary, the failure text, the HTML page, JUnit and the JSON report group and count with
these functions only, so they agree::

    count_defects(findings).words()   # "5 defects from 8 scenarios: 5 errors, 0 warnings"

Findings of severity ``info`` (drift that changed no plan) are detail, not defects:
counted apart (``details``). Pure: defects in, groups and counts out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from ..analysis.defects import ERROR, INFO, Defect


def group_defects(defects: Iterable[Defect]) -> list[tuple[Defect, list[Defect]]]:
    """Distinct defects (first seen) with every finding of each, keyed by :meth:`Defect.key`."""
    groups: dict[tuple, list[Defect]] = {}
    for defect in defects:
        groups.setdefault(defect.key(), []).append(defect)
    return [(found[0], found) for found in groups.values()]


def cause(defect: Defect) -> str:
    """The defect a finding belongs to, as a stable id (the JSON's ``cause``, JUnit's
    ``converge.cause``, SARIF's fingerprint): equal for the findings of one group."""
    return hashlib.sha256(repr(defect.key()).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class DefectCount:
    """The defects of some findings, and what was grouped into them."""

    #: Distinct causes (``errors + warnings``).
    defects: int = 0
    errors: int = 0
    warnings: int = 0
    #: The findings behind them, and the scenarios those came from.
    findings: int = 0
    scenarios: int = 0
    #: Defects that are suspected emulator gaps (counted in ``errors``/``warnings``).
    suspected: int = 0
    #: Detail-only findings (``info``: drift no planned change needed), per resource.
    details: int = 0

    def words(self) -> str:
        """``5 defects from 8 scenarios: 5 errors, 0 warnings`` (the one wording)."""
        if self.defects:
            grouped = _plural(self.scenarios, "scenario")
            if self.findings != self.scenarios:
                grouped = f"{_plural(self.findings, 'finding')} in {grouped}"
            text = (
                f"{_plural(self.defects, 'defect')} from {grouped}: "
                f"{_plural(self.errors, 'error')}, {_plural(self.warnings, 'warning')}"
            )
            if self.suspected:
                text += f" ({_plural(self.suspected, 'suspected emulator gap')})"
        else:
            text = "no defects"
        if self.details:
            text += f"; {self.details} drifted without changing the plan (detail, not a defect)"
        return text

    def to_dict(self) -> dict[str, int | str]:
        """The JSON report's ``counts``: these numbers and :meth:`words`."""
        return {**asdict(self), "words": self.words()}


def count_defects(defects: Iterable[Defect]) -> DefectCount:
    """How many defects ``defects`` (findings) are, by :func:`group_defects`."""
    found = list(defects)
    counted = [d for d in found if d.severity != INFO]
    groups = group_defects(counted)
    # A cause is an error when any of its findings is (a warning elsewhere, e.g. suspected).
    errors = sum(any(d.severity == ERROR for d in found) for _, found in groups)
    return DefectCount(
        defects=len(groups),
        errors=errors,
        warnings=len(groups) - errors,
        findings=len(counted),
        scenarios=len({(d.module, d.scenario) for d in counted}),
        suspected=sum(d.emulator_suspected for d, _ in groups),
        details=len(group_defects(d for d in found if d.severity == INFO)),
    )


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
