"""The recovered world compared with a clean apply's, from plain data (analysis/world.py)."""

from __future__ import annotations

from pytest_converge.analysis.defects import KINDS
from pytest_converge.analysis.state import StateResource
from pytest_converge.analysis.world_check import (
    HeldObject,
    World,
    held_objects,
    match_world,
    world_defects,
)
from pytest_converge.emulator.localstack_world import read_world
from pytest_converge.emulator.moto_world import body
from pytest_converge.inventory.world import state_regions
from pytest_converge.report import KIND_HELP, format_defects, load_schema

COVERED = ("aws_db_instance", "aws_s3_object", "aws_s3_bucket_object")
FAULT = "error@ModifyDBInstance#1:status=403,code=AccessDenied"


def db(password: str, identifier: str = "orders", **more: object) -> HeldObject:
    attributes = {"password": password, "instance_class": "db.t3.micro", **more}
    return HeldObject(
        ("aws_db_instance",), {"identifier": identifier}, attributes, frozenset({"password"})
    )


def s3_object(content: bytes, bucket: str = "site", key: str = "index.html") -> HeldObject:
    return HeldObject(
        ("aws_s3_object", "aws_s3_bucket_object"),
        {"bucket": bucket, "key": key},
        {"content": body(content)},
    )


def state(address: str, **values: object) -> StateResource:
    kind = address.split(".")[0]
    return StateResource(address, kind, "managed", str(values.get("id", "x")), dict(values))


DB_STATE = [state("aws_db_instance.main", identifier="orders", id="db-ABC")]


def world(*held: HeldObject, resources=DB_STATE) -> World:
    return match_world(held, resources, COVERED)


def test_objects_are_matched_through_state_by_the_attributes_that_identify_them() -> None:
    resources = [
        state("aws_s3_bucket_object.a", bucket="site", key="a.html"),
        state("aws_s3_bucket_object.b", bucket="site", key="b.html"),
    ]
    found = world(s3_object(b"b", key="b.html"), s3_object(b"a", key="a.html"), resources=resources)
    assert found.objects["aws_s3_bucket_object.a"].match["key"] == "a.html"
    assert found.objects["aws_s3_bucket_object.b"].match["key"] == "b.html"
    assert found.unmatched == [] and found.missing == []


def test_a_value_the_clean_world_does_not_hold_is_a_wrong_fixed_point_with_the_fix() -> None:
    [found] = world_defects(world(db("new-password")), world(db("old-password")), fault=FAULT)
    assert (found.kind, found.address, found.attribute) == (
        "wrong-fixed-point",
        "aws_db_instance.main",
        "password",
    )
    assert found.is_error
    assert FAULT in found.message and "differs" in found.message
    assert "terraform apply -replace=aws_db_instance.main" in found.fix
    assert "readable" in found.fix and "fail the update" in found.fix


def test_a_secret_is_shown_as_a_length_and_a_hash_never_as_itself() -> None:
    [found] = world_defects(world(db("new-password")), world(db("old-password")), fault=FAULT)
    text = format_defects([found])
    assert "new-password" not in text and "old-password" not in text
    assert "12 characters, digest" in str(found.declared)
    assert found.declared != found.observed


def test_an_object_body_is_compared_by_digest_and_named_by_its_attribute() -> None:
    resources = [state("aws_s3_object.index", bucket="site", key="index.html")]
    clean = world(s3_object(b"<h1>v2</h1>"), resources=resources)
    recovered = world(s3_object(b"<h1>v1</h1>"), resources=resources)
    [found] = world_defects(clean, recovered, fault="error@PutObject#1:status=403")
    assert (found.address, found.attribute) == ("aws_s3_object.index", "content")
    assert str(found.observed).startswith("sha256:") and "(11 bytes)" in str(found.observed)


def test_the_same_world_gives_nothing() -> None:
    assert world_defects(world(db("pw")), world(db("pw")), fault=FAULT) == []


def test_generated_values_compare_equal_whatever_they_are() -> None:
    arn = "arn:aws:rds:us-east-1:123456789012:db:orders-"
    clean = world(db("pw", arn=arn + "1", sg=["sg-0a1b2c3d4e5f6a7b8"], port=5432))
    recovered = world(db("pw", arn=arn + "2", sg=["sg-11112222333344445"], port=5432))
    assert world_defects(clean, recovered, fault=FAULT) == []
    changed = world(db("pw", arn=arn + "3", sg=["sg-0a1b2c3d4e5f6a7b8"], port=5433))
    assert [d.attribute for d in world_defects(clean, changed, fault=FAULT)] == ["port"]


def test_identity_by_state_not_by_generated_names() -> None:
    # identifier_prefix: each run makes another name; state says which object is which.
    clean = world(
        db("pw", identifier="orders-1"),
        resources=[state("aws_db_instance.main", identifier="orders-1")],
    )
    recovered = world(
        db("old", identifier="orders-2"),
        resources=[state("aws_db_instance.main", identifier="orders-2")],
    )
    [found] = world_defects(clean, recovered, fault=FAULT)
    assert (found.address, found.attribute) == ("aws_db_instance.main", "password")


def test_what_state_records_and_the_emulator_lacks_is_reported() -> None:
    [found] = world_defects(world(db("pw")), world(), fault=FAULT)
    assert (found.kind, found.address, found.attribute) == (
        "wrong-fixed-point",
        "aws_db_instance.main",
        None,
    )
    assert "holds no object" in found.message
    # Missing in the clean world too: a gap of the reader, not of the recovery.
    assert world_defects(world(), world(), fault=FAULT) == []


def test_what_the_emulator_holds_and_state_does_not_is_an_orphan_unless_the_inventory_lists_it():
    extra = s3_object(b"x", key="stray.html")
    clean, recovered = world(db("pw")), world(db("pw"), extra)
    [found] = world_defects(clean, recovered, fault=FAULT)
    assert (found.kind, found.objects) == ("orphan", ["aws_s3_object bucket=site, key=stray.html"])
    # The inventory lists the type: leftovers reports it already, not twice.
    assert world_defects(clean, recovered, fault=FAULT, inventoried={"aws_s3_object"}) == []
    # The clean apply leaves it too (made by something state does not track): not a finding.
    assert world_defects(world(db("pw"), extra), recovered, fault=FAULT) == []


def test_held_objects_read_the_backend_answer() -> None:
    [obj] = held_objects(
        {
            "covered": ["aws_db_instance"],
            "objects": [
                {
                    "types": ["aws_db_instance"],
                    "region": "us-east-1",
                    "match": {"identifier": "orders"},
                    "attributes": {"password": "pw"},
                    "secret": ["password"],
                }
            ],
        }
    )
    assert obj == HeldObject(
        ("aws_db_instance",),
        {"identifier": "orders"},
        {"password": "pw"},
        frozenset({"password"}),
        "us-east-1",
    )


def test_the_kind_is_in_the_catalogue_the_schema_and_the_legend() -> None:
    assert "wrong-fixed-point" in KINDS
    assert "wrong-fixed-point" in KIND_HELP
    assert "wrong-fixed-point" in load_schema()["$defs"]["defect"]["properties"]["kind"]["enum"]


def test_a_world_round_trips_through_json() -> None:
    extra = s3_object(b"x", key="stray.html")
    recorded = world(db("pw"), extra)
    assert World.from_json(recorded.to_json()) == recorded


# -- LocalStack's world, read through its API (fake clients, plain data) ---------------------


class _Pages:
    def __init__(self, pages: list[dict]) -> None:
        self.pages = pages

    def paginate(self, **kwargs: object) -> list[dict]:
        return self.pages


class _FakeApi:
    """The answers of one service's describe calls, as boto3 returns them."""

    def __init__(self, calls: list[tuple[str, str]], region: str, **answers: list[dict]):
        self.calls, self.region, self.answers = calls, region, answers

    def get_paginator(self, operation: str) -> _Pages:
        self.calls.append((operation, self.region))
        return _Pages(self.answers.get(operation, []))


def test_localstack_s_world_reads_running_services_in_each_region_and_no_password() -> None:
    calls: list[tuple[str, str]] = []
    instance = {
        "DBInstanceIdentifier": "orders",
        "MasterUsername": "app",
        "DBInstanceClass": "db.t3.micro",
        "Endpoint": {"Port": 5432},
        "DBParameterGroups": [{"DBParameterGroupName": "default.postgres16"}],
    }

    def client(service: str, region: str) -> _FakeApi:
        answers = {"describe_db_instances": [{"DBInstances": [instance]}]}
        return _FakeApi(calls, region, **(answers if region == "eu-west-1" else {}))

    data = read_world(client, ["us-east-1", "eu-west-1", "us-east-1"], running=["rds"])
    assert calls == [("describe_db_instances", "us-east-1"), ("describe_db_instances", "eu-west-1")]
    [held] = held_objects(data)
    assert (held.types, held.match, held.region) == (
        ("aws_db_instance",),
        {"identifier": "orders"},
        "eu-west-1",
    )
    assert held.attributes["port"] == 5432 and "password" not in held.attributes
    assert held.attributes["parameter_group_name"] == "default.postgres16"
    assert data["not_compared"]["aws_db_instance"] == ["password"]
    assert set(data["covered"]) >= {"aws_db_instance", "aws_s3_object", "aws_lambda_function"}
    # A service LocalStack does not run (s3, lambda here) is never asked.
    assert read_world(client, ["us-east-1"], running=[])["objects"] == []


def test_the_regions_a_world_is_read_in_are_those_of_the_state_s_arns() -> None:
    resources = [
        state("aws_lambda_function.a", arn="arn:aws:lambda:eu-west-1:123456789012:function:a"),
        state("aws_db_instance.b", arn="arn:aws:rds:us-east-2:123456789012:db:b"),
        state("aws_s3_bucket.c", arn="arn:aws:s3:::c", bucket="c"),
        state("aws_iam_role.d", arn="arn:aws:iam::123456789012:role/d"),
    ]
    assert state_regions(resources) == ["eu-west-1", "us-east-2"]
