"""Amazon Managed Grafana in moto's shape: an account's workspaces and what hangs on them.

Follows the Amazon Managed Grafana API reference
(https://docs.aws.amazon.com/grafana/latest/APIReference/): ``CreateWorkspace``,
``DescribeWorkspace``, ``UpdateWorkspace``, ``DeleteWorkspace`` and ``ListWorkspaces``
(``CREATING``, ``UPDATING`` or ``DELETING`` when written, ``ACTIVE`` when next
described; a deleted workspace is gone); a workspace's configuration and Grafana
version (``DescribeWorkspaceConfiguration``, ``UpdateWorkspaceConfiguration``); its
authentication (``DescribeWorkspaceAuthentication``, ``UpdateWorkspaceAuthentication``:
the SAML configuration, ``CONFIGURED`` once it has IdP metadata); its license
(``AssociateLicense``, ``DisassociateLicense``); its users' and groups' roles
(``ListPermissions``, ``UpdatePermissions``); its API keys (``CreateWorkspaceApiKey``,
``DeleteWorkspaceApiKey``: a key name is unique, the key itself answered once); its
service accounts and their tokens (``Create``/``List``/``DeleteWorkspaceServiceAccount``
and ``...ServiceAccountToken``, a token's key answered once, its expiry
``secondsToLive`` after its creation); ``ListVersions``; tags by the workspace's ARN.

Loaded as ``moto.grafana.models`` (see the package's ``__init__``).
"""

from __future__ import annotations

import time
from typing import Any

from moto.core.base_backend import BackendDict, BaseBackend
from moto.core.common_models import BaseModel
from moto.core.exceptions import JsonRESTError
from moto.moto_api._internal import mock_random as random

#: The Grafana versions a workspace may run (``ListVersions``); the newest is the default.
VERSIONS = ("8.4", "9.4", "10.4")
#: What DescribeWorkspaceConfiguration answers for a workspace made without one.
DEFAULT_CONFIGURATION = (
    '{"unifiedAlerting":{"enabled":false},"plugins":{"pluginAdminEnabled":false}}'
)


class ResourceNotFoundException(JsonRESTError):
    code = 404

    def __init__(self, resource_type: str, resource_id: str) -> None:
        super().__init__("ResourceNotFoundException", f"{resource_type} {resource_id} not found.")


class ConflictException(JsonRESTError):
    code = 409

    def __init__(self, message: str) -> None:
        super().__init__("ConflictException", message)


class ValidationException(JsonRESTError):
    def __init__(self, message: str) -> None:
        super().__init__("ValidationException", message)


class ServiceAccount(BaseModel):
    def __init__(self, name: str, role: str) -> None:
        self.id = str(random.randint(1, 10**6))
        self.name = name
        self.grafana_role = role
        self.tokens: dict[str, dict[str, Any]] = {}

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "isDisabled": "false",
                "grafanaRole": self.grafana_role}  # fmt: skip


class Workspace(BaseModel):
    def __init__(self, backend: GrafanaBackend, given: dict[str, Any]) -> None:
        self.id = "g-" + random.get_random_hex(length=10)
        self.arn = (
            f"arn:{backend.partition}:grafana:{backend.region_name}:{backend.account_id}:"
            f"/workspaces/{self.id}"
        )
        self.endpoint = f"{self.id}.grafana-workspace.{backend.region_name}.amazonaws.com"
        self.created = self.modified = time.time()
        self.status = "CREATING"
        self.settings: dict[str, Any] = {}
        self.update(given)
        self.providers: list[str] = list(given.get("authenticationProviders") or [])
        self.saml: dict[str, Any] | None = None
        self.configuration: str = given.get("configuration") or DEFAULT_CONFIGURATION
        self.grafana_version: str = given.get("grafanaVersion") or VERSIONS[-1]
        self.kms_key_id = given.get("kmsKeyId")
        self.tags: dict[str, str] = dict(given.get("tags") or {})
        self.license_type: str | None = None
        self.license_expiration: float | None = None
        self.api_keys: dict[str, str] = {}
        self.service_accounts: dict[str, ServiceAccount] = {}
        self.permissions: list[dict[str, Any]] = []

    #: The request member -> the WorkspaceDescription member it sets.
    MEMBERS = {
        "accountAccessType": "accountAccessType",
        "organizationRoleName": "organizationRoleName",
        "permissionType": "permissionType",
        "stackSetName": "stackSetName",
        "workspaceDataSources": "dataSources",
        "workspaceDescription": "description",
        "workspaceName": "name",
        "workspaceNotificationDestinations": "notificationDestinations",
        "workspaceOrganizationalUnits": "organizationalUnits",
        "workspaceRoleArn": "workspaceRoleArn",
        "vpcConfiguration": "vpcConfiguration",
        "networkAccessControl": "networkAccessControl",
        "ipAddressType": "ipAddressType",
    }

    def update(self, given: dict[str, Any]) -> None:
        for member, described in self.MEMBERS.items():
            if given.get(member) is not None:
                self.settings[described] = given[member]
        if given.get("removeVpcConfiguration"):
            self.settings.pop("vpcConfiguration", None)
        if given.get("removeNetworkAccessConfiguration"):
            self.settings.pop("networkAccessControl", None)
        self.modified = time.time()

    def saml_status(self) -> str:
        return "CONFIGURED" if self.saml and self.saml.get("idpMetadata") else "NOT_CONFIGURED"

    def description(self) -> dict[str, Any]:
        authentication: dict[str, Any] = {"providers": self.providers}
        if "SAML" in self.providers:
            authentication["samlConfigurationStatus"] = self.saml_status()
        answer = {
            "id": self.id,
            "status": self.status,
            "created": self.created,
            "modified": self.modified,
            "endpoint": self.endpoint,
            "grafanaVersion": self.grafana_version,
            "dataSources": [],
            "authentication": authentication,
            "tags": self.tags,
            "freeTrialConsumed": False,
            **self.settings,
        }
        if self.kms_key_id:
            answer["kmsKeyId"] = self.kms_key_id
        if self.license_type:
            answer["licenseType"] = self.license_type
            answer["licenseExpiration"] = self.license_expiration
        return answer

    def summary(self) -> dict[str, Any]:
        described = self.description()
        keys = ("id", "status", "created", "modified", "endpoint", "grafanaVersion",
                "authentication", "tags", "name", "description", "licenseType")  # fmt: skip
        return {k: described[k] for k in keys if k in described}

    def authentication(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"providers": self.providers}
        if "SAML" in self.providers:
            answer["saml"] = {"status": self.saml_status()}
            if self.saml:
                answer["saml"]["configuration"] = self.saml
        if "AWS_SSO" in self.providers:
            answer["awsSso"] = {"ssoClientId": f"sso-{self.id}"}
        return answer

    def service_account(self, account_id: str) -> ServiceAccount:
        found = self.service_accounts.get(account_id)
        if found is None:
            raise ResourceNotFoundException("Service account", account_id)
        return found


class GrafanaBackend(BaseBackend):
    def __init__(self, region_name: str, account_id: str) -> None:
        super().__init__(region_name, account_id)
        self.workspaces: dict[str, Workspace] = {}

    def create_workspace(self, given: dict[str, Any]) -> Workspace:
        for member in ("accountAccessType", "permissionType", "authenticationProviders"):
            if not given.get(member):
                raise ValidationException(f"{member} is required.")
        if given.get("grafanaVersion") and given["grafanaVersion"] not in VERSIONS:
            raise ValidationException(f"Grafana version {given['grafanaVersion']} is unknown.")
        workspace = Workspace(self, given)
        self.workspaces[workspace.id] = workspace
        return workspace

    def describe_workspace(self, workspace_id: str) -> Workspace:
        found = self.workspaces.get(workspace_id)
        if found is None:
            raise ResourceNotFoundException("Workspace", workspace_id)
        return found

    def settled(self, workspace_id: str) -> Workspace:
        """The workspace as next described: what was written is in place (``ACTIVE``)."""
        found = self.describe_workspace(workspace_id)
        found.status = "ACTIVE"
        return found

    def update_workspace(self, workspace_id: str, given: dict[str, Any]) -> Workspace:
        found = self.describe_workspace(workspace_id)
        found.update(given)
        found.status = "UPDATING"
        return found

    def delete_workspace(self, workspace_id: str) -> Workspace:
        found = self.workspaces.pop(self.describe_workspace(workspace_id).id)
        found.status = "DELETING"
        return found

    def list_workspaces(self) -> list[Workspace]:
        return list(self.workspaces.values())

    def update_workspace_configuration(
        self, workspace_id: str, configuration: str, version: str | None
    ) -> None:
        found = self.describe_workspace(workspace_id)
        if version and version not in VERSIONS:
            raise ValidationException(f"Grafana version {version} is not supported.")
        found.configuration = configuration
        if version:
            found.grafana_version = version
            found.status = "VERSION_UPDATING"
        else:
            found.status = "UPDATING"
        found.modified = time.time()

    def update_workspace_authentication(
        self, workspace_id: str, providers: list[str], saml: dict[str, Any] | None
    ) -> Workspace:
        found = self.describe_workspace(workspace_id)
        found.providers = list(providers)
        found.saml = saml if "SAML" in providers else None
        return found

    def associate_license(self, workspace_id: str, license_type: str) -> Workspace:
        found = self.describe_workspace(workspace_id)
        found.license_type = license_type
        days = 30 if license_type == "ENTERPRISE_FREE_TRIAL" else 365
        found.license_expiration = time.time() + days * 86400
        return found

    def disassociate_license(self, workspace_id: str, license_type: str) -> Workspace:
        found = self.describe_workspace(workspace_id)
        if found.license_type != license_type:
            raise ResourceNotFoundException("License", license_type)
        found.license_type = found.license_expiration = None
        return found

    def update_permissions(
        self, workspace_id: str, instructions: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        found = self.describe_workspace(workspace_id)
        for instruction in instructions:
            for user in instruction.get("users") or []:
                entry = {"role": instruction["role"], "user": user}
                if instruction["action"] == "ADD" and entry not in found.permissions:
                    found.permissions.append(entry)
                elif instruction["action"] == "REVOKE" and entry in found.permissions:
                    found.permissions.remove(entry)
        return []

    def list_permissions(
        self, workspace_id: str, user_type: str | None, user_id: str | None, group_id: str | None
    ) -> list[dict[str, Any]]:
        wanted = user_id or group_id
        return [
            p
            for p in self.describe_workspace(workspace_id).permissions
            if (not user_type or p["user"]["type"] == user_type)
            and (not wanted or p["user"]["id"] == wanted)
        ]

    def create_workspace_api_key(self, workspace_id: str, name: str, role: str) -> str:
        found = self.describe_workspace(workspace_id)
        if name in found.api_keys:
            raise ConflictException(f"An API key named {name} already exists.")
        found.api_keys[name] = role
        return "eyJrIjoi" + random.get_random_hex(length=40)

    def delete_workspace_api_key(self, workspace_id: str, name: str) -> None:
        found = self.describe_workspace(workspace_id)
        if found.api_keys.pop(name, None) is None:
            raise ResourceNotFoundException("API key", name)

    def create_workspace_service_account(
        self, workspace_id: str, name: str, role: str
    ) -> ServiceAccount:
        found = self.describe_workspace(workspace_id)
        if any(a.name == name for a in found.service_accounts.values()):
            raise ConflictException(f"A service account named {name} already exists.")
        account = ServiceAccount(name, role)
        found.service_accounts[account.id] = account
        return account

    def delete_workspace_service_account(self, workspace_id: str, account_id: str) -> None:
        found = self.describe_workspace(workspace_id)
        del found.service_accounts[found.service_account(account_id).id]

    def list_workspace_service_accounts(self, workspace_id: str) -> list[ServiceAccount]:
        return list(self.describe_workspace(workspace_id).service_accounts.values())

    def create_workspace_service_account_token(
        self, workspace_id: str, account_id: str, name: str, seconds: int
    ) -> dict[str, Any]:
        account = self.describe_workspace(workspace_id).service_account(account_id)
        if any(t["name"] == name for t in account.tokens.values()):
            raise ConflictException(f"A token named {name} already exists.")
        now = time.time()
        token_id = str(random.randint(1, 10**6))
        token = {"id": token_id, "name": name, "createdAt": now, "expiresAt": now + int(seconds)}
        account.tokens[token_id] = token
        return {**token, "key": "glsa_" + random.get_random_hex(length=32)}

    def delete_workspace_service_account_token(
        self, workspace_id: str, account_id: str, token_id: str
    ) -> None:
        account = self.describe_workspace(workspace_id).service_account(account_id)
        if account.tokens.pop(token_id, None) is None:
            raise ResourceNotFoundException("Service account token", token_id)

    def list_workspace_service_account_tokens(
        self, workspace_id: str, account_id: str
    ) -> list[dict[str, Any]]:
        account = self.describe_workspace(workspace_id).service_account(account_id)
        return list(account.tokens.values())

    def _tagged(self, arn: str) -> Workspace:
        for workspace in self.workspaces.values():
            if workspace.arn == arn:
                return workspace
        raise ResourceNotFoundException("Resource", arn)

    def tag_resource(self, arn: str, tags: dict[str, str]) -> None:
        self._tagged(arn).tags.update(tags)

    def untag_resource(self, arn: str, keys: list[str]) -> None:
        tagged = self._tagged(arn)
        for key in keys:
            tagged.tags.pop(key, None)

    def list_tags_for_resource(self, arn: str) -> dict[str, str]:
        return dict(self._tagged(arn).tags)


grafana_backends = BackendDict(GrafanaBackend, "grafana")
