"""ECS: a service's settings.

Following the Amazon ECS API reference
(https://docs.aws.amazon.com/AmazonECS/latest/APIReference/):

- ``CreateService``: a service keeps the settings it is created with and
  ``DescribeServices`` answers them (moto 5.2 keeps none of those below, though
  its ``UpdateService`` keeps each one given, so a module declaring them
  settled only when the second apply updated the service):
  ``availabilityZoneRebalancing`` (``ENABLED`` when not given, as the
  parameter's documentation says of create requests), ``enableECSManagedTags``
  and ``enableExecuteCommand`` (false), ``healthCheckGracePeriodSeconds``,
  ``deploymentConfiguration`` (``maximumPercent`` 200 and
  ``minimumHealthyPercent`` 100 for a ``REPLICA`` service, 100 and 0 for a
  ``DAEMON`` one, when not given), ``capacityProviderStrategy``,
  ``placementConstraints`` and ``placementStrategy``; the primary deployment
  keeps the ``serviceConnectConfiguration`` and ``volumeConfigurations``
  (members of a ``Deployment``, not of the ``Service``).

- ``CreateService`` for a service name that is ``ACTIVE`` in the cluster answers that
  service when the ``clientToken`` is the one it was created with (a retried request)
  and fails otherwise with ``InvalidParameterException`` "Creation of service was not
  idempotent." (moto 5.2 made the service again in its place, so a re-run after a crash
  that had created the service passed where AWS fails).

Not modelled: the cluster's default capacity provider strategy for a service
created with neither a launch type nor a strategy (moto answers ``EC2``).
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonECS/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: CreateService's members moto drops that a Service answers -> the attribute moto's
#: serializer (and its UpdateService) reads and writes them as.
SERVICE_SETTINGS = {
    "availabilityZoneRebalancing": "availability_zone_rebalancing",
    "enableECSManagedTags": "enable_ecs_managed_tags",
    "enableExecuteCommand": "enable_execute_command",
    "healthCheckGracePeriodSeconds": "health_check_grace_period_seconds",
    "deploymentConfiguration": "deployment_configuration",
    "capacityProviderStrategy": "capacity_provider_strategy",
    "placementConstraints": "placement_constraints",
    "placementStrategy": "placement_strategy",
}
#: CreateService's members a Deployment (not the Service) answers.
DEPLOYMENT_SETTINGS = ("serviceConnectConfiguration", "volumeConfigurations")


def _defaults(scheduling_strategy: str) -> dict[str, Any]:
    """What a service created without a setting answers for it."""
    daemon = scheduling_strategy == "DAEMON"
    return {
        "availabilityZoneRebalancing": "ENABLED",
        "enableECSManagedTags": False,
        "enableExecuteCommand": False,
        "deploymentConfiguration": {
            "maximumPercent": 100 if daemon else 200,
            "minimumHealthyPercent": 0 if daemon else 100,
        },
    }


@behaviour(
    BEHAVIOURS,
    "ecs.service-settings",
    does="CreateService keeps availabilityZoneRebalancing (ENABLED unless given), "
    "enableECSManagedTags, enableExecuteCommand (false unless given), "
    "healthCheckGracePeriodSeconds, deploymentConfiguration (200/100 for REPLICA, 100/0 for "
    "DAEMON unless given), capacityProviderStrategy, placementConstraints and "
    "placementStrategy, and DescribeServices answers them; the primary deployment keeps "
    "serviceConnectConfiguration and volumeConfigurations (moto: dropped at creation, kept "
    "only by an UpdateService)",
    reference=_API + "API_CreateService.html",
    test=_TESTS + "test_ecs_keeps_a_services_settings",
    replaces={"moto.ecs.responses:EC2ContainerServiceResponse.create_service": "61d328f884dc1973"},
)
def _service_settings() -> None:
    from moto.ecs.responses import EC2ContainerServiceResponse

    before = original(EC2ContainerServiceResponse, "create_service")

    def create_service(self: Any) -> Any:
        result = before(self)
        service = result.result["service"]
        defaults = _defaults(service.scheduling_strategy)
        for member, attribute in SERVICE_SETTINGS.items():
            value = self._get_param(member)
            if value is None:
                value = defaults.get(member)
            if value is not None:
                setattr(service, attribute, value)
        for member in DEPLOYMENT_SETTINGS:
            value = self._get_param(member)
            if value is not None:
                for deployment in service.deployments:
                    deployment[member] = value
        return result

    patch(EC2ContainerServiceResponse, "create_service", create_service)


@behaviour(
    BEHAVIOURS,
    "ecs.create-service-idempotency",
    does="CreateService for a service name ACTIVE in the cluster answers that service when "
    "the clientToken is the one it was created with, and fails with "
    "InvalidParameterException (Creation of service was not idempotent) otherwise",
    reference=_API + "API_CreateService.html",
    test=_TESTS + "test_ecs_a_service_is_created_once",
    replaces={"moto.ecs.responses:EC2ContainerServiceResponse.create_service": "61d328f884dc1973"},
)
def _create_service_once() -> None:
    from moto.core.responses import ActionResult
    from moto.ecs.exceptions import InvalidParameterException
    from moto.ecs.responses import EC2ContainerServiceResponse

    before = original(EC2ContainerServiceResponse, "create_service")

    def create_service(self: Any) -> Any:
        token = self._get_param("clientToken")
        cluster = str(self._get_param("cluster", "default")).rsplit("/", 1)[-1]
        existing = self.ecs_backend.services.get(f"{cluster}:{self._get_param('serviceName')}")
        if existing is not None and existing.status == "ACTIVE":
            if token is None or getattr(existing, "client_token", None) != token:
                raise InvalidParameterException("Creation of service was not idempotent.")
            return ActionResult({"service": existing})  # the same request, retried
        result = before(self)
        result.result["service"].client_token = token
        return result

    patch(EC2ContainerServiceResponse, "create_service", create_service)
