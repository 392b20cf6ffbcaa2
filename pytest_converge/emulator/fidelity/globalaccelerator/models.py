"""AWS Global Accelerator in moto's shape: an account's accelerators, listeners and
endpoint groups, standard and custom routing.

Follows the AWS Global Accelerator API reference
(https://docs.aws.amazon.com/global-accelerator/latest/api/): ``Create``/
``Describe``/``Update``/``Delete``/``ListAccelerators`` and the accelerator's flow
log attributes, the same of listeners and endpoint groups, their ``CustomRouting``
equivalents (with ``Add``/``RemoveCustomRoutingEndpoints`` and
``Allow``/``DenyCustomRoutingTraffic``), ``ListCrossAccountResources`` and the tag
operations. The service is global, as moto's global services are: a request,
whatever its Region (the API is in us-west-2), reaches its partition's backend.

What the provider waits on is modelled: a change to an accelerator, or to a
listener or endpoint group under it, leaves it ``IN_PROGRESS`` until it is next
described, then ``DEPLOYED``; an accelerator has a DNS name
(``a<hex>.awsglobalaccelerator.com``) and two static IPv4 addresses (and two
IPv6 ones when ``DUAL_STACK``), unless its own addresses are given. Deleting an
accelerator that is still enabled is ``AcceleratorNotDisabledException``, one
with listeners ``AssociatedListenerFoundException``, a listener with endpoint
groups ``AssociatedEndpointGroupFoundException``, as AWS refuses them. The
standard ``Describe``/``UpdateAcceleratorAttributes`` take a custom routing
accelerator too: aws 5.x sets a new custom routing accelerator's flow logs with
``UpdateAcceleratorAttributes``, and its acceptance tests pass on AWS.

Loaded as ``moto.globalaccelerator.models`` (see the package's ``__init__``).
"""

from __future__ import annotations

import time
from typing import Any

from moto.core.base_backend import BackendDict, BaseBackend
from moto.core.common_models import BaseModel
from moto.core.exceptions import JsonRESTError
from moto.moto_api._internal import mock_random as random
from moto.utilities.utils import PARTITION_NAMES


class GlobalAcceleratorError(JsonRESTError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def _not_found(kind: str, arn: str) -> GlobalAcceleratorError:
    return GlobalAcceleratorError(f"{kind}NotFoundException", f"{kind} {arn} not found.")


def _hex(length: int) -> str:
    return str(random.get_random_hex(length=length))


def _address(first: int, second: int) -> str:
    return f"{first}.{second}.{random.randint(0, 255)}.{random.randint(1, 254)}"


def _tags(given: list[dict[str, str]] | None) -> dict[str, str]:
    return {t["Key"]: t.get("Value", "") for t in given or []}


class Accelerator(BaseModel):
    """A standard (``custom`` False) or custom routing accelerator."""

    def __init__(self, backend: GlobalAcceleratorBackend, custom: bool, **given: Any) -> None:
        self.custom = custom
        self.arn = (
            f"arn:{backend.partition}:globalaccelerator::{backend.account_id}:"
            f"accelerator/{random.uuid4()}"
        )
        self.name = given["Name"]
        self.ip_address_type = given.get("IpAddressType") or "IPV4"
        self.enabled = given.get("Enabled") is not False
        self.dns_name = f"a{_hex(16)}.awsglobalaccelerator.com"
        self.dual_stack_dns_name = (
            f"a{_hex(16)}.dualstack.awsglobalaccelerator.com"
            if self.ip_address_type == "DUAL_STACK"
            else None
        )
        own = list(given.get("IpAddresses") or [])
        self.ip_sets = [
            {
                "IpFamily": "IPv4",
                "IpAddressFamily": "IPv4",
                "IpAddresses": [a for a in own if ":" not in a]
                or [_address(75, 2), _address(99, 83)],
            }
        ]
        if self.ip_address_type == "DUAL_STACK":
            self.ip_sets.append(
                {
                    "IpFamily": "IPv6",
                    "IpAddressFamily": "IPv6",
                    "IpAddresses": [a for a in own if ":" in a]
                    or [f"2600:9000:{_hex(4)}::{_hex(4)}", f"2600:9000:{_hex(4)}::{_hex(4)}"],
                }
            )
        self.created = self.modified = time.time()
        self.status = "IN_PROGRESS"
        self.flow_logs: dict[str, Any] = {"FlowLogsEnabled": False}
        self.tags = _tags(given.get("Tags"))

    def changed(self) -> None:
        self.status = "IN_PROGRESS"
        self.modified = time.time()

    def description(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "AcceleratorArn": self.arn,
            "Name": self.name,
            "IpAddressType": self.ip_address_type,
            "Enabled": self.enabled,
            "IpSets": self.ip_sets,
            "DnsName": self.dns_name,
            "Status": self.status,
            "CreatedTime": self.created,
            "LastModifiedTime": self.modified,
        }
        if self.dual_stack_dns_name and not self.custom:
            found["DualStackDnsName"] = self.dual_stack_dns_name
        return found


class Listener(BaseModel):
    def __init__(self, accelerator: Accelerator, **given: Any) -> None:
        self.accelerator = accelerator
        self.arn = f"{accelerator.arn}/listener/{_hex(8)}"
        self.update(**given)

    def update(self, **given: Any) -> None:
        self.port_ranges = [
            {"FromPort": p["FromPort"], "ToPort": p["ToPort"]} for p in given["PortRanges"]
        ]
        self.protocol = given.get("Protocol")
        self.client_affinity = given.get("ClientAffinity") or "NONE"

    def description(self) -> dict[str, Any]:
        found: dict[str, Any] = {"ListenerArn": self.arn, "PortRanges": self.port_ranges}
        if not self.accelerator.custom:
            found.update(Protocol=self.protocol, ClientAffinity=self.client_affinity)
        return found


def _endpoint(given: dict[str, Any]) -> dict[str, Any]:
    """An endpoint as DescribeEndpointGroup answers it; client IP preservation is on
    by default for an Application Load Balancer and an EC2 instance, as AWS has it."""
    endpoint_id = given["EndpointId"]
    preserved = given.get("ClientIPPreservationEnabled")
    if preserved is None:
        preserved = ":loadbalancer/app/" in endpoint_id or endpoint_id.startswith("i-")
    return {
        "EndpointId": endpoint_id,
        "Weight": given.get("Weight", 128),
        "HealthState": "INITIAL",
        "ClientIPPreservationEnabled": preserved,
    }


class EndpointGroup(BaseModel):
    def __init__(self, listener: Listener, region: str, **given: Any) -> None:
        self.listener = listener
        self.arn = f"{listener.arn}/endpoint-group/{_hex(12)}"
        self.region = region
        self.endpoints: list[dict[str, Any]] = []
        self.destinations = [
            {"FromPort": d["FromPort"], "ToPort": d["ToPort"], "Protocols": list(d["Protocols"])}
            for d in given.get("DestinationConfigurations") or []
        ]
        self.traffic_dial_percentage = 100.0
        self.health_check_port = listener.port_ranges[0]["FromPort"]
        self.health_check_protocol = "TCP"
        self.health_check_path: str | None = None
        self.health_check_interval_seconds = 30
        self.threshold_count = 3
        self.port_overrides: list[dict[str, int]] = []
        if not listener.accelerator.custom:
            self.update(**given)

    def update(self, **given: Any) -> None:
        if given.get("EndpointConfigurations") is not None:
            self.endpoints = [_endpoint(e) for e in given["EndpointConfigurations"]]
        if given.get("PortOverrides") is not None:
            self.port_overrides = [
                {"ListenerPort": p["ListenerPort"], "EndpointPort": p["EndpointPort"]}
                for p in given["PortOverrides"]
            ]
        for key, attribute in (
            ("TrafficDialPercentage", "traffic_dial_percentage"),
            ("HealthCheckPort", "health_check_port"),
            ("HealthCheckProtocol", "health_check_protocol"),
            ("HealthCheckPath", "health_check_path"),
            ("HealthCheckIntervalSeconds", "health_check_interval_seconds"),
            ("ThresholdCount", "threshold_count"),
        ):
            if given.get(key) is not None:
                setattr(self, attribute, given[key])
        if self.health_check_protocol in ("HTTP", "HTTPS") and not self.health_check_path:
            self.health_check_path = "/"

    def description(self) -> dict[str, Any]:
        if self.listener.accelerator.custom:
            return {
                "EndpointGroupArn": self.arn,
                "EndpointGroupRegion": self.region,
                "DestinationDescriptions": self.destinations,
                "EndpointDescriptions": [{"EndpointId": e["EndpointId"]} for e in self.endpoints],
            }
        found: dict[str, Any] = {
            "EndpointGroupArn": self.arn,
            "EndpointGroupRegion": self.region,
            "EndpointDescriptions": self.endpoints,
            "TrafficDialPercentage": self.traffic_dial_percentage,
            "HealthCheckPort": self.health_check_port,
            "HealthCheckProtocol": self.health_check_protocol,
            "HealthCheckIntervalSeconds": self.health_check_interval_seconds,
            "ThresholdCount": self.threshold_count,
            "PortOverrides": self.port_overrides,
        }
        if self.health_check_path:
            found["HealthCheckPath"] = self.health_check_path
        return found


class GlobalAcceleratorBackend(BaseBackend):
    def __init__(self, region_name: str, account_id: str) -> None:
        super().__init__(region_name, account_id)
        self.accelerators: dict[str, Accelerator] = {}
        self.listeners: dict[str, Listener] = {}
        self.endpoint_groups: dict[str, EndpointGroup] = {}

    # Accelerators

    def create_accelerator(self, custom: bool, **given: Any) -> Accelerator:
        made = Accelerator(self, custom, **given)
        self.accelerators[made.arn] = made
        return made

    def accelerator(self, arn: str, custom: bool | None = None) -> Accelerator:
        found = self.accelerators.get(arn)
        if found is None or custom not in (None, found.custom):
            raise _not_found("Accelerator", arn)
        return found

    def describe_accelerator(self, arn: str, custom: bool) -> dict[str, Any]:
        """The accelerator as it is now; a change is deployed once it has been seen."""
        found = self.accelerator(arn, custom)
        described = found.description()
        found.status = "DEPLOYED"
        return described

    def list_accelerators(self, custom: bool) -> list[Accelerator]:
        return [a for a in self.accelerators.values() if a.custom == custom]

    def update_accelerator(self, arn: str, custom: bool, **given: Any) -> Accelerator:
        found = self.accelerator(arn, custom)
        if given.get("Name"):
            found.name = given["Name"]
        if given.get("IpAddressType"):
            found.ip_address_type = given["IpAddressType"]
        if given.get("Enabled") is not None:
            found.enabled = bool(given["Enabled"])
        found.changed()
        return found

    def delete_accelerator(self, arn: str, custom: bool) -> None:
        found = self.accelerator(arn, custom)
        if found.enabled:
            raise GlobalAcceleratorError(
                "AcceleratorNotDisabledException",
                f"The accelerator {arn} must be disabled before it can be deleted.",
            )
        if any(listener.accelerator is found for listener in self.listeners.values()):
            raise GlobalAcceleratorError(
                "AssociatedListenerFoundException",
                f"The accelerator {arn} has listeners: delete them first.",
            )
        del self.accelerators[arn]

    def attributes(self, arn: str, custom: bool | None) -> dict[str, Any]:
        return dict(self.accelerator(arn, custom).flow_logs)

    def update_attributes(self, arn: str, custom: bool | None, **given: Any) -> dict[str, Any]:
        found = self.accelerator(arn, custom)
        enabled = given.get("FlowLogsEnabled")
        if enabled is not None:
            found.flow_logs["FlowLogsEnabled"] = bool(enabled)
        for key in ("FlowLogsS3Bucket", "FlowLogsS3Prefix"):
            if given.get(key) is not None:
                found.flow_logs[key] = given[key]
        if found.flow_logs["FlowLogsEnabled"] and not found.flow_logs.get("FlowLogsS3Bucket"):
            raise GlobalAcceleratorError(
                "InvalidArgumentException", "FlowLogsS3Bucket is required to enable flow logs."
            )
        found.changed()
        return dict(found.flow_logs)

    # Listeners

    def create_listener(self, custom: bool, **given: Any) -> Listener:
        accelerator = self.accelerator(given["AcceleratorArn"], custom)
        made = Listener(accelerator, **given)
        self.listeners[made.arn] = made
        accelerator.changed()
        return made

    def listener(self, arn: str, custom: bool) -> Listener:
        found = self.listeners.get(arn)
        if found is None or found.accelerator.custom != custom:
            raise _not_found("Listener", arn)
        return found

    def list_listeners(self, arn: str, custom: bool) -> list[Listener]:
        accelerator = self.accelerator(arn, custom)
        return [x for x in self.listeners.values() if x.accelerator is accelerator]

    def update_listener(self, arn: str, custom: bool, **given: Any) -> Listener:
        found = self.listener(arn, custom)
        kept = {
            "Protocol": found.protocol,
            "ClientAffinity": found.client_affinity,
            "PortRanges": found.port_ranges,
        }
        found.update(**{**kept, **{k: v for k, v in given.items() if v is not None}})
        found.accelerator.changed()
        return found

    def delete_listener(self, arn: str, custom: bool) -> None:
        found = self.listener(arn, custom)
        if any(group.listener is found for group in self.endpoint_groups.values()):
            raise GlobalAcceleratorError(
                "AssociatedEndpointGroupFoundException",
                f"The listener {arn} has endpoint groups: delete them first.",
            )
        del self.listeners[arn]
        found.accelerator.changed()

    # Endpoint groups

    def create_endpoint_group(self, custom: bool, region: str, **given: Any) -> EndpointGroup:
        listener = self.listener(given["ListenerArn"], custom)
        if any(
            g.listener is listener and g.region == region for g in self.endpoint_groups.values()
        ):
            raise GlobalAcceleratorError(
                "EndpointGroupAlreadyExistsException",
                f"The listener {listener.arn} has an endpoint group in {region}.",
            )
        made = EndpointGroup(listener, region, **given)
        self.endpoint_groups[made.arn] = made
        listener.accelerator.changed()
        return made

    def endpoint_group(self, arn: str, custom: bool) -> EndpointGroup:
        found = self.endpoint_groups.get(arn)
        if found is None or found.listener.accelerator.custom != custom:
            raise _not_found("EndpointGroup", arn)
        return found

    def list_endpoint_groups(self, arn: str, custom: bool) -> list[EndpointGroup]:
        listener = self.listener(arn, custom)
        return [g for g in self.endpoint_groups.values() if g.listener is listener]

    def update_endpoint_group(self, arn: str, **given: Any) -> EndpointGroup:
        found = self.endpoint_group(arn, False)
        found.update(**given)
        found.listener.accelerator.changed()
        return found

    def delete_endpoint_group(self, arn: str, custom: bool) -> None:
        found = self.endpoint_group(arn, custom)
        del self.endpoint_groups[arn]
        found.listener.accelerator.changed()

    def add_custom_routing_endpoints(
        self, arn: str, configurations: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        found = self.endpoint_group(arn, True)
        known = {e["EndpointId"] for e in found.endpoints}
        added = [{"EndpointId": c["EndpointId"]} for c in configurations]
        for endpoint in added:
            if endpoint["EndpointId"] in known:
                raise GlobalAcceleratorError(
                    "EndpointAlreadyExistsException",
                    f"The endpoint {endpoint['EndpointId']} is in the endpoint group already.",
                )
        found.endpoints.extend(added)
        found.listener.accelerator.changed()
        return added

    def remove_custom_routing_endpoints(self, arn: str, endpoint_ids: list[str]) -> None:
        found = self.endpoint_group(arn, True)
        missing = set(endpoint_ids) - {e["EndpointId"] for e in found.endpoints}
        if missing:
            raise GlobalAcceleratorError(
                "EndpointNotFoundException", f"No endpoint {sorted(missing)[0]} in {arn}."
            )
        found.endpoints = [e for e in found.endpoints if e["EndpointId"] not in endpoint_ids]
        found.listener.accelerator.changed()

    def custom_routing_traffic(self, arn: str) -> None:
        """Allow/DenyCustomRoutingTraffic: destinations' traffic is not modelled, the
        endpoint group must exist."""
        self.endpoint_group(arn, True)

    # Tags

    def _tagged(self, arn: str) -> Accelerator:
        return self.accelerator(arn)

    def tag_resource(self, arn: str, tags: list[dict[str, str]]) -> None:
        self._tagged(arn).tags.update(_tags(tags))

    def untag_resource(self, arn: str, keys: list[str]) -> None:
        tagged = self._tagged(arn)
        for key in keys:
            tagged.tags.pop(key, None)

    def list_tags_for_resource(self, arn: str) -> list[dict[str, str]]:
        return [{"Key": k, "Value": v} for k, v in self._tagged(arn).tags.items()]


globalaccelerator_backends = BackendDict(
    GlobalAcceleratorBackend,
    "globalaccelerator",
    use_boto3_regions=False,
    additional_regions=PARTITION_NAMES,
)
