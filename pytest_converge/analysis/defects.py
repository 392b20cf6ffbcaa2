"""Defect records: one finding about a module, ready for every report format."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: The kinds of finding, in the words of the JSON report.
KINDS = (
    "permanent-diff",  # the second (and third) plan still changes something
    "needs-second-apply",  # the second plan changed something, the third did not (warning)
    "escape-hatch",  # a resource replaced/run on every apply (timestamp(), provisioner)
    "output-change",  # only an output value differs on the second plan
    "drift",  # refresh found objects changed outside terraform
    "duplicate",  # an object created twice: one in state, one not
    "orphan",  # an object created, not in state, matching nothing
    "recovery-failed",  # the clean re-run after a fault failed
    "emulator-difference",  # converges on one emulator, not on another
    "destructive-upgrade",  # the upgrade from the released revision destroys an object
    "upgrade-failed",  # the apply of this revision over the released one failed
)

#: How a permanent diff's two values relate.
CLASSIFICATIONS = (
    "json-equivalent",
    "whitespace",
    "case",
    "order",
    "default",
    "type-coercion",
    "unknown",
)

ERROR = "error"
WARNING = "warning"


@dataclass
class Defect:
    """One reason a module does not converge.

    ``declared`` is what the configuration asks for (the plan's *after*),
    ``observed`` what the provider/API reports back (the plan's *before*).
    """

    kind: str
    address: str | None = None
    attribute: str | None = None
    declared: Any = None
    observed: Any = None
    message: str = ""
    fix: str = ""
    classification: str | None = None
    module: str = ""
    scenario: str = ""
    severity: str = ERROR
    #: Cloud object ids involved (a duplicate's extra VPC id, ...).
    objects: list[str] = field(default_factory=list)
    #: Why this happens in the real world.
    why: str = ""
    #: One command line that reproduces exactly this scenario.
    reproduce: str = ""
    #: The .tf file declaring the resource (absolute, or relative to the module's root).
    file: str | None = None
    #: 1-based line of the resource block's header in ``file``.
    line: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown defect kind {self.kind!r}; expected one of {KINDS}")
        if self.classification is not None and self.classification not in CLASSIFICATIONS:
            raise ValueError(
                f"unknown classification {self.classification!r}; expected one of {CLASSIFICATIONS}"
            )

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (the JSON report's defect object)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Defect:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    def key(self) -> tuple:
        """What makes two findings the same defect (used to collapse duplicates)."""
        return (self.kind, self.module, self.address, self.attribute, self.classification)
