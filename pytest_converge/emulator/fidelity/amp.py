"""Amazon Managed Service for Prometheus: a workspace's alert manager definition.

Following the Amazon Managed Service for Prometheus API reference
(https://docs.aws.amazon.com/prometheus/latest/APIReference/API_CreateAlertManagerDefinition.html):
``CreateAlertManagerDefinition``, ``DescribeAlertManagerDefinition``,
``PutAlertManagerDefinition`` and ``DeleteAlertManagerDefinition`` keep one
definition (an Alertmanager configuration, ``data``) per workspace, at
``/workspaces/{workspaceId}/alertmanager/definition``. Create answers ``CREATING``
and Put ``UPDATING``; the definition is ``ACTIVE`` when next described
(``AlertManagerDefinitionStatus``). A workspace has at most one
(``ConflictException``); a missing one is ``ResourceNotFoundException``
(``AWS::APS::AlertManagerDefinition``); a missing workspace is moto's
``WorkspaceNotFound``. The definition goes with its workspace. moto 5.2 has
workspaces, rule groups namespaces and logging configurations but no alert manager
definition, so every ``aws_prometheus_alert_manager_definition`` was untested.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from . import Behaviour, behaviour, graft

BEHAVIOURS: list[Behaviour] = []

#: The path of a workspace's alert manager definition, as moto's amp urls write paths.
_PATH = "{0}/workspaces/(?P<workspace_id>[^/]+)/alertmanager/definition$"


def _not_found(workspace_id: str) -> Exception:
    from moto.amp.exceptions import ResourceNotFoundException

    error = ResourceNotFoundException(
        "Alert manager definition not found",
        resource_id=workspace_id,
        resource_type="AWS::APS::AlertManagerDefinition",
    )
    error.code = 404
    return error


def _conflict(workspace_id: str) -> Exception:
    from moto.amp.exceptions import AmpException

    error = AmpException(
        "ConflictException", f"An alert manager definition already exists for {workspace_id}"
    )
    error.code = 409
    return error


class AlertManagerDefinition:
    """A workspace's Alertmanager configuration (``data``, base64 as the API carries it)."""

    def __init__(self, data: str) -> None:
        from moto.core.utils import unix_time

        self.data = data
        self.created_at = self.modified_at = unix_time()
        self.status_code = "CREATING"

    def update(self, data: str) -> None:
        from moto.core.utils import unix_time

        self.data = data
        self.modified_at = unix_time()
        self.status_code = "UPDATING"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": {"statusCode": self.status_code},
            "data": self.data,
            "createdAt": self.created_at,
            "modifiedAt": self.modified_at,
        }


class AlertManagerBackend:
    """Alert manager definitions of the Region's workspaces (a PrometheusServiceBackend
    mixin): each is kept on its workspace, as moto keeps a logging configuration."""

    def _alert_manager(self, workspace_id: str) -> AlertManagerDefinition:
        workspace = self.describe_workspace(workspace_id)  # type: ignore[attr-defined]
        found: AlertManagerDefinition | None = getattr(workspace, "alert_manager", None)
        if found is None:
            raise _not_found(workspace_id)
        return found

    def create_alert_manager_definition(
        self, workspace_id: str, data: str
    ) -> AlertManagerDefinition:
        workspace = self.describe_workspace(workspace_id)  # type: ignore[attr-defined]
        if getattr(workspace, "alert_manager", None) is not None:
            raise _conflict(workspace_id)
        made = workspace.alert_manager = AlertManagerDefinition(data)
        return made

    def describe_alert_manager_definition(self, workspace_id: str) -> AlertManagerDefinition:
        found = self._alert_manager(workspace_id)
        found.status_code = "ACTIVE"
        return found

    def put_alert_manager_definition(self, workspace_id: str, data: str) -> AlertManagerDefinition:
        found = self._alert_manager(workspace_id)
        found.update(data)
        return found

    def delete_alert_manager_definition(self, workspace_id: str) -> None:
        self._alert_manager(workspace_id)
        self.describe_workspace(workspace_id).alert_manager = None  # type: ignore[attr-defined]


class AlertManagerResponse:
    """The alert manager definition actions (a PrometheusServiceResponse mixin)."""

    def _workspace_id(self) -> str:
        return unquote(self.path).split("/")[-3]  # type: ignore[attr-defined]

    def create_alert_manager_definition(self) -> str:
        data = json.loads(self.body).get("data")  # type: ignore[attr-defined]
        made = self.amp_backend.create_alert_manager_definition(self._workspace_id(), data)  # type: ignore[attr-defined]
        return json.dumps({"status": made.to_dict()["status"]})

    def describe_alert_manager_definition(self) -> str:
        found = self.amp_backend.describe_alert_manager_definition(self._workspace_id())  # type: ignore[attr-defined]
        return json.dumps({"alertManagerDefinition": found.to_dict()})

    def put_alert_manager_definition(self) -> str:
        data = json.loads(self.body).get("data")  # type: ignore[attr-defined]
        found = self.amp_backend.put_alert_manager_definition(self._workspace_id(), data)  # type: ignore[attr-defined]
        return json.dumps({"status": found.to_dict()["status"]})

    def delete_alert_manager_definition(self) -> str:
        self.amp_backend.delete_alert_manager_definition(self._workspace_id())  # type: ignore[attr-defined]
        return "{}"


@behaviour(
    BEHAVIOURS,
    "amp.alert-manager-definitions",
    does="Create/Describe/Put/DeleteAlertManagerDefinition keep a workspace's Alertmanager "
    "configuration (CREATING or UPDATING, then ACTIVE); ConflictException for a second, "
    "ResourceNotFoundException for a missing one; it goes with its workspace",
    reference="https://docs.aws.amazon.com/prometheus/latest/APIReference/"
    "API_CreateAlertManagerDefinition.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_prometheus_keeps_an_alert_manager_definition",
)
def _alert_manager_definitions() -> None:
    from moto.amp import urls
    from moto.amp.models import PrometheusServiceBackend
    from moto.amp.responses import PrometheusServiceResponse

    if _PATH in urls.url_paths:
        raise RuntimeError(f"moto's amp already serves {_PATH}: re-check this behaviour")
    graft(AlertManagerBackend, onto=PrometheusServiceBackend)
    graft(AlertManagerResponse, onto=PrometheusServiceResponse)
    urls.url_paths[_PATH] = PrometheusServiceResponse.dispatch
