"""Cloud inventory: which objects exist in the emulator right now, in every region.

A scenario takes an inventory before and after it runs; ``after.minus(before)``
is what the scenario created, and :func:`pytest_converge.analysis.leftovers.find_leftovers`
matches that against Terraform's state to find duplicates and orphans (which an
empty second plan never reveals).

Each built-in *lister* lists one Terraform resource type through boto3, in one
region, and reports each object under the id Terraform stores for it::

    >>> inv = take_inventory(emulator, regions=["eu-west-1", "us-west-2"])
    >>> inv.by_type("aws_vpc")
    [CloudObject(type='aws_vpc', id='vpc-0a1b...', name='main', region='eu-west-1', ...)]

Regional listers run once per region asked for; global ones (IAM, Route 53,
S3's bucket list) once, their objects carrying their own region (a bucket's
location) or :data:`GLOBAL`.

Objects the emulator (or AWS) makes on its own - the default VPC and its
subnets, each VPC's default security group, main route table and default
network ACL, AWS-managed IAM policies, KMS keys and aliases - are filtered out
by the listers themselves, so an inventory is meaningful without a baseline.

The listers are data (:data:`BUILTIN_LISTERS`, one :class:`Lister` per
resource type). Users add listers for other types by implementing the
``pytest_converge_inventory(emulator, regions, services)`` hook; the plugin registers
:func:`pytest_converge_inventory` below as the built-in implementation.
"""

from __future__ import annotations

import inspect
import logging
import threading
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pluggy

from .errors import EmulatorError

if TYPE_CHECKING:
    from .emulator.base import Emulator

__all__ = [
    "BUILTIN_LISTERS",
    "GLOBAL",
    "CloudObject",
    "Inventory",
    "Lister",
    "Scope",
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

#: The region of objects that have none (IAM, Route 53, CloudFront).
GLOBAL = "global"


@dataclass(frozen=True)
class CloudObject:
    """One object that exists in the (emulated) cloud.

    ``type`` is the Terraform resource type it corresponds to and ``id`` the
    id Terraform stores for it (``vpc-...``, a bucket name, a queue URL, a role
    name, an SNS topic ARN ...). ``region`` is the region the object lives in
    (:data:`GLOBAL` for IAM and other global services). ``attributes`` holds a
    few identifying attributes under their Terraform names (``cidr_block``,
    ``vpc_id``, ``tags`` ...); they are used to match a leftover to the state
    resource it duplicates and take no part in equality.
    """

    type: str
    id: str
    name: str | None = None
    arn: str | None = None
    region: str = "us-east-1"
    attributes: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> tuple[str, str]:
        """``(type, id)``: what names the object within its region."""
        return (self.type, self.id)

    @property
    def where(self) -> tuple[str, str, str]:
        """``(type, region, id)``: what identifies the object in an :class:`Inventory`."""
        return (self.type, self.region, self.id)

    def describe(self) -> str:
        """Short human form: ``aws_vpc vpc-0a1b (main)``."""
        return f"{self.type} {self.id}" + (
            f" ({self.name})" if self.name and self.name != self.id else ""
        )


class Inventory:
    """A set of :class:`CloudObject`, keyed by ``(type, region, id)``.

    ``skipped`` maps a resource type to the reason its lister could not list it
    (the emulator does not implement that service); objects of those types are
    unknown, not absent. ``covered`` is every type a lister was asked to list
    (whether or not it found any), so a caller can tell "none exist" from
    "nobody looked" (see :func:`uncovered_types`).
    """

    def __init__(
        self,
        objects: Iterable[CloudObject] = (),
        skipped: dict[str, str] | None = None,
        covered: Iterable[str] = (),
    ) -> None:
        by_key: dict[tuple[str, str, str], CloudObject] = {}
        for obj in objects:
            # Two listers (a built-in and a user's) may report the same object: keep one.
            by_key.setdefault(obj.where, obj)
        self._by_key = by_key
        self.skipped: dict[str, str] = dict(skipped or {})
        self.covered: frozenset[str] = frozenset(covered) | {o.type for o in by_key.values()}

    @property
    def objects(self) -> list[CloudObject]:
        """Every object, sorted by type, id, region (stable for reports and tests)."""
        return sorted(self._by_key.values(), key=lambda o: (o.type, o.id, o.region))

    @property
    def regions(self) -> set[str]:
        """The regions of the objects found."""
        return {o.region for o in self._by_key.values()}

    def __iter__(self) -> Iterator[CloudObject]:
        return iter(self.objects)

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, item: object) -> bool:
        """True for a present :class:`CloudObject`, ``(type, region, id)`` or ``(type, id)``
        (the latter in any region)."""
        if isinstance(item, CloudObject):
            return item.where in self._by_key
        if isinstance(item, tuple) and len(item) == 2:
            return any(o.key == item for o in self._by_key.values())
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
        return Inventory(
            (o for o in self._by_key.values() if o.where not in other._by_key),
            skipped,
            self.covered & other.covered if other.covered else self.covered,
        )


# --- running listers ----------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """What a lister lists in: an emulator and one region (``GLOBAL`` for global listers)."""

    emulator: Emulator
    region: str

    def client(self, service: str) -> Any:
        """A cached boto3 client for ``service`` signed for this region."""
        region = self.emulator.region if self.region == GLOBAL else self.region
        return _client(self.emulator, service, region)

    def obj(
        self,
        type_: str,
        id_: str,
        *,
        name: str | None = None,
        arn: str | None = None,
        region: str | None = None,
        **attributes: Any,
    ) -> CloudObject:
        """A :class:`CloudObject` in this scope's region; empty attributes are dropped."""
        attrs = {k: v for k, v in attributes.items() if v not in (None, "", {}, [])}
        if name is None:
            name = (attrs.get("tags") or {}).get("Name") or None
        return CloudObject(
            type=type_, id=id_, name=name, arn=arn, region=region or self.region, attributes=attrs
        )


@dataclass(frozen=True)
class Lister:
    """How to list one Terraform resource type: ``list(scope)`` returns its objects.

    ``scope`` is ``"regional"`` (run once per region) or ``"global"`` (once per
    inventory; objects carry their own region or :data:`GLOBAL`). ``service``
    is the boto3 client it lists through: when the caller says which services
    a scenario called, a lister of a service nobody called is skipped (none of
    its objects can exist on an emulator emptied before the scenario). None:
    always run.
    """

    type: str
    list: Callable[[Scope], Iterable[CloudObject]]
    scope: str = "regional"
    service: str | None = None

    @property
    def signing_name(self) -> str | None:
        """The SigV4 service name the proxy records for calls to :attr:`service`."""
        return _SIGNING_NAMES.get(self.service, self.service) if self.service else None


#: boto3 client names whose SigV4 signing name differs (botocore's ``signingName``).
_SIGNING_NAMES = {"elbv2": "elasticloadbalancing", "cloudwatch": "monitoring"}


def take_inventory(
    emulator: Emulator,
    listers: Callable[..., Any] | None = None,
    regions: Iterable[str] | None = None,
    services: Mapping[str, Iterable[str]] | None = None,
) -> Inventory:
    """List every object in ``emulator`` now, in each of ``regions``.

    ``regions`` defaults to the emulator's own region; global services are
    listed once whatever it holds. ``services`` (region -> SigV4 service names
    called there, as the proxy records them) lets the built-in listers skip
    services nobody called; None lists every service. ``listers(emulator,
    regions=..., services=...)`` returns a list of lists of
    :class:`CloudObject`, one per implementation (``None`` entries are
    ignored; a flat list of objects is accepted too): pass
    ``config.hook.pytest_converge_inventory`` to merge every hook
    implementation. A callable that takes no ``regions`` is called with the
    emulator alone. With ``listers=None`` the built-in listers run directly.

    Raises :class:`EmulatorError` when the emulator does not answer.
    """
    if not emulator.is_alive():
        raise EmulatorError(
            f"cannot take an inventory: the {getattr(emulator, 'name', 'emulator')} emulator "
            "is not running or does not answer its health check"
        )
    wanted = _regions(emulator, regions)
    called = _services(services)
    if listers is None:
        listed, missed = _list_builtin(emulator, wanted, called)
        return Inventory(listed, missed, BUILTIN_LISTERS)
    if isinstance(listers, pluggy.HookCaller):
        # pluggy hooks take keyword arguments only; no pytest config here.
        results = listers(config=None, emulator=emulator, regions=wanted, services=called)
    elif _takes(listers, "services"):
        results = listers(emulator, regions=wanted, services=called)
    elif _takes(listers, "regions"):
        results = listers(emulator, regions=wanted)
    else:
        results = listers(emulator)
    objects: list[CloudObject] = []
    recorded: dict[str, str] | None = None
    for result in results or ():
        # One implementation's list, or (from a plain callable) an object itself.
        if isinstance(result, CloudObject):
            objects.append(result)
        elif result is not None:
            if isinstance(result, Listed):  # the built-in listers ran: they say what they skipped
                recorded = {**(recorded or {}), **result.skipped}
            objects.extend(result)
    covered = set(BUILTIN_LISTERS) if recorded is not None else set()
    return Inventory(objects, recorded or {}, covered)


def _regions(emulator: Emulator, regions: Iterable[str] | None) -> list[str]:
    found = sorted({r for r in regions or () if r and r != GLOBAL})
    return found or [emulator.region]


def _services(services: Mapping[str, Iterable[str]] | None) -> dict[str, set[str]] | None:
    if services is None:
        return None
    return {region: set(names) for region, names in services.items()}


def _takes(fn: Callable[..., Any], name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


@hookimpl
def pytest_converge_inventory(
    emulator: Emulator, regions: list[str] | None, services: dict[str, set[str]] | None
) -> Any:
    """The built-in listers (every type in :data:`BUILTIN_LISTERS`), merged.

    The arguments have no defaults on purpose: pluggy releases before 1.6 never
    pass an argument that has one.
    """
    objects, skipped = _list_builtin(emulator, _regions(emulator, regions), _services(services))
    return Listed(objects, skipped)


class Listed(list[CloudObject]):
    """The built-in implementation's objects, with the types it could not list.

    A list like any implementation's result; ``skipped`` (type -> why) tells
    :func:`take_inventory` which types are unknown rather than absent.
    """

    def __init__(self, objects: Iterable[CloudObject], skipped: dict[str, str]) -> None:
        super().__init__(objects)
        self.skipped = skipped


def _list_builtin(
    emulator: Emulator, regions: list[str], services: dict[str, set[str]] | None = None
) -> tuple[list[CloudObject], dict[str, str]]:
    """Run the built-in listers in parallel; return objects and the skipped types.

    With ``services``, a lister runs only where its service was called (a
    global one wherever it was): the fewer moto backends an inventory wakes,
    the faster the next reset.
    """
    anywhere = set().union(*services.values()) if services else set()
    jobs: list[tuple[str, Lister, Scope]] = []
    for type_, entry in dict(BUILTIN_LISTERS).items():
        lister = _as_lister(type_, entry)
        signing = lister.signing_name
        if lister.scope == "global":
            if services is None or signing is None or signing in anywhere:
                jobs.append((type_, lister, Scope(emulator, GLOBAL)))
            continue
        for region in regions:
            if services is None or signing is None or signing in services.get(region, ()):
                jobs.append((type_, lister, Scope(emulator, region)))
    objects: list[CloudObject] = []
    skipped: dict[str, str] = {}
    with ThreadPoolExecutor(
        max_workers=min(MAX_WORKERS, max(1, len(jobs))), thread_name_prefix="converge-inv"
    ) as pool:
        futures = [
            (type_, scope, pool.submit(_run_lister, type_, lister, scope))
            for type_, lister, scope in jobs
        ]
        errors: list[EmulatorError] = []
        for type_, scope, future in futures:
            try:
                found, reason = future.result()
            except EmulatorError as exc:
                errors.append(exc)
                continue
            objects.extend(found)
            if reason:
                where = "" if scope.region in (GLOBAL, emulator.region) else f" ({scope.region})"
                skipped.setdefault(type_, reason + where)
    if errors:
        raise errors[0]
    return objects, skipped


def prepare_clients(emulator: Emulator, regions: Iterable[str], types: Iterable[str]) -> None:
    """Build the cached clients the listers of ``types`` will use, in a daemon thread.

    A boto3 client costs ~0.1 s of botocore model loading the first time (and
    as much again for its paginator document); a Stack calls this when its
    first scenario starts, so the inventory after the runs finds them built
    (measured: the first inventory 0.8 s -> 0.2 s).
    """
    wanted = set(types)
    jobs = set()
    for type_, entry in BUILTIN_LISTERS.items():
        if type_ not in wanted or not isinstance(entry, Lister) or entry.service is None:
            continue
        if entry.scope == "global":
            jobs.add((entry.service, emulator.region))
        else:
            jobs.update((entry.service, region) for region in regions)

    def build() -> None:
        for service, region in sorted(jobs):
            try:
                # can_paginate loads the service's paginator document (listers page).
                _client(emulator, service, region).can_paginate("")
            except Exception:
                return  # only a head start: the inventory reports what really fails

    if jobs:
        threading.Thread(target=build, name="converge-clients", daemon=True).start()


def _as_lister(type_: str, entry: Lister | Callable[..., Any]) -> Lister:
    """A :class:`Lister`; a plain ``fn(emulator)`` (the older form) lists the emulator's region."""
    if isinstance(entry, Lister):
        return entry

    def legacy(scope: Scope) -> Iterable[CloudObject]:
        return entry(scope.emulator)

    return Lister(type_, legacy, "global")


def _run_lister(type_: str, lister: Lister, scope: Scope) -> tuple[list[CloudObject], str | None]:
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
        return list(lister.list(scope)), None
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


# Clients are cached per emulator, endpoint, region and service: building a boto3
# session and client costs 50-250 ms each (model loading), more than listing an
# empty emulator.
_CLIENTS: weakref.WeakKeyDictionary[Any, dict[tuple[str, str, str], Any]] = (
    weakref.WeakKeyDictionary()
)
_CLIENTS_LOCK = threading.Lock()


class _Unavailable(Exception):
    """The backend says it lacks the service: the lister is skipped, nothing is asked."""


def _client(emulator: Emulator, service: str, region: str | None = None) -> Any:
    """A cached client of ``emulator`` for ``service`` in ``region`` (thread-safe to use).

    A backend may declare ``unsupported_services`` (LocalStack's DynamoDB and
    Kinesis need engines it downloads: asking would hang): those raise
    :class:`_Unavailable`, which the lister runner turns into a skip.
    """
    if service in getattr(emulator, "unsupported_services", frozenset()):
        raise _Unavailable(f"{service} is not available on {emulator.name}")
    region = region or emulator.region
    key = (emulator.endpoint, region, service)
    with _CLIENTS_LOCK:
        try:
            cache = _CLIENTS.setdefault(emulator, {})
        except TypeError:  # not weak-referenceable: no cache
            return emulator.client(service, region=region)
        client = cache.get(key)
        if client is None:
            client = cache[key] = _make_client(emulator, service, region)
        return client


_SHARED_SESSIONS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _make_client(emulator: Emulator, service: str, region: str) -> Any:
    """Build a client the way ``emulator.client`` does, from one shared session.

    ``Emulator.client`` makes a new boto3 session per call, which reloads
    botocore's models each time (~0.1-0.25 s); one session per emulator makes
    the first inventory ~5x faster. A backend that overrides ``client()`` is
    called as is, since it may configure its clients differently.
    """
    from .emulator.base import Emulator as _Base

    if type(emulator).client is not _Base.client:
        return emulator.client(service, region=region)
    session = _SHARED_SESSIONS.get(emulator)
    if session is None:
        session = _SHARED_SESSIONS[emulator] = emulator.session()
    return session.client(service, **emulator.client_options(region))


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


def _default_vpc_ids(ec2: Any) -> set[str]:
    vpcs = _pages(
        ec2, "describe_vpcs", "Vpcs", Filters=[{"Name": "is-default", "Values": ["true"]}]
    )
    return {v["VpcId"] for v in vpcs}


Field = str | Callable[[dict[str, Any]], Any] | None


def _get(item: dict[str, Any], spec: Field) -> Any:
    if spec is None:
        return None
    if callable(spec):
        return spec(item)
    return item.get(spec)


def simple(
    type_: str,
    service: str,
    operation: str,
    result_key: str,
    id_: Field,
    *,
    name: Field = None,
    arn: Field = None,
    keep: Callable[[dict[str, Any]], bool] | None = None,
    attributes: dict[str, Field] | None = None,
    params: dict[str, Any] | None = None,
    scope: str = "regional",
) -> Lister:
    """A lister that is one (paginated) list call: the common case, written as data.

    ``id_``, ``name``, ``arn`` and each of ``attributes`` name a key of the
    listed item, or are a function of it; ``keep(item)`` filters (emulator
    built-ins, deleted objects).
    """

    def list_(s: Scope) -> list[CloudObject]:
        items = _pages(s.client(service), operation, result_key, **(params or {}))
        found = []
        for item in items:
            if keep is not None and not keep(item):
                continue
            attrs = {k: _get(item, v) for k, v in (attributes or {}).items()}
            found.append(
                s.obj(
                    type_,
                    str(_get(item, id_)),
                    name=_get(item, name),
                    arn=_get(item, arn),
                    **attrs,
                )
            )
        return found

    list_.__name__ = f"list_{type_}"
    return Lister(type_, list_, scope, service)


def _ec2_tags(item: dict[str, Any]) -> dict[str, str]:
    return _tags(item.get("Tags"))


def _not_deleted(state_key: str, *gone: str) -> Callable[[dict[str, Any]], bool]:
    return lambda item: str(item.get(state_key, "")).lower() not in gone


# --- EC2 / VPC ----------------------------------------------------------------------------


def list_internet_gateways(s: Scope) -> list[CloudObject]:
    """``aws_internet_gateway``: every gateway but one attached to a default VPC."""
    ec2 = s.client("ec2")
    default_vpcs = _default_vpc_ids(ec2)
    found = []
    for g in _pages(ec2, "describe_internet_gateways", "InternetGateways"):
        vpc_ids = [a.get("VpcId") for a in g.get("Attachments") or []]
        if any(v in default_vpcs for v in vpc_ids):
            continue
        found.append(
            s.obj(
                "aws_internet_gateway",
                g["InternetGatewayId"],
                vpc_id=vpc_ids[0] if vpc_ids else None,
                tags=_tags(g.get("Tags")),
            )
        )
    return found


def _route_tables(s: Scope) -> tuple[list[dict[str, Any]], set[str]]:
    ec2 = s.client("ec2")
    return _pages(ec2, "describe_route_tables", "RouteTables"), _default_vpc_ids(ec2)


def list_route_tables(s: Scope) -> list[CloudObject]:
    """``aws_route_table``: every table but each VPC's main route table.

    Known limit: a module's own table made main (``aws_main_route_table_association``)
    is filtered too; the VPC's original main table then shows up, and
    :func:`~pytest_converge.analysis.leftovers.find_leftovers` recognises it through
    the association's ``original_route_table_id``.
    """
    tables, _ = _route_tables(s)
    return [
        s.obj("aws_route_table", t["RouteTableId"], vpc_id=t.get("VpcId"), tags=_ec2_tags(t))
        for t in tables
        if not any(a.get("Main") for a in t.get("Associations") or [])
    ]


def list_route_table_associations(s: Scope) -> list[CloudObject]:
    """``aws_route_table_association``: id is the association id (``rtbassoc-...``)."""
    tables, default_vpcs = _route_tables(s)
    return [
        s.obj(
            "aws_route_table_association",
            a["RouteTableAssociationId"],
            route_table_id=t["RouteTableId"],
            subnet_id=a.get("SubnetId"),
            gateway_id=a.get("GatewayId"),
        )
        for t in tables
        if t.get("VpcId") not in default_vpcs
        for a in t.get("Associations") or []
        if not a.get("Main")
        and (a.get("AssociationState") or {}).get("State", "associated") == "associated"
    ]


def route_id(route_table_id: str, destination: str) -> str:
    """The id the AWS provider gives an ``aws_route``: ``r-<table><crc32(destination)>``."""
    return f"r-{route_table_id}{zlib.crc32(destination.encode())}"


def list_routes(s: Scope) -> list[CloudObject]:
    """``aws_route``: every route but ``local`` ones and the default VPC's, under Terraform's id.

    Routes written inline in an ``aws_route_table`` are objects too: the
    leftover matcher counts them as tracked through that table's ``route``.
    """
    tables, default_vpcs = _route_tables(s)
    found = []
    for t in tables:
        if t.get("VpcId") in default_vpcs:
            continue
        for r in t.get("Routes") or []:
            # The VPC's own local route, routes a gateway propagates and a gateway
            # endpoint's prefix-list routes (the endpoint's, not an aws_route) are not
            # declared as routes.
            gateway = str(r.get("GatewayId") or "")
            if gateway == "local" or gateway.startswith("vpce-"):
                continue
            if r.get("Origin") in ("CreateRouteTable", "EnableVgwRoutePropagation"):
                continue
            destination = (
                r.get("DestinationCidrBlock")
                or r.get("DestinationIpv6CidrBlock")
                or r.get("DestinationPrefixListId")
            )
            if not destination:
                continue
            found.append(
                s.obj(
                    "aws_route",
                    route_id(t["RouteTableId"], destination),
                    name=f"{t['RouteTableId']} -> {destination}",
                    route_table_id=t["RouteTableId"],
                    destination=destination,
                )
            )
    return found


def list_eips(s: Scope) -> list[CloudObject]:
    """``aws_eip``: id is the allocation id (VPC) or the public IP (EC2-Classic), as Terraform."""
    ec2 = s.client("ec2")
    found = []
    for a in ec2.describe_addresses().get("Addresses") or []:  # not paginated by the API
        id_ = a.get("AllocationId") if a.get("Domain", "vpc") == "vpc" else a.get("PublicIp")
        if not id_:
            id_ = a.get("AllocationId") or a.get("PublicIp")
        found.append(
            s.obj(
                "aws_eip",
                id_,
                public_ip=a.get("PublicIp"),
                instance=a.get("InstanceId"),
                tags=_tags(a.get("Tags")),
            )
        )
    return found


def list_instances(s: Scope) -> list[CloudObject]:
    """``aws_instance``: every instance not terminated."""
    ec2 = s.client("ec2")
    found = []
    for reservation in _pages(ec2, "describe_instances", "Reservations"):
        for i in reservation.get("Instances") or []:
            if (i.get("State") or {}).get("Name") in ("terminated", "shutting-down"):
                continue
            found.append(
                s.obj(
                    "aws_instance",
                    i["InstanceId"],
                    ami=i.get("ImageId"),
                    instance_type=i.get("InstanceType"),
                    subnet_id=i.get("SubnetId"),
                    tags=_tags(i.get("Tags")),
                )
            )
    return found


_PROTOCOLS = {"6": "tcp", "17": "udp", "1": "icmp", "all": "-1", "58": "icmpv6"}


def rule_ids(
    group_id: str,
    direction: str,
    protocol: Any,
    from_port: Any,
    to_port: Any,
    sources: Iterable[str],
) -> set[str]:
    """Comparable ids of a security group rule, one per source (CIDR, prefix list, group).

    Both the lister and the leftover matcher use it, so a rule Terraform
    declares (standalone or inline in the group) and the rule the API lists
    meet on the same string whatever the protocol spelling (``-1``/``all``,
    ``6``/``tcp``).
    """
    proto = _PROTOCOLS.get(str(protocol).lower(), str(protocol).lower())
    ports = "all" if proto == "-1" else f"{from_port}-{to_port}"
    return {f"{group_id}/{direction}/{proto}/{ports}/{src}" for src in sources if src}


def list_security_group_rules(s: Scope) -> list[CloudObject]:
    """``aws_security_group_rule``: one object per (rule, source) of every non-default group.

    Terraform's own rule ids are hashes; these ids come from :func:`rule_ids`,
    which the leftover matcher applies to state too.
    """
    ec2 = s.client("ec2")
    found = []
    for g in _pages(ec2, "describe_security_groups", "SecurityGroups"):
        if g.get("GroupName") == "default":
            continue
        for direction, key in (("ingress", "IpPermissions"), ("egress", "IpPermissionsEgress")):
            for p in g.get(key) or []:
                sources = [r.get("CidrIp") for r in p.get("IpRanges") or []]
                sources += [r.get("CidrIpv6") for r in p.get("Ipv6Ranges") or []]
                sources += [r.get("PrefixListId") for r in p.get("PrefixListIds") or []]
                sources += [r.get("GroupId") for r in p.get("UserIdGroupPairs") or []]
                for id_ in rule_ids(
                    g["GroupId"],
                    direction,
                    p.get("IpProtocol"),
                    p.get("FromPort", 0),
                    p.get("ToPort", 0),
                    sources,
                ):
                    found.append(
                        s.obj(
                            "aws_security_group_rule",
                            id_,
                            name=id_,
                            security_group_id=g["GroupId"],
                            type=direction,
                        )
                    )
    return found


# --- S3 (one global list; each bucket in its own region) ------------------------------------


def list_s3_buckets(s: Scope) -> list[CloudObject]:
    """``aws_s3_bucket``: id is the bucket name, region its location."""
    s3 = s.client("s3")
    found = []
    for b in s3.list_buckets().get("Buckets") or []:
        name = b["Name"]
        region = b.get("BucketRegion")
        if not region:
            location = s3.get_bucket_location(Bucket=name).get("LocationConstraint")
            region = {None: "us-east-1", "": "us-east-1", "EU": "eu-west-1"}.get(location, location)
        found.append(
            s.obj(
                "aws_s3_bucket",
                name,
                name=name,
                arn=f"arn:aws:s3:::{name}",
                region=region,
                bucket=name,
            )
        )
    return found


# --- messaging, data, keys ------------------------------------------------------------------


def list_sqs_queues(s: Scope) -> list[CloudObject]:
    """``aws_sqs_queue``: id is the queue URL (its host is the endpoint the caller used)."""
    sqs = s.client("sqs")
    found = []
    for url in _pages(sqs, "list_queues", "QueueUrls"):
        parts = url.rstrip("/").split("/")
        name, account = parts[-1], parts[-2] if len(parts) > 1 else ""
        arn = f"arn:aws:sqs:{s.region}:{account}:{name}" if account.isdigit() else None
        found.append(s.obj("aws_sqs_queue", url, name=name, arn=arn, url=url))
    return found


def list_kinesis_streams(s: Scope) -> list[CloudObject]:
    """``aws_kinesis_stream``: id is the stream ARN (provider 3.x sets it so)."""
    kinesis = s.client("kinesis")
    found = []
    for name in _pages(kinesis, "list_streams", "StreamNames"):
        summary = kinesis.describe_stream_summary(StreamName=name)["StreamDescriptionSummary"]
        if summary.get("StreamStatus") == "DELETING":
            continue
        arn = summary["StreamARN"]
        found.append(s.obj("aws_kinesis_stream", arn, name=name, arn=arn))
    return found


def list_kms_keys(s: Scope) -> list[CloudObject]:
    """``aws_kms_key``: customer-managed keys not pending deletion; id is the key id."""
    kms = s.client("kms")
    found = []
    for k in _pages(kms, "list_keys", "Keys"):
        meta = kms.describe_key(KeyId=k["KeyId"])["KeyMetadata"]
        # AWS-managed keys (aws/s3, aws/ebs ...) appear lazily and belong to no module.
        if meta.get("KeyManager") == "AWS":
            continue
        if meta.get("KeyState") in ("PendingDeletion", "PendingReplicaDeletion"):
            continue
        found.append(
            s.obj(
                "aws_kms_key",
                meta["KeyId"],
                arn=meta.get("Arn"),
                description=meta.get("Description"),
            )
        )
    return found


def _log_group_arn(g: dict[str, Any]) -> str | None:
    # Terraform stores the ARN without the ":*" DescribeLogGroups appends.
    arn = g.get("arn")
    return arn[:-2] if arn and arn.endswith(":*") else arn


def list_ecs_clusters(s: Scope) -> list[CloudObject]:
    """``aws_ecs_cluster``: active clusters; id is the cluster ARN."""
    ecs = s.client("ecs")
    arns = _pages(ecs, "list_clusters", "clusterArns")
    found = []
    for start in range(0, len(arns), 100):  # DescribeClusters takes at most 100
        for c in ecs.describe_clusters(clusters=arns[start : start + 100]).get("clusters") or []:
            if c.get("status", "ACTIVE") != "ACTIVE":
                continue
            arn = c["clusterArn"]
            found.append(s.obj("aws_ecs_cluster", arn, name=c.get("clusterName"), arn=arn))
    return found


def list_ecs_services(s: Scope) -> list[CloudObject]:
    """``aws_ecs_service``: id is the service ARN; services being drained excluded."""
    ecs = s.client("ecs")
    found = []
    for cluster in _pages(ecs, "list_clusters", "clusterArns"):
        arns = _pages(ecs, "list_services", "serviceArns", cluster=cluster)
        for start in range(0, len(arns), 10):  # DescribeServices takes at most 10
            chunk = arns[start : start + 10]
            for svc in ecs.describe_services(cluster=cluster, services=chunk).get("services") or []:
                if svc.get("status", "ACTIVE") != "ACTIVE":
                    continue
                arn = svc["serviceArn"]
                found.append(
                    s.obj(
                        "aws_ecs_service",
                        arn,
                        name=svc.get("serviceName"),
                        arn=arn,
                        cluster=cluster,
                    )
                )
    return found


def list_ecs_task_definitions(s: Scope) -> list[CloudObject]:
    """``aws_ecs_task_definition``: every ACTIVE revision, id its ARN.

    Terraform's id is the family, but each registration makes a new revision:
    a retried RegisterTaskDefinition is an extra revision, found by ARN.
    """
    ecs = s.client("ecs")
    return [
        s.obj(
            "aws_ecs_task_definition",
            arn,
            name=arn.rsplit("/", 1)[-1],
            arn=arn,
            family=arn.rsplit("/", 1)[-1].rsplit(":", 1)[0],
        )
        for arn in _pages(ecs, "list_task_definitions", "taskDefinitionArns", status="ACTIVE")
    ]


def list_sns_subscriptions(s: Scope) -> list[CloudObject]:
    """``aws_sns_topic_subscription``: id is the subscription ARN (pending ones excluded)."""
    sns = s.client("sns")
    return [
        s.obj(
            "aws_sns_topic_subscription",
            sub["SubscriptionArn"],
            name=f"{sub.get('Protocol')}:{sub.get('Endpoint')}",
            arn=sub["SubscriptionArn"],
            topic_arn=sub.get("TopicArn"),
            endpoint=sub.get("Endpoint"),
            protocol=sub.get("Protocol"),
        )
        for sub in _pages(sns, "list_subscriptions", "Subscriptions")
        if str(sub.get("SubscriptionArn", "")).startswith("arn:")
    ]


def list_lambda_aliases(s: Scope) -> list[CloudObject]:
    """``aws_lambda_alias``: id is the alias ARN."""
    lam = s.client("lambda")
    return [
        s.obj(
            "aws_lambda_alias",
            a["AliasArn"],
            name=f"{f['FunctionName']}:{a['Name']}",
            arn=a["AliasArn"],
            function_name=f["FunctionName"],
        )
        for f in _pages(lam, "list_functions", "Functions")
        for a in _pages(lam, "list_aliases", "Aliases", FunctionName=f["FunctionName"])
    ]


def list_lambda_layer_versions(s: Scope) -> list[CloudObject]:
    """``aws_lambda_layer_version``: every version, id its ARN (a retried publish is a new one)."""
    lam = s.client("lambda")
    return [
        s.obj(
            "aws_lambda_layer_version",
            v["LayerVersionArn"],
            name=v["LayerVersionArn"].split(":layer:", 1)[-1],
            arn=v["LayerVersionArn"],
        )
        for layer in _pages(lam, "list_layers", "Layers")
        for v in _pages(lam, "list_layer_versions", "LayerVersions", LayerName=layer["LayerName"])
    ]


# --- IAM (global) ---------------------------------------------------------------------------

_SERVICE_ROLE_PATHS = ("/aws-service-role/", "/aws-reserved/")


def _iam_children(
    child_type: str,
    parent_op: str,
    parent_key: str,
    parent_name: str,
    child_op: str,
    child_key: str,
    param: str,
    *,
    attached: bool,
) -> Lister:
    """Inline policies (``role:policy``) or managed-policy attachments (``role/arn``) of
    every role, user or group: Terraform's id for the former, a comparable one for the latter.
    """

    def list_(s: Scope) -> list[CloudObject]:
        iam = s.client("iam")
        found = []
        for parent in _pages(iam, parent_op, parent_key):
            if parent.get("Path", "/").startswith(_SERVICE_ROLE_PATHS):
                continue
            owner = parent[parent_name]
            for child in _pages(iam, child_op, child_key, **{param: owner}):
                if attached:
                    arn = child["PolicyArn"]
                    id_ = f"{owner}/{arn}"
                    found.append(s.obj(child_type, id_, name=id_, policy_arn=arn, owner=owner))
                else:
                    id_ = f"{owner}:{child}"
                    found.append(s.obj(child_type, id_, name=id_, owner=owner))
        return found

    list_.__name__ = f"list_{child_type}"
    return Lister(child_type, list_, "global", "iam")


def list_iam_access_keys(s: Scope) -> list[CloudObject]:
    """``aws_iam_access_key``: id is the access key id."""
    iam = s.client("iam")
    return [
        s.obj("aws_iam_access_key", k["AccessKeyId"], name=k["AccessKeyId"], user=u["UserName"])
        for u in _pages(iam, "list_users", "Users")
        for k in _pages(iam, "list_access_keys", "AccessKeyMetadata", UserName=u["UserName"])
    ]


def _global(*args: Any, **kwargs: Any) -> Lister:
    return simple(*args, scope="global", **kwargs)


#: Terraform resource type -> its built-in lister. Tests and users may add to or
#: remove from this mapping (a value may also be a plain ``fn(emulator)``); the
#: ``pytest_converge_inventory`` hook is the supported way to add a type.
BUILTIN_LISTERS: dict[str, Lister | Callable[..., Any]] = {
    lister.type: lister
    for lister in [
        # -- VPC family --
        simple(
            "aws_vpc", "ec2", "describe_vpcs", "Vpcs", "VpcId",
            keep=lambda v: not v.get("IsDefault"),
            attributes={"cidr_block": "CidrBlock", "tags": _ec2_tags},
        ),
        simple(
            "aws_subnet", "ec2", "describe_subnets", "Subnets", "SubnetId",
            arn="SubnetArn",
            keep=lambda v: not v.get("DefaultForAz"),
            attributes={
                "cidr_block": "CidrBlock",
                "vpc_id": "VpcId",
                "availability_zone": "AvailabilityZone",
                "tags": _ec2_tags,
            },
        ),
        # AWS refuses to create a group named "default": the name alone is exact.
        simple(
            "aws_security_group", "ec2", "describe_security_groups", "SecurityGroups", "GroupId",
            name="GroupName",
            keep=lambda g: g.get("GroupName") != "default",
            attributes={"vpc_id": "VpcId", "description": "Description", "tags": _ec2_tags},
        ),
        Lister("aws_security_group_rule", list_security_group_rules, "regional", "ec2"),
        Lister("aws_internet_gateway", list_internet_gateways, "regional", "ec2"),
        simple(
            "aws_egress_only_internet_gateway", "ec2", "describe_egress_only_internet_gateways",
            "EgressOnlyInternetGateways", "EgressOnlyInternetGatewayId",
            attributes={"tags": _ec2_tags},
        ),
        Lister("aws_route_table", list_route_tables, "regional", "ec2"),
        Lister("aws_route_table_association", list_route_table_associations, "regional", "ec2"),
        Lister("aws_route", list_routes, "regional", "ec2"),
        simple(
            "aws_network_acl", "ec2", "describe_network_acls", "NetworkAcls", "NetworkAclId",
            keep=lambda n: not n.get("IsDefault"),
            attributes={"vpc_id": "VpcId", "tags": _ec2_tags},
        ),
        simple(
            "aws_nat_gateway", "ec2", "describe_nat_gateways", "NatGateways", "NatGatewayId",
            keep=_not_deleted("State", "deleted", "deleting", "failed"),
            attributes={"subnet_id": "SubnetId", "vpc_id": "VpcId", "tags": _ec2_tags},
        ),
        Lister("aws_eip", list_eips, "regional", "ec2"),
        simple(
            "aws_vpc_endpoint", "ec2", "describe_vpc_endpoints", "VpcEndpoints", "VpcEndpointId",
            keep=_not_deleted("State", "deleted", "deleting", "rejected", "failed"),
            attributes={"vpc_id": "VpcId", "service_name": "ServiceName", "tags": _ec2_tags},
        ),
        simple(
            "aws_flow_log", "ec2", "describe_flow_logs", "FlowLogs", "FlowLogId",
            attributes={
                "log_destination": "LogDestination",
                "log_group_name": "LogGroupName",
                "traffic_type": "TrafficType",
                "tags": _ec2_tags,
            },
        ),
        simple(
            "aws_vpn_gateway", "ec2", "describe_vpn_gateways", "VpnGateways", "VpnGatewayId",
            keep=_not_deleted("State", "deleted", "deleting"),
            attributes={"tags": _ec2_tags},
        ),
        simple(
            "aws_customer_gateway", "ec2", "describe_customer_gateways", "CustomerGateways",
            "CustomerGatewayId",
            keep=_not_deleted("State", "deleted", "deleting"),
            attributes={"ip_address": "IpAddress", "tags": _ec2_tags},
        ),
        # AWS's own default option set (moto's VPCs name it "default") is nobody's.
        simple(
            "aws_vpc_dhcp_options", "ec2", "describe_dhcp_options", "DhcpOptions", "DhcpOptionsId",
            keep=lambda d: d.get("DhcpOptionsId", "default") != "default",
            attributes={"tags": _ec2_tags},
        ),
        Lister("aws_instance", list_instances, "regional", "ec2"),
        simple(
            "aws_key_pair", "ec2", "describe_key_pairs", "KeyPairs", "KeyName",
            name="KeyName",
            attributes={"key_name": "KeyName", "key_pair_id": "KeyPairId", "tags": _ec2_tags},
        ),
        simple(
            "aws_launch_template", "ec2", "describe_launch_templates", "LaunchTemplates",
            "LaunchTemplateId",
            name="LaunchTemplateName",
        ),
        # -- storage, messaging, data --
        Lister("aws_s3_bucket", list_s3_buckets, "global", "s3"),
        Lister("aws_sqs_queue", list_sqs_queues, "regional", "sqs"),
        simple(
            "aws_sns_topic", "sns", "list_topics", "Topics", "TopicArn",
            name=lambda t: t["TopicArn"].rsplit(":", 1)[-1],
            arn="TopicArn",
        ),
        Lister("aws_sns_topic_subscription", list_sns_subscriptions, "regional", "sns"),
        simple(
            "aws_dynamodb_table", "dynamodb", "list_tables", "TableNames", lambda n: n,
            name=lambda n: n,
        ),
        Lister("aws_kinesis_stream", list_kinesis_streams, "regional", "kinesis"),
        simple(
            "aws_secretsmanager_secret", "secretsmanager", "list_secrets", "SecretList", "ARN",
            name="Name",
            arn="ARN",
            keep=lambda x: not x.get("DeletedDate"),
        ),
        # AWS's public parameters (/aws/...) belong to no module.
        simple(
            "aws_ssm_parameter", "ssm", "describe_parameters", "Parameters", "Name",
            name="Name",
            arn="ARN",
            keep=lambda p: not p["Name"].startswith("/aws/"),
            attributes={"type": "Type"},
        ),
        Lister("aws_kms_key", list_kms_keys, "regional", "kms"),
        # AWS-managed aliases (alias/aws/s3 ...) appear lazily and belong to no module.
        simple(
            "aws_kms_alias", "kms", "list_aliases", "Aliases", "AliasName",
            name="AliasName",
            arn="AliasArn",
            keep=lambda a: not a["AliasName"].startswith("alias/aws/"),
            attributes={"target_key_id": "TargetKeyId"},
        ),
        simple(
            "aws_cloudwatch_log_group", "logs", "describe_log_groups", "logGroups",
            "logGroupName",
            name="logGroupName",
            arn=_log_group_arn,
        ),
        simple(
            "aws_cloudwatch_metric_alarm", "cloudwatch", "describe_alarms", "MetricAlarms",
            "AlarmName",
            name="AlarmName",
            arn="AlarmArn",
        ),
        simple(
            "aws_ecr_repository", "ecr", "describe_repositories", "repositories",
            "repositoryName",
            name="repositoryName",
            arn="repositoryArn",
        ),
        # -- compute --
        simple(
            "aws_lambda_function", "lambda", "list_functions", "Functions", "FunctionName",
            name="FunctionName",
            arn="FunctionArn",
            attributes={"function_name": "FunctionName"},
        ),
        Lister("aws_lambda_alias", list_lambda_aliases, "regional", "lambda"),
        Lister("aws_lambda_layer_version", list_lambda_layer_versions, "regional", "lambda"),
        simple(
            "aws_lambda_event_source_mapping", "lambda", "list_event_source_mappings",
            "EventSourceMappings", "UUID",
            keep=_not_deleted("State", "deleting"),
            attributes={
                "event_source_arn": "EventSourceArn",
                "function_name": "FunctionArn",
            },
        ),
        simple(
            "aws_lb", "elbv2", "describe_load_balancers", "LoadBalancers", "LoadBalancerArn",
            name="LoadBalancerName",
            arn="LoadBalancerArn",
            attributes={"vpc_id": "VpcId", "load_balancer_type": "Type"},
        ),
        simple(
            "aws_lb_target_group", "elbv2", "describe_target_groups", "TargetGroups",
            "TargetGroupArn",
            name="TargetGroupName",
            arn="TargetGroupArn",
            attributes={"vpc_id": "VpcId"},
        ),
        Lister("aws_ecs_cluster", list_ecs_clusters, "regional", "ecs"),
        Lister("aws_ecs_service", list_ecs_services, "regional", "ecs"),
        Lister("aws_ecs_task_definition", list_ecs_task_definitions, "regional", "ecs"),
        simple(
            "aws_autoscaling_group", "autoscaling", "describe_auto_scaling_groups",
            "AutoScalingGroups", "AutoScalingGroupName",
            name="AutoScalingGroupName",
            arn="AutoScalingGroupARN",
        ),
        # -- databases --
        simple(
            "aws_db_instance", "rds", "describe_db_instances", "DBInstances",
            "DBInstanceIdentifier",
            name="DBInstanceIdentifier",
            arn="DBInstanceArn",
            keep=_not_deleted("DBInstanceStatus", "deleting"),
        ),
        simple(
            "aws_db_subnet_group", "rds", "describe_db_subnet_groups", "DBSubnetGroups",
            "DBSubnetGroupName",
            name="DBSubnetGroupName",
            arn="DBSubnetGroupArn",
            keep=lambda g: g["DBSubnetGroupName"] != "default",
            attributes={"vpc_id": "VpcId"},
        ),
        # The engines' own "default.<family>" groups belong to no module.
        simple(
            "aws_db_parameter_group", "rds", "describe_db_parameter_groups", "DBParameterGroups",
            "DBParameterGroupName",
            name="DBParameterGroupName",
            arn="DBParameterGroupArn",
            keep=lambda g: not g["DBParameterGroupName"].startswith("default."),
        ),
        simple(
            "aws_elasticache_subnet_group", "elasticache", "describe_cache_subnet_groups",
            "CacheSubnetGroups", "CacheSubnetGroupName",
            name="CacheSubnetGroupName",
            arn="ARN",
            keep=lambda g: g["CacheSubnetGroupName"] != "default",
        ),
        simple(
            "aws_redshift_subnet_group", "redshift", "describe_cluster_subnet_groups",
            "ClusterSubnetGroups", "ClusterSubnetGroupName",
            name="ClusterSubnetGroupName",
            keep=lambda g: g["ClusterSubnetGroupName"] != "default",
        ),
        # -- IAM (global) --
        _global(
            "aws_iam_role", "iam", "list_roles", "Roles", "RoleName",
            name="RoleName",
            arn="Arn",
            keep=lambda r: not r.get("Path", "/").startswith(_SERVICE_ROLE_PATHS),
        ),
        # Customer-managed (Scope=Local) policies only: AWS-managed ones are built in.
        _global(
            "aws_iam_policy", "iam", "list_policies", "Policies", "Arn",
            name="PolicyName",
            arn="Arn",
            params={"Scope": "Local"},
        ),
        _global("aws_iam_user", "iam", "list_users", "Users", "UserName",
                name="UserName", arn="Arn"),
        _global("aws_iam_group", "iam", "list_groups", "Groups", "GroupName",
                name="GroupName", arn="Arn"),
        _global(
            "aws_iam_instance_profile", "iam", "list_instance_profiles", "InstanceProfiles",
            "InstanceProfileName",
            name="InstanceProfileName",
            arn="Arn",
        ),
        _global(
            "aws_iam_openid_connect_provider", "iam", "list_open_id_connect_providers",
            "OpenIDConnectProviderList", "Arn",
            arn="Arn",
        ),
        _iam_children(
            "aws_iam_role_policy_attachment", "list_roles", "Roles", "RoleName",
            "list_attached_role_policies", "AttachedPolicies", "RoleName", attached=True,
        ),
        _iam_children(
            "aws_iam_user_policy_attachment", "list_users", "Users", "UserName",
            "list_attached_user_policies", "AttachedPolicies", "UserName", attached=True,
        ),
        _iam_children(
            "aws_iam_group_policy_attachment", "list_groups", "Groups", "GroupName",
            "list_attached_group_policies", "AttachedPolicies", "GroupName", attached=True,
        ),
        _iam_children(
            "aws_iam_role_policy", "list_roles", "Roles", "RoleName",
            "list_role_policies", "PolicyNames", "RoleName", attached=False,
        ),
        _iam_children(
            "aws_iam_user_policy", "list_users", "Users", "UserName",
            "list_user_policies", "PolicyNames", "UserName", attached=False,
        ),
        _iam_children(
            "aws_iam_group_policy", "list_groups", "Groups", "GroupName",
            "list_group_policies", "PolicyNames", "GroupName", attached=False,
        ),
        Lister("aws_iam_access_key", list_iam_access_keys, "global", "iam"),
        # -- DNS (global) --
        _global(
            "aws_route53_zone", "route53", "list_hosted_zones", "HostedZones",
            lambda z: z["Id"].rsplit("/", 1)[-1],
            name="Name",
        ),
    ]
}  # fmt: skip
