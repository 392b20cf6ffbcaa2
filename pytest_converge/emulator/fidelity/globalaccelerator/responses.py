"""Handles AWS Global Accelerator requests (loaded as ``moto.globalaccelerator.responses``).

A JSON 1.1 service: moto's dispatch calls the method named after the
``X-Amz-Target`` operation in snake_case. Standard and custom routing
operations share the backend's methods, told apart by ``custom``.
"""

from __future__ import annotations

import json
from typing import Any

from moto.core.responses import BaseResponse

from .models import GlobalAcceleratorBackend, globalaccelerator_backends


class GlobalAcceleratorResponse(BaseResponse):
    def __init__(self) -> None:
        super().__init__(service_name="globalaccelerator")

    @property
    def backend(self) -> GlobalAcceleratorBackend:
        return globalaccelerator_backends[self.current_account][self.partition]

    def _given(self) -> dict[str, Any]:
        return dict(json.loads(self.body)) if self.body else {}

    def _arn(self, key: str = "AcceleratorArn") -> str:
        return str(self._get_param(key))

    # Accelerators

    def _create_accelerator(self, custom: bool) -> str:
        made = self.backend.create_accelerator(custom, **self._given())
        return json.dumps({"Accelerator": made.description()})

    def create_accelerator(self) -> str:
        return self._create_accelerator(False)

    def create_custom_routing_accelerator(self) -> str:
        return self._create_accelerator(True)

    def describe_accelerator(self) -> str:
        return json.dumps({"Accelerator": self.backend.describe_accelerator(self._arn(), False)})

    def describe_custom_routing_accelerator(self) -> str:
        return json.dumps({"Accelerator": self.backend.describe_accelerator(self._arn(), True)})

    def _list_accelerators(self, custom: bool) -> str:
        found = self.backend.list_accelerators(custom)
        return json.dumps({"Accelerators": [a.description() for a in found]})

    def list_accelerators(self) -> str:
        return self._list_accelerators(False)

    def list_custom_routing_accelerators(self) -> str:
        return self._list_accelerators(True)

    def _update_accelerator(self, custom: bool) -> str:
        given = self._given()
        found = self.backend.update_accelerator(given.pop("AcceleratorArn"), custom, **given)
        return json.dumps({"Accelerator": found.description()})

    def update_accelerator(self) -> str:
        return self._update_accelerator(False)

    def update_custom_routing_accelerator(self) -> str:
        return self._update_accelerator(True)

    def delete_accelerator(self) -> str:
        self.backend.delete_accelerator(self._arn(), False)
        return "{}"

    def delete_custom_routing_accelerator(self) -> str:
        self.backend.delete_accelerator(self._arn(), True)
        return "{}"

    def describe_accelerator_attributes(self) -> str:
        found = self.backend.attributes(self._arn(), None)
        return json.dumps({"AcceleratorAttributes": found})

    def describe_custom_routing_accelerator_attributes(self) -> str:
        found = self.backend.attributes(self._arn(), True)
        return json.dumps({"AcceleratorAttributes": found})

    def _update_attributes(self, custom: bool | None) -> str:
        given = self._given()
        found = self.backend.update_attributes(given.pop("AcceleratorArn"), custom, **given)
        return json.dumps({"AcceleratorAttributes": found})

    def update_accelerator_attributes(self) -> str:
        return self._update_attributes(None)

    def update_custom_routing_accelerator_attributes(self) -> str:
        return self._update_attributes(True)

    # Listeners

    def create_listener(self) -> str:
        made = self.backend.create_listener(False, **self._given())
        return json.dumps({"Listener": made.description()})

    def create_custom_routing_listener(self) -> str:
        made = self.backend.create_listener(True, **self._given())
        return json.dumps({"Listener": made.description()})

    def describe_listener(self) -> str:
        found = self.backend.listener(self._arn("ListenerArn"), False)
        return json.dumps({"Listener": found.description()})

    def describe_custom_routing_listener(self) -> str:
        found = self.backend.listener(self._arn("ListenerArn"), True)
        return json.dumps({"Listener": found.description()})

    def list_listeners(self) -> str:
        found = self.backend.list_listeners(self._arn(), False)
        return json.dumps({"Listeners": [x.description() for x in found]})

    def list_custom_routing_listeners(self) -> str:
        found = self.backend.list_listeners(self._arn(), True)
        return json.dumps({"Listeners": [x.description() for x in found]})

    def _update_listener(self, custom: bool) -> str:
        given = self._given()
        found = self.backend.update_listener(given.pop("ListenerArn"), custom, **given)
        return json.dumps({"Listener": found.description()})

    def update_listener(self) -> str:
        return self._update_listener(False)

    def update_custom_routing_listener(self) -> str:
        return self._update_listener(True)

    def delete_listener(self) -> str:
        self.backend.delete_listener(self._arn("ListenerArn"), False)
        return "{}"

    def delete_custom_routing_listener(self) -> str:
        self.backend.delete_listener(self._arn("ListenerArn"), True)
        return "{}"

    # Endpoint groups

    def _create_endpoint_group(self, custom: bool) -> str:
        given = self._given()
        region = given.pop("EndpointGroupRegion", None) or self.region
        made = self.backend.create_endpoint_group(custom, region, **given)
        return json.dumps({"EndpointGroup": made.description()})

    def create_endpoint_group(self) -> str:
        return self._create_endpoint_group(False)

    def create_custom_routing_endpoint_group(self) -> str:
        return self._create_endpoint_group(True)

    def describe_endpoint_group(self) -> str:
        found = self.backend.endpoint_group(self._arn("EndpointGroupArn"), False)
        return json.dumps({"EndpointGroup": found.description()})

    def describe_custom_routing_endpoint_group(self) -> str:
        found = self.backend.endpoint_group(self._arn("EndpointGroupArn"), True)
        return json.dumps({"EndpointGroup": found.description()})

    def list_endpoint_groups(self) -> str:
        found = self.backend.list_endpoint_groups(self._arn("ListenerArn"), False)
        return json.dumps({"EndpointGroups": [g.description() for g in found]})

    def list_custom_routing_endpoint_groups(self) -> str:
        found = self.backend.list_endpoint_groups(self._arn("ListenerArn"), True)
        return json.dumps({"EndpointGroups": [g.description() for g in found]})

    def update_endpoint_group(self) -> str:
        given = self._given()
        found = self.backend.update_endpoint_group(given.pop("EndpointGroupArn"), **given)
        return json.dumps({"EndpointGroup": found.description()})

    def delete_endpoint_group(self) -> str:
        self.backend.delete_endpoint_group(self._arn("EndpointGroupArn"), False)
        return "{}"

    def delete_custom_routing_endpoint_group(self) -> str:
        self.backend.delete_endpoint_group(self._arn("EndpointGroupArn"), True)
        return "{}"

    def add_custom_routing_endpoints(self) -> str:
        arn = self._arn("EndpointGroupArn")
        added = self.backend.add_custom_routing_endpoints(
            arn, self._get_param("EndpointConfigurations") or []
        )
        return json.dumps({"EndpointDescriptions": added, "EndpointGroupArn": arn})

    def remove_custom_routing_endpoints(self) -> str:
        self.backend.remove_custom_routing_endpoints(
            self._arn("EndpointGroupArn"), self._get_param("EndpointIds") or []
        )
        return "{}"

    def allow_custom_routing_traffic(self) -> str:
        self.backend.custom_routing_traffic(self._arn("EndpointGroupArn"))
        return "{}"

    def deny_custom_routing_traffic(self) -> str:
        self.backend.custom_routing_traffic(self._arn("EndpointGroupArn"))
        return "{}"

    def list_cross_account_resources(self) -> str:
        # No account here shares a resource through a cross-account attachment.
        return json.dumps({"CrossAccountResources": []})

    # Tags

    def tag_resource(self) -> str:
        self.backend.tag_resource(self._arn("ResourceArn"), self._get_param("Tags") or [])
        return "{}"

    def untag_resource(self) -> str:
        self.backend.untag_resource(self._arn("ResourceArn"), self._get_param("TagKeys") or [])
        return "{}"

    def list_tags_for_resource(self) -> str:
        tags = self.backend.list_tags_for_resource(self._arn("ResourceArn"))
        return json.dumps({"Tags": tags})
