"""Operation, service and access-key identification, fault labels, is_mutating: plain data."""

from __future__ import annotations

import json
import signal
from xml.etree import ElementTree

import pytest

from pytest_converge.awsapi.routes import RestApi, Route, rest_api
from pytest_converge.errors import FaultError
from pytest_converge.faults import (
    FAULT_KINDS,
    ApiError,
    Crash,
    Fault,
    Interrupt,
    LostResponse,
    Operation,
    Request,
    Throttle,
    identify,
    is_mutating,
    parse_fault,
)
from pytest_converge.faults.operations import credential_scope, path_template
from pytest_converge.faults.wire import Response, error_response, throttle_response

KEY = "AKIACONVERGETEST0000"
EFS = "elasticfilesystem"  # EFS's signing name
FORM = "application/x-www-form-urlencoded; charset=utf-8"


def sigv4(service: str, key: str = KEY) -> str:
    return (
        f"AWS4-HMAC-SHA256 Credential={key}/20240101/us-east-1/{service}/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date, Signature=abc123"
    )


def headers(service: str | None = None, **extra: str) -> dict[str, str]:
    out = {"Host": "127.0.0.1:4566"}
    if service:
        out["Authorization"] = sigv4(service)
    out.update({k.replace("_", "-"): v for k, v in extra.items()})
    return out


# --- query protocol --------------------------------------------------------------------------


def test_ec2_query_form_body() -> None:
    op = identify(
        "POST",
        "/",
        headers("ec2", Content_Type=FORM),
        b"Action=CreateVpc&Version=2016-11-15&CidrBlock=10.0.0.0%2F16",
    )
    assert op == Operation("ec2", "CreateVpc", "ec2", KEY)


@pytest.mark.parametrize("service", ["iam", "sts", "sns", "elasticloadbalancing", "monitoring"])
def test_other_query_services_use_the_query_error_protocol(service: str) -> None:
    op = identify("POST", "/", headers(service, Content_Type=FORM), b"Action=DoThing&Version=1")
    assert (op.service, op.name, op.protocol) == (service, "DoThing", "query")


def test_sqs_query_protocol_of_go_sdk_v1_on_a_queue_url() -> None:
    op = identify(
        "POST",
        "/123456789012/my-queue",
        headers("sqs", Content_Type=FORM),
        b"Action=SetQueueAttributes&Version=2012-11-05&Attribute.1.Name=Policy",
    )
    assert op == Operation("sqs", "SetQueueAttributes", "query", KEY)


def test_query_action_in_the_url() -> None:
    op = identify("GET", "/?Action=DescribeVpcs&Version=2016-11-15", headers("ec2"), b"")
    assert op.name == "DescribeVpcs"


def test_action_in_a_body_that_is_not_a_form_is_ignored() -> None:
    # A JSON document that happens to contain "Action=" is not a query-protocol call.
    op = identify(
        "POST",
        "/2015-03-31/functions",
        headers("lambda", Content_Type="application/json"),
        b'{"Description": "Action=CreateVpc"}',
    )
    assert op.name == "CreateFunction"


# --- JSON protocol ---------------------------------------------------------------------------


def test_dynamodb_json_target() -> None:
    op = identify(
        "POST",
        "/",
        headers(
            "dynamodb",
            Content_Type="application/x-amz-json-1.0",
            X_Amz_Target="DynamoDB_20120810.CreateTable",
        ),
        b'{"TableName": "t"}',
    )
    assert op == Operation("dynamodb", "CreateTable", "json", KEY)


def test_sqs_json_protocol_of_modern_botocore() -> None:
    op = identify(
        "POST",
        "/",
        headers(
            "sqs", Content_Type="application/x-amz-json-1.0", X_Amz_Target="AmazonSQS.CreateQueue"
        ),
        b'{"QueueName": "q"}',
    )
    assert op == Operation("sqs", "CreateQueue", "json", KEY)


def test_json_target_without_authorization_guesses_the_service() -> None:
    op = identify("POST", "/", {"x-amz-target": "Logs_20140328.CreateLogGroup"}, b"{}")
    assert op == Operation("logs", "CreateLogGroup", "json", None)


def test_target_wins_over_an_action_like_body() -> None:
    op = identify(
        "POST",
        "/",
        headers("kms", X_Amz_Target="TrentService.CreateKey", Content_Type=FORM),
        b"Action=CreateVpc",
    )
    assert op.name == "CreateKey" and op.protocol == "json"


# --- S3 (REST-XML, path style) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "target", "expected"),
    [
        ("GET", "/", "ListBuckets"),
        ("PUT", "/bucket", "CreateBucket"),
        ("PUT", "/bucket/", "CreateBucket"),
        ("HEAD", "/bucket", "HeadBucket"),
        ("DELETE", "/bucket", "DeleteBucket"),
        ("GET", "/bucket", "ListObjects"),
        ("GET", "/bucket?list-type=2&prefix=", "ListObjectsV2"),
        ("GET", "/bucket?versions", "ListObjectVersions"),
        ("GET", "/bucket?location", "GetBucketLocation"),
        ("PUT", "/bucket?tagging", "PutBucketTagging"),
        ("GET", "/bucket?tagging", "GetBucketTagging"),
        ("DELETE", "/bucket?tagging", "DeleteBucketTagging"),
        ("PUT", "/bucket?policy", "PutBucketPolicy"),
        ("GET", "/bucket?policyStatus", "GetBucketPolicyStatus"),
        ("PUT", "/bucket?versioning", "PutBucketVersioning"),
        ("GET", "/bucket?acl=", "GetBucketAcl"),
        ("PUT", "/bucket?cors", "PutBucketCors"),
        ("DELETE", "/bucket?cors", "DeleteBucketCors"),
        ("PUT", "/bucket?lifecycle", "PutBucketLifecycleConfiguration"),
        ("DELETE", "/bucket?lifecycle", "DeleteBucketLifecycle"),
        ("PUT", "/bucket?encryption", "PutBucketEncryption"),
        ("PUT", "/bucket?public-access-block", "PutPublicAccessBlock"),
        ("GET", "/bucket?public-access-block", "GetPublicAccessBlock"),
        ("GET", "/bucket?object-lock", "GetObjectLockConfiguration"),
        ("POST", "/bucket?delete", "DeleteObjects"),
        ("PUT", "/bucket/key.txt", "PutObject"),
        ("PUT", "/bucket/dir/key.txt", "PutObject"),
        ("GET", "/bucket/key.txt", "GetObject"),
        ("GET", "/bucket/key.txt?versionId=abc", "GetObject"),
        ("HEAD", "/bucket/key.txt", "HeadObject"),
        ("DELETE", "/bucket/key.txt", "DeleteObject"),
        ("PUT", "/bucket/key.txt?tagging", "PutObjectTagging"),
        ("GET", "/bucket/key.txt?acl", "GetObjectAcl"),
        ("POST", "/bucket/key.txt?uploads", "CreateMultipartUpload"),
        ("PUT", "/bucket/key.txt?partNumber=1&uploadId=x", "UploadPart"),
        ("POST", "/bucket/key.txt?uploadId=x", "CompleteMultipartUpload"),
        ("DELETE", "/bucket/key.txt?uploadId=x", "AbortMultipartUpload"),
    ],
)
def test_s3_operations(method: str, target: str, expected: str) -> None:
    op = identify(method, target, headers("s3"), b"")
    assert op == Operation("s3", expected, "rest-xml", KEY)


def test_s3_copy_object_by_header() -> None:
    op = identify("PUT", "/b/k", headers("s3", X_Amz_Copy_Source="/b/other"), b"")
    assert op.name == "CopyObject"


def test_s3_object_named_like_a_query_action_is_still_s3() -> None:
    # Near miss: an object key/query that looks like the query protocol.
    op = identify("GET", "/bucket/Action?Action=CreateVpc", headers("s3"), b"")
    assert op.name == "GetObject"


def test_s3_sigv2_and_unsigned_fallback() -> None:
    op = identify("PUT", "/bucket", {"Authorization": "AWS AKIAOLD:c2lnbmF0dXJl"}, b"")
    assert op == Operation("s3", "CreateBucket", "rest-xml", "AKIAOLD")
    assert identify("GET", "/bucket/key", {}, b"").name == "GetObject"


def test_s3_presigned_url_carries_the_scope_in_the_query() -> None:
    target = (
        "/bucket/key?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={KEY}%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=x"
    )
    assert identify("GET", target, {}, b"") == Operation("s3", "GetObject", "rest-xml", KEY)


# --- REST-JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "target", "expected"),
    [
        ("POST", "/2015-03-31/functions", "CreateFunction"),
        ("GET", "/2015-03-31/functions/", "ListFunctions"),
        ("GET", "/2015-03-31/functions/my-func", "GetFunction"),
        ("GET", "/2015-03-31/functions/my-func?Qualifier=1", "GetFunction"),
        ("DELETE", "/2015-03-31/functions/my-func", "DeleteFunction"),
        ("PUT", "/2015-03-31/functions/my-func/configuration", "UpdateFunctionConfiguration"),
        ("PUT", "/2015-03-31/functions/my-func/code", "UpdateFunctionCode"),
        ("POST", "/2015-03-31/functions/my-func/policy", "AddPermission"),
        ("DELETE", "/2015-03-31/functions/my-func/policy/stmt-1", "RemovePermission"),
        ("GET", "/2015-03-31/functions/my-func/versions", "ListVersionsByFunction"),
        ("POST", "/2015-03-31/functions/my-func/invocations", "Invoke"),
        (
            "GET",
            "/2015-03-31/functions/arn%3Aaws%3Alambda%3Aus-east-1%3A123456789012%3Afunction%3Af",
            "GetFunction",
        ),
        ("GET", "/2019-09-30/functions/f/concurrency", "GetFunctionConcurrency"),
        ("PUT", "/2017-10-31/functions/f/concurrency", "PutFunctionConcurrency"),
        ("GET", "/2017-03-31/tags/arn%3Aaws%3Alambda%3Aus-east-1%3A1%3Afunction%3Af", "ListTags"),
        ("POST", "/2015-03-31/event-source-mappings/", "CreateEventSourceMapping"),
        ("GET", "/2015-03-31/event-source-mappings/a1b2-c3d4", "GetEventSourceMapping"),
    ],
)
def test_lambda_operations(method: str, target: str, expected: str) -> None:
    op = identify(method, target, headers("lambda"), b"")
    assert op == Operation("lambda", expected, "rest-json", KEY)


def test_lambda_without_authorization_from_the_version_path() -> None:
    assert identify("POST", "/2015-03-31/functions", {}, b"{}").service == "lambda"


def test_apigateway_table_and_route53_is_rest_xml() -> None:
    op = identify(
        "PUT", "/restapis/a1b2c3d4e5/resources/xyz123/methods/GET", headers("apigateway"), b""
    )
    assert op.name == "PutMethod" and op.protocol == "rest-json"
    op = identify("POST", "/2013-04-01/hostedzone/Z0123456789/rrset/", headers("route53"), b"")
    assert op == Operation("route53", "ChangeResourceRecordSets", "rest-xml", KEY)


@pytest.mark.parametrize(
    ("signing_name", "method", "target", "expected"),
    [
        # EFS signs as elasticfilesystem; each name is the model's, no table of ours.
        (EFS, "POST", "/2015-02-01/mount-targets", "CreateMountTarget"),
        (EFS, "GET", "/2015-02-01/mount-targets?FileSystemId=fs-1", "DescribeMountTargets"),
        (EFS, "DELETE", "/2015-02-01/mount-targets/fsmt-0a1b2c", "DeleteMountTarget"),
        (EFS, "PUT", "/2015-02-01/file-systems/fs-0a1b2c/policy", "PutFileSystemPolicy"),
        (
            EFS, "POST",
            "/2015-02-01/file-systems/fs-0a1b2c/replication-configuration",
            "CreateReplicationConfiguration",
        ),
        (
            EFS, "GET", "/2015-02-01/file-systems/replication-configurations",
            "DescribeReplicationConfigurations",
        ),
        # A literal segment beats a placeholder (GetAutomationRuleV2 is /automationrulesv2/{Id}).
        ("securityhub", "GET", "/automationrulesv2/list", "ListAutomationRulesV2"),
        ("securityhub", "GET", "/automationrulesv2/arn-1", "GetAutomationRuleV2"),
        ("eks", "POST", "/clusters", "CreateCluster"),
        ("eks", "GET", "/clusters/my-cluster/node-groups/default", "DescribeNodegroup"),
        ("appsync", "POST", "/v1/apis/abc123/types/Query/resolvers", "CreateResolver"),
        # Glacier's tags differ by a fixed query value.
        ("glacier", "POST", "/-/vaults/my-vault/tags?operation=add", "AddTagsToVault"),
        ("glacier", "POST", "/-/vaults/my-vault/tags?operation=remove", "RemoveTagsFromVault"),
        # API Gateway v1 and v2 share the signing name: v2's templates start /v2/.
        ("apigateway", "POST", "/v2/apis", "CreateApi"),
        ("apigateway", "POST", "/v2/apis/a1b2c3/routes", "CreateRoute"),
        ("apigateway", "POST", "/restapis", "CreateRestApi"),
        ("apigateway", "PUT", "/tags/arn%3Aaws%3Aapigateway%3A%3A%2Frestapis%2Fa1", "TagResource"),
        ("apigateway", "POST", "/v2/tags/arn%3Aaws%3Aapigateway", "TagResource"),
        ("route53", "GET", "/2013-04-01/hostedzone/Z0123456789", "GetHostedZone"),
        ("route53", "POST", "/2013-04-01/tags/hostedzone/Z0123456789", "ChangeTagsForResource"),
    ],
)  # fmt: skip
def test_rest_operations_are_named_from_botocores_model(
    signing_name: str, method: str, target: str, expected: str
) -> None:
    op = identify(method, target, headers(signing_name), b"{}")
    assert (op.service, op.name) == (signing_name, expected)
    assert op.protocol == ("rest-xml" if signing_name == "route53" else "rest-json")


def test_a_fixed_query_key_tells_two_operations_of_one_path_apart() -> None:
    plain = identify("POST", "/2020-05-31/distribution", headers("cloudfront"), b"")
    tagged = identify("POST", "/2020-05-31/distribution?WithTags", headers("cloudfront"), b"")
    assert (plain.name, tagged.name) == ("CreateDistribution", "CreateDistributionWithTags")
    assert plain.protocol == "rest-xml"


def test_routes_rank_literal_over_placeholder_over_greedy() -> None:
    routes = [
        Route.of("svc", name, {"method": "GET", "requestUri": uri})
        for name, uri in [
            ("GetAnything", "/things/{Path+}"),
            ("GetThing", "/things/{Id}"),
            ("ListOwnThings", "/things/own"),
            ("GetThingPart", "/things/{Id}/{Part}"),
            ("GetThingTags", "/things/{Id}?tags"),
        ]
    ]
    api = RestApi("svc", "rest-json", tuple(sorted(routes, key=Route.rank, reverse=True)))
    assert api.operation("GET", "/things/own") == "ListOwnThings"
    assert api.operation("GET", "/things/t-1") == "GetThing"
    assert api.operation("GET", "/things/t-1", [("tags", "")]) == "GetThingTags"
    assert api.operation("GET", "/things/t-1/p") == "GetThingPart"
    assert api.operation("GET", "/things/t-1/p/q") == "GetAnything"
    assert api.operation("GET", "/things") is None
    assert api.operation("PUT", "/things/t-1") is None


def test_rest_models_are_read_once_per_signing_name() -> None:
    assert rest_api("elasticfilesystem") is rest_api("elasticfilesystem")
    assert rest_api("newsvc").routes == () and rest_api("newsvc").protocol == ""


def test_unknown_rest_call_falls_back_to_a_stable_template() -> None:
    a = identify("POST", "/v1/things/abc123def/widgets", headers("newsvc"), b"")
    b = identify("POST", "/v1/things/zz9-other-id/widgets", headers("newsvc"), b"")
    assert a.name == b.name == "POST newsvc /v1/things/{}/widgets"
    assert a.protocol == "rest-json"
    assert is_mutating(a.name)
    assert not is_mutating("GET newsvc /v1/things")


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/", "/"),
        ("/2015-03-31/functions/", "/2015-03-31/functions"),
        (
            "/restapis/abc/resources/def/methods/GET/integration",
            "/restapis/{}/resources/{}/methods/{}/integration",
        ),
        ("/things/MyThing/Other", "/things/{}/{}"),
        ("/things/a%2Fb", "/things/{}"),
        ("/UPPER", "/{}"),
        ("/a1b2", "/{}"),
    ],
)  # fmt: skip
def test_path_template(path: str, template: str) -> None:
    assert path_template(path) == template


# --- service and access key ------------------------------------------------------------------


def test_credential_scope() -> None:
    assert credential_scope(sigv4("ec2", "AKIAXYZ")) == ("ec2", "AKIAXYZ")
    assert credential_scope(
        "AWS4-HMAC-SHA256 Credential=K/20240101/eu-west-1/sts/aws4_request"
    ) == (
        "sts",
        "K",
    )
    assert credential_scope("") == (None, None)
    assert credential_scope("Bearer token") == (None, None)
    # Near miss: a truncated scope (no terminator) is not a scope.
    assert credential_scope("AWS4-HMAC-SHA256 Credential=K/20240101/us-east-1/ec2") == (None, None)


def test_headers_are_case_insensitive_and_may_be_pairs() -> None:
    pairs = [("AUTHORIZATION", sigv4("sts")), ("content-type", FORM)]
    op = identify("POST", "/", pairs, b"Action=GetCallerIdentity&Version=2011-06-15")
    assert op == Operation("sts", "GetCallerIdentity", "query", KEY)


def test_absolute_form_target_and_real_aws_host() -> None:
    op = identify(
        "POST",
        "http://ec2.us-east-1.amazonaws.com/",
        {"Content-Type": FORM},
        b"Action=RunInstances",
    )
    assert op == Operation("ec2", "RunInstances", "ec2", None)


def test_query_call_without_any_scope_has_unknown_service() -> None:
    op = identify("POST", "/", {"Content-Type": FORM}, b"Action=CreateQueue")
    assert (op.service, op.name, op.protocol) == ("unknown", "CreateQueue", "query")


# --- is_mutating -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "CreateVpc", "PutBucketTagging", "DeleteTable", "UpdateItem", "ModifyVpcAttribute",
        "AttachInternetGateway", "DetachRolePolicy", "AssociateRouteTable",
        "DisassociateAddress", "AuthorizeSecurityGroupIngress", "RevokeSecurityGroupEgress",
        "TagResource", "UntagResource", "RunInstances", "TerminateInstances", "StartInstances",
        "StopInstances", "SetQueueAttributes", "AddPermission", "RemovePermission",
        "RegisterTaskDefinition", "DeregisterTargets", "EnableKeyRotation", "DisableKeyRotation",
        "ReplaceRoute", "AllocateAddress", "ReleaseAddress", "ImportKeyPair", "SendMessage",
        "Publish", "Subscribe", "Unsubscribe", "RebootInstances", "RestoreTableFromBackup",
        "CopyObject", "UploadPart", "ChangeResourceRecordSets", "ResetImageAttribute",
        "ApplySecurityGroupsToLoadBalancer", "CreateTags", "BatchWriteItem",
        "TransactWriteItems", "CompleteMultipartUpload", "AbortMultipartUpload",
        "ScheduleKeyDeletion", "CancelKeyDeletion", "PurgeQueue", "Invoke",
    ],
)  # fmt: skip
def test_mutating(name: str) -> None:
    assert is_mutating(name)


@pytest.mark.parametrize(
    "name",
    [
        "DescribeVpcs", "GetCallerIdentity", "ListBuckets", "HeadObject", "HeadBucket",
        "GetBucketTagging", "BatchGetItem", "TransactGetItems", "Query", "Scan",
        "ReceiveMessage", "ListTagsForResource", "Settings", "Creator", "Deleted", "",
        "createVpc", "GET lambda /2015-03-31/functions",
    ],
)  # fmt: skip
def test_not_mutating(name: str) -> None:
    assert not is_mutating(name)


# --- fault labels ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("crash@CreateVpc#1", Crash("CreateVpc", n=1)),
        ("error@CreateVpc#2", ApiError("CreateVpc", n=2)),
        ("lost-response@PutObject#3", LostResponse("PutObject", n=3)),
        ("throttle@CreateTable#1", Throttle("CreateTable", n=1)),
        ("interrupt@CreateBucket#1", Interrupt("CreateBucket", n=1)),
        ("  Crash@CreateVpc#1 ", Crash("CreateVpc")),
        ("error@POST newsvc /v1/things#1", ApiError("POST newsvc /v1/things")),
    ],
)
def test_parse_fault(text: str, fault: object) -> None:
    assert parse_fault(text) == fault


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_labels_round_trip(kind: str) -> None:
    fault = parse_fault(f"{kind}@CreateVpc#4")
    assert fault.kind == kind and fault.op == "CreateVpc" and fault.n == 4
    assert fault.label == f"{kind}@CreateVpc#4"
    assert parse_fault(fault.label) == fault


@pytest.mark.parametrize(
    "fault",
    [
        ApiError("CreateVpc", 2, status=503, code="ServiceUnavailable"),
        ApiError("GetCallerIdentity", status=403, code="AccessDenied"),
        ApiError("DescribeVpcs", code="InvalidVpcID.NotFound"),
        Throttle("CreateQueue", 2, times=5),
        Throttle("CreateQueue", times=1),
        Crash("CreateVpc", 7),
    ],
)
def test_labels_round_trip_with_their_settings(fault: Fault) -> None:
    assert parse_fault(fault.label) == fault
    assert parse_fault(fault.label).label == fault.label


def test_labels_show_only_settings_off_their_default() -> None:
    assert ApiError("CreateVpc").label == "error@CreateVpc#1"
    assert ApiError("CreateVpc", status=503).label == "error@CreateVpc#1:status=503"
    assert Throttle("CreateQueue", 2, times=5).label == "throttle@CreateQueue#2:times=5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("crash@CreateVpc#1:times=2", "takes key=value settings none"),
        ("throttle@CreateVpc#1:status=500", "times"),
        ("throttle@CreateVpc#1:times=many", "must be an integer"),
        ("error@CreateVpc#1:status", "status, code"),
        ("error@CreateVpc#1:status=200", "400-599"),
        ("error@CreateVpc#1:code=Bad code", "AWS error code"),
    ],
)
def test_bad_settings_are_named(text: str, message: str) -> None:
    with pytest.raises(FaultError, match=message):
        parse_fault(text)


def test_error_is_a_deprecated_alias_of_api_error() -> None:
    import pytest_converge
    import pytest_converge.faults

    for module in (pytest_converge, pytest_converge.faults):
        with pytest.warns(DeprecationWarning, match="renamed ApiError"):
            alias = module.Error
        assert alias is ApiError
    assert "Error" not in pytest_converge.__all__


@pytest.mark.parametrize(
    "text",
    [
        "", "crash", "crash@", "crash@CreateVpc", "crash@#1", "@CreateVpc#1", "CreateVpc#1",
        "explode@CreateVpc#1", "crash@CreateVpc#0", "crash@CreateVpc#-1", "crash@CreateVpc#x",
        "crash@CreateVpc#1.5", "crash@CreateVpc#",
    ],
)  # fmt: skip
def test_parse_fault_rejects(text: str) -> None:
    with pytest.raises(FaultError, match=r"<kind>@<Operation>#<n>"):
        parse_fault(text)


def test_parse_fault_names_the_valid_kinds() -> None:
    with pytest.raises(FaultError) as info:
        parse_fault("explode@CreateVpc#1")
    for kind in FAULT_KINDS:
        assert kind in str(info.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Crash("CreateVpc", n=0),
        lambda: Crash("", n=1),
        lambda: Crash(" CreateVpc", n=1),
        lambda: ApiError("CreateVpc", status=200),
        lambda: Throttle("CreateVpc", times=0),
        lambda: LostResponse("CreateVpc", n=True),
    ],
)
def test_bad_fault_objects(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FaultError):
        make()


def test_throttle_takes_n_like_the_other_faults_and_times_by_keyword() -> None:
    fault = Throttle("CreateTable", 3, times=2)
    assert fault.n == 3 and fault.times == 2
    with pytest.raises(TypeError):
        Throttle("CreateTable", 3, 2)  # type: ignore[misc]
    assert [fault.hits("CreateTable", i) for i in range(1, 7)] == [
        False,
        False,
        True,
        True,
        False,
        False,
    ]
    assert not fault.hits("CreateVpc", 3)


def test_faults_are_hashable_values() -> None:
    assert len({Crash("A"), Crash("A"), Interrupt("A")}) == 2


# --- the faults' answers ---------------------------------------------------------------------


def _request(protocol: str, method: str = "POST", content_type: str | None = None) -> Request:
    hdrs = {"Content-Type": content_type} if content_type else {}
    return Request(Operation("svc", "CreateVpc", protocol, KEY), 1, method, "/", hdrs)


def test_error_wire_formats() -> None:
    ec2 = error_response("ec2", 500, "InternalError", "boom")
    root = ElementTree.fromstring(ec2.body)
    assert root.tag == "Response" and root.findtext("Errors/Error/Code") == "InternalError"

    query = error_response("query", 400, "Throttling", "slow")
    root = ElementTree.fromstring(query.body)
    assert root.tag == "ErrorResponse"
    assert root.findtext("Error/Code") == "Throttling" and root.findtext("Error/Type") == "Sender"

    s3 = error_response("rest-xml", 503, "SlowDown", "slow")
    assert ElementTree.fromstring(s3.body).findtext("Code") == "SlowDown"

    js = error_response("json", 400, "ThrottlingException", "slow",
                        content_type="application/x-amz-json-1.1")  # fmt: skip
    assert json.loads(js.body)["__type"] == "ThrottlingException"
    assert js.header("x-amzn-errortype") == "ThrottlingException"
    assert js.header("content-type") == "application/x-amz-json-1.1"

    rj = error_response("rest-json", 429, "TooManyRequestsException", "slow")
    assert rj.header("X-Amzn-ErrorType") == "TooManyRequestsException"
    assert error_response("rest-xml", 404, "NoSuchKey", "x", method="HEAD").body == b""


@pytest.mark.parametrize(
    ("protocol", "status", "code"),
    [
        ("ec2", 503, "RequestLimitExceeded"),
        ("query", 400, "Throttling"),
        ("json", 400, "ThrottlingException"),
        ("rest-xml", 503, "SlowDown"),
        ("rest-json", 429, "TooManyRequestsException"),
    ],
)
def test_throttle_codes(protocol: str, status: int, code: str) -> None:
    response = Throttle("CreateVpc").before(_request(protocol))
    assert response is not None and response.status == status
    assert code.encode() in response.body
    assert throttle_response(protocol).status == status


def test_fault_hooks() -> None:
    sent: list[int] = []
    upstream = Response(200, [("Content-Type", "text/xml")], b"<ok/>")
    req = _request("ec2")

    answer = ApiError("CreateVpc", status=503, code="Unavailable").before(req)
    assert answer is not None and answer.status == 503 and b"Unavailable" in answer.body

    assert LostResponse("CreateVpc").before(req) is None
    lost = LostResponse("CreateVpc").after(req, upstream, sent.append)
    assert lost is not None and lost.status == 500 and b"InternalError" in lost.body

    assert Crash("CreateVpc").before(req) is None
    crashed = Crash("CreateVpc").after(req, upstream, sent.append)
    assert crashed is not None and crashed.drop

    assert Interrupt("CreateVpc").after(req, upstream, sent.append) is None
    assert sent == [signal.SIGKILL, signal.SIGINT]


# --- pinned faults: the n-th call of an operation made for one resource ---------------------


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        (
            "crash@CreateQueue#1@aws_sqs_queue.alpha",
            Crash("CreateQueue", address="aws_sqs_queue.alpha"),
        ),
        (
            "lost-response@CreateSubnet#2@module.net.aws_subnet.public[0]",
            LostResponse("CreateSubnet", 2, address="module.net.aws_subnet.public[0]"),
        ),
        (
            'error@CreateBucket#1@aws_s3_bucket.b["logs:eu"]:status=503',
            ApiError("CreateBucket", address='aws_s3_bucket.b["logs:eu"]', status=503),
        ),
        (
            'throttle@TagResource#3@module.q["a]@#:\\"b"].aws_sqs_queue.q:times=5',
            Throttle("TagResource", 3, address='module.q["a]@#:\\"b"].aws_sqs_queue.q', times=5),
        ),
    ],
)
def test_pinned_faults_parse_and_round_trip(text: str, fault: Fault) -> None:
    assert parse_fault(text) == fault
    assert fault.label == text
    assert parse_fault(fault.label) == fault


def test_a_pinned_label_keeps_the_op_n_form_and_names_the_resource() -> None:
    fault = Crash("CreateQueue", address="aws_sqs_queue.alpha")
    assert fault.label == "crash@CreateQueue#1@aws_sqs_queue.alpha"
    assert fault.point == "CreateQueue#1@aws_sqs_queue.alpha"
    # Without an address, Op#n means what it always meant: the n-th call of the run.
    assert parse_fault("crash@CreateQueue#1") == Crash("CreateQueue")
    assert parse_fault("crash@CreateQueue#1").address is None


@pytest.mark.parametrize(
    "text",
    ["crash@CreateQueue#1@", "crash@CreateQueue@aws_sqs_queue.a", "crash@CreateQueue#1@queue"],
)
def test_bad_pinned_faults_are_refused(text: str) -> None:
    with pytest.raises(FaultError, match=r"resource address|<kind>@<Operation>#<n>"):
        parse_fault(text)


def test_a_pinned_fault_object_checks_its_address() -> None:
    with pytest.raises(FaultError, match="resource address"):
        Crash("CreateQueue", address=" aws_sqs_queue.a")
    with pytest.raises(FaultError, match="resource address"):
        Crash("CreateQueue", address="aws_sqs_queue.a:times=2")


def test_recorded_points_are_ordered_by_operation_resource_and_call() -> None:
    from pytest_converge.plugin.collect.points import ordered

    points = [
        "CreateQueue#1@aws_sqs_queue.q[10]",
        "TagQueue#2",
        "CreateQueue#2@aws_sqs_queue.q[2]",
        "CreateQueue#1@aws_sqs_queue.q[2]",
        "TagQueue#10",
        "CreateQueue#1@aws_sqs_queue.alpha",
    ]
    assert ordered(points) == [
        "CreateQueue#1@aws_sqs_queue.alpha",
        "CreateQueue#1@aws_sqs_queue.q[2]",
        "CreateQueue#2@aws_sqs_queue.q[2]",
        "CreateQueue#1@aws_sqs_queue.q[10]",
        "TagQueue#2",
        "TagQueue#10",
    ]


def test_a_call_is_located_in_the_one_open_apply_or_the_one_its_service_serves() -> None:
    from pytest_converge.faults.locate import applying_for

    assert applying_for([], "sqs") is None
    assert applying_for(["aws_vpc.main"], "sqs") == "aws_vpc.main"  # one open: it made the call
    both = ["aws_vpc.main", "module.q.aws_sqs_queue.jobs[0]"]
    assert applying_for(both, "sqs") == "module.q.aws_sqs_queue.jobs[0]"
    assert applying_for(both, "ec2") == "aws_vpc.main"
    assert applying_for(both, "iam") is None
    assert applying_for(["aws_sqs_queue.a", "aws_sqs_queue.b"], "sqs") is None  # cannot tell


def test_open_applies_follow_the_event_stream() -> None:
    from pytest_converge.terraform.runner import OpenApplies

    def event(kind: str, address: str) -> dict[str, object]:
        return {"type": kind, "hook": {"resource": {"addr": address}}}

    applying = OpenApplies()
    applying.see(event("apply_start", "aws_sqs_queue.a"))
    applying.see(event("apply_start", "aws_sqs_queue.b"))
    applying.see({"type": "apply_progress"})
    assert applying.addresses() == ["aws_sqs_queue.a", "aws_sqs_queue.b"]
    applying.see(event("apply_complete", "aws_sqs_queue.a"))
    applying.see(event("apply_errored", "aws_sqs_queue.b"))
    assert applying.addresses() == []
