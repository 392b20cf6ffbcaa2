"""analysis/preflight: unservable resources and their dependents, from plain plan JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_converge.analysis.preflight import (
    Phase,
    PlannedResource,
    Preflight,
    Unservable,
    config_address,
    dependents,
    planned_resources,
    preflight,
)
from pytest_converge.awsapi import ResourceOperations, operations_of
from pytest_converge.emulator.served import Served, ServiceOperations, served

DATA = Path(__file__).resolve().parents[1] / "data"

BACKEND = Served(
    "fake",
    "1.0",
    {
        "ec2": ServiceOperations(frozenset({"CreateVpc", "DescribeVpcs", "DeleteVpc"})),
        "elasticache": ServiceOperations(
            frozenset({"CreateReplicationGroup", "DescribeReplicationGroups"})
        ),
        "efs": ServiceOperations(frozenset({"CreateFileSystem", "DescribeBackupPolicy"})),
    },
)
OPERATIONS = {
    "aws_vpc": ResourceOperations(
        "ec2", ("CreateVpc",), ("DescribeVpcs",), ("ModifyVpcAttribute",), ("DeleteVpc",)
    ),
    "aws_elasticache_parameter_group": ResourceOperations(
        "elasticache", ("CreateCacheParameterGroup",), ("DescribeCacheParameterGroups",)
    ),
    "aws_elasticache_replication_group": ResourceOperations(
        "elasticache", ("CreateReplicationGroup",), ("DescribeReplicationGroups",)
    ),
    "aws_efs_backup_policy": ResourceOperations(
        "efs", ("PutBackupPolicy",), ("DescribeBackupPolicy",)
    ),
    "aws_efs_file_system": ResourceOperations(
        "efs", ("CreateFileSystem",), ("DescribeFileSystems",)
    ),
    "aws_ecrpublic_repository": ResourceOperations("ecr-public", ("CreateRepository",)),
}


def plan(*changes: tuple[str, str, list[str]], mode: str = "managed") -> dict[str, Any]:
    return {
        "format_version": "1.2",
        "resource_changes": [
            {
                "address": a,
                "mode": mode,
                "type": t,
                "name": a.split(".")[-1],
                "change": {"actions": actions},
            }
            for a, t, actions in changes
        ],
    }


def test_planned_resources_from_resource_changes() -> None:
    found = planned_resources(plan(("module.c.aws_vpc.this[0]", "aws_vpc", ["create"])))
    assert found == [PlannedResource("module.c.aws_vpc.this[0]", "aws_vpc", ("create",), "managed")]


def test_the_first_missing_operation_and_its_phase() -> None:
    planned = planned_resources(
        plan(
            ("aws_vpc.main", "aws_vpc", ["create"]),
            (
                "module.cache.aws_elasticache_parameter_group.this[0]",
                "aws_elasticache_parameter_group",
                ["create"],
            ),
            (
                "module.cache.aws_elasticache_replication_group.this[0]",
                "aws_elasticache_replication_group",
                ["create"],
            ),
            ("aws_efs_file_system.fs", "aws_efs_file_system", ["create"]),
            ("aws_efs_backup_policy.p", "aws_efs_backup_policy", ["create"]),
            ("aws_sns_topic.t", "aws_sns_topic", ["create"]),
        )
    )
    found = preflight(planned, BACKEND, OPERATIONS.get)
    assert found == Preflight(
        (
            Unservable(
                "module.cache.aws_elasticache_parameter_group.this[0]",
                "aws_elasticache_parameter_group",
                "elasticache",
                "CreateCacheParameterGroup",
                Phase.CREATE,
            ),
            Unservable(
                "aws_efs_file_system.fs",
                "aws_efs_file_system",
                "efs",
                "DescribeFileSystems",
                Phase.READ,
            ),
            Unservable(
                "aws_efs_backup_policy.p",
                "aws_efs_backup_policy",
                "efs",
                "PutBackupPolicy",
                Phase.CREATE,
            ),
        ),
        ("aws_sns_topic",),
    )
    assert not found.ok


def test_a_service_the_backend_lacks_entirely() -> None:
    planned = [
        PlannedResource("aws_ecrpublic_repository.r", "aws_ecrpublic_repository", ("create",))
    ]
    (found,) = preflight(planned, BACKEND, OPERATIONS.get).unservable
    assert (found.operation, found.phase, found.service_missing) == (
        "CreateRepository",
        Phase.CREATE,
        True,
    )


def test_a_backend_with_no_data_can_serve_anything() -> None:
    planned = [
        PlannedResource("aws_ecrpublic_repository.r", "aws_ecrpublic_repository", ("create",))
    ]
    assert preflight(planned, Served("unknown"), OPERATIONS.get).ok


def test_actions_decide_the_phases() -> None:
    vpc = "aws_vpc"
    backend = Served("fake", "1", {"ec2": ServiceOperations(frozenset({"DescribeVpcs"}))})

    def one(actions: list[str], mode: str = "managed") -> tuple[str, Phase] | None:
        found = preflight(
            [PlannedResource("aws_vpc.a", vpc, tuple(actions), mode)], backend, OPERATIONS.get
        )
        return (
            (found.unservable[0].operation, found.unservable[0].phase) if found.unservable else None
        )

    assert one(["create"]) == ("CreateVpc", Phase.CREATE)
    assert one(["update"]) == ("ModifyVpcAttribute", Phase.UPDATE)
    assert one(["delete"]) == ("DeleteVpc", Phase.DELETE)
    assert one(["delete", "create"]) == ("DeleteVpc", Phase.DELETE)
    assert one(["no-op"]) is None  # a refresh only reads
    assert one(["read"], mode="data") is None
    assert (
        preflight(
            [PlannedResource("data.aws_x.y", "aws_x", ("read",), "data")], backend, OPERATIONS.get
        ).unknown_types
        == ()
    )


def test_with_the_shipped_data_for_moto() -> None:
    # Operations neither moto 5.2.6 nor the fidelity layer serves (the layer's own,
    # an EFS backup policy say, are served: they move out of such a list as it grows).
    planned = planned_resources(
        plan(
            ("aws_vpc.this", "aws_vpc", ["create"]),
            ("aws_spot_datafeed_subscription.c", "aws_spot_datafeed_subscription", ["create"]),
            (
                "aws_elasticache_global_replication_group.g",
                "aws_elasticache_global_replication_group",
                ["create"],
            ),
            ("aws_efs_backup_policy.b", "aws_efs_backup_policy", ["create"]),
        )
    )
    found = preflight(planned, served("moto"), lambda t: operations_of(t, "5"))
    assert {(u.address, u.operation, u.phase) for u in found.unservable} == {
        ("aws_spot_datafeed_subscription.c", "CreateSpotDatafeedSubscription", Phase.CREATE),
        (
            "aws_elasticache_global_replication_group.g",
            "CreateGlobalReplicationGroup",
            Phase.CREATE,
        ),
    }


# -- dependents ------------------------------------------------------------------
def resource(
    address: str, expressions: dict[str, Any] | None = None, **more: Any
) -> dict[str, Any]:
    kind, name = address.split(".")[-2:]
    mode = "data" if address.startswith("data.") else "managed"
    return {
        "address": address,
        "mode": mode,
        "type": kind,
        "name": name,
        "provider_config_key": "aws",
        "expressions": expressions or {},
        "schema_version": 0,
        **more,
    }


def refs(*references: str) -> dict[str, Any]:
    return {"references": list(references)}


#: root: a VPC, a module "cache" given the VPC's id, a module "net" whose output feeds a
#: queue; in "cache" a parameter group, a replication group naming it (a nested block
#: too), an alarm that counts on a variable, a user group waiting on the group.
CONFIGURATION = {
    "root_module": {
        "resources": [
            resource("aws_vpc.main"),
            resource("aws_sqs_queue.q", {"name": refs("module.net.name", "module.net")}),
            resource("aws_sns_topic.alone", {"name": {"constant_value": "x"}}),
            resource("aws_s3_bucket.after_all", depends_on=["module.cache"]),
        ],
        "module_calls": {
            "cache": {
                "source": "./cache",
                "expressions": {"vpc_id": refs("aws_vpc.main.id", "aws_vpc.main")},
                "module": {
                    "variables": {"vpc_id": {}},
                    "resources": [
                        resource("aws_elasticache_parameter_group.this"),
                        resource(
                            "aws_elasticache_replication_group.this",
                            {
                                "parameter_group_name": refs(
                                    "aws_elasticache_parameter_group.this[0].name",
                                    "aws_elasticache_parameter_group.this",
                                ),
                                "log_delivery_configuration": [{"destination": refs("var.vpc_id")}],
                            },
                        ),
                        resource(
                            "aws_cloudwatch_metric_alarm.cpu",
                            count_expression=refs("var.vpc_id"),
                        ),
                        resource(
                            "aws_elasticache_user_group.u",
                            depends_on=["aws_elasticache_replication_group.this"],
                        ),
                    ],
                    "outputs": {
                        "id": {"expression": refs("aws_elasticache_replication_group.this.id")}
                    },
                },
            },
            "net": {
                "source": "./net",
                "expressions": {"cache_id": refs("module.cache.id", "module.cache")},
                "module": {
                    "variables": {"cache_id": {}},
                    "resources": [
                        resource("aws_ssm_parameter.p", {"value": refs("var.cache_id")}),
                        resource("data.aws_iam_policy_document.d", {"x": refs("var.cache_id")}),
                    ],
                    "outputs": {"name": {"expression": refs("aws_ssm_parameter.p.name")}},
                },
            },
        },
    }
}


def test_dependents_across_modules_outputs_and_variables() -> None:
    found = dependents(CONFIGURATION, ["module.cache.aws_elasticache_parameter_group.this[0]"])
    assert found == {
        "module.cache.aws_elasticache_replication_group.this",  # a reference
        "module.cache.aws_elasticache_user_group.u",  # depends_on, transitively
        "module.net.aws_ssm_parameter.p",  # module.cache.id -> var.cache_id
        "module.net.data.aws_iam_policy_document.d",
        "aws_sqs_queue.q",  # module.net.name
        "aws_s3_bucket.after_all",  # depends_on = [module.cache]
    }


def test_a_variable_and_count_lead_to_the_parent_argument() -> None:
    found = dependents(CONFIGURATION, ["aws_vpc.main"])
    assert "module.cache.aws_cloudwatch_metric_alarm.cpu" in found  # count = var.vpc_id
    assert "module.cache.aws_elasticache_replication_group.this" in found  # nested block
    assert "module.cache.aws_elasticache_parameter_group.this" not in found
    assert "aws_sns_topic.alone" not in found


def test_depends_on_a_whole_module() -> None:
    found = dependents(CONFIGURATION, ["module.cache.aws_cloudwatch_metric_alarm.cpu"])
    assert found == {"aws_s3_bucket.after_all"}


def test_a_module_calls_count_holds_everything_inside() -> None:
    configuration = {
        "root_module": {
            "resources": [resource("aws_vpc.main")],
            "module_calls": {
                "m": {
                    "count_expression": refs("aws_vpc.main"),
                    "module": {"resources": [resource("aws_subnet.a")]},
                }
            },
        }
    }
    assert dependents(configuration, ["aws_vpc.main"]) == {"module.m.aws_subnet.a"}
    assert dependents(configuration, ["module.m[0].aws_subnet.a"]) == set()


def test_config_address_drops_instance_keys() -> None:
    assert config_address('module.a["x"].aws_s3_bucket.b[0]') == "module.a.aws_s3_bucket.b"


def test_a_real_plan() -> None:
    data = json.loads((DATA / "plan_module_output_gap.json").read_text())
    (change,) = planned_resources(data)
    assert change.address == 'module.gw.aws_customer_gateway.this["office"]'
    assert dependents(data["configuration"], [change.address]) == set()


def test_a_counted_modules_output() -> None:
    configuration = {
        "root_module": {
            "resources": [
                resource("aws_sqs_queue.q", {"name": refs("module.net[0].name", "module.net")}),
                resource("aws_sns_topic.t"),
            ],
            "module_calls": {
                "net": {
                    "count_expression": {"constant_value": 1},
                    "module": {
                        "resources": [resource("aws_ssm_parameter.p"), resource("aws_vpc.v")],
                        "outputs": {"name": {"expression": refs("aws_ssm_parameter.p.name")}},
                    },
                }
            },
        }
    }
    assert dependents(configuration, ["module.net[0].aws_ssm_parameter.p"]) == {"aws_sqs_queue.q"}
    assert dependents(configuration, ["module.net[0].aws_vpc.v"]) == set()
