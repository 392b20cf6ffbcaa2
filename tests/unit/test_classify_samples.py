"""Every built-in class is produced by a real sample: second plans recorded from real runs.

``tests/data/plans/*.json`` are ``terraform show -json`` of the plan after a
successful apply (terraform 1.11.4, aws provider 3.39.0, moto 5.2.5; the
derived ``planned_values``/``prior_state`` left out), of the modules beside
them (``<name>.tf.txt``) or ``examples/permanent_diffs``.
``tests/data/plans/README.md`` says how each was made; three are staged (the
object rewritten after apply, through the emulator's API, into the form AWS
answers). A class no sample reaches is text no user ever sees: add a sample
with the class.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_converge.analysis.defects import CLASSIFICATIONS
from pytest_converge.analysis.diffs import plan_defects
from pytest_converge.analysis.plan import parse_plan

PLANS = Path(__file__).resolve().parents[1] / "data" / "plans"

#: sample -> {(address, attribute): classification} of its permanent diffs.
EXPECTED = {
    "permanent_diffs": {
        ("aws_customer_gateway.office", "device_name"): "dropped",
        ("aws_dynamodb_table.sessions", "read_capacity"): "default",
        ("aws_dynamodb_table.sessions", "write_capacity"): "default",
        ("aws_s3_bucket.archive", "tags.retention"): "default",
        ("aws_security_group.ssh", "ingress[0].cidr_blocks"): "dedup",
        ("aws_sqs_queue.orders", "redrive_policy"): "type-coercion",
        ("aws_sqs_queue.payments", "redrive_policy"): "json-equivalent",
    },
    # The provider lower-cases the declared window, moto answers it as sent; and a
    # scaling block moto makes up for a provisioned cluster, which nothing explains.
    "rds_cluster_window": {
        ("aws_rds_cluster.c", "preferred_maintenance_window"): "case",
        ("aws_rds_cluster.c", "scaling_configuration"): "unknown",
    },
    # XML answers: "\r\n" reads back as "\n".
    "crlf_line_endings": {
        ("aws_iam_role.r", "description"): "whitespace",
        ("aws_vpc.v", "tags.Note"): "whitespace",
    },
    # Staged: the thumbprints as the API answers them sorted.
    "oidc_thumbprints_sorted": {
        ("aws_iam_openid_connect_provider.ci", "thumbprint_list"): "order",
    },
    # Staged: lifecycle rules as an API answers them sorted by id (blocks paired by
    # position pick up each other's unset fields: only pairing by id explains them).
    "lifecycle_rules_sorted": {("aws_s3_bucket.logs", "lifecycle_rule"): "order"},
    # Staged: the KMS key named by alias, answered as the alias's ARN.
    "sns_kms_key_arn": {("aws_sns_topic.alerts", "kms_master_key_id"): "alias"},
}


def _permanent_diffs(name: str) -> dict[tuple[str | None, str | None], str | None]:
    plan = parse_plan(json.loads((PLANS / f"{name}.json").read_text()))
    found = plan_defects(plan)
    return {(d.address, d.attribute): d.classification for d in found if d.kind == "permanent-diff"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_real_sample_keeps_its_classes(name: str) -> None:
    assert _permanent_diffs(name) == EXPECTED[name]


def test_every_class_the_plugin_knows_is_produced_by_a_real_sample() -> None:
    reached = {c for name in EXPECTED for c in _permanent_diffs(name).values()}
    assert reached == set(CLASSIFICATIONS)


def test_every_stored_sample_is_checked() -> None:
    assert {p.stem for p in PLANS.glob("*.json")} == set(EXPECTED)
