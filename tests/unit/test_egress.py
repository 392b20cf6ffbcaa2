"""The egress guard (a refusing proxy) and the egress findings built from what it saw."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request

import pytest

from pytest_converge.analysis.defects import KINDS
from pytest_converge.analysis.egress_check import egress_defects, in_flight
from pytest_converge.isolation.egress import Attempt, EgressGuard
from pytest_converge.report import KIND_HELP, load_schema


@pytest.fixture
def guard():
    with EgressGuard() as guard:
        yield guard


def test_https_through_the_guard_is_refused_and_recorded(guard: EgressGuard) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", int(guard.url.rsplit(":", 1)[1]), timeout=5)
    conn.set_tunnel("keybase.io", 443)
    with pytest.raises(OSError, match="403"):
        conn.request("GET", "/_/api/1.0/user/lookup.json")
    [attempt] = guard.take()
    assert (attempt.host, attempt.port, attempt.method) == ("keybase.io", 443, "CONNECT")
    assert guard.take() == []


def test_plain_http_through_the_guard_is_refused_and_recorded(guard: EgressGuard) -> None:
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": guard.url, "https": guard.url})
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        opener.open("http://example.com:8080/key.asc", timeout=5)
    assert info.value.code == 403
    assert b"refused a connection to example.com:8080" in info.value.read()
    assert [(a.host, a.port, a.method) for a in guard.attempts] == [("example.com", 8080, "GET")]


def test_proxy_env_names_the_guard_and_spares_loopback(guard: EgressGuard) -> None:
    env = guard.proxy_env()
    assert env["HTTPS_PROXY"] == env["https_proxy"] == guard.url
    assert env["HTTPS_PROXY"].startswith("http://127.0.0.1:")
    assert set(env["NO_PROXY"].split(",")) == {"127.0.0.1", "localhost", "::1"}


def _event(kind: str, address: str) -> dict:
    return {"type": kind, "hook": {"resource": {"addr": address}}}


TIMELINE = [
    (1.0, _event("apply_start", "aws_iam_user.a")),
    (2.0, _event("apply_complete", "aws_iam_user.a")),
    (2.1, _event("apply_start", "aws_iam_user_login_profile.a")),
    (2.2, _event("apply_start", "aws_s3_bucket.b")),
    (3.0, _event("apply_errored", "aws_iam_user_login_profile.a")),
    (3.5, _event("apply_complete", "aws_s3_bucket.b")),
]


def test_in_flight_addresses_at_a_time() -> None:
    assert in_flight(TIMELINE, 1.5) == ["aws_iam_user.a"]
    assert in_flight(TIMELINE, 2.5) == ["aws_iam_user_login_profile.a", "aws_s3_bucket.b"]
    assert in_flight(TIMELINE, 4.0) == []


def test_an_attempt_is_blamed_on_the_resource_that_failed_among_those_in_flight() -> None:
    attempts = [
        Attempt("keybase.io", 443, "CONNECT", 2.5),
        Attempt("keybase.io", 443, "CONNECT", 2.6),
    ]
    [defect] = egress_defects(attempts, TIMELINE, module="m", scenario="two-run")
    assert defect.kind == "egress" and defect.is_error
    assert defect.address == "aws_iam_user_login_profile.a"
    assert defect.observed == "CONNECT keybase.io:443"
    assert "the module tried to reach keybase.io" in defect.message
    assert "pgp_key" in defect.fix


def test_an_attempt_outside_any_resource_falls_back_to_failed_ones_or_none() -> None:
    [defect] = egress_defects([Attempt("example.com", 80, "GET", 9.0)], TIMELINE)
    assert defect.address == "aws_iam_user_login_profile.a"
    [defect] = egress_defects([Attempt("example.com", 80, "GET", 9.0)], TIMELINE[:2])
    assert defect.address is None and "example.com" in defect.message


def test_an_attempt_ahead_of_its_resources_start_event_is_that_resources() -> None:
    """The first connection of a create can reach the guard before terraform's
    ``apply_start`` reaches the timeline (a loaded machine); the attempts in flight
    name the resource, and no second, unattributed finding is made."""
    timeline = [(2.0, _event("apply_start", "aws_sqs_queue.jobs"))]
    attempts = [Attempt("sqs.us-east-1.amazonaws.com", 443, "CONNECT", t) for t in (1.9, 2.5)]
    [defect] = egress_defects(attempts, timeline)
    assert defect.address == "aws_sqs_queue.jobs"
    # Another host reached outside any resource is still its own finding.
    found = egress_defects([*attempts, Attempt("example.com", 80, "GET", 1.0)], timeline)
    assert sorted((d.observed, d.address) for d in found) == [
        ("CONNECT sqs.us-east-1.amazonaws.com:443", "aws_sqs_queue.jobs"),
        ("GET example.com:80", None),
    ]


def test_defect_kinds_agree_everywhere() -> None:
    schema_kinds = load_schema()["$defs"]["defect"]["properties"]["kind"]["enum"]
    assert list(schema_kinds) == list(KINDS)
    assert set(KIND_HELP) == set(KINDS)
    assert "egress" in KINDS
    json.dumps(KIND_HELP)
