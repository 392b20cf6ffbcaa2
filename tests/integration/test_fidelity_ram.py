"""AWS RAM's resource shares (``fidelity/ram.py``), asked through boto3 of the embedded server.

As in ``test_fidelity_services.py``: the session's moto answers as the RAM API
reference says, and a moto with the layer off (``raw_moto``) still answers as
moto 5.2 does; when it no longer does, retire the behaviour. Terraform shows
the claim: a subnet shared with another account converges on aws 5.x.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

MODULES = Path(__file__).resolve().parents[1] / "modules"
SUBNET_PERMISSION = "arn:aws:ram::aws:permission/AWSRAMDefaultPermissionSubnet"


def _code(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return str(caught.value.response["Error"]["Code"])


def _two_shares(emulator: Any) -> tuple[Any, str, str]:
    ram = emulator.client("ram")
    tagged = ram.create_resource_share(name="subnets", tags=[{"key": "team", "value": "net"}])
    other = ram.create_resource_share(name="other")
    return (
        ram,
        tagged["resourceShare"]["resourceShareArn"],
        other["resourceShare"]["resourceShareArn"],
    )


def test_get_resource_shares_answers_the_shares_asked_for(emulator, raw_moto) -> None:
    ram, tagged, other = _two_shares(emulator)

    def names(**asked: Any) -> list[str]:
        shares = ram.get_resource_shares(resourceOwner="SELF", **asked)["resourceShares"]
        return sorted(s["name"] for s in shares)

    assert names() == ["other", "subnets"]
    assert names(resourceShareArns=[tagged]) == ["subnets"]
    assert names(name="other") == ["other"]
    assert names(tagFilters=[{"tagKey": "team", "tagValues": ["net"]}]) == ["subnets"]
    ram.delete_resource_share(resourceShareArn=other)
    assert names(resourceShareStatus="ACTIVE") == ["subnets"]
    unknown = tagged.rsplit("/", 1)[0] + "/00000000-0000-0000-0000-000000000000"
    assert _code(ram.get_resource_shares, resourceOwner="SELF", resourceShareArns=[unknown]) == (
        "UnknownResourceException"
    )
    raw, raw_tagged, _ = _two_shares(raw_moto)
    asked = raw.get_resource_shares(resourceOwner="SELF", resourceShareArns=[raw_tagged])
    assert len(asked["resourceShares"]) == 2


def test_a_resource_share_keeps_its_tags(emulator, raw_moto) -> None:
    ram, tagged, _ = _two_shares(emulator)

    def tags() -> list[Any]:
        [share] = ram.get_resource_shares(resourceOwner="SELF", resourceShareArns=[tagged])[
            "resourceShares"
        ]
        return sorted(share["tags"], key=lambda t: t["key"])

    assert tags() == [{"key": "team", "value": "net"}]
    ram.tag_resource(resourceShareArn=tagged, tags=[{"key": "env", "value": "test"}])
    ram.untag_resource(resourceShareArn=tagged, tagKeys=["team"])
    assert tags() == [{"key": "env", "value": "test"}]
    assert _code(
        ram.tag_resource, resourceShareArn=tagged + "0", tags=[{"key": "k", "value": "v"}]
    ) == "UnknownResourceException"  # fmt: skip
    raw = _two_shares(raw_moto)[0]
    shares = raw.get_resource_shares(resourceOwner="SELF")["resourceShares"]
    assert all("tags" not in share for share in shares)


def _subnet_arn(emulator: Any) -> str:
    ec2 = emulator.client("ec2")
    vpc = ec2.create_vpc(CidrBlock="10.10.0.0/16")["Vpc"]["VpcId"]
    subnet = ec2.create_subnet(VpcId=vpc, CidrBlock="10.10.1.0/24")["Subnet"]
    return str(subnet["SubnetArn"])


def test_a_resource_shares_permissions_are_listed(emulator, raw_moto) -> None:
    ram = emulator.client("ram")
    subnet = _subnet_arn(emulator)
    share = ram.create_resource_share(name="subnets", resourceArns=[subnet])["resourceShare"]
    [permission] = ram.list_resource_share_permissions(resourceShareArn=share["resourceShareArn"])[
        "permissions"
    ]
    assert (permission["arn"], permission["resourceType"]) == (SUBNET_PERMISSION, "ec2:Subnet")
    assert permission["status"] == "ASSOCIATED"
    # Nothing shared yet, nothing asked for: no permission.
    empty = ram.create_resource_share(name="empty")["resourceShare"]["resourceShareArn"]
    assert ram.list_resource_share_permissions(resourceShareArn=empty)["permissions"] == []
    assert _code(
        ram.create_resource_share, name="x", permissionArns=[SUBNET_PERMISSION + "Nope"]
    ) == "UnknownResourceException"  # fmt: skip
    assert _code(ram.list_resource_share_permissions, resourceShareArn=empty + "0") == (
        "UnknownResourceException"
    )
    raw = raw_moto.client("ram")
    raw_share = raw.create_resource_share(name="subnets")["resourceShare"]["resourceShareArn"]
    with pytest.raises(ClientError):
        raw.list_resource_share_permissions(resourceShareArn=raw_share)


def test_principals_and_resources_are_associated_and_disassociated(emulator, raw_moto) -> None:
    ram = emulator.client("ram")
    subnet = _subnet_arn(emulator)
    share = ram.create_resource_share(name="subnets")["resourceShare"]["resourceShareArn"]
    added = ram.associate_resource_share(
        resourceShareArn=share, principals=["111111111111"], resourceArns=[subnet]
    )["resourceShareAssociations"]
    assert {(a["associationType"], a["associatedEntity"]) for a in added} == {
        ("PRINCIPAL", "111111111111"),
        ("RESOURCE", subnet),
    }

    def associated(kind: str) -> list[str]:
        found = ram.get_resource_share_associations(
            associationType=kind, resourceShareArns=[share]
        )["resourceShareAssociations"]
        return [a["associatedEntity"] for a in found]

    assert (associated("PRINCIPAL"), associated("RESOURCE")) == (["111111111111"], [subnet])
    ram.disassociate_resource_share(resourceShareArn=share, principals=["111111111111"])
    assert (associated("PRINCIPAL"), associated("RESOURCE")) == ([], [subnet])
    assert _code(
        ram.associate_resource_share, resourceShareArn=share, principals=["not-a-principal"]
    ) == "InvalidParameterException"  # fmt: skip
    assert _code(
        ram.associate_resource_share, resourceShareArn=share + "0", principals=["111111111111"]
    ) == "UnknownResourceException"  # fmt: skip
    raw = raw_moto.client("ram")
    raw_share = raw.create_resource_share(name="subnets")["resourceShare"]["resourceShareArn"]
    with pytest.raises(ClientError):
        raw.associate_resource_share(resourceShareArn=raw_share, principals=["111111111111"])


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_a_shared_subnet_converges_on_aws5(converge, converge_emulator, provider_line) -> None:
    stack = converge(provider_line.pin(MODULES / "fidelity_ram"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    ram = converge_emulator.client("ram", region="eu-west-1")
    [share] = ram.get_resource_shares(resourceOwner="SELF", name="shared-subnets")["resourceShares"]
    assert share["tags"] == [{"key": "Name", "value": "shared-subnets"}]
    [permission] = ram.list_resource_share_permissions(resourceShareArn=share["resourceShareArn"])[
        "permissions"
    ]
    assert permission["arn"] == SUBNET_PERMISSION
