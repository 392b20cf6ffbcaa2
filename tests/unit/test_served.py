"""The served-operations data (emulator/served.py): fresh, fast, and true of moto."""

from __future__ import annotations

import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.emulator.served import Served, served

ROOT = Path(__file__).resolve().parents[2]

#: Operations public modules met, and what moto 5.2.6's dispatch says of them.
#: ``PutRegistryPolicy``, ``PutRegistryScanningConfiguration``,
#: ``PutReplicationConfiguration`` and ``DisassociateTransitGatewayRouteTable``
#: are routed to code (it may fail on some input: served is not "does all AWS does").
MISSING = [
    ("elasticache", "CreateCacheParameterGroup"),
    ("elasticache", "CreateUserGroup"),
    ("elasticache", "CreateServerlessCache"),
    ("elasticache", "DescribeCacheParameterGroups"),
    ("memorydb", "CreateACL"),
    ("memorydb", "CreateParameterGroup"),
    ("efs", "PutBackupPolicy"),
    ("efs", "CreateReplicationConfiguration"),
    ("ecr", "CreatePullThroughCacheRule"),
    ("ecr", "CreateRepositoryCreationTemplate"),
    ("ram", "ListResourceSharePermissions"),
    ("ec2", "EnableVgwRoutePropagation"),
    ("network-firewall", "CreateRuleGroup"),
    ("network-firewall", "CreateFirewallPolicy"),
    ("network-firewall", "PutResourcePolicy"),
    ("network-firewall", "DeleteFirewall"),
    ("autoscaling", "AttachTrafficSources"),
    ("rds", "StartActivityStream"),
    ("rds", "StopActivityStream"),
    ("rds", "CreateDBClusterEndpoint"),
    # Routed to a method that only raises NotImplementedError:
    ("ecr", "GetDownloadUrlForLayer"),
    ("ec2", "DescribeVolumeAttribute"),
]
SERVED = [
    ("ecr", "PutRegistryPolicy"),
    ("ecr", "PutRegistryScanningConfiguration"),
    ("ecr", "PutReplicationConfiguration"),
    ("ec2", "DisassociateTransitGatewayRouteTable"),
    ("ec2", "CreateVpc"),
    ("ec2", "AssociateTransitGatewayRouteTable"),
    ("elasticache", "CreateReplicationGroup"),
    ("memorydb", "CreateCluster"),
    ("efs", "CreateFileSystem"),
    ("efs", "DescribeBackupPolicy"),
    ("ecr", "CreateRepository"),
    ("ram", "CreateResourceShare"),
    ("lambda", "PutFunctionConcurrency"),
    ("stepfunctions", "CreateStateMachine"),
    ("elbv2", "DescribeLoadBalancers"),
    ("es", "ListDomainNames"),
    ("opensearch", "ListDomainNames"),
    # Classes that read the action from the path their own way (Batch: the word after
    # /v1/, so the method is ``createcomputeenvironment``; one ``tags`` serves three):
    ("batch", "CreateComputeEnvironment"),
    ("batch", "TagResource"),
    ("xray", "PutTraceSegments"),
]


def by_moto(service: str, operation: str) -> bool | None:
    """What moto as released serves: the data less what the fidelity layer adds."""
    entry = served("moto").service(service)
    if entry is None:
        return None
    return entry.serves(operation) and operation not in entry.fidelity


def test_the_data_is_of_the_installed_moto() -> None:
    assert served("moto").version == version("moto"), (
        "data/served/moto.json is of another moto: run python scripts/served_operations.py"
    )


def test_regenerating_the_data_changes_nothing() -> None:
    # A process of its own: the generator installs the fidelity layer into moto's classes.
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "served_operations.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_loading_is_fast() -> None:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        served.__wrapped__("moto")
        best = min(best, time.perf_counter() - started)
    assert best < 0.02


@pytest.mark.parametrize(("service", "operation"), MISSING)
def test_operations_moto_lacks(service: str, operation: str) -> None:
    # Unless the fidelity layer adds it since (regenerated data says so).
    assert by_moto(service, operation) is False
    entry = served("moto").service(service)
    assert entry is not None
    assert served("moto").serves(service, operation) is (operation in entry.fidelity)


@pytest.mark.parametrize(("service", "operation"), SERVED)
def test_operations_moto_serves(service: str, operation: str) -> None:
    assert served("moto").serves(service, operation) is True


def test_what_the_data_does_not_know_is_none() -> None:
    moto = served("moto")
    assert moto.serves("ecr-public", "CreateRepository") is None  # no moto service at all
    assert "ecr-public" not in moto.services
    # S3's URL pattern matches s3-outposts' host too; its handlers are S3's own.
    assert moto.serves("s3outposts", "CreateEndpoint") is None
    assert served("no-such-backend") == Served("no-such-backend")
    assert served("no-such-backend").serves("ec2", "CreateVpc") is None


def test_a_service_read_by_its_own_handler_is_served_whole() -> None:
    s3 = served("moto").service("s3")
    assert s3 is not None and s3.whole
    assert served("moto").serves("s3", "PutBucketTagging") is True


def test_the_fidelity_layers_operations_are_served_and_named() -> None:
    moto = served("moto")
    logs = moto.service("logs")
    assert logs is not None and "PutDataProtectionPolicy" in logs.fidelity
    assert moto.serves("logs", "PutDataProtectionPolicy") is True
    assert moto.serves("outposts", "ListOutposts") is True  # a service of its own
    assert "CreateLogGroup" not in logs.fidelity


def test_every_name_is_botocores() -> None:
    import botocore.loaders

    loader = botocore.loaders.create_loader()
    available = set(loader.list_available_services("service-2"))
    data = served("moto")
    assert data.services <= available
    for name in ("ec2", "elasticache", "efs"):
        model = loader.load_service_model(name, "service-2")
        entry = data.service(name)
        assert entry is not None and entry.operations <= set(model["operations"])


def _dummy(shape: object, depth: int = 0) -> object:
    kind = getattr(shape, "type_name", "string")
    if kind == "structure":
        members = getattr(shape, "members", {})
        required = getattr(shape, "required_members", [])
        return {m: _dummy(members[m], depth + 1) for m in required} if depth < 4 else {}
    return {
        "list": [],
        "map": {},
        "integer": 1,
        "long": 1,
        "boolean": False,
        "double": 1.0,
        "float": 1.0,
        "timestamp": 0,
        "blob": b"x",
    }.get(kind, "x")


def _moto_answers(client: Any, operation: str) -> bool:
    """Call moto (as released: no fidelity layer) in this process; False when it says
    the action is not implemented or routes the request nowhere (404 with no code)."""
    from botocore.exceptions import ClientError

    model = client.meta.service_model.operation_model(operation)
    params = _dummy(model.input_shape) if model.input_shape is not None else {}
    method = {v: k for k, v in client.meta.method_to_api_mapping.items()}[operation]
    try:
        getattr(client, method)(**params)
    except NotImplementedError:
        return False
    except ClientError as exc:
        nowhere = exc.response.get("Error", {}).get("Code") == "404"
        return not (nowhere and exc.response["ResponseMetadata"]["HTTPStatusCode"] == 404)
    except Exception:  # the operation's code ran and failed on dummy input: it is served
        return True
    return True


def test_the_data_agrees_with_moto_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE"):
        monkeypatch.delenv(name, raising=False)
    import boto3
    from botocore.config import Config
    from moto import mock_aws

    config = Config(parameter_validation=False, retries={"max_attempts": 1})
    clients: dict[str, Any] = {}
    with mock_aws():
        for service, _ in MISSING + SERVED:
            clients.setdefault(
                service,
                boto3.client(
                    service,
                    region_name="us-east-1",
                    aws_access_key_id="testing",
                    aws_secret_access_key="testing",
                    config=config,
                ),
            )
        said = {(s, o): _moto_answers(clients[s], o) for s, o in MISSING + SERVED}
    assert said == {(s, o): by_moto(s, o) for s, o in MISSING + SERVED}
