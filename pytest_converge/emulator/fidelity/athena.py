"""Athena: the json protocol the aws provider speaks, and an untagged resource's tags.

Following the Amazon Athena API reference
(https://docs.aws.amazon.com/athena/latest/APIReference/):

- The JSON protocol (``POST /`` with ``X-Amz-Target: AmazonAthena.<Operation>``), which
  every aws provider release sends (its SDK's model of Athena). botocore 1.44.18 models
  Athena as REST-JSON only, and moto 5.2 routes, parses and answers a request by the
  protocols botocore's model lists: with that botocore it answered every call of the
  provider 404 ("failed to unmarshal response error"). The model moto reads lists the
  JSON protocol again (its ``targetPrefix`` and ``jsonVersion`` as botocore 1.44.8 had
  them); with a botocore that still lists it nothing changes.
- ``ListTagsForResource`` of a work group, data catalog or capacity reservation that has
  no tags answers an empty ``Tags`` list; moto 5.2 answers "Does Not Exist", which the
  provider's read after a create without tags takes for a failure.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/athena/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: The JSON protocol's metadata of Athena's model (botocore 1.44.8).
JSON_PROTOCOL = {"targetPrefix": "AmazonAthena", "jsonVersion": "1.1"}


def with_json_protocol(metadata: dict[str, Any]) -> bool:
    """Add the JSON protocol to a model's ``metadata`` that lacks it; True if it did."""
    protocols = list(metadata.get("protocols") or [metadata.get("protocol")])
    if "json" in protocols:
        return False
    metadata["protocols"] = [*protocols, "json"]
    for key, value in JSON_PROTOCOL.items():
        metadata.setdefault(key, value)
    return True


@behaviour(
    BEHAVIOURS,
    "athena.json-protocol",
    does="Athena answers the JSON protocol (X-Amz-Target: AmazonAthena.*) the aws "
    "provider sends, whatever protocols the installed botocore's model lists "
    "(botocore >= 1.44.18: REST-JSON only, and moto answered every call 404)",
    reference=_API + "CommonParameters.html",
    test=_TESTS + "test_athena_answers_the_json_protocol_of_a_rest_json_model",
)
def _json_protocol() -> None:
    from moto.core.utils import get_service_model

    # moto keeps one model per service (a cache), which its router, parser and
    # serializer all read.
    with_json_protocol(get_service_model("athena").metadata)


@behaviour(
    BEHAVIOURS,
    "athena.untagged-resource-tags",
    does="ListTagsForResource of a work group, data catalog or capacity reservation "
    "without tags answers an empty Tags list (moto: 'Does Not Exist')",
    reference=_API + "API_ListTagsForResource.html",
    test=_TESTS + "test_athena_an_untagged_work_group_has_an_empty_tag_list",
    replaces={
        "moto.athena.responses:AthenaResponse.list_tags_for_resource": "fdca7f0693f220a5",
    },
)
def _untagged_resource_tags() -> None:
    import json

    from moto.athena.responses import AthenaResponse

    before = original(AthenaResponse, "list_tags_for_resource")

    def list_tags_for_resource(self: Any) -> Any:
        arn = self._get_param("ResourceARN") or ""
        backend = self.athena_backend
        if not backend.tagger.has_tags(arn) and _exists(backend, arn):
            return json.dumps({"Tags": []})
        return before(self)

    patch(AthenaResponse, "list_tags_for_resource", list_tags_for_resource)


def _exists(backend: Any, arn: str) -> bool:
    """An Athena resource of ``backend`` has ``arn``."""
    kinds = {
        "workgroup": backend.work_groups,
        "datacatalog": backend.data_catalogs,
        "capacity-reservation": backend.capacity_reservations,
    }
    kind, _, name = arn.rpartition(":")[2].partition("/")
    return name in kinds.get(kind, {})
