"""ECR's registry settings (``fidelity/ecr.py``), asked through boto3 of the embedded server.

As in ``test_fidelity_services.py``: the session's moto answers as the ECR API
reference says, and a moto with the layer off (``raw_moto``) still answers as
moto 5.2 does; when it no longer does, retire the behaviour. Terraform shows
the claim: the registry settings of terraform-aws-modules/ecr's complete
example converge on aws 5.x.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

MODULES = Path(__file__).resolve().parents[1] / "modules"
ACCOUNT = "123456789012"


def _code(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return str(caught.value.response["Error"]["Code"])


def _policy(*actions: str) -> str:
    return json.dumps({
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "pull-through",
            "Effect": "Allow",
            "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:root"},
            "Action": list(actions),
            "Resource": f"arn:aws:ecr:us-east-1:{ACCOUNT}:repository/dockerhub/*",
        }],
    })  # fmt: skip


def test_a_registry_policy_may_grant_any_ecr_action(emulator, raw_moto) -> None:
    ecr = emulator.client("ecr")
    assert _code(ecr.get_registry_policy) == "RegistryPolicyNotFoundException"
    policy = _policy("ecr:CreateRepository", "ecr:BatchImportUpstreamImage")
    assert ecr.put_registry_policy(policyText=policy)["registryId"] == ACCOUNT
    assert json.loads(ecr.get_registry_policy()["policyText"]) == json.loads(policy)
    replaced = _policy("ecr:ReplicateImage")
    ecr.put_registry_policy(policyText=replaced)
    assert json.loads(ecr.get_registry_policy()["policyText"]) == json.loads(replaced)
    # Only ECR's own actions belong in a registry policy.
    assert _code(ecr.put_registry_policy, policyText=_policy("s3:GetObject")) == (
        "InvalidParameterException"
    )
    ecr.delete_registry_policy()
    assert _code(ecr.delete_registry_policy) == "RegistryPolicyNotFoundException"
    assert _code(
        raw_moto.client("ecr").put_registry_policy, policyText=policy
    ) == "InvalidParameterException"  # fmt: skip


def _rule(*regions: str, prefix: str | None = None) -> dict[str, Any]:
    rule: dict[str, Any] = {"destinations": [{"region": r, "registryId": ACCOUNT} for r in regions]}
    if prefix:
        rule["repositoryFilters"] = [{"filter": prefix, "filterType": "PREFIX_MATCH"}]
    return rule


def test_replication_keeps_more_than_one_rule(emulator, raw_moto) -> None:
    ecr = emulator.client("ecr")
    rules = [_rule("us-west-2", "eu-central-1", prefix="prod"), _rule("eu-west-1")]
    ecr.put_replication_configuration(replicationConfiguration={"rules": rules})
    assert ecr.describe_registry()["replicationConfiguration"] == {"rules": rules}
    # Replacing them with none is how a configuration is removed.
    ecr.put_replication_configuration(replicationConfiguration={"rules": []})
    assert ecr.describe_registry()["replicationConfiguration"] == {"rules": []}
    assert _code(
        ecr.put_replication_configuration, replicationConfiguration={"rules": [_rule("us-east-1")]}
    ) == "InvalidParameterException"  # fmt: skip
    assert _code(
        ecr.put_replication_configuration,
        replicationConfiguration={"rules": [_rule("eu-west-1")] * 11},
    ) == "ValidationException"  # fmt: skip
    assert _code(
        raw_moto.client("ecr").put_replication_configuration,
        replicationConfiguration={"rules": rules},
    ) == "ValidationException"  # fmt: skip


def test_pull_through_cache_rules_are_kept(emulator, raw_moto) -> None:
    ecr = emulator.client("ecr")
    secrets = emulator.client("secretsmanager")
    secret = secrets.create_secret(Name="ecr-pullthroughcache/hub", SecretString="{}")["ARN"]
    created = ecr.create_pull_through_cache_rule(
        ecrRepositoryPrefix="dockerhub", upstreamRegistryUrl="registry-1.docker.io",
        credentialArn=secret,
    )  # fmt: skip
    assert (created["upstreamRegistry"], created["registryId"]) == ("docker-hub", ACCOUNT)
    ecr.create_pull_through_cache_rule(
        ecrRepositoryPrefix="mirror", upstreamRepositoryPrefix="myapp",
        upstreamRegistryUrl=f"{ACCOUNT}.dkr.ecr.us-west-2.amazonaws.com",
    )  # fmt: skip
    [read] = ecr.describe_pull_through_cache_rules(ecrRepositoryPrefixes=["dockerhub"])[
        "pullThroughCacheRules"
    ]
    assert (read["upstreamRegistryUrl"], read["credentialArn"]) == ("registry-1.docker.io", secret)
    assert "upstreamRepositoryPrefix" not in read and "customRoleArn" not in read
    every = ecr.describe_pull_through_cache_rules()["pullThroughCacheRules"]
    assert {r["ecrRepositoryPrefix"]: r.get("upstreamRepositoryPrefix") for r in every} == {
        "dockerhub": None,
        "mirror": "myapp",
    }
    # An update changes the credential or the role, and nothing else.
    other = secrets.create_secret(Name="ecr-pullthroughcache/hub2", SecretString="{}")["ARN"]
    updated = ecr.update_pull_through_cache_rule(
        ecrRepositoryPrefix="dockerhub", credentialArn=other
    )
    assert (updated["credentialArn"], "updatedAt" in updated) == (other, True)
    missing_secret = secret.replace("hub-", "gone-")
    for call, kwargs, code in [
        (ecr.create_pull_through_cache_rule,
         {"ecrRepositoryPrefix": "dockerhub", "upstreamRegistryUrl": "registry-1.docker.io"},
         "PullThroughCacheRuleAlreadyExistsException"),
        (ecr.create_pull_through_cache_rule,
         {"ecrRepositoryPrefix": "elsewhere", "upstreamRegistryUrl": "example.com"},
         "UnsupportedUpstreamRegistryException"),
        (ecr.create_pull_through_cache_rule,
         {"ecrRepositoryPrefix": "hub", "upstreamRegistryUrl": "registry-1.docker.io",
          "credentialArn": missing_secret},
         "SecretNotFoundException"),
        (ecr.describe_pull_through_cache_rules, {"ecrRepositoryPrefixes": ["nope"]},
         "PullThroughCacheRuleNotFoundException"),
        (ecr.update_pull_through_cache_rule,
         {"ecrRepositoryPrefix": "nope", "credentialArn": other},
         "PullThroughCacheRuleNotFoundException"),
    ]:  # fmt: skip
        assert _code(call, **kwargs) == code, (call, kwargs)
    deleted = ecr.delete_pull_through_cache_rule(ecrRepositoryPrefix="dockerhub")
    assert deleted["credentialArn"] == other
    assert _code(ecr.delete_pull_through_cache_rule, ecrRepositoryPrefix="dockerhub") == (
        "PullThroughCacheRuleNotFoundException"
    )
    with pytest.raises(ClientError, match=r"500|not been implemented"):
        raw_moto.client("ecr").describe_pull_through_cache_rules()


LIFECYCLE = json.dumps({"rules": [{
    "rulePriority": 1,
    "selection": {"tagStatus": "any", "countType": "imageCountMoreThan", "countNumber": 30},
    "action": {"type": "expire"},
}]})  # fmt: skip


def test_repository_creation_templates_are_kept(emulator, raw_moto) -> None:
    ecr = emulator.client("ecr")
    created = ecr.create_repository_creation_template(
        prefix="ecr-public", appliedFor=["PULL_THROUGH_CACHE"], lifecyclePolicy=LIFECYCLE,
        resourceTags=[{"Key": "team", "Value": "ops"}],
    )  # fmt: skip
    assert created["registryId"] == ACCOUNT
    template = created["repositoryCreationTemplate"]
    # What AWS fills in when a template leaves them out.
    assert template["encryptionConfiguration"] == {"encryptionType": "AES256"}
    assert template["imageTagMutability"] == "MUTABLE"
    [read] = ecr.describe_repository_creation_templates(prefixes=["ecr-public"])[
        "repositoryCreationTemplates"
    ]
    assert (read["lifecyclePolicy"], read["appliedFor"]) == (LIFECYCLE, ["PULL_THROUGH_CACHE"])
    assert read["resourceTags"] == [{"Key": "team", "Value": "ops"}]
    # An unknown prefix is no error, only no template.
    assert ecr.describe_repository_creation_templates(prefixes=["nope"])[
        "repositoryCreationTemplates"
    ] == []  # fmt: skip
    updated = ecr.update_repository_creation_template(
        prefix="ecr-public", description="public images", imageTagMutability="IMMUTABLE"
    )["repositoryCreationTemplate"]
    assert (updated["description"], updated["imageTagMutability"]) == ("public images", "IMMUTABLE")
    assert updated["lifecyclePolicy"] == LIFECYCLE
    for call, kwargs, code in [
        (ecr.create_repository_creation_template,
         {"prefix": "ecr-public", "appliedFor": ["REPLICATION"]},
         "TemplateAlreadyExistsException"),
        (ecr.create_repository_creation_template,
         {"prefix": "Upper", "appliedFor": ["REPLICATION"]}, "InvalidParameterException"),
        (ecr.create_repository_creation_template,
         {"prefix": "other", "appliedFor": ["REPLICATION"], "repositoryPolicy": "{"},
         "InvalidParameterException"),
        (ecr.update_repository_creation_template, {"prefix": "nope", "description": "x"},
         "TemplateNotFoundException"),
    ]:  # fmt: skip
        assert _code(call, **kwargs) == code, (call, kwargs)
    deleted = ecr.delete_repository_creation_template(prefix="ecr-public")
    assert deleted["repositoryCreationTemplate"]["prefix"] == "ecr-public"
    assert _code(ecr.delete_repository_creation_template, prefix="ecr-public") == (
        "TemplateNotFoundException"
    )
    with pytest.raises(ClientError, match=r"500|not been implemented"):
        raw_moto.client("ecr").describe_repository_creation_templates()


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_the_ecr_registry_settings_converge_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    stack = converge(provider_line.pin(MODULES / "fidelity_ecr"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    ecr = converge_emulator.client("ecr", region="eu-west-1")
    rules = ecr.describe_pull_through_cache_rules()["pullThroughCacheRules"]
    assert {r["ecrRepositoryPrefix"]: r["upstreamRegistry"] for r in rules} == {
        "ecr-public": "ecr-public",
        "dockerhub": "docker-hub",
        "ecr-complete": "ecr",
    }
    [template] = ecr.describe_repository_creation_templates()["repositoryCreationTemplates"]
    assert (template["prefix"], template["appliedFor"]) == ("ecr-public", ["PULL_THROUGH_CACHE"])
