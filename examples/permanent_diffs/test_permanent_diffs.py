"""Permanent normalisation diffs: found, confirmed by a third plan, classified, explained.

Four classes reproduce for real on this stack (provider 3.39 + moto, answering
as AWS does where moto 5.2 does not): type-coercion, default (an empty tag
value; an on-demand table's capacities), dedup and dropped. Case and
whitespace reproduce in tests/integration/test_two_run.py; every class has
unit tests in tests/unit/test_classify.py and a recorded plan in
tests/data/plans (json-equivalent: moto 5.2 as released re-spaced an SQS
redrive policy, which AWS writes compact). A value the emulator drops
although AWS keeps it is marked a suspected emulator gap, with its evidence.
"""

import pytest

from pytest_converge import ConvergenceError


def test_redrive_policies_never_converge(converge):
    stack = converge(".")
    stack.apply().raise_for_error()
    # apply + second plan, and because it is not empty: apply + third plan.
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    found = failure.value.defects
    defects = {d.address: d for d in found if d.kind == "permanent-diff"}

    # The count is declared as a string; the API answers a number.
    orders = defects["aws_sqs_queue.orders"]
    assert orders.kind == "permanent-diff"  # still there after a second apply
    assert orders.attribute == "redrive_policy"
    assert orders.classification == "type-coercion"
    assert '"maxReceiveCount":"3"' in orders.declared.replace(" ", "")
    assert '"maxReceiveCount":3' in orders.observed.replace(" ", "")

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

    # On-demand capacities: the API reports 0 for a setting that does not apply.
    capacities = {d.attribute: d for d in found if d.address == "aws_dynamodb_table.sessions"}
    assert set(capacities) == {"read_capacity", "write_capacity"}
    read = capacities["read_capacity"]
    assert (read.classification, read.declared, read.observed) == ("default", 5, 0)
    assert "does not apply in the chosen mode" in read.why
    assert "PROVISIONED" in read.fix and "null" in read.fix
    # The module's own: no emulator gap explains it.
    assert read.severity == "error" and not read.emulator_suspected

    # The same CIDR twice: kept once.
    ssh = defects["aws_security_group.ssh"]
    assert ssh.classification == "dedup"
    assert ssh.attribute == "ingress[0].cidr_blocks"
    assert "distinct(" in ssh.fix

    # A value AWS keeps and the embedded moto drops: listed, marked, a warning.
    rule = defects["aws_security_group_rule.office"]
    assert rule.attribute == "description" and rule.classification == "dropped"
    assert rule.emulator_suspected and rule.severity == "warning"
    assert "PrefixListId.Description" in rule.evidence
    assert "suspected emulator gap" in str(failure.value)
