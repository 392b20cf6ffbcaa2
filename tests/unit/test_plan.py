"""Plan parsing, on a real `terraform show -json` captured from a run and on plain data."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_converge.analysis.plan import UNKNOWN, diff_values, format_value, parse_plan

DATA = Path(__file__).resolve().parents[1] / "data"


def real_plan() -> dict:
    # Captured from terraform 1.11 + aws 3.39 + moto: a timestamp() trigger
    # replaced on the second plan, an output that follows it, an SQS queue unchanged.
    return json.loads((DATA / "plan_escape_hatch.json").read_text())


def test_real_plan_changes_outputs_and_noops():
    plan = parse_plan(real_plan())
    assert not plan.is_empty
    assert plan.addresses() == ["terraform_data.stamp"]  # the no-op queue is not a change
    change = plan.change("terraform_data.stamp")
    assert change.action == "replace"
    [attr] = [a for a in change.attributes if a.path == "triggers_replace"]
    assert attr.declared is UNKNOWN
    assert attr.forces_replacement
    assert isinstance(attr.observed, str) and attr.observed.endswith("Z")
    assert [o.name for o in plan.outputs] == ["stamp"]
    assert plan.outputs[0].declared is UNKNOWN
    assert "1 to replace" in plan.summary()


def test_empty_plan():
    plan = parse_plan({"resource_changes": [{"address": "a.b", "change": {"actions": ["no-op"]}}]})
    assert plan.is_empty
    assert plan.summary() == "no changes"


def test_output_only_change_is_not_empty_and_reported_apart():
    plan = parse_plan({"output_changes": {"x": {"actions": ["update"], "before": 1, "after": 2}}})
    assert not plan.is_empty
    assert plan.changes == []
    assert plan.outputs[0].observed == 1 and plan.outputs[0].declared == 2


def test_drift_kept_apart_and_null_to_empty_noise_dropped():
    noise = {
        "address": "aws_vpc.main",
        "change": {"actions": ["update"], "before": {"tags": None}, "after": {"tags": {}}},
    }
    real = {
        "address": "aws_vpc.other",
        "change": {"actions": ["update"], "before": {"cidr": "a"}, "after": {"cidr": "b"}},
    }
    plan = parse_plan({"resource_drift": [noise, real]})
    assert plan.is_empty  # drift is not a change terraform makes
    assert [d.address for d in plan.drift] == ["aws_vpc.other"]


def test_attribute_paths_descend_into_maps_and_blocks():
    observed = {"tags": {"Name": "a", "Env": "x"}, "ingress": [{"port": 1}, {"port": 2}]}
    declared = {"tags": {"Name": "b", "Env": "x"}, "ingress": [{"port": 1}, {"port": 3}]}
    assert diff_values(observed, declared) == [
        ("ingress[1].port", 2, 3),
        ("tags.Name", "a", "b"),
    ]


def test_reordered_list_is_reported_whole():
    found = diff_values({"ids": ["a", "b"]}, {"ids": ["b", "a"]})
    assert found == [("ids", ["a", "b"], ["b", "a"])]


def test_unknown_is_never_equal():
    assert diff_values({"x": "1"}, {"x": UNKNOWN}) == [("x", "1", UNKNOWN)]


def test_update_attributes_from_show_json_shape():
    raw = {
        "resource_changes": [
            {
                "address": "aws_iam_role.r",
                "type": "aws_iam_role",
                "name": "r",
                "change": {
                    "actions": ["update"],
                    "before": {"name": "r", "max_session_duration": 3600, "tags": None},
                    "after": {"name": "r", "max_session_duration": 7200, "tags": None},
                    "after_unknown": {},
                    "after_sensitive": {},
                },
            }
        ]
    }
    change = parse_plan(raw).change("aws_iam_role.r")
    assert change.action == "update"
    assert [(a.path, a.observed, a.declared) for a in change.attributes] == [
        ("max_session_duration", 3600, 7200)
    ]


def test_format_value():
    assert format_value(UNKNOWN) == "(known after apply)"
    assert format_value("a") == '"a"'
    assert format_value(None) == "null"
    assert format_value("x" * 500).endswith("...")
