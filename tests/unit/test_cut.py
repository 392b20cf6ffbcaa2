"""Several crashes in one cut (faults/cut.py): the gathering logic with threads, no engine."""

from __future__ import annotations

import signal
import threading
import time

from pytest_converge.faults.cut import Gather


class Terraform:
    """The open applies and the signals a Gather sees."""

    def __init__(self, open_: int) -> None:
        self.open = open_
        self.signals: list[tuple[float, int]] = []

    def signal(self, sig: int) -> None:
        self.signals.append((time.monotonic(), sig))


def held(gather: Gather, tf: Terraform) -> threading.Thread:
    """A crash point's call, held in a handler thread until the cut."""
    gather.crashing()
    thread = threading.Thread(target=gather.hold, args=(tf.signal,))
    thread.start()
    return thread


def test_the_cut_waits_for_every_open_apply_then_kills_once() -> None:
    tf = Terraform(open_=3)
    gather = Gather(lambda: tf.open, quiet=0.05, longest=10)
    first = held(gather, tf)
    # A resource that made a change already goes on: it is not held.
    gather.changed("aws_vpc.this")
    assert not gather.holds("aws_vpc.this", mutating=True)
    assert not gather.holds("aws_subnet.a", mutating=False)  # reads go on
    time.sleep(0.3)
    assert tf.signals == []  # two open applies are not held yet
    second = held(gather, tf)
    assert gather.holds("aws_subnet.b", mutating=True)  # a first change waits
    first.join(5)
    second.join(5)
    assert [sig for _, sig in tf.signals] == [signal.SIGKILL]
    assert gather.made
    assert not gather.holds("aws_subnet.c", mutating=True)  # after the cut nothing is held


def test_nothing_is_held_before_a_crash() -> None:
    gather = Gather(lambda: 1)
    assert not gather.holds("aws_subnet.a", mutating=True)


def test_an_apply_that_never_waits_is_cut_after_the_longest_wait() -> None:
    tf = Terraform(open_=5)
    gather = Gather(lambda: tf.open, quiet=0.01, longest=0.3)
    started = time.monotonic()
    held(gather, tf).join(5)
    assert [sig for _, sig in tf.signals] == [signal.SIGKILL]
    assert 0.25 <= tf.signals[0][0] - started < 3


def test_calls_still_arriving_put_the_cut_off() -> None:
    tf = Terraform(open_=1)
    gather = Gather(lambda: tf.open, quiet=0.2, longest=10)
    thread = held(gather, tf)
    started = time.monotonic()
    for _ in range(5):
        gather.arrived()
        time.sleep(0.1)
    thread.join(5)
    assert tf.signals and tf.signals[0][0] - started >= 0.5


def test_release_frees_what_waits() -> None:
    tf = Terraform(open_=9)
    gather = Gather(lambda: tf.open, longest=60)
    thread = held(gather, tf)
    gather.release()
    thread.join(5)
    assert not thread.is_alive()
    assert tf.signals == []
