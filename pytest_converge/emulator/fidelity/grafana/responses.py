"""Handles Amazon Managed Grafana requests (loaded as ``moto.grafana.responses``)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from moto.core.responses import BaseResponse

from .models import VERSIONS, GrafanaBackend, grafana_backends


class GrafanaResponse(BaseResponse):
    def __init__(self) -> None:
        super().__init__(service_name="grafana")

    @property
    def grafana_backend(self) -> GrafanaBackend:
        return grafana_backends[self.current_account][self.region]

    def _body(self) -> dict[str, Any]:
        return json.loads(self.body) if self.body else {}

    def _workspace_id(self) -> str:
        return str(self._get_param("workspaceId"))

    def _arn(self) -> str:
        return unquote(str(self._get_param("resourceArn")))

    def create_workspace(self) -> str:
        made = self.grafana_backend.create_workspace(self._body())
        return json.dumps({"workspace": made.description()})

    def describe_workspace(self) -> str:
        found = self.grafana_backend.settled(self._workspace_id())
        return json.dumps({"workspace": found.description()})

    def update_workspace(self) -> str:
        found = self.grafana_backend.update_workspace(self._workspace_id(), self._body())
        return json.dumps({"workspace": found.description()})

    def delete_workspace(self) -> str:
        gone = self.grafana_backend.delete_workspace(self._workspace_id())
        return json.dumps({"workspace": gone.description()})

    def list_workspaces(self) -> str:
        found = self.grafana_backend.list_workspaces()
        return json.dumps({"workspaces": [w.summary() for w in found]})

    def describe_workspace_configuration(self) -> str:
        found = self.grafana_backend.describe_workspace(self._workspace_id())
        return json.dumps(
            {"configuration": found.configuration, "grafanaVersion": found.grafana_version}
        )

    def update_workspace_configuration(self) -> str:
        body = self._body()
        self.grafana_backend.update_workspace_configuration(
            self._workspace_id(), body.get("configuration") or "", body.get("grafanaVersion")
        )
        return "{}"

    def describe_workspace_authentication(self) -> str:
        found = self.grafana_backend.describe_workspace(self._workspace_id())
        return json.dumps({"authentication": found.authentication()})

    def update_workspace_authentication(self) -> str:
        body = self._body()
        found = self.grafana_backend.update_workspace_authentication(
            self._workspace_id(), body.get("authenticationProviders") or [],
            body.get("samlConfiguration"),
        )  # fmt: skip
        return json.dumps({"authentication": found.authentication()})

    def associate_license(self) -> str:
        found = self.grafana_backend.associate_license(
            self._workspace_id(), str(self._get_param("licenseType"))
        )
        return json.dumps({"workspace": found.description()})

    def disassociate_license(self) -> str:
        found = self.grafana_backend.disassociate_license(
            self._workspace_id(), str(self._get_param("licenseType"))
        )
        return json.dumps({"workspace": found.description()})

    def update_permissions(self) -> str:
        errors = self.grafana_backend.update_permissions(
            self._workspace_id(), self._body().get("updateInstructionBatch") or []
        )
        return json.dumps({"errors": errors})

    def list_permissions(self) -> str:
        found = self.grafana_backend.list_permissions(
            self._workspace_id(), self._get_param("userType"), self._get_param("userId"),
            self._get_param("groupId"),
        )  # fmt: skip
        return json.dumps({"permissions": found})

    def create_workspace_api_key(self) -> str:
        body = self._body()
        key = self.grafana_backend.create_workspace_api_key(
            self._workspace_id(), body["keyName"], body["keyRole"]
        )
        return json.dumps(
            {"keyName": body["keyName"], "key": key, "workspaceId": self._workspace_id()}
        )

    def delete_workspace_api_key(self) -> str:
        name = unquote(str(self._get_param("keyName")))
        self.grafana_backend.delete_workspace_api_key(self._workspace_id(), name)
        return json.dumps({"keyName": name, "workspaceId": self._workspace_id()})

    def create_workspace_service_account(self) -> str:
        body = self._body()
        made = self.grafana_backend.create_workspace_service_account(
            self._workspace_id(), body["name"], body["grafanaRole"]
        )
        return json.dumps({"id": made.id, "name": made.name, "grafanaRole": made.grafana_role,
                           "workspaceId": self._workspace_id()})  # fmt: skip

    def delete_workspace_service_account(self) -> str:
        account_id = str(self._get_param("serviceAccountId"))
        self.grafana_backend.delete_workspace_service_account(self._workspace_id(), account_id)
        return json.dumps({"serviceAccountId": account_id, "workspaceId": self._workspace_id()})

    def list_workspace_service_accounts(self) -> str:
        found = self.grafana_backend.list_workspace_service_accounts(self._workspace_id())
        return json.dumps({"serviceAccounts": [a.summary() for a in found],
                           "workspaceId": self._workspace_id()})  # fmt: skip

    def create_workspace_service_account_token(self) -> str:
        body = self._body()
        account_id = str(self._get_param("serviceAccountId"))
        token = self.grafana_backend.create_workspace_service_account_token(
            self._workspace_id(), account_id, body["name"], body["secondsToLive"]
        )
        with_key = {k: token[k] for k in ("id", "name", "key")}
        return json.dumps({"serviceAccountToken": with_key, "serviceAccountId": account_id,
                           "workspaceId": self._workspace_id()})  # fmt: skip

    def delete_workspace_service_account_token(self) -> str:
        account_id = str(self._get_param("serviceAccountId"))
        token_id = str(self._get_param("tokenId"))
        self.grafana_backend.delete_workspace_service_account_token(
            self._workspace_id(), account_id, token_id
        )
        return json.dumps({"tokenId": token_id, "serviceAccountId": account_id,
                           "workspaceId": self._workspace_id()})  # fmt: skip

    def list_workspace_service_account_tokens(self) -> str:
        account_id = str(self._get_param("serviceAccountId"))
        found = self.grafana_backend.list_workspace_service_account_tokens(
            self._workspace_id(), account_id
        )
        return json.dumps({"serviceAccountTokens": found, "serviceAccountId": account_id,
                           "workspaceId": self._workspace_id()})  # fmt: skip

    def list_versions(self) -> str:
        return json.dumps({"grafanaVersions": list(VERSIONS)})

    def tag_resource(self) -> str:
        self.grafana_backend.tag_resource(self._arn(), self._body().get("tags") or {})
        return "{}"

    def untag_resource(self) -> str:
        self.grafana_backend.untag_resource(self._arn(), self.querystring.get("tagKeys", []))
        return "{}"

    def list_tags_for_resource(self) -> str:
        return json.dumps({"tags": self.grafana_backend.list_tags_for_resource(self._arn())})
