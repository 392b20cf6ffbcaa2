"""Network Firewall: rule groups, firewall policies, resource policies, a firewall's settings.

Following the AWS Network Firewall API reference
(https://docs.aws.amazon.com/network-firewall/latest/APIReference/); moto 5.2
serves a firewall (``CreateFirewall``, ``DescribeFirewall``, ``ListFirewalls``
and its logging configuration) and nothing else of the service:

- ``CreateRuleGroup``, ``DescribeRuleGroup``, ``DescribeRuleGroupMetadata``,
  ``UpdateRuleGroup``, ``DeleteRuleGroup``, ``ListRuleGroups``: a Region's
  rule groups, named uniquely per type (``STATELESS``, ``STATEFUL``; the ARN
  is ``...:stateful-rulegroup/<name>`` or ``stateless-rulegroup``), found by
  ARN or by name and type. A group keeps the ``RuleGroup`` it is given, or
  one holding the Suricata ``Rules`` string (exactly one of the two), its
  capacity (fixed at creation), description and encryption configuration
  (``AWS_OWNED_KMS_KEY`` unless given); every change takes the group's
  current ``UpdateToken`` (``InvalidTokenException`` otherwise) and gives it a
  new one. A missing group is ``ResourceNotFoundException``.
- ``TagResource``, ``UntagResource``, ``ListTagsForResource`` of a rule group,
  a firewall policy or a firewall by its ARN; ``Tags`` at creation are kept,
  and ``RuleGroupResponse``, ``FirewallPolicyResponse`` and
  ``DescribeFirewall`` answer them.
- ``CreateFirewallPolicy``, ``DescribeFirewallPolicy``, ``UpdateFirewallPolicy``,
  ``DeleteFirewallPolicy``, ``ListFirewallPolicies``: a Region's firewall
  policies, named uniquely (``...:firewall-policy/<name>``), found by ARN or
  by name; a policy keeps its ``FirewallPolicy``, description and encryption
  configuration (``AWS_OWNED_KMS_KEY`` unless given), with update tokens as
  a rule group's; ``NumberOfAssociations`` counts the firewalls using it.
- ``PutResourcePolicy``, ``DescribeResourcePolicy``, ``DeleteResourcePolicy``:
  the policy (JSON text) of a rule group or a firewall policy, to share it;
  a missing resource, or one without a policy, is ``ResourceNotFoundException``.
- A firewall's settings: ``CreateFirewall`` leaves ``DeleteProtection``,
  ``SubnetChangeProtection`` and ``FirewallPolicyChangeProtection`` false when
  not given (moto: true, so no firewall could be deleted) and its encryption
  ``AWS_OWNED_KMS_KEY``; ``DeleteFirewall`` (refused under delete protection,
  ``InvalidOperationException``; moto lacks it), the
  ``UpdateFirewallDeleteProtection``, ``UpdateSubnetChangeProtection``,
  ``UpdateFirewallPolicyChangeProtection``, ``UpdateFirewallDescription`` and
  ``UpdateFirewallEncryptionConfiguration`` operations, ``AssociateFirewallPolicy``
  (refused under policy change protection) and ``Associate``/``DisassociateSubnets``
  (refused under subnet change protection). Each change takes the firewall's
  current ``UpdateToken`` when one is given and gives it a new one (moto: one
  fixed token).
- ``FirewallStatus.SyncStates``: per Availability Zone of the firewall's
  subnets, the endpoint attached there (``SubnetId``, a ``vpce-`` ``EndpointId``
  that stays the same, ``READY``), following the subnets a firewall is given
  (moto: none, so a route to the firewall's endpoint found no ID).

Not modelled: the capacity a group's or a policy's rules consume
(``ConsumedCapacity`` is left out), the policies that reference a group
(``NumberOfAssociations`` is 0, so a group in use can be deleted), AWS's
managed rule groups (``ListRuleGroups`` with ``Scope=MANAGED`` is empty), the
rules' syntax, a firewall endpoint's VPC endpoint (DescribeVpcEndpoints does not
list it) and each endpoint's per-object ``Config``, and the time AWS takes to
provision or delete a firewall (a deleted firewall is gone at once).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime, timezone
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/network-firewall/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: The types of rule group, as the API names them.
TYPES = ("STATELESS", "STATEFUL")


def _error(code: str, message: str) -> Exception:
    from moto.core.exceptions import JsonRESTError

    return JsonRESTError(code, message)


def _not_found(what: str) -> Exception:
    return _error("ResourceNotFoundException", f"{what} not found")


class RuleGroup:
    """A rule group: its rules, capacity and the token of its last change."""

    def __init__(
        self, account_id: str, region_name: str, name: str, kind: str, capacity: int
    ) -> None:
        self.name = name
        self.type = kind
        self.capacity = capacity
        self.id = str(uuid.uuid4())
        self.arn = (
            f"arn:aws:network-firewall:{region_name}:{account_id}:{kind.lower()}-rulegroup/{name}"
        )
        self.rule_group: dict[str, Any] = {}
        self.description: str | None = None
        self.encryption: dict[str, Any] = {"Type": "AWS_OWNED_KMS_KEY"}
        self.update_token = ""
        self.modified = datetime.now(timezone.utc)

    def change(self, fields: dict[str, Any]) -> None:
        """Take the settings a Create or Update call gives (what it leaves out is cleared)."""
        if fields.get("Rules") is not None:
            self.rule_group = {"RulesSource": {"RulesString": fields["Rules"]}}
        else:
            self.rule_group = fields["RuleGroup"]
        self.description = fields.get("Description")
        self.encryption = fields.get("EncryptionConfiguration") or {"Type": "AWS_OWNED_KMS_KEY"}
        self.update_token = str(uuid.uuid4())
        self.modified = datetime.now(timezone.utc)

    def response(self, tags: list[dict[str, str]], status: str = "ACTIVE") -> dict[str, Any]:
        """The group's ``RuleGroupResponse``."""
        answer: dict[str, Any] = {
            "RuleGroupArn": self.arn,
            "RuleGroupName": self.name,
            "RuleGroupId": self.id,
            "Type": self.type,
            "Capacity": self.capacity,
            "RuleGroupStatus": status,
            "Tags": tags,
            "NumberOfAssociations": 0,
            "EncryptionConfiguration": self.encryption,
            "LastModifiedTime": self.modified,
        }
        if self.description is not None:
            answer["Description"] = self.description
        return answer


def _check_rules(fields: dict[str, Any]) -> None:
    if (fields.get("Rules") is None) == (fields.get("RuleGroup") is None):
        raise _error("InvalidRequestException", "Exactly one of Rules or RuleGroup must be set")


class RuleGroupBackend:
    """The Region's rule groups (a NetworkFirewallBackend mixin)."""

    rule_groups: Kept[RuleGroup] = Kept()

    def find_rule_group(self, arn: str | None, name: str | None, kind: str | None) -> RuleGroup:
        if arn:
            group = self.rule_groups.get(arn)
            if group is None:
                raise _not_found(f"Rule group {arn}")
            return group
        if not name or kind not in TYPES:
            raise _error(
                "InvalidRequestException",
                "Either RuleGroupArn, or RuleGroupName and Type (STATELESS or STATEFUL), "
                "must be given",
            )
        for group in self.rule_groups.values():
            if group.name == name and group.type == kind:
                return group
        raise _not_found(f"Rule group {name} of type {kind}")

    def create_rule_group(
        self, name: str, kind: str, capacity: int, fields: dict[str, Any], tags: list[Any]
    ) -> RuleGroup:
        if kind not in TYPES:
            raise _error("InvalidRequestException", f"Type must be one of {', '.join(TYPES)}")
        _check_rules(fields)
        if any(g.name == name and g.type == kind for g in self.rule_groups.values()):
            raise _error(
                "InvalidRequestException", f"A {kind} rule group named {name} already exists"
            )
        group = RuleGroup(self.account_id, self.region_name, name, kind, capacity)  # type: ignore[attr-defined]
        group.change(fields)
        self.rule_groups[group.arn] = group
        if tags:
            self.tagger.tag_resource(group.arn, tags)  # type: ignore[attr-defined]
        return group

    def update_rule_group(
        self, group: RuleGroup, token: str, kind: str | None, fields: dict[str, Any]
    ) -> RuleGroup:
        if token != group.update_token:
            raise _error(
                "InvalidTokenException",
                "The update token is not the rule group's current one: describe it again",
            )
        if kind is not None and kind != group.type:
            raise _error("InvalidRequestException", "A rule group's Type cannot be changed")
        _check_rules(fields)
        group.change(fields)
        return group

    def delete_rule_group(self, group: RuleGroup) -> RuleGroup:
        del self.rule_groups[group.arn]
        self.tagger.delete_all_tags_for_resource(group.arn)  # type: ignore[attr-defined]
        return group

    def tags_of(self, arn: str) -> list[dict[str, str]]:
        tags: list[dict[str, str]] = self.tagger.list_tags_for_resource(arn)["Tags"]  # type: ignore[attr-defined]
        return tags


#: The backend's dicts, by ARN, of what the tag operations take (firewall policies are
#: ``networkfirewall.firewall-policies``').
_TAGGABLE = ("rule_groups", "firewall_policies", "firewalls")
#: The parameters of CreateRuleGroup and UpdateRuleGroup a group keeps.
_FIELDS = ("RuleGroup", "Rules", "Description", "EncryptionConfiguration")


class RuleGroupResponse:
    """The rule group and tag actions (a NetworkFirewallResponse mixin)."""

    def _rule_group(self) -> RuleGroup:
        get = self._get_param  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        group: RuleGroup = backend.find_rule_group(
            get("RuleGroupArn"), get("RuleGroupName"), get("Type")
        )
        return group

    def _fields(self) -> dict[str, Any]:
        return {name: self._get_param(name) for name in _FIELDS}  # type: ignore[attr-defined]

    def _answer(self, group: RuleGroup, status: str = "ACTIVE") -> dict[str, Any]:
        tags = self.networkfirewall_backend.tags_of(group.arn)  # type: ignore[attr-defined]
        response = group.response(tags, status)
        return {"UpdateToken": group.update_token, "RuleGroupResponse": response}

    def create_rule_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.networkfirewall_backend.create_rule_group(  # type: ignore[attr-defined]
            get("RuleGroupName"), get("Type"), get("Capacity"), self._fields(), get("Tags") or []
        )
        return ActionResult(self._answer(group))

    def describe_rule_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self._rule_group()
        return ActionResult({**self._answer(group), "RuleGroup": group.rule_group})

    def describe_rule_group_metadata(self) -> Any:
        from moto.core.responses import ActionResult

        group = self._rule_group()
        answer: dict[str, Any] = {
            "RuleGroupArn": group.arn,
            "RuleGroupName": group.name,
            "Type": group.type,
            "Capacity": group.capacity,
            "LastModifiedTime": group.modified,
        }
        if group.description is not None:
            answer["Description"] = group.description
        if "StatefulRuleOptions" in group.rule_group:
            answer["StatefulRuleOptions"] = group.rule_group["StatefulRuleOptions"]
        return ActionResult(answer)

    def update_rule_group(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        group = self.networkfirewall_backend.update_rule_group(  # type: ignore[attr-defined]
            self._rule_group(), get("UpdateToken"), get("Type"), self._fields()
        )
        return ActionResult(self._answer(group))

    def delete_rule_group(self) -> Any:
        from moto.core.responses import ActionResult

        group = self.networkfirewall_backend.delete_rule_group(self._rule_group())  # type: ignore[attr-defined]
        return ActionResult({"RuleGroupResponse": group.response([], "DELETING")})

    def list_rule_groups(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        found = [
            {"Name": g.name, "Arn": g.arn}
            for g in backend.rule_groups.values()
            if get("Scope") != "MANAGED" and get("Type") in (None, g.type)
        ]
        page, following = one_page(found, get("NextToken"), get("MaxResults"))
        return ActionResult({"RuleGroups": page, "NextToken": following})

    def _tagged(self) -> str:
        arn: str = self._get_param("ResourceArn")  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        if not any(arn in getattr(backend, kept, {}) for kept in _TAGGABLE):
            raise _not_found(f"Resource {arn}")
        return arn

    def _retagged(self, arn: str) -> Any:
        """After a tag change: a firewall answers its tags from its own list (moto's)."""
        from moto.core.responses import ActionResult

        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        if arn in backend.firewalls:
            backend.firewalls[arn].tags = backend.tags_of(arn)
        return ActionResult({})

    def list_tags_for_resource(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        tags = self.networkfirewall_backend.tags_of(self._tagged())  # type: ignore[attr-defined]
        page, following = one_page(tags, get("NextToken"), get("MaxResults"))
        return ActionResult({"Tags": page, "NextToken": following})

    def tag_resource(self) -> Any:
        arn = self._tagged()
        tags = self._get_param("Tags") or []  # type: ignore[attr-defined]
        self.networkfirewall_backend.tagger.tag_resource(arn, tags)  # type: ignore[attr-defined]
        return self._retagged(arn)

    def untag_resource(self) -> Any:
        arn = self._tagged()
        keys = self._get_param("TagKeys") or []  # type: ignore[attr-defined]
        self.networkfirewall_backend.tagger.untag_resource_using_names(arn, keys)  # type: ignore[attr-defined]
        return self._retagged(arn)


@behaviour(
    BEHAVIOURS,
    "networkfirewall.rule-groups",
    does="Create/Describe/DescribeMetadata/Update/Delete/ListRuleGroups keep a Region's rule "
    "groups (the RuleGroup or Rules given, capacity, description, encryption, a new "
    "UpdateToken at each change, InvalidTokenException for a stale one); a missing group is "
    "ResourceNotFoundException; Tag/Untag/ListTagsForResource by a group's or a firewall's "
    "ARN",
    reference=_API + "API_CreateRuleGroup.html",
    test=_TESTS + "test_network_firewall_keeps_a_rule_group",
)
def _rule_groups() -> None:
    from moto.networkfirewall.models import NetworkFirewallBackend
    from moto.networkfirewall.responses import NetworkFirewallResponse

    graft(RuleGroupBackend, onto=NetworkFirewallBackend)
    graft(RuleGroupResponse, onto=NetworkFirewallResponse)


def _check_token(token: str | None, current: str, what: str) -> None:
    if token is not None and token != current:
        raise _error(
            "InvalidTokenException",
            f"The update token is not the {what}'s current one: describe it again",
        )


class FirewallPolicy:
    """A firewall policy: its settings and the token of its last change."""

    def __init__(self, account_id: str, region_name: str, name: str) -> None:
        self.name = name
        self.id = str(uuid.uuid4())
        self.arn = f"arn:aws:network-firewall:{region_name}:{account_id}:firewall-policy/{name}"
        self.firewall_policy: dict[str, Any] = {}
        self.description: str | None = None
        self.encryption: dict[str, Any] = {"Type": "AWS_OWNED_KMS_KEY"}
        self.update_token = ""
        self.modified = datetime.now(timezone.utc)

    def change(self, fields: dict[str, Any]) -> None:
        """Take the settings a Create or Update call gives (what it leaves out is cleared)."""
        self.firewall_policy = fields["FirewallPolicy"]
        self.description = fields.get("Description")
        self.encryption = fields.get("EncryptionConfiguration") or {"Type": "AWS_OWNED_KMS_KEY"}
        self.update_token = str(uuid.uuid4())
        self.modified = datetime.now(timezone.utc)

    def response(
        self, tags: list[dict[str, str]], associations: int, status: str = "ACTIVE"
    ) -> dict[str, Any]:
        """The policy's ``FirewallPolicyResponse``."""
        answer: dict[str, Any] = {
            "FirewallPolicyName": self.name,
            "FirewallPolicyArn": self.arn,
            "FirewallPolicyId": self.id,
            "FirewallPolicyStatus": status,
            "Tags": tags,
            "NumberOfAssociations": associations,
            "EncryptionConfiguration": self.encryption,
            "LastModifiedTime": self.modified,
        }
        if self.description is not None:
            answer["Description"] = self.description
        return answer


def _check_policy(fields: dict[str, Any]) -> None:
    policy = fields.get("FirewallPolicy")
    if (
        not policy
        or not policy.get("StatelessDefaultActions")
        or not policy.get("StatelessFragmentDefaultActions")
    ):
        raise _error(
            "InvalidRequestException",
            "FirewallPolicy must give StatelessDefaultActions and StatelessFragmentDefaultActions",
        )


class FirewallPolicyBackend:
    """The Region's firewall policies (a NetworkFirewallBackend mixin)."""

    firewall_policies: Kept[FirewallPolicy] = Kept()

    def find_firewall_policy(self, arn: str | None, name: str | None) -> FirewallPolicy:
        if not arn and not name:
            raise _error(
                "InvalidRequestException", "FirewallPolicyArn or FirewallPolicyName must be given"
            )
        for policy in self.firewall_policies.values():
            if policy.arn == arn or (not arn and policy.name == name):
                return policy
        raise _not_found(f"Firewall policy {arn or name}")

    def create_firewall_policy(
        self, name: str, fields: dict[str, Any], tags: list[Any]
    ) -> FirewallPolicy:
        _check_policy(fields)
        if any(p.name == name for p in self.firewall_policies.values()):
            raise _error(
                "InvalidRequestException", f"A firewall policy named {name} already exists"
            )
        policy = FirewallPolicy(self.account_id, self.region_name, name)  # type: ignore[attr-defined]
        policy.change(fields)
        self.firewall_policies[policy.arn] = policy
        if tags:
            self.tagger.tag_resource(policy.arn, tags)  # type: ignore[attr-defined]
        return policy

    def update_firewall_policy(
        self, policy: FirewallPolicy, token: str, fields: dict[str, Any]
    ) -> FirewallPolicy:
        _check_token(token or "", policy.update_token, "firewall policy")
        _check_policy(fields)
        policy.change(fields)
        return policy

    def delete_firewall_policy(self, policy: FirewallPolicy) -> FirewallPolicy:
        if self.associations(policy.arn):
            raise _error(
                "InvalidOperationException",
                f"Firewall policy {policy.name} is in use by a firewall",
            )
        del self.firewall_policies[policy.arn]
        self.tagger.delete_all_tags_for_resource(policy.arn)  # type: ignore[attr-defined]
        return policy

    def associations(self, arn: str) -> int:
        """How many firewalls use the policy ``arn``."""
        firewalls = self.firewalls.values()  # type: ignore[attr-defined]
        return sum(1 for firewall in firewalls if firewall.firewall_policy_arn == arn)


#: The parameters of CreateFirewallPolicy and UpdateFirewallPolicy a policy keeps.
_POLICY_FIELDS = ("FirewallPolicy", "Description", "EncryptionConfiguration")


class FirewallPolicyResponse:
    """The firewall policy actions (a NetworkFirewallResponse mixin)."""

    def _firewall_policy(self) -> FirewallPolicy:
        get = self._get_param  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        policy: FirewallPolicy = backend.find_firewall_policy(
            get("FirewallPolicyArn"), get("FirewallPolicyName")
        )
        return policy

    def _policy_answer(self, policy: FirewallPolicy, status: str = "ACTIVE") -> dict[str, Any]:
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        tags = backend.tags_of(policy.arn) if status == "ACTIVE" else []
        response = policy.response(tags, backend.associations(policy.arn), status)
        return {"UpdateToken": policy.update_token, "FirewallPolicyResponse": response}

    def create_firewall_policy(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        fields = {name: get(name) for name in _POLICY_FIELDS}
        policy = self.networkfirewall_backend.create_firewall_policy(  # type: ignore[attr-defined]
            get("FirewallPolicyName"), fields, get("Tags") or []
        )
        return ActionResult(self._policy_answer(policy))

    def describe_firewall_policy(self) -> Any:
        from moto.core.responses import ActionResult

        policy = self._firewall_policy()
        return ActionResult(
            {**self._policy_answer(policy), "FirewallPolicy": policy.firewall_policy}
        )

    def update_firewall_policy(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        fields = {name: get(name) for name in _POLICY_FIELDS}
        policy = self.networkfirewall_backend.update_firewall_policy(  # type: ignore[attr-defined]
            self._firewall_policy(), get("UpdateToken"), fields
        )
        return ActionResult(self._policy_answer(policy))

    def delete_firewall_policy(self) -> Any:
        from moto.core.responses import ActionResult

        policy = self.networkfirewall_backend.delete_firewall_policy(self._firewall_policy())  # type: ignore[attr-defined]
        answer = self._policy_answer(policy, "DELETING")
        return ActionResult({"FirewallPolicyResponse": answer["FirewallPolicyResponse"]})

    def list_firewall_policies(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        found = [{"Name": p.name, "Arn": p.arn} for p in backend.firewall_policies.values()]
        page, following = one_page(found, get("NextToken"), get("MaxResults"))
        return ActionResult({"FirewallPolicies": page, "NextToken": following})


@behaviour(
    BEHAVIOURS,
    "networkfirewall.firewall-policies",
    does="Create/Describe/Update/Delete/ListFirewallPolicies keep a Region's firewall "
    "policies (the FirewallPolicy given, description, encryption, a new UpdateToken at each "
    "change, InvalidTokenException for a stale one, the firewalls using one counted and "
    "keeping it from deletion); a missing policy is ResourceNotFoundException; the tag "
    "operations take a policy's ARN",
    reference=_API + "API_CreateFirewallPolicy.html",
    test=_TESTS + "test_network_firewall_keeps_a_firewall_policy",
)
def _firewall_policies() -> None:
    from moto.networkfirewall.models import NetworkFirewallBackend
    from moto.networkfirewall.responses import NetworkFirewallResponse

    graft(FirewallPolicyBackend, onto=NetworkFirewallBackend)
    graft(FirewallPolicyResponse, onto=NetworkFirewallResponse)


class ResourcePolicyBackend:
    """The resource policies of rule groups and firewall policies (a backend mixin)."""

    resource_policies: Kept[str] = Kept()

    def shared(self, arn: str) -> str:
        """``arn``, when it is a rule group's or a firewall policy's this Region has."""
        if not any(arn in getattr(self, kept, {}) for kept in ("rule_groups", "firewall_policies")):
            raise _not_found(f"Resource {arn}")
        return arn

    def put_resource_policy(self, arn: str, policy: str) -> None:
        try:
            json.loads(policy)
        except (TypeError, ValueError):
            raise _error("InvalidResourcePolicyException", "The policy is not valid JSON") from None
        self.resource_policies[self.shared(arn)] = policy

    def describe_resource_policy(self, arn: str) -> str:
        policy = self.resource_policies.get(self.shared(arn))
        if policy is None:
            raise _not_found(f"Resource policy of {arn}")
        return policy

    def delete_resource_policy(self, arn: str) -> None:
        if self.resource_policies.pop(self.shared(arn), None) is None:
            raise _not_found(f"Resource policy of {arn}")


class ResourcePolicyResponse:
    """The resource policy actions (a NetworkFirewallResponse mixin)."""

    def put_resource_policy(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        self.networkfirewall_backend.put_resource_policy(get("ResourceArn"), get("Policy"))  # type: ignore[attr-defined]
        return ActionResult({})

    def describe_resource_policy(self) -> Any:
        from moto.core.responses import ActionResult

        arn = self._get_param("ResourceArn")  # type: ignore[attr-defined]
        policy = self.networkfirewall_backend.describe_resource_policy(arn)  # type: ignore[attr-defined]
        return ActionResult({"Policy": policy})

    def delete_resource_policy(self) -> Any:
        from moto.core.responses import ActionResult

        arn = self._get_param("ResourceArn")  # type: ignore[attr-defined]
        self.networkfirewall_backend.delete_resource_policy(arn)  # type: ignore[attr-defined]
        return ActionResult({})


@behaviour(
    BEHAVIOURS,
    "networkfirewall.resource-policies",
    does="Put/Describe/DeleteResourcePolicy keep the policy (JSON text) that shares a rule "
    "group or a firewall policy; a missing resource, or one without a policy, is "
    "ResourceNotFoundException, a policy that is no JSON InvalidResourcePolicyException",
    reference=_API + "API_PutResourcePolicy.html",
    test=_TESTS + "test_network_firewall_keeps_a_firewall_policy",
)
def _resource_policies() -> None:
    from moto.networkfirewall.models import NetworkFirewallBackend
    from moto.networkfirewall.responses import NetworkFirewallResponse

    graft(ResourcePolicyBackend, onto=NetworkFirewallBackend)
    graft(ResourcePolicyResponse, onto=NetworkFirewallResponse)


#: A firewall's protections, as the API names them -> moto's attribute.
PROTECTIONS = {
    "DeleteProtection": "delete_protection",
    "SubnetChangeProtection": "subnet_change_protection",
    "FirewallPolicyChangeProtection": "firewall_policy_change_protection",
}


def _protected(firewall: Any, attribute: str, what: str) -> None:
    if getattr(firewall, attribute):
        member = next(name for name, kept in PROTECTIONS.items() if kept == attribute)
        raise _error(
            "InvalidOperationException",
            f"Firewall {firewall.firewall_name} has {member} on: {what} is not allowed",
        )


class FirewallSettingsResponse:
    """A firewall's deletion and the changes of its settings (a NetworkFirewallResponse
    mixin); each answers the firewall's new UpdateToken."""

    def _changed(self, what: str, protection: str | None = None) -> Any:
        """The firewall the request names, its token checked and renewed; refused when
        ``protection`` (moto's attribute) is on."""
        get = self._get_param  # type: ignore[attr-defined]
        firewall = self.networkfirewall_backend._get_firewall(  # type: ignore[attr-defined]
            get("FirewallArn"), get("FirewallName")
        )
        _check_token(get("UpdateToken"), firewall.update_token, "firewall")
        if protection is not None:
            _protected(firewall, protection, what)
        firewall.update_token = str(uuid.uuid4())
        return firewall

    def _changed_answer(self, firewall: Any, **members: Any) -> Any:
        from moto.core.responses import ActionResult

        return ActionResult(
            {
                "FirewallArn": firewall.arn,
                "FirewallName": firewall.firewall_name,
                "UpdateToken": firewall.update_token,
                **members,
            }
        )

    def delete_firewall(self) -> Any:
        from moto.core.responses import ActionResult
        from moto.networkfirewall.responses import _firewall

        get = self._get_param  # type: ignore[attr-defined]
        backend = self.networkfirewall_backend  # type: ignore[attr-defined]
        firewall = backend._get_firewall(get("FirewallArn"), get("FirewallName"))
        _protected(firewall, "delete_protection", "deleting it")
        del backend.firewalls[firewall.arn]
        backend.tagger.delete_all_tags_for_resource(firewall.arn)
        status = {**firewall.firewall_status, "Status": "DELETING"}
        return ActionResult({"Firewall": _firewall(firewall), "FirewallStatus": status})

    def _protection(self, member: str) -> Any:
        firewall = self._changed(f"changing {member}")
        value = bool(self._get_param(member))  # type: ignore[attr-defined]
        setattr(firewall, PROTECTIONS[member], value)
        return self._changed_answer(firewall, **{member: value})

    def update_firewall_delete_protection(self) -> Any:
        return self._protection("DeleteProtection")

    def update_subnet_change_protection(self) -> Any:
        return self._protection("SubnetChangeProtection")

    def update_firewall_policy_change_protection(self) -> Any:
        return self._protection("FirewallPolicyChangeProtection")

    def update_firewall_description(self) -> Any:
        firewall = self._changed("changing its description")
        firewall.description = self._get_param("Description")  # type: ignore[attr-defined]
        return self._changed_answer(firewall, Description=firewall.description)

    def update_firewall_encryption_configuration(self) -> Any:
        firewall = self._changed("changing its encryption")
        given = self._get_param("EncryptionConfiguration")  # type: ignore[attr-defined]
        firewall.encryption_configuration = given or {"Type": "AWS_OWNED_KMS_KEY"}
        return self._changed_answer(
            firewall, EncryptionConfiguration=firewall.encryption_configuration
        )

    def associate_firewall_policy(self) -> Any:
        firewall = self._changed("associating another policy", "firewall_policy_change_protection")
        firewall.firewall_policy_arn = self._get_param("FirewallPolicyArn")  # type: ignore[attr-defined]
        return self._changed_answer(firewall, FirewallPolicyArn=firewall.firewall_policy_arn)

    def associate_subnets(self) -> Any:
        firewall = self._changed("associating subnets", "subnet_change_protection")
        given = self._get_param("SubnetMappings") or []  # type: ignore[attr-defined]
        known = {m["SubnetId"] for m in firewall.subnet_mappings}
        firewall.subnet_mappings = [
            *firewall.subnet_mappings,
            *(m for m in given if m["SubnetId"] not in known),
        ]
        return self._changed_answer(firewall, SubnetMappings=firewall.subnet_mappings)

    def disassociate_subnets(self) -> Any:
        firewall = self._changed("disassociating subnets", "subnet_change_protection")
        gone = set(self._get_param("SubnetIds") or [])  # type: ignore[attr-defined]
        firewall.subnet_mappings = [
            m for m in firewall.subnet_mappings if m["SubnetId"] not in gone
        ]
        return self._changed_answer(firewall, SubnetMappings=firewall.subnet_mappings)


@behaviour(
    BEHAVIOURS,
    "networkfirewall.firewall-settings",
    does="CreateFirewall leaves DeleteProtection, SubnetChangeProtection and "
    "FirewallPolicyChangeProtection false unless given (moto: true) and the encryption "
    "AWS_OWNED_KMS_KEY; DeleteFirewall (InvalidOperationException under delete "
    "protection), UpdateFirewallDeleteProtection, UpdateSubnetChangeProtection, "
    "UpdateFirewallPolicyChangeProtection, UpdateFirewallDescription, "
    "UpdateFirewallEncryptionConfiguration, AssociateFirewallPolicy and "
    "Associate/DisassociateSubnets (refused under their protection), each checking and "
    "renewing the firewall's UpdateToken",
    reference=_API + "API_CreateFirewall.html",
    test=_TESTS + "test_a_network_firewall_is_unprotected_unless_asked",
    replaces={"moto.networkfirewall.models:NetworkFirewallModel.__init__": "995dd5fd4673908b"},
)
def _firewall_settings() -> None:
    from moto.networkfirewall.models import NetworkFirewallModel
    from moto.networkfirewall.responses import NetworkFirewallResponse

    before = original(NetworkFirewallModel, "__init__")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        for attribute in PROTECTIONS.values():
            kwargs[attribute] = bool(kwargs.get(attribute))
        if not kwargs.get("encryption_configuration"):
            kwargs["encryption_configuration"] = {"Type": "AWS_OWNED_KMS_KEY"}
        before(self, *args, **kwargs)
        self.update_token = str(uuid.uuid4())

    patch(NetworkFirewallModel, "__init__", __init__)
    graft(FirewallSettingsResponse, onto=NetworkFirewallResponse)


def _endpoint_id(firewall_arn: str, subnet_id: str) -> str:
    """The firewall endpoint's ID in a subnet: the same for the same firewall and subnet."""
    return "vpce-" + hashlib.sha256(f"{firewall_arn} {subnet_id}".encode()).hexdigest()[:17]


def _sync_states(firewall: Any) -> dict[str, Any]:
    """A firewall's ``SyncStates``: one endpoint, ready, per Availability Zone of its
    subnets (a subnet the Region does not have is left out)."""
    from moto.ec2.exceptions import InvalidSubnetIdError
    from moto.ec2.models import ec2_backends

    ec2 = ec2_backends[firewall.account_id][firewall.region_name]
    states: dict[str, Any] = {}
    for mapping in firewall.subnet_mappings or []:
        try:
            subnet = ec2.get_subnet(mapping["SubnetId"])
        except InvalidSubnetIdError:
            continue
        attachment = {
            "SubnetId": subnet.id,
            "EndpointId": _endpoint_id(firewall.arn, subnet.id),
            "Status": "READY",
        }
        states.setdefault(subnet.availability_zone, {"Attachment": attachment, "Config": {}})
    return states


@behaviour(
    BEHAVIOURS,
    "networkfirewall.firewall-endpoints",
    does="DescribeFirewall's FirewallStatus has SyncStates: per Availability Zone of the "
    "firewall's subnets, the endpoint attached there (SubnetId, a vpce- EndpointId, READY), "
    "following Associate/DisassociateSubnets (moto: none, so a route to the firewall's "
    "endpoint found no endpoint ID)",
    reference=_API + "API_SyncState.html",
    test=_TESTS + "test_a_network_firewall_has_an_endpoint_per_zone",
    replaces={"moto.networkfirewall.models:NetworkFirewallModel.__init__": "995dd5fd4673908b"},
)
def _firewall_endpoints() -> None:
    from moto.networkfirewall.models import NetworkFirewallModel

    before = original(NetworkFirewallModel, "__init__")  # perhaps another behaviour's wrapper

    def __init__(self: Any, account_id: str, region_name: str, *args: Any, **kwargs: Any) -> None:
        self.account_id, self.region_name = account_id, region_name
        before(self, account_id, region_name, *args, **kwargs)

    def get(self: Any) -> dict[str, Any]:
        status: dict[str, Any] = {
            **vars(self)["_firewall_status"],
            "SyncStates": _sync_states(self),
        }
        return status

    def put(self: Any, value: dict[str, Any]) -> None:
        vars(self)["_firewall_status"] = value

    patch(NetworkFirewallModel, "__init__", __init__)
    patch(NetworkFirewallModel, "firewall_status", property(get, put))
