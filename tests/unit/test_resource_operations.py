"""awsapi.operations: the service rule, the inference, and the shipped data (never stale)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_converge.awsapi import AwsService, ResourceOperations, operations_of, service_of
from pytest_converge.awsapi.operations import DATA, entries, infer_operations, service_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("resource_type", "name", "signing_name"),
    [
        ("aws_sfn_state_machine", "stepfunctions", "states"),
        ("aws_cloudwatch_log_group", "logs", "logs"),
        ("aws_cloudwatch_event_rule", "events", "events"),
        ("aws_cloudwatch_metric_alarm", "cloudwatch", "monitoring"),
        ("aws_lb", "elbv2", "elasticloadbalancing"),
        ("aws_lb_target_group", "elbv2", "elasticloadbalancing"),
        ("aws_db_instance", "rds", "rds"),
        ("aws_vpc", "ec2", "ec2"),
        ("aws_subnet", "ec2", "ec2"),
        ("aws_default_security_group", "ec2", "ec2"),
        ("aws_instance", "ec2", "ec2"),
        ("aws_ebs_volume", "ec2", "ec2"),
        ("aws_eip", "ec2", "ec2"),
        ("aws_nat_gateway", "ec2", "ec2"),
        ("aws_route", "ec2", "ec2"),
        ("aws_route53_zone", "route53", "route53"),
        ("aws_elasticache_parameter_group", "elasticache", "elasticache"),
        ("aws_memorydb_acl", "memorydb", "memorydb"),
        ("aws_efs_file_system", "efs", "elasticfilesystem"),
        ("aws_ecr_repository", "ecr", "ecr"),
        ("aws_ecrpublic_repository", "ecr-public", "ecr-public"),
        ("aws_appautoscaling_target", "application-autoscaling", "application-autoscaling"),
        ("aws_ssoadmin_permission_set", "sso-admin", "sso"),
        ("aws_service_discovery_service", "servicediscovery", "servicediscovery"),
        ("aws_sqs_queue", "sqs", "sqs"),
    ],
)
def test_one_rule_names_a_types_service(resource_type: str, name: str, signing_name: str) -> None:
    assert service_of(resource_type) == AwsService(name, signing_name)


def test_no_rule_no_service() -> None:
    assert service_of("aws_no_such_thing_at_all") is None
    assert service_of("random_id") is None


@pytest.mark.parametrize(
    ("resource_type", "create", "read", "update", "delete"),
    [
        (
            "aws_elasticache_parameter_group",
            ("CreateCacheParameterGroup",),
            ("DescribeCacheParameterGroups",),
            ("ModifyCacheParameterGroup",),
            ("DeleteCacheParameterGroup",),
        ),
        (
            "aws_efs_backup_policy",
            ("PutBackupPolicy",),
            ("DescribeBackupPolicy",),
            ("PutBackupPolicy",),
            (),
        ),
        (
            "aws_instance",
            ("RunInstances",),
            ("DescribeInstances",),
            ("ModifyInstanceAttribute",),
            ("TerminateInstances",),
        ),
        (
            "aws_eip",
            ("AllocateAddress",),
            ("DescribeAddresses",),
            ("ModifyAddressAttribute",),
            ("ReleaseAddress",),
        ),
        (
            "aws_route_table_association",
            ("AssociateRouteTable",),
            ("DescribeRouteTables",),
            (),
            ("DisassociateRouteTable",),
        ),
        (
            "aws_default_vpc",
            ("DescribeVpcs",),
            ("DescribeVpcs",),
            ("ModifyVpcAttribute",),
            (),
        ),
        (
            "aws_iam_role_policy",
            ("PutRolePolicy",),
            ("GetRolePolicy",),
            ("PutRolePolicy",),
            ("DeleteRolePolicy",),
        ),
    ],
)
def test_inferred_from_the_resources_noun(
    resource_type: str,
    create: tuple[str, ...],
    read: tuple[str, ...],
    update: tuple[str, ...],
    delete: tuple[str, ...],
) -> None:
    found = infer_operations(resource_type)
    assert found is not None
    assert (found.create, found.read, found.update, found.delete) == (create, read, update, delete)


def test_operations_of_reads_the_data_per_provider_major() -> None:
    found = operations_of("aws_elasticache_parameter_group", "5")
    assert found == ResourceOperations(
        "elasticache",
        ("CreateCacheParameterGroup",),
        ("DescribeCacheParameterGroups",),
        ("ModifyCacheParameterGroup",),
        ("DeleteCacheParameterGroup",),
        source="inferred",
    )
    assert operations_of("aws_elasticache_parameter_group", 3) == found
    assert operations_of("aws_vpc", "3") is not None
    assert operations_of("aws_s3_object", "3") is None  # a 5.x type only
    assert operations_of("aws_s3_object", "5") is not None
    assert operations_of("aws_no_such_thing", "5") is None
    assert operations_of("aws_vpc", "99") is None
    with pytest.raises(ValueError, match="phase"):
        found.of("plan")


def test_every_operation_in_the_data_is_in_botocores_model() -> None:
    data = json.loads(DATA.read_text())
    stale = [
        f"aws {major}.x {kind}: {ops.service} {op}"
        for major, kind, ops in entries(data)
        for phase in ("create", "read", "update", "delete")
        for op in ops.of(phase)
        if op not in (service_model(ops.service) or {}).get("operations", {})
    ]
    assert not stale, "gone from botocore (regenerate the data): " + ", ".join(stale[:20])


def test_every_entry_says_where_it_comes_from() -> None:
    sources = {ops.source for _, _, ops in entries(json.loads(DATA.read_text()))}
    assert sources <= {"learned", "inferred"}


def test_learning_from_recordings(tmp_path: Path) -> None:
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    (recordings / "run.json").write_text(
        json.dumps(
            [
                {
                    "resource_type": "aws_vpc",
                    "operation": "CreateVpc",
                    "phase": "create",
                    "provider_major": "5",
                },
                {
                    "resource_type": "aws_vpc",
                    "operation": "ModifyVpcAttribute",
                    "phase": "create",
                    "provider_major": "5",
                },
            ]
        )
    )
    (recordings / "points.json").write_text(
        json.dumps({"provider_major": "3", "points": ["CreateQueue#1@module.q.aws_sqs_queue.jobs"]})
    )
    output = tmp_path / "ops.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "learn_resource_operations.py"),
            "--recordings",
            str(recordings),
            "--output",
            str(output),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(output.read_text())
    vpc = data["providers"]["5"]["types"]["aws_vpc"]
    assert vpc["source"] == "learned"
    assert vpc["create"] == ["CreateVpc", "ModifyVpcAttribute"]
    assert vpc["read"] == ["DescribeVpcs"]  # not recorded: inferred
    assert data["providers"]["3"]["types"]["aws_sqs_queue"]["create"] == ["CreateQueue"]


def test_the_shipped_learned_entries_are_the_recordings() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "learn_resource_operations", ROOT / "scripts" / "learn_resource_operations.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    recorded = script.learned(script.recorded_calls(ROOT / "tests" / "data" / "recordings"))
    shipped = {
        (major, kind): ops
        for major, kind, ops in entries(json.loads(DATA.read_text()))
        if ops.source == "learned"
    }
    assert set(shipped) == {(m, k) for m, found in recorded.items() for k in found}
    for (major, kind), ops in shipped.items():
        assert set(ops.create) >= set(recorded[major][kind]["create"]), kind
    sg = operations_of("aws_security_group", "3")
    assert sg is not None and sg.create[0] == "CreateSecurityGroup"
    assert "RevokeSecurityGroupEgress" in sg.create  # the default egress rule goes


def test_the_signing_names_are_botocores() -> None:
    from pytest_converge.awsapi.operations import botocore_services, signing_name

    kept = json.loads(DATA.read_text())["signing_names"]
    assert set(kept) == set(botocore_services()), "regenerate the data: botocore changed"
    for service in ("stepfunctions", "elbv2", "cloudwatch", "efs", "sso-admin", "s3control"):
        assert kept[service] == signing_name(service)
