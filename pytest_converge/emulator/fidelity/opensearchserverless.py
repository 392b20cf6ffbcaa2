"""OpenSearch Serverless: data access policies, and the VPC endpoints moto makes.

Following the OpenSearch Serverless API reference: ``CreateAccessPolicy``,
``GetAccessPolicy``, ``UpdateAccessPolicy``, ``DeleteAccessPolicy`` and
``ListAccessPolicies`` keep a data access policy by name and type
(``API_AccessPolicyDetail.html``); its ``policyVersion`` changes on every update,
which must name the current one. moto 5.2 has collections and security policies
but no access policies. It makes a VPC endpoint (``CreateVpcEndpoint``) but cannot
read, change or delete one: ``BatchGetVpcEndpoint``, ``ListVpcEndpoints``,
``UpdateVpcEndpoint`` and ``DeleteVpcEndpoint`` answer it here
(``API_VpcEndpointDetail.html``). As on AWS, the endpoint is an EC2 interface
endpoint of the same id, which ``DescribeVpcEndpoints`` answers with its security
groups (the aws provider reads them there); one made without security groups has
its VPC's default group.

``CreateCollection`` encrypts a collection with the key of the encryption policy
whose rules match its name (``collection/<name>`` or a pattern such as
``collection/logs-*``): its ``KmsARN``, or ``auto`` for an AWS owned key
(``API_CollectionDetail.html``); a collection made without ``standbyReplicas``
has them ``ENABLED``. moto 5.2 took the last security policy of any type naming
the collection and read its ``KmsARN``, so a collection with a network policy,
or with an AWS owned key, failed with a server error. ``DeleteSecurityPolicy``
deletes an encryption or network policy, which moto 5.2 cannot.
"""

from __future__ import annotations

import json
import time
from fnmatch import fnmatchcase
from typing import Any
from uuid import uuid4

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []


def _error(code: str, message: str) -> Exception:
    from moto.opensearchserverless.exceptions import (
        ConflictException,
        ResourceNotFoundException,
        ValidationException,
    )

    kinds = {
        "ConflictException": ConflictException,
        "ResourceNotFoundException": ResourceNotFoundException,
        "ValidationException": ValidationException,
    }
    return kinds[code](message)


def _millis() -> int:
    return int(time.time() * 1000)


def _resources(document: Any) -> list[str]:
    """The collections and indexes a data access policy's rules name."""
    return [
        resource
        for statement in (document if isinstance(document, list) else [document])
        for rule in statement.get("Rules", ())
        for resource in rule.get("Resource", ())
    ]


class AccessPolicy:
    """A data access policy: who may do what on which collections and indexes."""

    def __init__(self, asked: dict[str, Any]) -> None:
        self.name: str = asked["name"]
        self.type: str = asked["type"]
        self.description: str | None = asked.get("description")
        self.policy: Any = json.loads(asked["policy"])
        self.version = uuid4().hex[:20]
        self.created = self.modified = _millis()

    def summary(self) -> dict[str, Any]:
        answer = {
            "type": self.type,
            "name": self.name,
            "policyVersion": self.version,
            "createdDate": self.created,
            "lastModifiedDate": self.modified,
        }
        if self.description:
            answer["description"] = self.description
        return answer

    def detail(self) -> dict[str, Any]:
        return {**self.summary(), "policy": self.policy}


class AccessPolicyBackend:
    """The Region's data access policies (an OpenSearchServiceServerlessBackend mixin)."""

    access_policies: Kept[AccessPolicy] = Kept()

    def get_access_policy(self, name: str, type: str) -> AccessPolicy:
        found = self.access_policies.get(f"{type}/{name}")
        if found is None:
            raise _error("ResourceNotFoundException", f"Policy not found for {name} and {type}")
        return found

    def create_access_policy(self, asked: dict[str, Any]) -> AccessPolicy:
        key = f"{asked.get('type')}/{asked.get('name')}"
        if key in self.access_policies:
            raise _error(
                "ConflictException", f"Policy with name {asked.get('name')} already exists"
            )
        made = self.access_policies[key] = AccessPolicy(asked)
        return made

    def update_access_policy(self, asked: dict[str, Any]) -> AccessPolicy:
        found = self.get_access_policy(asked.get("name") or "", asked.get("type") or "")
        if asked.get("policyVersion") != found.version:
            raise _error(
                "ValidationException",
                f"Policy version {asked.get('policyVersion')} is not the current one",
            )
        if asked.get("policy"):
            found.policy = json.loads(asked["policy"])
        if asked.get("description") is not None:
            found.description = asked["description"]
        found.version = uuid4().hex[:20]
        found.modified = _millis()
        return found

    def delete_access_policy(self, name: str, type: str) -> None:
        self.get_access_policy(name, type)
        del self.access_policies[f"{type}/{name}"]

    def list_access_policies(self, type: str, resources: list[str] | None) -> list[AccessPolicy]:
        found = [p for p in self.access_policies.values() if p.type == type]
        if resources:
            found = [p for p in found if set(resources) & set(_resources(p.policy))]
        return found


class AccessPolicyResponse:
    """The data access policy actions (an OpenSearchServiceServerlessResponse mixin)."""

    def create_access_policy(self) -> str:
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        made = backend.create_access_policy(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"accessPolicyDetail": made.detail()})

    def get_access_policy(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        found = backend.get_access_policy(asked.get("name"), asked.get("type"))
        return json.dumps({"accessPolicyDetail": found.detail()})

    def update_access_policy(self) -> str:
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        found = backend.update_access_policy(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"accessPolicyDetail": found.detail()})

    def delete_access_policy(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        backend.delete_access_policy(asked.get("name"), asked.get("type"))
        return "{}"

    def list_access_policies(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        found = backend.list_access_policies(asked.get("type"), asked.get("resource"))
        page, token = one_page(
            [p.summary() for p in found], asked.get("nextToken"), asked.get("maxResults"), 20
        )
        return json.dumps({"accessPolicySummaries": page, "nextToken": token})


@behaviour(
    BEHAVIOURS,
    "opensearchserverless.access-policies",
    does="Create/Get/Update/Delete/ListAccessPolicies keep a data access policy by name and "
    "type (its document, description, a policyVersion each update changes and must name); "
    "ResourceNotFoundException for a missing one, ConflictException for a second of a name",
    reference="https://docs.aws.amazon.com/opensearch-service/latest/ServerlessAPIReference/"
    "API_CreateAccessPolicy.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_opensearch_serverless_keeps_an_access_policy",
)
def _access_policies() -> None:
    from moto.opensearchserverless.models import OpenSearchServiceServerlessBackend
    from moto.opensearchserverless.responses import OpenSearchServiceServerlessResponse

    graft(AccessPolicyBackend, onto=OpenSearchServiceServerlessBackend)
    graft(AccessPolicyResponse, onto=OpenSearchServiceServerlessResponse)


def _ec2(account_id: str, region: str) -> Any:
    from moto.ec2.models import ec2_backends

    return ec2_backends[account_id][region]


def _default_group(ec2: Any, vpc_id: str) -> list[str]:
    """The VPC's default security group, as moto's EC2 has it (none if it has no such VPC)."""
    for group in ec2.describe_security_groups(filters={"vpc-id": [vpc_id]}):
        if group.name == "default":
            return [group.id]
    return []


class VpcEndpointBackend:
    """Reading, changing and deleting moto's VPC endpoints (an
    OpenSearchServiceServerlessBackend mixin; moto keeps them by client token)."""

    def get_vpc_endpoint(self, endpoint_id: str) -> Any:
        for endpoint in self.os_endpoints.values():  # type: ignore[attr-defined]
            if endpoint.id == endpoint_id:
                return endpoint
        raise _error("ResourceNotFoundException", f"VpcEndpoint {endpoint_id} not found")

    def interface_endpoint(self, endpoint: Any) -> Any:
        """The EC2 interface endpoint under an OpenSearch Serverless one (same id), or None."""
        ec2 = _ec2(self.account_id, self.region_name)  # type: ignore[attr-defined]
        return ec2.vpc_end_points.get(endpoint.id)

    def update_vpc_endpoint(self, asked: dict[str, Any]) -> Any:
        found = self.get_vpc_endpoint(asked.get("id") or "")
        for kept, add, remove in (
            ("subnet_ids", "addSubnetIds", "removeSubnetIds"),
            ("security_group_ids", "addSecurityGroupIds", "removeSecurityGroupIds"),
        ):
            now = [i for i in getattr(found, kept) or [] if i not in (asked.get(remove) or ())]
            setattr(found, kept, now + [i for i in asked.get(add) or () if i not in now])
        interface = self.interface_endpoint(found)
        if interface is not None:
            interface.subnet_ids = list(found.subnet_ids)
            interface.security_group_ids = list(found.security_group_ids)
        found.modified = _millis()
        return found

    def delete_vpc_endpoint(self, endpoint_id: str) -> Any:
        found = self.get_vpc_endpoint(endpoint_id)
        kept = self.os_endpoints  # type: ignore[attr-defined]
        for token in [t for t, e in kept.items() if e is found]:
            del kept[token]
        ec2 = _ec2(self.account_id, self.region_name)  # type: ignore[attr-defined]
        ec2.delete_vpc_endpoints([endpoint_id])
        return found


def _endpoint_detail(endpoint: Any) -> dict[str, Any]:
    return {
        "id": endpoint.id,
        "name": endpoint.name,
        "vpcId": endpoint.vpc_id,
        "subnetIds": endpoint.subnet_ids or [],
        "securityGroupIds": endpoint.security_group_ids or [],
        "status": endpoint.status,
        "createdDate": vars(endpoint).get("created"),
    }


class VpcEndpointResponse:
    """The VPC endpoint actions moto lacks (an OpenSearchServiceServerlessResponse mixin)."""

    def batch_get_vpc_endpoint(self) -> str:
        from moto.opensearchserverless.exceptions import ResourceNotFoundException

        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        details, errors = [], []
        for endpoint_id in asked.get("ids") or ():
            try:
                details.append(_endpoint_detail(backend.get_vpc_endpoint(endpoint_id)))
            except ResourceNotFoundException:
                errors.append(
                    {
                        "id": endpoint_id,
                        "errorCode": "NOT_FOUND",
                        "errorMessage": "The specified VPC endpoint was not found",
                    }
                )
        return json.dumps({"vpcEndpointDetails": details, "vpcEndpointErrorDetails": errors})

    def list_vpc_endpoints(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        status = (asked.get("vpcEndpointFilters") or {}).get("status")
        found = [
            {"id": e.id, "name": e.name, "status": e.status}
            for e in backend.os_endpoints.values()
            if status is None or e.status == status
        ]
        page, token = one_page(found, asked.get("nextToken"), asked.get("maxResults"), 20)
        return json.dumps({"vpcEndpointSummaries": page, "nextToken": token})

    def update_vpc_endpoint(self) -> str:
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        found = backend.update_vpc_endpoint(json.loads(self.body))  # type: ignore[attr-defined]
        detail = {
            "id": found.id,
            "name": found.name,
            "status": found.status,
            "subnetIds": found.subnet_ids,
            "securityGroupIds": found.security_group_ids,
            "lastModifiedDate": found.modified,
        }
        return json.dumps({"UpdateVpcEndpointDetail": detail})

    def delete_vpc_endpoint(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        gone = self.opensearchserverless_backend.delete_vpc_endpoint(asked.get("id"))  # type: ignore[attr-defined]
        return json.dumps(
            {"deleteVpcEndpointDetail": {"id": gone.id, "name": gone.name, "status": "DELETING"}}
        )


@behaviour(
    BEHAVIOURS,
    "opensearchserverless.vpc-endpoints",
    does="CreateVpcEndpoint makes the EC2 interface endpoint under it (same id; the VPC's "
    "default security group unless given), and BatchGet/List/Update/DeleteVpcEndpoint(s) "
    "read, change and delete both; an unknown id is a NOT_FOUND error detail of "
    "BatchGetVpcEndpoint, ResourceNotFoundException elsewhere",
    reference="https://docs.aws.amazon.com/opensearch-service/latest/ServerlessAPIReference/"
    "API_BatchGetVpcEndpoint.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_opensearch_serverless_reads_a_vpc_endpoint",
    replaces={
        "moto.opensearchserverless.models:OpenSearchServiceServerlessBackend."
        "create_vpc_endpoint": "5a68277632a40c4b"
    },
)
def _vpc_endpoints() -> None:
    from moto.opensearchserverless.models import OpenSearchServiceServerlessBackend
    from moto.opensearchserverless.responses import OpenSearchServiceServerlessResponse

    graft(VpcEndpointBackend, onto=OpenSearchServiceServerlessBackend)
    graft(VpcEndpointResponse, onto=OpenSearchServiceServerlessResponse)
    create = original(OpenSearchServiceServerlessBackend, "create_vpc_endpoint")

    def create_with_interface(self: Any, *args: Any, **kwargs: Any) -> Any:
        made = create(self, *args, **kwargs)
        ec2 = _ec2(self.account_id, self.region_name)
        made.security_group_ids = made.security_group_ids or _default_group(ec2, made.vpc_id)
        made.created = _millis()
        interface = ec2.create_vpc_endpoint(
            vpc_id=made.vpc_id,
            service_name=f"com.amazonaws.{self.region_name}.aoss",
            endpoint_type="Interface",
            policy_document=None,
            route_table_ids=[],
            subnet_ids=list(made.subnet_ids or []),
            security_group_ids=list(made.security_group_ids),
            private_dns_enabled=True,
        )
        del ec2.vpc_end_points[interface.id]
        interface.id = made.id
        ec2.vpc_end_points[made.id] = interface
        return made

    patch(OpenSearchServiceServerlessBackend, "create_vpc_endpoint", create_with_interface)


def _encryption_key(backend: Any, name: str) -> str | None:
    """The key of the encryption policy whose rules match collection ``name``: its
    ``KmsARN``, ``auto`` for an AWS owned key; None when no encryption policy matches."""
    for policy in backend.security_policies.values():
        if policy.type != "encryption":
            continue
        if any(fnmatchcase(f"collection/{name}", pattern) for pattern in policy.resources):
            return str(policy.policy.get("KmsARN") or "auto")
    return None


@behaviour(
    BEHAVIOURS,
    "opensearchserverless.collection-encryption",
    does="CreateCollection encrypts a collection with the key of the encryption policy "
    "whose rules match its name (a pattern too): its KmsARN, or auto for an AWS owned key; "
    "standbyReplicas ENABLED unless given (moto: the last policy of any type naming it, "
    "read for a KmsARN, so a network policy or an AWS owned key was a server error)",
    reference="https://docs.aws.amazon.com/opensearch-service/latest/ServerlessAPIReference/"
    "API_CollectionDetail.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_opensearch_serverless_encrypts_a_collection_by_its_policy",
    replaces={
        "moto.opensearchserverless.models:OpenSearchServiceServerlessBackend."
        "create_collection": "6a08be52602e57aa"
    },
)
def _collection_encryption() -> None:
    from moto.moto_api._internal import mock_random
    from moto.opensearchserverless.models import Collection, OpenSearchServiceServerlessBackend

    def create_collection(
        self: Any,
        client_token: str,
        description: str,
        name: str,
        standby_replicas: str,
        tags: list[dict[str, str]],
        type: str,
    ) -> Any:
        key = _encryption_key(self, name)
        if key is None:
            raise _error(
                "ValidationException",
                f"No matching security policy of encryption type found for collection name: "
                f"{name}. Please create security policy of encryption type for this collection.",
            )
        collection = Collection(
            client_token=client_token or mock_random.get_random_string(10),
            description=description,
            name=name,
            standby_replicas=standby_replicas or "ENABLED",
            tags=tags,
            type=type,
            policy={"KmsARN": key},
            region=self.region_name,
            account_id=self.account_id,
        )
        self.collections[collection.id] = collection
        self.tag_resource(collection.arn, tags)
        return collection

    patch(OpenSearchServiceServerlessBackend, "create_collection", create_collection)


class SecurityPolicyDeletionBackend:
    """Deleting a security policy (an OpenSearchServiceServerlessBackend mixin; moto keeps
    them by client token)."""

    def delete_security_policy(self, name: str, type: str) -> None:
        found = self.get_security_policy(name, type)  # type: ignore[attr-defined]
        kept = self.security_policies  # type: ignore[attr-defined]
        for token in [t for t, p in kept.items() if p is found]:
            del kept[token]


class SecurityPolicyDeletionResponse:
    """The DeleteSecurityPolicy action (an OpenSearchServiceServerlessResponse mixin)."""

    def delete_security_policy(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        backend = self.opensearchserverless_backend  # type: ignore[attr-defined]
        backend.delete_security_policy(asked.get("name"), asked.get("type"))
        return "{}"


@behaviour(
    BEHAVIOURS,
    "opensearchserverless.security-policy-deletion",
    does="DeleteSecurityPolicy deletes an encryption or network policy by name and type; "
    "ResourceNotFoundException for a missing one (moto: it makes, reads, lists and "
    "updates security policies but cannot delete one, so destroying a collection's "
    "policies failed)",
    reference="https://docs.aws.amazon.com/opensearch-service/latest/ServerlessAPIReference/"
    "API_DeleteSecurityPolicy.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_opensearch_serverless_encrypts_a_collection_by_its_policy",
)
def _security_policy_deletion() -> None:
    from moto.opensearchserverless.models import OpenSearchServiceServerlessBackend
    from moto.opensearchserverless.responses import OpenSearchServiceServerlessResponse

    graft(SecurityPolicyDeletionBackend, onto=OpenSearchServiceServerlessBackend)
    graft(SecurityPolicyDeletionResponse, onto=OpenSearchServiceServerlessResponse)
