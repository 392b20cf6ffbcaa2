"""Leftovers matched per region, sub-objects by content, and inventory coverage (pure)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from pytest_converge.analysis.leftovers import (
    find_leftovers,
    is_setting,
    state_region,
    unverified_defect,
    unverified_types,
)
from pytest_converge.analysis.state import StateResource, state_resources
from pytest_converge.faults.operations import credential_region, identify
from pytest_converge.inventory import GLOBAL, CloudObject, route_id, rule_ids
from pytest_converge.report import format_defects, json_report, load_schema

AWS = 'provider["registry.terraform.io/hashicorp/aws"]'


def _res(address: str, values: dict[str, Any], provider: str = AWS) -> StateResource:
    type_ = address.split(".")[-2]
    return StateResource(address, type_, "managed", values.get("id"), values, provider)


def test_region_of_a_call_is_its_sigv4_scope() -> None:
    auth = "AWS4-HMAC-SHA256 Credential=AK/20240101/eu-west-1/ec2/aws4_request, Signature=0"
    form = {"Authorization": auth, "Content-Type": "application/x-www-form-urlencoded"}
    op = identify("POST", "/", form, b"Action=CreateVpc&Version=2016-11-15")
    assert (op.name, op.region) == ("CreateVpc", "eu-west-1")
    presigned = [("X-Amz-Credential", "AK/20240101/us-west-2/s3/aws4_request")]
    assert credential_region("", presigned) == "us-west-2"
    assert credential_region("") is None


def test_state_region_from_arn_region_attribute_or_provider() -> None:
    vpc = _res("aws_vpc.a", {"id": "vpc-1", "arn": "arn:aws:ec2:eu-west-1:1:vpc/vpc-1"})
    bucket = _res("aws_s3_bucket.b", {"id": "b", "arn": "arn:aws:s3:::b", "region": "us-west-2"})
    role = _res("aws_iam_role.r", {"id": "r", "arn": "arn:aws:iam::1:role/r"})
    rtb = _res("aws_route_table.t", {"id": "rtb-1"}, provider=AWS + ".west")
    assert state_region(vpc) == "eu-west-1"
    assert state_region(bucket) == "us-west-2"
    assert state_region(role) == GLOBAL
    assert state_region(rtb) is None
    assert state_region(rtb, {"aws": "eu-west-1", "aws.west": "us-west-2"}) == "us-west-2"


def test_the_same_queue_name_in_another_region_is_not_tracked_by_the_first() -> None:
    queue = _res(
        "aws_sqs_queue.jobs",
        {
            "id": "http://127.0.0.1:1/123456789012/jobs",
            "arn": "arn:aws:sqs:eu-west-1:123456789012:jobs",
            "name": "jobs",
        },
    )
    here = CloudObject(
        "aws_sqs_queue", "http://127.0.0.1:2/123456789012/jobs", "jobs", region="eu-west-1"
    )
    there = CloudObject(
        "aws_sqs_queue", "http://127.0.0.1:2/123456789012/jobs", "jobs", region="us-west-2"
    )
    [defect] = find_leftovers([here, there], [queue])
    # Same name but in another region: not the state's queue, nor a duplicate of it.
    assert defect.kind == "orphan" and "in us-west-2" in defect.message
    assert "--region us-west-2" in defect.fix


def test_a_duplicate_is_matched_within_its_region_only() -> None:
    eu = _res("aws_vpc.main", {"id": "vpc-eu", "arn": "arn:aws:ec2:eu-west-1:1:vpc/vpc-eu"})
    west = _res("aws_vpc.dr", {"id": "vpc-w", "arn": "arn:aws:ec2:us-west-2:1:vpc/vpc-w"})
    extra = CloudObject("aws_vpc", "vpc-x", region="us-west-2")
    [dup] = find_leftovers([extra], [eu, west])
    # Nothing else tells the VPCs apart: only the same-region one is a candidate.
    assert (dup.kind, dup.address) == ("duplicate", "aws_vpc.dr")
    assert "vpc-x in us-west-2 duplicates aws_vpc.dr" in dup.message


def test_global_objects_match_any_region() -> None:
    role = _res("aws_iam_role.r", {"id": "app", "arn": "arn:aws:iam::1:role/app", "name": "app"})
    assert find_leftovers([CloudObject("aws_iam_role", "app", "app", region=GLOBAL)], [role]) == []


def test_rules_routes_and_attachments_are_tracked_by_content_also_inline() -> None:
    sg = "sg-1"
    state = [
        _res(
            "aws_security_group.web",
            {
                "id": sg,
                "ingress": [
                    {"protocol": "tcp", "from_port": 443, "to_port": 443, "cidr_blocks": ["a/8"]}
                ],
                "egress": [],
            },
        ),
        _res(
            "aws_security_group_rule.ssh",
            {
                "id": "sgrule-123",
                "security_group_id": sg,
                "type": "ingress",
                "protocol": "6",
                "from_port": 22,
                "to_port": 22,
                "cidr_blocks": ["b/8"],
            },
        ),
        _res("aws_route_table.t", {"id": "rtb-1", "route": [{"cidr_block": "0.0.0.0/0"}]}),
        _res(
            "aws_route.r",
            {"id": "r-rtb-2", "route_table_id": "rtb-2", "destination_cidr_block": "10.0.0.0/8"},
        ),
        _res(
            "aws_iam_role_policy_attachment.a",
            {"id": "app-2024", "role": "app", "policy_arn": "arn:p"},
        ),
    ]
    rules = rule_ids(sg, "ingress", "tcp", 443, 443, ["a/8"]) | rule_ids(
        sg, "ingress", "tcp", 22, 22, ["b/8"]
    )
    tracked = [
        *(CloudObject("aws_security_group_rule", i) for i in sorted(rules)),
        CloudObject("aws_route", route_id("rtb-1", "0.0.0.0/0")),
        CloudObject("aws_route", route_id("rtb-2", "10.0.0.0/8")),
        CloudObject("aws_iam_role_policy_attachment", "app/arn:p", region=GLOBAL),
    ]  # fmt: skip
    assert find_leftovers(tracked, state) == []
    stray = CloudObject("aws_security_group_rule", f"{sg}/ingress/tcp/80-80/c/8")
    [defect] = find_leftovers([*tracked, stray], state)
    assert defect.kind == "orphan" and defect.objects == [stray.id]


def test_unverified_types_are_created_types_no_lister_covers() -> None:
    raw = {
        "version": 4,
        "resources": [
            {"mode": "managed", "type": t, "name": "x", "provider": AWS, "instances": [{}]}
            for t in (
                "aws_vpc",
                "aws_cloudwatch_log_stream",
                "aws_s3_bucket_policy",
                "aws_default_security_group",
                "terraform_data",
            )
        ]
        + [{"mode": "data", "type": "aws_ami", "name": "x", "instances": [{}]}],
    }
    state = state_resources(raw)
    pending = ['module.q.aws_sqs_queue_redrive_thing.this["a"]', "aws_glue_job.etl (create)"]
    found = unverified_types(state, pending, covered={"aws_vpc"})
    assert found == ["aws_cloudwatch_log_stream", "aws_glue_job", "aws_sqs_queue_redrive_thing"]
    assert is_setting("aws_s3_bucket_policy") and is_setting("aws_iam_role_policy_attachment")
    assert not is_setting("aws_vpc")


def test_unverified_is_a_warning_in_the_failure_text_and_the_json_report() -> None:
    defect = unverified_defect(["aws_glue_job"], module="etl", scenario="crash@CreateJob#1")
    assert not defect.is_error
    text = format_defects([defect])
    assert "unverified [warning]" in text and "aws_glue_job" in text
    report = json_report(
        ["etl"],
        [
            {
                "module": "etl",
                "scenario": "crash@CreateJob#1",
                "outcome": "passed",
                "seconds": 1.0,
                "unverified_types": ["aws_glue_job"],
            },
            {"module": "etl", "scenario": "two-run", "outcome": "passed", "seconds": 1.0},
        ],
        [defect],
    )
    jsonschema.validate(json.loads(json.dumps(report)), load_schema())
    assert report["unverified_types"] == ["aws_glue_job"]
    assert report["scenarios"][0]["unverified_types"] == ["aws_glue_job"]
    assert "unverified_types" not in report["scenarios"][1]
    assert report["defects"][0]["kind"] == "unverified"
    # A fixture test records no scenario entry of its own: its defect still counts.
    only_defects = json_report(["etl"], [], [defect])
    assert only_defects["unverified_types"] == ["aws_glue_job"]


def test_the_rules_of_a_leftover_group_go_with_it() -> None:
    web = _res("aws_security_group.web", {"id": "sg-1", "name": "web"})
    extra = CloudObject("aws_security_group", "sg-2", "web", attributes={"vpc_id": "vpc-1"})
    egress = next(iter(rule_ids("sg-2", "egress", "-1", 0, 0, ["0.0.0.0/0"])))
    rule = CloudObject("aws_security_group_rule", egress, attributes={"security_group_id": "sg-2"})
    [defect] = find_leftovers([extra, rule], [web])
    assert (defect.kind, defect.address) == ("duplicate", "aws_security_group.web")
    assert defect.objects == ["sg-2", egress]
    # A stray rule on a group that state tracks is its own finding.
    stray = CloudObject(
        "aws_security_group_rule", "sg-1/x", attributes={"security_group_id": "sg-1"}
    )
    assert [d.objects for d in find_leftovers([stray], [web])] == [["sg-1/x"]]
