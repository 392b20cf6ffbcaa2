"""The fault proxy between boto3 and a real in-process moto: recording, faults, bodies, threads."""

from __future__ import annotations

import hashlib
import http.client
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
import botocore.exceptions
import pytest
from botocore.config import Config

from pytest_converge.emulator import FAKE_ACCESS_KEY, FAKE_SECRET_KEY, MotoEmulator
from pytest_converge.errors import FaultError
from pytest_converge.faults import (
    ApiError,
    Crash,
    Interrupt,
    LostResponse,
    Proxy,
    Throttle,
    parse_fault,
)

NO_RETRIES = {"total_max_attempts": 1}


@pytest.fixture(scope="session")
def moto() -> Iterator[MotoEmulator]:
    emulator = MotoEmulator()
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture
def proxy(moto: MotoEmulator) -> Iterator[Proxy]:
    moto.reset()
    with Proxy(upstream=moto.endpoint) as running:
        yield running


def client(endpoint: str, service: str, retries: dict[str, Any] | None = None) -> Any:
    """A boto3 client with the fake credentials, pointed at ``endpoint``."""
    return boto3.session.Session(
        aws_access_key_id=FAKE_ACCESS_KEY,
        aws_secret_access_key=FAKE_SECRET_KEY,
        region_name="us-east-1",
    ).client(
        service,
        endpoint_url=endpoint,
        config=Config(
            retries=retries or NO_RETRIES,
            s3={"addressing_style": "path"},
            connect_timeout=5,
            read_timeout=30,
        ),
    )


def vpc_ids(moto: MotoEmulator) -> set[str]:
    return {v["VpcId"] for v in moto.client("ec2").describe_vpcs()["Vpcs"]}


def error_code(info: pytest.ExceptionInfo[botocore.exceptions.ClientError]) -> str:
    return info.value.response["Error"]["Code"]


def test_records_operations_occurrences_and_access_keys(proxy: Proxy) -> None:
    sts = client(proxy.endpoint, "sts")
    ec2 = client(proxy.endpoint, "ec2")
    sts.get_caller_identity()
    ec2.describe_vpcs()
    sts.get_caller_identity()
    ec2.create_vpc(CidrBlock="10.1.0.0/16")

    calls = proxy.calls
    assert [(c.service, c.label) for c in calls] == [
        ("sts", "GetCallerIdentity#1"),
        ("ec2", "DescribeVpcs#1"),
        ("sts", "GetCallerIdentity#2"),
        ("ec2", "CreateVpc#1"),
    ]
    assert [c.seq for c in calls] == [1, 2, 3, 4]
    assert all(c.access_key == FAKE_ACCESS_KEY for c in calls)
    assert all(c.status == 200 and c.upstream_status == 200 and c.forwarded for c in calls)
    assert all(c.fault is None and c.method == "POST" and c.path == "/" for c in calls)
    assert [c.mutating for c in calls] == [False, False, False, True]
    assert all(c.duration > 0 for c in calls)
    assert calls[0].started <= calls[1].started <= calls[2].started <= calls[3].started

    proxy.clear()
    assert proxy.calls == []
    sts.get_caller_identity()
    assert [c.label for c in proxy.calls] == ["GetCallerIdentity#1"]
    assert proxy.calls[0].seq == 1


def test_calls_is_a_copy(proxy: Proxy) -> None:
    client(proxy.endpoint, "sts").get_caller_identity()
    proxy.calls[0].status = 999
    proxy.calls.clear()
    assert proxy.calls[0].status == 200


def test_error_is_answered_by_the_proxy_and_never_reaches_the_emulator(
    proxy: Proxy, moto: MotoEmulator
) -> None:
    before = vpc_ids(moto)
    proxy.arm([ApiError("CreateVpc")])
    with pytest.raises(botocore.exceptions.ClientError) as info:
        client(proxy.endpoint, "ec2").create_vpc(CidrBlock="10.2.0.0/16")
    assert error_code(info) == "InternalError"
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    assert vpc_ids(moto) == before
    (call,) = proxy.calls
    assert (call.label, call.status, call.forwarded, call.fault) == (
        "CreateVpc#1",
        500,
        False,
        "error@CreateVpc#1",
    )
    assert call.upstream_status is None
    assert proxy.disarm() == []
    assert proxy.fired == [ApiError("CreateVpc")]


def test_error_with_a_custom_status_and_code(proxy: Proxy) -> None:
    proxy.arm([ApiError("GetCallerIdentity", status=403, code="AccessDenied")])
    with pytest.raises(botocore.exceptions.ClientError) as info:
        client(proxy.endpoint, "sts").get_caller_identity()
    assert error_code(info) == "AccessDenied"
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403


def test_a_call_the_emulator_refuses_keeps_its_parameters_and_message(proxy: Proxy) -> None:
    ssm = client(proxy.endpoint, "ssm")
    with pytest.raises(botocore.exceptions.ClientError):
        ssm.create_document(
            Name="freeze", Content="BEGIN:VCALENDAR", DocumentType="ChangeCalendar",
            DocumentFormat="TEXT",
        )  # fmt: skip
    proxy.arm([ApiError("PutParameter", status=400, code="ValidationException")])
    with pytest.raises(botocore.exceptions.ClientError):
        ssm.put_parameter(Name="/refused/by/a/fault", Value="v", Type="String")
    ssm.put_parameter(Name="/kept", Value="v", Type="String")
    refused, faulted, answered = proxy.calls
    assert refused.refused and refused.error_code == "ValidationException"
    assert refused.error_message == "Invalid document format TEXT"
    assert refused.parameters["DocumentFormat"] == "TEXT"
    for call in (faulted, answered):  # a fault's answer, a success: nothing kept
        assert not call.refused and call.parameters == {} and call.error_message == ""


def test_lost_response_reaches_the_emulator_but_the_client_sees_500(
    proxy: Proxy, moto: MotoEmulator
) -> None:
    before = vpc_ids(moto)
    proxy.arm([LostResponse("CreateVpc")])
    with pytest.raises(botocore.exceptions.ClientError) as info:
        client(proxy.endpoint, "ec2").create_vpc(CidrBlock="10.3.0.0/16")
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    assert error_code(info) == "InternalError"
    assert len(vpc_ids(moto) - before) == 1  # created, and the client does not know
    (call,) = proxy.calls
    assert (call.status, call.upstream_status, call.forwarded) == (500, 200, True)


def test_lost_response_then_sdk_retry_creates_a_duplicate(proxy: Proxy, moto: MotoEmulator) -> None:
    # The orphan a retrying SDK leaves behind: the behaviour the plugin must catch.
    before = vpc_ids(moto)
    proxy.arm([LostResponse("CreateVpc")])
    ec2 = client(proxy.endpoint, "ec2", retries={"mode": "standard", "total_max_attempts": 3})
    ec2.create_vpc(CidrBlock="10.4.0.0/16")
    assert len(vpc_ids(moto) - before) == 2
    assert [(c.label, c.status) for c in proxy.calls] == [
        ("CreateVpc#1", 500),
        ("CreateVpc#2", 200),
    ]


def test_throttle_then_success_with_sdk_retries(proxy: Proxy, moto: MotoEmulator) -> None:
    before = vpc_ids(moto)
    proxy.arm([Throttle("CreateVpc", times=2)])
    ec2 = client(proxy.endpoint, "ec2", retries={"mode": "standard", "total_max_attempts": 5})
    ec2.create_vpc(CidrBlock="10.5.0.0/16")
    assert len(vpc_ids(moto) - before) == 1
    assert [(c.label, c.status, c.forwarded, c.fault) for c in proxy.calls] == [
        ("CreateVpc#1", 503, False, "throttle@CreateVpc#1:times=2"),
        ("CreateVpc#2", 503, False, "throttle@CreateVpc#1:times=2"),
        ("CreateVpc#3", 200, True, None),
    ]


@pytest.mark.parametrize(
    ("service", "op", "call", "code", "status"),
    [
        ("ec2", "DescribeVpcs", lambda c: c.describe_vpcs(), "RequestLimitExceeded", 503),
        ("sts", "GetCallerIdentity", lambda c: c.get_caller_identity(), "Throttling", 400),
        ("iam", "ListRoles", lambda c: c.list_roles(), "Throttling", 400),
        ("dynamodb", "ListTables", lambda c: c.list_tables(), "ThrottlingException", 400),
        ("sqs", "CreateQueue", lambda c: c.create_queue(QueueName="q"), "ThrottlingException", 400),
        ("s3", "CreateBucket", lambda c: c.create_bucket(Bucket="throttled"), "SlowDown", 503),
        ("lambda", "ListFunctions", lambda c: c.list_functions(), "TooManyRequestsException", 429),
    ],
)  # fmt: skip
def test_throttling_answers_parse_as_each_protocols_throttling_error(
    proxy: Proxy, service: str, op: str, call: Any, code: str, status: int
) -> None:
    sdk = client(proxy.endpoint, service)
    proxy.arm([Throttle(op, times=1)])
    with pytest.raises(botocore.exceptions.ClientError) as info:
        call(sdk)
    assert error_code(info) == code
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == status
    assert [(c.operation, c.forwarded) for c in proxy.calls] == [(op, False)]
    call(sdk)  # the throttle window is over: the next occurrence goes through


def test_crash_signals_sigkill_before_answering(proxy: Proxy, moto: MotoEmulator) -> None:
    signals: list[int] = []
    before = vpc_ids(moto)
    proxy.arm([Crash("CreateVpc")], signal=signals.append)
    with pytest.raises(botocore.exceptions.ConnectionClosedError):
        client(proxy.endpoint, "ec2").create_vpc(CidrBlock="10.7.0.0/16")
    assert signals == [signal.SIGKILL]
    assert len(vpc_ids(moto) - before) == 1  # processed by the emulator
    (call,) = proxy.calls
    assert (call.status, call.upstream_status, call.forwarded, call.fault) == (
        0,
        200,
        True,
        "crash@CreateVpc#1",
    )


def test_crash_signal_comes_before_any_answer(proxy: Proxy) -> None:
    seen: list[str] = []

    def record(sig: int) -> None:
        # When the signal is delivered the client must not have its answer yet.
        seen.append("signal")

    proxy.arm([Crash("GetCallerIdentity")], signal=record)
    try:
        client(proxy.endpoint, "sts").get_caller_identity()
        seen.append("answer")
    except botocore.exceptions.ConnectionClosedError:
        seen.append("closed")
    assert seen == ["signal", "closed"]


def test_interrupt_signals_sigint_and_answers_normally(proxy: Proxy, moto: MotoEmulator) -> None:
    signals: list[int] = []
    proxy.arm([Interrupt("CreateVpc", n=2)], signal=signals.append)
    ec2 = client(proxy.endpoint, "ec2")
    ec2.create_vpc(CidrBlock="10.8.0.0/16")
    assert signals == []
    vpc = ec2.create_vpc(CidrBlock="10.9.0.0/16")["Vpc"]["VpcId"]
    assert signals == [signal.SIGINT]
    assert vpc in vpc_ids(moto)
    assert proxy.calls[-1].status == 200 and proxy.calls[-1].fault == "interrupt@CreateVpc#2"


def test_signal_callback_that_raises_does_not_break_the_proxy(proxy: Proxy) -> None:
    def broken(sig: int) -> None:
        raise RuntimeError("no such process")

    proxy.arm([Interrupt("GetCallerIdentity")], signal=broken)
    sts = client(proxy.endpoint, "sts")
    assert sts.get_caller_identity()["Account"]
    assert sts.get_caller_identity()["Account"]


def test_signalling_faults_need_a_signal_callback(proxy: Proxy) -> None:
    with pytest.raises(FaultError, match="signal"):
        proxy.arm([Crash("CreateVpc")])
    with pytest.raises(FaultError, match="not a fault"):
        proxy.arm(["crash@CreateVpc#1"])  # type: ignore[list-item]


def test_unfired_faults_are_returned_by_disarm(proxy: Proxy) -> None:
    never = Crash("CreateVpc", n=3)
    other = ApiError("DeleteVpc")
    hit = parse_fault("interrupt@GetCallerIdentity#1")
    proxy.arm([never, other, hit], signal=lambda sig: None)
    sts = client(proxy.endpoint, "sts")
    sts.get_caller_identity()
    sts.get_caller_identity()
    assert proxy.fired == [hit]
    assert proxy.disarm() == [never, other]
    # Disarmed: nothing fires any more, and fired stays readable for the report.
    proxy.clear()
    sts.get_caller_identity()
    assert proxy.calls[0].fault is None
    assert proxy.fired == [hit]


def test_occurrences_restart_after_clear_so_faults_hit_the_same_call_every_run(
    proxy: Proxy,
) -> None:
    fault = LostResponse("GetCallerIdentity", n=2)
    sts = client(proxy.endpoint, "sts")
    for _ in range(2):  # two "runs"
        proxy.clear()
        proxy.arm([fault])
        sts.get_caller_identity()
        with pytest.raises(botocore.exceptions.ClientError):
            sts.get_caller_identity()
        assert proxy.disarm() == []
        assert [c.status for c in proxy.calls] == [200, 500]


def test_s3_large_object_round_trip_is_intact(proxy: Proxy) -> None:
    s3 = client(proxy.endpoint, "s3")
    body = os.urandom(3 * 1024 * 1024 + 17)
    s3.create_bucket(Bucket="big")
    s3.put_object(Bucket="big", Key="dir/blob.bin", Body=body)
    head = s3.head_object(Bucket="big", Key="dir/blob.bin")
    assert head["ContentLength"] == len(body)
    got = s3.get_object(Bucket="big", Key="dir/blob.bin")["Body"].read()
    assert hashlib.sha256(got).digest() == hashlib.sha256(body).digest()
    with pytest.raises(botocore.exceptions.ClientError) as info:
        s3.head_object(Bucket="big", Key="missing")
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404
    s3.put_bucket_tagging(Bucket="big", Tagging={"TagSet": [{"Key": "a", "Value": "b"}]})
    s3.delete_object(Bucket="big", Key="dir/blob.bin")  # 204: no body, connection kept
    s3.delete_bucket(Bucket="big")
    assert [(c.operation, c.status) for c in proxy.calls] == [
        ("CreateBucket", 200),
        ("PutObject", 200),
        ("HeadObject", 200),
        ("GetObject", 200),
        ("HeadObject", 404),
        ("PutBucketTagging", 204),
        ("DeleteObject", 204),
        ("DeleteBucket", 204),
    ]
    assert all(c.service == "s3" for c in proxy.calls)


def test_chunked_request_body_with_expect_100_continue(proxy: Proxy) -> None:
    s3 = client(proxy.endpoint, "s3")
    s3.create_bucket(Bucket="chunky")
    port = int(proxy.endpoint.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    auth = (
        f"AWS4-HMAC-SHA256 Credential={FAKE_ACCESS_KEY}/20240101/us-east-1/s3/aws4_request, "
        "SignedHeaders=host, Signature=0"
    )
    parts = [b"hello ", b"chunked ", b"world" * 1000]
    conn.request(
        "PUT",
        "/chunky/greeting.txt",
        body=iter(parts),
        headers={"Authorization": auth, "Expect": "100-continue", "Transfer-Encoding": "chunked"},
        encode_chunked=True,
    )
    response = conn.getresponse()
    response.read()
    assert response.status == 200
    # Same connection again: keep-alive with the client works after a chunked body.
    conn.request("GET", "/chunky/greeting.txt", headers={"Authorization": auth})
    response = conn.getresponse()
    assert response.read() == b"".join(parts)
    conn.close()
    assert [c.operation for c in proxy.calls][-2:] == ["PutObject", "GetObject"]


def test_concurrent_calls(proxy: Proxy) -> None:
    sts = client(proxy.endpoint, "sts")
    ec2 = client(proxy.endpoint, "ec2")
    barrier = threading.Barrier(20)

    def one(i: int) -> str:
        barrier.wait(timeout=10)
        if i % 2:
            return sts.get_caller_identity()["Account"]
        return str(len(ec2.describe_vpcs()["Vpcs"]))

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(one, range(20)))
    assert len(results) == 20
    calls = proxy.calls
    assert len(calls) == 20 and all(c.status == 200 for c in calls)
    for op in ("GetCallerIdentity", "DescribeVpcs"):
        assert sorted(c.occurrence for c in calls if c.operation == op) == list(range(1, 11))
    assert sorted(c.seq for c in calls) == list(range(1, 21))


def test_sqs_json_protocol_and_host_header_is_preserved(proxy: Proxy) -> None:
    sqs = client(proxy.endpoint, "sqs")
    url = sqs.create_queue(QueueName="converge-q")["QueueUrl"]
    # moto builds the queue URL from the Host header the client signed: the proxy's.
    assert proxy.endpoint.split("//")[1] in url
    assert [(c.service, c.operation) for c in proxy.calls] == [("sqs", "CreateQueue")]


def test_dynamodb_and_lambda_identification_through_the_proxy(proxy: Proxy) -> None:
    client(proxy.endpoint, "dynamodb").list_tables()
    client(proxy.endpoint, "lambda").list_functions()
    assert [(c.service, c.operation) for c in proxy.calls] == [
        ("dynamodb", "ListTables"),
        ("lambda", "ListFunctions"),
    ]


def test_env_proxies_never_capture_upstream_traffic(
    proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "")
    port = int(proxy.endpoint.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    auth = (
        f"AWS4-HMAC-SHA256 Credential={FAKE_ACCESS_KEY}/20240101/us-east-1/sts/aws4_request, "
        "SignedHeaders=host, Signature=0"
    )
    conn.request(
        "POST",
        "/",
        body=b"Action=GetCallerIdentity&Version=2011-06-15",
        headers={"Authorization": auth, "Content-Type": "application/x-www-form-urlencoded"},
    )
    response = conn.getresponse()
    assert response.status == 200 and b"GetCallerIdentityResponse" in response.read()
    conn.close()


# Which upstreams the proxy accepts: the loopback table in tests/unit/test_safety.py.


def test_accepts_loopback_spellings_and_forwards_through_them(moto: MotoEmulator) -> None:
    port = moto.endpoint.rsplit(":", 1)[1]
    for upstream in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        with Proxy(upstream=upstream) as proxy:
            identity = client(proxy.endpoint, "sts").get_caller_identity()
            assert identity["Account"]  # answered by moto, through that spelling
            [call] = proxy.calls
            assert call.forwarded and call.upstream_status == 200
    # Any 127/8 address is loopback (nothing listens there; no call is made).
    assert Proxy(upstream="http://127.1.2.3:1").upstream == "http://127.1.2.3:1"


def test_stop_is_idempotent_and_leaves_no_threads_or_listeners(moto: MotoEmulator) -> None:
    proxy = Proxy(upstream=moto.endpoint)
    proxy.start()
    endpoint = proxy.endpoint
    sts = client(endpoint, "sts")
    sts.get_caller_identity()  # leaves a keep-alive connection (and its thread) open
    assert any(t.name.startswith("converge-proxy") for t in threading.enumerate())
    proxy.stop()
    proxy.stop()
    assert not any(t.name.startswith("converge-proxy") for t in threading.enumerate())
    port = int(endpoint.rsplit(":", 1)[1])
    with pytest.raises(OSError):
        http.client.HTTPConnection("127.0.0.1", port, timeout=2).connect()


def test_upstream_down_is_a_502_in_the_protocols_format(moto: MotoEmulator) -> None:
    dead = MotoEmulator()
    dead.start()
    upstream = dead.endpoint
    dead.stop()
    with Proxy(upstream=upstream) as proxy:
        with pytest.raises(botocore.exceptions.ClientError) as info:
            client(proxy.endpoint, "ec2").describe_vpcs()
        assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 502
        assert error_code(info) == "ServiceUnavailable"
        assert not proxy.calls[0].forwarded


def test_a_pinned_fault_fires_on_its_resources_call_whatever_the_order(proxy: Proxy) -> None:
    sqs = client(proxy.endpoint, "sqs")
    applying = {"now": ""}
    fault = ApiError("CreateQueue", address="aws_sqs_queue.second", status=503)
    proxy.arm([fault], locate=lambda op, *_: applying["now"] or None)
    # The resource's call comes second in this run: an unpinned CreateQueue#1 would hit first.
    applying["now"] = "aws_sqs_queue.first"
    sqs.create_queue(QueueName="first")
    applying["now"] = "aws_sqs_queue.second"
    with pytest.raises(botocore.exceptions.ClientError):
        sqs.create_queue(QueueName="second")
    assert proxy.disarm() == []
    calls = [c for c in proxy.calls if c.operation == "CreateQueue"]
    assert [(c.point, c.label, c.fault) for c in calls] == [
        ("CreateQueue#1@aws_sqs_queue.first", "CreateQueue#1", None),
        ("CreateQueue#1@aws_sqs_queue.second", "CreateQueue#2", fault.label),
    ]


def test_a_pinned_fault_needs_a_locator(proxy: Proxy) -> None:
    with pytest.raises(FaultError, match="locate"):
        proxy.arm([Crash("CreateQueue", address="aws_sqs_queue.a")], signal=lambda sig: None)
