"""AWS RAM: finding a resource share, its tags, permissions and associations.

Following the AWS RAM API reference
(https://docs.aws.amazon.com/ram/latest/APIReference/):

- ``GetResourceShares``: answers the shares asked for (``resourceShareArns``,
  ``resourceShareStatus``, ``name``, ``tagFilters``); an ARN of no share of the
  account is ``UnknownResourceException``. moto 5.2 answers every share of the
  account whatever is asked, so a second share makes the provider's read fail
  ("too many results").
- ``CreateResourceShare`` ``tags``, ``TagResource``, ``UntagResource``: a
  share keeps its tags and ``GetResourceShares`` returns them; moto 5.2 drops
  them and has neither operation.
- ``ListResourceSharePermissions``: the permissions of a share, those given at
  ``CreateResourceShare`` (``permissionArns``) or else, as RAM attaches them,
  the default permission of each resource type shared; moto 5.2 has none.
- ``AssociateResourceShare``, ``DisassociateResourceShare``: principals and
  resources added to and removed from a share after its creation; moto 5.2
  has neither.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from . import Behaviour, behaviour, graft, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/ram/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_ram.py::"


def _route(action: str) -> None:
    """Serve ``/<action>`` as moto's RAM paths are served (``urls.url_paths``, read when
    the server first builds the RAM app: after :func:`install`)."""
    from moto.ram import urls

    path = "{0}/" + action + "$"
    if path in urls.url_paths:
        raise RuntimeError(f"moto's RAM already serves {path}: re-check this behaviour")
    urls.url_paths[path] = urls.ResourceAccessManagerResponse.dispatch


def _share(backend: Any, arn: str | None) -> Any:
    from moto.ram.exceptions import UnknownResourceException

    found = next((s for s in backend.resource_shares if s.arn == arn), None)
    if found is None:
        raise UnknownResourceException(f"ResourceShare {arn} could not be found.")
    return found


def _tags(share: Any) -> dict[str, str]:
    found: dict[str, str] | None = vars(share).get("_tags")
    if found is None:
        found = vars(share)["_tags"] = {}
    return found


@behaviour(
    BEHAVIOURS,
    "ram.get-resource-shares-filters",
    does="GetResourceShares answers only the shares asked for (resourceShareArns, "
    "resourceShareStatus, name, tagFilters); an unknown share ARN is UnknownResourceException",
    reference=_API + "API_GetResourceShares.html",
    test=_TESTS + "test_get_resource_shares_answers_the_shares_asked_for",
    replaces={
        "moto.ram.responses:ResourceAccessManagerResponse.get_resource_shares": "9413f7963d9adeb1",
    },
)
def _get_resource_shares_filters() -> None:
    from moto.ram.responses import ResourceAccessManagerResponse

    def get_resource_shares(self: Any) -> str:
        get = self._get_param
        every = self.ram_backend.get_resource_shares(get("resourceOwner"))["resourceShares"]
        arns = get("resourceShareArns") or []
        for arn in arns:
            _share(self.ram_backend, arn)
        status, name = get("resourceShareStatus"), get("name")
        wanted = [(f["tagKey"], f.get("tagValues") or []) for f in get("tagFilters") or []]
        found = [
            share
            for share in every
            if (not arns or share["resourceShareArn"] in arns)
            and (not status or share["status"] == status)
            and (not name or share["name"] == name)
            and all(_tagged(share, key, values) for key, values in wanted)
        ]
        return json.dumps({"resourceShares": found})

    patch(ResourceAccessManagerResponse, "get_resource_shares", get_resource_shares)


def _tagged(share: dict[str, Any], key: str, values: list[str]) -> bool:
    tags = {t["key"]: t["value"] for t in share.get("tags", [])}
    return key in tags and (not values or tags[key] in values)


class TagsResponse:
    """A resource share's tags (a ResourceAccessManagerResponse mixin)."""

    def tag_resource(self) -> str:
        share = _share(self.ram_backend, self._get_param("resourceShareArn"))  # type: ignore[attr-defined]
        for tag in self._get_param("tags") or []:  # type: ignore[attr-defined]
            _tags(share)[tag["key"]] = tag.get("value", "")
        return "{}"

    def untag_resource(self) -> str:
        share = _share(self.ram_backend, self._get_param("resourceShareArn"))  # type: ignore[attr-defined]
        for key in self._get_param("tagKeys") or []:  # type: ignore[attr-defined]
            _tags(share).pop(key, None)
        return "{}"


@behaviour(
    BEHAVIOURS,
    "ram.resource-share-tags",
    does="CreateResourceShare keeps a share's tags, GetResourceShares returns them and "
    "TagResource/UntagResource change them",
    reference=_API + "API_TagResource.html",
    test=_TESTS + "test_a_resource_share_keeps_its_tags",
    replaces={
        "moto.ram.models:ResourceAccessManagerBackend.create_resource_share": "cd6fa21f02812c07",
        "moto.ram.models:ResourceShare.describe": "b629482ffffc394c",
    },
)
def _resource_share_tags() -> None:
    from moto.ram.models import ResourceAccessManagerBackend, ResourceShare
    from moto.ram.responses import ResourceAccessManagerResponse

    graft(TagsResponse, onto=ResourceAccessManagerResponse)
    _route("tagresource")
    _route("untagresource")
    create, describe = (
        original(ResourceAccessManagerBackend, "create_resource_share"),
        original(ResourceShare, "describe"),
    )

    def create_resource_share(self: Any, **kwargs: Any) -> dict[str, Any]:
        answer: dict[str, Any] = create(self, **kwargs)
        share = _share(self, answer["resourceShare"]["resourceShareArn"])
        _tags(share).update({t["key"]: t.get("value", "") for t in kwargs.get("tags") or []})
        answer["resourceShare"]["tags"] = share.describe()["tags"]
        return answer

    def described(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = describe(self)
        answer["tags"] = [{"key": k, "value": v} for k, v in _tags(self).items()]
        return answer

    patch(ResourceAccessManagerBackend, "create_resource_share", create_resource_share)
    patch(ResourceShare, "describe", described)


#: A shared resource's ARN -> (service, resource type as the ARN spells it).
_RESOURCE = re.compile(r"arn:aws[a-z-]*:([a-z0-9-]+):[a-z0-9-]*:[0-9]{12}:([a-z-]+)[/:].*")


def _default_permissions(backend: Any, share: Any) -> list[Any]:
    """The default permission of each resource type the share holds (RAM attaches them)."""
    kinds = set()
    for arn in share.resource_arns:
        match = _RESOURCE.fullmatch(arn)
        if match:
            kinds.add((match.group(1), match.group(2).replace("-", "")))
    return [
        p
        for p in backend.managed_permissions
        if p.is_resource_type_default
        and (p.resource_type.split(":")[0], p.resource_type.split(":")[1].lower()) in kinds
    ]


class PermissionsResponse:
    """ListResourceSharePermissions (a ResourceAccessManagerResponse mixin)."""

    def list_resource_share_permissions(self) -> str:
        backend = self.ram_backend  # type: ignore[attr-defined]
        share = _share(backend, self._get_param("resourceShareArn"))  # type: ignore[attr-defined]
        asked = vars(share).get("_permission_arns") or []
        if asked:
            found = [p for p in backend.managed_permissions if p.arn in asked]
        else:
            found = _default_permissions(backend, share)
        permissions = [_permission_summary(p) for p in found]
        return json.dumps({"permissions": permissions})


def _permission_summary(permission: Any) -> dict[str, Any]:
    """A ResourceSharePermissionSummary: moto keeps its times as text, the API sends epochs."""
    summary: dict[str, Any] = {**permission.describe(), "featureSet": "STANDARD"}
    summary["status"] = "ASSOCIATED"
    for key in ("creationTime", "lastUpdatedTime"):
        if isinstance(summary.get(key), str):
            when = datetime.strptime(summary[key], "%Y-%m-%d %H:%M:%S.%f")
            summary[key] = when.replace(tzinfo=timezone.utc).timestamp()
    return summary


@behaviour(
    BEHAVIOURS,
    "ram.resource-share-permissions",
    does="ListResourceSharePermissions answers a share's permissions: those given at "
    "CreateResourceShare, else the default permission of each resource type it shares",
    reference=_API + "API_ListResourceSharePermissions.html",
    test=_TESTS + "test_a_resource_shares_permissions_are_listed",
    replaces={
        "moto.ram.models:ResourceAccessManagerBackend.create_resource_share": "cd6fa21f02812c07",
    },
)
def _resource_share_permissions() -> None:
    from moto.ram.exceptions import UnknownResourceException
    from moto.ram.models import ResourceAccessManagerBackend
    from moto.ram.responses import ResourceAccessManagerResponse

    graft(PermissionsResponse, onto=ResourceAccessManagerResponse)
    _route("listresourcesharepermissions")
    create = original(ResourceAccessManagerBackend, "create_resource_share")

    def create_resource_share(self: Any, **kwargs: Any) -> dict[str, Any]:
        asked = list(kwargs.get("permissionArns") or [])
        known = {p.arn for p in self.managed_permissions}
        for arn in asked:
            if arn not in known:
                raise UnknownResourceException(f"Permission {arn} could not be found.")
        answer: dict[str, Any] = create(self, **kwargs)
        share = _share(self, answer["resourceShare"]["resourceShareArn"])
        # RAM attaches the default permission of each shared type unless given these.
        vars(share)["_permission_arns"] = asked
        return answer

    patch(ResourceAccessManagerBackend, "create_resource_share", create_resource_share)


def _associations(share: Any, kind: str, entities: list[str], status: str) -> list[Any]:
    return [
        {
            "resourceShareArn": share.arn,
            "resourceShareName": share.name,
            "associatedEntity": entity,
            "associationType": kind,
            "status": status,
            "external": False,
        }
        for entity in entities
    ]


class AssociationsResponse:
    """AssociateResourceShare, DisassociateResourceShare (a ResourceAccessManagerResponse
    mixin)."""

    def associate_resource_share(self) -> str:
        get = self._get_param  # type: ignore[attr-defined]
        share = _share(self.ram_backend, get("resourceShareArn"))  # type: ignore[attr-defined]
        principals = [p for p in get("principals") or [] if p not in share.principals]
        resources = [r for r in get("resourceArns") or [] if r not in share.resource_arns]
        share.add_principals(principals)
        share.add_resources(resources)
        answer = _associations(share, "PRINCIPAL", principals, "ASSOCIATED")
        answer += _associations(share, "RESOURCE", resources, "ASSOCIATED")
        return json.dumps({"resourceShareAssociations": answer, "clientToken": get("clientToken")})

    def disassociate_resource_share(self) -> str:
        get = self._get_param  # type: ignore[attr-defined]
        share = _share(self.ram_backend, get("resourceShareArn"))  # type: ignore[attr-defined]
        principals = [p for p in get("principals") or [] if p in share.principals]
        resources = [r for r in get("resourceArns") or [] if r in share.resource_arns]
        share.principals = [p for p in share.principals if p not in principals]
        share.resource_arns = [r for r in share.resource_arns if r not in resources]
        answer = _associations(share, "PRINCIPAL", principals, "DISASSOCIATING")
        answer += _associations(share, "RESOURCE", resources, "DISASSOCIATING")
        return json.dumps({"resourceShareAssociations": answer, "clientToken": get("clientToken")})


@behaviour(
    BEHAVIOURS,
    "ram.associate-resource-share",
    does="AssociateResourceShare adds principals and resources to a share (checked as at "
    "CreateResourceShare) and DisassociateResourceShare removes them; "
    "GetResourceShareAssociations answers what is left",
    reference=_API + "API_AssociateResourceShare.html",
    test=_TESTS + "test_principals_and_resources_are_associated_and_disassociated",
)
def _associate_resource_share() -> None:
    from moto.ram.responses import ResourceAccessManagerResponse

    graft(AssociationsResponse, onto=ResourceAccessManagerResponse)
    _route("associateresourceshare")
    _route("disassociateresourceshare")
