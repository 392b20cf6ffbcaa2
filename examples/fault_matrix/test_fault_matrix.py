"""Every mutating call of a clean apply, through two fault kinds: the module recovers."""

from pathlib import Path

import pytest

from pytest_converge import fault_points

MODULE = Path(__file__).parent


def pytest_generate_tests(metafunc):
    # One clean apply, recorded once per session:
    # ["CreateQueue#1@aws_sqs_queue.dead_letters", "CreateTopic#1@aws_sns_topic.invoice_events"]
    if "point" in metafunc.fixturenames:
        metafunc.parametrize("point", fault_points(metafunc.config, MODULE))


@pytest.mark.parametrize("kind", ["lost-response", "crash"])
def test_recovers(converge, kind, point):
    report = converge(MODULE).recover(f"{kind}@{point}")
    report.raise_for_defects()  # duplicate, orphan, recovery-failed or a non-empty plan
