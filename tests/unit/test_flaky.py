"""A scenario whose replay differs is reported as flaky (pure logic of the report)."""

from __future__ import annotations

import pytest

from pytest_converge import ConvergenceError, Defect
from pytest_converge.run.stack import ApplyResult, RecoveryReport


def report(defects, replayed, flaky):
    first = ApplyResult(ok=True, error=None, seconds=1.0)
    return RecoveryReport(
        "net",
        "lost-response@CreateVpc#1",
        defects,
        first,
        first,
        None,
        2.0,
        flaky=flaky,
        replayed=replayed,
    )


def test_flaky_report_says_so_and_shows_both_outcomes():
    dup = Defect(kind="duplicate", address="aws_vpc.main", module="net")
    with pytest.raises(ConvergenceError) as failure:
        report([dup], [], flaky=True).raise_for_defects()
    text = str(failure.value)
    assert "FLAKY" in text
    assert "no defects" in text and "duplicate aws_vpc.main" in text


def test_reproducible_report_is_not_called_flaky():
    dup = Defect(kind="duplicate", address="aws_vpc.main", module="net")
    with pytest.raises(ConvergenceError) as failure:
        report([dup], [dup], flaky=False).raise_for_defects()
    assert "FLAKY" not in str(failure.value)
    assert "does not recover from lost-response@CreateVpc#1" in str(failure.value)


def test_warnings_alone_do_not_fail():
    warn = Defect(kind="needs-second-apply", address="a.b", severity="warning")
    assert report([warn], [], flaky=False).raise_for_defects().ok


def test_a_replay_failing_the_same_way_on_other_objects_is_not_flaky():
    # A crash leaves unrecorded whatever the run created before it; which
    # independent resources that was depends on terraform's walk order.
    from pytest_converge.run.stack import _outcome

    first = [Defect(kind="duplicate", address="aws_subnet.a[0]", module="net")]
    again = [Defect(kind="duplicate", address="aws_subnet.a[1]", module="net")]
    other = [Defect(kind="recovery-failed", address="aws_subnet.a[0]", module="net")]
    assert _outcome(first) == _outcome(again)
    assert _outcome(first) != _outcome(other)
    assert _outcome(first) != _outcome([])


def test_the_address_a_diagnostic_names_keeps_its_instance_key():
    from pytest_converge.errors import Diagnostic
    from pytest_converge.run.scenario import address_in as _address_in

    seen = "EntityAlreadyExists: Role with name readonly already exists."
    role = "module.roles.aws_iam_role.readonly[0]"
    assert _address_in([Diagnostic(seen), Diagnostic(seen, role)]) == role
    assert _address_in([Diagnostic("x [aws_vpc.main, main.tf:3]")]) is None  # text is not read
    assert _address_in([]) is None


def test_a_pinned_replay_that_differs_says_what_differed_not_the_walk_order():
    first = ApplyResult(ok=True, error=None, seconds=1.0)
    dup = Defect(kind="duplicate", address="aws_sqs_queue.alpha", module="net")
    hatch = Defect(kind="escape-hatch", address="terraform_data.deploy", module="net")
    pinned = RecoveryReport(
        "net",
        "crash@CreateQueue#1@aws_sqs_queue.alpha",
        [dup, hatch],
        first,
        first,
        None,
        2.0,
        flaky=True,
        replayed=[dup],
        hit="aws_sqs_queue.alpha",
        replay_hit="aws_sqs_queue.alpha",
    )
    with pytest.raises(ConvergenceError) as failure:
        pinned.raise_for_defects()
    text = " ".join(str(failure.value).split())
    assert "is FLAKY" in text
    assert (
        "The fault hit aws_sqs_queue.alpha both times, so the difference is not which "
        "resource it hit but what the module does: only the first run found "
        "escape-hatch terraform_data.deploy." in text
    )
    assert "orders independent resources freely" not in text


def test_an_unpinned_replay_that_hit_another_resource_says_how_to_pin_it():
    first = ApplyResult(ok=True, error=None, seconds=1.0)
    dup = Defect(kind="duplicate", address="aws_sqs_queue.alpha", module="net")
    moved = RecoveryReport(
        "net",
        "error@CreateQueue#1:status=503",
        [dup],
        first,
        first,
        None,
        2.0,
        flaky=True,
        replayed=[],
        hit="aws_sqs_queue.alpha",
        replay_hit="aws_sqs_queue.bravo",
    )
    with pytest.raises(ConvergenceError) as failure:
        moved.raise_for_defects()
    text = " ".join(str(failure.value).split())
    assert "The fault hit aws_sqs_queue.alpha, then aws_sqs_queue.bravo" in text
    assert "pin it to one: error@CreateQueue#1@aws_sqs_queue.alpha:status=503." in text
