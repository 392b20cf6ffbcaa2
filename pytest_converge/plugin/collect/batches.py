"""Zero-code mode's grouped matrix: which fault points share runs, and their verdicts.

Every fault point stays one item with its own id (``mods/net::crash@CreateVpc#1@aws_vpc.main``).
Under ``--converge-matrix grouped`` (the default) the points of one *batch* (a module
and a fault kind, split further when there are more xdist workers than kinds) are
decided together by :func:`pytest_converge.run.matrix.decisions`, started when the first
of them runs in a process; each item reports its own verdict, and the run that decided
it, as soon as that run ends.
A batch holds the items of this process's session that are selected (``-k``, a
reproduce line, a CI shard): a point selected alone runs alone, as it always did.

Under pytest-xdist the scheduler keeps a batch on one worker (:class:`BatchScheduling`,
for the default ``--dist load``; ``loadfile`` and ``loadscope`` keep a whole module on one
worker already); other distribution modes run each point on its own.
"""

from __future__ import annotations

import contextlib
import time
import zlib
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import pytest

from ...analysis.labels import Label, fault_kind
from ...analysis.state import state_resources
from ...faults import FAULT_KINDS, parse_fault
from ...run.matrix import Verdict, decisions
from ..options import settings
from .points import recorded

if TYPE_CHECKING:
    from .items import ConvergeItem

#: xdist distribution modes that keep a batch on one worker (``load``: ours does).
KEEPS_BATCHES = ("no", "load", "loadfile", "loadscope")

_batches_key = pytest.StashKey[dict[str, "_Batch"]]()


def point_kind(name: str) -> str | None:
    """The fault kind of a zero-code item's name (``crash@CreateVpc#1@...`` -> ``crash``),
    None for the two-run, drift, upgrade and stage items."""
    kind = fault_kind(name)
    return kind if kind in FAULT_KINDS else None


def batch_key(nodeid: str, kinds: Sequence[str], workers: int) -> str | None:
    """The batch of a fault point's node id (None for any other test): its module and
    kind, and a share of the module's points when there are more workers than kinds."""
    module, sep, name = nodeid.rpartition("::")
    kind = point_kind(name) if sep else None
    if kind is None:
        return None
    shares = max(1, workers // max(1, len(kinds)))
    share = zlib.crc32((Label.parse(name).address or name).encode()) % shares
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


@dataclass
class _Batch:
    """One batch's verdicts in this process, and the runs still deciding the rest."""

    found: dict[str, Verdict] = field(default_factory=dict)
    #: The batch's decisions (:func:`..run.matrix.decisions`), running on a Stack of its
    #: own; None before its first item and once every point is decided.
    deciding: Generator[Verdict, None, None] | None = None
    #: The items whose points :attr:`deciding` decides, by scenario.
    members: dict[str, ConvergeItem] = field(default_factory=dict)
    #: The points reported ahead of their turn (see :func:`report_as_decided`).
    reported: set[str] = field(default_factory=set)
    #: What stopped the runs while a point waited for its verdict (the emulator died):
    #: that point's own error, raised in its call phase.
    errors: dict[str, Exception] = field(default_factory=dict)


def verdict_for(item: ConvergeItem) -> Verdict | None:
    """``item``'s verdict from its batch's grouped runs, or None when it runs on its own
    (grouping off, alone in its batch). The batch's first item here starts its runs; an
    item takes their verdicts as far as its own."""
    batch = _batch(item)
    if batch is None:
        return None
    error = batch.errors.pop(item.scenario, None)
    if error is not None:
        raise error
    _decide_until(batch, item.scenario)
    return batch.found.get(item.scenario)


def report_as_decided(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """``pytest_runtest_protocol`` of a batch's point: each of the batch's points is
    reported as soon as a run decides it, ahead of its turn when it is decided first.

    A point whose run decided it while an earlier item waited for its own has run its
    protocol then (with that item as its ``nextitem``): at its turn it only hands the
    setup state on (True: done). An item waiting for its own verdict runs the protocol
    of every other point decided meanwhile, unless the session is stopping (``-x``,
    ``--maxfail``), when it is not run either; Ctrl-C records the points left undecided
    as interrupted. None: pytest runs the item as usual.
    """
    scenario: str | None = getattr(item, "scenario", None)
    batch = _batch(item) if scenario is not None else None  # type: ignore[arg-type]
    if batch is None or scenario is None:
        return None
    started = time.monotonic()
    setup_state = getattr(item.session, "_setupstate", None)
    if scenario in batch.reported:
        if setup_state is not None:
            setup_state.teardown_exact(nextitem)
        return True
    worker = _xdist_worker(item.config)
    if setup_state is None or worker is False:
        return None  # a pytest or xdist we cannot run out of order: each in its turn

    while scenario not in batch.found and batch.deciding is not None:
        if _stopping(item.session):
            return True
        try:
            label = _decide_next(batch)
        except Exception as exc:  # the waiting point's error, raised in its call phase
            batch.deciding = None
            batch.errors[scenario] = exc
            return None
        except KeyboardInterrupt:
            # Ctrl-C, or a cancelling signal: the points decided so far are reported;
            # the rest are interrupted, the one waiting for the cut run first.
            order = sorted(batch.members, key=lambda label: label != scenario)
            for member in (batch.members[label] for label in order):
                if member.scenario not in batch.found:
                    member._record([], "interrupted", time.monotonic() - started)
                    started = time.monotonic()
            raise
        other = batch.members.get(label) if label is not None else None
        if other is None or other is item or _stopping(item.session):
            continue
        with _reporting(worker, item.session, other):
            other.ihook.pytest_runtest_protocol(item=other, nextitem=item)
        batch.reported.add(other.scenario)
    return True if _stopping(item.session) and scenario not in batch.found else None


def _batch(item: ConvergeItem) -> _Batch | None:
    """``item``'s batch, its runs started if this is the batch's first item here; None
    when the item runs on its own (grouping off, alone in its batch)."""
    if not grouped(item.config):
        return None
    key = item_batch(item)
    if key is None:
        return None
    batch = item.config.stash.setdefault(_batches_key, {}).setdefault(key, _Batch())
    if item.scenario not in batch.found and batch.deciding is None:
        # The batch's points this session runs here and has no verdict for yet.
        members: list[ConvergeItem] = [
            other  # type: ignore[misc]  # a point's item: it has a scenario
            for other in item.session.items
            if getattr(other, "scenario", None) not in (None, *batch.found)
            and batch_key(other.nodeid, settings(item.config).faults, workers(item.config)) == key
        ]
        if len(members) < 2:
            return None
        batch.members = {m.scenario: m for m in members}
        batch.deciding = _decisions(item, members)
    return batch


def _decide_until(batch: _Batch, scenario: str) -> None:
    while scenario not in batch.found and batch.deciding is not None:
        _decide_next(batch)


def _decide_next(batch: _Batch) -> str | None:
    """The label of the point the batch's next verdict decides (None once it is done)."""
    assert batch.deciding is not None
    verdict = next(batch.deciding, None)
    if verdict is None:
        batch.deciding = None
        return None
    batch.found[verdict.label] = verdict
    return verdict.label


class _Sending(Protocol):
    """What the reporting uses of xdist's ``WorkerInteractor`` (xdist ships no type
    information): the index of the item whose reports it sends."""

    item_index: int


def _xdist_worker(config: pytest.Config) -> _Sending | Literal[False] | None:
    """On an xdist worker, the plugin that sends its reports (its ``item_index`` says
    whose they are); None elsewhere; False on a worker whose plugin is not found."""
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and hasattr(plugin, "item_index"):
            return plugin
    return False


@contextlib.contextmanager
def _reporting(
    worker: _Sending | None, session: pytest.Session, item: pytest.Item
) -> Iterator[None]:
    """Reports made meanwhile are ``item``'s: an xdist worker sends each report as the
    report of the item it runs, and checks so."""
    if worker is None:
        yield
        return
    running = worker.item_index
    worker.item_index = session.items.index(item)
    try:
        yield
    finally:
        worker.item_index = running


def _stopping(session: pytest.Session) -> bool:
    return bool(session.shouldfail or session.shouldstop)


def stop_deciding(config: pytest.Config) -> None:
    """End every batch's runs still deciding (its Stack closes): the session is ending,
    with points left undecided (``-x``, ``--maxfail``, Ctrl-C)."""
    for batch in config.stash.get(_batches_key, {}).values():
        deciding, batch.deciding = batch.deciding, None
        if deciding is not None:
            deciding.close()


def _decisions(item: ConvergeItem, members: list[ConvergeItem]) -> Generator[Verdict, None, None]:
    """``members``' points decided together on one Stack, each verdict as it comes."""
    points = recorded(item.config, item.path)
    state = state_resources(points.state) if points is not None and points.state else None
    walk = points.walk if points is not None else ()
    with item._stack(name=item.module_id) as stack:
        yield from decisions(
            stack,
            [parse_fault(m.scenario) for m in members],
            clean_state=state,
            order=walk,
            reproduce={m.scenario: m.reproduce_command() for m in members},
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
