"""AWS App Runner in moto's shape: services and the configurations they use.

Follows the AWS App Runner API reference
(https://docs.aws.amazon.com/apprunner/latest/api/): auto scaling configurations
(``Create``/``Describe``/``Delete``/``ListAutoScalingConfigurations``: a revision per
create of one name, the latest marked; every account has ``DefaultConfiguration``,
revision 1, 100 concurrent requests, 1 to 25 instances), observability configurations
(``Create``/``Describe``/``DeleteObservabilityConfiguration``), VPC connectors
(``Create``/``Describe``/``DeleteVpcConnector``), connections (``CreateConnection``,
``PENDING_HANDSHAKE`` until its owner completes the handshake, ``ListConnections`` by
name, ``DeleteConnection``), services (``Create``/``Describe``/``Update``/``Delete``/
``ListServices``: ``OPERATION_IN_PROGRESS`` when written, ``RUNNING`` when next
described, and the defaults ``DescribeService`` answers: 1 vCPU and 2 GB, a TCP health
check on ``/`` every 5 s, public ingress (private when an ingress configuration leaves
``IsPubliclyAccessible`` out, a non-nullable boolean) and ``DEFAULT`` egress over IPv4,
port 8080, auto deployments on but for an ECR Public image, observability off, the
default auto scaling configuration), VPC ingress connections
(``PENDING_CREATION``, then ``AVAILABLE``; a domain name) and tags by ARN. A deleted
configuration or connector is inactive, a deleted service or connection gone.

Loaded as ``moto.apprunner.models`` (see the package's ``__init__``).
"""

from __future__ import annotations

import copy
import time
from typing import Any

from moto.core.base_backend import BackendDict, BaseBackend
from moto.core.exceptions import JsonRESTError
from moto.moto_api._internal import mock_random as random


class ResourceNotFoundException(JsonRESTError):
    code = 400

    def __init__(self, what: str) -> None:
        super().__init__("ResourceNotFoundException", f"Resource {what} not found.")


class InvalidRequestException(JsonRESTError):
    code = 400

    def __init__(self, message: str) -> None:
        super().__init__("InvalidRequestException", message)


#: The status of an active configuration or connector, as AWS answers it: an auto scaling
#: configuration's in lower case (the API reference's examples; the aws provider waits
#: for ``active``), the others' as the API's enums.
_ACTIVE = {
    "AutoScalingConfiguration": "active",
    "ObservabilityConfiguration": "ACTIVE",
    "VpcConnector": "ACTIVE",
}


def _hex() -> str:
    return random.get_random_hex(length=32)


#: What DescribeService answers for the parts of a service made without them.
SERVICE_DEFAULTS: dict[str, Any] = {
    "InstanceConfiguration": {"Cpu": "1024", "Memory": "2048"},
    "HealthCheckConfiguration": {
        "Protocol": "TCP",
        "Path": "/",
        "Interval": 5,
        "Timeout": 2,
        "HealthyThreshold": 1,
        "UnhealthyThreshold": 5,
    },
    "NetworkConfiguration": {
        "EgressConfiguration": {"EgressType": "DEFAULT"},
        "IngressConfiguration": {"IsPubliclyAccessible": True},
        "IpAddressType": "IPV4",
    },
    "ObservabilityConfiguration": {"ObservabilityEnabled": False},
}


def _merged(default: Any, given: Any) -> Any:
    """``given`` over ``default``, nested dicts merged."""
    if isinstance(default, dict) and isinstance(given, dict):
        return {**default, **{k: _merged(default.get(k), v) for k, v in given.items()}}
    return copy.deepcopy(default) if given is None else given


def _primitives(part: str, given: Any) -> Any:
    """``given`` with the API's non-nullable booleans it leaves out as false: a client
    (the aws provider's SDK) sends ``IsPubliclyAccessible`` and ``ObservabilityEnabled``
    only when true, so an ingress configuration without it is private."""
    if not isinstance(given, dict):
        return given
    given = copy.deepcopy(given)
    if part == "NetworkConfiguration" and isinstance(given.get("IngressConfiguration"), dict):
        given["IngressConfiguration"].setdefault("IsPubliclyAccessible", False)
    if part == "ObservabilityConfiguration":
        given.setdefault("ObservabilityEnabled", False)
    return given


class AppRunnerBackend(BaseBackend):
    def __init__(self, region_name: str, account_id: str) -> None:
        super().__init__(region_name, account_id)
        self.auto_scaling: dict[str, dict[str, Any]] = {}
        self.observability: dict[str, dict[str, Any]] = {}
        self.vpc_connectors: dict[str, dict[str, Any]] = {}
        self.connections: dict[str, dict[str, Any]] = {}
        self.services: dict[str, dict[str, Any]] = {}
        self.ingress: dict[str, dict[str, Any]] = {}
        self.tags: dict[str, dict[str, str]] = {}
        self._revisioned("autoscalingconfiguration", "AutoScalingConfiguration", self.auto_scaling,
                         "DefaultConfiguration", {"MaxConcurrency": 100, "MinSize": 1,
                                                  "MaxSize": 25, "IsDefault": True,
                                                  "HasAssociatedService": False}, None)  # fmt: skip

    def _arn(self, kind: str, *parts: Any) -> str:
        path = "/".join(str(p) for p in parts)
        return f"arn:{self.partition}:apprunner:{self.region_name}:{self.account_id}:{kind}/{path}"

    def _tag(self, arn: str, tags: list[dict[str, str]] | None) -> None:
        self.tags[arn] = {t["Key"]: t["Value"] for t in tags or []}

    def _revisioned(self, kind: str, label: str, kept: dict[str, dict[str, Any]], name: str,
                    fields: dict[str, Any], tags: Any) -> dict[str, Any]:  # fmt: skip
        same = [c for c in kept.values() if c[f"{label}Name"] == name]
        for older in same:
            older["Latest"] = False
        revision = 1 + max((c[f"{label}Revision"] for c in same), default=0)
        arn = self._arn(kind.lower(), name, revision, _hex())
        made = {f"{label}Arn": arn, f"{label}Name": name, f"{label}Revision": revision,
                "Latest": True, "Status": _ACTIVE[label], "CreatedAt": time.time()}  # fmt: skip
        made.update(fields)
        kept[arn] = made
        self._tag(arn, tags)
        return made

    @staticmethod
    def _found(kept: dict[str, dict[str, Any]], arn: str) -> dict[str, Any]:
        found = kept.get(arn)
        if found is None:
            raise ResourceNotFoundException(arn)
        return found

    @staticmethod
    def _inactive(found: dict[str, Any], label: str) -> dict[str, Any]:
        found["Status"] = "in" + _ACTIVE[label] if _ACTIVE[label].islower() else "INACTIVE"
        found["Latest"] = False
        found["DeletedAt"] = time.time()
        return found

    # -- auto scaling configurations -------------------------------------------------
    def create_auto_scaling_configuration(self, asked: dict[str, Any]) -> dict[str, Any]:
        fields = {"MaxConcurrency": asked.get("MaxConcurrency") or 100,
                  "MinSize": asked.get("MinSize") or 1, "MaxSize": asked.get("MaxSize") or 25,
                  "IsDefault": False, "HasAssociatedService": False}  # fmt: skip
        return self._revisioned("autoscalingconfiguration", "AutoScalingConfiguration",
                                self.auto_scaling, asked["AutoScalingConfigurationName"], fields,
                                asked.get("Tags"))  # fmt: skip

    def describe_auto_scaling_configuration(self, arn: str) -> dict[str, Any]:
        found = self._found(self.auto_scaling, arn)
        found["HasAssociatedService"] = any(
            s["AutoScalingConfigurationSummary"]["AutoScalingConfigurationArn"] == arn
            for s in self.services.values()
        )
        return found

    def delete_auto_scaling_configuration(self, arn: str) -> dict[str, Any]:
        return self._inactive(self._found(self.auto_scaling, arn), "AutoScalingConfiguration")

    def list_auto_scaling_configurations(self, name: str | None, latest: bool) -> list[Any]:
        return [c for c in self.auto_scaling.values() if c["Status"] == "active"
                and name in (None, c["AutoScalingConfigurationName"])
                and (not latest or c["Latest"])]  # fmt: skip

    def _default_auto_scaling(self) -> str:
        return next(a for a, c in self.auto_scaling.items() if c.get("IsDefault"))

    # -- observability configurations -----------------------------------------------
    def create_observability_configuration(self, asked: dict[str, Any]) -> dict[str, Any]:
        fields = {}
        if asked.get("TraceConfiguration"):
            fields["TraceConfiguration"] = asked["TraceConfiguration"]
        return self._revisioned("observabilityconfiguration", "ObservabilityConfiguration",
                                self.observability, asked["ObservabilityConfigurationName"],
                                fields, asked.get("Tags"))  # fmt: skip

    def describe_observability_configuration(self, arn: str) -> dict[str, Any]:
        return self._found(self.observability, arn)

    def delete_observability_configuration(self, arn: str) -> dict[str, Any]:
        return self._inactive(self._found(self.observability, arn), "ObservabilityConfiguration")

    # -- VPC connectors -------------------------------------------------------------
    def create_vpc_connector(self, asked: dict[str, Any]) -> dict[str, Any]:
        fields = {"Subnets": asked.get("Subnets") or [],
                  "SecurityGroups": asked.get("SecurityGroups") or []}  # fmt: skip
        made = self._revisioned("vpcconnector", "VpcConnector", self.vpc_connectors,
                                asked["VpcConnectorName"], fields, asked.get("Tags"))  # fmt: skip
        made.pop("Latest")
        return made

    def describe_vpc_connector(self, arn: str) -> dict[str, Any]:
        return self._found(self.vpc_connectors, arn)

    def delete_vpc_connector(self, arn: str) -> dict[str, Any]:
        found = self._inactive(self._found(self.vpc_connectors, arn), "VpcConnector")
        found.pop("Latest", None)
        return found

    # -- connections -----------------------------------------------------------------
    def create_connection(self, asked: dict[str, Any]) -> dict[str, Any]:
        name = asked["ConnectionName"]
        if any(c["ConnectionName"] == name for c in self.connections.values()):
            raise InvalidRequestException(f"A connection named {name} already exists.")
        arn = self._arn("connection", name, _hex())
        made = {"ConnectionName": name, "ConnectionArn": arn,
                "ProviderType": asked["ProviderType"], "Status": "PENDING_HANDSHAKE",
                "CreatedAt": time.time()}  # fmt: skip
        self.connections[arn] = made
        self._tag(arn, asked.get("Tags"))
        return made

    def list_connections(self, name: str | None) -> list[dict[str, Any]]:
        return [c for c in self.connections.values() if name in (None, c["ConnectionName"])]

    def delete_connection(self, arn: str) -> dict[str, Any]:
        found = self._found(self.connections, arn)
        del self.connections[arn]
        return {**found, "Status": "DELETED"}

    # -- services --------------------------------------------------------------------
    def _summary(self, arn: str | None) -> dict[str, Any]:
        found = self.describe_auto_scaling_configuration(arn or self._default_auto_scaling())
        keys = ("AutoScalingConfigurationArn", "AutoScalingConfigurationName",
                "AutoScalingConfigurationRevision", "Status", "CreatedAt", "IsDefault")  # fmt: skip
        return {k: found[k] for k in keys}

    @staticmethod
    def _source(given: dict[str, Any]) -> dict[str, Any]:
        source = copy.deepcopy(given)
        image = source.get("ImageRepository")
        # On unless the image is in ECR Public (or another account's ECR).
        public = (image or {}).get("ImageRepositoryType") == "ECR_PUBLIC"
        source.setdefault("AutoDeploymentsEnabled", not public)
        if image is not None:
            image["ImageConfiguration"] = {
                "Port": "8080",
                **(image.get("ImageConfiguration") or {}),
            }
        return source

    def create_service(self, asked: dict[str, Any]) -> dict[str, Any]:
        name = asked["ServiceName"]
        if any(s["ServiceName"] == name for s in self.services.values()):
            raise InvalidRequestException(f"A service named {name} already exists.")
        service_id = _hex()
        arn = self._arn("service", name, service_id)
        now = time.time()
        made: dict[str, Any] = {
            "ServiceName": name, "ServiceId": service_id, "ServiceArn": arn,
            "ServiceUrl": f"{random.get_random_hex(length=10)}.{self.region_name}.awsapprunner.com",
            "CreatedAt": now, "UpdatedAt": now, "Status": "OPERATION_IN_PROGRESS",
            "SourceConfiguration": self._source(asked["SourceConfiguration"]),
        }  # fmt: skip
        for part, default in SERVICE_DEFAULTS.items():
            made[part] = _merged(default, _primitives(part, asked.get(part)))
        if asked.get("EncryptionConfiguration"):
            made["EncryptionConfiguration"] = asked["EncryptionConfiguration"]
        made["AutoScalingConfigurationSummary"] = self._summary(
            asked.get("AutoScalingConfigurationArn")
        )
        self.services[arn] = made
        self._tag(arn, asked.get("Tags"))
        return made

    def describe_service(self, arn: str) -> dict[str, Any]:
        found = self._found(self.services, arn)
        found["Status"] = "RUNNING"
        return found

    def update_service(self, asked: dict[str, Any]) -> dict[str, Any]:
        found = self._found(self.services, asked["ServiceArn"])
        if asked.get("SourceConfiguration"):
            found["SourceConfiguration"] = self._source(asked["SourceConfiguration"])
        for part, default in SERVICE_DEFAULTS.items():
            if asked.get(part) is not None:
                found[part] = _merged(default, _primitives(part, asked[part]))
        if asked.get("AutoScalingConfigurationArn"):
            found["AutoScalingConfigurationSummary"] = self._summary(
                asked["AutoScalingConfigurationArn"]
            )
        found["Status"] = "OPERATION_IN_PROGRESS"
        found["UpdatedAt"] = time.time()
        return found

    def delete_service(self, arn: str) -> dict[str, Any]:
        found = self._found(self.services, arn)
        del self.services[arn]
        for connection in self.ingress.values():
            if connection["ServiceArn"] == arn:
                connection["Status"] = "DELETED"
        return {**found, "Status": "OPERATION_IN_PROGRESS", "DeletedAt": time.time()}

    def list_services(self) -> list[dict[str, Any]]:
        keys = ("ServiceName", "ServiceId", "ServiceArn", "ServiceUrl", "CreatedAt", "UpdatedAt",
                "Status")  # fmt: skip
        return [{k: s[k] for k in keys} for s in self.services.values()]

    # -- VPC ingress connections -----------------------------------------------------
    def create_vpc_ingress_connection(self, asked: dict[str, Any]) -> dict[str, Any]:
        service = self._found(self.services, asked["ServiceArn"])
        name = asked["VpcIngressConnectionName"]
        arn = self._arn("vpcingressconnection", name, _hex())
        made = {"VpcIngressConnectionArn": arn, "VpcIngressConnectionName": name,
                "ServiceArn": service["ServiceArn"], "Status": "PENDING_CREATION",
                "AccountId": self.account_id,
                "DomainName": f"{_hex()[:10]}.{_hex()[:10]}.{self.region_name}.awsapprunner.com",
                "IngressVpcConfiguration": asked.get("IngressVpcConfiguration") or {},
                "CreatedAt": time.time()}  # fmt: skip
        self.ingress[arn] = made
        self._tag(arn, asked.get("Tags"))
        return made

    def describe_vpc_ingress_connection(self, arn: str) -> dict[str, Any]:
        found = self._found(self.ingress, arn)
        if found["Status"] in ("PENDING_CREATION", "PENDING_UPDATE"):
            found["Status"] = "AVAILABLE"
        return found

    def update_vpc_ingress_connection(self, arn: str, config: dict[str, Any]) -> dict[str, Any]:
        found = self._found(self.ingress, arn)
        found["IngressVpcConfiguration"] = config
        found["Status"] = "PENDING_UPDATE"
        return found

    def delete_vpc_ingress_connection(self, arn: str) -> dict[str, Any]:
        found = self._found(self.ingress, arn)
        del self.ingress[arn]
        return {**found, "Status": "PENDING_DELETION"}

    # -- tags ------------------------------------------------------------------------
    def _tagged(self, arn: str) -> dict[str, str]:
        if arn not in self.tags:
            raise ResourceNotFoundException(arn)
        return self.tags[arn]

    def list_tags_for_resource(self, arn: str) -> list[dict[str, str]]:
        return [{"Key": k, "Value": v} for k, v in self._tagged(arn).items()]

    def tag_resource(self, arn: str, tags: list[dict[str, str]]) -> None:
        self._tagged(arn).update({t["Key"]: t["Value"] for t in tags})

    def untag_resource(self, arn: str, keys: list[str]) -> None:
        tagged = self._tagged(arn)
        for key in keys:
            tagged.pop(key, None)


apprunner_backends = BackendDict(AppRunnerBackend, "apprunner")
