"""Upgrade-plan analysis on plain plan JSON: no terraform, no emulator."""

from __future__ import annotations

from typing import Any

from pytest_converge.analysis.plan import parse_plan
from pytest_converge.analysis.upgrade_check import (
    STATEFUL_TYPES,
    is_allowed,
    moved_hints,
    upgrade_actions,
    upgrade_defects,
)


def change(
    address: str,
    actions: list[str],
    before: Any = None,
    after: Any = None,
    *,
    unknown: Any = None,
    replace: list[list[str]] | None = None,
    previous: str | None = None,
) -> dict[str, Any]:
    name = address.rpartition(".")[2]
    entry: dict[str, Any] = {
        "address": address,
        "mode": "managed",
        "type": address.split(".")[-2],
        "name": name,
        "provider_name": "registry.terraform.io/hashicorp/aws",
        "change": {
            "actions": actions,
            "before": before,
            "after": after,
            "after_unknown": unknown or {},
            "replace_paths": replace or [],
        },
    }
    if previous:
        entry["previous_address"] = previous
    return entry


def plan(*changes: dict[str, Any]) -> Any:
    return parse_plan({"resource_changes": list(changes)})


QUEUE = {"name": "jobs", "delay_seconds": 0, "tags": None, "id": "http://x/jobs", "arn": "a"}


def test_a_rename_is_a_moved_hint_with_the_exact_block():
    found = plan(
        change("aws_sqs_queue.jobs", ["delete"], before=QUEUE),
        change(
            "aws_sqs_queue.work",
            ["create"],
            after={"name": "jobs", "delay_seconds": 0, "tags": None},
            unknown={"id": True, "arn": True},
        ),
    )
    [hint] = moved_hints(found)
    assert (hint.old, hint.new) == ("aws_sqs_queue.jobs", "aws_sqs_queue.work")
    assert hint.same[0] == "name"
    assert hint.block == "moved {\n  from = aws_sqs_queue.jobs\n  to   = aws_sqs_queue.work\n}"
    [defect] = upgrade_defects(found)
    assert defect.kind == "destructive-upgrade" and defect.is_error  # a queue holds messages
    assert hint.block in defect.fix


def test_different_objects_of_one_type_are_not_a_rename():
    found = plan(
        change("aws_sqs_queue.jobs", ["delete"], before=QUEUE),
        change("aws_sqs_queue.other", ["create"], after={"name": "other", "delay_seconds": 0}),
    )
    assert moved_hints(found) == []
    [defect] = upgrade_defects(found)  # still a stateful delete
    assert defect.address == "aws_sqs_queue.jobs"
    assert "removed {\n  from = aws_sqs_queue.jobs" in defect.fix


def test_a_rename_of_a_stateless_type_is_a_warning():
    sg = {"name": "web", "description": "web", "id": "sg-1"}
    found = plan(
        change("aws_security_group.web", ["delete"], before=sg),
        change(
            "module.net.aws_security_group.web",
            ["create"],
            after={"name": "web", "description": "web"},
        ),
    )
    [defect] = upgrade_defects(found)
    assert defect.severity == "warning"
    assert "from = aws_security_group.web\n  to   = module.net.aws_security_group.web" in defect.fix


def test_pairs_are_matched_one_to_one_by_the_most_shared_attributes():
    a = {"name": "a", "visibility_timeout_seconds": 30}
    b = {"name": "b", "visibility_timeout_seconds": 30}
    found = plan(
        change("aws_sqs_queue.old_a", ["delete"], before=a),
        change("aws_sqs_queue.old_b", ["delete"], before=b),
        change("aws_sqs_queue.new_b", ["create"], after=b),
        change("aws_sqs_queue.new_a", ["create"], after=a),
    )
    assert sorted((h.old, h.new) for h in moved_hints(found)) == [
        ("aws_sqs_queue.old_a", "aws_sqs_queue.new_a"),
        ("aws_sqs_queue.old_b", "aws_sqs_queue.new_b"),
    ]


def test_a_replace_of_a_stateful_type_names_the_attribute_that_forces_it():
    before = {"name": "orders", "hash_key": "id", "billing_mode": "PAY_PER_REQUEST"}
    after = {"name": "orders", "hash_key": "order_id", "billing_mode": "PAY_PER_REQUEST"}
    found = plan(
        change(
            "aws_dynamodb_table.orders",
            ["delete", "create"],
            before,
            after,
            replace=[["hash_key"]],
        )
    )
    [action] = upgrade_actions(found)
    assert (action.action, action.forcing) == ("replace", ("hash_key",))
    [defect] = upgrade_defects(found, old="v1.2.0")
    assert (defect.attribute, defect.observed, defect.declared) == ("hash_key", "id", "order_id")
    assert "v1.2.0" in defect.message and "hash_key" in defect.message
    assert 'allow_replace=["aws_dynamodb_table.orders"]' in defect.fix


def test_replacing_a_stateless_type_is_not_a_defect():
    found = plan(
        change(
            "aws_iam_role.r",
            ["create", "delete"],
            {"name": "r"},
            {"name": "r2"},
            replace=[["name"]],
        )
    )
    assert upgrade_defects(found) == []


def test_updates_and_creates_are_clean():
    found = plan(
        change(
            "aws_s3_bucket.b",
            ["update"],
            {"bucket": "b", "tags": None},
            {"bucket": "b", "tags": {"t": "1"}},
        ),
        change("aws_sqs_queue.q", ["create"], None, {"name": "q"}),
    )
    assert upgrade_defects(found) == []


def test_allow_replace_matches_addresses_instances_and_globs():
    assert is_allowed("aws_s3_bucket.logs", ["aws_s3_bucket.logs"])
    assert is_allowed('aws_s3_bucket.logs["a"]', ["aws_s3_bucket.logs"])
    assert is_allowed("module.store.aws_s3_bucket.logs", ["module.store.*"])
    assert not is_allowed("aws_s3_bucket.logs2", ["aws_s3_bucket.logs"])
    found = plan(change("aws_s3_bucket.logs[0]", ["delete"], {"bucket": "logs"}))
    assert upgrade_defects(found, allow_replace=["aws_s3_bucket.logs"]) == []
    assert len(upgrade_defects(found)) == 1


def test_the_stateful_list_can_be_replaced():
    found = plan(change("aws_sqs_queue.q", ["delete"], {"name": "q"}))
    assert upgrade_defects(found, stateful=STATEFUL_TYPES - {"aws_sqs_queue"}) == []
    found = plan(change("aws_ssm_parameter.p", ["delete"], {"name": "p"}))
    assert len(upgrade_defects(found, stateful={"aws_ssm_parameter"})) == 1


def test_a_moved_resource_is_listed_as_a_move():
    found = parse_plan(
        {
            "resource_changes": [
                change("aws_sqs_queue.work", ["no-op"], QUEUE, QUEUE, previous="aws_sqs_queue.jobs")
            ]
        }
    )
    [action] = upgrade_actions(found)
    assert (action.address, action.action, action.moved_from) == (
        "aws_sqs_queue.work",
        "move",
        "aws_sqs_queue.jobs",
    )
    assert upgrade_defects(found) == []


def test_the_builtin_list_covers_the_common_data_stores():
    for t in (
        "aws_dynamodb_table",
        "aws_s3_bucket",
        "aws_db_instance",
        "aws_rds_cluster",
        "aws_ebs_volume",
        "aws_efs_file_system",
        "aws_kms_key",
        "aws_kinesis_stream",
        "aws_elasticache_replication_group",
    ):
        assert t in STATEFUL_TYPES


def test_a_name_decides_even_when_nested_blocks_differ():
    # The state has the provider's defaults in nested blocks; the config does not.
    before = {"name": "orders", "hash_key": "id", "ttl": [{"enabled": False, "attribute_name": ""}]}
    after = {"name": "orders", "hash_key": "id", "ttl": [{"enabled": False}], "read_capacity": 5}
    found = plan(
        change(
            "module.t.aws_dynamodb_table.this[0]",
            ["delete"],
            before={**before, "read_capacity": 1},
            after=None,
        ),
        change("module.t.aws_dynamodb_table.autoscaled[0]", ["create"], after=after),
    )
    [hint] = moved_hints(found)
    assert hint.same[0] == "name"
    assert hint.block == (
        "moved {\n  from = module.t.aws_dynamodb_table.this[0]\n"
        "  to   = module.t.aws_dynamodb_table.autoscaled[0]\n}"
    )
    # Inside the module the same block has module-relative addresses.
    [defect] = upgrade_defects(found)
    assert hint.block in defect.fix
    assert (
        "inside the called module itself:\nmoved {\n  from = aws_dynamodb_table.this[0]\n"
        "  to   = aws_dynamodb_table.autoscaled[0]\n}"
    ) in defect.fix


def test_without_a_name_every_declared_scalar_must_match():
    found = plan(
        change("aws_ebs_volume.a", ["delete"], {"size": 10, "type": "gp2", "id": "vol-1"}),
        change("aws_ebs_volume.b", ["create"], after={"size": 10, "type": "gp3"}),
    )
    assert moved_hints(found) == []
    found = plan(
        change("aws_ebs_volume.a", ["delete"], {"size": 10, "type": "gp2", "id": "vol-1"}),
        change("aws_ebs_volume.b", ["create"], after={"size": 10, "type": "gp2"}),
    )
    assert [h.same for h in moved_hints(found)] == [("size", "type")]


def test_a_delete_says_why_in_terraforms_words():
    entry = change("aws_s3_bucket.b[0]", ["delete"], {"bucket": "b"})
    entry["action_reason"] = "delete_because_count_index"
    [defect] = upgrade_defects(plan(entry))
    assert "`count` no longer includes this index" in defect.why
