"""Sharing a grouped run's findings out by fault point (pure logic, plain data)."""

from __future__ import annotations

import dataclasses

from pytest_converge.analysis.attribution import attribute, origin_of
from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.state import StateResource
from pytest_converge.errors import Diagnostic, TerraformError
from pytest_converge.faults import parse_fault
from pytest_converge.faults.proxy import Call, answer_tokens, request_tokens
from pytest_converge.inventory import CloudObject
from pytest_converge.plugin.collect.batches import batch_key, point_kind
from pytest_converge.run.matrix import _could_make, _reachable, _resource_of, _targets

VPC = "crash@CreateVpc#1@aws_vpc.a"
MODIFY = "crash@ModifyVpcAttribute#1@aws_vpc.a"
SUBNET = "crash@CreateSubnet#1@aws_subnet.b[0]"


def test_a_finding_goes_to_the_point_on_the_resource_it_names() -> None:
    dup = Defect("duplicate", address="aws_vpc.a")
    failed = Defect("recovery-failed", address="aws_subnet.b[0]")
    found = attribute([dup, failed], {VPC: "aws_vpc.a", SUBNET: "aws_subnet.b[0]"})
    assert found.by_point == {VPC: [dup], SUBNET: [failed]}
    assert found.decided


def test_two_points_on_the_named_resource_are_ambiguous_unless_a_maker_tells() -> None:
    dup = Defect("duplicate", address="aws_vpc.a", objects=["vpc-2"])
    fired = {VPC: "aws_vpc.a", MODIFY: "aws_vpc.a"}
    found = attribute([dup], fired)
    assert found.ambiguous == {VPC, MODIFY} and not found.decided
    # The object was made by the apply the ModifyVpcAttribute crash stopped.
    told = attribute([dup], fired, makers={id(dup): MODIFY})
    assert told.by_point == {VPC: [], MODIFY: [dup]} and told.decided


def test_an_error_no_point_accounts_for_is_unattributed_a_warning_is_everyones() -> None:
    stray = Defect("permanent-diff", address="aws_s3_bucket.c", attribute="acl")
    note = Defect("unverified", observed=["aws_thing"])
    found = attribute([stray, note], {VPC: "aws_vpc.a", SUBNET: "aws_subnet.b[0]"})
    assert found.unattributed == [stray]
    assert found.by_point == {VPC: [note], SUBNET: [note]}


def test_an_orphan_goes_to_the_resource_it_stands_for_in_a_clean_state() -> None:
    clean = [
        StateResource("aws_subnet.b[0]", "aws_subnet", "managed", "subnet-1",
                      {"id": "subnet-1", "cidr_block": "10.0.0.0/24"}),
        StateResource("aws_subnet.b[1]", "aws_subnet", "managed", "subnet-2",
                      {"id": "subnet-2", "cidr_block": "10.0.1.0/24"}),
        StateResource("aws_iam_role.r", "aws_iam_role", "managed", "worker",
                      {"id": "worker", "name": "worker", "arn": "arn:aws:iam::1:role/worker"}),
    ]  # fmt: skip
    subnet = CloudObject("aws_subnet", "subnet-9", attributes={"cidr_block": "10.0.1.0/24"})
    role = CloudObject("aws_iam_role", "worker", name="worker", region="global")
    orphans = [Defect("orphan", objects=["subnet-9"]), Defect("orphan", objects=["worker"])]
    origins = origin_of(orphans, [subnet, role], clean)
    assert origins == {id(orphans[0]): "aws_subnet.b[1]", id(orphans[1]): "aws_iam_role.r"}
    unlike = CloudObject("aws_subnet", "subnet-8", attributes={"cidr_block": "10.9.0.0/24"})
    assert origin_of([Defect("orphan", objects=["subnet-8"])], [unlike], clean) == {}


def test_a_run_can_still_apply_all_but_the_failed_and_what_depends_on_them() -> None:
    def res(address: str, *deps: str) -> StateResource:
        kind = address.rsplit(".", 2)[-2]
        return StateResource(address, kind, "managed", None, dependencies=deps)

    clean = [
        res("module.n.aws_vpc.a"),
        res("module.n.aws_subnet.b[0]", "module.n.aws_vpc.a"),
        res("module.n.aws_subnet.b[1]", "module.n.aws_vpc.a"),
        res("module.n.aws_route_table_association.c[0]", "module.n.aws_subnet.b"),
        res("module.n.aws_nat_gateway.d", "module.n.aws_route_table_association.c"),
        res('aws_s3_bucket.e["x"]'),
    ]
    assert _resource_of('module.m["k.1"].aws_subnet.b[0]') == "module.m.aws_subnet.b"
    assert _targets(clean, {"module.n.aws_subnet.b[0]"}) == [
        "module.n.aws_vpc.a",
        "module.n.aws_subnet.b[1]",  # the failed one's sibling: it depends on nothing failed
        'aws_s3_bucket.e["x"]',
    ]
    # A fault pinned where no target reaches cannot fire: no apply is made for it.
    targets = _targets(clean, {"module.n.aws_subnet.b[0]"})
    on_nat = parse_fault("lost-response@CreateNatGateway#1@module.n.aws_nat_gateway.d")
    on_vpc = parse_fault("lost-response@ModifyVpcAttribute#1@module.n.aws_vpc.a")
    assert not _reachable([on_nat], targets)
    assert _reachable([on_nat, on_vpc], targets)
    assert _reachable([parse_fault("lost-response@CreateTags#2")], targets)  # not pinned


def test_a_batch_is_a_module_and_a_kind_shared_out_when_workers_outnumber_kinds() -> None:
    kinds = ("lost-response", "crash")
    assert point_kind("crash@CreateVpc#1@aws_vpc.a") == "crash"
    assert point_kind("two-run") is None and point_kind("upgrade-crash@X#1") is None
    assert point_kind("drift-delete@aws_vpc.a") is None
    one = batch_key("mods/net::crash@CreateVpc#1@aws_vpc.a", kinds, 2)
    assert one == "mods/net::crash#0"
    assert batch_key("mods/net::two-run", kinds, 2) is None
    shares = {batch_key(f"m::crash@Op#1@aws_x.r{i}", kinds, 4) for i in range(40)}
    assert shares == {"m::crash#0", "m::crash#1"}


def test_an_answer_names_the_objects_it_made() -> None:
    body = b"<CreateVpcResponse><vpc><vpcId>vpc-0a1b2c3d4e</vpcId></vpc></CreateVpcResponse>"
    assert "vpc-0a1b2c3d4e" in answer_tokens(body)
    queue = b'{"QueueUrl":"http://127.0.0.1:4566/123456789012/jobs"}'
    assert "http://127.0.0.1:4566/123456789012/jobs" in answer_tokens(queue)


def test_a_finding_a_run_without_faults_has_is_every_points() -> None:
    from pytest_converge.analysis.attribution import finding_key

    diff = Defect("permanent-diff", address="aws_sqs_queue.q", attribute="policy",
                  classification="json-equivalent")  # fmt: skip
    fired = {VPC: "aws_vpc.a", SUBNET: "aws_subnet.b[0]"}
    assert attribute([diff], fired).unattributed == [diff]
    found = attribute([diff], fired, common={finding_key(diff)})
    assert found.by_point == {VPC: [diff], SUBNET: [diff]} and found.decided


def test_a_failed_rerun_is_a_recovery_failed_per_resource_it_failed_on() -> None:
    from pytest_converge.run.results import ApplyResult
    from pytest_converge.run.scenario import recovery_failures

    def errored(address: str) -> dict:
        return {"type": "apply_errored", "hook": {"resource": {"addr": address}}}

    secret, subnet = "aws_secretsmanager_secret.k", "aws_subnet.a"
    diags = [
        Diagnostic(f"creating secret: ResourceExistsException [{secret}, main.tf:3]", secret),
        Diagnostic(f"subnet: InvalidSubnet.Conflict [{subnet}, main.tf:9]", subnet),
        Diagnostic("Error creating IAM Role w: EntityAlreadyExists"),  # names no resource
    ]
    error = TerraformError("terraform apply", 1, diags, "", "")
    second = ApplyResult(False, error, 1.0, events=[errored(secret), errored(subnet),
                         errored("aws_iam_role.w")])  # fmt: skip
    first = ApplyResult(False, None, 1.0)
    found = {d.address: d.observed for d in recovery_failures("m", "s", first, second)}
    assert set(found) == {secret, subnet, "aws_iam_role.w"}
    # Each holds its own diagnostics only; the unnamed one is the role's (the one left).
    assert "EntityAlreadyExists" in found["aws_iam_role.w"]
    assert "Conflict" not in found[secret]


def _gap_note(operation: str) -> Diagnostic:
    said = f"the moto emulator does not implement `ec2:{operation}` (it answered 500)"
    return Diagnostic(said, service="ec2", operation=operation)


def test_an_emulator_gap_note_goes_to_the_resource_whose_diagnostic_names_its_operation() -> None:
    from pytest_converge.run.results import ApplyResult
    from pytest_converge.run.scenario import recovery_failures

    note = _gap_note("CreateVpcEndpoint")
    endpoint = 'module.e.aws_vpc_endpoint.this["ecs"]'
    diags = [
        note,
        Diagnostic(
            f"creating EC2 VPC Endpoint: operation error EC2: CreateVpcEndpoint, 500 "
            f"[{endpoint}, main.tf:24]",
            endpoint,
            "ec2",
            "CreateVpcEndpoint",
        ),
        Diagnostic("subnet: InvalidSubnet.Conflict [aws_subnet.a, main.tf:9]", "aws_subnet.a"),
    ]
    error = TerraformError("terraform apply", 1, diags, "", "")
    found = recovery_failures(
        "m", "s", ApplyResult(False, None, 1.0), ApplyResult(False, error, 1.0)
    )
    assert {d.address for d in found} == {endpoint, "aws_subnet.a"}
    [owner] = [d for d in found if d.address == endpoint]
    assert owner.observed.startswith(note.text)


def test_a_note_goes_by_the_operation_its_record_holds_not_by_its_words() -> None:
    from pytest_converge.run.results import ApplyResult
    from pytest_converge.run.scenario import recovery_failures

    vpc, endpoint = "aws_vpc.main", "aws_vpc_endpoint.s3"
    diags = [
        _gap_note("CreateVpc"),  # not the endpoint's, whose operation's name contains it
        Diagnostic("unknown service, reworded [aws_vpc.main]", vpc, "ec2", "CreateVpc"),
        Diagnostic("operation error EC2: CreateVpcEndpoint", endpoint, "ec2", "CreateVpcEndpoint"),
        Diagnostic("a note of no call"),
    ]
    error = TerraformError("terraform apply", 1, diags, "", "")
    found = recovery_failures(
        "m", "s", ApplyResult(False, None, 1.0), ApplyResult(False, error, 1.0)
    )
    by_address = {d.address: d.observed for d in found}
    assert set(by_address) == {vpc, endpoint, None}
    assert by_address[vpc].startswith("the moto emulator does not implement `ec2:CreateVpc`")
    assert "does not implement" not in by_address[endpoint]
    assert by_address[None] == "a note of no call"


def test_a_warning_on_a_resource_two_points_are_on_is_each_ones() -> None:
    drift = Defect("drift", address="aws_vpc.a")
    found = attribute([drift], {VPC: "aws_vpc.a", MODIFY: "aws_vpc.a"})
    assert found.decided and found.by_point == {VPC: [drift], MODIFY: [drift]}


def test_an_orphan_whose_id_another_type_shares_goes_to_its_own_types_resource() -> None:
    clean = [
        StateResource("aws_elasticache_subnet_group.e", "aws_elasticache_subnet_group", "managed",
                      "ex-complete", {"id": "ex-complete", "name": "ex-complete"}),
        StateResource("aws_redshift_subnet_group.r", "aws_redshift_subnet_group", "managed",
                      "ex-complete", {"id": "ex-complete", "name": "ex-complete"}),
    ]  # fmt: skip
    cache = CloudObject("aws_elasticache_subnet_group", "ex-complete", name="ex-complete")
    redshift = CloudObject("aws_redshift_subnet_group", "ex-complete", name="ex-complete")
    orphan = Defect(
        "orphan",
        objects=["ex-complete"],
        message="aws_elasticache_subnet_group ex-complete in eu-west-1 was created ...",
    )
    assert origin_of([orphan], [cache, redshift], clean) == {
        id(orphan): "aws_elasticache_subnet_group.e"
    }
    assert origin_of([orphan], [redshift, cache], clean) == {
        id(orphan): "aws_elasticache_subnet_group.e"
    }


def test_a_create_whose_answer_names_nothing_made_what_its_request_named() -> None:
    name = "/aws/vpc-flow-log/vpc-0a1b2c3d4e"
    requested = request_tokens(f'{{"logGroupName": "{name}"}}'.encode(), "/")
    assert name in requested
    at = "aws_cloudwatch_log_group.flow_log[0]"
    call = Call(1, "logs", "CreateLogGroup", 1, "POST", "/", 200, None, 0.0, 0.0, None, True,
                True, requested=requested, address=at)  # fmt: skip
    group = CloudObject("aws_cloudwatch_log_group", name, name=name)
    assert _could_make(call, name, group)
    # The flow log's call names the group too, but it makes a flow log.
    assert not _could_make(dataclasses.replace(call, address="aws_flow_log.this[0]"), name, group)
    assert not _could_make(dataclasses.replace(call, requested=frozenset()), name, group)


def test_a_note_of_a_located_call_goes_to_its_resource_whatever_the_sdk_said() -> None:
    from pytest_converge.run.results import ApplyResult
    from pytest_converge.run.scenario import recovery_failures

    rule = "aws_security_group_rule.office"
    note = Diagnostic("suspected emulator gap: ...", rule, "ec2", "AuthorizeSecurityGroupIngress")
    diags = [
        note,
        Diagnostic("subnet: InvalidSubnet.Conflict", "aws_subnet.a"),
        Diagnostic("Error authorizing security group rule: InvalidParameterValue", rule),  # v1
    ]
    error = TerraformError("terraform apply", 1, diags, "", "")
    found = recovery_failures(
        "m", "s", ApplyResult(False, None, 1.0), ApplyResult(False, error, 1.0)
    )
    assert {d.address: d.observed.startswith(note.text) for d in found} == {
        rule: True,
        "aws_subnet.a": False,
    }


def test_a_finding_shared_out_to_a_point_names_that_point() -> None:
    from pytest_converge.analysis.leftovers import unverified_defect
    from pytest_converge.run.scenario import recovery_failed

    group = "crash@{CreateVpc#1@aws_vpc.a, CreateSubnet#1@aws_subnet.b[0]}"
    point = "crash@CreateVpc#1@aws_vpc.a"
    failed = recovery_failed("m", group, "aws_vpc.a", [Diagnostic("after x")], None)
    own = failed.for_scenario(point)
    assert own.message == f"after {point} the clean re-run failed: after x"
    assert (own.scenario, failed.scenario) == (point, group) and own.objects is not failed.objects
    unlisted = unverified_defect(["aws_x"], scenario=group).for_scenario(point)
    assert f"of this type after {point} were not looked for" in unlisted.message
    # A message that does not name its scenario is the same for every point.
    diff = Defect("drift", address="aws_vpc.a", scenario=group, message=f"{group} drifted")
    assert diff.for_scenario(point).message == f"{group} drifted"
    assert "scenario_at" not in failed.to_dict()


def test_a_taken_name_while_replacing_a_tainted_object_says_untaint_not_import() -> None:
    """The faulted create failed after the object existed (state holds it tainted); the
    re-run's replacement, made first (create_before_destroy), meets its name: no object
    is out of state, so adopting one is not the fix."""
    from pytest_converge.run.results import ApplyResult
    from pytest_converge.run.scenario import recovery_failures

    group = "module.efs.aws_security_group.this[0]"
    said = f"creating Security Group (efs): InvalidGroup.Duplicate [{group}, main.tf:3]"
    error = TerraformError("terraform apply", 1, [Diagnostic(said, group)], "", "")
    replacing = {
        "type": "planned_change",
        "change": {"resource": {"addr": group}, "action": "replace", "reason": "tainted"},
    }
    first = ApplyResult(False, None, 1.0)
    [found] = recovery_failures("m", "s", first, ApplyResult(False, error, 1.0, events=[replacing]))
    assert "state holds it tainted" in found.why
    assert f"`terraform untaint {group}`" in found.fix and "import" not in found.fix
    # Not replacing (the object was never recorded): no untaint.
    error_run = ApplyResult(False, error, 1.0)
    [created] = recovery_failures("m", "s", first, error_run)
    assert "untaint" not in created.fix and "tainted" not in created.why
    # The why says how the fault kept the object out of state, by the scenario's kind.
    lost = f"lost-response@CreateSecurityGroup#1@{group}"
    [answer] = recovery_failures("m", lost, first, ApplyResult(False, error, 1.0))
    assert "answer was lost" in answer.why and "died" not in answer.why
    [killed] = recovery_failures("m", f"crash@CreateSecurityGroup#1@{group}", first, error_run)
    assert "died" in killed.why
