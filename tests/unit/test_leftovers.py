"""find_leftovers and state_resources on plain data: no emulator, no terraform."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_converge.analysis.leftovers import find_leftovers
from pytest_converge.analysis.state import StateResource, state_resources
from pytest_converge.inventory import CloudObject

QUEUE_URL_PROXY = "http://127.0.0.1:40001/123456789012/jobs"
QUEUE_URL_EMULATOR = "http://127.0.0.1:50002/123456789012/jobs"


def _res(address: str, type_: str, values: dict[str, Any], mode: str = "managed") -> dict:
    name = address.rsplit(".", 1)[-1]
    return {
        "address": address,
        "mode": mode,
        "type": type_,
        "name": name,
        "provider_name": "registry.terraform.io/hashicorp/aws",
        "schema_version": 0,
        "values": values,
    }


#: Shaped like `terraform show -json` of a state: root resources, a child module and
#: a nested child module.
SHOW_JSON: dict[str, Any] = {
    "format_version": "1.0",
    "terraform_version": "1.15.5",
    "values": {
        "root_module": {
            "resources": [
                _res(
                    "aws_vpc.main",
                    "aws_vpc",
                    {
                        "id": "vpc-1111",
                        "arn": "arn:aws:ec2:us-east-1:123456789012:vpc/vpc-1111",
                        "cidr_block": "10.0.0.0/16",
                        "tags": {"Name": "main"},
                        "tags_all": {"Name": "main"},
                        "default_security_group_id": "sg-default1",
                    },
                ),
                _res(
                    "aws_sqs_queue.jobs",
                    "aws_sqs_queue",
                    {
                        "id": QUEUE_URL_PROXY,
                        "url": QUEUE_URL_PROXY,
                        "arn": "arn:aws:sqs:us-east-1:123456789012:jobs",
                        "name": "jobs",
                    },
                ),
                _res(
                    "aws_iam_role.app",
                    "aws_iam_role",
                    {"id": "app", "name": "app", "arn": "arn:aws:iam::123456789012:role/app"},
                ),
                _res(
                    "data.aws_caller_identity.me",
                    "aws_caller_identity",
                    {"id": "123456789012", "account_id": "123456789012"},
                    mode="data",
                ),
            ],
            "child_modules": [
                {
                    "address": "module.store",
                    "resources": [
                        _res(
                            "module.store.aws_s3_bucket.logs",
                            "aws_s3_bucket",
                            {
                                "id": "acme-logs",
                                "bucket": "acme-logs",
                                "arn": "arn:aws:s3:::acme-logs",
                            },
                        )
                    ],
                    "child_modules": [
                        {
                            "address": "module.store.module.table",
                            "resources": [
                                _res(
                                    "module.store.module.table.aws_dynamodb_table.locks",
                                    "aws_dynamodb_table",
                                    {"id": "locks", "name": "locks", "hash_key": "id"},
                                )
                            ],
                        }
                    ],
                }
            ],
        }
    },
}


@pytest.fixture
def state() -> list[StateResource]:
    return state_resources(SHOW_JSON)


def vpc(id_: str, cidr: str = "10.0.0.0/16", **tags: str) -> CloudObject:
    return CloudObject(
        "aws_vpc",
        id_,
        name=tags.get("Name"),
        attributes={"cidr_block": cidr, "tags": dict(tags)},
    )


#: Every object the state above tracks, as the inventory reports it (queue URL with the
#: emulator's own port, not the proxy's).
TRACKED = [
    vpc("vpc-1111", Name="main"),
    CloudObject(
        "aws_sqs_queue",
        QUEUE_URL_EMULATOR,
        name="jobs",
        arn="arn:aws:sqs:us-east-1:123456789012:jobs",
    ),
    CloudObject("aws_iam_role", "app", name="app", arn="arn:aws:iam::123456789012:role/app"),
    CloudObject("aws_s3_bucket", "acme-logs", name="acme-logs", arn="arn:aws:s3:::acme-logs"),
    CloudObject("aws_dynamodb_table", "locks", name="locks"),
]


# --- state_resources -------------------------------------------------------------------------


def test_state_resources_recurses_child_modules(state: list[StateResource]) -> None:
    by_address = {r.address: r for r in state}
    assert set(by_address) == {
        "aws_vpc.main",
        "aws_sqs_queue.jobs",
        "aws_iam_role.app",
        "data.aws_caller_identity.me",
        "module.store.aws_s3_bucket.logs",
        "module.store.module.table.aws_dynamodb_table.locks",
    }
    locks = by_address["module.store.module.table.aws_dynamodb_table.locks"]
    assert (locks.type, locks.mode, locks.id) == ("aws_dynamodb_table", "managed", "locks")
    assert locks.values["hash_key"] == "id"
    assert by_address["data.aws_caller_identity.me"].mode == "data"


@pytest.mark.parametrize(
    "empty",
    [{}, None, {"format_version": "1.0"}, {"values": None}, {"values": {"root_module": {}}}],
)
def test_state_resources_of_an_empty_state(empty: Any) -> None:
    assert state_resources(empty) == []


def test_state_resources_reads_a_raw_v4_state_file() -> None:
    raw = {
        "version": 4,
        "resources": [
            {
                "mode": "managed",
                "type": "aws_vpc",
                "name": "main",
                "instances": [{"attributes": {"id": "vpc-1"}}],
            },
            {
                "module": "module.net",
                "mode": "managed",
                "type": "aws_subnet",
                "name": "a",
                "instances": [
                    {"index_key": 0, "attributes": {"id": "subnet-0"}},
                    {"index_key": "b", "attributes": {"id": "subnet-b"}},
                ],
            },
            {"mode": "data", "type": "aws_region", "name": "here", "instances": [{}]},
        ],
    }
    assert [(r.address, r.id, r.mode) for r in state_resources(raw)] == [
        ("aws_vpc.main", "vpc-1", "managed"),
        ("module.net.aws_subnet.a[0]", "subnet-0", "managed"),
        ('module.net.aws_subnet.a["b"]', "subnet-b", "managed"),
        ("data.aws_region.here", None, "data"),
    ]


# --- find_leftovers ------------------------------------------------------------------------


def test_objects_tracked_by_state_are_not_leftovers(state: list[StateResource]) -> None:
    assert find_leftovers(TRACKED, state) == []


def test_nothing_created_nothing_found(state: list[StateResource]) -> None:
    assert find_leftovers([], state) == []


def test_sqs_queue_matches_by_url_whatever_the_endpoint_port(state: list[StateResource]) -> None:
    # The state's URL has the fault proxy's port; the inventory's the emulator's.
    queue = CloudObject("aws_sqs_queue", QUEUE_URL_EMULATOR)
    assert find_leftovers([queue], state) == []


def test_iam_role_matches_by_role_name(state: list[StateResource]) -> None:
    assert find_leftovers([CloudObject("aws_iam_role", "app")], state) == []


def test_extra_vpc_of_the_same_cidr_is_a_duplicate_of_the_state_vpc(
    state: list[StateResource],
) -> None:
    # A lost CreateVpc response: the retried create made a second, untagged VPC.
    extra = vpc("vpc-2222")
    [defect] = find_leftovers(
        [*TRACKED, extra], state, module="network", scenario="lost@CreateVpc#1"
    )
    assert defect.kind == "duplicate"
    assert defect.address == "aws_vpc.main"
    assert defect.objects == ["vpc-2222"]
    assert (defect.module, defect.scenario) == ("network", "lost@CreateVpc#1")
    assert defect.declared == "vpc-1111"
    assert defect.observed == ["vpc-1111", "vpc-2222"]
    assert "vpc-2222" in defect.message and "aws_vpc.main" in defect.message
    assert "10.0.0.0/16" in defect.message
    assert "response was lost" in defect.why and "retried" in defect.why
    assert "idempotency" in defect.fix and "delete-vpc --vpc-id vpc-2222" in defect.fix
    assert defect.reproduce == ""  # the caller fills it in
    assert defect.is_error


def test_two_extra_vpcs_are_two_defects(state: list[StateResource]) -> None:
    defects = find_leftovers([vpc("vpc-3"), vpc("vpc-2")], state)
    assert [(d.kind, d.address, d.objects) for d in defects] == [
        ("duplicate", "aws_vpc.main", ["vpc-2"]),
        ("duplicate", "aws_vpc.main", ["vpc-3"]),
    ]


def test_extra_vpc_with_a_different_cidr_is_an_orphan(state: list[StateResource]) -> None:
    [defect] = find_leftovers([vpc("vpc-9", cidr="192.168.0.0/16")], state)
    assert defect.kind == "orphan"
    assert defect.address is None
    assert "aws_vpc.main" in defect.message and "192.168.0.0/16" in defect.message


def test_duplicate_picks_the_resembling_resource_among_several() -> None:
    state = state_resources(
        {
            "values": {
                "root_module": {
                    "resources": [
                        _res("aws_vpc.a", "aws_vpc", {"id": "vpc-a", "cidr_block": "10.0.0.0/16"}),
                        _res("aws_vpc.b", "aws_vpc", {"id": "vpc-b", "cidr_block": "10.1.0.0/16"}),
                    ]
                }
            }
        }
    )
    [defect] = find_leftovers([vpc("vpc-x", cidr="10.1.0.0/16")], state)
    assert (defect.kind, defect.address) == ("duplicate", "aws_vpc.b")


def test_same_type_with_nothing_to_compare_is_a_duplicate() -> None:
    state = state_resources(
        {
            "values": {
                "root_module": {"resources": [_res("aws_kms_key.k", "aws_kms_key", {"id": "k1"})]}
            }
        }
    )
    [defect] = find_leftovers([CloudObject("aws_kms_key", "k2")], state)
    assert (defect.kind, defect.address, defect.objects) == ("duplicate", "aws_kms_key.k", ["k2"])
    assert "nothing else" in defect.message


def test_name_prefix_duplicate() -> None:
    state = state_resources(
        {
            "values": {
                "root_module": {
                    "resources": [
                        _res(
                            "aws_iam_role.r",
                            "aws_iam_role",
                            {"id": "app-002", "name": "app-002", "name_prefix": "app-"},
                        )
                    ]
                }
            }
        }
    )
    [defect] = find_leftovers([CloudObject("aws_iam_role", "app-001", name="app-001")], state)
    assert (defect.kind, defect.address) == ("duplicate", "aws_iam_role.r")
    assert "name_prefix" in defect.message


def _roles(*prefixes: tuple[str, str]) -> list[StateResource]:
    return state_resources(
        {
            "values": {
                "root_module": {
                    "resources": [
                        _res(
                            f"aws_iam_role.{name}",
                            "aws_iam_role",
                            {"id": f"{prefix}9", "name": f"{prefix}9", "name_prefix": prefix},
                        )
                        for name, prefix in prefixes
                    ]
                }
            }
        }
    )


def test_the_longer_name_prefix_a_leftover_starts_with_is_the_one_it_duplicates() -> None:
    """``app-task-1`` starts with ``app-`` and ``app-task-``: the longer tells more, in
    either address order."""
    from pytest_converge.analysis.leftovers import stands_for

    left = CloudObject("aws_iam_role", "app-task-1", name="app-task-1")
    for pair in ((("a", "app-task-"), ("b", "app-")), (("a", "app-"), ("b", "app-task-"))):
        state = _roles(*pair)
        task = next(r.address for r in state if r.values["name_prefix"] == "app-task-")
        [defect] = find_leftovers([left], state)
        assert (defect.kind, defect.address) == ("duplicate", task)
        assert "may duplicate any" not in defect.message
        assert stands_for(left, state) == task


def test_a_leftover_as_like_two_resources_says_so_and_stands_for_neither() -> None:
    """Two roles of one ``name_prefix``: nothing tells which the leftover is a copy of."""
    from pytest_converge.analysis.leftovers import stands_for

    state = _roles(("exec", "svc-"), ("task", "svc-"))
    left = CloudObject("aws_iam_role", "svc-1", name="svc-1")
    [defect] = find_leftovers([left], state)
    assert defect.kind == "duplicate"
    assert "aws_iam_role.exec, aws_iam_role.task are as like it" in defect.message
    assert stands_for(left, state) is None


def test_table_of_a_type_absent_from_state_is_an_orphan(state: list[StateResource]) -> None:
    # A crash right after CreateTable: the table exists, state never heard of it.
    table = CloudObject("aws_sns_topic", "arn:aws:sns:us-east-1:123456789012:alerts", name="alerts")
    [defect] = find_leftovers([table], state, module="m", scenario="crash@CreateTopic#1")
    assert defect.kind == "orphan"
    assert defect.address is None
    assert defect.objects == ["arn:aws:sns:us-east-1:123456789012:alerts"]
    assert "terraform died" in defect.why
    assert "terraform import" in defect.fix and "`import` block" in defect.fix
    assert "arn:aws:sns:us-east-1:123456789012:alerts" in defect.fix


def test_unrecorded_table_when_state_has_none_is_an_orphan() -> None:
    [defect] = find_leftovers([CloudObject("aws_dynamodb_table", "orders", name="orders")], [])
    assert defect.kind == "orphan"
    assert "delete-table --table-name orders" in defect.fix


def test_same_name_different_type_does_not_match(state: list[StateResource]) -> None:
    # "app" is a role in state; an IAM user named "app" is something else.
    user = CloudObject("aws_iam_user", "app", name="app", arn="arn:aws:iam::123456789012:user/app")
    # "jobs" is a queue in state; a table named "jobs" is something else.
    table = CloudObject("aws_dynamodb_table", "jobs", name="jobs")
    defects = find_leftovers([user, table], state)
    assert sorted((d.kind, d.objects[0]) for d in defects) == [
        ("orphan", "app"),
        ("orphan", "jobs"),
    ]


def test_a_name_tag_alone_does_not_make_a_vpc_tracked(state: list[StateResource]) -> None:
    # Name tags are not unique: a second VPC tagged "main" is still a second VPC.
    [defect] = find_leftovers([vpc("vpc-5555", Name="main")], state)
    assert (defect.kind, defect.address) == ("duplicate", "aws_vpc.main")


def test_a_different_name_tag_is_not_a_duplicate(state: list[StateResource]) -> None:
    [defect] = find_leftovers([vpc("vpc-6", Name="other")], state)
    assert defect.kind == "orphan"


def test_data_sources_never_track_objects() -> None:
    state = state_resources(
        {
            "values": {
                "root_module": {
                    "resources": [
                        _res("data.aws_vpc.x", "aws_vpc", {"id": "vpc-1"}, mode="data"),
                    ]
                }
            }
        }
    )
    [defect] = find_leftovers([vpc("vpc-1")], state)
    assert defect.kind == "orphan"


def test_objects_state_knows_through_another_resource_are_not_leftovers(
    state: list[StateResource],
) -> None:
    default_sg = CloudObject("aws_security_group", "sg-default1", name="default")
    assert find_leftovers([default_sg], state) == []


def test_defects_serialise(state: list[StateResource]) -> None:
    [defect] = find_leftovers([vpc("vpc-2222")], state)
    data = defect.to_dict()
    assert data["kind"] == "duplicate" and data["objects"] == ["vpc-2222"]


def test_a_rule_of_aws_vpc_security_group_ingress_rule_is_tracked_and_its_type_covered() -> None:
    """The inventory lists every group rule as an ``aws_security_group_rule`` named by its
    content; the rule resources of aws 5.x (one source each) track theirs the same way."""
    from pytest_converge.analysis.leftovers import unverified_types
    from pytest_converge.inventory.catalogue import rule_ids

    def rule(address: str, direction: str, **values: Any) -> StateResource:
        kind = f"aws_vpc_security_group_{direction}_rule"
        values = {"security_group_id": "sg-1", "id": f"sgr-{direction}", **values}
        return StateResource(f"{kind}.{address}", kind, "managed", values["id"], values)

    web = {"ip_protocol": "tcp", "from_port": 80, "to_port": 80, "cidr_ipv4": "0.0.0.0/0"}
    out = {"ip_protocol": "-1", "from_port": None, "to_port": None, "cidr_ipv4": "10.0.0.0/8"}
    state = [rule("http", "ingress", **web), rule("all", "egress", **out)]
    listed = [
        *rule_ids("sg-1", "ingress", "tcp", 80, 80, ["0.0.0.0/0"]),
        *rule_ids("sg-1", "egress", "-1", 0, 0, ["10.0.0.0/8"]),  # as the API lists it
    ]
    objects = [CloudObject("aws_security_group_rule", id_) for id_ in listed]
    assert find_leftovers(objects, state) == []
    stray = CloudObject("aws_security_group_rule", "sg-1/ingress/tcp/22-22/0.0.0.0/0")
    [defect] = find_leftovers([stray], state)
    assert defect.kind == "orphan"
    assert unverified_types(state, [], covered={"aws_security_group_rule"}) == []
    assert unverified_types(state, [], covered=set()) == [
        "aws_vpc_security_group_egress_rule",
        "aws_vpc_security_group_ingress_rule",
    ]
