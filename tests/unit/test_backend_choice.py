"""Which backend a module runs on (plain data)."""

from __future__ import annotations

import pytest

from pytest_converge.analysis.preflight import Phase, Preflight, Unservable
from pytest_converge.plugin.options import module_backends
from pytest_converge.run.backend_choice import backend_for

GROUP = Unservable(
    "aws_elasticache_user_group.g",
    "aws_elasticache_user_group",
    "elasticache",
    "CreateUserGroup",
    Phase.CREATE,
)
CACHE = ["aws_elasticache_user_group.g", "aws_elasticache_serverless_cache.c", "aws_vpc.v"]
MAP = Unservable(
    "aws_location_map.m", "aws_location_map", "location", "CreateMap", Phase.CREATE, True
)
MAPS = ["aws_location_map.m", "aws_vpc.v"]


def test_a_module_moto_serves_stays_on_moto() -> None:
    choice = backend_for("m", ["aws_vpc.v"], "moto", moto=Preflight(), ministack_unsupported=set())
    assert (choice.backend, choice.why) == ("moto", "")


def test_a_module_needing_a_service_moto_lacks_goes_to_a_ministack_that_serves_it() -> None:
    choice = backend_for("m", MAPS, "moto", moto=Preflight((MAP,)), ministack_unsupported=set())
    assert choice.backend == "ministack" and "location" in choice.why


def test_an_operation_moto_lacks_in_a_service_it_has_stays_on_moto() -> None:
    """Without MiniStack's pre-flight it is known per service only: it may lack that
    operation too."""
    choice = backend_for("m", CACHE, "moto", moto=Preflight((GROUP,)), ministack_unsupported=set())
    assert (choice.backend, choice.why) == ("moto", "")


def test_an_operation_moto_lacks_stays_on_moto_even_where_ministack_serves_it() -> None:
    """MiniStack's pre-flight is clean, but moto has the service: moto judges the rest
    (its fidelity layer answers as AWS does) and that part is named untested."""
    choice = backend_for(
        "m", CACHE, "moto", moto=Preflight((GROUP,)), ministack=Preflight(),
        ministack_unsupported=set(),
    )  # fmt: skip
    assert (choice.backend, choice.why) == ("moto", "")
    # A whole service moto lacks, and MiniStack's pre-flight clean: it moves.
    moved = backend_for(
        "m", MAPS, "moto", moto=Preflight((MAP,)), ministack=Preflight(),
        ministack_unsupported=set(),
    )  # fmt: skip
    assert moved.backend == "ministack" and "every operation" in moved.why


def test_not_when_ministacks_pre_flight_names_a_gap_too() -> None:
    spot = Unservable(
        "aws_spot_datafeed_subscription.s",
        "aws_spot_datafeed_subscription",
        "ec2",
        "CreateSpotDatafeedSubscription",
        Phase.CREATE,
    )
    addresses = ["aws_spot_datafeed_subscription.s"]
    both = Preflight((spot,))
    choice = backend_for(
        "m", addresses, "moto", moto=both, ministack=both, ministack_unsupported=set()
    )
    assert (choice.backend, choice.why) == ("moto", "")
    # A whole service moto lacks, and an operation MiniStack lacks: it stays too.
    lacking = backend_for(
        "m", MAPS, "moto", moto=Preflight((MAP,)), ministack=both, ministack_unsupported=set()
    )
    assert lacking.backend == "moto"


def test_the_real_data_keeps_an_operation_moto_lacks_and_a_vpc_cidr_association_on_moto() -> None:
    """Read from the shipped data: moto has no PutProvisionedConcurrencyConfig and
    MiniStack's Lambda table routes it, but moto has Lambda: the module stays (the case
    this was written for, a composite alarm's PutCompositeAlarm beside a metric alarm that
    MiniStack 1.5.33 reads back with period 0, statistic "" and actions disabled, is now
    served by the fidelity layer, and stays on moto the more). MiniStack has no
    AssociateVpcCidrBlock, which moto serves."""
    from pytest_converge.emulator.served import preflight_of

    alarm = ["aws_cloudwatch_composite_alarm.a", "aws_cloudwatch_metric_alarm.m"]
    assert preflight_of(alarm, "moto", "5").ok
    group = ["aws_lambda_provisioned_concurrency_config.a", "aws_vpc.v"]
    moved = backend_for(
        "m", group, "moto", moto=preflight_of(group, "moto", "5"),
        ministack=preflight_of(group, "ministack", "5"), ministack_unsupported=set(),
    )  # fmt: skip
    assert not preflight_of(group, "moto", "5").ok and preflight_of(group, "ministack", "5").ok
    assert (moved.backend, moved.why) == ("moto", ""), moved
    cidr = ["aws_vpc.v", "aws_vpc_ipv4_cidr_block_association.a"]
    assert preflight_of(cidr, "moto", "5").ok
    assert not preflight_of(cidr, "ministack", "5").ok


def test_not_when_ministack_lacks_a_service_the_module_declares_or_is_not_installed() -> None:
    lacking = backend_for("m", MAPS, "moto", moto=Preflight((MAP,)), ministack_unsupported={"ec2"})
    assert lacking.backend == "moto"
    absent = backend_for("m", MAPS, "moto", moto=Preflight((MAP,)), ministack_unsupported=None)
    assert absent.backend == "moto"


def test_a_pin_wins_and_says_so() -> None:
    pins = module_backends("mods/cache*=ministack, *=moto")
    assert pins == (("mods/cache*", "ministack"), ("*", "moto"))
    chosen = backend_for("mods/cache-a", CACHE, "moto", pins=pins)
    assert chosen.backend == "ministack" and "--converge-module-backends" in chosen.why
    kept = backend_for("mods/net", CACHE, "moto", pins=pins, moto=Preflight((GROUP,)),
                       ministack_unsupported=set())  # fmt: skip
    assert (kept.backend, kept.why) == ("moto", "")


@pytest.mark.parametrize("bad", ["mods", "=moto", "mods=nosuch"])
def test_a_bad_pin_names_the_form(bad: str) -> None:
    with pytest.raises(ValueError):
        module_backends(bad)
