"""Stall detection over the proxy's call log and the egress guard's refusals (plain data)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.gaps import Gap
from pytest_converge.analysis.stalls import (
    StallLimits,
    answer_digest,
    error_code,
    find_stall,
    request_digest,
    retried_egress,
    stall_defect,
)

LIMITS = StallLimits(repeats=3, seconds=20.0)
#: The entries the fidelity layer retired: the gaps moto as released meets (its waits).
AS_RELEASED = [Path(__file__).parents[1] / "data" / "moto_as_released_gaps.json"]


@dataclass
class C:
    """A call as the proxy records it (the fields stall detection reads)."""

    operation: str
    started: float
    answer: str = "same"
    status: int = 200
    request: str = "r1"
    service: str = "dynamodb"
    mutating: bool = False
    fault: str | None = None
    method: str = "POST"
    path: str = "/"
    error_code: str | None = None

    @property
    def request_digest(self) -> str:
        return self.request

    @property
    def answer_digest(self) -> str:
        return self.answer


@dataclass(frozen=True)
class Refusal:
    host: str
    at: float
    port: int = 443
    method: str = "CONNECT"


def polls(op: str, times: list[float], **kw: object) -> list[C]:
    return [C(op, t, **kw) for t in times]  # type: ignore[arg-type]


# provider 3.39's backoff against an unchanging DescribeTable (measured on moto 5.2.5)
BACKOFF = [4.4, 4.6, 5.0, 5.8, 7.4, 10.6, 17.1, 27.1, 37.1]


def test_a_waiter_polling_an_unchanged_answer_is_stalled_after_the_limits():
    created = C("CreateTable", 4.3, mutating=True, answer="created")
    calls = [created, *polls("DescribeTable", BACKOFF)]
    stall = find_stall(calls[:7], limits=LIMITS)
    assert stall is None  # 6.2 s of identical answers: a wait, not yet a stall
    stall = find_stall(calls[:9], limits=LIMITS)
    assert stall is not None
    assert (stall.kind, stall.target, stall.times) == ("emulator-gap", "dynamodb:DescribeTable", 8)
    assert stall.seconds == pytest.approx(22.7)
    assert stall.polling
    text = stall.describe("aws_dynamodb_table.t.replica")
    assert text.startswith("emulator gap: dynamodb:DescribeTable answered the same (HTTP 200")
    assert "8 times in 23 s (polling a waiter for aws_dynamodb_table.t.replica)" in text


def test_an_answer_that_changes_is_a_resource_progressing_never_a_stall():
    # pending ... pending -> available, over a minute: a real wait
    times = [float(t) for t in range(0, 70, 5)]
    calls = [C("DescribeDBInstances", t, answer="pending") for t in times[:-1]]
    calls.append(C("DescribeDBInstances", times[-1], answer="available"))
    assert find_stall(calls, limits=LIMITS) is None
    # ... and another resource progressing resets every other request's count too
    calls = polls("DescribeTable", BACKOFF)
    calls += [C("DescribeVpcs", 20.0, answer="pending", service="ec2", request="v")]
    calls += [C("DescribeVpcs", 30.0, answer="available", service="ec2", request="v")]
    assert find_stall(calls, limits=LIMITS) is None


def test_progress_resets_the_count_and_other_requests_are_other_keys():
    calls = polls("DescribeTable", BACKOFF)
    assert find_stall(calls, progress=[20.0], limits=LIMITS) is None  # an apply_complete
    mutated = [*calls, C("CreateQueue", 21.0, service="sqs", mutating=True, answer="q")]
    assert find_stall(sorted(mutated, key=lambda c: c.started), limits=LIMITS) is None
    # the same operation with another request body is another request
    spread = [C("DescribeTable", t, request=f"r{i}") for i, t in enumerate(BACKOFF)]
    assert find_stall(spread, limits=LIMITS) is None


def test_a_failing_call_retried_is_a_stall_that_says_so():
    calls = polls(
        "DescribeSubnets", [0, 8, 16, 24], service="ec2", status=500, error_code="InternalError"
    )
    stall = find_stall(calls, limits=LIMITS)
    assert stall is not None and not stall.polling
    assert stall.answer == "HTTP 500 InternalError"
    assert "(retrying a failing call)" in stall.describe()


def test_faulted_and_dropped_answers_are_ours_not_the_emulators():
    throttled = "throttle@CreateVpc#1"
    calls = polls("CreateVpc", [0, 10, 20, 30], service="ec2", status=400, fault=throttled)
    assert find_stall(calls, limits=LIMITS) is None
    assert find_stall(polls("CreateVpc", [0, 10, 20, 30], status=0), limits=LIMITS) is None


def test_a_refused_host_retried_is_refused_egress():
    refused = [Refusal("sts.us-east-1.amazonaws.com", t) for t in (1.0, 3.0, 9.0, 22.0)]
    stall = find_stall([], refused, limits=LIMITS)
    assert stall is not None
    assert (stall.kind, stall.target, stall.times) == (
        "refused-egress",
        "sts.us-east-1.amazonaws.com:443",
        4,
    )
    assert stall.describe().startswith(
        "refused egress to sts.us-east-1.amazonaws.com:443: the provider kept retrying a call "
        "the egress guard refused (4 times in 21 s)"
    )
    # one refused fetch (a keybase key) is an egress finding, not a stall
    assert find_stall([], refused[:1], limits=LIMITS) is None


def test_the_stalled_finding_names_operation_attribute_and_is_a_suspected_gap():
    stall = find_stall(polls("DescribeTable", BACKOFF), limits=LIMITS)
    assert stall is not None
    gap = Gap(
        "moto",
        "aws_dynamodb_table",
        "replica",
        "UpdateTable ReplicaUpdates creates the replica; DescribeTable lists it",
        "reproduced by ...",
    )
    unrelated = Gap("moto", "aws_dynamodb_table", "ttl", "TTL is kept", "by ...")
    found = stall_defect(
        stall, "terraform apply", 31.0, ["aws_dynamodb_table.t"], [unrelated, gap], module="m"
    )
    assert (found.kind, found.address, found.attribute) == (
        "stalled",
        "aws_dynamodb_table.t",
        "replica",
    )
    assert found.emulator_suspected and found.severity == "warning"
    assert "polling a waiter for aws_dynamodb_table.t.replica" in found.message
    assert "stopped `terraform apply` 31 s after it started" in found.message
    assert found.evidence.startswith("known moto gap")
    strict = stall_defect(stall, "terraform apply", 31.0, [], [], strict=True)
    assert strict.is_error and strict.emulator_suspected and strict.attribute is None
    assert "answered dynamodb:DescribeTable the same way 9 times over 33 s" in strict.evidence


def test_a_waiter_stall_names_the_gap_the_provider_polls_for():
    """Several catalogued aws_subnet gaps name DescribeSubnets; a waiter polling an
    unchanged answer is the one whose entry says the provider polls for it
    (vpc v5.21.0 examples/network-acls: enable_dns64, not ipv6_cidr_block)."""
    from pytest_converge.analysis.gaps import load_catalogue

    stall = find_stall(polls("DescribeSubnets", BACKOFF, service="ec2"), limits=LIMITS)
    assert stall is not None and stall.polling
    subnet = "module.vpc.aws_subnet.elasticache[2]"
    found = stall_defect(stall, "terraform apply", 139.0, [subnet], load_catalogue(AS_RELEASED))
    assert found.attribute == "enable_dns64", found.evidence
    assert f"polling a waiter for {subnet}.enable_dns64" in found.message


def test_a_refused_retry_loop_is_told_on_the_egress_finding_with_the_provider_fix():
    refused = [Refusal("sts.us-east-1.amazonaws.com", t) for t in (0, 12, 24)]
    stall = find_stall([], refused, limits=LIMITS)
    assert stall is not None
    egress = [
        Defect(kind="egress", observed="CONNECT sts.us-east-1.amazonaws.com:443"),
        Defect(kind="egress", observed="CONNECT keybase.io:443", fix="keybase fix"),
    ]
    assert retried_egress(egress, stall, "terraform apply", 30.0)
    assert "kept retrying it (3 refused connections in 24 s)" in egress[0].message
    assert "real AWS endpoint" in egress[0].fix and 'provider "aws"' in egress[0].fix
    assert egress[1].fix == "keybase fix" and not egress[1].message
    assert not retried_egress(egress[1:], stall, "terraform apply", 30.0)


def test_digests_ignore_request_ids_and_error_codes_are_read():
    a = b"<DescribeVpcsResponse><requestId>7a62c49f-347e-4fc7-9331-6e8eEXAMPLE</requestId><x/>"
    b = b"<DescribeVpcsResponse><requestId>11111111-2222-3333-4444-555555555555</requestId><x/>"
    assert answer_digest(200, a) == answer_digest(200, b)
    assert answer_digest(200, a) != answer_digest(500, a)
    assert answer_digest(200, b'{"Table": {"TableStatus": "ACTIVE"}}') != answer_digest(
        200, b'{"Table": {"TableStatus": "UPDATING"}}'
    )
    assert request_digest("POST", "/", b"Action=DescribeVpcs") != request_digest(
        "POST", "/", b"Action=DescribeSubnets"
    )
    assert error_code(400, b'{"__type": "com.amazonaws.dynamodb#ResourceNotFoundException"}') == (
        "ResourceNotFoundException"
    )
    assert error_code(500, b"<Response><Errors><Error><Code>InternalError</Code>") == (
        "InternalError"
    )
    assert error_code(200, b"<Code>x</Code>") is None
    assert error_code(500, b"<html>oops</html>") is None


def test_the_default_limits_let_a_wait_for_six_unchanged_answers_finish():
    """aws 5.x's SQS queue waiter wants the attributes it set read back unchanged 6
    times, 5 s apart (measured on 5.100.0): a deliberate wait, not a stall."""
    from pytest_converge.analysis.stalls import STALL_LIMITS

    created = C("CreateQueue", 0.0, service="sqs", mutating=True, answer="url")
    waiter = polls("GetQueueAttributes", [0.0, 5.0, 10.1, 15.1, 20.1, 25.1], service="sqs")
    assert find_stall([created, *waiter]) is None
    # ... the same answer for 35 s more is one
    more = polls("GetQueueAttributes", [30.1, 35.1], service="sqs")
    stall = find_stall([created, *waiter, *more])
    assert stall is not None and stall.seconds >= STALL_LIMITS.seconds


def test_a_catalogued_wait_of_the_one_resource_of_its_service_is_known_sooner():
    """The known limits find the stall after 15 s; the catalogue must explain it for the
    resource that polls (the one of the call's service in flight), or it waits its 35 s."""
    from pytest_converge.analysis.gaps import load_catalogue
    from pytest_converge.analysis.stalls import KNOWN_WAIT_LIMITS, STALL_LIMITS, catalogued_wait

    gaps = load_catalogue(AS_RELEASED)
    early = find_stall(polls("DescribeTable", BACKOFF[:8]), limits=KNOWN_WAIT_LIMITS)
    assert early is not None and early.seconds < STALL_LIMITS.seconds
    assert find_stall(polls("DescribeTable", BACKOFF[:8])) is None  # not yet with the defaults
    known = catalogued_wait(early, "aws_dynamodb_table.global", gaps)
    assert known is not None and known.attribute == "replica"
    # Not known: several resources could have made the call, another type, no gap, a retry.
    assert catalogued_wait(early, None, gaps) is None
    assert catalogued_wait(early, "aws_sqs_queue.jobs", gaps) is None
    assert catalogued_wait(early, "aws_dynamodb_table.global", []) is None
    failing = find_stall(polls("DescribeTable", BACKOFF, status=500), limits=KNOWN_WAIT_LIMITS)
    assert failing is not None and not failing.polling
    assert catalogued_wait(failing, "aws_dynamodb_table.global", gaps) is None


def test_an_sqs_queues_own_wait_is_never_cut_short_by_a_catalogued_neighbour():
    """aws 5.x: a queue waits for six unchanged answers while a redrive allow policy (a
    catalogued gap) is in flight too: the call's owner is not one resource, so no early stop."""
    from pytest_converge.analysis.gaps import load_catalogue
    from pytest_converge.analysis.stalls import KNOWN_WAIT_LIMITS, catalogued_wait
    from pytest_converge.faults.locate import applying_for

    waiter = polls("GetQueueAttributes", [0.0, 5.0, 10.1, 15.1, 20.1], service="sqs")
    early = find_stall(waiter, limits=KNOWN_WAIT_LIMITS)
    assert early is not None
    both = ["aws_sqs_queue.dlq", "aws_sqs_queue_redrive_allow_policy.dlq"]
    assert applying_for(both, "sqs") is None
    assert catalogued_wait(early, applying_for(both, "sqs"), load_catalogue(AS_RELEASED)) is None
    alone = applying_for(["aws_sqs_queue_redrive_allow_policy.dlq"], "sqs")
    assert catalogued_wait(early, alone, load_catalogue(AS_RELEASED)) is not None


def test_the_stall_is_told_on_the_resource_whose_catalogued_gap_explains_it():
    """sqs v4.3.1 examples/complete on aws 5.x: a queue policy (its own deliberate
    wait) started before the redrive allow policy moto never reads back; the finding is the
    redrive allow policy's, whatever order they started in."""
    from pytest_converge.analysis.gaps import load_catalogue
    from pytest_converge.run.watch import stall_owner

    stall = find_stall(polls("GetQueueAttributes", BACKOFF, service="sqs"), limits=LIMITS)
    assert stall is not None
    gaps = load_catalogue(AS_RELEASED)
    policy = "module.sqs_with_dlq.aws_sqs_queue_policy.this[0]"
    allow = "module.fifo_sqs.aws_sqs_queue_redrive_allow_policy.dlq[0]"
    assert stall_owner([policy, allow], stall, gaps) == allow
    assert stall_owner([allow, policy], stall, gaps) == allow
    assert stall_owner([policy], stall, gaps) == policy  # the only one of its service
    assert stall_owner([policy, "aws_sqs_queue.other"], stall, gaps) is None


def test_a_plan_after_a_cut_keeps_only_what_the_apply_finished() -> None:
    from pytest_converge.analysis.plan import UNKNOWN, OutputChange, Plan, ResourceChange
    from pytest_converge.analysis.stalls import split_after_cut

    def change(address: str, *actions: str) -> ResourceChange:
        kind, _, name = address.partition(".")
        return ResourceChange(address, kind, name, "managed", "aws", actions, None, {})

    plan = Plan(
        [
            change("aws_dynamodb_table.t", "create"),  # in flight at the cut, not in state
            change("aws_sqs_queue.q", "create"),  # never reached
            change("aws_security_group.s", "update"),  # finished: checked
            change("aws_s3_bucket.b", "create"),  # never reached either
            # a read deferred to apply: it waits on the table the cut left unmade
            replace(
                change("data.aws_iam_policy_document.p", "read"),
                type="aws_iam_policy_document",
                name="p",
                mode="data",
                action_reason="read_because_config_unknown",
            ),
        ],
        [
            OutputChange("queue", ("create",), None, UNKNOWN),
            OutputChange("n", ("update",), 1, 2),
            # try(validation.arn, certificate.arn): known now, never written by the cut apply
            OutputChange("arn", ("create",), None, "arn:aws:acm:::certificate/1"),
        ],
        [],
    )
    after = split_after_cut(plan, ["aws_dynamodb_table.t"], ["aws_security_group.s"])
    assert [rc.address for rc in after.checked.changes] == ["aws_security_group.s"]
    assert [o.name for o in after.checked.outputs] == ["n"]  # an unknown value waits on the cut
    assert after.unwritten == ["arn"]
    assert [rc.address for rc in after.cut] == ["aws_dynamodb_table.t"]
    assert after.unreached == [
        "aws_sqs_queue.q",
        "aws_s3_bucket.b",
        "data.aws_iam_policy_document.p",
    ]
    assert after.note() == (
        "After the cut, the second plan creates aws_dynamodb_table.t (cut mid-apply: part of "
        "this finding); 3 resource(s) the apply never reached were not checked: "
        "aws_sqs_queue.q, aws_s3_bucket.b, data.aws_iam_policy_document.p; 1 output(s) the "
        "cut apply never wrote were not checked: arn; the second plan and the inventory "
        "checked everything else."
    )


# -- a wait in silence ---------------------------------------------------------------------


def test_a_wait_with_no_call_at_all_is_cut_and_named():
    from pytest_converge.analysis.stalls import find_silence

    limits = StallLimits(repeats=3, seconds=20.0, silence=60.0)
    calls = [C("CreateReplicationGroup", 5.0, mutating=True, service="elasticache")]
    waiting = ["aws_elasticache_replication_group.this"]
    # Repeats nothing, so find_stall never sees it.
    assert find_stall(calls, (), (), limits) is None
    assert find_silence(calls, (), waiting, now=60.0, since=0.0, limits=limits) is None
    stall = find_silence(calls, (), waiting, now=70.0, since=0.0, limits=limits)
    assert stall is not None and stall.seconds == 65.0
    assert stall.target == "elasticache:CreateReplicationGroup"
    defect = stall_defect(stall, "terraform apply", 70.0, waiting)
    assert defect.kind == "stalled" and defect.address == waiting[0]
    assert defect.message.startswith(
        "silent wait: no API call and nothing completed for 65 s while "
        "aws_elasticache_replication_group.this was being applied"
    ), defect.message
    assert "its last call, elasticache:CreateReplicationGroup" in defect.message
    assert "stopped `terraform apply` 70 s after it started" in defect.message
    assert defect.severity == "warning"


def test_progress_a_pending_call_or_nothing_in_flight_is_no_silent_wait():
    from pytest_converge.analysis.stalls import find_silence

    limits = StallLimits(silence=60.0)
    waiting = ["aws_instance.web"]
    assert find_silence([], [50.0], waiting, now=100.0, since=0.0, limits=limits) is None
    assert find_silence([], [], waiting, now=100.0, since=0.0, limits=limits, pending=1) is None
    assert find_silence([], [], [], now=100.0, since=0.0, limits=limits) is None
    sleeping = ["time_sleep.iam"]  # waits on purpose, not on the emulator
    assert find_silence([], [], sleeping, now=100.0, since=0.0, limits=limits) is None
    quiet = find_silence([], [], waiting, now=100.0, since=0.0, limits=limits)
    assert quiet is not None and quiet.target == ""


def test_the_providers_own_sleep_is_known_and_named():
    from pytest_converge.analysis.stalls import (
        KNOWN_WAIT_LIMITS,
        STALL_LIMITS,
        find_silence,
        provider_sleep,
    )

    # aws 5.x sleeps 10 minutes after CreateDomain before its first DescribeDomain.
    calls = [C("CreateDomain", 5.0, mutating=True, service="es")]
    domain = ["module.search.aws_opensearch_domain.this[0]"]
    assert KNOWN_WAIT_LIMITS.silence < STALL_LIMITS.silence
    assert find_silence(calls, (), domain, now=21.0, since=0.0, limits=STALL_LIMITS) is None
    early = find_silence(calls, (), domain, now=21.0, since=0.0, limits=KNOWN_WAIT_LIMITS)
    assert early is not None and early.target == "es:CreateDomain"
    assert provider_sleep(early, domain) == ("aws_opensearch_domain", 600.0)
    defect = stall_defect(early, "terraform apply", 60.0, domain)
    assert defect.kind == "stalled" and defect.address == domain[0]
    assert defect.severity == "warning" and defect.observed == "no API call for 16 s"
    assert (
        "(the aws provider sleeps 600 s after es:CreateDomain before it first reads an "
        "aws_opensearch_domain, on every backend: stopped once nothing else was in flight)"
    ) in defect.message
    assert defect.fix.startswith("no backend shortens the provider's own sleep")
    # Another resource in flight may be in a shorter wait of its own: not cut early.
    both = [*domain, "aws_route53_record.www"]
    assert provider_sleep(early, both) is None
    # Another last call, or a resource type that does not sleep: not the provider's sleep.
    other = find_silence(
        [C("CreateReplicationGroup", 5.0, mutating=True, service="elasticache")],
        (),
        domain,
        now=21.0,
        since=0.0,
        limits=KNOWN_WAIT_LIMITS,
    )
    assert other is not None and provider_sleep(other, domain) is None
    assert provider_sleep(early, ["aws_elasticache_replication_group.this"]) is None
    plain = stall_defect(other, "terraform apply", 60.0, domain)
    assert "the aws provider sleeps" not in plain.message
    assert plain.fix.startswith("if module.search.aws_opensearch_domain.this[0] waits for")


def test_a_resource_running_its_provisioner_is_not_waiting_on_the_emulator():
    from pytest_converge.analysis.stalls import provisioning

    def event(kind, address):
        return (1.0, {"type": kind, "hook": {"resource": {"addr": address}}})

    timeline = [
        event("provision_start", "aws_instance.a"),
        event("provision_start", "aws_instance.b"),
        event("provision_complete", "aws_instance.b"),
    ]
    assert provisioning(timeline) == {"aws_instance.a"}
