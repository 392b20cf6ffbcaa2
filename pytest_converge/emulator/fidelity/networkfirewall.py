"""Network Firewall: rule groups.

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
- ``TagResource``, ``UntagResource``, ``ListTagsForResource`` of a rule group
  or a firewall by its ARN; ``Tags`` at creation are kept, and
  ``RuleGroupResponse`` and ``DescribeFirewall`` answer them.

Not modelled: the capacity a group's rules consume (``ConsumedCapacity`` is
left out), the policies that reference a group (``NumberOfAssociations`` is
0, so a group in use can be deleted), AWS's managed rule groups
(``ListRuleGroups`` with ``Scope=MANAGED`` is empty) and the rules' syntax.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page

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
        if arn not in backend.rule_groups and arn not in backend.firewalls:
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
