"""Application Auto Scaling: a scalable target's tags.

``RegisterScalableTarget`` tags a new target with its ``Tags``, and
``TagResource``, ``UntagResource`` and ``ListTagsForResource`` manage and
return the tags of a target by its ARN (Application Auto Scaling API
reference, ListTagsForResource:
https://docs.aws.amazon.com/autoscaling/application/APIReference/API_ListTagsForResource.html);
moto 5.2 implements none of them.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, graft, original, patch

BEHAVIOURS: list[Behaviour] = []


def _tags(backend: Any) -> dict[str, dict[str, str]]:
    """The backend's tags by target ARN (upstream: a field of the backend)."""
    found: dict[str, dict[str, str]] | None = vars(backend).get("_tags")
    if found is None:
        found = vars(backend)["_tags"] = {}
    return found


def _target_tags(backend: Any, arn: str) -> dict[str, str]:
    from moto.core.exceptions import JsonRESTError

    for by_resource in backend.targets.values():
        for target in by_resource.values():
            if target.arn == arn:
                return _tags(backend).setdefault(arn, {})
    raise JsonRESTError("ResourceNotFoundException", f"No scalable target found for {arn}")


class TagsResponse:
    """Tags of scalable targets (an ApplicationAutoScalingResponse mixin)."""

    def list_tags_for_resource(self) -> str:
        backend = self.applicationautoscaling_backend  # type: ignore[attr-defined]
        tags = _target_tags(backend, self._get_param("ResourceARN"))  # type: ignore[attr-defined]
        return json.dumps({"Tags": tags})

    def tag_resource(self) -> str:
        backend = self.applicationautoscaling_backend  # type: ignore[attr-defined]
        tags = _target_tags(backend, self._get_param("ResourceARN"))  # type: ignore[attr-defined]
        tags.update(self._get_param("Tags") or {})  # type: ignore[attr-defined]
        return json.dumps({})

    def untag_resource(self) -> str:
        backend = self.applicationautoscaling_backend  # type: ignore[attr-defined]
        tags = _target_tags(backend, self._get_param("ResourceARN"))  # type: ignore[attr-defined]
        for key in self._get_param("TagKeys") or []:  # type: ignore[attr-defined]
            tags.pop(key, None)
        return json.dumps({})


@behaviour(
    BEHAVIOURS,
    "applicationautoscaling.tags",
    does="RegisterScalableTarget tags a new target with its Tags; TagResource, UntagResource "
    "and ListTagsForResource manage and return a target's tags",
    reference="https://docs.aws.amazon.com/autoscaling/application/APIReference/"
    "API_ListTagsForResource.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_application_autoscaling_keeps_a_targets_tags",
    replaces={
        "moto.applicationautoscaling.responses:ApplicationAutoScalingResponse."
        "register_scalable_target": "47d20f4695be7069",
    },
)
def _tags_behaviour() -> None:
    from moto.applicationautoscaling.responses import ApplicationAutoScalingResponse

    graft(TagsResponse, onto=ApplicationAutoScalingResponse)
    register = original(ApplicationAutoScalingResponse, "register_scalable_target")

    def register_scalable_target(self: Any) -> str:
        answer = register(self)
        arn = json.loads(answer)["ScalableTargetARN"]
        given = self._get_param("Tags") or {}
        tags = _tags(self.applicationautoscaling_backend)
        if arn not in tags:  # a new target: tagged as registered (an update keeps its tags)
            tags[arn] = dict(given)
        return answer

    patch(ApplicationAutoScalingResponse, "register_scalable_target", register_scalable_target)
