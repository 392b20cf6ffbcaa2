"""MemoryDB: access control lists and parameter groups.

Following the MemoryDB API reference
(https://docs.aws.amazon.com/memorydb/latest/APIReference/):

- ``CreateACL``, ``DescribeACLs``, ``UpdateACL``, ``DeleteACL``: a Region's
  access control lists of moto's users (``CreateUser``, ``DescribeUsers``,
  ``UpdateUser``, ``DeleteUser`` are moto's), the ``open-access`` one
  included; each user's ``ACLNames`` and each ACL's ``Clusters`` follow; a
  missing ACL is ``ACLNotFoundFault`` (for ``CreateCluster`` and
  ``UpdateCluster`` too), a missing user ``UserNotFoundFault``,
  an ACL a cluster uses cannot be deleted (``InvalidACLStateFault``).
- ``CreateParameterGroup``, ``DescribeParameterGroups``,
  ``UpdateParameterGroup``, ``ResetParameterGroup``, ``DeleteParameterGroup``,
  ``DescribeParameters``: a Region's parameter groups, the
  ``default.memorydb-<engine>`` ones included (which cannot be changed or
  deleted); ``DescribeParameters`` answers the family's parameters with the
  group's values; a missing group is ``ParameterGroupNotFoundFault`` (for
  ``CreateCluster`` and ``UpdateCluster`` too).
- ``ListTags``, ``TagResource``, ``UntagResource`` take the ARN of an ACL or
  a parameter group (moto 5.2 answers ``ClusterNotFoundFault``), and
  ``Tags`` at creation are kept.

As with ElastiCache, the family table lists the parameters modules commonly
set, with their defaults (MemoryDB Developer Guide, "Engine specific
parameters"); a parameter outside it is kept rather than refused.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/memorydb/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_memorydb.py::"

#: A MemoryDB parameter's default value, data type, allowed values, minimum engine version.
_PARAMETERS: dict[str, tuple[str, str, str, str]] = {
    "activedefrag": ("no", "string", "yes,no", "6.2.0"),
    "active-defrag-cycle-max": ("75", "integer", "1-75", "6.2.0"),
    "active-defrag-cycle-min": ("5", "integer", "1-75", "6.2.0"),
    "lfu-decay-time": ("1", "integer", "0-", "6.2.0"),
    "lfu-log-factor": ("10", "integer", "1-", "6.2.0"),
    "maxmemory-policy": (
        "noeviction",
        "string",
        "volatile-lru,allkeys-lru,volatile-lfu,allkeys-lfu,volatile-random,allkeys-random,"
        "volatile-ttl,noeviction",
        "6.2.0",
    ),
    "maxmemory-samples": ("3", "integer", "1-", "6.2.0"),
    "notify-keyspace-events": ("", "string", "", "6.2.0"),
    "slowlog-log-slower-than": ("10000", "integer", "-", "6.2.0"),
    "slowlog-max-len": ("128", "integer", "0-", "6.2.0"),
    "tcp-keepalive": ("300", "integer", "0-", "6.2.0"),
    "timeout": ("0", "integer", "0,20-", "6.2.0"),
}
#: The families MemoryDB offers -> their default group (``default.memorydb-redis7`` ...).
FAMILIES = {
    family: "default." + family.replace("_", "-")
    for family in ("memorydb_redis6", "memorydb_redis7", "memorydb_valkey7")
}


def _fault(code: str, message: str) -> Exception:
    from moto.memorydb.exceptions import MemoryDBClientError

    return MemoryDBClientError(code, message)


class ACL:
    """An access control list: the users a cluster admits."""

    def __init__(self, account_id: str, region_name: str, name: str) -> None:
        self.name = name
        self.status = "active"
        self.user_names: list[str] = []
        self.minimum_engine_version = "6.2"
        self.arn = f"arn:aws:memorydb:{region_name}:{account_id}:acl/{name}"

    def answer(self, backend: Any, status: str | None = None) -> dict[str, Any]:
        return {
            "Name": self.name,
            "Status": status or self.status,
            "UserNames": list(self.user_names),
            "MinimumEngineVersion": self.minimum_engine_version,
            "Clusters": [
                c.cluster_name for c in backend.clusters.values() if c.acl_name == self.name
            ],
            "ARN": self.arn,
        }


def _open_access(backend: Any) -> dict[str, ACL]:
    """AWS: every account has the open-access ACL, holding the default user."""
    acl = ACL(backend.account_id, backend.region_name, "open-access")
    acl.user_names = ["default"]
    return {"open-access": acl}


class ACLBackend:
    """The Region's access control lists (a MemoryDBBackend mixin)."""

    acls: Kept[ACL] = Kept(lambda backend: _open_access(backend))

    def get_acl(self, name: str) -> ACL:
        acl = self.acls.get(name)
        if acl is None:
            raise _fault("ACLNotFoundFault", f"ACL {name} not found.")
        return acl

    def _set_acl_users(self, acl: ACL, user_names: list[str]) -> None:
        for user_name in user_names:
            if user_name not in self.users:  # type: ignore[attr-defined]
                raise _fault("UserNotFoundFault", f"User {user_name} not found.")
        for user in self.users.values():  # type: ignore[attr-defined]
            inside = user.user_name in user_names
            if inside and acl.name not in user.acl_names:
                user.acl_names.append(acl.name)
            if not inside and acl.name in user.acl_names:
                user.acl_names.remove(acl.name)
        acl.user_names = list(user_names)

    def create_acl(self, name: str, user_names: list[str], tags: list[dict[str, str]]) -> ACL:
        if name in self.acls:
            raise _fault("ACLAlreadyExistsFault", f"ACL {name} already exists.")
        acl = ACL(self.account_id, self.region_name, name)  # type: ignore[attr-defined]
        self._set_acl_users(acl, user_names)
        self.acls[name] = acl
        if tags:
            self.tagger.tag_resource(acl.arn, tags)  # type: ignore[attr-defined]
        return acl

    def update_acl(self, name: str, to_add: list[str], to_remove: list[str]) -> ACL:
        acl = self.get_acl(name)
        if name == "open-access":
            raise _fault("InvalidParameterValueException", "The open-access ACL cannot be changed.")
        members = [u for u in acl.user_names if u not in to_remove]
        members += [u for u in to_add if u not in members]
        self._set_acl_users(acl, members)
        return acl

    def delete_acl(self, name: str) -> ACL:
        acl = self.get_acl(name)
        if name == "open-access":
            raise _fault("InvalidParameterValueException", "The open-access ACL cannot be deleted.")
        if any(c.acl_name == name for c in self.clusters.values()):  # type: ignore[attr-defined]
            raise _fault("InvalidACLStateFault", f"ACL {name} is in use by a cluster.")
        self._set_acl_users(acl, [])
        del self.acls[name]
        self.tagger.delete_all_tags_for_resource(acl.arn)  # type: ignore[attr-defined]
        return acl


class ACLResponse:
    """The ACL actions (a MemoryDBResponse mixin)."""

    def create_acl(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.memorydb_backend  # type: ignore[attr-defined]
        acl = backend.create_acl(get("ACLName"), get("UserNames") or [], get("Tags") or [])
        return ActionResult({"ACL": acl.answer(backend, "creating")})

    def describe_ac_ls(self) -> Any:
        """DescribeACLs (moto dispatches an action by ``camelcase_to_underscores`` of its name)."""
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.memorydb_backend  # type: ignore[attr-defined]
        found = [backend.get_acl(get("ACLName"))] if get("ACLName") else list(backend.acls.values())
        page, token = one_page(
            [a.answer(backend) for a in found], get("NextToken"), get("MaxResults")
        )
        return ActionResult({"ACLs": page, "NextToken": token})

    def update_acl(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.memorydb_backend  # type: ignore[attr-defined]
        acl = backend.update_acl(
            get("ACLName"), get("UserNamesToAdd") or [], get("UserNamesToRemove") or []
        )
        return ActionResult({"ACL": acl.answer(backend, "modifying")})

    def delete_acl(self) -> Any:
        from moto.core.responses import ActionResult

        backend = self.memorydb_backend  # type: ignore[attr-defined]
        acl = backend.delete_acl(self._get_param("ACLName"))  # type: ignore[attr-defined]
        return ActionResult({"ACL": acl.answer(backend, "deleting")})


class ParameterGroup:
    """A MemoryDB parameter group: its family and the values it changed."""

    def __init__(
        self, account_id: str, region_name: str, name: str, family: str, description: str
    ) -> None:
        self.name = name
        self.family = family
        self.description = description
        self.arn = f"arn:aws:memorydb:{region_name}:{account_id}:parametergroup/{name}"
        self.is_default = name.startswith("default.")
        self.values: dict[str, str] = {}

    def answer(self) -> dict[str, Any]:
        return {
            "Name": self.name,
            "Family": self.family,
            "Description": self.description,
            "ARN": self.arn,
        }

    def parameters(self) -> list[dict[str, Any]]:
        found = []
        for name in sorted(set(_PARAMETERS) | set(self.values)):
            default, data_type, allowed, minimum = _PARAMETERS.get(name, ("", "string", "", ""))
            found.append(
                {
                    "Name": name,
                    "Value": self.values.get(name, default),
                    "Description": name,
                    "DataType": data_type,
                    "AllowedValues": allowed,
                    "MinimumEngineVersion": minimum,
                }
            )
        return found


def _default_groups(backend: Any) -> dict[str, ParameterGroup]:
    """AWS: every Region has a default parameter group per engine family."""
    return {
        name: ParameterGroup(
            backend.account_id, backend.region_name, name, family,
            f"Default parameter group for {family}",
        )
        for family, name in FAMILIES.items()
    }  # fmt: skip


class ParameterGroupBackend:
    """The Region's MemoryDB parameter groups (a MemoryDBBackend mixin)."""

    parameter_groups: Kept[ParameterGroup] = Kept(lambda backend: _default_groups(backend))

    def get_parameter_group(self, name: str) -> ParameterGroup:
        group = self.parameter_groups.get(name)
        if group is None:
            raise _fault("ParameterGroupNotFoundFault", f"Parameter group {name} not found.")
        return group

    def _changeable_parameter_group(self, name: str) -> ParameterGroup:
        group = self.get_parameter_group(name)
        if group.is_default:
            raise _fault(
                "InvalidParameterValueException",
                f"Default parameter group {name} cannot be changed.",
            )
        return group

    def create_parameter_group(
        self, name: str, family: str, description: str, tags: list[dict[str, str]]
    ) -> ParameterGroup:
        if family not in FAMILIES:
            raise _fault(
                "InvalidParameterValueException",
                f"Family {family} is not valid: one of {', '.join(FAMILIES)}.",
            )
        if name in self.parameter_groups:
            raise _fault(
                "ParameterGroupAlreadyExistsFault", f"Parameter group {name} already exists."
            )
        group = ParameterGroup(
            self.account_id,  # type: ignore[attr-defined]
            self.region_name,  # type: ignore[attr-defined]
            name,
            family,
            description,
        )
        self.parameter_groups[name] = group
        if tags:
            self.tagger.tag_resource(group.arn, tags)  # type: ignore[attr-defined]
        return group

    def update_parameter_group(self, name: str, values: list[dict[str, str]]) -> ParameterGroup:
        group = self._changeable_parameter_group(name)
        for item in values:
            group.values[item["ParameterName"]] = item.get("ParameterValue", "")
        return group

    def reset_parameter_group(
        self, name: str, every: bool, parameter_names: list[str]
    ) -> ParameterGroup:
        group = self._changeable_parameter_group(name)
        if every and parameter_names:
            raise _fault(
                "InvalidParameterCombinationException",
                "AllParameters and ParameterNames cannot be used together.",
            )
        if every:
            group.values.clear()
        for parameter in parameter_names:
            if parameter not in _PARAMETERS and parameter not in group.values:
                raise _fault("InvalidParameterValueException", f"Parameter {parameter} not found.")
            group.values.pop(parameter, None)
        return group

    def delete_parameter_group(self, name: str) -> ParameterGroup:
        group = self._changeable_parameter_group(name)
        if any(c.parameter_group_name == name for c in self.clusters.values()):  # type: ignore[attr-defined]
            raise _fault(
                "InvalidParameterGroupStateFault", f"Parameter group {name} is in use by a cluster."
            )
        del self.parameter_groups[name]
        self.tagger.delete_all_tags_for_resource(group.arn)  # type: ignore[attr-defined]
        return group


class ParameterGroupResponse:
    """The parameter group actions (a MemoryDBResponse mixin)."""

    def create_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.memorydb_backend.create_parameter_group(  # type: ignore[attr-defined]
            get("ParameterGroupName"), get("Family"), get("Description"), get("Tags") or []
        )
        return ActionResult({"ParameterGroup": group.answer()})

    def describe_parameter_groups(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.memorydb_backend  # type: ignore[attr-defined]
        name = get("ParameterGroupName")
        found = [backend.get_parameter_group(name)] if name else backend.parameter_groups.values()
        page, token = one_page([g.answer() for g in found], get("NextToken"), get("MaxResults"))
        return ActionResult({"ParameterGroups": page, "NextToken": token})

    def update_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self.memorydb_backend.update_parameter_group(  # type: ignore[attr-defined]
            self._get_param("ParameterGroupName"),  # type: ignore[attr-defined]
            self._get_param("ParameterNameValues") or [],  # type: ignore[attr-defined]
        )
        return ActionResult({"ParameterGroup": group.answer()})

    def reset_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self.memorydb_backend.reset_parameter_group(  # type: ignore[attr-defined]
            self._get_param("ParameterGroupName"),  # type: ignore[attr-defined]
            bool(self._get_param("AllParameters")),  # type: ignore[attr-defined]
            self._get_param("ParameterNames") or [],  # type: ignore[attr-defined]
        )
        return ActionResult({"ParameterGroup": group.answer()})

    def delete_parameter_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self.memorydb_backend.delete_parameter_group(  # type: ignore[attr-defined]
            self._get_param("ParameterGroupName")  # type: ignore[attr-defined]
        )
        return ActionResult({"ParameterGroup": group.answer()})

    def describe_parameters(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.memorydb_backend.get_parameter_group(get("ParameterGroupName"))  # type: ignore[attr-defined]
        page, token = one_page(group.parameters(), get("NextToken"), get("MaxResults"))
        return ActionResult({"Parameters": page, "NextToken": token})


#: ARN kinds this layer adds -> the backend's finder of one (raising its NotFound fault).
_KINDS = {"acl": "get_acl", "parametergroup": "get_parameter_group"}


def _ours(backend: Any, arn: str) -> bool:
    """Whether ``arn`` names an ACL or parameter group (checked to exist)."""
    kind, _, name = (arn or "").rpartition(":")[2].partition("/")
    finder = getattr(backend, _KINDS.get(kind, ""), None)
    if finder is None:
        return False
    finder(name)
    return True


#: moto's tag operations, wrapped to take the ARNs of this layer's objects.
_TAGS = {
    "moto.memorydb.models:MemoryDBBackend.list_tags": "ad869607f9aa2d73",
    "moto.memorydb.models:MemoryDBBackend.tag_resource": "9a0a4d2ea5c5ac94",
    "moto.memorydb.models:MemoryDBBackend.untag_resource": "e6aaa6c64371123d",
    "moto.memorydb.models:MemoryDBBackend._list_arns": "fc4bdfd2665b71e5",
}


def _tag_by_arn(backend_class: Any) -> None:
    """The tag operations take this layer's ARNs (once, whichever behaviour asks first)."""
    if getattr(backend_class, "_fidelity_tags_by_arn", False):
        return
    listed = original(backend_class, "_list_arns")

    def _list_arns(self: Any) -> list[str]:
        ours = [a.arn for a in getattr(self, "acls", {}).values()]
        ours += [g.arn for g in getattr(self, "parameter_groups", {}).values()]
        return [*listed(self), *ours]

    for name in ("list_tags", "tag_resource", "untag_resource"):
        before = original(backend_class, name)

        def checked(self: Any, resource_arn: str, *args: Any, _before: Any = before) -> Any:
            _ours(self, resource_arn)  # a missing ACL or group is its own NotFound fault
            return _before(self, resource_arn, *args)

        patch(backend_class, name, checked)
    patch(backend_class, "_list_arns", _list_arns)
    patch(backend_class, "_fidelity_tags_by_arn", True)


#: moto's cluster operations, wrapped to refuse an ACL or parameter group that does not exist.
_CLUSTERS = {
    "moto.memorydb.models:MemoryDBBackend.create_cluster": "33eece3641e9bc72",
    "moto.memorydb.models:MemoryDBBackend.update_cluster": "9db37e820cfc107c",
}


def _check_clusters_use(backend_class: Any, argument: str, finder: str) -> None:
    """CreateCluster and UpdateCluster refuse a missing ``argument`` (its NotFound fault)."""
    for name in ("create_cluster", "update_cluster"):
        before = original(backend_class, name)

        def checked(self: Any, *args: Any, _before: Any = before, **kwargs: Any) -> Any:
            if kwargs.get(argument):
                getattr(self, finder)(kwargs[argument])
            return _before(self, *args, **kwargs)

        patch(backend_class, name, checked)


@behaviour(
    BEHAVIOURS,
    "memorydb.acls",
    does="Create/Describe/Update/DeleteACL keep a Region's access control lists of moto's "
    "users (open-access included; users' ACLNames and ACLs' Clusters follow); a missing ACL "
    "is ACLNotFoundFault, for a cluster created on it too, a missing user "
    "UserNotFoundFault; tags are kept by ARN",
    reference=_API + "API_CreateACL.html",
    test=_TESTS + "test_an_acl_is_kept",
    replaces={**_TAGS, **_CLUSTERS},
)
def _acls() -> None:
    from moto.memorydb.models import MemoryDBBackend
    from moto.memorydb.responses import MemoryDBResponse

    graft(ACLBackend, onto=MemoryDBBackend)
    graft(ACLResponse, onto=MemoryDBResponse)
    _tag_by_arn(MemoryDBBackend)
    _check_clusters_use(MemoryDBBackend, "acl_name", "get_acl")


@behaviour(
    BEHAVIOURS,
    "memorydb.parameter-groups",
    does="Create/Describe/Update/Reset/DeleteParameterGroup and DescribeParameters keep a "
    "Region's parameter groups, the default ones included; a missing group is "
    "ParameterGroupNotFoundFault, for a cluster created on it too; tags are kept by ARN",
    reference=_API + "API_CreateParameterGroup.html",
    test=_TESTS + "test_a_parameter_group_is_kept",
    replaces={**_TAGS, **_CLUSTERS},
)
def _parameter_groups() -> None:
    from moto.memorydb.models import MemoryDBBackend
    from moto.memorydb.responses import MemoryDBResponse

    graft(ParameterGroupBackend, onto=MemoryDBBackend)
    graft(ParameterGroupResponse, onto=MemoryDBResponse)
    _tag_by_arn(MemoryDBBackend)
    _check_clusters_use(MemoryDBBackend, "parameter_group_name", "get_parameter_group")
