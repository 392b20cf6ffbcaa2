"""Zero-code mode's grouped matrix: which fault points share runs, and their verdicts.

Every fault point stays one item with its own id (``mods/net::crash@CreateVpc#1@aws_vpc.main``).
Under ``--converge-matrix grouped`` (the default) the points of one *batch* (a module
and a fault kind, split further when there are more xdist workers than kinds) are
decided together by :func:`pytest_converge.run.matrix.decide` when the first of them runs
in a process; each item then reports its own verdict and the run that decided it.
A batch holds the items of this process's session that are selected (``-k``, a
reproduce line, a CI shard): a point selected alone runs alone, as it always did.

Under pytest-xdist the scheduler keeps a batch on one worker (:class:`BatchScheduling`,
for the default ``--dist load``; ``loadfile`` and ``loadscope`` keep a whole module on one
worker already); other distribution modes run each point on its own.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest

from ...analysis.state import state_resources
from ...faults import FAULT_KINDS, parse_fault
from ...run.matrix import Verdict, decide
from ..options import settings
from .points import recorded

if TYPE_CHECKING:
    from .items import ConvergeItem

#: xdist distribution modes that keep a batch on one worker (``load``: ours does).
KEEPS_BATCHES = ("no", "load", "loadfile", "loadscope")

_verdicts_key = pytest.StashKey[dict[str, dict[str, Verdict]]]()


def point_kind(name: str) -> str | None:
    """The fault kind of a zero-code item's name (``crash@CreateVpc#1@...`` -> ``crash``),
    None for the two-run, drift, upgrade and stage items."""
    kind, at, _ = name.partition("@")
    return kind if at and kind in FAULT_KINDS else None


def batch_key(nodeid: str, kinds: Sequence[str], workers: int) -> str | None:
    """The batch of a fault point's node id (None for any other test): its module and
    kind, and a share of the module's points when there are more workers than kinds."""
    module, sep, name = nodeid.rpartition("::")
    kind = point_kind(name) if sep else None
    if kind is None:
        return None
    shares = max(1, workers // max(1, len(kinds)))
    address = name.split("@", 2)[2] if name.count("@") >= 2 else name
    share = zlib.crc32(address.split(":", 1)[0].encode()) % shares
    return f"{module}::{kind}#{share}"


def workers(config: pytest.Config) -> int:
    """How many xdist workers run this session's tests (1 without xdist)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return int(workerinput.get("workercount", 1))
    count = getattr(config.option, "numprocesses", None)
    return count if isinstance(count, int) and count > 0 else 1


def grouped(config: pytest.Config) -> bool:
    """Points run grouped in this session: the option says so and xdist, if it runs,
    keeps a batch on one worker."""
    if settings(config).matrix != "grouped":
        return False
    dist = getattr(config.option, "dist", "no") or "no"
    return dist in KEEPS_BATCHES


def item_batch(item: ConvergeItem) -> str | None:
    return batch_key(item.nodeid, settings(item.config).faults, workers(item.config))


def verdict_for(item: ConvergeItem) -> Verdict | None:
    """``item``'s verdict from its batch's grouped runs (made now if this is the batch's
    first item here), or None when it runs on its own (grouping off, alone in its batch)."""
    if not grouped(item.config):
        return None
    key = item_batch(item)
    if key is None:
        return None
    found = item.config.stash.setdefault(_verdicts_key, {}).setdefault(key, {})
    if item.scenario in found:
        return found[item.scenario]
    # The batch's points this session runs here and has no verdict for yet.
    members = [
        other
        for other in item.session.items
        if getattr(other, "scenario", None) not in (None, *found)
        and batch_key(other.nodeid, settings(item.config).faults, workers(item.config)) == key
    ]
    if len(members) < 2:
        return None
    _decide(item, members, found)
    return found.get(item.scenario)


def _decide(item: ConvergeItem, members: list[Any], found: dict[str, Verdict]) -> None:
    """Run ``members``' points together on one Stack; each verdict lands in ``found`` as
    soon as it is decided (a run cut short keeps what it decided)."""
    points = recorded(item.config, item.path)
    state = state_resources(points.state) if points is not None and points.state else None
    walk = points.walk if points is not None else ()
    with item._stack(name=item.module_id) as stack:
        decide(
            stack,
            [parse_fault(m.scenario) for m in members],
            clean_state=state,
            order=walk,
            reproduce={m.scenario: m.reproduce_command() for m in members},
            on_verdict=lambda v: found.__setitem__(v.label, v),
        )


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The xdist scheduler of a grouped zero-code run under ``--dist load``: a batch's
    points go to one worker (they share its runs), every other test as ``load`` sends it."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    kinds = settings(config).faults
    count = workers(config)

    class BatchScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return batch_key(nodeid, kinds, count) or nodeid

    return BatchScheduling(config, log)


class XdistBatches:
    """Registered when xdist is: keeps a grouped run's batches on one worker each."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        dist = getattr(config.option, "dist", "no")
        if dist != "load" or not settings(config).paths or not grouped(config):
            return None
        return make_scheduler(config, log)
