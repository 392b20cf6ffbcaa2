"""The fidelity layer's MemoryDB behaviours, asked through boto3 of the embedded server.

As in ``test_fidelity_ec2.py``: the session's moto must answer as the MemoryDB
API reference says (``pytest_converge/emulator/fidelity/memorydb.py`` names the
pages), and a moto with the layer off (``raw_moto``) still answers as moto 5.2
does; when it no longer does, retire the behaviour. A terraform run on aws
5.100 shows the claim: the module converges.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

MODULES = Path(__file__).resolve().parents[1] / "modules"


def retire(name: str) -> str:
    return f"moto {version('moto')} answers so itself: retire the fidelity behaviour {name}"


def _error(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return str(caught.value.response["Error"]["Code"])


def _not_implemented(call: Any, **kwargs: Any) -> bool:
    """moto 5.2 answers an operation it lacks with an error (a 500 or an unknown action)."""
    try:
        call(**kwargs)
    except Exception:
        return True
    return False


def _acl(emulator: Any) -> dict[str, Any]:
    db = emulator.client("memorydb")
    db.create_user(
        UserName="admin",
        AccessString="on ~* &* +@all",
        AuthenticationMode={"Type": "password", "Passwords": ["YouShouldPickAStrongOne987!"]},
    )
    if _not_implemented(db.describe_acls):
        return {"describe": "not implemented"}
    seen: dict[str, Any] = {"open-access": db.describe_acls(ACLName="open-access")["ACLs"]}
    created = db.create_acl(
        ACLName="ex-acl", UserNames=["admin"], Tags=[{"Key": "Example", "Value": "fidelity"}]
    )["ACL"]
    seen["created"] = (created["Status"], created["UserNames"])
    [seen["admin's ACLs"]] = [u["ACLNames"] for u in db.describe_users(UserName="admin")["Users"]]
    db.update_acl(ACLName="ex-acl", UserNamesToRemove=["admin"])
    [acl] = db.describe_acls(ACLName="ex-acl")["ACLs"]
    seen["updated"] = (acl["Status"], acl["UserNames"], acl["Clusters"])
    seen["tags"] = db.list_tags(ResourceArn=acl["ARN"])["TagList"]
    seen["unknown user"] = _error(db.update_acl, ACLName="ex-acl", UserNamesToAdd=["nobody"])
    seen["deleted"] = db.delete_acl(ACLName="ex-acl")["ACL"]["Status"]
    seen["cluster on a missing ACL"] = _error(
        db.create_cluster, ClusterName="ex", NodeType="db.t4g.small", ACLName="ex-acl"
    )
    seen["missing"] = [
        _error(db.describe_acls, ACLName="ex-acl"),
        _error(db.update_acl, ACLName="ex-acl", UserNamesToAdd=["admin"]),
        _error(db.delete_acl, ACLName="ex-acl"),
        _error(db.list_tags, ResourceArn=acl["ARN"]),
    ]
    return seen


def test_an_acl_is_kept(emulator, raw_moto) -> None:
    seen = _acl(emulator)
    [open_access] = seen.pop("open-access")
    assert (open_access["Status"], open_access["UserNames"]) == ("active", ["default"])
    assert seen == {
        "created": ("creating", ["admin"]),
        "admin's ACLs": ["ex-acl"],
        "updated": ("active", [], []),
        "tags": [{"Key": "Example", "Value": "fidelity"}],
        "unknown user": "UserNotFoundFault",
        "deleted": "deleting",
        "cluster on a missing ACL": "ACLNotFoundFault",
        "missing": ["ACLNotFoundFault"] * 4,
    }
    assert _acl(raw_moto) == {"describe": "not implemented"}, retire("memorydb.acls")


def _parameter_group(emulator: Any) -> dict[str, Any]:
    db = emulator.client("memorydb")
    if _not_implemented(db.describe_parameter_groups):
        return {"describe": "not implemented"}
    seen: dict[str, Any] = {}
    names = {g["Name"] for g in db.describe_parameter_groups()["ParameterGroups"]}
    seen["defaults"] = {"default.memorydb-redis7", "default.memorydb-valkey7"} <= names
    created = db.create_parameter_group(
        ParameterGroupName="ex-group",
        Family="memorydb_redis7",
        Description="ex group",
        Tags=[{"Key": "Example", "Value": "fidelity"}],
    )["ParameterGroup"]
    seen["created"] = (created["Name"], created["Family"], created["Description"])
    db.update_parameter_group(
        ParameterGroupName="ex-group",
        ParameterNameValues=[
            {"ParameterName": "activedefrag", "ParameterValue": "yes"},
            {"ParameterName": "maxmemory-policy", "ParameterValue": "allkeys-lru"},
        ],
    )

    def values(name: str) -> dict[str, str]:
        found = db.describe_parameters(ParameterGroupName=name)["Parameters"]
        return {
            p["Name"]: p["Value"]
            for p in found
            if p["Name"] in ("activedefrag", "maxmemory-policy")
        }

    seen["updated"] = values("ex-group")
    seen["default"] = values("default.memorydb-redis7")
    db.reset_parameter_group(ParameterGroupName="ex-group", ParameterNames=["activedefrag"])
    seen["reset"] = values("ex-group")
    seen["tags"] = db.list_tags(ResourceArn=created["ARN"])["TagList"]
    seen["default change"] = _error(
        db.update_parameter_group,
        ParameterGroupName="default.memorydb-redis7",
        ParameterNameValues=[{"ParameterName": "timeout", "ParameterValue": "30"}],
    )
    db.delete_parameter_group(ParameterGroupName="ex-group")
    seen["cluster on a missing group"] = _error(
        db.create_cluster,
        ClusterName="ex",
        NodeType="db.t4g.small",
        ACLName="open-access",
        ParameterGroupName="ex-group",
    )
    seen["missing"] = [
        _error(db.describe_parameter_groups, ParameterGroupName="ex-group"),
        _error(db.describe_parameters, ParameterGroupName="ex-group"),
        _error(db.update_parameter_group, ParameterGroupName="ex-group", ParameterNameValues=[]),
        _error(db.delete_parameter_group, ParameterGroupName="ex-group"),
        _error(db.list_tags, ResourceArn=created["ARN"]),
    ]
    return seen


def test_a_parameter_group_is_kept(emulator, raw_moto) -> None:
    assert _parameter_group(emulator) == {
        "defaults": True,
        "created": ("ex-group", "memorydb_redis7", "ex group"),
        "updated": {"activedefrag": "yes", "maxmemory-policy": "allkeys-lru"},
        "default": {"activedefrag": "no", "maxmemory-policy": "noeviction"},
        "reset": {"activedefrag": "no", "maxmemory-policy": "allkeys-lru"},
        "tags": [{"Key": "Example", "Value": "fidelity"}],
        "default change": "InvalidParameterValueException",
        "cluster on a missing group": "ParameterGroupNotFoundFault",
        "missing": ["ParameterGroupNotFoundFault"] * 5,
    }
    assert _parameter_group(raw_moto) == {"describe": "not implemented"}, retire(
        "memorydb.parameter-groups"
    )


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_an_acl_and_a_parameter_group_converge_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    """tests/modules/fidelity_memorydb on aws 5.100: a user, an ACL holding it and a
    parameter group with one parameter, each tagged; the second plan is empty, and
    ``terraform destroy`` deletes every one."""
    stack = converge(provider_line.pin(MODULES / "fidelity_memorydb"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    stack.workspace.terraform("destroy", "-auto-approve", "-input=false", check=True, timeout=600)
    db = converge_emulator.client("memorydb", region="eu-west-1")
    assert [a["Name"] for a in db.describe_acls()["ACLs"]] == ["open-access"]
    groups = db.describe_parameter_groups()["ParameterGroups"]
    assert [g for g in groups if not g["Name"].startswith("default.")] == []
