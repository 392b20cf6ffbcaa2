"""AWS error responses in each protocol's wire format.

A fault's answer must parse as a real AWS error in the client's SDK, so the
SDK decides to retry (or not) exactly as it would against AWS: the AWS Go SDK
v1 that Terraform's provider uses and botocore both read the code from the
body (or ``x-amzn-ErrorType``) and retry throttling codes and 5xx statuses.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

#: protocol -> (status, code) of "slow down" as the real services send it.
THROTTLE = {
    "ec2": (503, "RequestLimitExceeded"),
    "query": (400, "Throttling"),
    "json": (400, "ThrottlingException"),
    "rest-xml": (503, "SlowDown"),
    "rest-json": (429, "TooManyRequestsException"),
}

_JSON_CONTENT_TYPES = ("application/x-amz-json-1.0", "application/x-amz-json-1.1")


@dataclass
class Response:
    """An HTTP response the proxy sends to the client (or, with ``drop``, does not send)."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    reason: str | None = None
    #: Close the client connection without answering (the client is being killed).
    drop: bool = False

    @classmethod
    def dropped(cls) -> Response:
        """No answer at all: the proxy closes the client's connection."""
        return cls(status=0, drop=True)

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or None."""
        lname = name.lower()
        return next((v for k, v in self.headers if k.lower() == lname), None)


def error_response(
    protocol: str,
    status: int,
    code: str,
    message: str,
    *,
    method: str = "POST",
    content_type: str | None = None,
) -> Response:
    """An AWS error ``code`` with HTTP ``status`` in the wire format of ``protocol``.

    ``content_type`` is the request's, echoed for the JSON protocol (1.0 vs 1.1).
    HEAD responses carry no body (S3 clients read the code from the status).
    """
    request_id = str(uuid.uuid4())
    msg, cde, rid = escape(message), escape(code), escape(request_id)
    headers = [("x-amzn-RequestId", request_id)]
    if protocol == "ec2":
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Response><Errors><Error><Code>{cde}</Code><Message>{msg}</Message></Error>"
            f"</Errors><RequestID>{rid}</RequestID></Response>"
        )
        headers.append(("Content-Type", "text/xml;charset=UTF-8"))
    elif protocol == "query":
        kind = "Sender" if status < 500 else "Receiver"
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<ErrorResponse><Error><Type>{kind}</Type><Code>{cde}</Code>"
            f"<Message>{msg}</Message></Error><RequestId>{rid}</RequestId></ErrorResponse>"
        )
        headers.append(("Content-Type", "text/xml"))
    elif protocol == "rest-xml":
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Error><Code>{cde}</Code><Message>{msg}</Message>"
            f"<RequestId>{rid}</RequestId></Error>"
        )
        headers += [("Content-Type", "application/xml"), ("x-amz-request-id", request_id)]
    else:  # json, rest-json
        ctype = "application/json"
        if protocol == "json":
            ctype = next(
                (c for c in _JSON_CONTENT_TYPES if c in (content_type or "")),
                "application/x-amz-json-1.0",
            )
        body = json.dumps({"__type": code, "message": message})
        headers += [("Content-Type", ctype), ("x-amzn-ErrorType", code)]
    if method == "HEAD":
        return Response(status, headers, b"")
    return Response(status, headers, body.encode())


def throttle_response(
    protocol: str, *, method: str = "POST", content_type: str | None = None
) -> Response:
    """The throttling error real AWS sends for ``protocol`` (retried by every SDK)."""
    status, code = THROTTLE.get(protocol, THROTTLE["rest-json"])
    return error_response(
        protocol,
        status,
        code,
        "Rate exceeded (injected by pytest-converge)",
        method=method,
        content_type=content_type,
    )
