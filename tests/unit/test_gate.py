"""The no-op plan gate's analysis: plans a pipeline saved after its apply, explained.

The recorded plans (``tests/data/plan_gate/``, README there) are real
``terraform show -json`` output of terraform 1.11.4, aws 3.39.0 and moto; the
second plans of ``tests/data/plans/`` hold a permanent diff of every class.
The hand-made plans follow terraform's documented JSON format, for what a
pipeline may hold that those do not: other providers, modules with count and
for_each, sensitive and unknown values, deposed objects, imports, moves, older
format versions.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.analysis.defects import CLASSIFICATIONS
from pytest_converge.analysis.diffs import plan_defects
from pytest_converge.analysis.gate import UNCHECKED, check_plan, gate_defects, read_plan_text
from pytest_converge.analysis.plan import parse_plan
from pytest_converge.analysis.source import ignored_changes
from pytest_converge.errors import PlanFileError
from pytest_converge.report import defect_json, format_defects

DATA = Path(__file__).resolve().parents[1] / "data"
GATE = DATA / "plan_gate"
SAMPLES = DATA / "plans"
MODULE = Path(__file__).resolve().parents[1] / "modules" / "plan_gate"


def recorded(name: str) -> dict[str, Any]:
    return json.loads((GATE / f"{name}.json").read_text())


def errors(defects: list[Any]) -> list[tuple[str, str | None, str | None]]:
    return [(d.kind, d.address, d.attribute) for d in defects if d.is_error]


# -- recorded plans -----------------------------------------------------------------------------


def test_an_empty_plan_passes_whatever_refresh_found() -> None:
    data = recorded("empty_refresh_noise")
    # Refresh did find things: another team's tag on the bucket, null -> {} on the rest.
    assert {c["address"] for c in data["resource_drift"]} >= {"aws_s3_bucket.logs"}
    assert parse_plan(data).is_empty
    assert gate_defects(data, module="plan.json") == []


def test_a_console_fix_the_next_apply_reverts() -> None:
    found = gate_defects(recorded("console_fix"), module="plan.json", module_dir=MODULE)
    queue = 'module.queues["orders"].aws_sqs_queue.this'
    assert errors(found) == [("reverted-drift", queue, "visibility_timeout_seconds")]
    [reverted] = [d for d in found if d.is_error]
    assert reverted.message == (
        f"{queue} was changed outside terraform: visibility_timeout_seconds 30 -> 120; "
        "this apply sets it back"
    )
    assert (reverted.declared, reverted.observed) == (30, 120)
    assert "visibility_timeout_seconds = 120" in reverted.fix
    # The child module's block, through the for_each module call.
    assert reverted.file is not None and reverted.file.endswith("plan_gate/queue/main.tf")
    assert reverted.line == 9
    assert (reverted.module, reverted.scenario) == ("plan.json", "plan-gate")
    # Not also a permanent diff of the module: that is the plugin's own second plan's reading.
    assert "permanent-diff" not in {d.kind for d in found}
    # The ignored tag stays a line of detail.
    assert [d.address for d in found if d.is_info] == ["aws_s3_bucket.logs"]


def test_a_refresh_only_plan_says_what_the_configuration_sets_back() -> None:
    data = recorded("refresh_only")
    assert "resource_changes" not in data  # what terraform writes with -refresh-only
    found = gate_defects(data, module="plan.json")
    queue = 'module.queues["orders"].aws_sqs_queue.this'
    assert errors(found) == [("reverted-drift", queue, "visibility_timeout_seconds")]
    [reverted] = [d for d in found if d.is_error]
    assert reverted.message.endswith(
        "visibility_timeout_seconds 30 -> 120; the configuration declares 30 "
        "(var.visibility_timeout): the next apply sets it back"
    )
    [kept] = [d for d in found if d.kind == "drift"]
    assert (kept.address, kept.attribute, kept.severity) == (
        "aws_s3_bucket.logs",
        "tags",
        "warning",
    )
    assert kept.observed == {"owner": "data-team"}
    assert kept.message.endswith("the configuration does not set tags: the next apply keeps it")
    # With the source, its lifecycle { ignore_changes = [tags] } is the reason.
    [kept] = [d for d in gate_defects(data, module_dir=MODULE) if d.kind == "drift"]
    assert kept.message.endswith(
        "the configuration ignores changes to tags: the next apply keeps it"
    )


def test_an_object_deleted_outside_terraform() -> None:
    found = gate_defects(recorded("deleted_outside"))
    queue = 'module.queues["payments"].aws_sqs_queue.this'
    assert errors(found) == [("reverted-drift", queue, None)]
    assert found[0].message == (
        f"{queue} was deleted outside terraform; this apply creates it again"
    )
    # The output that reads the new queue's id follows from it: not a finding of its own.
    assert "output-change" not in {d.kind for d in found}


def test_a_sensitive_value_is_never_shown() -> None:
    data = recorded("secret_console_fix")
    assert "rotated-by-hand" in json.dumps(data)  # terraform writes it in clear
    found = gate_defects(data, module_dir=MODULE)
    assert errors(found) == [("reverted-drift", "aws_ssm_parameter.token", "value")]
    assert found[0].message.endswith("value (sensitive value); this apply sets it back")
    text = json.dumps([defect_json(d) for d in found]) + format_defects(found)
    assert "rotated-by-hand" not in text and "s3cr3t" not in text


def test_an_escape_hatch() -> None:
    found = gate_defects(recorded("escape_hatch"))
    assert errors(found) == [("escape-hatch", "terraform_data.deploy", "triggers_replace")]
    assert "re-running local-exec" in found[0].message


def test_a_tainted_object_is_an_apply_that_did_not_finish() -> None:
    found = gate_defects(recorded("tainted"))
    assert errors(found) == [("needs-second-apply", "terraform_data.migrate", None)]
    assert "is tainted" in found[0].message
    assert "terraform untaint terraform_data.migrate" in found[0].fix


@pytest.mark.parametrize("name", sorted(p.stem for p in SAMPLES.glob("*.json")))
def test_permanent_diffs_are_the_plugins_own(name: str) -> None:
    """A post-apply plan gives the plugin's own second-plan findings, saying that
    permanence was not checked (there is no plan after the next apply)."""
    data = json.loads((SAMPLES / f"{name}.json").read_text())
    own = {(d.address, d.attribute, d.classification) for d in plan_defects(parse_plan(data))}
    found = gate_defects(data, module="plan.json")
    assert {(d.address, d.attribute, d.classification) for d in found} == own
    diffs = [d for d in found if d.kind == "permanent-diff"]
    assert diffs and all(d.message.endswith(UNCHECKED) for d in diffs)


def test_every_class_of_permanent_diff_is_reached_by_a_recorded_plan() -> None:
    reached = {
        d.classification
        for path in SAMPLES.glob("*.json")
        for d in gate_defects(json.loads(path.read_text()))
        if d.kind == "permanent-diff"
    }
    assert reached == set(CLASSIFICATIONS)


# -- plans of other shapes (terraform's documented JSON format) ---------------------------------


def plan(*changes: dict[str, Any], version: str = "1.2", **extra: Any) -> dict[str, Any]:
    return {"format_version": version, "resource_changes": list(changes), **extra}


#: ``module.a["x"].module.b[0].`` (the module path) and the rest of an address.
_ADDRESS = re.compile(r"^((?:module\.[^.\[]+(?:\[[^\]]*\])?\.)*)(.*)$")


def change(
    address: str,
    actions: tuple[str, ...],
    before: Any,
    after: Any,
    provider: str = "registry.terraform.io/hashicorp/aws",
    entry: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """One ``resource_changes`` (or ``resource_drift``) entry; ``fields`` go in its change."""
    match = _ADDRESS.match(address)
    assert match
    modules, local = match.groups()
    rtype, name = local.split(".")[0], local.split(".")[1].split("[")[0]
    found = {
        "address": address,
        "mode": "managed",
        "type": rtype,
        "name": name,
        "provider_name": provider,
        "change": {"actions": list(actions), "before": before, "after": after, **fields},
        **(entry or {}),
    }
    if modules:
        found["module_address"] = modules.rstrip(".")
    return found


def test_other_providers_have_no_aws_assumptions() -> None:
    data = plan(
        change(
            "null_resource.deploy",
            ("delete", "create"),
            {"id": "1", "triggers": {"always": "2024-01-01T00:00:00Z"}},
            {"triggers": {}},
            provider="registry.terraform.io/hashicorp/null",
            after_unknown={"id": True, "triggers": {"always": True}},
            replace_paths=[["triggers"]],
        ),
        change(
            "random_password.db",
            ("delete", "create"),
            {"result": "hunter2-old", "length": 16, "keepers": {"v": "1"}},
            {"length": 16, "keepers": {"v": "2"}},
            provider="registry.terraform.io/hashicorp/random",
            after_unknown={"result": True},
            before_sensitive={"result": True},
            after_sensitive={"result": True},
            replace_paths=[["keepers"]],
        ),
    )
    found = gate_defects(data)
    assert errors(found) == [
        ("escape-hatch", "null_resource.deploy", "triggers.always"),
        ("permanent-diff", "random_password.db", "keepers.v"),
    ]
    assert "hunter2" not in json.dumps([defect_json(d) for d in found]) + format_defects(found)


def test_modules_with_count_and_for_each_are_located(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('module "app" {\n  source = "./app"\n  count  = 2\n}\n')
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.tf").write_text(
        'resource "aws_s3_bucket" "b" {\n'
        '  for_each = toset(["x"])\n'
        "  bucket   = each.key\n"
        '  tags     = { team = "a" }\n'
        "}\n"
    )
    address = 'module.app[1].aws_s3_bucket.b["x"]'
    data = plan(
        change(address, ("update",), {"tags": {"team": "b"}}, {"tags": {"team": "a"}}),
    )
    [found] = gate_defects(data, module_dir=tmp_path)
    assert (found.kind, found.address, found.attribute) == ("permanent-diff", address, "tags.team")
    assert found.file is not None and found.file.endswith("app/main.tf") and found.line == 1


def test_a_nested_sensitive_value_is_never_shown() -> None:
    data = plan(
        change(
            "aws_db_instance.main",
            ("update",),
            {"tags": {"secret": "old-secret"}, "password": "p1"},
            {"tags": {"secret": "new-secret"}, "password": "p2"},
            before_sensitive={"tags": {"secret": True}},
            after_sensitive={"password": True},
        )
    )
    found = gate_defects(data)
    assert {d.attribute for d in found} == {"tags.secret", "password"}
    text = json.dumps([defect_json(d) for d in found]) + format_defects(found)
    for secret in ("old-secret", "new-secret", "p1", "p2"):
        assert f'"{secret}"' not in text


def test_a_sorted_block_with_a_write_only_secret_is_no_change_from_outside() -> None:
    # An ALB listener's default actions declared out of their order, one with an OIDC
    # client secret the API never returns: recorded as declared, refresh reads them
    # sorted (the secret "" from the block that was at its index), the plan sets the
    # declared order back. Classified as the plugin's own second plan does it, on what
    # can be shown first: the API's order, not a change made outside terraform.
    read_oidc = {"client_id": "app", "client_secret": "", "scope": "", "session_timeout": 0}
    sent_oidc = {**read_oidc, "client_secret": "s3cret", "scope": None, "session_timeout": None}
    oidc = {"type": "authenticate-oidc", "order": 1, "target_group_arn": ""}
    forward = {"type": "forward", "order": 2, "target_group_arn": "tg"}
    read = [{**oidc, "authenticate_oidc": [read_oidc]}, {**forward, "authenticate_oidc": []}]
    recorded = [
        {**forward, "authenticate_oidc": []},
        {**oidc, "authenticate_oidc": [sent_oidc]},
    ]
    declared = [
        {**forward, "authenticate_oidc": [read_oidc]},
        {**oidc, "target_group_arn": "tg", "authenticate_oidc": [sent_oidc]},
    ]
    secret = {"authenticate_oidc": [{"client_secret": True}]}
    none = {"authenticate_oidc": []}
    address = "aws_lb_listener.this"
    data = plan(
        change(
            address,
            ("update",),
            {"id": "l-1", "default_action": read},
            {"id": "l-1", "default_action": declared},
            before_sensitive={"default_action": [secret, none]},
            after_sensitive={"default_action": [secret, secret]},
        ),
        resource_drift=[
            change(
                address,
                ("update",),
                {"id": "l-1", "default_action": recorded},
                {"id": "l-1", "default_action": read},
                before_sensitive={"default_action": [none, secret]},
                after_sensitive={"default_action": [secret, none]},
            )
        ],
        relevant_attributes=[{"resource": address, "attribute": ["default_action"]}],
    )
    found = gate_defects(data)
    assert errors(found) == [("permanent-diff", address, "default_action")]
    assert [d.classification for d in found if d.is_error] == ["order"]
    text = json.dumps([defect_json(d) for d in found]) + format_defects(found)
    assert "s3cret" not in text


def test_a_value_known_only_after_apply() -> None:
    data = plan(
        change(
            "aws_instance.web",
            ("update",),
            {"user_data": "abc"},
            {},
            after_unknown={"user_data": True},
        )
    )
    [found] = gate_defects(data)
    assert found.kind == "permanent-diff" and found.declared == "(known after apply)"
    assert '"abc" -> (known after apply)' in found.message


def test_a_deposed_object_left_by_a_replacement() -> None:
    data = plan(
        change(
            "aws_launch_template.lt",
            ("delete",),
            {"id": "lt-old"},
            None,
            entry={"deposed": "1a2b3c4d"},
        )
    )
    [found] = gate_defects(data)
    assert (found.kind, found.severity) == ("needs-second-apply", "error")
    assert "deposed 1a2b3c4d" in found.message and "destroys it" in found.message


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"action_reason": "delete_because_no_resource_config"}, "no longer in the configuration"),
        ({"action_reason": "delete_because_each_key"}, "for_each key is no longer in the set"),
        ({"action_reason": "replace_by_request"}, "made with -replace"),
    ],
)
def test_a_change_for_a_reason_of_terraforms_own(entry: dict[str, Any], words: str) -> None:
    actions = ("delete", "create") if "replace" in entry["action_reason"] else ("delete",)
    data = plan(change("aws_sqs_queue.q", actions, {"id": "q"}, None, entry=entry))
    [found] = gate_defects(data)
    assert found.is_error and words in found.message
    assert "the same revision" in found.fix


def test_a_pending_import_and_move_are_changes() -> None:
    same = {"id": "q"}
    data = plan(
        change("aws_sqs_queue.a", ("no-op",), same, same, importing={"id": "q"}),
        change(
            "aws_sqs_queue.b",
            ("no-op",),
            same,
            same,
            entry={"previous_address": "aws_sqs_queue.old"},
        ),
        change("aws_sqs_queue.c", ("no-op",), same, same),
    )
    assert [d.message for d in gate_defects(data)] == [
        "aws_sqs_queue.a would be imported (an import block)",
        "aws_sqs_queue.old would move to aws_sqs_queue.b (a moved block)",
    ]


def test_a_data_source_read_again_follows_from_the_other_changes() -> None:
    data = plan(
        change("aws_sqs_queue.q", ("update",), {"delay_seconds": 5}, {"delay_seconds": 0}),
        {
            **change("aws_iam_policy_document.p", ("read",), None, {}),
            "mode": "data",
            "address": "data.aws_iam_policy_document.p",
            "action_reason": "read_because_config_unknown",
        },
    )
    assert [d.address for d in gate_defects(data)] == ["aws_sqs_queue.q"]


def test_an_output_change_alone_fails_the_gate() -> None:
    data = plan(output_changes={"url": {"actions": ["update"], "before": "a", "after": "b"}})
    [found] = gate_defects(data)
    assert (found.kind, found.address) == ("output-change", "output.url")


@pytest.mark.parametrize("version", ["0.1", "0.2", "1.0", "1.1", "1.2"])
def test_the_format_versions_read(version: str) -> None:
    data = plan(
        change("aws_sqs_queue.q", ("update",), {"delay_seconds": 5}, {"delay_seconds": 0}),
        version=version,
    )
    assert errors(gate_defects(data)) == [("permanent-diff", "aws_sqs_queue.q", "delay_seconds")]


# -- refresh-only plans of other shapes ---------------------------------------------------------


def drifted(address: str, before: Any, after: Any, actions: tuple[str, ...] = ("update",)) -> Any:
    return change(address, actions, before, after)


def refresh_only(*drift: dict[str, Any], resources: list[Any], **extra: Any) -> dict[str, Any]:
    return {
        "format_version": "1.2",
        "resource_drift": list(drift),
        "configuration": {"root_module": {"resources": resources}},
        **extra,
    }


def config(address: str, **expressions: Any) -> dict[str, Any]:
    rtype, name = address.split(".")
    return {
        "address": address,
        "mode": "managed",
        "type": rtype,
        "name": name,
        "expressions": expressions,
    }


def test_refresh_only_constants_expressions_and_deletions() -> None:
    data = refresh_only(
        drifted("aws_sqs_queue.a", {"delay_seconds": 0}, {"delay_seconds": 9}),
        drifted("aws_sqs_queue.b", {"delay_seconds": 0}, {"delay_seconds": 9}),
        drifted("aws_sqs_queue.c", {"tags": {"a": "1"}}, {"tags": {"a": "2"}}),
        drifted("aws_sns_topic.t", {"name": "Alerts"}, {"name": "alerts"}),
        drifted("aws_sqs_queue.d", {"id": "d"}, None, actions=("delete",)),
        drifted("aws_sqs_queue.gone", {"id": "g"}, None, actions=("delete",)),
        resources=[
            config("aws_sqs_queue.a", delay_seconds={"constant_value": 0}),
            config("aws_sqs_queue.b", delay_seconds={"references": ["local.delay"]}),
            config("aws_sqs_queue.c", tags={"constant_value": {"a": "2"}}),
            config("aws_sqs_queue.d"),
            config("aws_sns_topic.t", name={"constant_value": "Alerts"}),
        ],
    )
    found = {d.address: d for d in gate_defects(data)}
    assert found["aws_sqs_queue.a"].kind == "reverted-drift"
    assert found["aws_sqs_queue.a"].message.endswith(
        "delay_seconds 0 -> 9; the configuration declares 0: the next apply sets it back"
    )
    assert found["aws_sqs_queue.b"].kind == "reverted-drift"
    assert "from an expression (local.delay)" in found["aws_sqs_queue.b"].message
    assert "(at the last apply: 0)" in found["aws_sqs_queue.b"].message
    # The configuration already says what refresh found: nothing to set back.
    assert (found["aws_sqs_queue.c"].kind, found["aws_sqs_queue.c"].severity) == (
        "drift",
        "warning",
    )
    assert found["aws_sqs_queue.c"].message.endswith('the configuration declares "2" already')
    assert found["aws_sqs_queue.d"].message.endswith("the next apply creates it again")
    # The API's own form of the declared value: set again by every apply, a permanent diff.
    topic = found["aws_sns_topic.t"]
    assert (topic.kind, topic.classification) == ("permanent-diff", "case")
    assert "the API answers the value in its own form (case)" in topic.message
    assert found["aws_sqs_queue.gone"].kind == "drift"
    assert "no longer declares it" in found["aws_sqs_queue.gone"].message


def test_refresh_only_follows_a_variable_down_module_calls() -> None:
    data = {
        "format_version": "1.2",
        "variables": {"size": {"value": 3}},
        "resource_drift": [
            drifted('module.m["a"].aws_sqs_queue.q', {"delay_seconds": 3}, {"delay_seconds": 7})
        ],
        "configuration": {
            "root_module": {
                "module_calls": {
                    "m": {
                        "expressions": {"delay": {"references": ["var.size"]}},
                        "module": {
                            "resources": [
                                config(
                                    "aws_sqs_queue.q", delay_seconds={"references": ["var.delay"]}
                                )
                            ]
                        },
                    }
                }
            }
        },
    }
    [found] = gate_defects(data)
    assert found.kind == "reverted-drift"
    assert found.message.endswith(
        "the configuration declares 3 (var.size): the next apply sets it back"
    )


# -- what is not a plan -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2], "holds a JSON list"),
        ({"format_version": "1.0", "values": {}}, "a state"),
        ({"format_version": "1.0", "provider_schemas": {}}, "provider schemas"),
        ({"@message": "Terraform 1.11.4", "type": "version"}, "event log"),
        ({"hello": "world"}, "no format_version"),
        (plan(version="2.0"), "format_version 2.0, which this pytest-converge does not read"),
        (plan(version="one"), "format_version 'one'"),
        (plan(errored=True), "could not finish"),
    ],
)
def test_what_is_not_a_plan_is_named(data: Any, words: str) -> None:
    with pytest.raises(
        PlanFileError, match=r"not a terraform plan|format_version|could not"
    ) as info:
        check_plan(data, "plan.json")
    assert words in str(info.value) and "plan.json" in str(info.value)


def test_text_that_is_not_a_plans_json() -> None:
    events = '{"@level":"info","@message":"Terraform 1.11.4","type":"version"}\n{"@level":"info"}\n'
    with pytest.raises(PlanFileError, match=r"event log of `terraform plan -json`"):
        read_plan_text(events, "plan.log")
    with pytest.raises(PlanFileError, match=r"plan\.txt is not JSON"):
        read_plan_text("Terraform will perform the following actions:", "plan.txt")


def test_ignored_changes_are_read_from_the_lifecycle_block() -> None:
    assert ignored_changes(MODULE, "aws_s3_bucket.logs") == {"tags"}
    assert ignored_changes(MODULE, "aws_ssm_parameter.token") == frozenset()
    assert ignored_changes(MODULE, "aws_s3_bucket.none") is None


def test_a_tag_set_back_is_one_finding_not_one_per_tags_and_tags_all() -> None:
    recorded = {"tags": {"team": "a"}, "tags_all": {"team": "a"}}
    actual = {"tags": {"team": "b"}, "tags_all": {"team": "b"}}
    data = plan(
        change("aws_vpc.main", ("update",), actual, recorded),
        resource_drift=[change("aws_vpc.main", ("update",), recorded, actual)],
    )
    [found] = gate_defects(data)
    assert (found.kind, found.attribute) == ("reverted-drift", "tags.team")
    assert found.message.endswith('tags.team "a" -> "b"; this apply sets it back')


def test_a_drifted_value_that_forces_a_replacement() -> None:
    recorded = {"id": "i-1", "arn": "arn:1", "availability_zone": "us-east-1a"}
    actual = {**recorded, "availability_zone": "us-east-1b"}
    data = plan(
        change(
            "aws_ebs_volume.data",
            ("delete", "create"),
            actual,
            {"availability_zone": "us-east-1a"},
            after_unknown={"id": True, "arn": True},
            replace_paths=[["availability_zone"]],
        ),
        resource_drift=[change("aws_ebs_volume.data", ("update",), recorded, actual)],
    )
    [found] = gate_defects(data)  # not also id and arn, which the replacement makes new
    assert (found.kind, found.attribute) == ("reverted-drift", "availability_zone")
    assert found.message.endswith("this apply replaces the object to set it back")
