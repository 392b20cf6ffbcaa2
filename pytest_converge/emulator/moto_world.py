"""What moto holds, read from its backend model inside the server process.

``GET /converge-api/world`` on the moto server (see :mod:`.moto_server`)
answers :func:`read_world`: every object of the types below, with the
attributes a module sets, as moto stores them. The model holds what no
describe call returns (a master password, an object's body), which is what a
failed update can leave behind under an empty plan.

The answer is plain JSON::

    {"covered": ["aws_db_instance", ...],
     "objects": [{"types": ["aws_db_instance"], "region": "us-east-1",
                  "match": {"identifier": "orders"},
                  "attributes": {"password": "...", "instance_class": "db.t3.micro"},
                  "secret": ["password"]}]}

``match`` names the state attributes (and values) that identify the object,
so the plugin finds its address in state; ``secret`` the attributes the
plugin never shows. A reader is one row of :data:`READERS`; only backends
moto has already built are read (reading never creates one).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: The path the moto server answers :func:`read_world` on.
WORLD_PATH = "/converge-api/world"
#: Changes with what a reader reads or how it writes a value: a clean world kept
#: across sessions (with a module's fault points) of another format is not compared.
#: world-2: LocalStack has a world too (:mod:`.localstack_world`; a LocalStack run's
#: fault points kept before it have none).
WORLD_FORMAT = "world-2"


@dataclass(frozen=True)
class Reader:
    """How to read one kind of moto object: its terraform types, backend and attributes."""

    #: Terraform resource types this object is (a renamed type keeps its old name).
    types: tuple[str, ...]
    #: moto's module holding the backend dict, and the dict's name there.
    module: str
    backends: str
    #: The objects of one regional (or partition) backend.
    objects: Callable[[Any], Iterable[Any]]
    #: State attribute -> value that identifies an object.
    match: Callable[[Any], dict[str, str]]
    #: Terraform attribute -> the value moto stores.
    attributes: Callable[[Any], dict[str, Any]]
    secret: frozenset[str] = field(default_factory=frozenset)


def body(data: bytes | str | None) -> str | None:
    """An object body as ``sha256:<hex> (<n> bytes)``: comparable, never shown."""
    if data is None:
        return None
    raw = data.encode() if isinstance(data, str) else bytes(data)
    return f"sha256:{hashlib.sha256(raw).hexdigest()} ({len(raw)} bytes)"


def _grants(acl: Any) -> list[str]:
    """An S3 ACL as sorted ``grantee:permission`` lines."""
    found: list[str] = []
    for grant in getattr(acl, "grants", None) or []:
        for grantee in grant.grantees:
            who = grantee.uri or grantee.id or grantee.display_name
            found.extend(f"{who}:{p}" for p in grant.permissions)
    return sorted(found)


def document(raw: bytes | str | None) -> Any:
    """A stored JSON document (a bucket policy) as data; text that is not JSON as text."""
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace") if isinstance(raw, bytes) else raw


def _db_instances(backend: Any) -> Iterable[Any]:
    return list(backend.databases.values())


def _get(obj: Any, name: str) -> Any:
    """``obj.name``, or None where moto does not have it (a property that raises)."""
    try:
        return getattr(obj, name, None)
    except Exception:
        return None


def _db_attributes(db: Any) -> dict[str, Any]:
    # The password's property refuses to be read ("not retrievable"): its field is not.
    password = vars(db).get("_master_user_password")
    names = {
        "username": "master_username",
        "instance_class": "db_instance_class",
        "allocated_storage": "allocated_storage",
        "engine": "engine",
        "port": "port",
        "db_name": "db_name",
        "multi_az": "multi_az",
        "publicly_accessible": "publicly_accessible",
        "backup_retention_period": "backup_retention_period",
        "deletion_protection": "deletion_protection",
        "parameter_group_name": "db_parameter_group_name",
    }
    return {"password": password, **{tf: _get(db, name) for tf, name in names.items()}}


def _buckets(backend: Any) -> Iterable[Any]:
    return list(backend.buckets.values())


def _bucket_attributes(bucket: Any) -> dict[str, Any]:
    return {
        "acl": _grants(bucket.acl),
        "versioning": bucket.versioning_status,
        "policy": document(bucket.policy),
    }


def _objects(backend: Any) -> Iterable[Any]:
    return [
        (bucket, key)
        for bucket in list(backend.buckets.values())
        for key in list(bucket.keys.values())
        if key is not None
    ]


def _object_attributes(pair: Any) -> dict[str, Any]:
    _, key = pair
    return {
        "content": body(key.value),
        "content_type": key._metadata.get("Content-Type"),
        "acl": _grants(key.acl),
        "storage_class": _get(key, "storage_class"),
    }


def _functions(backend: Any) -> Iterable[Any]:
    return [group["latest"] for group in list(backend._lambdas._functions.values())]


def _function_attributes(fn: Any) -> dict[str, Any]:
    code = fn.code or {}
    found = {
        "handler": fn.handler,
        "runtime": fn.run_time,
        "memory_size": fn.memory_size,
        "timeout": fn.timeout,
        "environment": dict(fn.environment_vars or {}),
        "code_sha256": getattr(fn, "code_sha_256", None),
    }
    if "ZipFile" not in code:  # for a zip, moto makes up an S3 key of its own
        found.update(s3_bucket=code.get("S3Bucket"), s3_key=code.get("S3Key"))
    return found


#: The objects the world of a scenario is made of.
READERS: tuple[Reader, ...] = (
    Reader(
        ("aws_db_instance",),
        "moto.rds.models",
        "rds_backends",
        _db_instances,
        lambda db: {"identifier": db.db_instance_identifier},
        _db_attributes,
        secret=frozenset({"password"}),
    ),
    Reader(
        ("aws_s3_bucket",),
        "moto.s3.models",
        "s3_backends",
        _buckets,
        lambda bucket: {"bucket": bucket.name},
        _bucket_attributes,
    ),
    Reader(
        ("aws_s3_object", "aws_s3_bucket_object"),
        "moto.s3.models",
        "s3_backends",
        _objects,
        lambda pair: {"bucket": pair[0].name, "key": pair[1].name},
        _object_attributes,
    ),
    Reader(
        ("aws_lambda_function",),
        "moto.awslambda.models",
        "lambda_backends",
        _functions,
        lambda fn: {"function_name": fn.function_name},
        _function_attributes,
    ),
)


def _backends(reader: Reader) -> Iterator[tuple[str, Any]]:
    """(region, backend) of every backend moto built for ``reader`` (none built: none)."""
    module = sys.modules.get(reader.module)
    if module is None:  # nothing ever used the service
        return
    by_account = getattr(module, reader.backends)
    for account in list(dict.keys(by_account)):
        yield from list(dict.items(by_account[account]))


def read_world() -> dict[str, Any]:
    """Every object of :data:`READERS` moto holds (see the module docstring)."""
    objects = []
    for reader in READERS:
        for region, backend in _backends(reader):
            for obj in reader.objects(backend):
                objects.append(
                    {
                        "types": list(reader.types),
                        "region": region,
                        "match": reader.match(obj),
                        "attributes": _jsonable(reader.attributes(obj)),
                        "secret": sorted(reader.secret),
                    }
                )
    covered = sorted({t for r in READERS for t in r.types})
    return {"covered": covered, "objects": objects}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, bytes):
        return body(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
