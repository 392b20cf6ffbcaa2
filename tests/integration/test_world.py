"""The recovered world, for real: an empty second plan is not a correct world.

An update refused with a non-retryable error (403) fails the apply, yet the
provider's SDK keeps the planned value in state, does not taint the resource,
and its Read never refreshes that attribute: the re-run plans nothing while
the object keeps its old value. Only a comparison of what the emulator holds
with what a clean apply of the same configuration made shows it: moto's
backend model, or LocalStack's describe and get calls (the tests marked
``localstack``, skipped without it).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pytest_converge import ApiError, LostResponse

#: These tests inspect the defects they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)

MODULES = Path(__file__).resolve().parents[1] / "modules" / "world"

V1, V2 = "password-v1-0123", "password-v2-4567"


def wrong_fixed_points(report):
    return [d for d in report.defects if d.kind == "wrong-fixed-point"]


# The 5.x leg waits ~4 minutes on the provider's RDS waiters (30 s delays): the claim's
# one 5.x test is test_a_refused_put_object_is_a_wrong_fixed_point_on_aws_5 below.
@pytest.mark.aws5_extra
@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_a_refused_password_change_is_a_wrong_fixed_point(converge, provider_line):
    module = provider_line.pin(MODULES / "db_password")
    stack = converge(module, vars={"password": V2})
    # No replay (is it flaky?): a database's create waits 30 s on the provider's waiter
    # (minutes on 5.x), and the bucket test below asks for the replay of such a scenario.
    report = stack.upgrade_from(
        module,
        vars={"password": V1},
        fault=ApiError("ModifyDBInstance", status=403, code="AccessDenied"),
        replay=False,
    )
    assert not report.first.ok, "the refused update fails the upgrade apply"
    assert report.second is not None and report.second.ok
    assert stack.plan().is_empty  # the re-run changed nothing: the two-run test passes
    [found] = report.errors
    assert (found.kind, found.address, found.attribute) == (
        "wrong-fixed-point",
        "aws_db_instance.main",
        "password",
    )
    assert "error@ModifyDBInstance#1" in found.message
    assert "-replace=aws_db_instance.main" in found.fix
    text = " ".join(str(v) for v in (found.message, found.declared, found.observed, found.why))
    assert V1 not in text and V2 not in text, "a password is never shown"
    assert "differs" in found.message


def refused_put_object(stack, **options):
    """``bucket_object`` upgraded v1 -> v2 (the Stack's) through a refused PutObject: the
    re-run plans nothing, and the object's old body is the one wrong-fixed-point."""
    module = MODULES / "bucket_object"
    report = stack.upgrade_from(
        module,
        vars={"content": "<h1>v1</h1>"},
        fault=ApiError("PutObject", status=403, code="AccessDenied"),
        **options,
    )
    assert not report.first.ok
    assert report.second is not None and report.second.ok
    assert stack.plan().is_empty  # the two-run test alone passes
    [found] = report.errors
    assert (found.kind, found.address, found.attribute) == (
        "wrong-fixed-point",
        "aws_s3_bucket_object.index",
        "content",
    )
    assert "-replace=aws_s3_bucket_object.index" in found.fix
    return report


def test_a_refused_put_object_keeps_the_old_body_under_an_empty_plan(converge):
    stack = converge(MODULES / "bucket_object", vars={"content": "<h1>v2</h1>"})
    report = refused_put_object(stack)
    assert report.replayed and not report.flaky, "a scenario with defects is replayed once"


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_a_refused_put_object_is_a_wrong_fixed_point_on_aws_5(converge, provider_line):
    module = provider_line.pin(MODULES / "s3_object")
    stack = converge(module, vars={"content": "<h1>v2</h1>"})
    report = stack.upgrade_from(
        module,
        vars={"content": "<h1>v1</h1>"},
        fault=ApiError("PutObject", status=403, code="AccessDenied"),
        replay=False,  # its 3.39 twin above asks for the replay; on 5.x it costs a minute
    )
    assert report.second is not None and report.second.ok
    [found] = report.errors
    assert (found.kind, found.address, found.attribute) == (
        "wrong-fixed-point",
        "aws_s3_object.index",
        "content",
    )


def test_a_lost_response_on_the_update_ends_correct(converge):
    module = MODULES / "bucket_object"
    stack = converge(module, vars={"content": "<h1>v2</h1>"})
    report = stack.upgrade_from(
        module, vars={"content": "<h1>v1</h1>"}, fault=LostResponse("PutObject")
    )
    assert wrong_fixed_points(report) == []
    assert report.errors == []


def test_a_scenario_that_recovers_correctly_holds_the_clean_world(converge, caplog):
    caplog.set_level(logging.INFO, logger="pytest_converge")
    for _ in range(2):  # two tests' Stacks of one module: one clean apply for the run
        stack = converge(MODULES / "bucket_object", vars={"content": "<h1>v1</h1>"})
        report = stack.recover(LostResponse("PutObject"))
        assert report.errors == []
    made = [r for r in caplog.records if "clean apply: to compare" in r.getMessage()]
    assert len(made) == 1


@pytest.mark.localstack
def test_localstack_s_world_is_what_its_api_returns(localstack):
    localstack.reset()
    s3 = localstack.client("s3")
    s3.create_bucket(Bucket="converge-world-read")
    s3.put_object(Bucket="converge-world-read", Key="a.txt", Body=b"v1", ContentType="text/plain")
    world = localstack.world(regions=["eu-west-1"])
    assert "aws_db_instance" in world["covered"] and "aws_s3_object" in world["covered"]
    assert world["not_compared"]["aws_db_instance"] == ["password"]
    held = {tuple(o["types"]): o for o in world["objects"]}
    body = held[("aws_s3_object", "aws_s3_bucket_object")]
    assert body["match"] == {"bucket": "converge-world-read", "key": "a.txt"}
    assert body["attributes"]["content"].startswith("sha256:")
    assert body["attributes"]["content_type"] == "text/plain"
    assert held[("aws_s3_bucket",)]["match"] == {"bucket": "converge-world-read"}
    # A service nothing called holds nothing and is not started to be asked.
    assert localstack.services().get("lambda") != "running"


@pytest.mark.localstack
def test_a_refused_put_object_is_a_wrong_fixed_point_on_localstack(stack_on):
    stack = stack_on(MODULES / "bucket_object", variables={"content": "<h1>v2</h1>"})
    refused_put_object(stack, replay=False)  # its moto twin above asks for the replay
