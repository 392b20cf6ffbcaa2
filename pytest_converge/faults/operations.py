"""Which AWS API operation an HTTP request is: service, operation name, protocol, access key.

Pure functions over plain data (method, request target, headers, body), so the
proxy and the unit tests share one implementation::

    >>> identify("POST", "/", {"Authorization": "AWS4-HMAC-SHA256 "
    ...     "Credential=AKID/20240101/us-east-1/ec2/aws4_request, SignedHeaders=host, "
    ...     "Signature=0", "Content-Type": "application/x-www-form-urlencoded"},
    ...     b"Action=CreateVpc&Version=2016-11-15&CidrBlock=10.0.0.0%2F16").name
    'CreateVpc'

The name must be the same for the same call in every run, because a fault
names "the n-th CreateVpc": nothing the emulator generates (ids, ARNs with
random parts) may appear in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote, urlsplit

from ..awsapi.routes import rest_api

#: The wire protocols of AWS APIs; each has its own error format (see ``wire.py``).
PROTOCOLS = ("ec2", "query", "json", "rest-xml", "rest-json")

# X-Amz-Target prefixes -> SigV4 service names, for requests that carry no
# Authorization header (the scope is the authority whenever it is present).
_TARGET_SERVICES = {
    "dynamodb": "dynamodb",
    "dynamodbstreams": "dynamodb",
    "amazonsqs": "sqs",
    "logs": "logs",
    "trentservice": "kms",
    "amazonssm": "ssm",
    "secretsmanager": "secretsmanager",
    "awsevents": "events",
    "kinesis": "kinesis",
    "amazonec2containerservicev20141113": "ecs",
    "amazonec2containerregistry": "ecr",
    "certificatemanager": "acm",
    "awsstepfunctions": "states",
    "cloudtrail": "cloudtrail",
    "awscognitoidentityproviderservice": "cognito-idp",
    "firehose": "firehose",
    "amazonathena": "athena",
    "awsglue": "glue",
}

# First path segment (an API version date) -> service, for REST requests
# without an Authorization header.
_VERSION_SERVICES = {
    "2015-03-31": "lambda",
    "2016-08-19": "lambda",
    "2017-03-31": "lambda",
    "2017-10-31": "lambda",
    "2018-10-31": "lambda",
    "2019-09-25": "lambda",
    "2019-09-30": "lambda",
    "2020-04-22": "lambda",
    "2020-06-30": "lambda",
    "2021-10-31": "lambda",
    "2013-04-01": "route53",
}

_SIGV4_CREDENTIAL = re.compile(
    r"Credential=(?P<key>[^/,\s]+)/(?P<date>[^/,\s]+)/(?P<region>[^/,\s]+)/"
    r"(?P<service>[^/,\s]+)/aws4_request"
)
_SIGV2 = re.compile(r"^AWS (?P<key>[^:\s]+):")
_API_VERSION = re.compile(r"^(\d{4}-\d{2}-\d{2}|v\d+(\.\d+)?)$")
_WORD = re.compile(r"^[a-z][a-z_-]*[a-z]$|^[a-z]$")


@dataclass(frozen=True)
class Operation:
    """One identified API call.

    ``service`` is the SigV4 signing name ("ec2", "s3", "monitoring", ...),
    ``name`` the API operation ("CreateVpc"; a REST call's from botocore's model
    of its signing name, ``awsapi/routes.py``) or, for a REST call no template of
    that model fits, ``"<METHOD> <service> <path template>"`` (ids replaced by ``{}``).
    """

    service: str
    name: str
    protocol: str
    access_key: str | None = None
    #: The region the call was signed for (SigV4 credential scope); None when unsigned.
    #: Not part of the operation's identity: the n-th CreateVpc is the same fault
    #: point whichever region it goes to.
    region: str | None = field(default=None, compare=False)


def identify(
    method: str, target: str, headers: Mapping[str, str] | Iterable[tuple[str, str]], body: bytes
) -> Operation:
    """Identify the API operation of one HTTP request.

    ``target`` is the request target as sent (``/path?query``, or an absolute
    URL if the client thinks it talks to a forward proxy); ``headers`` is any
    mapping or list of pairs, matched case-insensitively.
    """
    method = method.upper()
    hdrs = _lower_headers(headers)
    split = urlsplit(target)
    path = split.path or "/"
    query = parse_qsl(split.query, keep_blank_values=True)
    host = hdrs.get("host", split.netloc)

    scope_service, access_key = credential_scope(hdrs.get("authorization", ""), query)
    region = credential_region(hdrs.get("authorization", ""), query)

    amz_target = hdrs.get("x-amz-target", "")
    if amz_target:
        prefix, _, name = amz_target.rpartition(".")
        service = scope_service or _target_service(prefix) or "unknown"
        return Operation(service, name or amz_target, "json", access_key, region)

    service = scope_service or _host_service(host) or _path_service(path, query, hdrs, body)
    if service == "s3":
        name = s3_operation(method, path, query, hdrs)
        return Operation("s3", name, "rest-xml", access_key, region)

    action = _action(query, hdrs, body)
    if action:
        protocol = "ec2" if service == "ec2" else "query"
        return Operation(service, action, protocol, access_key, region)

    api = rest_api(service)
    name = api.operation(method, path, query) or f"{method} {service} {path_template(path)}"
    return Operation(service, name, api.protocol or "rest-json", access_key, region)


def credential_scope(
    authorization: str, query: Iterable[tuple[str, str]] = ()
) -> tuple[str | None, str | None]:
    """(service, access key) from a SigV4/SigV2 Authorization header or a presigned query."""
    match = _SIGV4_CREDENTIAL.search(authorization)
    if match:
        # Lower-cased: aws 3.39's SDK signs RAM's calls "RAM", botocore names it "ram".
        return match["service"].lower(), match["key"]
    match = _SIGV2.match(authorization)
    if match:
        return "s3", match["key"]  # only S3 still accepts SigV2
    for key, value in query:
        if key == "X-Amz-Credential":
            match = _SIGV4_CREDENTIAL.search("Credential=" + value)
            if match:
                return match["service"].lower(), match["key"]
        if key == "AWSAccessKeyId":
            return "s3", value
    return None, None


def credential_region(authorization: str, query: Iterable[tuple[str, str]] = ()) -> str | None:
    """The region of a SigV4 credential scope (header or presigned query), else None.

    >>> credential_region("AWS4-HMAC-SHA256 Credential=AK/20240101/eu-west-1/ec2/aws4_request")
    'eu-west-1'
    """
    match = _SIGV4_CREDENTIAL.search(authorization)
    if match is None:
        value = next((v for k, v in query if k == "X-Amz-Credential"), "")
        match = _SIGV4_CREDENTIAL.search("Credential=" + value) if value else None
    return match["region"] if match else None


def is_mutating(operation: str) -> bool:
    """True when an operation may change something in the cloud.

    Decided by the operation's leading verb ("Create" in "CreateVpc"); reads
    (Describe, Get, List, Head, ...) and unknown verbs are not mutating. For
    fallback names (``"POST lambda /..."``) the HTTP method decides.
    """
    method, _, rest = operation.partition(" ")
    if rest:
        return method in {"POST", "PUT", "PATCH", "DELETE"}
    words = re.findall(r"[A-Z][a-z]*|[a-z]+|\d+", operation)
    if not words:
        return False
    verb = words[0]
    if verb in {"Batch", "Transact"}:
        # BatchWriteItem / TransactWriteItems write; BatchGetItem / TransactGetItems read.
        return len(words) > 1 and words[1] not in _READ_VERBS
    return verb in _MUTATING_VERBS


_READ_VERBS = frozenset(
    {
        "Describe",
        "Get",
        "List",
        "Head",
        "Query",
        "Scan",
        "Select",
        "Search",
        "Check",
        "Validate",
        "Test",
        "Estimate",
        "Preview",
        "Lookup",
        "Simulate",
        "Decode",
        "Receive",
        "Filter",
        "View",
    }
)

_MUTATING_VERBS = frozenset(
    {
        "Abort", "Accept", "Activate", "Add", "Allocate", "Apply", "Archive", "Assign",
        "Associate", "Attach", "Authorize", "Cancel", "Change", "Complete", "Confirm", "Copy",
        "Create", "Deactivate", "Decrease", "Delete", "Deprovision", "Deregister", "Detach",
        "Disable", "Disassociate", "Enable", "Execute", "Export", "Import", "Increase",
        "Initiate", "Invoke", "Merge", "Modify", "Monitor", "Move", "Promote", "Provision",
        "Publish", "Purge", "Put", "Reboot", "Register", "Reject", "Release", "Remove",
        "Rename", "Replace", "Request", "Reset", "Restore", "Resume", "Retire", "Revoke",
        "Rotate", "Run", "Schedule", "Send", "Set", "Split", "Start", "Stop", "Subscribe",
        "Suspend", "Tag", "Terminate", "Unassign", "Unmonitor", "Unsubscribe", "Untag",
        "Update", "Upgrade", "Upload", "Verify",
    }
)  # fmt: skip


#: Bounds of :func:`request_parameters` (it keeps a refused call's parameters).
_PARAMETERS_KEPT = 200
_VALUE_KEPT = 200


def request_parameters(body: bytes) -> dict[str, str]:
    """A request's parameters as flat ``name -> value`` pairs, as sent.

    A JSON body (JSON and REST-JSON protocols) is flattened with ``.`` and 1-based
    list positions (``Tags.1.Key``); a form body (query and EC2 protocols) is
    taken as it is, without ``Action`` and ``Version``. Anything else (XML,
    binary) has none here. At most 200 parameters of 200 characters each::

        >>> request_parameters(b'{"Name": "/app", "DataType": "aws:ssm:integration"}')
        {'Name': '/app', 'DataType': 'aws:ssm:integration'}
    """
    text = body[: 1 << 16].decode(errors="replace").strip()
    found: dict[str, str] = {}
    if text.startswith("{"):
        try:
            _flatten(json.loads(text), "", found)
        except ValueError:
            return {}
    elif "=" in text and not text.startswith("<"):
        for name, value in parse_qsl(text, keep_blank_values=True):
            if name not in ("Action", "Version"):
                found[name] = value
    return {k: v[:_VALUE_KEPT] for k, v in list(found.items())[:_PARAMETERS_KEPT]}


def _flatten(value: object, prefix: str, into: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), into)
    elif isinstance(value, list):
        for n, item in enumerate(value, 1):
            _flatten(item, f"{prefix}.{n}", into)
    elif prefix and value is not None:
        into[prefix] = json.dumps(value) if isinstance(value, bool) else str(value)


def path_template(path: str) -> str:
    """A path with ids replaced by ``{}``, stable across runs.

    REST APIs alternate collection words and ids (``/restapis/{}/resources/{}``);
    a segment right after a collection word is an id, and so is anything that
    is not a plain lowercase word or an API version.
    """
    out: list[str] = []
    after_word = False
    for segment in path.strip("/").split("/"):
        if not segment:
            continue
        if _API_VERSION.match(segment):
            out.append(segment)
            after_word = False
        elif not after_word and _WORD.match(segment):
            out.append(segment)
            after_word = True
        else:
            out.append("{}")
            after_word = False
    return "/" + "/".join(out)


# --- S3 (REST-XML, path style) -------------------------------------------------------------

# Bucket subresource -> the noun of its Put/Get/Delete operations.
_S3_BUCKET_SUBRESOURCES = {
    "accelerate": "BucketAccelerateConfiguration",
    "acl": "BucketAcl",
    "analytics": "BucketAnalyticsConfiguration",
    "cors": "BucketCors",
    "encryption": "BucketEncryption",
    "intelligent-tiering": "BucketIntelligentTieringConfiguration",
    "inventory": "BucketInventoryConfiguration",
    "lifecycle": "BucketLifecycleConfiguration",
    "location": "BucketLocation",
    "logging": "BucketLogging",
    "metrics": "BucketMetricsConfiguration",
    "notification": "BucketNotificationConfiguration",
    "object-lock": "ObjectLockConfiguration",
    "ownershipControls": "BucketOwnershipControls",
    "policy": "BucketPolicy",
    "policyStatus": "BucketPolicyStatus",
    "public-access-block": "PublicAccessBlock",
    "replication": "BucketReplication",
    "requestPayment": "BucketRequestPayment",
    "tagging": "BucketTagging",
    "versioning": "BucketVersioning",
    "website": "BucketWebsite",
}
# Where the API's name breaks the pattern above.
_S3_BUCKET_EXCEPTIONS = {
    ("DELETE", "lifecycle"): "DeleteBucketLifecycle",
    ("DELETE", "cors"): "DeleteBucketCors",
}
_S3_OBJECT_SUBRESOURCES = {
    "acl": "ObjectAcl",
    "tagging": "ObjectTagging",
    "retention": "ObjectRetention",
    "legal-hold": "ObjectLegalHold",
    "attributes": "ObjectAttributes",
    "torrent": "ObjectTorrent",
}
_VERBS = {"GET": "Get", "PUT": "Put", "DELETE": "Delete"}


def s3_operation(
    method: str, path: str, query: Iterable[tuple[str, str]], headers: Mapping[str, str]
) -> str:
    """The S3 operation of a path-style request (``/bucket`` or ``/bucket/key``)."""
    params = dict(query)
    bucket, _, key = path.lstrip("/").partition("/")
    if not bucket:
        return "ListBuckets" if method in {"GET", "HEAD"} else f"{method} s3 /"
    copy = "x-amz-copy-source" in _lower_headers(headers)
    if key:
        if "uploadId" in params:
            return {
                "PUT": "UploadPartCopy" if copy else "UploadPart",
                "POST": "CompleteMultipartUpload",
                "GET": "ListParts",
                "DELETE": "AbortMultipartUpload",
            }.get(method, f"{method} s3 /{{}}/{{}}?uploadId")
        if method == "POST":
            for sub, name in (
                ("uploads", "CreateMultipartUpload"),
                ("restore", "RestoreObject"),
                ("select", "SelectObjectContent"),
            ):
                if sub in params:
                    return name
            return "PostObject"
        for sub, noun in _S3_OBJECT_SUBRESOURCES.items():
            if sub in params and method in _VERBS:
                return _VERBS[method] + noun
        if method == "PUT":
            return "CopyObject" if copy else "PutObject"
        return {"GET": "GetObject", "HEAD": "HeadObject", "DELETE": "DeleteObject"}.get(
            method, f"{method} s3 /{{}}/{{}}"
        )
    if method == "POST":
        if "delete" in params:
            return "DeleteObjects"
        return f"POST s3 /{{}}?{','.join(sorted(params))}"
    if method == "HEAD":
        return "HeadBucket"
    if method == "GET":
        if "versions" in params:
            return "ListObjectVersions"
        if "uploads" in params:
            return "ListMultipartUploads"
    for sub, noun in _S3_BUCKET_SUBRESOURCES.items():
        if sub in params and method in _VERBS:
            return _S3_BUCKET_EXCEPTIONS.get((method, sub), _VERBS[method] + noun)
    if method == "GET":
        return "ListObjectsV2" if params.get("list-type") == "2" else "ListObjects"
    return {"PUT": "CreateBucket", "DELETE": "DeleteBucket"}.get(method, f"{method} s3 /{{}}")


# --- helpers --------------------------------------------------------------------------------


def _lower_headers(headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> dict[str, str]:
    items = headers.items() if isinstance(headers, Mapping) else headers
    return {k.lower(): v for k, v in items}


def _action(query: list[tuple[str, str]], headers: Mapping[str, str], body: bytes) -> str | None:
    """The query protocol's ``Action`` from the URL or an urlencoded form body."""
    for key, value in query:
        if key == "Action":
            return value
    if body and "x-www-form-urlencoded" in headers.get("content-type", ""):
        for key, value in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
            if key == "Action":
                return value
    return None


def _target_service(prefix: str) -> str | None:
    base = prefix.split("_", 1)[0].lower()
    return _TARGET_SERVICES.get(base)


def _host_service(host: str) -> str | None:
    """The service of a real AWS host name (``ec2.us-east-1.amazonaws.com``)."""
    hostname = host.rsplit(":", 1)[0].lower()
    if not hostname.endswith((".amazonaws.com", ".amazonaws.com.cn")):
        return None
    labels = hostname.split(".")
    if "s3" in labels or any(label.startswith("s3-") for label in labels):
        return "s3"
    return labels[0]


def _path_service(
    path: str, query: list[tuple[str, str]], headers: Mapping[str, str], body: bytes
) -> str:
    """Best guess of the service of an unsigned loopback request."""
    first = path.strip("/").split("/", 1)[0]
    if first in _VERSION_SERVICES:
        return _VERSION_SERVICES[first]
    if first in {"restapis", "apikeys", "usageplans", "domainnames"}:
        return "apigateway"
    if _action(query, headers, body):
        return "unknown"  # a query-protocol call; which service is unknowable without a scope
    return "s3"  # path-style buckets are the only other REST API served at "/<name>"


def request_tokens(body: bytes, path: str) -> frozenset[str]:
    """The values a request gives (its parameters, the pieces of its path) that could
    name an object (``/aws/vpc-flow-log/vpc-0a1b``) or a resource's value: 4-512 characters."""
    values = [*request_parameters(body).values(), *(unquote(p) for p in path.split("/") if p)]
    return frozenset(v for v in values if 4 <= len(v) <= 512)
