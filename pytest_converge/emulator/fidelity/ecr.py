"""ECR: the registry's settings (policy, replication, pull through cache, creation templates).

Following the Amazon ECR API reference
(https://docs.aws.amazon.com/AmazonECR/latest/APIReference/) and its user
guide's registry permissions page:

- ``PutRegistryPolicy``: under the registry policy scope every account starts
  with (V2, "all ECR permissions"), a statement may grant any ``ecr:`` action;
  moto 5.2 refuses all but ``ecr:CreateRepository`` and ``ecr:ReplicateImage``,
  so the pull through cache grant ``ecr:BatchImportUpstreamImage`` fails.
- ``PutReplicationConfiguration``: up to 10 rules, each with up to 25
  destinations and 100 repository filters; moto 5.2 refuses a second rule
  ("This feature is disabled").
- ``CreatePullThroughCacheRule``, ``DescribePullThroughCacheRules``,
  ``UpdatePullThroughCacheRule``, ``DeletePullThroughCacheRule``: the
  registry's pull through cache rules; moto 5.2 implements none of them.
- ``CreateRepositoryCreationTemplate``, ``DescribeRepositoryCreationTemplates``,
  ``UpdateRepositoryCreationTemplate``, ``DeleteRepositoryCreationTemplate``:
  the settings ECR gives the repositories it creates (for pull through cache,
  replication, create on push); moto 5.2 implements none of them. What the
  templates do to such repositories is not modelled (moto pulls no images).
"""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime, timezone
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonECR/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_ecr.py::"


@functools.cache
def _error_class() -> type[Exception]:
    from moto.core.exceptions import ServiceException

    class ECRError(ServiceException):
        """An ECR error moto has no class for (moto.core's own would be looked up as 'core')."""

    return ECRError


def _error(code: str, message: str) -> Exception:
    return _error_class()(code, message)


def _now() -> datetime:
    return datetime.now(timezone.utc)


@behaviour(
    BEHAVIOURS,
    "ecr.registry-policy-scope",
    does="PutRegistryPolicy takes a statement granting any ECR action (the V2 registry policy "
    "scope accounts start with, e.g. ecr:BatchImportUpstreamImage for pull through cache); "
    "an action of another service is refused",
    reference="https://docs.aws.amazon.com/AmazonECR/latest/userguide/"
    "registry-permissions-create.html",
    test=_TESTS + "test_a_registry_policy_may_grant_any_ecr_action",
    replaces={
        "moto.ecr.models:ECRBackend._validate_registry_policy_action": "0823ba3f8de97447",
    },
)
def _registry_policy_scope() -> None:
    from moto.ecr.models import ECRBackend
    from moto.iam.exceptions import MalformedPolicyDocument

    def _validate_registry_policy_action(self: Any, policy_text: str) -> None:
        statements = json.loads(policy_text)["Statement"]
        for statement in statements if isinstance(statements, list) else [statements]:
            actions = statement.get("Action", [])
            for action in [actions] if isinstance(actions, str) else actions:
                if not str(action).lower().startswith("ecr:"):
                    raise MalformedPolicyDocument()

    patch(ECRBackend, "_validate_registry_policy_action", _validate_registry_policy_action)


#: PutReplicationConfiguration's limits (the API's ReplicationConfiguration shape).
MAX_RULES, MAX_DESTINATIONS, MAX_FILTERS = 10, 25, 100


@behaviour(
    BEHAVIOURS,
    "ecr.replication-rules",
    does="PutReplicationConfiguration keeps up to 10 rules (25 destinations, 100 repository "
    "filters each) and DescribeRegistry returns them; a destination that is the source "
    "registry is refused",
    reference=_API + "API_ReplicationConfiguration.html",
    test=_TESTS + "test_replication_keeps_more_than_one_rule",
    replaces={"moto.ecr.models:ECRBackend.put_replication_configuration": "b3417252d150d2f6"},
)
def _replication_rules() -> None:
    from moto.ecr.exceptions import InvalidParameterException, ValidationException
    from moto.ecr.models import ECRBackend

    def put_replication_configuration(
        self: Any, replication_config: dict[str, Any]
    ) -> dict[str, Any]:
        rules = replication_config.get("rules") or []
        if len(rules) > MAX_RULES:
            raise ValidationException(
                f"1 validation error detected: Value at 'replicationConfiguration.rules' failed "
                f"to satisfy constraint: Member must have length less than or equal to {MAX_RULES}"
            )
        for rule in rules:
            destinations = rule.get("destinations") or []
            if len(destinations) > MAX_DESTINATIONS or len(rule.get("repositoryFilters") or []) > (
                MAX_FILTERS
            ):
                raise ValidationException(
                    "1 validation error detected: a replication rule has more than "
                    f"{MAX_DESTINATIONS} destinations or {MAX_FILTERS} repository filters"
                )
            for dest in destinations:
                if dest["region"] == self.region_name and dest["registryId"] == self.account_id:
                    raise InvalidParameterException(
                        "Invalid parameter at 'replicationConfiguration' failed to satisfy "
                        "constraint: 'Replication destination cannot be the same as the source "
                        "registry'"
                    )
        self.replication_config = {"rules": rules}
        return {"replicationConfiguration": self.replication_config}

    patch(ECRBackend, "put_replication_configuration", put_replication_configuration)


#: An ECR prefix (ecrRepositoryPrefix, upstreamRepositoryPrefix): the API's pattern.
PREFIX = re.compile(r"(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*/?|ROOT")
#: upstreamRegistryUrl -> the UpstreamRegistry ECR names it (the user guide's list).
UPSTREAMS = [
    (re.compile(r"public\.ecr\.aws"), "ecr-public"),
    (re.compile(r"[0-9]{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(\.cn)?"), "ecr"),
    (re.compile(r"registry\.k8s\.io"), "k8s"),
    (re.compile(r"quay\.io"), "quay"),
    (re.compile(r"registry-1\.docker\.io"), "docker-hub"),
    (re.compile(r"ghcr\.io"), "github-container-registry"),
    (re.compile(r"[a-z0-9-]+\.azurecr\.io"), "azure-container-registry"),
    (re.compile(r"registry\.gitlab\.com"), "gitlab-container-registry"),
    (re.compile(r"cgr\.dev"), "chainguard"),
]
#: credentialArn: a Secrets Manager secret whose name starts ``ecr-pullthroughcache/``.
CREDENTIAL_ARN = re.compile(
    r"arn:aws[a-z-]*:secretsmanager:[a-zA-Z0-9-:]+:secret:ecr-pullthroughcache/[a-zA-Z0-9/_+=.@-]+"
)


def _prefix(value: str | None, name: str) -> None:
    if value is not None and not (2 <= len(value) <= 30 and PREFIX.fullmatch(value)):
        raise _error(
            "InvalidParameterException",
            f"Invalid parameter at '{name}' failed to satisfy constraint: "
            f"'must match {PREFIX.pattern} and be 2 to 30 characters long'",
        )


class PullThroughCacheBackend:
    """The registry's pull through cache rules (an ECRBackend mixin)."""

    pull_through_cache_rules: Kept[dict[str, Any]] = Kept()

    def _pull_through_cache_rule(self, prefix: str) -> dict[str, Any]:
        rule = self.pull_through_cache_rules.get(prefix)
        if rule is None:
            raise _error(
                "PullThroughCacheRuleNotFoundException",
                f"The pull through cache rule with the ECR repository prefix '{prefix}' does not "
                f"exist in the registry with id '{self.account_id}'",  # type: ignore[attr-defined]
            )
        return rule

    def _check_credential(self, arn: str | None) -> None:
        from moto.secretsmanager.models import secretsmanager_backends

        if arn is None:
            return
        if not CREDENTIAL_ARN.fullmatch(arn):
            raise _error(
                "InvalidParameterException",
                "Invalid parameter at 'credentialArn' failed to satisfy constraint: 'must be "
                "the ARN of a Secrets Manager secret named ecr-pullthroughcache/...'",
            )
        region = arn.split(":")[3]
        secrets = secretsmanager_backends[self.account_id][region].secrets  # type: ignore[attr-defined]
        if arn not in secrets:
            raise _error(
                "SecretNotFoundException",
                "The ARN of the secret specified in the pull through cache rule was not found. "
                "Make sure that the secret exists and try again.",
            )

    def create_pull_through_cache_rule(
        self,
        prefix: str,
        url: str,
        upstream: str | None,
        credential_arn: str | None,
        custom_role_arn: str | None,
        upstream_prefix: str | None,
    ) -> dict[str, Any]:
        _prefix(prefix, "ecrRepositoryPrefix")
        _prefix(upstream_prefix, "upstreamRepositoryPrefix")
        named = next((kind for pattern, kind in UPSTREAMS if pattern.fullmatch(url)), None)
        if named is None or (upstream and upstream != named):
            raise _error(
                "UnsupportedUpstreamRegistryException",
                f"The specified upstream registry '{url}' isn't supported.",
            )
        if upstream_prefix is not None and named != "ecr":
            raise _error(
                "InvalidParameterException",
                "Invalid parameter: 'upstreamRepositoryPrefix' is supported for an ECR upstream "
                "registry only",
            )
        if prefix in self.pull_through_cache_rules:
            raise _error(
                "PullThroughCacheRuleAlreadyExistsException",
                f"A pull through cache rule with the ECR repository prefix '{prefix}' already "
                f"exists in the registry with id '{self.account_id}'",  # type: ignore[attr-defined]
            )
        self._check_credential(credential_arn)
        rule = {
            "ecrRepositoryPrefix": prefix,
            "upstreamRegistryUrl": url,
            "createdAt": _now(),
            "registryId": self.account_id,  # type: ignore[attr-defined]
            "upstreamRegistry": named,
            "credentialArn": credential_arn,
            "customRoleArn": custom_role_arn,
            "upstreamRepositoryPrefix": upstream_prefix,
        }
        self.pull_through_cache_rules[prefix] = {k: v for k, v in rule.items() if v is not None}
        return dict(self.pull_through_cache_rules[prefix])

    def describe_pull_through_cache_rules(self, prefixes: list[str]) -> list[dict[str, Any]]:
        if prefixes:
            return [dict(self._pull_through_cache_rule(p)) for p in prefixes]
        return [dict(r) for r in self.pull_through_cache_rules.values()]

    def update_pull_through_cache_rule(
        self, prefix: str, credential_arn: str | None, custom_role_arn: str | None
    ) -> dict[str, Any]:
        rule = self._pull_through_cache_rule(prefix)
        self._check_credential(credential_arn)
        for key, value in (("credentialArn", credential_arn), ("customRoleArn", custom_role_arn)):
            if value is not None:
                rule[key] = value
        rule["updatedAt"] = _now()
        return dict(rule)

    def delete_pull_through_cache_rule(self, prefix: str) -> dict[str, Any]:
        rule = self._pull_through_cache_rule(prefix)
        del self.pull_through_cache_rules[prefix]
        return rule


class PullThroughCacheResponse:
    """The pull through cache rule actions (an ECRResponse mixin)."""

    def create_pull_through_cache_rule(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        rule = self.ecr_backend.create_pull_through_cache_rule(  # type: ignore[attr-defined]
            get("ecrRepositoryPrefix"),
            get("upstreamRegistryUrl"),
            get("upstreamRegistry"),
            get("credentialArn"),
            get("customRoleArn"),
            get("upstreamRepositoryPrefix"),
        )
        return ActionResult(rule)

    def describe_pull_through_cache_rules(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        found = self.ecr_backend.describe_pull_through_cache_rules(  # type: ignore[attr-defined]
            get("ecrRepositoryPrefixes") or []
        )
        rules, following = one_page(found, get("nextToken"), get("maxResults"))
        answer: dict[str, Any] = {"pullThroughCacheRules": rules}
        if following:
            answer["nextToken"] = following
        return ActionResult(answer)

    def update_pull_through_cache_rule(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        rule = self.ecr_backend.update_pull_through_cache_rule(  # type: ignore[attr-defined]
            get("ecrRepositoryPrefix"), get("credentialArn"), get("customRoleArn")
        )
        return ActionResult(rule)

    def delete_pull_through_cache_rule(self) -> Any:
        from moto.core.responses import ActionResult

        rule = self.ecr_backend.delete_pull_through_cache_rule(  # type: ignore[attr-defined]
            self._get_param("ecrRepositoryPrefix")  # type: ignore[attr-defined]
        )
        return ActionResult(rule)


@behaviour(
    BEHAVIOURS,
    "ecr.pull-through-cache-rule",
    does="CreatePullThroughCacheRule keeps a rule (its upstream registry named from the URL, its "
    "credential secret checked), DescribePullThroughCacheRules returns it, "
    "UpdatePullThroughCacheRule changes its credential or role and DeletePullThroughCacheRule "
    "removes it; a missing rule is PullThroughCacheRuleNotFoundException",
    reference=_API + "API_CreatePullThroughCacheRule.html",
    test=_TESTS + "test_pull_through_cache_rules_are_kept",
)
def _pull_through_cache_rule() -> None:
    from moto.ecr.models import ECRBackend
    from moto.ecr.responses import ECRResponse

    graft(PullThroughCacheBackend, onto=ECRBackend)
    graft(PullThroughCacheResponse, onto=ECRResponse)


#: A repository creation template's prefix (the API's Prefix pattern).
TEMPLATE_PREFIX = re.compile(
    r"([a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*/?|ROOT)"
)
#: CreateRepositoryCreationTemplate parameters a template keeps as they are given.
TEMPLATE_FIELDS = (
    "description",
    "encryptionConfiguration",
    "resourceTags",
    "imageTagMutability",
    "imageTagMutabilityExclusionFilters",
    "repositoryPolicy",
    "lifecyclePolicy",
    "appliedFor",
    "customRoleArn",
)


def _check_template(fields: dict[str, Any]) -> None:
    for name in ("repositoryPolicy", "lifecyclePolicy"):
        if fields.get(name):
            try:
                json.loads(fields[name])
            except ValueError:
                raise _error(
                    "InvalidParameterException",
                    f"Invalid parameter at '{name}' failed to satisfy constraint: "
                    "'Invalid JSON policy'",
                ) from None
    applied = fields.get("appliedFor")
    if applied is not None and (
        not applied or set(applied) - {"REPLICATION", "PULL_THROUGH_CACHE", "CREATE_ON_PUSH"}
    ):
        raise _error(
            "ValidationException",
            "appliedFor must name one or more of REPLICATION, PULL_THROUGH_CACHE, CREATE_ON_PUSH",
        )


class CreationTemplateBackend:
    """The registry's repository creation templates (an ECRBackend mixin)."""

    repository_creation_templates: Kept[dict[str, Any]] = Kept()

    def _creation_template(self, prefix: str) -> dict[str, Any]:
        template = self.repository_creation_templates.get(prefix)
        if template is None:
            raise _error(
                "TemplateNotFoundException",
                f"The repository creation template with prefix '{prefix}' does not exist in "
                f"the registry with id '{self.account_id}'",  # type: ignore[attr-defined]
            )
        return template

    def create_repository_creation_template(
        self, prefix: str, fields: dict[str, Any]
    ) -> dict[str, Any]:
        if not TEMPLATE_PREFIX.fullmatch(prefix or ""):
            raise _error(
                "InvalidParameterException",
                f"Invalid parameter at 'prefix' failed to satisfy constraint: "
                f"'must match {TEMPLATE_PREFIX.pattern}'",
            )
        if fields.get("appliedFor") is None:
            fields["appliedFor"] = []
        _check_template(fields)
        if prefix in self.repository_creation_templates:
            raise _error(
                "TemplateAlreadyExistsException",
                f"The repository creation template with prefix '{prefix}' already exists in "
                f"the registry with id '{self.account_id}'",  # type: ignore[attr-defined]
            )
        now = _now()
        template = {
            "prefix": prefix,
            # What AWS fills in when they are not given.
            "encryptionConfiguration": {"encryptionType": "AES256"},
            "imageTagMutability": "MUTABLE",
            "resourceTags": [],
            **{k: v for k, v in fields.items() if v is not None},
            "createdAt": now,
            "updatedAt": now,
        }
        self.repository_creation_templates[prefix] = template
        return dict(template)

    def describe_repository_creation_templates(self, prefixes: list[str]) -> list[Any]:
        every = self.repository_creation_templates
        return [dict(every[p]) for p in prefixes if p in every] if prefixes else [
            dict(t) for t in every.values()
        ]  # fmt: skip

    def update_repository_creation_template(
        self, prefix: str, fields: dict[str, Any]
    ) -> dict[str, Any]:
        template = self._creation_template(prefix)
        given = {k: v for k, v in fields.items() if v is not None}
        _check_template(given)
        template.update(given, updatedAt=_now())
        return dict(template)

    def delete_repository_creation_template(self, prefix: str) -> dict[str, Any]:
        template = self._creation_template(prefix)
        del self.repository_creation_templates[prefix]
        return template


class CreationTemplateResponse:
    """The repository creation template actions (an ECRResponse mixin)."""

    def _template_fields(self) -> dict[str, Any]:
        return {name: self._get_param(name) for name in TEMPLATE_FIELDS}  # type: ignore[attr-defined]

    def _template_answer(self, template: dict[str, Any]) -> Any:
        from moto.core.responses import ActionResult

        registry = self.ecr_backend.account_id  # type: ignore[attr-defined]
        return ActionResult({"registryId": registry, "repositoryCreationTemplate": template})

    def create_repository_creation_template(self) -> Any:
        template = self.ecr_backend.create_repository_creation_template(  # type: ignore[attr-defined]
            self._get_param("prefix"),  # type: ignore[attr-defined]
            self._template_fields(),
        )
        return self._template_answer(template)

    def describe_repository_creation_templates(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        found = self.ecr_backend.describe_repository_creation_templates(  # type: ignore[attr-defined]
            get("prefixes") or []
        )
        templates, following = one_page(found, get("nextToken"), get("maxResults"))
        answer: dict[str, Any] = {
            "registryId": self.ecr_backend.account_id,  # type: ignore[attr-defined]
            "repositoryCreationTemplates": templates,
        }
        if following:
            answer["nextToken"] = following
        return ActionResult(answer)

    def update_repository_creation_template(self) -> Any:
        template = self.ecr_backend.update_repository_creation_template(  # type: ignore[attr-defined]
            self._get_param("prefix"),  # type: ignore[attr-defined]
            self._template_fields(),
        )
        return self._template_answer(template)

    def delete_repository_creation_template(self) -> Any:
        template = self.ecr_backend.delete_repository_creation_template(  # type: ignore[attr-defined]
            self._get_param("prefix")  # type: ignore[attr-defined]
        )
        return self._template_answer(template)


@behaviour(
    BEHAVIOURS,
    "ecr.repository-creation-template",
    does="CreateRepositoryCreationTemplate keeps a template (AES256 encryption and MUTABLE tags "
    "unless given), DescribeRepositoryCreationTemplates returns it, "
    "UpdateRepositoryCreationTemplate changes what it is given and "
    "DeleteRepositoryCreationTemplate removes it; a missing one is TemplateNotFoundException",
    reference=_API + "API_CreateRepositoryCreationTemplate.html",
    test=_TESTS + "test_repository_creation_templates_are_kept",
)
def _repository_creation_template() -> None:
    from moto.ecr.models import ECRBackend
    from moto.ecr.responses import ECRResponse

    graft(CreationTemplateBackend, onto=ECRBackend)
    graft(CreationTemplateResponse, onto=ECRResponse)
