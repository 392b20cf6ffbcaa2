"""EFS's backup policy, policy removal and replication (``fidelity/efs.py``), through boto3.

As in ``test_fidelity_services.py``: the session's moto answers as the EFS API
reference says, and a moto with the layer off (``raw_moto``) still answers as
moto 5.2 does; when it no longer does, retire the behaviour. Terraform shows
the claim: terraform-aws-modules/efs's complete example, cut to aws 5.x,
converges on aws 5.x.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

MODULES = Path(__file__).resolve().parents[1] / "modules"
POLICY = json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"},
                   "Action": "elasticfilesystem:ClientMount", "Resource": "*"}],
})  # fmt: skip


def _code(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return str(caught.value.response["Error"]["Code"])


def test_a_file_systems_backup_policy_is_kept(emulator, raw_moto) -> None:
    efs = emulator.client("efs")
    fs = efs.create_file_system(CreationToken="backed-up")["FileSystemId"]
    # Created without Backup: no policy yet, as AWS answers.
    assert _code(efs.describe_backup_policy, FileSystemId=fs) == "PolicyNotFound"
    for status in ("ENABLED", "DISABLED"):
        put = efs.put_backup_policy(FileSystemId=fs, BackupPolicy={"Status": status})
        assert put["BackupPolicy"] == {"Status": status}
        assert efs.describe_backup_policy(FileSystemId=fs)["BackupPolicy"] == {"Status": status}
    assert _code(
        efs.put_backup_policy, FileSystemId=fs, BackupPolicy={"Status": "ENABLING"}
    ) == "BadRequest"  # fmt: skip
    for call, kwargs in [
        (efs.describe_backup_policy, {}),
        (efs.put_backup_policy, {"BackupPolicy": {"Status": "ENABLED"}}),
    ]:
        assert _code(call, FileSystemId="fs-00000000", **kwargs) == "FileSystemNotFound"
    raw = raw_moto.client("efs")
    raw_fs = raw.create_file_system(CreationToken="backed-up")["FileSystemId"]
    with pytest.raises(ClientError):
        raw.put_backup_policy(FileSystemId=raw_fs, BackupPolicy={"Status": "ENABLED"})


def _access_points(moto: Any) -> list[str]:
    """Two creates with one ClientToken (a retried create), one with another token."""
    efs = moto.client("efs")
    fs = efs.create_file_system(CreationToken="shared")["FileSystemId"]
    made = [
        efs.create_access_point(ClientToken=token, FileSystemId=fs)["AccessPointId"]
        for token in ("retried", "retried", "other")
    ]
    listed = [
        a["AccessPointId"] for a in efs.describe_access_points(FileSystemId=fs)["AccessPoints"]
    ]
    assert sorted(listed) == sorted(set(made))
    return made


def test_an_access_points_client_token_makes_its_create_idempotent(emulator, raw_moto) -> None:
    first, again, other = _access_points(emulator)
    assert first == again and other != first
    # The layer off: moto 5.2 makes a second access point for the same token.
    first, again, _ = _access_points(raw_moto)
    assert first != again, "moto answers so itself: retire efs.access-point-client-token"


def test_a_file_system_policy_is_removed(emulator, raw_moto) -> None:
    efs = emulator.client("efs")
    fs = efs.create_file_system(CreationToken="guarded")["FileSystemId"]
    efs.put_file_system_policy(FileSystemId=fs, Policy=POLICY)
    assert efs.describe_file_system_policy(FileSystemId=fs)["Policy"] == POLICY
    efs.delete_file_system_policy(FileSystemId=fs)
    assert _code(efs.describe_file_system_policy, FileSystemId=fs) == "PolicyNotFound"
    for call, kwargs in [
        (efs.describe_file_system_policy, {}),
        (efs.put_file_system_policy, {"Policy": POLICY}),
        (efs.delete_file_system_policy, {}),
    ]:
        assert _code(call, FileSystemId="fs-00000000", **kwargs) == "FileSystemNotFound"
    raw = raw_moto.client("efs")
    raw_fs = raw.create_file_system(CreationToken="guarded")["FileSystemId"]
    raw.put_file_system_policy(FileSystemId=raw_fs, Policy=POLICY)
    with pytest.raises(ClientError):
        raw.delete_file_system_policy(FileSystemId=raw_fs)


def test_a_file_system_is_replicated_to_another_region(emulator, raw_moto) -> None:
    efs, there = emulator.client("efs", region="eu-west-1"), emulator.client("efs", "eu-west-2")
    fs = efs.create_file_system(CreationToken="source")["FileSystemId"]
    assert _code(efs.describe_replication_configurations, FileSystemId=fs) == (
        "ReplicationNotFound"
    )
    created = efs.create_replication_configuration(
        SourceFileSystemId=fs, Destinations=[{"Region": "eu-west-2"}]
    )
    [destination] = created["Destinations"]
    assert (destination["Status"], destination["Region"]) == ("ENABLED", "eu-west-2")
    # EFS made the destination file system, read-only, in the destination Region.
    [copy] = there.describe_file_systems(FileSystemId=destination["FileSystemId"])["FileSystems"]
    assert copy["FileSystemProtection"] == {"ReplicationOverwriteProtection": "REPLICATING"}
    [source] = efs.describe_file_systems(FileSystemId=fs)["FileSystems"]
    assert source["FileSystemProtection"] == {"ReplicationOverwriteProtection": "ENABLED"}
    # Either Region describes it, by the source's or the destination's ID.
    for client, asked in [(efs, fs), (there, fs), (there, destination["FileSystemId"])]:
        [found] = client.describe_replication_configurations(FileSystemId=asked)["Replications"]
        assert (found["SourceFileSystemId"], found["Destinations"]) == (fs, [destination])
    assert _code(
        efs.create_replication_configuration, SourceFileSystemId=fs,
        Destinations=[{"Region": "us-east-1"}],
    ) == "BadRequest"  # fmt: skip
    # Neither file system goes while they replicate.
    assert _code(efs.delete_file_system, FileSystemId=fs) == "FileSystemInUse"
    assert _code(there.delete_file_system, FileSystemId=destination["FileSystemId"]) == (
        "FileSystemInUse"
    )
    there.delete_replication_configuration(SourceFileSystemId=fs)
    for client in (efs, there):
        assert _code(client.delete_replication_configuration, SourceFileSystemId=fs) in (
            "ReplicationNotFound",
            "FileSystemNotFound",
        )
    assert _code(efs.describe_replication_configurations, FileSystemId=fs) == (
        "ReplicationNotFound"
    )
    [copy] = there.describe_file_systems(FileSystemId=destination["FileSystemId"])["FileSystems"]
    assert copy["FileSystemProtection"] == {"ReplicationOverwriteProtection": "ENABLED"}
    # LOCAL_CONFIGURATION_ONLY deletes the side of the Region asked only.
    again = efs.create_replication_configuration(
        SourceFileSystemId=fs, Destinations=[{"Region": "eu-west-2"}]
    )["Destinations"][0]["FileSystemId"]
    efs.delete_replication_configuration(
        SourceFileSystemId=fs, DeletionMode="LOCAL_CONFIGURATION_ONLY"
    )
    assert _code(efs.describe_replication_configurations, FileSystemId=fs) == "ReplicationNotFound"
    assert there.describe_replication_configurations(FileSystemId=again)["Replications"]
    assert _code(
        efs.create_replication_configuration, SourceFileSystemId="fs-00000000",
        Destinations=[{"Region": "eu-west-2"}],
    ) == "FileSystemNotFound"  # fmt: skip
    raw = raw_moto.client("efs")
    raw_fs = raw.create_file_system(CreationToken="source")["FileSystemId"]
    with pytest.raises(ClientError):
        raw.create_replication_configuration(
            SourceFileSystemId=raw_fs, Destinations=[{"Region": "eu-west-2"}]
        )


def test_a_file_systems_protection_is_kept(emulator, raw_moto) -> None:
    efs, there = emulator.client("efs", region="eu-west-1"), emulator.client("efs", "eu-west-2")
    fs = efs.create_file_system(CreationToken="protected")["FileSystemId"]

    def protection(client: Any = efs, fs_id: str = fs) -> str:
        [found] = client.describe_file_systems(FileSystemId=fs_id)["FileSystems"]
        return str(found["FileSystemProtection"]["ReplicationOverwriteProtection"])

    assert protection() == "ENABLED"
    changed = efs.update_file_system_protection(
        FileSystemId=fs, ReplicationOverwriteProtection="DISABLED"
    )
    assert (changed["ReplicationOverwriteProtection"], protection()) == ("DISABLED", "DISABLED")
    # Only a file system whose protection is off takes a replication's data.
    target = there.create_file_system(CreationToken="failback")["FileSystemId"]
    existing = [{"Region": "eu-west-2", "FileSystemId": target}]
    assert _code(
        efs.create_replication_configuration, SourceFileSystemId=fs, Destinations=existing
    ) == "BadRequest"  # fmt: skip
    there.update_file_system_protection(
        FileSystemId=target, ReplicationOverwriteProtection="DISABLED"
    )
    efs.create_replication_configuration(SourceFileSystemId=fs, Destinations=existing)
    assert protection(there, target) == "REPLICATING"
    assert _code(
        there.update_file_system_protection, FileSystemId=target,
        ReplicationOverwriteProtection="ENABLED",
    ) == "ReplicationAlreadyExists"  # fmt: skip
    for wanted, code in [("REPLICATING", "BadRequest"), ("ENABLED", "FileSystemNotFound")]:
        assert (
            _code(
                efs.update_file_system_protection,
                FileSystemId=fs if code == "BadRequest" else "fs-00000000",
                ReplicationOverwriteProtection=wanted,
            )
            == code
        )
    raw = raw_moto.client("efs")
    raw_fs = raw.create_file_system(CreationToken="protected")["FileSystemId"]
    assert "FileSystemProtection" not in raw.describe_file_systems(FileSystemId=raw_fs)[
        "FileSystems"
    ][0]  # fmt: skip


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_the_efs_complete_example_converges_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    stack = converge(provider_line.pin(MODULES / "fidelity_efs"))
    stack.assert_converged()
    assert stack.defects == [], stack.defects
    efs = converge_emulator.client("efs", region="eu-west-1")
    [fs] = efs.describe_file_systems(CreationToken="ex-complete")["FileSystems"]
    assert efs.describe_backup_policy(FileSystemId=fs["FileSystemId"])["BackupPolicy"] == {
        "Status": "ENABLED"
    }
    [replication] = efs.describe_replication_configurations(FileSystemId=fs["FileSystemId"])[
        "Replications"
    ]
    assert replication["Destinations"][0]["Region"] == "eu-west-2"
    assert fs["FileSystemProtection"] == {"ReplicationOverwriteProtection": "DISABLED"}
