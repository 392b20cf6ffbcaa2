"""Fault points and scenario labels, read in one place.

A *fault point* is one API call a clean apply made, written ``CreateVpc#1@aws_vpc.main``
(the first ``CreateVpc`` of ``aws_vpc.main``'s apply; the address is left out when no
one resource made it). A *scenario label* puts a kind in front: ``crash@CreateVpc#1@...``
for a fault at a point, ``drift-delete@aws_sqs_queue.q`` for a drift, ``upgrade-from@v1``,
or a bare name (``two-run``)::

    >>> FaultPoint.parse("CreateVpc#1@aws_vpc.main")
    FaultPoint(operation='CreateVpc', n=1, address='aws_vpc.main')
    >>> Label.parse("crash@CreateVpc#1@aws_vpc.main").point.address
    'aws_vpc.main'
    >>> Label.parse("drift-delete@aws_sqs_queue.q").target
    'aws_sqs_queue.q'

A fault label's settings (``throttle@CreateQueue#1:times=5``) are the fault's own:
:func:`pytest_converge.faults.parse_fault` reads those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["FaultPoint", "Label", "fault_kind", "natural"]


def natural(text: str) -> tuple[Any, ...]:
    """A sort key that puts ``rule[2]`` before ``rule[10]``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


@dataclass(frozen=True)
class FaultPoint:
    """The ``n``-th call of ``operation`` made by the apply of ``address``."""

    operation: str
    n: int
    address: str | None = None

    @classmethod
    def parse(cls, text: str) -> FaultPoint:
        """``"CreateVpc#1@aws_vpc.main"``; ValueError when ``text`` is not a point."""
        operation, hash_, rest = text.partition("#")
        n, _, address = rest.partition("@")
        if not hash_ or not operation or not n.isdigit():
            raise ValueError(f"not a fault point: {text!r} (write Operation#n[@address])")
        return cls(operation, int(n), address or None)

    def __str__(self) -> str:
        at = f"@{self.address}" if self.address else ""
        return f"{self.operation}#{self.n}{at}"

    def sort_key(self) -> tuple[Any, ...]:
        """By operation, then resource (``rule[2]`` before ``rule[10]``), then call."""
        return (self.operation, natural(self.address or ""), self.n)


@dataclass(frozen=True)
class Label:
    """A scenario label: its ``kind``, and the fault ``point`` or other ``target`` after it."""

    kind: str
    point: FaultPoint | None = None
    #: What follows the kind when it is not a fault point: a drift's address, a revision.
    target: str | None = None

    @classmethod
    def parse(cls, label: str) -> Label:
        kind, at, rest = label.partition("@")
        if not at:
            return cls(kind)
        head = rest.split("@", 1)[0]
        if "#" not in head:
            return cls(kind, target=rest)
        return cls(kind, FaultPoint.parse(rest.split(":", 1)[0]))

    @property
    def address(self) -> str | None:
        """The resource it is about: the point's, or a drift's target."""
        return self.point.address if self.point is not None else self.target


def fault_kind(label: str) -> str | None:
    """The fault kind of a one-fault scenario's ``label`` (``crash@CreateVpc#1``:
    ``crash``); None for any other label (a run of several points, a drift)::

        >>> fault_kind("lost-response@CreateVpc#1@aws_vpc.main"), fault_kind("3 points together")
        ('lost-response', None)
    """
    try:
        parsed = Label.parse(label)
    except ValueError:  # a name of the user's own with "#" in it
        return None
    return parsed.kind if parsed.point is not None else None
