"""What LocalStack holds, read through its describe and get calls.

:meth:`.localstack.LocalStackEmulator.world` answers the same JSON as moto's
(:mod:`.moto_world`), for the same kinds of object, with the attributes an API
returns::

    {"covered": ["aws_db_instance", ...],
     "objects": [{"types": ["aws_s3_object", "aws_s3_bucket_object"],
                  "region": "us-east-1", "match": {"bucket": "site", "key": "index.html"},
                  "attributes": {"content": "sha256:... (12 bytes)", ...}, "secret": []}],
     "not_compared": {"aws_db_instance": ["password"], ...}}

What no API returns is not compared, and ``not_compared`` says so: an RDS
instance's master password, the S3 bucket and key a function's code came from
(its ``code_sha256`` is compared instead). A kind is read only where its
service is running in LocalStack (a service never called holds nothing, and
reading it would start it); regional kinds in the ``regions`` asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .moto_world import body, document

__all__ = ["NOT_COMPARED", "READERS", "Reader", "read_world"]

#: ``client(service, region)`` -> a boto3 client of the emulator.
Clients = Callable[[str, str], Any]


@dataclass(frozen=True)
class Reader:
    """How to read one kind of object through the API: its types, service and calls."""

    types: tuple[str, ...]
    #: The boto3 service (and LocalStack's name for it in its health document).
    service: str
    #: ``(client, region) -> [(match, attributes)]``: every object of the kind there.
    objects: Callable[[Any], Iterable[tuple[dict[str, str], dict[str, Any]]]]
    #: A global listing (S3's bucket list): read once, not per region.
    global_listing: bool = False
    secret: frozenset[str] = frozenset()
    #: Attributes moto's reader compares and no API returns.
    not_compared: tuple[str, ...] = field(default_factory=tuple)


def _pages(client: Any, operation: str, key: str, **kwargs: Any) -> Iterator[Any]:
    for page in client.get_paginator(operation).paginate(**kwargs):
        yield from page.get(key) or []


def _missing(exc: Exception, *codes: str) -> bool:
    """A ``ClientError`` whose code says the thing asked for does not exist."""
    error = getattr(exc, "response", {}).get("Error", {})
    return str(error.get("Code")) in codes


def _grants(grants: Iterable[dict[str, Any]]) -> list[str]:
    """An ACL as sorted ``grantee:permission`` lines (as moto's reader writes them)."""
    found = []
    for grant in grants:
        who = grant.get("Grantee") or {}
        name = who.get("URI") or who.get("ID") or who.get("DisplayName")
        found.append(f"{name}:{grant.get('Permission')}")
    return sorted(found)


def _db_instances(rds: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    for db in _pages(rds, "describe_db_instances", "DBInstances"):
        groups = db.get("DBParameterGroups") or [{}]
        yield (
            {"identifier": db["DBInstanceIdentifier"]},
            {
                "username": db.get("MasterUsername"),
                "instance_class": db.get("DBInstanceClass"),
                "allocated_storage": db.get("AllocatedStorage"),
                "engine": db.get("Engine"),
                "port": (db.get("Endpoint") or {}).get("Port") or db.get("DbInstancePort"),
                "db_name": db.get("DBName"),
                "multi_az": db.get("MultiAZ"),
                "publicly_accessible": db.get("PubliclyAccessible"),
                "backup_retention_period": db.get("BackupRetentionPeriod"),
                "deletion_protection": db.get("DeletionProtection"),
                "parameter_group_name": groups[0].get("DBParameterGroupName"),
            },
        )


def _bucket_names(s3: Any) -> list[str]:
    return [b["Name"] for b in s3.list_buckets().get("Buckets") or []]


def _buckets(s3: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    for name in _bucket_names(s3):
        try:
            policy = s3.get_bucket_policy(Bucket=name)["Policy"]
        except Exception as exc:
            if not _missing(exc, "NoSuchBucketPolicy"):
                raise
            policy = None
        yield (
            {"bucket": name},
            {
                "acl": _grants(s3.get_bucket_acl(Bucket=name).get("Grants") or []),
                "versioning": s3.get_bucket_versioning(Bucket=name).get("Status"),
                "policy": document(policy),
            },
        )


def _s3_objects(s3: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    for name in _bucket_names(s3):
        for item in _pages(s3, "list_objects_v2", "Contents", Bucket=name):
            key = item["Key"]
            got = s3.get_object(Bucket=name, Key=key)
            yield (
                {"bucket": name, "key": key},
                {
                    "content": body(got["Body"].read()),
                    "content_type": got.get("ContentType"),
                    "acl": _grants(s3.get_object_acl(Bucket=name, Key=key).get("Grants") or []),
                    "storage_class": got.get("StorageClass") or item.get("StorageClass"),
                },
            )


def _functions(lam: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    for fn in _pages(lam, "list_functions", "Functions"):
        yield (
            {"function_name": fn["FunctionName"]},
            {
                "handler": fn.get("Handler"),
                "runtime": fn.get("Runtime"),
                "memory_size": fn.get("MemorySize"),
                "timeout": fn.get("Timeout"),
                "environment": dict((fn.get("Environment") or {}).get("Variables") or {}),
                "code_sha256": fn.get("CodeSha256"),
            },
        )


#: The kinds moto's readers cover, as the API returns them.
READERS: tuple[Reader, ...] = (
    Reader(("aws_db_instance",), "rds", _db_instances, not_compared=("password",)),
    Reader(("aws_s3_bucket",), "s3", _buckets, global_listing=True),
    Reader(("aws_s3_object", "aws_s3_bucket_object"), "s3", _s3_objects, global_listing=True),
    Reader(("aws_lambda_function",), "lambda", _functions, not_compared=("s3_bucket", "s3_key")),
)

#: Type -> the attributes moto's world compares and no API returns.
NOT_COMPARED = {t: list(r.not_compared) for r in READERS for t in r.types if r.not_compared}


def read_world(client: Clients, regions: Iterable[str], running: Iterable[str]) -> dict[str, Any]:
    """Every object of :data:`READERS` in the services ``running`` (LocalStack's names),
    regional kinds in each of ``regions``."""
    live = set(running)
    asked = list(dict.fromkeys(regions))
    objects = []
    for reader in READERS:
        if reader.service not in live:
            continue
        for region in asked[:1] if reader.global_listing else asked:
            for match, attributes in reader.objects(client(reader.service, region)):
                objects.append(
                    {
                        "types": list(reader.types),
                        "region": region,
                        "match": match,
                        "attributes": attributes,
                        "secret": sorted(reader.secret),
                    }
                )
    covered = sorted({t for r in READERS for t in r.types})
    return {"covered": covered, "objects": objects, "not_compared": NOT_COMPARED}
