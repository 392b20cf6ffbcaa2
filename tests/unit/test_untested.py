"""The untested part of a module: told from one run's events and calls (plain data)."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_converge.analysis.untested import (
    errored_addresses,
    unreached,
    untested_defects,
    untested_resources,
)
from pytest_converge.report import partly_verified_of, summary_lines


@dataclass
class FakeCall:
    service: str
    operation: str
    address: str | None = None
    unimplemented: bool = False
    method: str = "POST"
    path: str = "/"


def _errored(address: str) -> dict:
    return {"type": "apply_errored", "hook": {"resource": {"addr": address}}}


def _planned(address: str, action: str = "create") -> dict:
    return {"type": "planned_change", "change": {"resource": {"addr": address}, "action": action}}


def _served_by(address: str, service: str) -> bool:
    return address.split(".")[-2].removeprefix("aws_").split("_")[0] == service


def test_a_resource_that_failed_on_an_unimplemented_operation_is_untested() -> None:
    events = [_errored("aws_elasticache_parameter_group.this")]
    calls = [FakeCall("elasticache", "CreateCacheParameterGroup", unimplemented=True)]
    found = untested_resources(events, calls, _served_by)
    assert found == {
        "aws_elasticache_parameter_group.this": "elasticache:CreateCacheParameterGroup"
    }


def test_a_resource_that_failed_for_another_reason_is_the_modules_failure() -> None:
    events = [_errored("aws_sqs_queue.jobs"), _errored("aws_elasticache_parameter_group.this")]
    calls = [
        FakeCall("sqs", "CreateQueue"),  # refused for the module's own reason
        FakeCall("elasticache", "CreateCacheParameterGroup", unimplemented=True),
    ]
    found = untested_resources(events, calls, _served_by)
    assert list(found) == ["aws_elasticache_parameter_group.this"]


def test_a_located_call_names_its_resource_among_several_of_one_service() -> None:
    events = [_errored("aws_ecr_registry_policy.this"), _errored("aws_ecr_repository.app")]
    calls = [
        FakeCall("ecr", "PutRegistryPolicy", "aws_ecr_registry_policy.this", unimplemented=True)
    ]
    assert untested_resources(events, calls, _served_by) == {
        "aws_ecr_registry_policy.this": "ecr:PutRegistryPolicy"
    }


def test_an_unlocated_call_with_two_failed_candidates_names_neither() -> None:
    events = [_errored("aws_ecr_registry_policy.this"), _errored("aws_ecr_repository.app")]
    calls = [FakeCall("ecr", "PutRegistryPolicy", unimplemented=True)]
    assert untested_resources(events, calls, _served_by) == {}


def test_no_unimplemented_call_means_nothing_untested() -> None:
    assert (
        untested_resources([_errored("aws_sqs_queue.a")], [FakeCall("sqs", "X")], _served_by) == {}
    )


def test_a_data_source_read_at_plan_time_is_named_by_its_diagnostic() -> None:
    events = [
        {"type": "diagnostic", "diagnostic": {"severity": "error", "address": "data.aws_x.y"}},
        {"type": "diagnostic", "diagnostic": {"severity": "warning", "address": "aws_z.w"}},
    ]
    assert errored_addresses(events) == ["data.aws_x.y"]


def test_unreached_are_the_planned_creates_never_made_beside_the_untested() -> None:
    events = [_planned("aws_a.one"), _planned("aws_b.two"), _planned("aws_c.three", "update")]
    assert unreached(events, in_state=["aws_a.one"], left_out=["aws_x.gap"]) == ["aws_b.two"]
    assert unreached(events, in_state=[], left_out=["aws_b.two"]) == ["aws_a.one"]


def test_each_untested_resource_is_one_warning_naming_the_operation_and_what_waits() -> None:
    [found] = untested_defects(
        {"aws_ec2_capacity_reservation.c": "ec2:CreateCapacityReservation"},
        ["aws_sqs_queue.waiting"],
        "moto",
        module="m",
        scenario="two-run",
    )
    assert found.kind == "untested" and found.severity == "warning" and not found.is_error
    assert found.observed == "ec2:CreateCapacityReservation"
    assert found.waiting == ["aws_sqs_queue.waiting"]
    assert "`ec2:CreateCapacityReservation`" in found.message and "partly verified" in found.message


def test_reports_say_partly_verified_and_name_the_part() -> None:
    defects = untested_defects(
        {"aws_ec2_capacity_reservation.c": "ec2:CreateCapacityReservation"},
        ["aws_sqs_queue.waiting"],
        "moto",
        module="mods/app",
        scenario="two-run",
    )
    from pytest_converge.report import defect_json

    assert partly_verified_of([defect_json(d) for d in defects * 2]) == {
        "mods/app": [
            {
                "address": "aws_ec2_capacity_reservation.c",
                "operation": "ec2:CreateCapacityReservation",
                "waiting": ["aws_sqs_queue.waiting"],
            }
        ]
    }
    lines = summary_lines({"mods/app": defects, "mods/other": []})
    assert any(line.startswith("mods/app") and "partly" in line for line in lines)
    assert any("aws_ec2_capacity_reservation.c untested" in line for line in lines)
    assert any(line.startswith("mods/other") and "converged" in line for line in lines)


def test_the_html_page_marks_a_partly_verified_module() -> None:
    from pytest_converge.report import defect_json, json_report
    from pytest_converge.report.html import html_report

    defects = untested_defects(
        {"aws_ec2_capacity_reservation.c": "ec2:CreateCapacityReservation"},
        ["aws_sqs_queue.waiting"],
        "moto",
        module="mods/app",
        scenario="two-run",
    )
    scenarios = [{"module": "mods/app", "scenario": "two-run", "outcome": "passed", "seconds": 1}]
    page = html_report(json_report(["mods/app"], scenarios, defects))
    assert "partly verified" in page
    assert "aws_ec2_capacity_reservation.c (ec2:CreateCapacityReservation)" in page
    assert defect_json(defects[0])["waiting"] == ["aws_sqs_queue.waiting"]


def test_a_finding_says_whether_the_pre_flight_named_it_before_the_apply() -> None:
    told, found = untested_defects(
        {
            "module.cache.aws_elasticache_parameter_group.this[0]": "elasticache:X",
            "aws_ec2_capacity_reservation.c": "ec2:Y",
        },
        [],
        "moto",
        module="m",
        scenario="two-run",
        predicted=["aws_elasticache_parameter_group.this"],
    )
    assert told.evidence.startswith("named before the apply")
    assert found.evidence.startswith("found by the apply")


def _said(address: str, detail: str) -> dict:
    return {
        "type": "diagnostic",
        "diagnostic": {"severity": "error", "summary": "x", "detail": detail, "address": address},
    }


def test_unlocated_calls_go_to_the_resources_whose_diagnostic_names_the_operation() -> None:
    prop = "module.vgw.aws_vpn_gateway_route_propagation.private[{}]"
    events = [_errored(prop.format(i)) for i in range(3)] + [_errored("aws_vpc.main")]
    events += [
        _said(prop.format(i), "operation error EC2: EnableVgwRoutePropagation, 501")
        for i in range(3)
    ]
    events.append(_said("aws_vpc.main", "operation error EC2: CreateVpc, InvalidParameter"))
    calls = [FakeCall("ec2", "EnableVgwRoutePropagation", unimplemented=True)] * 3
    found = untested_resources(events, calls, lambda a, s: True)
    assert sorted(found) == [prop.format(i) for i in range(3)]  # not the VPC


def test_instances_of_one_block_share_an_unlocated_gap_when_no_diagnostic_names_it() -> None:
    events = [_errored(f"aws_x_thing.t[{i}]") for i in range(2)]
    calls = [FakeCall("x", "CreateThing", unimplemented=True)]
    assert sorted(untested_resources(events, calls, _served_by)) == [
        "aws_x_thing.t[0]",
        "aws_x_thing.t[1]",
    ]


def test_an_error_page_to_an_operation_with_code_is_the_emulator_failing_on_it() -> None:
    [found] = untested_defects(
        {"module.tgw.aws_ec2_transit_gateway_vpc_attachment.this": "ec2:Disassociate"},
        [],
        "moto",
        module="m",
        scenario="two-run",
        failing={"ec2:Disassociate"},
    )
    assert "failed on the `ec2:Disassociate` request" in found.message
    assert "does not implement" not in found.message
