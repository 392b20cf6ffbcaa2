"""ElastiCache: parameter groups, user groups, replication group members, serverless caches,
subnet group changes.

Following the ElastiCache API reference
(https://docs.aws.amazon.com/AmazonElastiCache/latest/APIReference/):

- ``CreateCacheParameterGroup``, ``DescribeCacheParameterGroups``,
  ``ModifyCacheParameterGroup``, ``ResetCacheParameterGroup``,
  ``DeleteCacheParameterGroup``, ``DescribeCacheParameters``: a Region's
  parameter groups, the ``default.<family>`` ones (and
  ``default.<family>.cluster.on`` for the Redis OSS and Valkey families)
  included, which cannot be changed or deleted. ``DescribeCacheParameters``
  answers the family's parameters with the group's values; ``Source=user``
  only those the group changed. A name is kept lower-cased, as AWS keeps it;
  a missing group is ``CacheParameterGroupNotFound`` (404), for a cluster or
  replication group created on it too; a group a cluster uses cannot be
  deleted (``InvalidCacheParameterGroupState``). The tags of a
  group (``ListTagsForResource``, ``AddTagsToResource``,
  ``RemoveTagsFromResource`` by its ARN, and ``Tags`` at creation) are kept;
  moto 5.2 has none of these operations and refuses a parameter group's ARN.
  ``DescribeCacheClusters`` returns a cluster's ``CacheParameterGroup``.
- ``CreateUserGroup``, ``DescribeUserGroups``, ``ModifyUserGroup``,
  ``DeleteUserGroup``: groups of the users moto keeps (``CreateUser``,
  ``DescribeUsers``, ``DeleteUser`` are moto's), each user's
  ``UserGroupIds`` following its groups; a group needs a user named
  ``default`` (``DefaultUserRequired``), a missing group is
  ``UserGroupNotFound``, a missing user ``UserNotFound``; the group's tags
  by its ARN.
- ``CreateReplicationGroup`` / ``DescribeCacheClusters``: a replication
  group's ``NumCacheClusters`` member clusters are cache clusters, listed
  with the group's engine (and the version that runs: ``7.1`` is ``7.1.0``),
  node type, parameter and subnet group, ``SecurityGroups``,
  ``AuthTokenEnabled`` and encryption settings;
  ``ModifyReplicationGroup`` changes them; a deleted group and its members
  are gone. moto 5.2 makes one member whatever ``NumCacheClusters`` says,
  lists none and keeps a deleted group ``deleting`` for ever.
- ``CreateServerlessCache``, ``DescribeServerlessCaches``,
  ``ModifyServerlessCache``, ``DeleteServerlessCache``: a Region's serverless
  caches, with their endpoints (reader on the next port), the full engine
  version that runs, the default VPC's subnets and its default security group
  unless given; a user group's ``ServerlessCaches`` follow; a missing cache is
  ``ServerlessCacheNotFoundFault``; tags by its ARN.
- ``ModifyCacheSubnetGroup``, ``DeleteCacheSubnetGroup``: moto 5.2 has
  neither; a group a cluster or replication group uses is
  ``CacheSubnetGroupInUse``.

The family tables list the parameters modules commonly set, with the
defaults AWS documents for them (ElastiCache User Guide, "Engine specific
parameters"); a parameter outside them is kept as a user parameter rather
than refused, so a module setting one is not failed for the table's gap.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, Kept, behaviour, empty_action, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonElastiCache/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_elasticache.py::"

#: A family's parameter: name -> (default value or None, data type, allowed values,
#: change type, minimum engine version, description).
Parameter = tuple[str | None, str, str | None, str, str, str]

_REDIS: dict[str, Parameter] = {
    "activedefrag": ("no", "string", "yes,no", "immediate", "4.0.9", "Active defragmentation"),
    "appendonly": ("no", "string", "yes,no", "immediate", "2.6.13", "Enable persistence."),
    "cluster-enabled": ("no", "string", "yes,no", "requires-reboot", "3.2.4", "Cluster mode"),
    "databases": ("16", "integer", "1-1200000", "requires-reboot", "2.6.13", "Databases."),
    "latency-tracking": ("no", "string", "yes,no", "immediate", "7.0.0", "Latency tracking"),
    "lfu-decay-time": ("1", "integer", "0-", "immediate", "4.0.10", "LFU decay time"),
    "lfu-log-factor": ("10", "integer", "1-", "immediate", "4.0.10", "LFU log factor"),
    "maxmemory-policy": (
        "volatile-lru",
        "string",
        "volatile-lru,allkeys-lru,volatile-lfu,allkeys-lfu,volatile-random,allkeys-random,"
        "volatile-ttl,noeviction",
        "immediate",
        "2.6.13",
        "Max memory policy.",
    ),
    "maxmemory-samples": ("3", "integer", "1-", "immediate", "2.6.13", "Max memory samples."),
    "min-replicas-max-lag": ("10", "integer", "0-", "immediate", "5.0.0", "Replica lag limit"),
    "min-replicas-to-write": ("0", "integer", "0-", "immediate", "5.0.0", "Replicas to write"),
    "notify-keyspace-events": (None, "string", None, "immediate", "2.8.6", "Keyspace events"),
    "reserved-memory-percent": ("25", "integer", "0-100", "immediate", "2.8.22", "Reserved %"),
    "slowlog-log-slower-than": ("10000", "integer", "-", "immediate", "2.6.13", "Slow log time"),
    "slowlog-max-len": ("128", "integer", "0-", "immediate", "2.6.13", "Slow log length"),
    "tcp-keepalive": ("300", "integer", "0-", "immediate", "2.6.13", "TCP keepalive"),
    "timeout": ("0", "integer", "0,20-", "immediate", "2.6.13", "Idle client timeout"),
}

_MEMCACHED: dict[str, Parameter] = {
    "binding_protocol": ("auto", "string", "auto,binary,ascii", "requires-reboot", "1.4.14", ""),
    "cas_disabled": ("0", "boolean", "0,1", "requires-reboot", "1.4.14", "Cas disabled."),
    "chunk_size": ("48", "integer", "1-", "requires-reboot", "1.4.14", "Minimum chunk size."),
    "idle_timeout": ("0", "integer", "0-", "immediate", "1.4.14", "Idle timeout."),
    "max_item_size": (
        "1048576",
        "integer",
        "1048576-134217728",
        "requires-reboot",
        "1.4.14",
        "The size of the largest item storable in the cache, in bytes.",
    ),
    "maxconns_fast": ("0", "boolean", "0,1", "requires-reboot", "1.4.14", "Maxconns fast."),
    "memcached_connections_overhead": ("100", "integer", "0-", "immediate", "1.4.14", ""),
}

#: The families AWS offers (DescribeCacheEngineVersions) -> their parameter table.
FAMILIES: dict[str, dict[str, Parameter]] = {
    **dict.fromkeys(("memcached1.4", "memcached1.5", "memcached1.6"), _MEMCACHED),
    **dict.fromkeys(
        ("redis2.6", "redis2.8", "redis3.2", "redis4.0", "redis5.0", "redis6.x", "redis7"), _REDIS
    ),
    **dict.fromkeys(("valkey7", "valkey8"), _REDIS),
}
#: Families with a ``default.<family>.cluster.on`` group besides ``default.<family>``.
_CLUSTER_MODE = tuple(
    f for f in FAMILIES if f.startswith(("redis", "valkey")) and f not in ("redis2.6", "redis2.8")
)


def _exception(code: str, message: str) -> Exception:
    from moto.elasticache.exceptions import ElastiCacheException

    return ElastiCacheException(code, message)


class CacheParameterGroup:
    """A cache parameter group: its family and the values it changed."""

    def __init__(
        self, account_id: str, region_name: str, name: str, family: str, description: str
    ) -> None:
        from moto.utilities.utils import get_partition

        self.cache_parameter_group_name = name
        self.cache_parameter_group_family = family
        self.description = description
        self.is_global = False
        self.arn = (
            f"arn:{get_partition(region_name)}:elasticache:{region_name}:{account_id}:"
            f"parametergroup:{name}"
        )
        self.is_default = name.startswith("default.")
        self.values: dict[str, str] = {}  # user-modified parameters
        if self.is_default and name.endswith(".cluster.on"):
            self.defaults = {"cluster-enabled": "yes"}
        else:
            self.defaults = {}

    def parameters(self, source: str | None) -> list[dict[str, Any]]:
        table = FAMILIES.get(self.cache_parameter_group_family, {})
        found = []
        for name in sorted(set(table) | set(self.values)):
            default, data_type, allowed, change, minimum, text = table.get(
                name, (None, "string", None, "immediate", "", "")
            )
            user = name in self.values
            if (source == "user" and not user) or (source in ("system", "engine-default") and user):
                continue
            value = self.values[name] if user else self.defaults.get(name, default)
            found.append(
                {
                    "ParameterName": name,
                    "ParameterValue": value,
                    "Description": text,
                    "Source": "user" if user else "system",
                    "DataType": data_type,
                    "AllowedValues": allowed,
                    "IsModifiable": True,
                    "MinimumEngineVersion": minimum,
                    "ChangeType": change,
                }
            )
        return found


def _default_groups(backend: Any) -> dict[str, CacheParameterGroup]:
    """AWS: every Region has a default group per family (and its cluster-mode twin)."""
    groups = {}
    for family in FAMILIES:
        names = [f"default.{family}"]
        if family in _CLUSTER_MODE:
            names.append(f"default.{family}.cluster.on")
        for name in names:
            groups[name] = CacheParameterGroup(
                backend.account_id, backend.region_name, name, family,
                f"Default parameter group for {family}",
            )  # fmt: skip
    return groups


class CacheParameterGroupBackend:
    """The Region's cache parameter groups (an ElastiCacheBackend mixin)."""

    cache_parameter_groups: Kept[CacheParameterGroup] = Kept(
        lambda backend: _default_groups(backend)
    )

    def get_cache_parameter_group(self, name: str) -> CacheParameterGroup:
        found = self.cache_parameter_groups.get((name or "").lower())
        if found is None:
            raise _exception(
                "CacheParameterGroupNotFound", f"CacheParameterGroup {name} not found."
            )
        return found

    def _changeable_cache_parameter_group(self, name: str) -> CacheParameterGroup:
        group = self.get_cache_parameter_group(name)
        if group.is_default:
            raise _exception(
                "InvalidParameterValue", f"Default parameter group {group.arn} cannot be modified."
            )
        return group

    def create_cache_parameter_group(
        self, name: str, family: str, description: str, tags: list[dict[str, str]]
    ) -> CacheParameterGroup:
        name = (name or "").lower()
        if family not in FAMILIES:
            raise _exception(
                "InvalidParameterValue",
                f"The parameter CacheParameterGroupFamily has an invalid value: {family}. "
                f"Valid values: {', '.join(FAMILIES)}",
            )
        if name.startswith("default."):
            raise _exception(
                "InvalidParameterValue", "Parameter group names starting with default. are reserved"
            )
        if name in self.cache_parameter_groups:
            raise _exception(
                "CacheParameterGroupAlreadyExists", f"Parameter group {name} already exists."
            )
        group = CacheParameterGroup(
            self.account_id,  # type: ignore[attr-defined]
            self.region_name,  # type: ignore[attr-defined]
            name,
            family,
            description,
        )
        self.cache_parameter_groups[name] = group
        if tags:
            self.tagging_service.tag_resource(group.arn, tags)  # type: ignore[attr-defined]
        return group

    def modify_cache_parameter_group(self, name: str, values: list[dict[str, str]]) -> str:
        group = self._changeable_cache_parameter_group(name)
        for item in values:
            group.values[item["ParameterName"]] = item.get("ParameterValue", "")
        return group.cache_parameter_group_name

    def reset_cache_parameter_group(
        self, name: str, reset_all: bool, values: list[dict[str, str]]
    ) -> str:
        group = self._changeable_cache_parameter_group(name)
        if reset_all and values:
            raise _exception(
                "InvalidParameterCombination",
                "ResetAllParameters and ParameterNameValues cannot be used together.",
            )
        if reset_all:
            group.values.clear()
        table = FAMILIES[group.cache_parameter_group_family]
        for item in values:
            parameter = item["ParameterName"]
            if parameter not in table and parameter not in group.values:
                raise _exception("InvalidParameterValue", f"Parameter {parameter} doesn't exist")
            group.values.pop(parameter, None)
        return group.cache_parameter_group_name

    def delete_cache_parameter_group(self, name: str) -> None:
        group = self.get_cache_parameter_group(name)
        if group.is_default:
            raise _exception(
                "InvalidParameterValue", f"Default parameter group {group.arn} cannot be deleted."
            )
        users = [
            *self.cache_clusters.values(),  # type: ignore[attr-defined]
            *self.replication_groups.values(),  # type: ignore[attr-defined]
        ]
        if any(getattr(u, "cache_parameter_group_name", None) == group.cache_parameter_group_name
               for u in users):  # fmt: skip
            raise _exception(
                "InvalidCacheParameterGroupState",
                f"One or more cache clusters are still members of parameter group {name}, "
                "so the group cannot be deleted.",
            )
        del self.cache_parameter_groups[group.cache_parameter_group_name]
        self.tagging_service.delete_all_tags_for_resource(group.arn)  # type: ignore[attr-defined]


class CacheParameterGroupResponse:
    """The cache parameter group actions (an ElastiCacheResponse mixin)."""

    def create_cache_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.elasticache_backend.create_cache_parameter_group(  # type: ignore[attr-defined]
            get("CacheParameterGroupName"),
            get("CacheParameterGroupFamily"),
            get("Description"),
            get("Tags", []),
        )
        return ActionResult({"CacheParameterGroup": group})

    def describe_cache_parameter_groups(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.elasticache_backend  # type: ignore[attr-defined]
        name = get("CacheParameterGroupName")
        if name:
            found = [backend.get_cache_parameter_group(name)]
        else:
            found = list(backend.cache_parameter_groups.values())
        page, marker = one_page(found, get("Marker"), get("MaxRecords"))
        return ActionResult({"CacheParameterGroups": page, "Marker": marker})

    def modify_cache_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        name = self.elasticache_backend.modify_cache_parameter_group(  # type: ignore[attr-defined]
            self._get_param("CacheParameterGroupName"),  # type: ignore[attr-defined]
            self._get_param("ParameterNameValues", []),  # type: ignore[attr-defined]
        )
        return ActionResult({"CacheParameterGroupName": name})

    def reset_cache_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        name = self.elasticache_backend.reset_cache_parameter_group(  # type: ignore[attr-defined]
            self._get_param("CacheParameterGroupName"),  # type: ignore[attr-defined]
            bool(self._get_param("ResetAllParameters")),  # type: ignore[attr-defined]
            self._get_param("ParameterNameValues", []),  # type: ignore[attr-defined]
        )
        return ActionResult({"CacheParameterGroupName": name})

    delete_cache_parameter_group = empty_action(
        "elasticache_backend", "delete_cache_parameter_group", "CacheParameterGroupName"
    )

    def describe_cache_parameters(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.elasticache_backend.get_cache_parameter_group(  # type: ignore[attr-defined]
            get("CacheParameterGroupName")
        )
        page, marker = one_page(group.parameters(get("Source")), get("Marker"), get("MaxRecords"))
        return ActionResult(
            {"Parameters": page, "CacheNodeTypeSpecificParameters": [], "Marker": marker}
        )


#: ARN resource kinds the fidelity layer keeps -> how the backend finds one of them.
_TAGGED_KINDS = {
    "parametergroup": "get_cache_parameter_group",
    "usergroup": "get_user_group",
    "serverlesscache": "get_serverless_cache",
}


def _tagged_kind(backend: Any, arn: str) -> str | None:
    """The kind of an ARN of an object of this layer (checking it exists), else None."""
    parts = (arn or "").split(":", 6)
    if len(parts) != 7 or parts[5] not in _TAGGED_KINDS:
        return None
    finder = getattr(backend, _TAGGED_KINDS[parts[5]], None)
    if finder is None:  # that kind's behaviour is off
        return None
    finder(parts[6])
    return parts[5]


def _cluster_parameter_group(cluster: Any) -> dict[str, Any] | None:
    name = getattr(cluster, "cache_parameter_group_name", None)
    if not name:
        return None
    return {
        "CacheParameterGroupName": name,
        "ParameterApplyStatus": "in-sync",
        "CacheNodeIdsToReboot": [],
    }


#: moto's tag operations, wrapped to take the ARNs of this layer's objects.
_TAGS_BY_ARN = {
    "moto.elasticache.models:ElastiCacheBackend.list_tags_for_resource": "3dfcb28b1348af28",
    "moto.elasticache.models:ElastiCacheBackend.add_tags_to_resource": "2632dc1a2e89f6ac",
    "moto.elasticache.models:ElastiCacheBackend.remove_tags_from_resource": "b57109c404bb53d6",
}


@behaviour(
    BEHAVIOURS,
    "elasticache.cache-parameter-groups",
    does="Create/Describe/Modify/Reset/DeleteCacheParameterGroup and DescribeCacheParameters "
    "(Source=user: only the changed parameters) keep a Region's parameter groups, the "
    "default ones included; their tags are kept by ARN; a missing group is "
    "CacheParameterGroupNotFound, for a cluster or replication group created on it too; "
    "DescribeCacheClusters returns a cluster's group",
    reference=_API + "API_CreateCacheParameterGroup.html",
    test=_TESTS + "test_a_cache_parameter_group_is_kept",
    replaces={
        **_TAGS_BY_ARN,
        "moto.elasticache.models:ElastiCacheBackend.create_cache_cluster": "3ce5d77540cb2b5b",
        "moto.elasticache.models:ElastiCacheBackend.create_replication_group": "5e994a49e38011c1",
    },
)
def _cache_parameter_groups() -> None:
    from moto.elasticache.models import CacheCluster, ElastiCacheBackend
    from moto.elasticache.responses import ElastiCacheResponse

    graft(CacheParameterGroupBackend, onto=ElastiCacheBackend)
    graft(CacheParameterGroupResponse, onto=ElastiCacheResponse)
    if hasattr(CacheCluster, "cache_parameter_group"):
        raise RuntimeError("moto's CacheCluster already has cache_parameter_group: re-check")
    patch(CacheCluster, "cache_parameter_group", property(_cluster_parameter_group))
    _tag_by_arn(ElastiCacheBackend)
    for name in ("create_cache_cluster", "create_replication_group"):
        before = original(ElastiCacheBackend, name)

        def create_on_a_group(self: Any, *args: Any, _before: Any = before, **kwargs: Any) -> Any:
            if kwargs.get("cache_parameter_group_name"):
                self.get_cache_parameter_group(kwargs["cache_parameter_group_name"])
            return _before(self, *args, **kwargs)

        patch(ElastiCacheBackend, name, create_on_a_group)


def _tag_by_arn(backend_class: Any) -> None:
    """Tag operations take the ARNs of this layer's objects (once, whichever behaviour asks)."""
    if getattr(backend_class, "_fidelity_tags_by_arn", False):
        return
    listed = original(backend_class, "list_tags_for_resource")
    added = original(backend_class, "add_tags_to_resource")
    removed = original(backend_class, "remove_tags_from_resource")

    def list_tags_for_resource(self: Any, arn: str) -> Any:
        if _tagged_kind(self, arn):
            return self.tagging_service.list_tags_for_resource(arn)
        return listed(self, arn)

    def add_tags_to_resource(self: Any, arn: str, tags: list[dict[str, str]]) -> None:
        _tagged_kind(self, arn)  # a missing object is its kind's NotFound
        added(self, arn, tags)

    def remove_tags_from_resource(self: Any, arn: str, tags: list[str]) -> None:
        _tagged_kind(self, arn)
        removed(self, arn, tags)

    patch(backend_class, "list_tags_for_resource", list_tags_for_resource)
    patch(backend_class, "add_tags_to_resource", add_tags_to_resource)
    patch(backend_class, "remove_tags_from_resource", remove_tags_from_resource)
    patch(backend_class, "_fidelity_tags_by_arn", True)


class UserGroup:
    """A user group: the users a replication group or serverless cache admits."""

    def __init__(self, account_id: str, region_name: str, group_id: str, engine: str) -> None:
        from moto.utilities.utils import get_partition

        self.user_group_id = group_id
        self.engine = engine
        self.status = "active"
        self.user_ids: list[str] = []
        self.minimum_engine_version = "6.0"
        self.replication_groups: list[str] = []
        self.serverless_caches: list[str] = []
        self.arn = (
            f"arn:{get_partition(region_name)}:elasticache:{region_name}:{account_id}:"
            f"usergroup:{group_id}"
        )

    def answer(self, status: str | None = None) -> dict[str, Any]:
        """The UserGroup as an action answers it (``status``: the change under way)."""
        return {
            "UserGroupId": self.user_group_id,
            "Status": status or self.status,
            "Engine": self.engine,
            "UserIds": list(self.user_ids),
            "MinimumEngineVersion": self.minimum_engine_version,
            "ReplicationGroups": list(self.replication_groups),
            "ServerlessCaches": list(self.serverless_caches),
            "ARN": self.arn,
        }


class UserGroupBackend:
    """The Region's user groups (an ElastiCacheBackend mixin)."""

    user_groups: Kept[UserGroup] = Kept()

    def get_user_group(self, group_id: str) -> UserGroup:
        found = self.user_groups.get(group_id)
        if found is None:
            raise _exception("UserGroupNotFound", f"User group {group_id} not found.")
        return found

    def _check_members(self, user_ids: list[str]) -> list[Any]:
        users = []
        for user_id in user_ids:
            user = self.users.get(user_id)  # type: ignore[attr-defined]
            if user is None:
                raise _exception("UserNotFound", f"User {user_id} not found.")
            users.append(user)
        names = [u.name for u in users]
        if len(names) != len(set(names)):
            raise _exception("DuplicateUserName", "A user group cannot hold two users of one name.")
        if "default" not in names:
            raise _exception(
                "DefaultUserRequired",
                "User group needs to contain a user with the user name default.",
            )
        return users

    def _set_members(self, group: UserGroup, user_ids: list[str]) -> None:
        for user in self.users.values():  # type: ignore[attr-defined]
            inside = user.id in user_ids
            if inside and group.user_group_id not in user.user_group_ids:
                user.user_group_ids.append(group.user_group_id)
            if not inside and group.user_group_id in user.user_group_ids:
                user.user_group_ids.remove(group.user_group_id)
        group.user_ids = list(user_ids)

    def create_user_group(
        self, group_id: str, engine: str, user_ids: list[str], tags: list[dict[str, str]]
    ) -> UserGroup:
        if group_id in self.user_groups:
            raise _exception("UserGroupAlreadyExists", f"User group {group_id} already exists.")
        engine = (engine or "").lower()
        if engine not in ("redis", "valkey"):
            raise _exception(
                "InvalidParameterValue", f"Engine {engine} is not supported: one of redis, valkey."
            )
        self._check_members(user_ids)
        group = UserGroup(self.account_id, self.region_name, group_id, engine)  # type: ignore[attr-defined]
        self._set_members(group, user_ids)
        self.user_groups[group_id] = group
        if tags:
            self.tagging_service.tag_resource(group.arn, tags)  # type: ignore[attr-defined]
        return group

    def modify_user_group(
        self, group_id: str, to_add: list[str], to_remove: list[str], engine: str | None
    ) -> UserGroup:
        group = self.get_user_group(group_id)
        members = [u for u in group.user_ids if u not in to_remove]
        members += [u for u in to_add if u not in members]
        self._check_members(members)
        if engine:
            group.engine = engine.lower()
        self._set_members(group, members)
        return group

    def delete_user_group(self, group_id: str) -> UserGroup:
        group = self.get_user_group(group_id)
        if group.replication_groups or group.serverless_caches:
            raise _exception(
                "InvalidUserGroupState", f"User group {group_id} is in use and cannot be deleted."
            )
        self._set_members(group, [])
        del self.user_groups[group_id]
        self.tagging_service.delete_all_tags_for_resource(group.arn)  # type: ignore[attr-defined]
        return group


class UserGroupResponse:
    """The user group actions (an ElastiCacheResponse mixin)."""

    def create_user_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.elasticache_backend.create_user_group(  # type: ignore[attr-defined]
            get("UserGroupId"), get("Engine"), get("UserIds", []), get("Tags", [])
        )
        return ActionResult(group.answer("creating"))

    def describe_user_groups(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.elasticache_backend  # type: ignore[attr-defined]
        if get("UserGroupId"):
            found = [backend.get_user_group(get("UserGroupId"))]
        else:
            found = list(backend.user_groups.values())
        page, marker = one_page([g.answer() for g in found], get("Marker"), get("MaxRecords"))
        return ActionResult({"UserGroups": page, "Marker": marker})

    def modify_user_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.elasticache_backend.modify_user_group(  # type: ignore[attr-defined]
            get("UserGroupId"), get("UserIdsToAdd", []), get("UserIdsToRemove", []), get("Engine")
        )
        return ActionResult(group.answer("modifying"))

    def delete_user_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self.elasticache_backend.delete_user_group(self._get_param("UserGroupId"))  # type: ignore[attr-defined]
        return ActionResult(group.answer("deleting"))


@behaviour(
    BEHAVIOURS,
    "elasticache.user-groups",
    does="Create/Describe/Modify/DeleteUserGroup keep a Region's user groups of moto's users "
    "(each user's UserGroupIds follow them); a group needs a user named default; a missing "
    "group is UserGroupNotFound, a missing user UserNotFound; tags are kept by ARN",
    reference=_API + "API_CreateUserGroup.html",
    test=_TESTS + "test_a_user_group_is_kept",
    replaces=_TAGS_BY_ARN,
)
def _user_groups() -> None:
    from moto.elasticache.models import ElastiCacheBackend
    from moto.elasticache.responses import ElastiCacheResponse

    graft(UserGroupBackend, onto=ElastiCacheBackend)
    graft(UserGroupResponse, onto=ElastiCacheResponse)
    _tag_by_arn(ElastiCacheBackend)


#: The engine version AWS runs for a version asked for as major.minor (or 6.x).
_LATEST = {"redis": {"6.x": "6.2.6", "": "7.1.0"}, "valkey": {"": "8.0.1"}}


def _engine_version(engine: str, asked: str | None) -> str:
    """``7.1`` -> ``7.1.0``, as DescribeCacheClusters answers the version a cluster runs."""
    engine = (engine or "redis").lower()
    if not asked:
        return _LATEST.get(engine, {}).get("", "")
    if asked in _LATEST.get(engine, {}):
        return _LATEST[engine][asked]
    return asked if asked.count(".") >= 2 else f"{asked}.0"


def _security_groups(cluster: Any) -> list[dict[str, str]]:
    return [{"SecurityGroupId": i, "Status": "active"} for i in cluster.security_group_ids or []]


def _member_cluster(backend: Any, group: Any, cluster_id: str, zone: str) -> Any:
    from moto.elasticache.models import CacheCluster

    cluster: Any = CacheCluster(
        account_id=backend.account_id,
        region_name=backend.region_name,
        cache_cluster_id=cluster_id,
        cache_node_type=group.cache_node_type,
        replication_group_id=group.replication_group_id,
        az_mode="single-az",
        preferred_availability_zone=zone,
        num_cache_nodes=1,
        engine=group.engine,
        engine_version=_engine_version(group.engine, group.engine_version),
        cache_parameter_group_name=group.cache_parameter_group_name,
        cache_subnet_group_name=group.cache_subnet_group_name,
        transit_encryption_enabled=group.transit_encryption_enabled,
        network_type=group.network_type,
        ip_discovery=group.ip_discovery,
        snapshot_name=None,
        preferred_maintenance_window=group.preferred_maintenance_window,
        port=group.port,
        notification_topic_arn=group.notification_topic_arn,
        auto_minor_version_upgrade=group.auto_minor_version_upgrade,
        snapshot_retention_limit=0,
        snapshot_window=None,
        auth_token=None,
        outpost_mode=None,
        preferred_outpost_arn=None,
        preferred_availability_zones=None,
        cache_security_group_names=group.cache_security_group_names,
        security_group_ids=group.security_group_ids,
        tags=None,
        snapshot_arns=None,
        preferred_outpost_arns=None,
        log_delivery_configurations=[],
        cache_node_ids_to_remove=[],
        cache_node_ids_to_reboot=[],
    )
    # A member runs with its group's authentication and encryption, as AWS answers them.
    cluster.auth_token_enabled = group.auth_token_enabled
    cluster.at_rest_encryption_enabled = group.at_rest_encryption_enabled
    if group.transit_encryption_enabled:
        cluster.transit_encryption_mode = group.transit_encryption_mode or "required"
    return cluster


#: ModifyReplicationGroup parameters moto ignores -> the attribute of the group and its members.
_MODIFIED = {
    "CacheParameterGroupName": "cache_parameter_group_name",
    "PreferredMaintenanceWindow": "preferred_maintenance_window",
    "SecurityGroupIds": "security_group_ids",
    "CacheNodeType": "cache_node_type",
    "EngineVersion": "engine_version",
}


@behaviour(
    BEHAVIOURS,
    "elasticache.replication-group-member-clusters",
    does="a replication group's member clusters are cache clusters: DescribeCacheClusters "
    "lists them with the group's engine (and the version it runs), node type, parameter and "
    "subnet group, authentication and encryption settings, "
    "security groups, NumCacheClusters of them; ModifyReplicationGroup "
    "changes them; once "
    "DeleteReplicationGroup is asked, the group and its members are gone",
    reference=_API + "API_CreateReplicationGroup.html",
    test=_TESTS + "test_a_replication_groups_members_are_cache_clusters",
    replaces={
        "moto.elasticache.models:ElastiCacheBackend.create_replication_group": "5e994a49e38011c1",
        "moto.elasticache.models:ElastiCacheBackend.delete_replication_group": "39eb3d275cddd82c",
        "moto.elasticache.responses:ElastiCacheResponse.modify_replication_group": (
            "c48c9ebffc8a0e84"
        ),
    },
)
def _replication_group_member_clusters() -> None:
    from moto.elasticache.models import CacheCluster, ElastiCacheBackend
    from moto.elasticache.responses import ElastiCacheResponse

    if hasattr(CacheCluster, "security_groups"):
        raise RuntimeError("moto's CacheCluster already has security_groups: re-check")
    patch(CacheCluster, "security_groups", property(_security_groups))
    create = original(ElastiCacheBackend, "create_replication_group")
    delete = original(ElastiCacheBackend, "delete_replication_group")
    modify = original(ElastiCacheResponse, "modify_replication_group")

    def create_replication_group(self: Any, **kwargs: Any) -> Any:
        wanted = kwargs.get("num_cache_clusters")
        if wanted and not kwargs.get("replicas_per_node_group") and not kwargs.get("cluster_mode"):
            # moto 5.2 counts a cluster-mode-disabled group's members from
            # ReplicasPerNodeGroup only; AWS makes NumCacheClusters of them.
            kwargs["replicas_per_node_group"] = int(wanted) - 1
        group = create(self, **kwargs)
        zones = kwargs.get("preferred_cache_cluster_azs") or []
        letters = "abc"
        for n, cluster_id in enumerate(group.member_clusters):
            zone = zones[n] if n < len(zones) else f"{self.region_name}{letters[n % 3]}"
            self.cache_clusters[cluster_id] = _member_cluster(self, group, cluster_id, zone)
            for node_group in group.node_groups:
                for member in node_group["node_group_members"]:
                    if member.get("cache_cluster_id") == cluster_id:
                        member["preferred_availability_zone"] = zone
        return group

    def delete_replication_group(
        self: Any, replication_group_id: str, retain_primary_cluster: bool | None
    ) -> Any:
        found = self.replication_groups.get(replication_group_id)
        members = list(found.member_clusters) if found else []
        primary = (found.primary_cluster_id if found else None) or next(iter(members), None)
        group = delete(self, replication_group_id, retain_primary_cluster)
        for cluster_id in members:
            if retain_primary_cluster and cluster_id == primary:
                self.cache_clusters[cluster_id].replication_group_id = None  # standalone now
            else:
                self.cache_clusters.pop(cluster_id, None)
        del self.replication_groups[replication_group_id]
        return group

    def modify_replication_group(self: Any) -> Any:
        result = modify(self)
        group = self.elasticache_backend.replication_groups[self._get_param("ReplicationGroupId")]
        for parameter, attribute in _MODIFIED.items():
            value = self._get_param(parameter)
            if value is None:
                continue
            setattr(group, attribute, value)
            for cluster_id in group.member_clusters:
                cluster = self.elasticache_backend.cache_clusters.get(cluster_id)
                if cluster is None:
                    continue
                if attribute == "engine_version":
                    value = _engine_version(group.engine, value)
                setattr(cluster, attribute, value)
        return result

    patch(ElastiCacheBackend, "create_replication_group", create_replication_group)
    patch(ElastiCacheBackend, "delete_replication_group", delete_replication_group)
    patch(ElastiCacheResponse, "modify_replication_group", modify_replication_group)


#: Engine -> (its default major version, the full version that runs for each major).
_SERVERLESS_ENGINES = {
    "redis": ("7", {"7": "7.1"}),
    "valkey": ("8", {"7": "7.2", "8": "8.0"}),
    "memcached": ("1.6", {"1.6": "1.6.22"}),
}


class ServerlessCache:
    """A serverless cache, as DescribeServerlessCaches answers it."""

    def __init__(self, backend: Any, name: str, asked: dict[str, Any]) -> None:
        from moto.core.utils import utcnow
        from moto.ec2.models import ec2_backends
        from moto.moto_api._internal import mock_random
        from moto.utilities.utils import get_partition

        region = backend.region_name
        engine = (asked.get("Engine") or "").lower()
        default_major, full = _SERVERLESS_ENGINES[engine]
        major = asked.get("MajorEngineVersion") or default_major
        ec2 = ec2_backends[backend.account_id][region]
        subnets = asked.get("SubnetIds") or [
            s.id for s in ec2.describe_subnets(filters={"default-for-az": "true"})
        ]
        vpc = ec2.get_subnet(subnets[0]).vpc_id if subnets else None
        default_group = ec2.get_default_security_group(vpc) if vpc else None
        host = f"{name}-{mock_random.get_random_hex(6)}.serverless.{region}.cache.amazonaws.com"
        port = 11211 if engine == "memcached" else 6379
        self.name = name
        self.engine = engine
        self.status = "available"
        self.values: dict[str, Any] = {
            "ServerlessCacheName": name,
            "Description": asked.get("Description") or "",
            "CreateTime": utcnow(),
            "Engine": engine,
            "MajorEngineVersion": major,
            "FullEngineVersion": full.get(major, f"{major}.0"),
            "CacheUsageLimits": asked.get("CacheUsageLimits"),
            "KmsKeyId": asked.get("KmsKeyId"),
            "SecurityGroupIds": asked.get("SecurityGroupIds")
            or ([default_group.id] if default_group else []),
            "Endpoint": {"Address": host, "Port": port},
            "ReaderEndpoint": {"Address": host, "Port": port + 1},
            "ARN": f"arn:{get_partition(region)}:elasticache:{region}:{backend.account_id}:"
            f"serverlesscache:{name}",
            "UserGroupId": asked.get("UserGroupId"),
            "SubnetIds": list(subnets),
            "SnapshotRetentionLimit": asked.get("SnapshotRetentionLimit") or 0,
            "DailySnapshotTime": asked.get("DailySnapshotTime") or "03:00",
        }
        if engine == "memcached":  # AWS: snapshots are Redis OSS and Valkey only
            for key in ("SnapshotRetentionLimit", "DailySnapshotTime", "UserGroupId"):
                self.values.pop(key)

    @property
    def arn(self) -> str:
        return str(self.values["ARN"])

    def answer(self, status: str | None = None) -> dict[str, Any]:
        return {k: v for k, v in dict(self.values, Status=status or self.status).items()
                if v is not None}  # fmt: skip


class ServerlessCacheBackend:
    """The Region's serverless caches (an ElastiCacheBackend mixin)."""

    serverless_caches: Kept[ServerlessCache] = Kept()

    def get_serverless_cache(self, name: str) -> ServerlessCache:
        found = self.serverless_caches.get(name)
        if found is None:
            raise _exception("ServerlessCacheNotFoundFault", f"Serverless cache {name} not found.")
        return found

    def _use_user_group(self, cache: ServerlessCache, group_id: str | None) -> None:
        """Move ``cache`` to user group ``group_id`` (None: to none)."""
        groups = getattr(self, "user_groups", {})
        if group_id is not None and group_id not in groups:
            raise _exception("UserGroupNotFound", f"User group {group_id} not found.")
        for group in groups.values():
            if cache.name in group.serverless_caches:
                group.serverless_caches.remove(cache.name)
        if group_id is not None:
            groups[group_id].serverless_caches.append(cache.name)
        if cache.engine != "memcached":
            cache.values["UserGroupId"] = group_id

    def create_serverless_cache(self, asked: dict[str, Any]) -> ServerlessCache:
        name = asked.get("ServerlessCacheName") or ""
        if name in self.serverless_caches:
            raise _exception(
                "ServerlessCacheAlreadyExistsFault", f"Serverless cache {name} already exists."
            )
        engine = (asked.get("Engine") or "").lower()
        if engine not in _SERVERLESS_ENGINES:
            raise _exception(
                "InvalidParameterValue",
                f"Engine {engine} is not supported: one of {', '.join(_SERVERLESS_ENGINES)}.",
            )
        cache = ServerlessCache(self, name, asked)
        if asked.get("UserGroupId"):
            self._use_user_group(cache, asked["UserGroupId"])
        self.serverless_caches[name] = cache
        if asked.get("Tags"):
            self.tagging_service.tag_resource(cache.arn, asked["Tags"])  # type: ignore[attr-defined]
        return cache

    def modify_serverless_cache(self, asked: dict[str, Any]) -> ServerlessCache:
        cache = self.get_serverless_cache(asked.get("ServerlessCacheName") or "")
        if asked.get("RemoveUserGroup"):
            self._use_user_group(cache, None)
        elif asked.get("UserGroupId"):
            self._use_user_group(cache, asked["UserGroupId"])
        for key in ("Description", "CacheUsageLimits", "SecurityGroupIds",
                    "SnapshotRetentionLimit", "DailySnapshotTime"):  # fmt: skip
            if asked.get(key) is not None:
                cache.values[key] = asked[key]
        if asked.get("MajorEngineVersion"):
            major = asked["MajorEngineVersion"]
            cache.values["MajorEngineVersion"] = major
            full = _SERVERLESS_ENGINES[cache.engine][1]
            cache.values["FullEngineVersion"] = full.get(major, f"{major}.0")
        return cache

    def delete_serverless_cache(self, name: str) -> ServerlessCache:
        cache = self.get_serverless_cache(name)
        self._use_user_group(cache, None)
        del self.serverless_caches[name]
        self.tagging_service.delete_all_tags_for_resource(cache.arn)  # type: ignore[attr-defined]
        return cache


class ServerlessCacheResponse:
    """The serverless cache actions (an ElastiCacheResponse mixin)."""

    def create_serverless_cache(self) -> Any:
        from moto.core.responses import ActionResult

        cache = self.elasticache_backend.create_serverless_cache(self._get_params())  # type: ignore[attr-defined]
        return ActionResult({"ServerlessCache": cache.answer("creating")})

    def describe_serverless_caches(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.elasticache_backend  # type: ignore[attr-defined]
        name = get("ServerlessCacheName")
        found = [backend.get_serverless_cache(name)] if name else backend.serverless_caches.values()
        page, token = one_page([c.answer() for c in found], get("NextToken"), get("MaxResults"))
        return ActionResult({"ServerlessCaches": page, "NextToken": token})

    def modify_serverless_cache(self) -> Any:
        from moto.core.responses import ActionResult

        cache = self.elasticache_backend.modify_serverless_cache(self._get_params())  # type: ignore[attr-defined]
        return ActionResult({"ServerlessCache": cache.answer("modifying")})

    def delete_serverless_cache(self) -> Any:
        from moto.core.responses import ActionResult

        cache = self.elasticache_backend.delete_serverless_cache(  # type: ignore[attr-defined]
            self._get_param("ServerlessCacheName")  # type: ignore[attr-defined]
        )
        return ActionResult({"ServerlessCache": cache.answer("deleting")})


@behaviour(
    BEHAVIOURS,
    "elasticache.serverless-caches",
    does="Create/Describe/Modify/DeleteServerlessCache keep a Region's serverless caches "
    "(endpoints, the engine version that runs, the default VPC's subnets and security group "
    "unless given, a user group's ServerlessCaches following); a missing cache is "
    "ServerlessCacheNotFoundFault; tags are kept by ARN",
    reference=_API + "API_CreateServerlessCache.html",
    test=_TESTS + "test_a_serverless_cache_is_kept",
    replaces=_TAGS_BY_ARN,
)
def _serverless_caches() -> None:
    from moto.elasticache.models import ElastiCacheBackend
    from moto.elasticache.responses import ElastiCacheResponse

    graft(ServerlessCacheBackend, onto=ElastiCacheBackend)
    graft(ServerlessCacheResponse, onto=ElastiCacheResponse)
    _tag_by_arn(ElastiCacheBackend)


class CacheSubnetGroupChangesBackend:
    """Modify and delete a cache subnet group (an ElastiCacheBackend mixin)."""

    def modify_cache_subnet_group(
        self, name: str, description: str | None, subnet_ids: list[str] | None
    ) -> Any:
        from moto.elasticache.models import CacheSubnetGroup

        [group] = self.describe_cache_subnet_groups(name)  # type: ignore[attr-defined]
        changed = CacheSubnetGroup(
            account_id=self.account_id,  # type: ignore[attr-defined]
            region_name=self.region_name,  # type: ignore[attr-defined]
            cache_subnet_group_name=name,
            cache_subnet_group_description=(
                group.cache_subnet_group_description if description is None else description
            ),
            subnet_ids=subnet_ids or group.subnet_ids,
            tags=group.tags,
        )
        self.cache_subnet_groups[name] = changed  # type: ignore[attr-defined]
        return changed  # the same ARN: its tags stay

    def delete_cache_subnet_group(self, name: str) -> None:
        [group] = self.describe_cache_subnet_groups(name)  # type: ignore[attr-defined]
        users = [
            *self.cache_clusters.values(),  # type: ignore[attr-defined]
            *self.replication_groups.values(),  # type: ignore[attr-defined]
        ]
        if any(getattr(u, "cache_subnet_group_name", None) == name for u in users):
            raise _exception("CacheSubnetGroupInUse", f"Cache subnet group {name} is in use.")
        del self.cache_subnet_groups[name]  # type: ignore[attr-defined]
        self.tagging_service.delete_all_tags_for_resource(group.arn)  # type: ignore[attr-defined]


class CacheSubnetGroupChangesResponse:
    """ModifyCacheSubnetGroup and DeleteCacheSubnetGroup (an ElastiCacheResponse mixin)."""

    def modify_cache_subnet_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.elasticache_backend.modify_cache_subnet_group(  # type: ignore[attr-defined]
            get("CacheSubnetGroupName"), get("CacheSubnetGroupDescription"), get("SubnetIds")
        )
        return ActionResult({"CacheSubnetGroup": group})

    delete_cache_subnet_group = empty_action(
        "elasticache_backend", "delete_cache_subnet_group", "CacheSubnetGroupName"
    )


@behaviour(
    BEHAVIOURS,
    "elasticache.cache-subnet-group-changes",
    does="ModifyCacheSubnetGroup changes a cache subnet group's description and subnets and "
    "DeleteCacheSubnetGroup deletes it (CacheSubnetGroupInUse while a cluster or replication "
    "group uses it, CacheSubnetGroupNotFoundFault once gone)",
    reference=_API + "API_DeleteCacheSubnetGroup.html",
    test=_TESTS + "test_a_cache_subnet_group_is_changed_and_deleted",
)
def _cache_subnet_group_changes() -> None:
    from moto.elasticache.models import ElastiCacheBackend
    from moto.elasticache.responses import ElastiCacheResponse

    graft(CacheSubnetGroupChangesBackend, onto=ElastiCacheBackend)
    graft(CacheSubnetGroupChangesResponse, onto=ElastiCacheResponse)


@behaviour(
    BEHAVIOURS,
    "elasticache.user-authentication-type",
    does="a user created with AuthenticationMode no-password-required is described with "
    "Authentication.Type no-password, the output enum's value (moto: the input's value "
    "answered back, which no AWS answer holds)",
    reference=_API + "API_Authentication.html",
    test=_TESTS + "test_a_user_without_a_password_is_described_as_no_password",
    replaces={"moto.elasticache.models:User.authentication": "b143f1e035163c9b"},
)
def _user_authentication_type() -> None:
    from moto.elasticache.models import User

    described = original(User, "authentication")

    def authentication(self: Any) -> dict[str, Any]:
        found = dict(described(self))
        if found.get("Type") == "no-password-required":
            found["Type"] = "no-password"
        return found

    patch(User, "authentication", property(authentication))


class ModifyUserResponse:
    """ModifyUser, as ``ElastiCacheResponse`` would have it (moto 5.2 lacks it)."""

    def modify_user(self) -> Any:
        from moto.core.responses import ActionResult
        from moto.elasticache.exceptions import UserNotFound

        get = self._get_param  # type: ignore[attr-defined]
        users = self.elasticache_backend.users  # type: ignore[attr-defined]
        user = users.get(get("UserId"))
        if user is None:
            raise UserNotFound(get("UserId"))
        if get("AccessString"):
            user.access_string = get("AccessString")
        if get("AppendAccessString"):
            user.access_string = f"{user.access_string} {get('AppendAccessString')}"
        mode = get("AuthenticationMode") or {}
        passwords = get("Passwords") or mode.get("Passwords") or []
        if mode.get("Type"):
            user.authentication_type = mode["Type"]
            user.no_password_required = mode["Type"] == "no-password-required"
            user.passwords = list(passwords)
        elif get("NoPasswordRequired") is not None:
            user.no_password_required = str(get("NoPasswordRequired")).lower() == "true"
            user.authentication_type = (
                "no-password-required" if user.no_password_required else "password"
            )
            user.passwords = list(passwords)
        elif passwords:
            user.passwords, user.authentication_type = list(passwords), "password"
        user.status = "active"
        return ActionResult(user)


@behaviour(
    BEHAVIOURS,
    "elasticache.modify-user",
    does="ModifyUser changes a user's access string (or appends to it), its passwords and its "
    "authentication mode (moto 5.2 lacks the operation); a missing user is UserNotFound",
    reference=_API + "API_ModifyUser.html",
    test=_TESTS + "test_a_user_is_modified",
)
def _modify_user() -> None:
    from moto.elasticache.responses import ElastiCacheResponse

    graft(ModifyUserResponse, onto=ElastiCacheResponse)
