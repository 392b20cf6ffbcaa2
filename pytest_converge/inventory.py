"""Cloud inventory: which objects exist in the emulator right now.

A scenario takes an inventory before and after it runs; ``after.minus(before)``
is what the scenario created, and :func:`pytest_converge.analysis.leftovers.find_leftovers`
matches that against Terraform's state to find duplicates and orphans (which an
empty second plan never reveals).

Each built-in *lister* lists one Terraform resource type through boto3 and
reports each object under the id Terraform stores for it::

    >>> inv = take_inventory(emulator)            # the built-in listers only
    >>> inv.by_type("aws_vpc")
    [CloudObject(type='aws_vpc', id='vpc-0a1b...', name='main', ...)]

Objects the emulator (or AWS) makes on its own - the default VPC and its
subnets, each VPC's default security group, main route table and default
network ACL, AWS-managed IAM policies and KMS keys - are filtered out by the
listers themselves, so an inventory is meaningful without a baseline.

Users add listers for other types by implementing the
``pytest_converge_inventory(emulator)`` hook; the plugin registers
:func:`pytest_converge_inventory` below as the built-in implementation.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pluggy

from .errors import EmulatorError

if TYPE_CHECKING:
    from .emulator.base import Emulator

__all__ = [
    "BUILTIN_LISTERS",
    "CloudObject",
    "Inventory",
    "pytest_converge_inventory",
    "take_inventory",
]

log = logging.getLogger(__name__)

# pluggy's marker for the "pytest" project is what ``pytest.hookimpl`` is; using
# it directly keeps this module importable without pytest.
hookimpl = pluggy.HookimplMarker("pytest")

#: Listers run in a small thread pool. Against an emulator in another process
#: (LocalStack, a remote moto) listing is I/O-bound and the pool divides the time;
#: the embedded moto shares this process's GIL, where measured (27 listers, warm,
#: empty) 1 worker took 0.20 s, 4 took 0.22 s and 16 took 0.30 s: 4 is the
#: compromise.
MAX_WORKERS = 4


@dataclass(frozen=True)
class CloudObject:
    """One object that exists in the (emulated) cloud.

    ``type`` is the Terraform resource type it corresponds to and ``id`` the
    id Terraform stores for it (``vpc-...``, a bucket name, a queue URL, a role
    name, an SNS topic ARN ...). ``attributes`` holds a few identifying
    attributes under their Terraform names (``cidr_block``, ``vpc_id``,
    ``tags`` ...); they are used to match a leftover to the state resource it
    duplicates and take no part in equality.
    """

    type: str
    id: str
    name: str | None = None
    arn: str | None = None
    region: str = "us-east-1"
    attributes: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> tuple[str, str]:
        """``(type, id)``: what identifies the object in an :class:`Inventory`."""
        return (self.type, self.id)

    def describe(self) -> str:
        """Short human form: ``aws_vpc vpc-0a1b (main)``."""
        return f"{self.type} {self.id}" + (
            f" ({self.name})" if self.name and self.name != self.id else ""
        )


class Inventory:
    """A set of :class:`CloudObject`, keyed by ``(type, id)``.

    ``skipped`` maps a resource type to the reason its lister could not list it
    (the emulator does not implement that service); objects of those types are
    unknown, not absent.
    """

    def __init__(
        self, objects: Iterable[CloudObject] = (), skipped: dict[str, str] | None = None
    ) -> None:
        by_key: dict[tuple[str, str], CloudObject] = {}
        for obj in objects:
            # Two listers (a built-in and a user's) may report the same object: keep one.
            by_key.setdefault(obj.key, obj)
        self._by_key = by_key
        self.skipped: dict[str, str] = dict(skipped or {})

    @property
    def objects(self) -> list[CloudObject]:
        """Every object, sorted by type then id (stable for reports and tests)."""
        return sorted(self._by_key.values(), key=lambda o: o.key)

    def __iter__(self) -> Iterator[CloudObject]:
        return iter(self.objects)

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, item: object) -> bool:
        """True for a :class:`CloudObject` or a ``(type, id)`` tuple that is present."""
        if isinstance(item, CloudObject):
            return item.key in self._by_key
        return item in self._by_key

    def __bool__(self) -> bool:
        return bool(self._by_key)

    def __repr__(self) -> str:
        return f"Inventory({len(self)} objects)"

    def by_type(self, type: str) -> list[CloudObject]:
        """The objects of one Terraform resource type, sorted by id."""
        return [o for o in self.objects if o.type == type]

    def ids(self, type: str) -> set[str]:
        """The ids of one Terraform resource type."""
        return {o.id for o in self._by_key.values() if o.type == type}

    def minus(self, other: Inventory) -> Inventory:
        """What is in ``self`` and not in ``other`` (``after.minus(before)`` = created)."""
        skipped = {**other.skipped, **self.skipped}
        return Inventory((o for o in self._by_key.values() if o.key not in other), skipped)


# --- running listers ----------------------------------------------------------------------

Lister = Callable[["Emulator"], list[CloudObject]]


def take_inventory(emulator: Emulator, listers: Callable[..., Any] | None = None) -> Inventory:
    """List every object in ``emulator`` now.

    ``listers(emulator)`` returns a list of lists of :class:`CloudObject`, one
    per implementation (``None`` entries are ignored; a flat list of objects
    is accepted too): pass ``config.hook.pytest_converge_inventory`` (called
    with the keyword argument pluggy requires) to merge every hook
    implementation. With ``listers=None`` the built-in listers run directly.

    Raises :class:`EmulatorError` when the emulator does not answer.
    """
    if not emulator.is_alive():
        raise EmulatorError(
            f"cannot take an inventory: the {getattr(emulator, 'name', 'emulator')} emulator "
            "is not running or does not answer its health check"
        )
    if listers is None:
        objects, skipped = _list_builtin(emulator)
        return Inventory(objects, skipped)
    _forget_skipped(emulator)
    if isinstance(listers, pluggy.HookCaller):
        results = listers(emulator=emulator)  # pluggy hooks take keyword arguments only
    else:
        results = listers(emulator)
    objects: list[CloudObject] = []
    for result in results or ():
        # One implementation's list, or (from a plain callable) an object itself.
        if isinstance(result, CloudObject):
            objects.append(result)
        elif result:
            objects.extend(result)
    # The built-in hook implementation records what it could not list for this emulator.
    return Inventory(objects, _LAST_SKIPPED.get(emulator, {}))


def _forget_skipped(emulator: Emulator) -> None:
    try:
        _LAST_SKIPPED.pop(emulator, None)
    except TypeError:  # not weak-referenceable
        pass


@hookimpl
def pytest_converge_inventory(emulator: Emulator) -> list[CloudObject]:
    """The built-in listers (every type in :data:`BUILTIN_LISTERS`), merged."""
    objects, _ = _list_builtin(emulator)
    return objects


_LAST_SKIPPED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def _list_builtin(emulator: Emulator) -> tuple[list[CloudObject], dict[str, str]]:
    """Run every built-in lister in parallel; return objects and the skipped types."""
    listers = dict(BUILTIN_LISTERS)
    objects: list[CloudObject] = []
    skipped: dict[str, str] = {}
    with ThreadPoolExecutor(
        max_workers=min(MAX_WORKERS, max(1, len(listers))), thread_name_prefix="converge-inv"
    ) as pool:
        futures = {
            type_: pool.submit(_run_lister, emulator, type_, lister)
            for type_, lister in listers.items()
        }
        errors: list[EmulatorError] = []
        for type_, future in futures.items():
            try:
                found, reason = future.result()
            except EmulatorError as exc:
                errors.append(exc)
                continue
            objects.extend(found)
            if reason:
                skipped[type_] = reason
    if errors:
        raise errors[0]
    try:
        _LAST_SKIPPED[emulator] = skipped
    except TypeError:  # an emulator that cannot be weakly referenced: nothing to remember
        pass
    return objects, skipped


def _run_lister(
    emulator: Emulator, type_: str, lister: Lister
) -> tuple[list[CloudObject], str | None]:
    """Run one lister; fail soft when the emulator lacks the service, hard when it is gone."""
    from botocore.exceptions import (
        BotoCoreError,
        ClientError,
        ConnectionClosedError,
        ConnectTimeoutError,
        EndpointConnectionError,
        ReadTimeoutError,
    )

    try:
        return lister(emulator), None
    except _Unavailable as exc:
        return [], str(exc)
    except (EndpointConnectionError, ConnectionClosedError, ConnectTimeoutError) as exc:
        raise EmulatorError(f"the emulator stopped answering while listing {type_}: {exc}") from exc
    except ReadTimeoutError as exc:
        raise EmulatorError(f"the emulator hung while listing {type_}: {exc}") from exc
    except EmulatorError:
        raise
    except (ClientError, BotoCoreError) as exc:
        # The emulator answered but cannot list this type (moto answers 500 for a service
        # it lacks and an unparsable page for an action it lacks): the type is unknown,
        # which the inventory records instead of failing the whole scenario.
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        log.info("inventory: cannot list %s on this emulator (%s)", type_, reason)
        return [], reason


# Clients are cached per emulator and endpoint: building a boto3 session and client
# costs 50-250 ms each (model loading), more than listing an empty emulator.
_CLIENTS: weakref.WeakKeyDictionary[Any, dict[tuple[str, str, str], Any]] = (
    weakref.WeakKeyDictionary()
)
_CLIENTS_LOCK = threading.Lock()


class _Unavailable(Exception):
    """The backend says it lacks the service: the lister is skipped, nothing is asked."""


def _client(emulator: Emulator, service: str) -> Any:
    """A cached ``emulator.client(service)`` (botocore clients are thread-safe to use).

    A backend may declare ``unsupported_services`` (LocalStack's DynamoDB and
    Kinesis need engines it downloads: asking would hang): those raise
    :class:`_Unavailable`, which the lister runner turns into a skip.
    """
    if service in getattr(emulator, "unsupported_services", frozenset()):
        raise _Unavailable(f"{service} is not available on {emulator.name}")
    key = (emulator.endpoint, emulator.region, service)
    with _CLIENTS_LOCK:
        try:
            cache = _CLIENTS.setdefault(emulator, {})
        except TypeError:  # not weak-referenceable: no cache
            return emulator.client(service)
        client = cache.get(key)
        if client is None:
            client = cache[key] = _make_client(emulator, service)
        return client


_SHARED_SESSIONS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _make_client(emulator: Emulator, service: str) -> Any:
    """Build a client the way ``emulator.client`` does, from one shared session.

    ``Emulator.client`` makes a new boto3 session per call, which reloads
    botocore's models each time (~0.1-0.25 s); one session per emulator makes
    the first inventory ~5x faster. A backend that overrides ``client()`` is
    called as is, since it may configure its clients differently.
    """
    from .emulator.base import Emulator as _Base

    if type(emulator).client is not _Base.client:
        return emulator.client(service)
    from botocore.config import Config

    session = _SHARED_SESSIONS.get(emulator)
    if session is None:
        session = _SHARED_SESSIONS[emulator] = emulator.session()
    return session.client(
        service,
        endpoint_url=emulator.endpoint,
        region_name=emulator.region,
        config=Config(
            retries={"max_attempts": 2},
            s3={"addressing_style": "path"},
            # HTTP(S)_PROXY from a CI environment must never see emulator traffic.
            proxies={"http": "", "https": ""},
        ),
    )


# --- helpers for listers -------------------------------------------------------------------


def _pages(client: Any, operation: str, result_key: str, **params: Any) -> list[Any]:
    """Every item under ``result_key`` of ``operation``, across pages when it paginates."""
    if client.can_paginate(operation):
        items: list[Any] = []
        for page in client.get_paginator(operation).paginate(**params):
            items.extend(page.get(result_key) or [])
        return items
    return list(getattr(client, operation)(**params).get(result_key) or [])


def _tags(tag_list: Iterable[dict[str, str]] | None) -> dict[str, str]:
    """EC2-style ``[{"Key": k, "Value": v}]`` to ``{k: v}``."""
    return {t["Key"]: t.get("Value", "") for t in tag_list or () if "Key" in t}


def _obj(
    emulator: Emulator,
    type_: str,
    id_: str,
    *,
    name: str | None = None,
    arn: str | None = None,
    **attributes: Any,
) -> CloudObject:
    attrs = {k: v for k, v in attributes.items() if v not in (None, "", {}, [])}
    if name is None:
        name = (attrs.get("tags") or {}).get("Name") or None
    return CloudObject(
        type=type_, id=id_, name=name, arn=arn, region=emulator.region, attributes=attrs
    )


def _default_vpc_ids(ec2: Any) -> set[str]:
    vpcs = _pages(
        ec2, "describe_vpcs", "Vpcs", Filters=[{"Name": "is-default", "Values": ["true"]}]
    )
    return {v["VpcId"] for v in vpcs}


# --- EC2 / VPC ----------------------------------------------------------------------------


def list_vpcs(emulator: Emulator) -> list[CloudObject]:
    """``aws_vpc``: every VPC but the region's default VPC."""
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_vpc",
            v["VpcId"],
            cidr_block=v.get("CidrBlock"),
            tags=_tags(v.get("Tags")),
        )
        for v in _pages(ec2, "describe_vpcs", "Vpcs")
        if not v.get("IsDefault")
    ]


def list_subnets(emulator: Emulator) -> list[CloudObject]:
    """``aws_subnet``: every subnet but the default VPC's per-AZ default subnets."""
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_subnet",
            s["SubnetId"],
            arn=s.get("SubnetArn"),
            cidr_block=s.get("CidrBlock"),
            vpc_id=s.get("VpcId"),
            availability_zone=s.get("AvailabilityZone"),
            tags=_tags(s.get("Tags")),
        )
        for s in _pages(ec2, "describe_subnets", "Subnets")
        if not s.get("DefaultForAz")
    ]


def list_security_groups(emulator: Emulator) -> list[CloudObject]:
    """``aws_security_group``: every group but each VPC's own ``default`` group.

    AWS refuses to create a group named ``default``, so the name alone is exact.
    """
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_security_group",
            g["GroupId"],
            name=g.get("GroupName"),
            vpc_id=g.get("VpcId"),
            description=g.get("Description"),
            tags=_tags(g.get("Tags")),
        )
        for g in _pages(ec2, "describe_security_groups", "SecurityGroups")
        if g.get("GroupName") != "default"
    ]


def list_internet_gateways(emulator: Emulator) -> list[CloudObject]:
    """``aws_internet_gateway``: every gateway but one attached to a default VPC."""
    ec2 = _client(emulator, "ec2")
    default_vpcs = _default_vpc_ids(ec2)
    found = []
    for g in _pages(ec2, "describe_internet_gateways", "InternetGateways"):
        vpc_ids = [a.get("VpcId") for a in g.get("Attachments") or []]
        if any(v in default_vpcs for v in vpc_ids):
            continue
        found.append(
            _obj(
                emulator,
                "aws_internet_gateway",
                g["InternetGatewayId"],
                vpc_id=vpc_ids[0] if vpc_ids else None,
                tags=_tags(g.get("Tags")),
            )
        )
    return found


def list_route_tables(emulator: Emulator) -> list[CloudObject]:
    """``aws_route_table``: every table but each VPC's main route table.

    Known limit: a module's own table made main (``aws_main_route_table_association``)
    is filtered too; the VPC's original main table then shows up, and
    :func:`~pytest_converge.analysis.leftovers.find_leftovers` recognises it through
    the association's ``original_route_table_id``.
    """
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_route_table",
            t["RouteTableId"],
            vpc_id=t.get("VpcId"),
            tags=_tags(t.get("Tags")),
        )
        for t in _pages(ec2, "describe_route_tables", "RouteTables")
        if not any(a.get("Main") for a in t.get("Associations") or [])
    ]


def list_network_acls(emulator: Emulator) -> list[CloudObject]:
    """``aws_network_acl``: every ACL but each VPC's default ACL."""
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_network_acl",
            n["NetworkAclId"],
            vpc_id=n.get("VpcId"),
            tags=_tags(n.get("Tags")),
        )
        for n in _pages(ec2, "describe_network_acls", "NetworkAcls")
        if not n.get("IsDefault")
    ]


def list_nat_gateways(emulator: Emulator) -> list[CloudObject]:
    """``aws_nat_gateway``: every gateway not deleted."""
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_nat_gateway",
            g["NatGatewayId"],
            subnet_id=g.get("SubnetId"),
            vpc_id=g.get("VpcId"),
            tags=_tags(g.get("Tags")),
        )
        for g in _pages(ec2, "describe_nat_gateways", "NatGateways")
        if g.get("State") not in ("deleted", "deleting")
    ]


def list_eips(emulator: Emulator) -> list[CloudObject]:
    """``aws_eip``: id is the allocation id (VPC) or the public IP (EC2-Classic), as Terraform."""
    ec2 = _client(emulator, "ec2")
    found = []
    for a in ec2.describe_addresses().get("Addresses") or []:  # not paginated by the API
        id_ = a.get("AllocationId") if a.get("Domain", "vpc") == "vpc" else a.get("PublicIp")
        if not id_:
            id_ = a.get("AllocationId") or a.get("PublicIp")
        found.append(
            _obj(
                emulator,
                "aws_eip",
                id_,
                public_ip=a.get("PublicIp"),
                instance=a.get("InstanceId"),
                tags=_tags(a.get("Tags")),
            )
        )
    return found


def list_instances(emulator: Emulator) -> list[CloudObject]:
    """``aws_instance``: every instance not terminated."""
    ec2 = _client(emulator, "ec2")
    found = []
    for reservation in _pages(ec2, "describe_instances", "Reservations"):
        for i in reservation.get("Instances") or []:
            if (i.get("State") or {}).get("Name") == "terminated":
                continue
            found.append(
                _obj(
                    emulator,
                    "aws_instance",
                    i["InstanceId"],
                    ami=i.get("ImageId"),
                    instance_type=i.get("InstanceType"),
                    subnet_id=i.get("SubnetId"),
                    tags=_tags(i.get("Tags")),
                )
            )
    return found


def list_key_pairs(emulator: Emulator) -> list[CloudObject]:
    """``aws_key_pair``: id is the key name."""
    ec2 = _client(emulator, "ec2")
    return [
        _obj(
            emulator,
            "aws_key_pair",
            k["KeyName"],
            name=k["KeyName"],
            key_name=k["KeyName"],
            key_pair_id=k.get("KeyPairId"),
            tags=_tags(k.get("Tags")),
        )
        for k in ec2.describe_key_pairs().get("KeyPairs") or []  # not paginated by the API
    ]


# --- storage, messaging, data --------------------------------------------------------------


def list_s3_buckets(emulator: Emulator) -> list[CloudObject]:
    """``aws_s3_bucket``: id is the bucket name."""
    s3 = _client(emulator, "s3")
    return [
        _obj(
            emulator,
            "aws_s3_bucket",
            b["Name"],
            name=b["Name"],
            arn=f"arn:aws:s3:::{b['Name']}",
            bucket=b["Name"],
        )
        for b in s3.list_buckets().get("Buckets") or []
    ]


def list_sqs_queues(emulator: Emulator) -> list[CloudObject]:
    """``aws_sqs_queue``: id is the queue URL (its host is the endpoint the caller used)."""
    sqs = _client(emulator, "sqs")
    found = []
    for url in _pages(sqs, "list_queues", "QueueUrls"):
        parts = url.rstrip("/").split("/")
        name, account = parts[-1], parts[-2] if len(parts) > 1 else ""
        arn = f"arn:aws:sqs:{emulator.region}:{account}:{name}" if account.isdigit() else None
        found.append(_obj(emulator, "aws_sqs_queue", url, name=name, arn=arn, url=url))
    return found


def list_sns_topics(emulator: Emulator) -> list[CloudObject]:
    """``aws_sns_topic``: id is the topic ARN."""
    sns = _client(emulator, "sns")
    return [
        _obj(
            emulator,
            "aws_sns_topic",
            t["TopicArn"],
            name=t["TopicArn"].rsplit(":", 1)[-1],
            arn=t["TopicArn"],
        )
        for t in _pages(sns, "list_topics", "Topics")
    ]


def list_dynamodb_tables(emulator: Emulator) -> list[CloudObject]:
    """``aws_dynamodb_table``: id is the table name."""
    ddb = _client(emulator, "dynamodb")
    return [
        _obj(emulator, "aws_dynamodb_table", name, name=name)
        for name in _pages(ddb, "list_tables", "TableNames")
    ]


def list_kinesis_streams(emulator: Emulator) -> list[CloudObject]:
    """``aws_kinesis_stream``: id is the stream ARN (provider 3.x sets it so)."""
    kinesis = _client(emulator, "kinesis")
    found = []
    for name in _pages(kinesis, "list_streams", "StreamNames"):
        summary = kinesis.describe_stream_summary(StreamName=name)["StreamDescriptionSummary"]
        if summary.get("StreamStatus") == "DELETING":
            continue
        arn = summary["StreamARN"]
        found.append(_obj(emulator, "aws_kinesis_stream", arn, name=name, arn=arn))
    return found


def list_secrets(emulator: Emulator) -> list[CloudObject]:
    """``aws_secretsmanager_secret``: id is the secret ARN (scheduled deletions excluded)."""
    sm = _client(emulator, "secretsmanager")
    return [
        _obj(emulator, "aws_secretsmanager_secret", s["ARN"], name=s.get("Name"), arn=s["ARN"])
        for s in _pages(sm, "list_secrets", "SecretList")
        if not s.get("DeletedDate")
    ]


def list_ssm_parameters(emulator: Emulator) -> list[CloudObject]:
    """``aws_ssm_parameter``: id is the parameter name; AWS public ``/aws/`` ones excluded."""
    ssm = _client(emulator, "ssm")
    return [
        _obj(
            emulator,
            "aws_ssm_parameter",
            p["Name"],
            name=p["Name"],
            arn=p.get("ARN"),
            type=p.get("Type"),
        )
        for p in _pages(ssm, "describe_parameters", "Parameters")
        if not p["Name"].startswith("/aws/")
    ]


def list_kms_keys(emulator: Emulator) -> list[CloudObject]:
    """``aws_kms_key``: customer-managed keys not pending deletion; id is the key id."""
    kms = _client(emulator, "kms")
    found = []
    for k in _pages(kms, "list_keys", "Keys"):
        meta = kms.describe_key(KeyId=k["KeyId"])["KeyMetadata"]
        # AWS-managed keys (aws/s3, aws/ebs ...) appear lazily and belong to no module.
        if meta.get("KeyManager") == "AWS":
            continue
        if meta.get("KeyState") in ("PendingDeletion", "PendingReplicaDeletion"):
            continue
        found.append(
            _obj(
                emulator,
                "aws_kms_key",
                meta["KeyId"],
                arn=meta.get("Arn"),
                description=meta.get("Description"),
            )
        )
    return found


def list_log_groups(emulator: Emulator) -> list[CloudObject]:
    """``aws_cloudwatch_log_group``: id is the group name."""
    logs = _client(emulator, "logs")
    found = []
    for g in _pages(logs, "describe_log_groups", "logGroups"):
        # Terraform stores the ARN without the ":*" DescribeLogGroups appends.
        arn = g.get("arn")
        arn = arn[:-2] if arn and arn.endswith(":*") else arn
        name = g["logGroupName"]
        found.append(_obj(emulator, "aws_cloudwatch_log_group", name, name=name, arn=arn))
    return found


def list_ecr_repositories(emulator: Emulator) -> list[CloudObject]:
    """``aws_ecr_repository``: id is the repository name."""
    ecr = _client(emulator, "ecr")
    return [
        _obj(
            emulator,
            "aws_ecr_repository",
            r["repositoryName"],
            name=r["repositoryName"],
            arn=r.get("repositoryArn"),
        )
        for r in _pages(ecr, "describe_repositories", "repositories")
    ]


# --- IAM (global, reported in the emulator's region) ----------------------------------------


def list_iam_roles(emulator: Emulator) -> list[CloudObject]:
    """``aws_iam_role``: id is the role name; service-linked and reserved roles excluded."""
    iam = _client(emulator, "iam")
    return [
        _obj(emulator, "aws_iam_role", r["RoleName"], name=r["RoleName"], arn=r.get("Arn"))
        for r in _pages(iam, "list_roles", "Roles")
        if not r.get("Path", "/").startswith(("/aws-service-role/", "/aws-reserved/"))
    ]


def list_iam_policies(emulator: Emulator) -> list[CloudObject]:
    """``aws_iam_policy``: customer-managed (Scope=Local) policies; id is the policy ARN."""
    iam = _client(emulator, "iam")
    return [
        _obj(emulator, "aws_iam_policy", p["Arn"], name=p["PolicyName"], arn=p["Arn"])
        for p in _pages(iam, "list_policies", "Policies", Scope="Local")
    ]


def list_iam_users(emulator: Emulator) -> list[CloudObject]:
    """``aws_iam_user``: id is the user name."""
    iam = _client(emulator, "iam")
    return [
        _obj(emulator, "aws_iam_user", u["UserName"], name=u["UserName"], arn=u.get("Arn"))
        for u in _pages(iam, "list_users", "Users")
    ]


def list_iam_instance_profiles(emulator: Emulator) -> list[CloudObject]:
    """``aws_iam_instance_profile``: id is the profile name."""
    iam = _client(emulator, "iam")
    return [
        _obj(
            emulator,
            "aws_iam_instance_profile",
            p["InstanceProfileName"],
            name=p["InstanceProfileName"],
            arn=p.get("Arn"),
        )
        for p in _pages(iam, "list_instance_profiles", "InstanceProfiles")
    ]


# --- compute -------------------------------------------------------------------------------


def list_lambda_functions(emulator: Emulator) -> list[CloudObject]:
    """``aws_lambda_function``: id is the function name."""
    lam = _client(emulator, "lambda")
    return [
        _obj(
            emulator,
            "aws_lambda_function",
            f["FunctionName"],
            name=f["FunctionName"],
            arn=f.get("FunctionArn"),
            function_name=f["FunctionName"],
        )
        for f in _pages(lam, "list_functions", "Functions")
    ]


def list_load_balancers(emulator: Emulator) -> list[CloudObject]:
    """``aws_lb`` (ELBv2): id is the load balancer ARN."""
    elb = _client(emulator, "elbv2")
    return [
        _obj(
            emulator,
            "aws_lb",
            lb["LoadBalancerArn"],
            name=lb.get("LoadBalancerName"),
            arn=lb["LoadBalancerArn"],
            vpc_id=lb.get("VpcId"),
            load_balancer_type=lb.get("Type"),
        )
        for lb in _pages(elb, "describe_load_balancers", "LoadBalancers")
    ]


def list_ecs_clusters(emulator: Emulator) -> list[CloudObject]:
    """``aws_ecs_cluster``: active clusters; id is the cluster ARN."""
    ecs = _client(emulator, "ecs")
    arns = _pages(ecs, "list_clusters", "clusterArns")
    found = []
    for start in range(0, len(arns), 100):  # DescribeClusters takes at most 100
        for c in ecs.describe_clusters(clusters=arns[start : start + 100]).get("clusters") or []:
            if c.get("status", "ACTIVE") != "ACTIVE":
                continue
            arn = c["clusterArn"]
            found.append(_obj(emulator, "aws_ecs_cluster", arn, name=c.get("clusterName"), arn=arn))
    return found


#: Terraform resource type -> the built-in lister of it. Tests and users may add to
#: or remove from this mapping; the ``pytest_converge_inventory`` hook is the
#: supported way to add a type.
BUILTIN_LISTERS: dict[str, Lister] = {
    "aws_vpc": list_vpcs,
    "aws_subnet": list_subnets,
    "aws_security_group": list_security_groups,
    "aws_internet_gateway": list_internet_gateways,
    "aws_route_table": list_route_tables,
    "aws_nat_gateway": list_nat_gateways,
    "aws_eip": list_eips,
    "aws_network_acl": list_network_acls,
    "aws_instance": list_instances,
    "aws_key_pair": list_key_pairs,
    "aws_s3_bucket": list_s3_buckets,
    "aws_sqs_queue": list_sqs_queues,
    "aws_sns_topic": list_sns_topics,
    "aws_iam_role": list_iam_roles,
    "aws_iam_policy": list_iam_policies,
    "aws_iam_user": list_iam_users,
    "aws_iam_instance_profile": list_iam_instance_profiles,
    "aws_dynamodb_table": list_dynamodb_tables,
    "aws_lambda_function": list_lambda_functions,
    "aws_kms_key": list_kms_keys,
    "aws_cloudwatch_log_group": list_log_groups,
    "aws_ecr_repository": list_ecr_repositories,
    "aws_secretsmanager_secret": list_secrets,
    "aws_ssm_parameter": list_ssm_parameters,
    "aws_lb": list_load_balancers,
    "aws_ecs_cluster": list_ecs_clusters,
    "aws_kinesis_stream": list_kinesis_streams,
}
