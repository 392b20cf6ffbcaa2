"""Emulator differences: a module that converges on one emulator and not on another.

Either the module relies on behaviour only one emulator has, or one emulator
normalises values differently from AWS: the finding says which, and shows
both sides, so a person can tell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .defects import WARNING, Defect


@dataclass
class Outcome:
    """What the two-run test found on one emulator."""

    emulator: str
    defects: Sequence[Defect]
    #: The second plan in words (``Plan.summary()``), e.g. "1 to update".
    plan: str


def emulator_differences(module: str, first: Outcome, second: Outcome) -> list[Defect]:
    """One ``emulator-difference`` per finding present on one emulator only."""
    found = []
    for this, other in ((first, second), (second, first)):
        theirs = {_key(d) for d in other.defects if d.is_error}
        for d in this.defects:
            if not d.is_error or _key(d) in theirs:
                continue
            where = d.address or "(module)"
            if d.attribute:
                where += f".{d.attribute}"
            found.append(
                Defect(
                    kind="emulator-difference",
                    address=d.address,
                    attribute=d.attribute,
                    declared=d.declared,
                    observed=d.observed,
                    classification=d.classification,
                    module=module,
                    scenario="two-run",
                    severity=WARNING,
                    emulator_suspected=True,
                    evidence=(
                        f"only {this.emulator} shows it; on {other.emulator} the same module's "
                        f"second plan is: {other.plan}"
                    ),
                    message=(
                        f"{where}: {d.kind} on {this.emulator} (second plan: {this.plan}), "
                        f"converges on {other.emulator} (second plan: {other.plan}). "
                        f"On {this.emulator}: {d.message}"
                    ),
                    why=(
                        f"the emulators answer differently; {this.emulator} may normalise "
                        "this value unlike AWS, or the module relies on behaviour only "
                        f"{other.emulator} has"
                    ),
                    fix=(
                        f"check the value against real AWS behaviour; if {this.emulator} is "
                        f"wrong, it is not the module's defect. Otherwise: {d.fix}"
                    ),
                )
            )
    return found


def _key(d: Defect) -> tuple:
    return (d.kind, d.address, d.attribute)
