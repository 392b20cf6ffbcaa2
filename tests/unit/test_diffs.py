"""Second-plan analysis: permanence, escape hatches, outputs, drift, source locations.

The plans are dicts shaped like ``terraform show -json`` output; the
escape-hatch and SQS ones are trimmed from real runs of terraform 1.11.4 with
the AWS provider 3.39.0 against moto.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pytest_converge.analysis.defects import CLASSIFICATIONS, Defect
from pytest_converge.analysis.diffs import plan_defects
from pytest_converge.analysis.escape import find_triggers
from pytest_converge.analysis.plan import parse_plan
from pytest_converge.analysis.source import attribute_expression, find_resource

DLQ = "arn:aws:sqs:us-east-1:123456789012:rp-string-dlq"


def _plan(*changes, outputs=None, drift=None, configuration=None, relevant=None):
    data = {
        "format_version": "1.2",
        "resource_changes": list(changes),
        "output_changes": outputs or {},
        "resource_drift": drift or [],
        "configuration": configuration or {},
    }
    if relevant:
        data["relevant_attributes"] = [
            {"resource": address, "attribute": path} for address, path in relevant
        ]
    return parse_plan(data)


def _update(address, before, after, after_unknown=None, actions=("update",), **extra):
    rtype, name = address.split(".")[-2:]
    change = {
        "actions": list(actions),
        "before": before,
        "after": after,
        "after_unknown": after_unknown or {},
        "before_sensitive": {},
        "after_sensitive": {},
    }
    change.update(extra)
    return {
        "address": address,
        "mode": "managed",
        "type": rtype,
        "name": name,
        "provider_name": "registry.terraform.io/hashicorp/aws",
        "change": change,
    }


def _sqs_type_coercion():
    """Real: redrive_policy with maxReceiveCount = "3" (string) in jsonencode()."""
    base = {
        "arn": "arn:aws:sqs:us-east-1:123456789012:rp-string-work",
        "name": "rp-string-work",
        "delay_seconds": 0,
        "tags": {},
    }
    before = dict(base, redrive_policy=f'{{"deadLetterTargetArn": "{DLQ}", "maxReceiveCount": 3}}')
    after = dict(base, redrive_policy=f'{{"deadLetterTargetArn":"{DLQ}","maxReceiveCount":"3"}}')
    return _update("aws_sqs_queue.work", before, after)


#: Real: terraform_data with triggers_replace = timestamp() and a local-exec provisioner.
TIMESTAMP_CHANGE = {
    "address": "terraform_data.build",
    "mode": "managed",
    "type": "terraform_data",
    "name": "build",
    "provider_name": "terraform.io/builtin/terraform",
    "change": {
        "actions": ["delete", "create"],
        "before": {
            "id": "3f51380f-6fb1-116a-831e-60cf59ff6065",
            "input": None,
            "output": None,
            "triggers_replace": "2026-11-29T16:17:22Z",
        },
        "after": {"input": None, "output": None},
        "after_unknown": {"id": True, "triggers_replace": True},
        "before_sensitive": {},
        "after_sensitive": {},
        "replace_paths": [["triggers_replace"]],
    },
    "action_reason": "replace_because_cannot_update",
}
TIMESTAMP_CONFIG = {
    "root_module": {
        "resources": [
            {
                "address": "terraform_data.build",
                "mode": "managed",
                "type": "terraform_data",
                "name": "build",
                "provisioners": [
                    {
                        "type": "local-exec",
                        "expressions": {"command": {"constant_value": "echo building"}},
                    }
                ],
                "expressions": {"triggers_replace": {}},
            }
        ]
    }
}


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    (tmp_path / "main.tf").write_text(
        """# a module with an escape hatch
resource "aws_sqs_queue" "dlq" { name = "rp-string-dlq" }

resource "aws_sqs_queue" "work" {
  name = "rp-string-work" # the queue
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = "3"
  })
}
"""
    )
    (tmp_path / "build.tf").write_text(
        """resource "terraform_data" "build" {
  triggers_replace = timestamp()
  provisioner "local-exec" {
    command = "echo \\"{ not a brace }\\""
  }
}

resource "null_resource" "legacy" {
  triggers = {
    always = uuid()
    "quoted.key" = "x"
  }
}

resource "aws_security_group" "sg" {
  description = <<-EOT
    braces { in } heredoc
  EOT
  ingress {
    cidr_blocks = ["10.0.0.0/16"]
  }
  ingress {
    cidr_blocks = ["10.9.0.0/16", "10.1.0.0/16"]
  }
}
"""
    )
    return tmp_path


def test_permanent_when_still_in_third_plan():
    second = _plan(_sqs_type_coercion())
    third = _plan(_sqs_type_coercion())
    [defect] = plan_defects(second, third, module="sqs", scenario="two-run")
    assert defect.kind == "permanent-diff"
    assert defect.severity == "error"
    assert defect.attribute == "redrive_policy"
    assert defect.classification == "type-coercion"
    assert '"maxReceiveCount":"3"' in defect.declared
    assert '"maxReceiveCount": 3' in defect.observed
    assert "maxReceiveCount = 3" in defect.fix
    assert defect.why and defect.module == "sqs"


def test_needs_second_apply_when_gone_in_third_plan():
    [defect] = plan_defects(_plan(_sqs_type_coercion()), _plan(), module="sqs")
    assert defect.kind == "needs-second-apply"
    assert defect.severity == "warning"
    assert defect.classification == "type-coercion"
    assert defect.why and defect.fix


def test_permanence_is_per_attribute():
    before = {"name": "q", "delay_seconds": 0, "policy": "a\n"}
    after = {"name": "q", "delay_seconds": 5, "policy": "a"}
    second = _plan(_update("aws_sqs_queue.q", before, after))
    third = _plan(_update("aws_sqs_queue.q", dict(before, delay_seconds=5), after))
    kinds = {d.attribute: d.kind for d in plan_defects(second, third)}
    assert kinds == {"delay_seconds": "needs-second-apply", "policy": "permanent-diff"}


def test_without_third_every_change_is_permanent():
    defects = plan_defects(_plan(_sqs_type_coercion()))
    assert [d.kind for d in defects] == ["permanent-diff"]


def test_timestamp_trigger_is_an_escape_hatch_naming_the_attribute_and_both_values(module_dir):
    second = _plan(TIMESTAMP_CHANGE, configuration=TIMESTAMP_CONFIG)
    third = _plan(copy.deepcopy(TIMESTAMP_CHANGE), configuration=TIMESTAMP_CONFIG)
    [defect] = plan_defects(second, third, module="build", module_dir=module_dir)
    assert defect.kind == "escape-hatch"
    assert defect.address == "terraform_data.build"
    assert defect.attribute == "triggers_replace"
    assert defect.observed == "2026-11-29T16:17:22Z"
    assert defect.declared == "(known after apply) from timestamp()"
    assert "triggers_replace" in defect.message
    assert "2026-11-29T16:17:22Z" in defect.message
    assert "(known after apply)" in defect.message
    assert "local-exec" in defect.message
    assert "filesha256" in defect.fix and "sha256(file(" in defect.fix
    assert "Last resort only" in defect.fix
    assert defect.file == str(module_dir / "build.tf") and defect.line == 1
    # id is also unknown on the second plan: it is folded into the one finding.
    assert "id" not in {d.attribute for d in plan_defects(second, third)}


def test_escape_hatch_without_module_dir_still_names_the_trigger():
    [defect] = plan_defects(_plan(TIMESTAMP_CHANGE), _plan(TIMESTAMP_CHANGE))
    assert defect.kind == "escape-hatch"
    assert defect.declared == "(known after apply)"
    assert defect.file is None


def test_null_resource_triggers(module_dir):
    change = _update(
        "null_resource.legacy",
        {"id": "123", "triggers": {"always": "4c0f-old", "quoted.key": "x"}},
        {"triggers": {"quoted.key": "x"}},
        after_unknown={"id": True, "triggers": {"always": True}},
        actions=("delete", "create"),
        replace_paths=[["triggers"]],
    )
    [defect] = plan_defects(_plan(change), _plan(change), module_dir=module_dir)
    assert defect.kind == "escape-hatch"
    assert defect.attribute == "triggers.always"
    assert defect.observed == "4c0f-old"
    assert defect.declared == "(known after apply) from uuid()"
    assert 'ignore_changes = [triggers["always"]]' in defect.fix


def test_unknown_forcing_replacement_on_any_resource_is_an_escape_hatch():
    change = _update(
        "aws_ssm_parameter.stamp",
        {"id": "/p", "name": "/p", "value": "2026-01-01T00:00:00Z"},
        {"name": "/p"},
        after_unknown={"id": True, "value": True},
        actions=("delete", "create"),
        replace_paths=[["value"]],
    )
    [defect] = plan_defects(_plan(change), _plan(change))
    assert defect.kind == "escape-hatch" and defect.attribute == "value"


def test_unknowns_that_follow_a_known_cause_of_replacement_are_no_escape_hatch():
    """A spot request read back in another subnet and without its block device (moto
    launched its instance without either): the device's computed members are unknown
    only because the request is replaced; the causes are the known values."""
    change = _update(
        "aws_spot_instance_request.this",
        {
            "id": "sir-1",
            "subnet_id": "subnet-default",
            "ebs_block_device": [{"device_name": "/dev/sda1", "volume_id": "vol-1", "iops": 0}],
        },
        {"subnet_id": "subnet-app", "ebs_block_device": [{"device_name": "/dev/sdf"}]},
        after_unknown={"id": True, "ebs_block_device": [{"volume_id": True, "iops": True}]},
        actions=("delete", "create"),
        replace_paths=[["subnet_id"], ["ebs_block_device"]],
    )
    [rc] = _plan(change).changes
    assert find_triggers(rc) == []
    defects = plan_defects(_plan(change), _plan(change))
    assert {d.kind for d in defects} == {"permanent-diff"}, [d.message for d in defects]
    assert "subnet_id" in {d.attribute for d in defects}


def test_a_child_replaced_because_its_parent_is_is_no_finding_of_its_own():
    """A VPN connection replaced every run (a known value forces it) and its static
    route, replaced only because the connection ID it refers to is unknown: one finding,
    the connection's; the route is not an escape hatch."""
    parent = _update(
        "module.vpn.aws_vpn_connection.this[0]",
        {"id": "vpn-1", "static_routes_only": False},
        {"static_routes_only": True},
        after_unknown={"id": True},
        actions=("delete", "create"),
        replace_paths=[["static_routes_only"]],
    )
    child = _update(
        "module.vpn.aws_vpn_connection_route.this[0]",
        {"id": "r-1", "vpn_connection_id": "vpn-1", "destination_cidr_block": "10.0.0.0/16"},
        {"destination_cidr_block": "10.0.0.0/16"},
        after_unknown={"id": True, "vpn_connection_id": True},
        actions=("delete", "create"),
        replace_paths=[["vpn_connection_id"]],
    )
    parent["module_address"] = child["module_address"] = "module.vpn"
    parent["name"] = child["name"] = "this"  # as terraform writes it, without the key
    config = {
        "root_module": {
            "module_calls": {
                "vpn": {
                    "module": {
                        "resources": [
                            {
                                "address": "aws_vpn_connection_route.this",
                                "type": "aws_vpn_connection_route",
                                "name": "this",
                                "expressions": {
                                    "vpn_connection_id": {
                                        "references": [
                                            "aws_vpn_connection.this[0].id",
                                            "aws_vpn_connection.this[0]",
                                            "aws_vpn_connection.this",
                                        ]
                                    }
                                },
                            }
                        ]
                    }
                }
            }
        }
    }
    plan = _plan(parent, child, configuration=config)
    defects = plan_defects(plan, plan)
    assert {(d.kind, d.address) for d in defects} == {
        ("permanent-diff", "module.vpn.aws_vpn_connection.this[0]")
    }, [d.message for d in defects]
    # Alone (its parent not replaced), the same change is still an escape hatch.
    alone = _plan(child, configuration=config)
    [defect] = plan_defects(alone, alone)
    assert defect.kind == "escape-hatch"


def test_an_update_that_only_follows_a_replaced_resource_is_no_finding_of_its_own():
    """A Batch compute environment replaced every run (a value the API fills in forces
    it) and the job queue that lists its ARN: the queue's update holds only the unknown
    ARN, so the environment is the one finding. A known change beside it keeps the queue's."""
    parent = _update(
        "aws_batch_compute_environment.ce",
        {"arn": "arn:ce", "compute_resources": [{"max_vcpus": 0}]},
        {"arn": None, "compute_resources": []},
        after_unknown={"arn": True},
        actions=("delete", "create"),
        replace_paths=[["compute_resources"]],
    )
    queue = {"arn": "arn:q", "compute_environments": ["arn:ce"], "priority": 1}
    child = _update(
        "aws_batch_job_queue.q",
        queue,
        {"arn": "arn:q", "compute_environments": [None], "priority": 1},
        after_unknown={"compute_environments": [True]},
    )
    config = {
        "root_module": {
            "resources": [
                {
                    "address": "aws_batch_job_queue.q",
                    "type": "aws_batch_job_queue",
                    "name": "q",
                    "expressions": {
                        "compute_environments": {
                            "references": [
                                "aws_batch_compute_environment.ce.arn",
                                "aws_batch_compute_environment.ce",
                            ]
                        }
                    },
                }
            ]
        }
    }
    plan = _plan(parent, child, configuration=config)
    defects = plan_defects(plan, plan)
    assert {d.address for d in defects} == {"aws_batch_compute_environment.ce"}, [
        d.message for d in defects
    ]
    # A known change of its own (priority) keeps the queue's finding.
    own = _update(
        "aws_batch_job_queue.q",
        queue,
        {"arn": "arn:q", "compute_environments": [None], "priority": 2},
        after_unknown={"compute_environments": [True]},
    )
    plan = _plan(parent, own, configuration=config)
    found = {d.address for d in plan_defects(plan, plan)}
    assert "aws_batch_job_queue.q" in found


def test_provisioner_resource_replaced_each_run_is_an_escape_hatch():
    change = _update(
        "aws_instance.web",
        {"id": "i-1", "ami": "ami-1"},
        {"ami": "ami-2"},
        after_unknown={"id": True},
        actions=("create", "delete"),
        replace_paths=[["ami"]],
    )
    config = {
        "root_module": {
            "resources": [
                {
                    "address": "aws_instance.web",
                    "type": "aws_instance",
                    "name": "web",
                    "provisioners": [{"type": "remote-exec"}],
                }
            ]
        }
    }
    second = _plan(change, configuration=config)
    assert find_triggers(second.changes[0], provisioners=True)[0].attribute == "ami"
    [defect] = plan_defects(second, _plan(change, configuration=config))
    assert defect.kind == "escape-hatch" and "remote-exec" in defect.message


def test_a_plain_replacement_is_a_permanent_diff_not_an_escape_hatch():
    change = _update(
        "aws_sqs_queue.q",
        {"id": "u", "name": "Queue"},
        {"name": "queue"},
        after_unknown={"id": True},
        actions=("delete", "create"),
        replace_paths=[["name"]],
    )
    defects = plan_defects(_plan(change), _plan(change))
    by_attr = {d.attribute: d for d in defects}
    assert by_attr["name"].kind == "permanent-diff"
    assert by_attr["name"].classification == "case"
    assert "(forces replacement)" in by_attr["name"].message


def test_output_only_change_and_drift_are_kept_distinct():
    outputs = {
        "built_at": {"actions": ["update"], "before": "t1", "after": None, "after_unknown": True}
    }
    drift = [
        _update(
            "aws_sqs_queue.q",
            {"name": "q", "tags": {"Owner": "a"}},
            {"name": "q", "tags": {"Owner": "b"}},
        )
    ]
    second = _plan(outputs=outputs, drift=drift, relevant=[("aws_sqs_queue.q", ["tags", "Owner"])])
    defects = plan_defects(second, _plan(outputs=outputs))
    by_kind = {d.kind: d for d in defects}
    assert set(by_kind) == {"output-change", "drift"}
    out = by_kind["output-change"]
    assert out.address == "output.built_at" and out.declared == "(known after apply)"
    assert out.severity == "error" and out.fix and out.why
    drifted = by_kind["drift"]
    assert drifted.severity == "warning"
    assert drifted.attribute == "tags.Owner"
    # resource_drift's before is what terraform recorded, after what refresh read.
    assert (drifted.declared, drifted.observed) == ("a", "b")
    assert drifted.fix and drifted.why


def test_every_defect_has_classification_why_and_fix(module_dir):
    second = _plan(
        _sqs_type_coercion(),
        TIMESTAMP_CHANGE,
        outputs={"x": {"actions": ["update"], "before": "1", "after": 1}},
        configuration=TIMESTAMP_CONFIG,
    )
    defects = plan_defects(second, second, module_dir=module_dir, reproduce="pytest -k x")
    assert len(defects) == 3
    for defect in defects:
        assert isinstance(defect, Defect)
        assert defect.classification in CLASSIFICATIONS
        assert defect.why and defect.fix
        assert defect.reproduce == "pytest -k x"
        Defect.from_dict(defect.to_dict())  # round-trips


def test_sensitive_values_are_not_shown():
    change = _update("aws_db_instance.db", {"password": "old"}, {"password": "new"})
    change["change"]["after_sensitive"] = {"password": True}
    [defect] = plan_defects(_plan(change))
    assert defect.declared == defect.observed == "(sensitive value)"
    assert "old" not in defect.message and "new" not in defect.message


def test_custom_classifier_is_used():
    seen = []

    def mine(address, attribute, declared, observed):
        seen.append((address, attribute))
        return "default"

    [defect] = plan_defects(_plan(_sqs_type_coercion()), classify=mine)
    assert defect.classification == "default"
    assert seen == [("aws_sqs_queue.work", "redrive_policy")]


def test_source_finds_blocks_and_expressions(module_dir):
    loc = find_resource(module_dir, "aws_sqs_queue.work")
    assert loc.file.name == "main.tf" and loc.line == 4
    assert find_resource(module_dir, 'aws_sqs_queue.work["a"]').line == 4
    assert find_resource(module_dir, "aws_sqs_queue.nope") is None
    expr = attribute_expression(module_dir, "aws_sqs_queue.work", "redrive_policy")
    assert expr.startswith("jsonencode({") and expr.endswith("})")
    assert attribute_expression(module_dir, "aws_sqs_queue.work", "name") == '"rp-string-work"'
    assert attribute_expression(module_dir, "terraform_data.build", "triggers_replace") == (
        "timestamp()"
    )
    legacy = "null_resource.legacy"
    assert attribute_expression(module_dir, legacy, "triggers.always") == "uuid()"
    assert attribute_expression(module_dir, legacy, 'triggers["quoted.key"]') == '"x"'
    sg = "aws_security_group.sg"
    assert find_resource(module_dir, sg).line == 15
    assert attribute_expression(module_dir, sg, "ingress[1].cidr_blocks") == (
        '["10.9.0.0/16", "10.1.0.0/16"]'
    )
    assert "braces { in } heredoc" in attribute_expression(module_dir, sg, "description")


def test_source_follows_local_module_calls(tmp_path):
    (tmp_path / "main.tf").write_text('module "net" {\n  source = "./modules/net"\n}\n')
    child = tmp_path / "modules" / "net"
    child.mkdir(parents=True)
    (child / "vpc.tf").write_text(
        '\n\nresource "aws_vpc" "this" {\n  cidr_block = "10.0.0.0/16"\n}\n'
    )
    loc = find_resource(tmp_path, 'module.net["a"].aws_vpc.this')
    assert loc.file == child / "vpc.tf" and loc.line == 3
    assert attribute_expression(tmp_path, "module.net.aws_vpc.this", "cidr_block") == (
        '"10.0.0.0/16"'
    )
    assert find_resource(tmp_path, "module.other.aws_vpc.this") is None


def test_tags_all_mirror_is_reported_once_under_tags():
    from pytest_converge.analysis.diffs import plan_defects
    from pytest_converge.analysis.plan import parse_plan

    raw = {
        "resource_changes": [
            {
                "address": "aws_s3_bucket.b",
                "type": "aws_s3_bucket",
                "name": "b",
                "change": {
                    "actions": ["update"],
                    "before": {"tags": None, "tags_all": {}},
                    "after": {"tags": {"k": ""}},
                    "after_unknown": {"tags_all": True},
                },
            }
        ]
    }
    plan = parse_plan(raw)
    defects = plan_defects(plan, plan, module="m")
    assert [d.attribute for d in defects] == ["tags"]


def _sg_drift(n):
    """Real shape: a group refreshed with the rules ``n`` sibling resources added."""
    rules = [
        {
            "cidr_blocks": [f"10.0.{i}.0/24"],
            "from_port": 8000 + i,
            "protocol": "tcp",
            "to_port": 8000 + i,
        }
        for i in range(n)
    ]
    before = {"id": "sg-1", "ingress": [], "egress": [], "tags": None}
    after = {"id": "sg-1", "ingress": rules, "egress": [], "tags": {}}
    return _update("aws_security_group.this", before, after)


def test_drift_not_relevant_to_the_plan_is_one_info_line_per_resource():
    writers = {
        "aws_security_group.this": {
            "ingress": [f"aws_security_group_rule.ingress[{i}]" for i in range(20)]
        }
    }
    defects = plan_defects(_plan(drift=[_sg_drift(20)]), writers=writers)
    [line] = defects
    assert line.kind == "drift" and line.severity == "info" and line.attribute is None
    assert "ingress" in line.message and "not part of the plan" in line.message
    assert "also written by aws_security_group_rule.ingress[0]" in line.message
    assert "(and 18 more)" in line.message
    assert [e["path"] for e in line.elements] == ["ingress"]


def test_relevant_drift_by_a_sibling_names_the_second_writer_and_the_one_writer_fix():
    writers = {"aws_security_group.this": {"ingress": ["aws_security_group_rule.ingress[0]"]}}
    second = _plan(drift=[_sg_drift(1)], relevant=[("aws_security_group.this", ["ingress"])])
    [drift] = plan_defects(second, writers=writers)
    assert drift.severity == "warning" and drift.attribute == "ingress"
    assert drift.message.startswith(
        "aws_security_group.this ingress is also written by aws_security_group_rule.ingress[0]"
    )
    assert "one writer per field" in drift.why
    assert "never declare ingress inline in aws_security_group.this" in drift.fix
    assert "remove aws_security_group_rule.ingress[0]" in drift.fix
    assert drift.writers == ["aws_security_group_rule.ingress[0]"]


def test_element_changes_of_one_attribute_are_one_finding():
    before = {
        "default_action": [
            {"order": 1, "type": "forward", "target": "a"},
            {"order": 2, "type": "redirect", "target": "b"},
        ]
    }
    after = {
        "default_action": [
            {"order": 2, "type": "redirect", "target": "a"},
            {"order": 1, "type": "forward", "target": "b"},
        ]
    }
    [defect] = plan_defects(_plan(_update("aws_lb_listener.l", before, after)))
    assert defect.attribute == "default_action"
    assert defect.kind == "permanent-diff"
    assert len(defect.elements) == 4
    assert {e["path"] for e in defect.elements} == {
        "default_action[0].order",
        "default_action[0].type",
        "default_action[1].order",
        "default_action[1].type",
    }
    assert "4 element changes" in defect.message


def test_a_permutation_is_order_and_repeats_removed_is_dedup():
    order = _update("aws_iam_policy.p", {"actions": ["b", "a"]}, {"actions": ["a", "b"]})
    dedup = _update(
        "aws_security_group_rule.r",
        {"cidr_blocks": ["10.0.0.0/8"]},
        {"cidr_blocks": ["10.0.0.0/8", "10.0.0.0/8"]},
    )
    found = {d.address: d for d in plan_defects(_plan(order, dedup))}
    assert found["aws_iam_policy.p"].classification == "order"
    assert found["aws_security_group_rule.r"].classification == "dedup"
    assert "distinct(" in found["aws_security_group_rule.r"].fix


def test_a_user_class_with_its_own_why_and_fix_reaches_the_defect():
    from pytest_converge.analysis.classify import Classification

    def mine(address, attribute, declared, observed):
        return Classification("queue-arn-form", why="moto answers its own ARN", fix="use the id")

    [defect] = plan_defects(_plan(_sqs_type_coercion()), classify=mine)
    assert defect.classification == "queue-arn-form"
    assert type(defect.classification) is str  # plain JSON
    assert defect.why == "moto answers its own ARN"
    assert defect.fix.startswith("use the id")
    Defect.from_dict(defect.to_dict())


def test_a_field_with_a_second_writer_is_one_error_naming_it():
    rules = [{"cidr_blocks": ["10.0.0.0/24"], "from_port": 80, "protocol": "tcp", "to_port": 80}]
    change = _update(
        "aws_security_group.this", {"id": "sg-1", "ingress": rules}, {"id": "sg-1", "ingress": []}
    )
    drift = _update(
        "aws_security_group.this", {"id": "sg-1", "ingress": []}, {"id": "sg-1", "ingress": rules}
    )
    second = _plan(change, drift=[drift])
    recreate = _update("aws_security_group_rule.r", None, {"id": None}, actions=("create",))
    third = _plan(recreate)
    writers = {"aws_security_group.this": {"ingress": ["aws_security_group_rule.r"]}}
    [finding] = plan_defects(second, third, writers=writers)
    assert finding.kind == "permanent-diff" and finding.severity == "error"
    assert finding.writers == ["aws_security_group_rule.r"]
    assert "is also written by aws_security_group_rule.r" in finding.message
    assert "re-creates them" in finding.message
    # Without a second writer, a change new in the third plan is a finding of its own.
    found = plan_defects(second, third)
    assert {d.address for d in found if d.severity != "info"} == {
        "aws_security_group.this",
        "aws_security_group_rule.r",
    }
    assert any("new in the third plan" in d.message for d in found)


def test_a_list_of_blocks_read_back_in_another_order_is_order():
    """Each element alone differs in ways nothing explains; the list as a whole is a
    permutation (the API sorts the blocks), so the finding is ``order``, not unknown."""
    declared = [
        {"cidr_block": "10.1.0.0/16", "rule_no": 200, "action": "deny"},
        {"cidr_block": "10.0.0.0/16", "rule_no": 100, "action": "allow"},
    ]
    observed = list(reversed(declared))
    change = _update("aws_network_acl.a", {"ingress": observed}, {"ingress": declared})
    [defect] = plan_defects(_plan(change))
    assert defect.attribute == "ingress"
    assert defect.classification == "order"
    assert "order" in defect.fix.lower() or "sort" in defect.fix.lower()


def test_blocks_in_another_order_with_a_list_inside_reordered_too_are_order():
    """Set-typed blocks paired by index: every element change alone is unexplained (the
    22 rule against the 443 rule), but the attribute as a whole is a permutation at
    every depth, so the finding is ``order`` (was ``unknown``)."""
    declared = [
        {"cidr_blocks": ["10.9.0.0/16", "10.1.0.0/16"], "from_port": 22, "to_port": 22},
        {"cidr_blocks": ["10.8.0.0/16"], "from_port": 443, "to_port": 443},
    ]
    observed = [
        {"cidr_blocks": ["10.8.0.0/16"], "from_port": 443, "to_port": 443},
        {"cidr_blocks": ["10.1.0.0/16", "10.9.0.0/16"], "from_port": 22, "to_port": 22},
    ]
    change = _update("aws_security_group.s", {"ingress": observed}, {"ingress": declared})
    [defect] = plan_defects(_plan(change))
    assert defect.attribute == "ingress"
    assert {e["classification"] for e in defect.elements} == {"unknown"}
    assert defect.classification == "order"
    assert "sort()" in defect.fix


def test_a_set_block_with_a_protocol_alias_is_alias_not_unknown():
    """An aws_network_acl ingress rule declared with protocol "tcp" reads back as "6"
    (the rule as moto + provider 3.39 read it back when a sibling rule changed the set);
    its other differences (null vs 0 and "") only follow from the block being a new set
    element."""
    declared = [{"action": "allow", "cidr_block": "10.0.0.0/16", "from_port": 22,
                 "icmp_code": None, "icmp_type": None, "ipv6_cidr_block": None,
                 "protocol": "tcp", "rule_no": 100, "to_port": 22}]  # fmt: skip
    observed = [{**declared[0], "icmp_code": 0, "icmp_type": 0, "ipv6_cidr_block": "",
                 "protocol": "6"}]  # fmt: skip
    change = _update("aws_network_acl.n", {"ingress": observed}, {"ingress": declared})
    [defect] = plan_defects(_plan(change))
    assert defect.attribute == "ingress"
    classes = {e["path"]: e["classification"] for e in defect.elements}
    assert classes["ingress[0].protocol"] == "alias"
    assert set(classes.values()) == {"alias", "default"}
    assert defect.classification == "alias"
    assert '"6"' in defect.fix


def test_mixed_explained_element_classes_other_than_default_stay_unknown():
    before = {"rule": [{"protocol": "6", "name": "A"}]}
    after = {"rule": [{"protocol": "tcp", "name": "a"}]}
    [defect] = plan_defects(_plan(_update("aws_x.y", before, after)))
    assert {e["classification"] for e in defect.elements} == {"alias", "case"}
    assert defect.classification == "unknown"


def test_drift_of_an_attribute_the_plan_sets_back_is_not_said_to_be_outside_the_plan():
    """The README's first check: moto returns the group's ingress CIDRs deduplicated (drift),
    and the plan writes the declared list back (the permanent diff). The drift line says the
    plan sets it back, not that it is no part of the plan; other drifted fields still are."""
    declared = [{"cidr_blocks": ["10.0.0.0/8", "10.20.0.0/16", "10.0.0.0/8"], "from_port": 22}]
    read = [{"cidr_blocks": ["10.0.0.0/8", "10.20.0.0/16"], "from_port": 22}]
    change = _update(
        "aws_security_group.ssh",
        {"id": "sg-1", "ingress": read, "tags": {}},
        {"id": "sg-1", "ingress": declared, "tags": {}},
    )
    drift = _update(
        "aws_security_group.ssh",
        {"id": "sg-1", "ingress": declared, "description": "a"},
        {"id": "sg-1", "ingress": read, "description": "b"},
    )
    defects = plan_defects(_plan(change, drift=[drift]))
    [line] = [d for d in defects if d.kind == "drift"]
    assert line.severity == "info"
    assert "(description), not part of the plan" in line.message, line.message
    assert "(ingress), which the plan sets back" in line.message, line.message
    assert any(d.kind == "permanent-diff" and d.attribute.startswith("ingress") for d in defects)


def test_a_second_writer_of_one_field_is_not_named_for_another():
    # terraform-aws-ec2-instance: a volume attachment writes the instance's volumes
    # (volume_tags), never its security groups.
    change = _update(
        "aws_instance.this",
        {"id": "i-1", "vpc_security_group_ids": ["sg-1"], "volume_tags": {"Name": "a"}},
        {"id": "i-1", "vpc_security_group_ids": [], "volume_tags": {"Name": "b"}},
    )
    drift = _update(
        "aws_instance.this",
        {"id": "i-1", "vpc_security_group_ids": [], "volume_tags": {"Name": "a"}},
        {"id": "i-1", "vpc_security_group_ids": ["sg-1"], "volume_tags": {"Name": "b"}},
    )
    writers = {"aws_instance.this": {"volume_tags": ["aws_volume_attachment.this"]}}
    found = plan_defects(_plan(change, drift=[drift]), writers=writers)
    by_attribute = {d.attribute: d for d in found if d.kind == "permanent-diff"}
    assert by_attribute["volume_tags.Name"].writers == ["aws_volume_attachment.this"]
    assert (
        "is also written by aws_volume_attachment.this" in by_attribute["volume_tags.Name"].message
    )
    groups = by_attribute["vpc_security_group_ids"]
    assert not groups.writers and "aws_volume_attachment" not in groups.message


# -- a block with one sensitive member: classified on its values, shown redacted ---------

_FORWARD = {"type": "forward", "order": 2, "target_group_arn": "arn:tg", "authenticate_oidc": []}
_OIDC = {
    "type": "authenticate-oidc",
    "order": 1,
    "target_group_arn": "",
    "authenticate_oidc": [{"client_id": "app", "client_secret": "s3cret", "issuer": "idp"}],
}
#: Masks as terraform writes them: the client_secret of whichever element holds it.
_SECRET_SECOND = {
    "default_action": [{"authenticate_oidc": []}, {"authenticate_oidc": [{"client_secret": True}]}]
}
_SECRET_FIRST = {
    "default_action": [{"authenticate_oidc": [{"client_secret": True}]}, {"authenticate_oidc": []}]
}


def _listener_drift():
    # Recorded in the declared order; refresh reads the actions sorted by order.
    return _update(
        "aws_lb_listener.https",
        {"id": "l-1", "default_action": [_FORWARD, _OIDC]},
        {"id": "l-1", "default_action": [_OIDC, _FORWARD]},
        before_sensitive=_SECRET_SECOND,
        after_sensitive=_SECRET_FIRST,
    )


def test_a_block_with_a_sensitive_member_is_classified_on_its_values():
    second = _plan(
        drift=[_listener_drift()], relevant=[("aws_lb_listener.https", ["default_action"])]
    )
    [drift] = plan_defects(second)
    assert drift.classification == "order"
    # Only the secret is hidden: the actions and their order are shown.
    assert [a["type"] for a in drift.observed] == ["authenticate-oidc", "forward"]
    assert drift.observed[0]["authenticate_oidc"][0]["client_secret"] == "(sensitive value)"
    assert drift.observed[0]["authenticate_oidc"][0]["client_id"] == "app"
    assert "s3cret" not in json.dumps(drift.to_dict())


def test_elements_of_a_block_with_a_sensitive_member_hide_only_that_member():
    sorted_forward = {**_FORWARD, "target_group_arn": "arn:tg2"}
    change = _update(
        "aws_lb_listener.https",
        {"id": "l-1", "default_action": [_OIDC, sorted_forward]},
        {"id": "l-1", "default_action": [_FORWARD, _OIDC]},
        before_sensitive=_SECRET_FIRST,
        after_sensitive=_SECRET_SECOND,
    )
    [finding] = plan_defects(_plan(change))
    assert finding.kind == "permanent-diff" and finding.attribute == "default_action"
    assert finding.elements and all(
        e["declared"] != "(sensitive value)" or e["path"].endswith("client_secret")
        for e in finding.elements
    ), finding.elements
    shown = json.dumps(finding.to_dict())
    assert "s3cret" not in shown and "(sensitive value)" in shown
    assert "authenticate-oidc" in shown


def test_a_sensitive_value_without_masks_is_hidden_whole():
    from pytest_converge.analysis.plan import AttributeChange

    change = AttributeChange("password", "a", "b", sensitive=True)
    assert change.shown() == ("(sensitive value)", "(sensitive value)")


#: A set of blocks with a sensitive member is masked whole (terraform 1.11 with aws
#: 5.100 plans aws_mq_broker's users so: cty sets hold no marked values).
_WHOLE_SET = {"user": True}


def _users(*users):
    return [{"username": u, "password": p, "groups": []} for u, p in users]


def test_a_set_of_blocks_masked_whole_whose_secret_reads_back_empty_is_classified():
    # The set's blocks come in hash order: a secret read back "" moves its block, so
    # paired by position nothing explains the change; paired by content, the password
    # is dropped (declared, read back empty) in each.
    change = _update(
        "aws_mq_broker.this",
        {"id": "b-1", "user": _users(("alice", ""), ("bob", ""))},
        {"id": "b-1", "user": _users(("bob", "s3cret-1"), ("alice", "s3cret-2"))},
        before_sensitive=_WHOLE_SET,
        after_sensitive=_WHOLE_SET,
    )
    [finding] = plan_defects(_plan(change))
    assert finding.kind == "permanent-diff" and finding.attribute == "user"
    assert finding.classification == "dropped"
    assert finding.declared == finding.observed == "(sensitive value)"
    assert "s3cret" not in json.dumps(finding.to_dict())


def test_a_set_of_blocks_masked_whole_is_classified_on_its_blocks_paired_by_content():
    change = _update(
        "aws_mq_broker.this",
        {"id": "b-1", "user": _users(("alice", "s3cret-2"), ("bob", "s3cret-1"))},
        {"id": "b-1", "user": _users(("Bob", "s3cret-1"), ("alice", "s3cret-2"))},
        before_sensitive=_WHOLE_SET,
        after_sensitive=_WHOLE_SET,
    )
    [finding] = plan_defects(_plan(change))
    assert finding.classification == "case"
    assert "s3cret" not in json.dumps(finding.to_dict())


def test_a_set_of_blocks_masked_whole_with_two_causes_stays_unknown():
    change = _update(
        "aws_mq_broker.this",
        {"id": "b-1", "user": _users(("alice", ""), ("bob", "s3cret-1"))},
        {"id": "b-1", "user": _users(("Bob", "s3cret-1"), ("alice", "s3cret-2"))},
        before_sensitive=_WHOLE_SET,
        after_sensitive=_WHOLE_SET,
    )
    [finding] = plan_defects(_plan(change))
    assert finding.classification == "unknown"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("S3cret-Tok", "s3cret-tok"),
        (["s3cret-b", "s3cret-a"], ["s3cret-a", "s3cret-b"]),
        ("s3cret", ""),
    ],
    ids=["case", "order", "default"],
)
def test_a_sensitive_output_is_classified_and_never_shown_in_its_why_or_fix(before, after):
    change = {"actions": ["update"], "before": before, "after": after, "after_unknown": False}
    change.update(before_sensitive=True, after_sensitive=True)
    [finding] = plan_defects(_plan(outputs={"token": change}))
    assert finding.kind == "output-change" and finding.classification != "unknown"
    assert "s3cret" not in json.dumps(finding.to_dict()).lower()


def test_a_sorted_block_whose_write_only_secret_reads_back_empty_is_order():
    # As aws 3.39 plans it on moto (measured, tests/modules/listener_oidc): blocks paired
    # by position, the secret read back "" from the block that was at its index.
    oidc_read = {"client_id": "app", "client_secret": "", "scope": "", "session_timeout": 0}
    oidc_sent = {**oidc_read, "client_secret": "s3cret", "scope": None, "session_timeout": None}
    before = [
        {
            "type": "authenticate-oidc",
            "order": 1,
            "target_group_arn": "",
            "authenticate_oidc": [oidc_read],
        },
        {"type": "forward", "order": 2, "target_group_arn": "tg", "authenticate_oidc": []},
    ]
    after = [
        {"type": "forward", "order": 2, "target_group_arn": "tg", "authenticate_oidc": [oidc_read]},
        {
            "type": "authenticate-oidc",
            "order": 1,
            "target_group_arn": "tg",
            "authenticate_oidc": [oidc_sent],
        },
    ]
    mask = [{"authenticate_oidc": [{"client_secret": True}]}] * 2
    change = _update(
        "aws_lb_listener.this",
        {"id": "l-1", "default_action": before},
        {"id": "l-1", "default_action": after},
        before_sensitive={"default_action": [mask[0], {"authenticate_oidc": []}]},
        after_sensitive={"default_action": mask},
    )
    [finding] = plan_defects(_plan(change))
    assert finding.attribute == "default_action" and finding.classification == "order"
    assert "s3cret" not in json.dumps(finding.to_dict())


def test_a_read_deferred_by_a_pending_dependency_and_what_is_built_from_it_follow_that_change():
    """route53 v5.0.0 complete: a private zone's ``vpc`` differs every plan; the records
    module reads its zone with ``depends_on = [module.zones]``, so the read is deferred
    to apply and every record's ``zone_id`` is unknown and replaces it. One finding, the
    zone's; the deferred read and the records are its consequences."""
    zone = _update(
        "module.zones.aws_route53_zone.this",
        {"id": "Z1", "vpc": [{"vpc_id": "vpc-1"}, {"vpc_id": "vpc-2"}]},
        {"vpc": [{"vpc_id": "vpc-1"}]},
    )
    read = _update(
        "module.records.data.aws_route53_zone.this[0]",
        {"zone_id": "Z1", "name": "example.com"},
        {"name": "example.com"},
        after_unknown={"zone_id": True, "id": True},
        actions=("read",),
    )
    read.update(mode="data", action_reason="read_because_dependency_pending")
    record = _update(
        'module.records.aws_route53_record.this["www A"]',
        {"id": "Z1_www_A", "zone_id": "Z1", "name": "www"},
        {"name": "www"},
        after_unknown={"id": True, "zone_id": True},
        actions=("delete", "create"),
        replace_paths=[["zone_id"]],
    )
    zone["module_address"] = "module.zones"
    read["module_address"] = record["module_address"] = "module.records"
    read["name"], record["name"] = "this", "this"
    config = {
        "root_module": {
            "module_calls": {
                "records": {
                    "module": {
                        "resources": [
                            {
                                "address": "aws_route53_record.this",
                                "mode": "managed",
                                "type": "aws_route53_record",
                                "name": "this",
                                "expressions": {
                                    "zone_id": {
                                        "references": [
                                            "data.aws_route53_zone.this[0].zone_id",
                                            "data.aws_route53_zone.this[0]",
                                            "data.aws_route53_zone.this",
                                        ]
                                    }
                                },
                            }
                        ]
                    }
                }
            }
        }
    }
    plan = _plan(zone, read, record, configuration=config)
    defects = plan_defects(plan, plan)
    assert {d.address for d in defects} == {"module.zones.aws_route53_zone.this"}, [
        d.message for d in defects
    ]
    # Without the pending change behind it, the same record is an escape hatch.
    alone = _plan(record, configuration=config)
    [defect] = plan_defects(alone, alone)
    assert defect.kind == "escape-hatch"


def test_an_output_map_is_explained_by_its_members():
    """A map of records' FQDNs, each unknown because its record is replaced, is "computed
    from a value recomputed on every run"; a map whose member declared "" reads back null
    gets the API's-default cause and the fix for that member."""
    outputs = {
        "fqdn": {
            "actions": ["update"],
            "before": {"www": "www.example.com", "mx": "example.com"},
            "after": {"www": None, "mx": None},
            "after_unknown": {"www": True, "mx": True},
        },
        "names": {
            "actions": ["update"],
            "before": {"example": None, "example2": "example2"},
            "after": {"example": "", "example2": "example2"},
            "after_unknown": {},
        },
    }
    plan = _plan(outputs=outputs)
    found = {d.attribute: d for d in plan_defects(plan, plan)}
    assert "recomputed on every run" in found["fqdn"].why
    assert found["names"].classification == "default"
    assert "keeps no empty value" in found["names"].why
    assert "Leave the member declared empty out of output names" in found["names"].fix
