"""Which of several open applies made a call (faults/locate.py): pure logic, no engine."""

from __future__ import annotations

from pytest_converge.analysis.state import StateResource
from pytest_converge.faults.locate import CleanApply, RequestMatcher


def resource(address: str, id: str, **values: object) -> StateResource:
    kind = address.rsplit(".", 2)[-2]
    return StateResource(address, kind, "managed", id, {"id": id, **values})


SUBNETS = [
    resource(f"aws_subnet.private[{i}]", f"subnet-0000000{i}aa", cidr_block=f"10.0.{i}.0/24",
             vpc_id="vpc-00000000aa", tags={"Name": f"private-{i}"})
    for i in range(3)
]  # fmt: skip
TABLES = [
    resource(f"aws_route_table.private[{i}]", f"rtb-0000000{i}bb", vpc_id="vpc-00000000aa",
             tags={"Name": f"private-{i}"})
    for i in range(3)
]  # fmt: skip
LINKS = [
    resource(f"aws_route_table_association.private[{i}]", f"rtbassoc-0000000{i}cc",
             subnet_id=f"subnet-0000000{i}aa", route_table_id=f"rtb-0000000{i}bb")
    for i in range(3)
]  # fmt: skip
DEFAULTS = [
    resource("aws_default_network_acl.this", "acl-00000000dd", tags={"Name": "default"}),
    resource("aws_default_security_group.this", "sg-00000000ee", tags={"Name": "default"}),
]
VPC = resource("aws_vpc.this", "vpc-00000000aa", cidr_block="10.0.0.0/16")
POINTS = (
    ["CreateVpc#1@aws_vpc.this", "ModifyVpcAttribute#1@aws_vpc.this"]
    + [f"CreateSubnet#1@aws_subnet.private[{i}]" for i in range(3)]
    + [f"CreateRouteTable#1@aws_route_table.private[{i}]" for i in range(3)]
    + [f"AssociateRouteTable#1@aws_route_table_association.private[{i}]" for i in range(3)]
    + ["CreateTags#1@aws_default_network_acl.this", "CreateTags#1@aws_default_security_group.this"]
    + ["CreateNetworkAclEntry#1@aws_default_network_acl.this"]
)


def matcher() -> RequestMatcher:
    return RequestMatcher(CleanApply([VPC, *SUBNETS, *TABLES, *LINKS, *DEFAULTS], POINTS))


def completed(m: RequestMatcher, address: str, id: str) -> None:
    m.see({"type": "apply_complete", "hook": {"resource": {"addr": address}, "id_value": id}})


def test_the_only_open_apply_that_made_the_operation_made_it() -> None:
    m = matcher()
    open_ = ["aws_subnet.private[0]", "aws_default_network_acl.this"]
    assert m.made(open_, "CreateNetworkAclEntry", b"NetworkAclId=acl-1234abcd99") == (
        "aws_default_network_acl.this"
    )


def test_same_type_applies_are_told_by_their_values() -> None:
    m = matcher()
    open_ = [s.address for s in SUBNETS] + [t.address for t in TABLES]
    body = b"Action=CreateSubnet&CidrBlock=10.0.2.0%2F24&VpcId=vpc-99999999ff"
    assert m.made(open_, "CreateSubnet", body) == "aws_subnet.private[2]"
    # The subnet shares its Name tag with a route table: the operation tells them apart.
    tags = b"Action=CreateRouteTable&TagSpecification.1.Tag.1.Value=private-1"
    assert m.made(open_, "CreateRouteTable", tags) == "aws_route_table.private[1]"


def test_ids_of_the_clean_apply_are_read_as_this_runs() -> None:
    m = matcher()
    for i in range(3):
        completed(m, f"aws_subnet.private[{i}]", f"subnet-99999990{i}f")
        completed(m, f"aws_route_table.private[{i}]", f"rtb-99999990{i}f")
    open_ = [link.address for link in LINKS]
    body = b"Action=AssociateRouteTable&SubnetId=subnet-999999901f&RouteTableId=rtb-999999901f"
    assert m.made(open_, "AssociateRouteTable", body) == "aws_route_table_association.private[1]"


def test_an_answer_gives_the_id_to_the_apply_whose_call_got_it_first() -> None:
    m = matcher()
    m.answered("aws_subnet.private[0]", frozenset({"subnet-1111111100", "vpc-2222222200"}))
    m.answered("aws_subnet.private[1]", frozenset({"subnet-1111111111", "vpc-2222222200"}))
    open_ = ["aws_subnet.private[0]", "aws_subnet.private[1]"]
    body = b"Action=ModifySubnetAttribute&SubnetId=subnet-1111111111"
    assert m.made(open_, "ModifySubnetAttribute", body) == "aws_subnet.private[1]"
    # Words every answer has are nobody's: a region, true/false, a date.
    m.answered("aws_subnet.private[0]", frozenset({"eu-west-1a", "2016-11-15", "available"}))
    assert m.made(open_, "ModifySubnetAttribute", b"AvailabilityZone=eu-west-1a") is None


def test_an_own_id_tells_the_kind_of_object() -> None:
    m = matcher()
    open_ = [d.address for d in DEFAULTS]
    # Both are tagged "default"; only the network ACL's id is an acl-.
    body = b"Action=CreateTags&ResourceId.1=acl-99999999ab&Tag.1.Key=Name&Tag.1.Value=default"
    assert m.made(open_, "CreateTags", body) == "aws_default_network_acl.this"


def test_a_tie_or_nothing_said_is_not_told() -> None:
    m = matcher()
    open_ = [d.address for d in DEFAULTS]
    assert m.made(open_, "CreateTags", b"Tag.1.Key=Name&Tag.1.Value=default") is None
    assert m.made(open_, "CreateTags", b"") is None
    assert m.made(open_, "CreateTags", b"Enabled=true") is None  # booleans say nothing
