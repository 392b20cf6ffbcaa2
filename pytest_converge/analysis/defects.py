"""Defect records: one finding about a module, ready for every report format.

The reports that hold defects (``DefectReport`` and its subclasses) are in
:mod:`pytest_converge.run.results`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, SupportsIndex, TypeVar, get_args, overload

from ..errors import DefectError

#: The kinds of finding, in the words of the JSON report: a ``Defect.kind`` is one of
#: them, checked when the defect is made and by mypy where the code names one.
DefectKind = Literal[
    "permanent-diff",  # the second (and third) plan still changes something
    "needs-second-apply",  # the second plan changed something, the third did not (warning)
    "escape-hatch",  # a resource replaced/run on every apply (timestamp(), provisioner)
    "output-change",  # only an output value differs on the second plan
    "drift",  # refresh found objects changed outside terraform
    "reverted-drift",  # changed outside terraform, and the next apply sets it back (plan gate)
    "duplicate",  # an object created twice: one in state, one not
    "orphan",  # an object created, not in state, matching nothing
    "recovery-failed",  # the clean re-run after a fault failed
    "wrong-fixed-point",  # recovered with an empty plan, but the world differs from a clean run's
    "emulator-difference",  # converges on one emulator, not on another
    "unverified",  # created types no inventory lister covers: leftovers not looked for (warning)
    "untested",  # a resource the backend cannot serve, and what waits on it: left out (warning)
    "egress",  # a run tried to reach a host beyond the emulator (refused)
    "stalled",  # a command repeated one call against the same answer and was stopped
    # Under a continuous loop (pytest_converge.run.loop):
    "flapping",  # two writers set one field: it changes every cycle
    "unnoticed-drift",  # an out-of-band change or deletion the loop's plan never sees
    "not-converging",  # the loop changes (or fails on) the same thing cycle after cycle
    "destructive-correction",  # reverting drift plans a replace/delete of a stateful object
    "destructive-upgrade",  # the upgrade from the released revision destroys an object
    "upgrade-failed",  # the apply of this revision over the released one failed
]
KINDS: tuple[DefectKind, ...] = get_args(DefectKind)

#: How a permanent diff's two values relate: the built-in classes, ``unknown`` last.
#: A ``pytest_converge_classify_diff`` implementation may add its own names.
CLASSIFICATIONS = (
    "dropped",
    "default",
    "order",
    "dedup",
    "type-coercion",
    "json-equivalent",
    "case",
    "whitespace",
    "alias",
    "unknown",
)

#: What a user's class name may look like (lower-case words joined by ``-``).
CLASS_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

ERROR = "error"
WARNING = "warning"
#: Detail only: one line in the failure text, in full in the JSON report
#: (drift that did not contribute to any planned change).
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)

#: The kinds that are warnings (reported, never failing a test); every other kind is
#: an error. The one place this is decided: defects, SARIF rules and the summary read it.
WARNING_KINDS: frozenset[DefectKind] = frozenset(
    {"needs-second-apply", "drift", "emulator-difference", "unverified", "untested"}
)


def severity_of(kind: DefectKind) -> str:
    """``"warning"`` for :data:`WARNING_KINDS`, else ``"error"``."""
    return WARNING if kind in WARNING_KINDS else ERROR


@dataclass
class Defect:
    """One reason a module does not converge.

    ``declared`` is what the configuration asks for (the plan's *after*),
    ``observed`` what the provider/API reports back (the plan's *before*).
    """

    kind: DefectKind
    address: str | None = None
    attribute: str | None = None
    declared: Any = None
    observed: Any = None
    message: str = ""
    fix: str = ""
    classification: str | None = None
    module: str = ""
    scenario: str = ""
    #: ``"error"`` or ``"warning"``; by default :func:`severity_of` the kind.
    severity: str = ""
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
    #: The emulator, not the module, probably causes this finding (see ``evidence``).
    emulator_suspected: bool = False
    #: Why it is believed to be an emulator artifact: a catalogue entry with its
    #: reproduction, or what the other emulator showed.
    evidence: str = ""
    #: A second emulator showed this finding too (``--converge-confirm-with``): ``{"emulator":
    #: "ministack", "version": "1.5.33", "plan": "1 to update"}`` (its name, its version when
    #: known, its second plan in words); None when no second emulator was asked, or it did
    #: not show it (then the finding is ``emulator_suspected``).
    confirmed_by: dict[str, Any] | None = None
    #: Element-level detail of a finding about a whole list/set/map attribute:
    #: ``{"path", "declared", "observed", "classification"}`` per element change.
    elements: list[dict[str, Any]] = field(default_factory=list)
    #: Other resources of the same configuration that wrote this object
    #: (drift that is really a second writer of the same field).
    writers: list[str] = field(default_factory=list)
    #: An ``untested`` resource's dependents, left out with it (never reached).
    waiting: list[str] = field(default_factory=list)
    #: Where ``message`` names ``scenario`` (the offset of its name; None: it does not),
    #: so that the finding as another scenario's names that one (:meth:`for_scenario`).
    scenario_at: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DefectError(f"unknown defect kind {self.kind!r}; expected one of {KINDS}")
        self.severity = self.severity or severity_of(self.kind)
        if self.classification is not None and not is_class_name(self.classification):
            raise DefectError(
                f"bad classification {self.classification!r}: expected one of "
                f"{CLASSIFICATIONS} or a lower-case name of your own such as 'api-rounding'"
            )
        if self.severity not in SEVERITIES:
            raise DefectError(f"unknown severity {self.severity!r}; expected one of {SEVERITIES}")

    @property
    def is_error(self) -> bool:
        """True for an error-level defect (one that fails the test); False for a warning."""
        return self.severity == ERROR

    @property
    def is_info(self) -> bool:
        """Detail shown under ``-v`` and in the JSON only (drift that changed no plan)."""
        return self.severity == INFO

    @property
    def confirmed_on(self) -> str:
        """The second emulator that showed this finding too, in words (``ministack 1.5.33``);
        ``""`` when none did."""
        return emulator_words(self.confirmed_by)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (the JSON report's defect object)."""
        found = asdict(self)
        del found["scenario_at"]  # where the message names it: the message says that
        return found

    def for_scenario(self, scenario: str) -> Defect:
        """This finding as ``scenario``'s (a copy: a finding several scenarios share is
        each one's own), its message naming ``scenario`` where it named its own::

            Defect("recovery-failed", scenario="crash@{2 points}", scenario_at=6,
                   message="after crash@{2 points} the clean re-run failed: ...")
            .for_scenario("crash@CreateVpc#1").message
            # "after crash@CreateVpc#1 the clean re-run failed: ..."
        """
        message, at = self.message, self.scenario_at
        if at is not None and message.startswith(self.scenario, at):  # not renamed since
            message = message[:at] + scenario + message[at + len(self.scenario) :]
        return replace(self, scenario=scenario, message=message, objects=list(self.objects))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Defect:
        """The defect :meth:`to_dict` (or a JSON report entry) describes; unknown keys ignored."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    def key(self) -> tuple:
        """What makes two findings the same defect (used to collapse duplicates)."""
        return (self.kind, self.module, self.address, self.attribute, self.classification)


def emulator_words(named: Mapping[str, Any] | None) -> str:
    """``{"emulator": "ministack", "version": "1.5.33"}`` as ``ministack 1.5.33`` (a
    ``confirmed_by``, or a JSON report's); ``""`` for None."""
    if not named:
        return ""
    return " ".join(str(x) for x in (named.get("emulator"), named.get("version")) if x)


def is_class_name(name: object) -> bool:
    """A built-in classification, or a user's class name (``api-rounding``)."""
    return isinstance(name, str) and (name in CLASSIFICATIONS or bool(CLASS_NAME.match(name)))


_T = TypeVar("_T")


class WatchedList(list[_T]):
    """A list of findings handed to a test: reading it calls ``on_read``.

    Iterating, ``len()``, truth, indexing, ``in``, ``==`` and ``repr`` are
    reads; appending is not. The ``converge`` fixture learns this way which
    defects a test looked at (asserted on): only the others fail it.
    """

    __slots__ = ("on_read",)

    def __init__(self, items: Iterable[_T] = (), on_read: Callable[[], None] | None = None):
        super().__init__(items)
        self.on_read = on_read

    def _read(self) -> None:
        if self.on_read is not None:
            self.on_read()

    def __iter__(self) -> Iterator[_T]:
        self._read()
        return super().__iter__()

    def __reversed__(self) -> Iterator[_T]:
        self._read()
        return super().__reversed__()

    def __len__(self) -> int:
        self._read()
        return super().__len__()

    def __bool__(self) -> bool:
        self._read()
        return super().__len__() > 0

    @overload
    def __getitem__(self, index: SupportsIndex) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> _T | list[_T]:
        self._read()
        return super().__getitem__(index)

    def __contains__(self, item: object) -> bool:
        self._read()
        return super().__contains__(item)

    def __eq__(self, other: object) -> bool:
        self._read()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._read()
        return super().__ne__(other)

    def __repr__(self) -> str:
        self._read()
        return super().__repr__()

    def index(self, item: _T, *args: SupportsIndex) -> int:
        self._read()
        return super().index(item, *args)

    def count(self, item: _T) -> int:
        self._read()
        return super().count(item)

    def copy(self) -> list[_T]:
        self._read()
        return super().copy()
