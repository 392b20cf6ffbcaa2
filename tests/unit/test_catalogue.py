"""The per-type catalogue holds the listers, the leftover check and the hints together."""

from __future__ import annotations

import pytest

from pytest_converge.analysis import leftovers
from pytest_converge.analysis.hints import delete_hint, duplicate_prevention
from pytest_converge.inventory import BUILTIN_LISTERS, GLOBAL, CloudObject, Lister, planned
from pytest_converge.inventory.catalogue import (
    CATALOGUE,
    NAME_IS_IDENTITY,
    ResourceType,
    is_setting,
    listed,
)

LISTED = sorted(t.type for t in listed())


def test_every_type_with_a_service_has_its_built_in_lister_and_no_other() -> None:
    assert set(BUILTIN_LISTERS) == set(LISTED)
    for type_ in LISTED:
        lister, known = BUILTIN_LISTERS[type_], CATALOGUE[type_]
        assert isinstance(lister, Lister) and lister.type == type_
        assert (lister.service, lister.scope) == (known.service, known.scope), type_


@pytest.mark.parametrize("type_", LISTED)
def test_every_listed_type_is_reachable_where_its_service_was_called(type_: str) -> None:
    """An inventory of a scenario that called only this type's service runs its lister."""
    known = CATALOGUE[type_]
    signing = known.signing_name
    assert signing
    region = "eu-west-1"
    jobs = planned([region, "us-west-2"], {region: {signing}})
    where = {r for t, _, r in jobs if t == type_}
    assert where == ({GLOBAL} if known.scope == "global" else {region})
    # ... and nowhere a scenario called nothing.
    assert type_ not in {t for t, _, _ in planned([region], {region: {"no-such-service"}})}


def test_with_no_services_named_every_lister_runs_in_every_region() -> None:
    jobs = planned(["eu-west-1", "us-west-2"])
    for type_ in LISTED:
        regions = {r for t, _, r in jobs if t == type_}
        expected = {GLOBAL} if CATALOGUE[type_].scope == "global" else {"eu-west-1", "us-west-2"}
        assert regions == expected, type_


def test_a_lister_a_user_adds_without_a_service_always_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BUILTIN_LISTERS, "aws_thing", lambda emulator: [])
    assert ("aws_thing", GLOBAL) in {(t, r) for t, _, r in planned(["eu-west-1"], {})}


def test_every_type_leftovers_knows_is_in_the_catalogue() -> None:
    content = set(leftovers._CONTENT_IDS)
    state_types = {s for sources in leftovers._CONTENT_IDS.values() for s, _ in sources}
    for type_ in content | state_types | set(leftovers.NAME_IS_IDENTITY):
        assert type_ in CATALOGUE, type_
    # Types tracked by content are those the catalogue says so of, and no other.
    assert content == {t.type for t in CATALOGUE.values() if t.identity == "content"}
    assert leftovers.NAME_IS_IDENTITY is NAME_IS_IDENTITY


def test_the_catalogue_rows_are_well_formed() -> None:
    for type_, known in CATALOGUE.items():
        assert isinstance(known, ResourceType) and known.type == type_
        assert type_.startswith("aws_")
        assert known.scope in ("regional", "global"), type_
        assert known.identity in ("id", "name", "content"), type_
        assert known.idempotency in ("", "name", "none"), type_
        # The command names the object: by its id, or by fields its lister gives.
        assert known.delete is None or "{" in known.delete, type_
        # A type the leftover check reports on is an object, not a setting of another.
        if known.service:
            assert not known.setting, type_
        if known.identity == "name":
            assert known.idempotency == "name", type_
    assert is_setting("aws_network_acl_rule") and not is_setting("aws_vpc")


def test_the_hints_of_a_leftover_come_from_the_catalogue() -> None:
    vpc = CloudObject("aws_vpc", "vpc-2", region="eu-west-1")
    assert delete_hint(vpc) == "`aws ec2 delete-vpc --vpc-id vpc-2 --region eu-west-1`"
    role = CloudObject("aws_iam_role", "app", region=GLOBAL)
    assert delete_hint(role) == "`aws iam delete-role --role-name app`"
    rule = CloudObject(
        "aws_cloudwatch_event_rule", "orders/placed", name="placed", region="eu-west-1",
        attributes={"event_bus_name": "orders"},
    )  # fmt: skip
    assert delete_hint(rule) == (
        "`aws events delete-rule --name placed --event-bus-name orders --region eu-west-1`"
    )
    target = CloudObject("aws_cloudwatch_event_target", "orders-placed-q", region="eu-west-1")
    assert "--ids <target_id>" in delete_hint(target)  # a field the object lacks stays named
    unknown = CloudObject("aws_thing", "t-1", region="eu-west-1")
    assert delete_hint(unknown) == "delete aws_thing t-1 in eu-west-1"
    assert "without an idempotency token" in duplicate_prevention("aws_vpc", "aws_vpc.main")
    assert "aws_sqs_queue.jobs a fixed, unique name" in duplicate_prevention(
        "aws_sqs_queue", "aws_sqs_queue.jobs"
    )
    assert "security_group" not in duplicate_prevention("aws_thing", "aws_thing.x")
    assert "idempotency token (ClientToken)" in duplicate_prevention("aws_thing", "aws_thing.x")
