"""IAM Identity Center (sso-admin): tags of a permission set, and what an instance ARN is.

Following the IAM Identity Center API reference
(https://docs.aws.amazon.com/singlesignon/latest/APIReference/):

- ``ListTagsForResource``, ``TagResource``, ``UntagResource``: the tags of a
  permission set (set at ``CreatePermissionSet`` with ``Tags``); moto 5.2
  implements none of them.
- ``CreatePermissionSet`` and the tag operations refuse an ``InstanceArn``
  that is no instance ARN (``arn:aws:sso:::instance/(sso)?ins-`` and 16
  characters, the pattern of the API's ``InstanceArn`` type) with a
  ValidationException, as every AWS API does with a parameter outside its
  pattern; moto 5.2 takes any text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import Behaviour, behaviour, graft, original, patch

BEHAVIOURS: list[Behaviour] = []

#: The API's InstanceArn pattern (botocore's sso-admin model).
INSTANCE_ARN = re.compile(r"arn:aws(-[a-z]{1,5}){0,3}:sso:::instance/(sso)?ins-[a-zA-Z0-9-.]{16}")


def _check_instance_arn(value: str | None) -> None:
    from moto.core.exceptions import JsonRESTError

    if value is not None and not INSTANCE_ARN.fullmatch(value):
        raise JsonRESTError(
            "ValidationException",
            f"1 validation error detected: Value '{value}' at 'instanceArn' failed to satisfy "
            f"constraint: Member must satisfy regular expression pattern: {INSTANCE_ARN.pattern}",
        )


def _permission_set(backend: Any, arn: str) -> Any:
    from moto.ssoadmin.exceptions import ResourceNotFoundException

    for permission_set in backend.permission_sets:
        if permission_set.permission_set_arn == arn:
            return permission_set
    raise ResourceNotFoundException("Could not find the resource.")


class TagsResponse:
    """Tags of permission sets (an SSOAdminResponse mixin)."""

    def list_tags_for_resource(self) -> str:
        _check_instance_arn(self._get_param("InstanceArn"))  # type: ignore[attr-defined]
        found = _permission_set(self.ssoadmin_backend, self._get_param("ResourceArn"))  # type: ignore[attr-defined]
        return json.dumps({"Tags": list(found.tags or [])})

    def tag_resource(self) -> str:
        _check_instance_arn(self._get_param("InstanceArn"))  # type: ignore[attr-defined]
        found = _permission_set(self.ssoadmin_backend, self._get_param("ResourceArn"))  # type: ignore[attr-defined]
        tags = {t["Key"]: t["Value"] for t in found.tags or []}
        tags.update({t["Key"]: t["Value"] for t in self._get_param("Tags") or []})  # type: ignore[attr-defined]
        found.tags = [{"Key": k, "Value": v} for k, v in tags.items()]
        return json.dumps({})

    def untag_resource(self) -> str:
        _check_instance_arn(self._get_param("InstanceArn"))  # type: ignore[attr-defined]
        found = _permission_set(self.ssoadmin_backend, self._get_param("ResourceArn"))  # type: ignore[attr-defined]
        keys = set(self._get_param("TagKeys") or [])  # type: ignore[attr-defined]
        found.tags = [t for t in found.tags or [] if t["Key"] not in keys]
        return json.dumps({})


@behaviour(
    BEHAVIOURS,
    "ssoadmin.permission-set-tags",
    does="ListTagsForResource, TagResource and UntagResource manage and return a permission "
    "set's tags; an InstanceArn outside the API's pattern is refused (ValidationException)",
    reference="https://docs.aws.amazon.com/singlesignon/latest/APIReference/"
    "API_ListTagsForResource.html",
    test="tests/integration/test_fidelity_services.py::test_sso_admin_keeps_a_permission_sets_tags",
    replaces={"moto.ssoadmin.responses:SSOAdminResponse.create_permission_set": "8755f843fe07c035"},
)
def _permission_set_tags() -> None:
    from moto.ssoadmin.responses import SSOAdminResponse

    graft(TagsResponse, onto=SSOAdminResponse)
    create = original(SSOAdminResponse, "create_permission_set")

    def create_permission_set(self: Any) -> str:
        _check_instance_arn(self._get_param("InstanceArn"))
        return create(self)

    patch(SSOAdminResponse, "create_permission_set", create_permission_set)
