"""Emulator gap catalogue, matching, disagreement marks, unimplemented answers (plain data)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.gaps import (
    Gap,
    load_catalogue,
    mark_disagreements,
    mark_emulator_gaps,
    matching_gap,
    operation_name,
    resource_type,
    unimplemented_notes,
    unimplemented_operation,
)
from pytest_converge.faults.operations import identify

#: The shipped catalogue and the entries the fidelity layer retired: what moto as released
#: meets (tests/data/moto_as_released_gaps.json). The plans below were recorded on it.
AS_RELEASED = load_catalogue([Path(__file__).parents[1] / "data" / "moto_as_released_gaps.json"])

SUBNET = Gap(
    emulator="moto",
    versions=">=5.1,<5.3",
    resource_type="aws_subnet",
    attribute="ipv6_cidr_block",
    real_api="AWS keeps the subnet's IPv6 CIDR",
    evidence="reproduction: tests/modules/x",
)
SG_DESCRIPTION = Gap("moto", "aws_security_group", "ingress.description", "AWS keeps it", "repro")


def _diff(address="aws_subnet.public", attribute="ipv6_cidr_block", **extra):
    return Defect(
        kind="permanent-diff",
        address=address,
        attribute=attribute,
        declared="2001:db8::/64",
        observed=None,
        classification="dropped",
        **extra,
    )


def test_shipped_catalogue_loads_and_every_entry_is_complete():
    gaps = load_catalogue()
    assert gaps, "the plugin ships reproduced entries"
    for gap in gaps:
        assert gap.emulator and gap.resource_type.startswith("aws_") and gap.real_api
        assert gap.evidence


@pytest.mark.parametrize(
    ("address", "attribute", "declared", "observed"),
    [
        # The aws 5.x corpus's findings (tests/corpus5/FINDINGS.md), as the runs reported them.
        (
            'module.vpc_endpoints.aws_vpc_endpoint.this["ecs"]',
            "subnet_configuration",
            [{"ipv4": "10.0.1.10", "ipv6": "", "subnet_id": "subnet-1"}],
            [{"ipv4": "10.0.1.215", "ipv6": "", "subnet_id": "subnet-1"}],
        ),
        (
            'module.vpc_endpoints.aws_vpc_endpoint.this["s3"]',
            "dns_options",
            [
                {
                    "dns_record_ip_type": "ipv4",
                    "private_dns_only_for_inbound_resolver_endpoint": False,
                }
            ],
            [],
        ),
        (
            "module.log_group.aws_cloudwatch_log_group.this[0]",
            "log_group_class",
            "INFREQUENT_ACCESS",
            "",
        ),
    ],
)
def test_the_retired_entries_mark_what_aws_5x_met_on_moto_as_released(
    address, attribute, declared, observed
):
    def finding() -> Defect:
        return Defect(
            kind="permanent-diff",
            address=address,
            attribute=attribute,
            declared=declared,
            observed=observed,
            classification="dropped",
        )

    found = finding()
    assert mark_emulator_gaps([found], "moto", "5.2.5", gaps=AS_RELEASED) == [found]
    assert found.emulator_suspected and found.severity == "warning"
    assert "the raw_moto leg of tests/integration/test_fidelity_" in found.evidence
    later = finding()  # a moto outside the verified range: not marked
    assert mark_emulator_gaps([later], "moto", "5.3.0", gaps=AS_RELEASED) == [] and later.is_error
    shipped = finding()  # the embedded moto answers as AWS does: no longer catalogued
    assert mark_emulator_gaps([shipped], "moto", "5.2.5") == [] and shipped.is_error


@pytest.mark.parametrize(
    ("version", "expected"), [("5.2.5", True), ("5.1.0", True), ("5.3.0", False), (None, True)]
)
def test_entries_match_emulator_and_installed_version_range(version, expected):
    assert (matching_gap(_diff(), [SUBNET], "moto", version) is SUBNET) is expected
    assert matching_gap(_diff(), [SUBNET], "localstack", version) is None


def test_entries_match_type_and_attribute_path_prefix_without_indices():
    assert matching_gap(_diff("module.vpc.aws_subnet.public[2]"), [SUBNET], "moto", "5.2.5")
    assert not matching_gap(_diff(attribute="cidr_block"), [SUBNET], "moto", "5.2.5")
    assert not matching_gap(_diff("aws_vpc.main"), [SUBNET], "moto", "5.2.5")
    rule = _diff("aws_security_group.web", "ingress[3].description")
    assert matching_gap(rule, [SG_DESCRIPTION], "moto", "5.2.5") is SG_DESCRIPTION
    # A grouped finding matches only when every element is covered.
    grouped = _diff("aws_security_group.web", "ingress")
    grouped.elements = [{"path": "ingress[0].description"}, {"path": "ingress[1].description"}]
    assert matching_gap(grouped, [SG_DESCRIPTION], "moto", None)
    grouped.elements.append({"path": "ingress[1].from_port"})
    assert not matching_gap(grouped, [SG_DESCRIPTION], "moto", None)


def test_marked_findings_stay_listed_as_warnings_unless_strict():
    found = [_diff(), _diff(attribute="cidr_block")]
    marked = mark_emulator_gaps(found, "moto", "5.2.5", gaps=[SUBNET])
    assert marked == [found[0]]
    assert found[0].emulator_suspected and found[0].severity == "warning"
    assert "AWS keeps the subnet's IPv6 CIDR" in found[0].evidence
    assert "reproduction: tests/modules/x" in found[0].evidence
    assert not found[1].emulator_suspected and found[1].severity == "error"
    strict = [_diff()]
    mark_emulator_gaps(strict, "moto", "5.2.5", strict=True, gaps=[SUBNET])
    assert strict[0].emulator_suspected and strict[0].severity == "error"


def test_info_and_non_value_findings_are_not_marked():
    info = Defect(kind="drift", address="aws_subnet.public", severity="info")
    orphan = Defect(kind="orphan", address="aws_subnet.public", module="m")
    assert mark_emulator_gaps([info, orphan], "moto", None, gaps=[SUBNET]) == []


def test_a_finding_only_one_emulator_shows_is_marked_with_what_the_other_showed():
    mine = [_diff(), _diff("aws_sqs_queue.q", "policy")]
    theirs = [_diff("aws_sqs_queue.q", "policy")]
    marked = mark_disagreements(mine, theirs, "moto", "localstack", other_plan="no changes")
    assert marked == [mine[0]]
    assert mine[0].emulator_suspected and mine[0].severity == "warning"
    assert "localstack does not show this finding" in mine[0].evidence
    assert "no changes" in mine[0].evidence
    assert not mine[1].emulator_suspected and mine[1].severity == "error"
    # Checked, and shown by the other too: confirmed, with no version when none is known.
    assert mine[0].confirmed_by is None
    assert mine[1].confirmed_by == {"emulator": "localstack", "version": None, "plan": "no changes"}


def test_a_finding_both_emulators_show_is_confirmed_by_the_other_and_its_version():
    mine = [_diff("aws_sqs_queue.q", "policy")]
    theirs = [_diff("aws_sqs_queue.q", "policy")]
    plan = "1 to update"
    assert mark_disagreements(mine, theirs, "moto", "ministack", other_plan=plan,
                              other_version="1.5.33") == []  # fmt: skip
    [confirmed] = mine
    assert confirmed.severity == "error" and not confirmed.emulator_suspected
    assert confirmed.confirmed_by == {"emulator": "ministack", "version": "1.5.33", "plan": plan}
    assert confirmed.confirmed_on == "ministack 1.5.33"
    assert Defect.from_dict(confirmed.to_dict()).confirmed_by == confirmed.confirmed_by
    # A warning the other shows too is not checked, so not confirmed either.
    warning = _diff("aws_sqs_queue.q", "policy", severity="warning")
    mark_disagreements([warning], theirs, "moto", "ministack", other_version="1.5.33")
    assert warning.confirmed_by is None


def test_user_catalogue_files_and_malformed_entries(tmp_path):
    extra = tmp_path / "gaps.json"
    extra.write_text(json.dumps({"gaps": [dict(vars(SUBNET))]}))
    assert SUBNET in load_catalogue([extra])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"emulator": "moto", "resource_type": "aws_subnet"}]))
    with pytest.raises(ValueError, match="entry 0 lacks attribute, real_api, evidence"):
        load_catalogue([bad])
    worse = tmp_path / "worse.json"
    worse.write_text(json.dumps([dict(vars(SUBNET), versions="five")]))
    with pytest.raises(ValueError, match="not a version specifier"):
        load_catalogue([worse])


def test_resource_type_of_addresses():
    assert resource_type('module.a.module.b.aws_subnet.x["k"]') == "aws_subnet"
    assert resource_type("data.aws_iam_policy_document.p") == "aws_iam_policy_document"
    assert resource_type("output.url") is None
    assert resource_type(None) is None


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (500, b"<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>", True),
        (404, b"<!DOCTYPE HTML PUBLIC><html><title>404 Not Found</title>", True),
        (501, b"", True),
        (500, b"<ErrorResponse><Error><Code>InternalFailure</Code></Error></ErrorResponse>", True),
        (400, b'{"__type": "NotImplemented", "message": "not yet implemented"}', True),
        (400, b"<Response><Errors><Error><Code>InvalidParameterValue</Code>", False),
        (404, b'{"__type": "ResourceNotFoundException"}', False),
        (200, b"<!doctype html>", False),
    ],
)
def test_unimplemented_answers(status, body, expected):
    assert unimplemented_operation(status, [], body) is expected


_SIGNED_OUTPOSTS = "AWS4-HMAC-SHA256 Credential=AK/20240101/us-east-1/outposts/aws4_request"


def test_unimplemented_operations_are_named_as_iam_writes_them():
    # The proxy names a REST call from botocore's model; one no template fits keeps
    # its HTTP form.
    assert identify("GET", "/outposts", {"Authorization": _SIGNED_OUTPOSTS}, b"").name == (
        "ListOutposts"
    )
    assert operation_name("ec2", "CreateCapacityReservation") == "ec2:CreateCapacityReservation"
    assert operation_name("nosuchservice", "GET x /y", "GET", "/y") == "nosuchservice:GET /y"
    call = SimpleNamespace(
        service="outposts",
        operation="ListOutposts",
        method="GET",
        path="/outposts",
        unimplemented=True,
        upstream_status=500,
    )
    [note] = unimplemented_notes([call, call], "moto")
    assert note.text.startswith("the moto emulator does not implement `outposts:ListOutposts`")
    # The note is a record of its call: what attributes it, without reading its text.
    assert (note.address, note.service, note.operation) == (None, "outposts", "ListOutposts")
    # The resource whose apply made the call, when every such call was one's.
    mine, other = (SimpleNamespace(**vars(call), address=a) for a in ("aws_x.a", "aws_x.b"))
    assert unimplemented_notes([mine, mine], "moto")[0].address == "aws_x.a"
    assert unimplemented_notes([mine, other], "moto")[0].address is None


def _error_page(operation: str, **parameters: str) -> SimpleNamespace:
    return SimpleNamespace(
        service="ec2",
        operation=operation,
        method="POST",
        path="/",
        unimplemented=True,
        upstream_status=500,
        parameters=parameters,
    )


def test_an_error_page_to_an_operation_the_emulator_serves_is_a_failed_request():
    from pytest_converge.emulator.moto_source import implements

    failed = _error_page(
        "DescribeSubnets",
        **{
            "Filter.1.Name": "ipv6-cidr-block-association.ipv6-cidr-block",
            "Filter.1.Value.1": "2001:db8::/64",
        },
    )
    missing = _error_page("CreateSpotDatafeedSubscription", Bucket="spot-datafeed")
    served, lacking = (n.text for n in unimplemented_notes([failed, missing], "moto", implements))
    assert served.startswith(
        "the moto emulator failed on a `ec2:DescribeSubnets` request (it serves that "
        "operation, and answered HTTP 500 with an error page to this request: "
        "Filter.1.Name=ipv6-cidr-block-association.ipv6-cidr-block, "
        "Filter.1.Value.1=2001:db8::/64): an emulator bug on these parameters, not a "
        "missing operation"
    ), served
    assert "does not implement" not in served
    assert lacking.startswith("the moto emulator does not implement `ec2:CreateSpotData")
    # Not known either way: the missing operation, as before.
    [unknown] = unimplemented_notes([failed], "moto", lambda service, operation: None)
    assert unknown.text.startswith("the moto emulator does not implement `ec2:DescribeSubnets`")


def test_a_long_request_is_quoted_short():
    from pytest_converge.analysis.gaps import request_excerpt

    call = _error_page("RunInstances", **{f"P{i}": "v" * 100 for i in range(6)})
    excerpt = request_excerpt(call)
    assert excerpt.endswith(" and 2 more") and excerpt.count("...") == 4
    assert request_excerpt(_error_page("X")) == "POST /"


def _output(name, declared, observed):
    return Defect(
        kind="output-change",
        address=f"output.{name}",
        attribute=name,
        declared=declared,
        observed=observed,
    )


def test_an_output_built_from_a_suspected_attribute_is_suspected_too():
    by_reference = _output("subnet_ipv6", "(known after apply)", "")
    by_value = _output("ipv6_cidrs", ["2001:db8::/64"], [""])
    unrelated = _output("vpc_id", "vpc-2", "vpc-1")
    other = Defect(
        kind="permanent-diff",
        address="aws_route.v6",
        attribute="destination_ipv6_cidr_block",
        declared="::/0",
        observed="",
    )
    found = [_diff("aws_subnet.public[0]"), by_reference, by_value, unrelated, other]
    configuration = {
        "root_module": {
            "outputs": {
                "subnet_ipv6": {
                    "expression": {
                        "references": [
                            "aws_subnet.public[0].ipv6_cidr_block",
                            "aws_subnet.public[0]",
                            "aws_subnet.public",
                        ]
                    }
                },
                "vpc_id": {"expression": {"references": ["aws_vpc.this.id", "aws_vpc.this"]}},
            }
        }
    }
    marked = mark_emulator_gaps(found, "moto", "5.2.5", gaps=[SUBNET], configuration=configuration)
    assert marked == [found[0], by_reference, by_value]
    for follower in (by_reference, by_value):
        assert follower.emulator_suspected and follower.severity == "warning"
        assert follower.evidence.startswith(
            "follows from the suspected emulator gap of aws_subnet.public[0] ipv6_cidr_block"
        )
        assert "AWS keeps the subnet's IPv6 CIDR" in follower.evidence
    assert not unrelated.emulator_suspected and unrelated.is_error
    assert not other.emulator_suspected  # ::/0 is declared, not the dropped CIDR
    strict = [_diff(), _output("v6", ["2001:db8::/64"], [])]
    mark_emulator_gaps(strict, "moto", "5.2.5", gaps=[SUBNET], strict=True)
    assert strict[1].emulator_suspected and strict[1].is_error
    # nothing suspected, nothing follows
    alone = [_output("ipv6_cidrs", ["2001:db8::/64"], [""])]
    assert mark_emulator_gaps(alone, "moto", "5.2.5", gaps=[SUBNET]) == []


def test_an_answer_the_provider_cannot_decode_is_named_as_an_emulator_gap():
    from pytest_converge.analysis.gaps import undecodable_notes
    from pytest_converge.errors import Diagnostic

    v2 = (
        "creating EC2 Subnet: operation error EC2: CreateSubnet, https response error "
        "StatusCode: 200, RequestID: x, deserialization failed, failed to decode response "
        'body, strconv.ParseInt: parsing "18446744073709551611": value out of range '
        "[module.vpc.aws_subnet.public[0], main.tf:3]"
    )
    undecodable = Diagnostic(v2, service="ec2", operation="CreateSubnet", undecodable=True)
    vpc = Diagnostic("error creating VPC: InvalidParameterValue")
    said = [undecodable, undecodable, vpc]
    [note] = undecodable_notes(said, "moto")
    assert note.text.startswith("the moto emulator answered `ec2:CreateSubnet` with a response")
    assert "emulator gap, not a module error" in note.text
    assert (note.service, note.operation) == ("ec2", "CreateSubnet")
    subnet = "module.vpc.aws_subnet.public[0]"
    on_subnet = replace(undecodable, address=subnet)
    [located] = undecodable_notes([on_subnet, on_subnet], "moto")
    assert located.address == subnet
    assert undecodable_notes([Diagnostic("AccessDenied: no")], "moto") == []
    # Only the record says it: the same words in a note's text are not read again.
    assert undecodable_notes([Diagnostic(v2)], "moto") == []
    v1 = Diagnostic("reading: SerializationError: ...", service="ec2", undecodable=True)
    [answer] = undecodable_notes([v1], "moto")
    assert answer.text.startswith("the moto emulator answered `ec2 (an answer)`")


def _module_output_plan() -> dict:
    # Captured from terraform 1.11 + aws 3.39 + moto 5.2.5: a customer gateway whose
    # device_name moto drops (it forces replacement), inside a module whose outputs
    # cgw_ids, this_customer_gateway and bgp_asns the root passes on (as
    # terraform-aws-modules/vpc examples/complete does); second plan.
    path = Path(__file__).resolve().parents[1] / "data" / "plan_module_output_gap.json"
    return json.loads(path.read_text())


def _second_plan_findings(raw: dict, *extra: Defect) -> list[Defect]:
    from pytest_converge.analysis.diffs import plan_defects
    from pytest_converge.analysis.plan import parse_plan

    plan = parse_plan(raw)
    found = plan_defects(plan, plan, module="mod") + list(extra)
    mark_emulator_gaps(
        found,
        "moto",
        "5.2.5",
        gaps=AS_RELEASED,
        configuration=raw["configuration"],
        replaced=[c.address for c in plan.changes if c.action == "replace"],
    )
    return found


def test_outputs_built_through_a_module_from_a_suspected_gap_are_suspected_too():
    found = {d.address: d for d in _second_plan_findings(_module_output_plan())}
    gateway = 'module.gw.aws_customer_gateway.this["office"]'
    assert set(found) == {gateway, "output.cgw_ids", "output.this_customer_gateway"}
    assert found[gateway].attribute == "device_name" and found[gateway].emulator_suspected
    for name in ("output.cgw_ids", "output.this_customer_gateway"):
        assert found[name].emulator_suspected, name
        assert found[name].severity == "warning"
        assert found[name].evidence.startswith(
            f"follows from the suspected emulator gap of {gateway} device_name"
        )


def test_an_output_of_an_object_with_an_unexplained_finding_is_not_suspected():
    other = Defect(
        kind="permanent-diff",
        address='module.gw.aws_customer_gateway.this["office"]',
        attribute="bgp_asn",
        declared="65000",
        observed="65001",
    )
    found = {d.address: d for d in _second_plan_findings(_module_output_plan(), other)}
    assert not found["output.cgw_ids"].emulator_suspected  # the bgp_asn diff may cause it
    assert found["output.cgw_ids"].is_error


def test_output_references_follow_module_outputs_and_inputs():
    configuration = {
        "root_module": {
            "outputs": {
                "ids": {"expression": {"references": ["module.net.ids", "module.net"]}},
                "whole": {"expression": {"references": ["module.net"]}},
                "name": {"expression": {"references": ["local.name"]}},
            },
            "module_calls": {
                "net": {
                    "expressions": {
                        "cidr": {
                            "references": ["aws_vpc_ipam_pool.main.cidr", "aws_vpc_ipam_pool.main"]
                        }
                    },
                    "module": {
                        "outputs": {
                            "ids": {
                                "expression": {
                                    "references": [
                                        "aws_subnet.this[0].id",
                                        "aws_subnet.this[0]",
                                        "aws_subnet.this",
                                    ]
                                }
                            },
                            "cidr": {"expression": {"references": ["var.cidr"]}},
                        }
                    },
                }
            },
        }
    }
    from pytest_converge.analysis.gaps import output_references

    assert output_references(configuration, "ids") == {
        "module.net.aws_subnet.this.id",
        "module.net.aws_subnet.this",
    }
    assert output_references(configuration, "whole") == {
        "module.net.aws_subnet.this.id",
        "module.net.aws_subnet.this",
        "aws_vpc_ipam_pool.main.cidr",
        "aws_vpc_ipam_pool.main",
    }
    assert output_references(configuration, "name") == set()
    assert output_references(configuration, "missing") == set()


def test_a_resource_replaced_because_it_is_built_from_a_suspected_object_is_suspected_too():
    # The configuration of terraform-aws-modules/cloudwatch v5.7.2
    # examples/log-group-with-log-stream (terraform 1.11 + aws 5.100.0): wrapper
    # modules, the stream's log_group_name from var.items -> each.value -> the
    # group wrapper's output. moto drops the group's log_group_class, which forces
    # its replacement, and so the stream's on every run (an escape hatch).
    path = Path(__file__).resolve().parents[1] / "data" / "config_log_stream_wrappers.json"
    configuration = json.loads(path.read_text())["configuration"]
    group = 'module.log_group_wrapped.module.wrapper["two"].aws_cloudwatch_log_group.this[0]'
    stream = 'module.log_stream_wrapped.module.wrapper["two"].aws_cloudwatch_log_stream.this[0]'

    def findings() -> list[Defect]:
        return [
            Defect(
                kind="permanent-diff",
                address=group,
                attribute="log_group_class",
                declared="INFREQUENT_ACCESS",
                observed="",
            ),
            Defect(
                kind="escape-hatch",
                address=stream,
                attribute="log_group_name",
                declared="(known after apply)",
                observed="my-log-group-wrapper2-20261201",
            ),
        ]

    found = findings()
    mark_emulator_gaps(
        found, "moto", "5.2.5", gaps=AS_RELEASED, configuration=configuration,
        replaced=[group, stream],
    )  # fmt: skip
    assert all(d.emulator_suspected for d in found)
    assert found[1].severity == "warning"
    assert found[1].evidence.startswith(f"follows from the suspected emulator gap of {group}")
    # Not replaced, the group gives the stream no new name: the escape hatch is the module's.
    kept = findings()
    mark_emulator_gaps(
        kept, "moto", "5.2.5", gaps=AS_RELEASED, configuration=configuration, replaced=[stream]
    )
    assert kept[0].emulator_suspected and not kept[1].emulator_suspected


def test_attribute_references_follow_each_value_to_the_for_each():
    from pytest_converge.analysis.gaps import attribute_references

    path = Path(__file__).resolve().parents[1] / "data" / "config_log_stream_wrappers.json"
    configuration = json.loads(path.read_text())["configuration"]
    stream = 'module.log_stream_wrapped.module.wrapper["two"].aws_cloudwatch_log_stream.this[0]'
    found = attribute_references(configuration, stream, "log_group_name")
    assert "module.log_group_wrapped.module.wrapper.aws_cloudwatch_log_group.this.name" in found
    assert attribute_references(configuration, stream, "no_such_attribute") == set()
    assert attribute_references(configuration, "aws_vpc.missing", "cidr_block") == set()


def test_an_output_that_settles_on_the_third_plan_follows_like_one_that_never_does():
    """vpc v5.21.0 examples/complete: output vpc_endpoints (the whole aws_vpc_endpoint.this
    map, through the module) changes on the second plan only (needs-second-apply)."""
    configuration = {
        "root_module": {
            "outputs": {
                "vpc_endpoints": {
                    "expression": {
                        "references": ["module.vpc_endpoints.endpoints", "module.vpc_endpoints"]
                    }
                }
            },
            "module_calls": {
                "vpc_endpoints": {
                    "module": {
                        "outputs": {
                            "endpoints": {"expression": {"references": ["aws_vpc_endpoint.this"]}}
                        }
                    }
                }
            },
        }
    }
    endpoint = Defect(
        kind="permanent-diff",
        address='module.vpc_endpoints.aws_vpc_endpoint.this["s3"]',
        attribute="dns_options",
        declared=[{"private_dns_only_for_inbound_resolver_endpoint": False}],
        observed=[],
    )
    output = Defect(
        kind="needs-second-apply",
        address="output.vpc_endpoints",
        attribute="vpc_endpoints",
        declared={"s3": {"dns_options": [{}]}},
        observed={"s3": {"dns_options": []}},
    )
    marked = mark_emulator_gaps(
        [endpoint, output], "moto", "5.2.5", gaps=AS_RELEASED, configuration=configuration
    )
    assert marked == [endpoint, output]
    assert output.evidence.startswith("follows from the suspected emulator gap of ")


def test_a_re_run_that_fails_on_a_catalogued_error_is_a_suspected_gap():
    """vpc v3.7.0 examples/ipv6, every lost-response scenario: the re-run waits for the
    subnet's IPv6 association and fails on moto's stringified state."""
    said = (
        "Error waiting for IPv6 CIDR (subnet-3291600ed2767b853) to become associated: "
        "unexpected state '{'State': 'associated'}', wanted target 'associated'."
    )

    def failed(address, observed):
        return Defect(kind="recovery-failed", address=address, observed=observed)

    shipped = AS_RELEASED
    hit = failed("module.vpc.aws_subnet.public[1]", said)
    other_type = failed("module.vpc.aws_route_table.public[0]", said)
    other_error = failed("module.vpc.aws_subnet.public[0]", "InvalidSubnet.Conflict")
    marked = mark_emulator_gaps([hit, other_type, other_error], "moto", "5.2.5", gaps=shipped)
    assert marked == [hit]
    assert hit.emulator_suspected and hit.severity == "warning"
    assert "ipv6_cidr_block" in hit.evidence
    assert not other_type.emulator_suspected and not other_error.emulator_suspected
    strict = failed("aws_subnet.a", said)
    mark_emulator_gaps([strict], "moto", "5.2.5", gaps=shipped, strict=True)
    assert strict.emulator_suspected and strict.is_error


def test_a_catalogue_error_pattern_must_be_a_regular_expression(tmp_path):
    entry = {k: "x" for k in ("emulator", "resource_type", "attribute", "real_api", "evidence")}
    path = tmp_path / "gaps.json"
    path.write_text(json.dumps([{**entry, "errors": ["unbalanced ("]}]))
    with pytest.raises(ValueError, match="not a regular expression"):
        load_catalogue([path])


def test_an_unknown_action_answered_as_a_client_error_is_not_implemented():
    from pytest_converge.analysis.gaps import unimplemented_operation

    body = (
        b'<?xml version="1.0"?><Response><Errors><Error><Code>InvalidAction</Code>'
        b"<Message>Unknown EC2 action: CreateCapacityReservation</Message></Error>"
        b"</Errors></Response>"
    )
    assert unimplemented_operation(400, {}, body)
    refused = body.replace(b"InvalidAction", b"InvalidParameterValue").replace(
        b"Unknown EC2 action: CreateCapacityReservation", b"bad instance type"
    )
    assert not unimplemented_operation(400, {}, refused)


def test_a_placeholder_the_emulator_answered_is_a_suspected_gap() -> None:
    # moto's MSK cluster, as aws 5.100 read it: a configuration nobody gave.
    placeholder = Defect(
        kind="permanent-diff",
        address="aws_msk_cluster.this",
        attribute="configuration_info",
        declared=[],
        observed=[{"arn": "string", "revision": 1}],
        classification="default",
    )
    # A real value, and one a module declared "string" itself: not the emulator's.
    real = Defect(
        kind="permanent-diff",
        address="aws_sqs_queue.q",
        attribute="policy",
        declared="{}",
        observed='{"Version": "2012-10-17"}',
        classification="unknown",
    )
    declared = Defect(
        kind="permanent-diff",
        address="aws_ssm_parameter.p",
        attribute="value",
        declared="string",
        observed="String",
        classification="case",
    )
    marked = mark_emulator_gaps([placeholder, real, declared], "moto", "5.2.6", gaps=[])
    assert marked == [placeholder]
    assert placeholder.emulator_suspected and placeholder.severity == "warning"
    assert "'string'" in placeholder.evidence and "example value" in placeholder.evidence
    assert not real.emulator_suspected and not declared.emulator_suspected
