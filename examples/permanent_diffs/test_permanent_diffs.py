"""Permanent normalisation diffs: found, confirmed by a third plan, classified, explained.

Three classes reproduce for real on this stack (provider 3.39 + moto):
type-coercion, json-equivalent and default.
"""

import pytest

from pytest_converge import ConvergenceError


def test_redrive_policies_never_converge(converge):
    stack = converge(".")
    stack.apply().raise_for_error()
    # apply + second plan, and because it is not empty: apply + third plan.
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    defects = {d.address: d for d in failure.value.defects}

    # The count is declared as a string; the API answers a number.
    orders = defects["aws_sqs_queue.orders"]
    assert orders.kind == "permanent-diff"  # still there after a second apply
    assert orders.attribute == "redrive_policy"
    assert orders.classification == "type-coercion"
    assert '"maxReceiveCount":"3"' in orders.declared.replace(" ", "")
    assert '"maxReceiveCount":3' in orders.observed.replace(" ", "")

    # Same document, other spacing: equivalent JSON that never compares equal.
    payments = defects["aws_sqs_queue.payments"]
    assert payments.kind == "permanent-diff"
    assert payments.classification == "json-equivalent"
    assert "ignore_changes" in payments.fix and "last resort" in payments.fix.lower()

    # An empty tag value the API drops: declared "", observed nothing.
    archive = defects["aws_s3_bucket.archive"]
    assert archive.kind == "permanent-diff"
    assert archive.attribute == "tags.retention"
    assert archive.classification == "default"
    assert archive.declared == "" and archive.observed is None
    assert "remove the attribute" in archive.fix
    # tags_all mirrors tags: one finding, not two.
    assert all(d.attribute != "tags_all.retention" for d in failure.value.defects)

    # The dead-letter queue itself converges.
    assert "aws_sqs_queue.dead_letters" not in defects
