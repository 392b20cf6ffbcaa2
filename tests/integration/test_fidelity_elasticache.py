"""The fidelity layer's ElastiCache behaviours, asked through boto3 of the embedded server.

As in ``test_fidelity_ec2.py``: the session's moto must answer as the
ElastiCache API reference says (``pytest_converge/emulator/fidelity/elasticache.py``
names the pages), and a moto with the layer off (``raw_moto``) still answers
as moto 5.2 does; when it no longer does, retire the behaviour. A terraform
run on aws 5.100 shows the claim: the module converges.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from botocore.parsers import ResponseParserError

MODULES = Path(__file__).resolve().parents[1] / "modules"


def retire(name: str) -> str:
    return f"moto {version('moto')} answers so itself: retire the fidelity behaviour {name}"


def _error(call: Any, **kwargs: Any) -> tuple[str, int]:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    response = caught.value.response
    return str(response["Error"]["Code"]), int(response["ResponseMetadata"]["HTTPStatusCode"])


def _parameter_group(emulator: Any) -> dict[str, Any]:
    cache = emulator.client("elasticache")
    seen: dict[str, Any] = {}
    try:
        created = cache.create_cache_parameter_group(
            CacheParameterGroupName="Ex-Group",
            CacheParameterGroupFamily="redis7",
            Description="ex group",
            Tags=[{"Key": "Example", "Value": "fidelity"}],
        )["CacheParameterGroup"]
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"create": "not implemented"}
    arn = created["ARN"]
    seen["created"] = created
    [seen["described"]] = cache.describe_cache_parameter_groups(CacheParameterGroupName="ex-group")[
        "CacheParameterGroups"
    ]
    names = [g["CacheParameterGroupName"] for g in cache.describe_cache_parameter_groups()[
        "CacheParameterGroups"]]  # fmt: skip
    seen["defaults"] = {"default.redis7", "default.redis7.cluster.on", "ex-group"} <= set(names)
    cache.modify_cache_parameter_group(
        CacheParameterGroupName="ex-group",
        ParameterNameValues=[
            {"ParameterName": "latency-tracking", "ParameterValue": "yes"},
            {"ParameterName": "maxmemory-policy", "ParameterValue": "allkeys-lru"},
        ],
    )

    def user() -> list[tuple[str, str, str]]:
        found = cache.describe_cache_parameters(CacheParameterGroupName="ex-group", Source="user")
        return [(p["ParameterName"], p["ParameterValue"], p["Source"]) for p in found["Parameters"]]

    seen["user"] = user()
    every = cache.describe_cache_parameters(CacheParameterGroupName="ex-group")["Parameters"]
    seen["timeout"] = next(p for p in every if p["ParameterName"] == "timeout")["ParameterValue"]
    cache.reset_cache_parameter_group(
        CacheParameterGroupName="ex-group",
        ParameterNameValues=[{"ParameterName": "latency-tracking"}],
    )
    seen["after reset"] = user()
    cache.add_tags_to_resource(ResourceName=arn, Tags=[{"Key": "Team", "Value": "cache"}])
    cache.remove_tags_from_resource(ResourceName=arn, TagKeys=["Example"])
    seen["tags"] = cache.list_tags_for_resource(ResourceName=arn)["TagList"]
    seen["default modify"] = _error(
        cache.modify_cache_parameter_group,
        CacheParameterGroupName="default.redis7",
        ParameterNameValues=[{"ParameterName": "timeout", "ParameterValue": "30"}],
    )
    cache.delete_cache_parameter_group(CacheParameterGroupName="ex-group")
    missing = {"CacheParameterGroupName": "ex-group"}
    seen["cluster on a missing group"] = _error(
        cache.create_replication_group,
        ReplicationGroupId="ex-group",
        ReplicationGroupDescription="ex",
        **missing,
    )
    seen["missing"] = [
        _error(cache.describe_cache_parameter_groups, **missing),
        _error(cache.describe_cache_parameters, **missing),
        _error(cache.modify_cache_parameter_group, **missing, ParameterNameValues=[]),
        _error(cache.delete_cache_parameter_group, **missing),
        _error(cache.list_tags_for_resource, ResourceName=arn),
    ]
    return seen


def test_a_cache_parameter_group_is_kept(emulator, raw_moto) -> None:
    seen = _parameter_group(emulator)
    account = seen["created"]["ARN"].split(":")[4]
    arn = f"arn:aws:elasticache:us-east-1:{account}:parametergroup:ex-group"
    group = {
        "CacheParameterGroupName": "ex-group",
        "CacheParameterGroupFamily": "redis7",
        "Description": "ex group",
        "IsGlobal": False,
        "ARN": arn,
    }
    not_found = ("CacheParameterGroupNotFound", 404)
    assert seen == {
        "created": group,
        "described": group,
        "defaults": True,
        "user": [("latency-tracking", "yes", "user"), ("maxmemory-policy", "allkeys-lru", "user")],
        "timeout": "0",
        "after reset": [("maxmemory-policy", "allkeys-lru", "user")],
        "tags": [{"Key": "Team", "Value": "cache"}],
        "default modify": ("InvalidParameterValue", 400),
        "missing": [not_found] * 5,
        "cluster on a missing group": not_found,
    }
    assert _parameter_group(raw_moto) == {"create": "not implemented"}, retire(
        "elasticache.cache-parameter-groups"
    )


def _user_group(emulator: Any) -> dict[str, Any]:
    cache = emulator.client("elasticache")
    for user_id, name in (("ex-default", "default"), ("ex-app", "app")):
        cache.create_user(
            UserId=user_id,
            UserName=name,
            Engine="redis",
            AccessString="on ~* +@all",
            NoPasswordRequired=True,
        )
    seen: dict[str, Any] = {}
    try:
        created = cache.create_user_group(
            UserGroupId="ex-group",
            Engine="REDIS",
            UserIds=["ex-default"],
            Tags=[{"Key": "Example", "Value": "fidelity"}],
        )
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"create": "not implemented"}
    seen["created"] = (created["Status"], created["Engine"], created["UserIds"])
    seen["no default user"] = _error(
        cache.create_user_group, UserGroupId="other", Engine="redis", UserIds=["ex-app"]
    )
    modified = cache.modify_user_group(UserGroupId="ex-group", UserIdsToAdd=["ex-app"])
    seen["modified"] = modified["Status"]
    [group] = cache.describe_user_groups(UserGroupId="ex-group")["UserGroups"]
    seen["described"] = (group["Status"], sorted(group["UserIds"]))
    [app] = cache.describe_users(UserId="ex-app")["Users"]
    seen["user's groups"] = app["UserGroupIds"]
    seen["tags"] = cache.list_tags_for_resource(ResourceName=group["ARN"])["TagList"]
    seen["unknown user"] = _error(
        cache.modify_user_group, UserGroupId="ex-group", UserIdsToAdd=["nobody"]
    )
    seen["deleted"] = cache.delete_user_group(UserGroupId="ex-group")["Status"]
    seen["missing"] = [
        _error(cache.describe_user_groups, UserGroupId="ex-group"),
        _error(cache.modify_user_group, UserGroupId="ex-group", UserIdsToRemove=["ex-app"]),
        _error(cache.delete_user_group, UserGroupId="ex-group"),
        _error(cache.list_tags_for_resource, ResourceName=group["ARN"]),
    ]
    [app] = cache.describe_users(UserId="ex-app")["Users"]
    seen["user's groups after"] = app["UserGroupIds"]
    return seen


def test_a_user_group_is_kept(emulator, raw_moto) -> None:
    assert _user_group(emulator) == {
        "created": ("creating", "redis", ["ex-default"]),
        "no default user": ("DefaultUserRequired", 400),
        "modified": "modifying",
        "described": ("active", ["ex-app", "ex-default"]),
        "user's groups": ["ex-group"],
        "tags": [{"Key": "Example", "Value": "fidelity"}],
        "unknown user": ("UserNotFound", 404),
        "deleted": "deleting",
        "missing": [("UserGroupNotFound", 404)] * 4,
        "user's groups after": [],
    }
    assert _user_group(raw_moto) == {"create": "not implemented"}, retire("elasticache.user-groups")


def _members(emulator: Any) -> dict[str, Any]:
    cache = emulator.client("elasticache")
    cache.create_replication_group(
        ReplicationGroupId="ex-group",
        ReplicationGroupDescription="ex",
        Engine="redis",
        EngineVersion="7.1",
        CacheNodeType="cache.t4g.small",
        NumCacheClusters=2,
        CacheParameterGroupName="default.redis7",
        SecurityGroupIds=["sg-0123456789abcdef0"],
        TransitEncryptionEnabled=True,
        AuthToken="PickSomethingMoreSecure123!",
    )
    [group] = cache.describe_replication_groups(ReplicationGroupId="ex-group")["ReplicationGroups"]

    def clusters() -> list[tuple[Any, ...]]:
        return [
            (
                c["CacheClusterId"],
                c.get("ReplicationGroupId"),
                c["EngineVersion"],
                c.get("CacheParameterGroup", {}).get("CacheParameterGroupName"),
                [g["SecurityGroupId"] for g in c.get("SecurityGroups", [])],
            )
            for c in cache.describe_cache_clusters()["CacheClusters"]
        ]

    seen: dict[str, Any] = {"members": group["MemberClusters"], "clusters": clusters()}
    seen["encryption"] = [
        (
            c.get("AuthTokenEnabled"),
            c.get("TransitEncryptionEnabled"),
            c.get("TransitEncryptionMode"),
        )
        for c in cache.describe_cache_clusters()["CacheClusters"]
    ]
    cache.modify_replication_group(
        ReplicationGroupId="ex-group", CacheParameterGroupName="default.redis7.cluster.on"
    )
    seen["modified"] = clusters()
    cache.delete_replication_group(ReplicationGroupId="ex-group")
    try:
        [left] = cache.describe_replication_groups(ReplicationGroupId="ex-group")[
            "ReplicationGroups"
        ]
        seen["deleted"] = (left["Status"], clusters())
    except ClientError as exc:
        seen["deleted"] = (exc.response["Error"]["Code"], clusters())
    return seen


def test_a_replication_groups_members_are_cache_clusters(emulator, raw_moto) -> None:
    sg = ["sg-0123456789abcdef0"]
    members = ["ex-group-001", "ex-group-002"]
    assert _members(emulator) == {
        "members": members,
        "clusters": [(m, "ex-group", "7.1.0", "default.redis7", sg) for m in members],
        "encryption": [(True, True, "required")] * 2,
        "modified": [(m, "ex-group", "7.1.0", "default.redis7.cluster.on", sg) for m in members],
        "deleted": ("ReplicationGroupNotFoundFault", []),
    }
    raw = _members(raw_moto)
    assert (raw["members"], raw["clusters"], raw["deleted"]) == (
        ["ex-group-001"],
        [],
        ("deleting", []),
    ), retire("elasticache.replication-group-member-clusters")


def _serverless(emulator: Any) -> dict[str, Any]:
    cache = emulator.client("elasticache")
    try:
        created = cache.create_serverless_cache(
            ServerlessCacheName="ex-cache",
            Engine="redis",
            CacheUsageLimits={"DataStorage": {"Maximum": 2, "Unit": "GB"}},
            Tags=[{"Key": "Example", "Value": "fidelity"}],
        )["ServerlessCache"]
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"create": "not implemented"}
    seen: dict[str, Any] = {"created": created["Status"]}
    [found] = cache.describe_serverless_caches(ServerlessCacheName="ex-cache")["ServerlessCaches"]
    seen["described"] = {
        k: found.get(k)
        for k in ("Status", "Engine", "MajorEngineVersion", "FullEngineVersion",
                  "CacheUsageLimits", "SnapshotRetentionLimit")
    }  # fmt: skip
    seen["endpoints"] = (found["Endpoint"]["Port"], found["ReaderEndpoint"]["Port"])
    seen["network"] = (len(found["SubnetIds"]) > 0, len(found["SecurityGroupIds"]))
    modified = cache.modify_serverless_cache(
        ServerlessCacheName="ex-cache", Description="changed", SnapshotRetentionLimit=3
    )["ServerlessCache"]
    seen["modified"] = (
        modified["Status"],
        modified["Description"],
        modified["SnapshotRetentionLimit"],
    )
    seen["tags"] = cache.list_tags_for_resource(ResourceName=found["ARN"])["TagList"]
    seen["deleted"] = cache.delete_serverless_cache(ServerlessCacheName="ex-cache")[
        "ServerlessCache"
    ]["Status"]
    missing = "ServerlessCacheNotFoundFault", 404
    seen["missing"] = [
        _error(cache.describe_serverless_caches, ServerlessCacheName="ex-cache"),
        _error(cache.modify_serverless_cache, ServerlessCacheName="ex-cache", Description="x"),
        _error(cache.delete_serverless_cache, ServerlessCacheName="ex-cache"),
        _error(cache.list_tags_for_resource, ResourceName=found["ARN"]),
    ] == [missing] * 4
    return seen


def test_a_serverless_cache_is_kept(emulator, raw_moto) -> None:
    assert _serverless(emulator) == {
        "created": "creating",
        "described": {
            "Status": "available",
            "Engine": "redis",
            "MajorEngineVersion": "7",
            "FullEngineVersion": "7.1",
            "CacheUsageLimits": {"DataStorage": {"Maximum": 2, "Unit": "GB"}},
            "SnapshotRetentionLimit": 0,
        },
        "endpoints": (6379, 6380),
        "network": (True, 1),
        "modified": ("modifying", "changed", 3),
        "tags": [{"Key": "Example", "Value": "fidelity"}],
        "deleted": "deleting",
        "missing": True,
    }
    assert _serverless(raw_moto) == {"create": "not implemented"}, retire(
        "elasticache.serverless-caches"
    )


def _subnet_group(emulator: Any) -> dict[str, Any]:
    ec2, cache = emulator.client("ec2"), emulator.client("elasticache")
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    one, two = (
        ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.0.{n}.0/24")["Subnet"]["SubnetId"]
        for n in (1, 2)
    )
    cache.create_cache_subnet_group(
        CacheSubnetGroupName="ex-subnets", CacheSubnetGroupDescription="ex", SubnetIds=[one]
    )
    try:
        cache.modify_cache_subnet_group(
            CacheSubnetGroupName="ex-subnets",
            CacheSubnetGroupDescription="changed",
            SubnetIds=[one, two],
        )
    except ResponseParserError:  # moto 5.2: 500, the action is not implemented
        return {"modify": "not implemented"}
    [group] = cache.describe_cache_subnet_groups(CacheSubnetGroupName="ex-subnets")[
        "CacheSubnetGroups"
    ]
    seen: dict[str, Any] = {
        "modified": (
            group["CacheSubnetGroupDescription"],
            sorted(s["SubnetIdentifier"] for s in group["Subnets"]) == sorted([one, two]),
        )
    }
    cache.create_replication_group(
        ReplicationGroupId="ex-group",
        ReplicationGroupDescription="ex",
        CacheSubnetGroupName="ex-subnets",
    )
    seen["in use"] = _error(cache.delete_cache_subnet_group, CacheSubnetGroupName="ex-subnets")
    cache.delete_replication_group(ReplicationGroupId="ex-group")
    cache.delete_cache_subnet_group(CacheSubnetGroupName="ex-subnets")
    seen["missing"] = [
        _error(cache.describe_cache_subnet_groups, CacheSubnetGroupName="ex-subnets"),
        _error(cache.delete_cache_subnet_group, CacheSubnetGroupName="ex-subnets"),
    ]
    return seen


def test_a_cache_subnet_group_is_changed_and_deleted(emulator, raw_moto) -> None:
    missing = ("CacheSubnetGroupNotFoundFault", 400)
    assert _subnet_group(emulator) == {
        "modified": ("changed", True),
        "in use": ("CacheSubnetGroupInUse", 400),
        "missing": [missing, missing],
    }
    assert _subnet_group(raw_moto) == {"modify": "not implemented"}, retire(
        "elasticache.cache-subnet-group-changes"
    )


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_a_replication_group_on_its_parameter_group_converges_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    """tests/modules/fidelity_elasticache on aws 5.100: a parameter group with two
    parameters and tags, a replication group on it, two users, a user group, an
    association and a serverless cache of that user group; the second plan is empty,
    and ``terraform destroy`` deletes every one."""
    stack = converge(provider_line.pin(MODULES / "fidelity_elasticache"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    cache = converge_emulator.client("elasticache", region="eu-west-1")
    [cluster, _] = cache.describe_cache_clusters()["CacheClusters"]
    assert cluster["CacheParameterGroup"]["CacheParameterGroupName"] == "ex-replication-group"
    stack.workspace.terraform("destroy", "-auto-approve", "-input=false", check=True, timeout=600)
    groups = cache.describe_cache_parameter_groups()["CacheParameterGroups"]
    assert [g for g in groups if not g["CacheParameterGroupName"].startswith("default.")] == []
    assert cache.describe_cache_clusters()["CacheClusters"] == []
    assert cache.describe_user_groups()["UserGroups"] == []
    assert cache.describe_serverless_caches()["ServerlessCaches"] == []


def _authentication_type(emulator: Any) -> str:
    cache = emulator.client("elasticache")
    cache.create_user(
        UserId="open",
        UserName="open",
        Engine="redis",
        AccessString="on ~* +@all",
        AuthenticationMode={"Type": "no-password-required"},
    )
    [user] = cache.describe_users(UserId="open")["Users"]
    return str(user["Authentication"]["Type"])


def test_a_user_without_a_password_is_described_as_no_password(emulator, raw_moto) -> None:
    assert _authentication_type(emulator) == "no-password"
    assert _authentication_type(raw_moto) == "no-password-required", retire(
        "elasticache.user-authentication-type"
    )


def _modified_user(emulator: Any) -> list[Any]:
    cache = emulator.client("elasticache")
    cache.create_user(
        UserId="app",
        UserName="app",
        Engine="redis",
        AccessString="on ~app:* +@read",
        AuthenticationMode={"Type": "no-password-required"},
    )
    try:
        cache.modify_user(
            UserId="app",
            AccessString="on ~app:* +@all",
            AuthenticationMode={"Type": "password", "Passwords": ["a" * 16, "b" * 16]},
        )
    except ResponseParserError:  # moto 5.2: an HTML 500, the operation unknown
        return ["500"]
    [user] = cache.describe_users(UserId="app")["Users"]
    missing = _error(cache.modify_user, UserId="nobody", AccessString="on")
    return [user["AccessString"], user["Authentication"], missing]


def test_a_user_is_modified(emulator, raw_moto) -> None:
    assert _modified_user(emulator) == [
        "on ~app:* +@all",
        {"Type": "password", "PasswordCount": 2},
        ("UserNotFound", 404),
    ]
    assert _modified_user(raw_moto) == ["500"], retire("elasticache.modify-user")
