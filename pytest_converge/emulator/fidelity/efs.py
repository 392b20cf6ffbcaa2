"""EFS: a file system's backup policy, policy removal, protection, replication to another Region.

Following the Amazon EFS API reference
(https://docs.aws.amazon.com/efs/latest/ug/api-reference.html):

- ``PutBackupPolicy``, ``DescribeBackupPolicy``: a file system's automatic
  backups, ``ENABLED`` or ``DISABLED``; one that never had a policy (created
  without ``Backup``) answers ``PolicyNotFound``, as moto 5.2 does. moto 5.2
  has no ``PutBackupPolicy``, and answers an unknown file system with a 500.
- ``DeleteFileSystemPolicy``: removes a file system's policy (then
  ``DescribeFileSystemPolicy`` answers ``PolicyNotFound``); the policy
  operations answer ``FileSystemNotFound`` for an unknown file system. moto 5.2
  has no ``DeleteFileSystemPolicy`` and answers a 500 there.
- ``CreateReplicationConfiguration``, ``DescribeReplicationConfigurations``,
  ``DeleteReplicationConfiguration``: a file system replicated to a new,
  read-only file system EFS creates in the destination Region (its
  ``FileSystemProtection`` is ``REPLICATING``; every other file system's is
  ``ENABLED``), deleted from both Regions or, with ``LOCAL_CONFIGURATION_ONLY``,
  from the one asked; ``DeleteFileSystem`` refuses a file system in one. moto
  5.2 implements none of them.
- ``UpdateFileSystemProtection`` / ``FileSystemProtection``: a file system's
  replication overwrite protection, ``ENABLED`` until turned ``DISABLED`` (as
  a replication's existing destination must be); moto 5.2 neither returns nor
  changes it.
- ``CreateAccessPoint``: its ``ClientToken`` makes the create idempotent: the same
  token on the same file system answers the access point it made (moto 5.2 made a
  second one, so a retried create after a lost response left a duplicate).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from . import Behaviour, Kept, behaviour, graft, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/efs/latest/ug/"
_TESTS = "tests/integration/test_fidelity_efs.py::"
_JSON = {"Content-Type": "application/json"}


def _file_system(backend: Any, file_system_id: str) -> Any:
    from moto.efs.exceptions import FileSystemNotFound

    found = backend.file_systems_by_id.get(file_system_id)
    if found is None:
        raise FileSystemNotFound(file_system_id)
    return found


class BackupPolicyResponse:
    """PutBackupPolicy (an EFSResponse mixin; moto has DescribeBackupPolicy)."""

    def put_backup_policy(self) -> Any:
        from moto.efs.exceptions import BadRequest

        file_system = _file_system(self.efs_backend, self._get_param("FileSystemId"))  # type: ignore[attr-defined]
        status = (self._get_param("BackupPolicy") or {}).get("Status")  # type: ignore[attr-defined]
        if status not in ("ENABLED", "DISABLED"):
            raise BadRequest(f"Invalid backup policy status {status!r}: ENABLED or DISABLED")
        # AWS passes through ENABLING/DISABLING; moto's changes are immediate.
        file_system._backup_policy_status = status
        return json.dumps({"BackupPolicy": {"Status": status}}), _JSON


@behaviour(
    BEHAVIOURS,
    "efs.backup-policy",
    does="PutBackupPolicy turns a file system's automatic backups ENABLED or DISABLED and "
    "DescribeBackupPolicy returns the status (PolicyNotFound if never set, FileSystemNotFound "
    "for an unknown file system)",
    reference=_API + "API_PutBackupPolicy.html",
    test=_TESTS + "test_a_file_systems_backup_policy_is_kept",
    replaces={
        "moto.efs.models:FileSystem.backup_policy": "e89f361d64059fa0",
        "moto.efs.models:EFSBackend.describe_backup_policy": "bd4150bc6742d3b6",
    },
)
def _backup_policy() -> None:
    from moto.efs.models import EFSBackend, FileSystem
    from moto.efs.responses import EFSResponse

    graft(BackupPolicyResponse, onto=EFSResponse)
    created_with = original(FileSystem, "backup_policy")
    describe = original(EFSBackend, "describe_backup_policy")

    def backup_policy(self: Any) -> dict[str, str] | None:
        status = vars(self).get("_backup_policy_status")
        return {"Status": status} if status else created_with(self)

    def describe_backup_policy(self: Any, file_system_id: str) -> dict[str, str]:
        _file_system(self, file_system_id)
        return describe(self, file_system_id)

    patch(FileSystem, "backup_policy", property(backup_policy))
    patch(EFSBackend, "describe_backup_policy", describe_backup_policy)


class FileSystemPolicyResponse:
    """DeleteFileSystemPolicy (an EFSResponse mixin)."""

    def delete_file_system_policy(self) -> Any:
        file_system = _file_system(self.efs_backend, self._get_param("FileSystemId"))  # type: ignore[attr-defined]
        file_system.file_system_policy = None
        return "{}", _JSON


@behaviour(
    BEHAVIOURS,
    "efs.file-system-policy",
    does="DeleteFileSystemPolicy removes a file system's policy (DescribeFileSystemPolicy then "
    "answers PolicyNotFound); the policy operations answer FileSystemNotFound for an unknown "
    "file system",
    reference=_API + "API_DeleteFileSystemPolicy.html",
    test=_TESTS + "test_a_file_system_policy_is_removed",
    replaces={
        "moto.efs.models:EFSBackend.describe_file_system_policy": "871cd9d479fb320c",
        "moto.efs.models:EFSBackend.put_file_system_policy": "23d1d5414cedfdce",
    },
)
def _file_system_policy() -> None:
    from moto.efs.models import EFSBackend
    from moto.efs.responses import EFSResponse

    graft(FileSystemPolicyResponse, onto=EFSResponse)
    for name in ("describe_file_system_policy", "put_file_system_policy"):
        patch(EFSBackend, name, _checking_the_file_system(original(EFSBackend, name)))


def _checking_the_file_system(moto_has: Any) -> Any:
    """``moto_has``, answering FileSystemNotFound for an unknown file system first."""

    def checked(self: Any, file_system_id: str, *args: Any, **kwargs: Any) -> Any:
        _file_system(self, file_system_id)
        return moto_has(self, file_system_id, *args, **kwargs)

    return checked


def _route(path: str) -> None:
    """Serve ``path`` as moto's EFS paths are served (its ``urls.url_paths``, read when the
    server first builds the EFS app: after :func:`install`)."""
    from moto.efs import urls

    if path in urls.url_paths:
        raise RuntimeError(f"moto's EFS already serves {path}: re-check this behaviour")
    urls.url_paths[path] = urls.response.dispatch


def _replication_not_found(file_system_id: str) -> Exception:
    from moto.efs.exceptions import EFSError

    error = EFSError(
        "ReplicationNotFound",
        f"No replication configuration found for file system '{file_system_id}'.",
    )
    error.code = 404
    return error


class ReplicationBackend:
    """Replication configurations of the Region's file systems (an EFSBackend mixin).

    A configuration is kept by the backends of both its Regions, under the
    source file system's ID: either Region describes and deletes it, as on AWS.
    """

    replications: Kept[dict[str, Any]] = Kept()

    def create_replication_configuration(
        self, source_id: str, destinations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        from moto.efs.exceptions import BadRequest
        from moto.efs.models import efs_backends

        source = _file_system(self, source_id)
        if len(destinations) != 1:
            raise BadRequest("A replication configuration has exactly one destination.")
        if source_id in self.replications or _protection(source) == "REPLICATING":
            raise BadRequest(
                f"File system '{source_id}' is already in a replication configuration."
            )
        [wanted] = destinations
        zone = wanted.get("AvailabilityZoneName")
        region = wanted.get("Region") or (zone[:-1] if zone else None)
        if not region:
            raise BadRequest("A destination needs a Region or an AvailabilityZoneName.")
        there: Any = efs_backends[self.account_id][region]  # type: ignore[attr-defined]
        if wanted.get("FileSystemId"):
            destination = _file_system(there, wanted["FileSystemId"])
            if _protection(destination) != "DISABLED":
                raise BadRequest(
                    f"The destination file system's replication overwrite protection must be "
                    f"DISABLED, not {_protection(destination)}."
                )
        else:
            destination = there.create_file_system(
                creation_token=str(uuid.uuid4()),
                performance_mode=source.performance_mode,
                encrypted=True,
                kms_key_id=wanted.get("KmsKeyId"),
                throughput_mode=source.throughput_mode,
                provisioned_throughput_in_mibps=source.provisioned_throughput_in_mibps,
                availability_zone_name=zone,
                backup=False,
                tags=[],
            )
        destination._replication_overwrite_protection = "REPLICATING"
        replication = {
            "SourceFileSystemId": source_id,
            "SourceFileSystemRegion": self.region_name,  # type: ignore[attr-defined]
            "SourceFileSystemArn": source.file_system_arn,
            "OriginalSourceFileSystemArn": source.file_system_arn,
            "CreationTime": time.time(),
            "SourceFileSystemOwnerId": self.account_id,  # type: ignore[attr-defined]
            "Destinations": [
                {
                    "Status": "ENABLED",
                    "FileSystemId": destination.file_system_id,
                    "Region": region,
                    "OwnerId": self.account_id,  # type: ignore[attr-defined]
                    **({"RoleArn": wanted["RoleArn"]} if wanted.get("RoleArn") else {}),
                }
            ],
        }
        self.replications[source_id] = there.replications[source_id] = replication
        return replication

    def describe_replication_configurations(self, file_system_id: str | None) -> list[Any]:
        if not file_system_id:
            return list(self.replications.values())
        found = [
            r
            for r in self.replications.values()
            if file_system_id
            in (r["SourceFileSystemId"], *(d["FileSystemId"] for d in r["Destinations"]))
        ]
        if not found:
            _file_system(self, file_system_id)
            raise _replication_not_found(file_system_id)
        return found

    def delete_replication_configuration(self, source_id: str, local_only: bool = False) -> None:
        from moto.efs.models import efs_backends

        replication = self.replications.get(source_id)
        if replication is None:
            _file_system(self, source_id)
            raise _replication_not_found(source_id)
        regions = {replication["SourceFileSystemRegion"],
                   *(d["Region"] for d in replication["Destinations"])}  # fmt: skip
        # LOCAL_CONFIGURATION_ONLY leaves the other Region's side as it is.
        for region in {self.region_name} if local_only else regions:  # type: ignore[attr-defined]
            backend: Any = efs_backends[self.account_id][region]  # type: ignore[attr-defined]
            backend.replications.pop(source_id, None)
            for gone in replication["Destinations"]:
                # Once replication stops, the destination is writable, and protected again.
                if gone["FileSystemId"] in backend.file_systems_by_id:
                    backend.file_systems_by_id[gone["FileSystemId"]].__dict__.pop(
                        "_replication_overwrite_protection", None
                    )


def _protection(file_system: Any) -> str:
    return str(vars(file_system).get("_replication_overwrite_protection", "ENABLED"))


class ReplicationResponse:
    """The replication configuration actions (an EFSResponse mixin)."""

    def create_replication_configuration(self) -> Any:
        replication = self.efs_backend.create_replication_configuration(  # type: ignore[attr-defined]
            self._get_param("SourceFileSystemId"),  # type: ignore[attr-defined]
            self._get_param("Destinations") or [],  # type: ignore[attr-defined]
        )
        return json.dumps(replication), _JSON

    def describe_replication_configurations(self) -> Any:
        found = self.efs_backend.describe_replication_configurations(  # type: ignore[attr-defined]
            self._get_param("FileSystemId")  # type: ignore[attr-defined]
        )
        return json.dumps({"Replications": found}), _JSON

    def delete_replication_configuration(self) -> Any:
        mode = self._get_param("deletionMode") or "ALL_CONFIGURATIONS"  # type: ignore[attr-defined]
        self.efs_backend.delete_replication_configuration(  # type: ignore[attr-defined]
            self._get_param("SourceFileSystemId"),  # type: ignore[attr-defined]
            local_only=mode == "LOCAL_CONFIGURATION_ONLY",
        )
        return "", {"status": 204, **_JSON}


@behaviour(
    BEHAVIOURS,
    "efs.replication-configuration",
    does="CreateReplicationConfiguration replicates a file system to a new read-only file system "
    "in the destination Region (FileSystemProtection REPLICATING, status ENABLED); "
    "DescribeReplicationConfigurations and DeleteReplicationConfiguration work from either "
    "Region; ReplicationNotFound for a file system without one; DeleteFileSystem refuses a "
    "file system in one (FileSystemInUse)",
    reference=_API + "API_CreateReplicationConfiguration.html",
    test=_TESTS + "test_a_file_system_is_replicated_to_another_region",
    replaces={"moto.efs.models:EFSBackend.delete_file_system": "92cd90a19d87e516"},
)
def _replication_configuration() -> None:
    from moto.efs.exceptions import FileSystemInUse
    from moto.efs.models import EFSBackend
    from moto.efs.responses import EFSResponse

    graft(ReplicationBackend, onto=EFSBackend)
    graft(ReplicationResponse, onto=EFSResponse)
    _route("/2015-02-01/file-systems/<file_system_id>/replication-configuration")
    delete = original(EFSBackend, "delete_file_system")

    def delete_file_system(self: Any, file_system_id: str) -> None:
        if file_system_id in self.file_systems_by_id and any(
            file_system_id
            in (r["SourceFileSystemId"], *(d["FileSystemId"] for d in r["Destinations"]))
            for r in self.replications.values()
        ):
            raise FileSystemInUse(
                f"File system '{file_system_id}' is part of a replication configuration: "
                "delete the replication configuration first."
            )
        delete(self, file_system_id)

    patch(EFSBackend, "delete_file_system", delete_file_system)


class ProtectionResponse:
    """UpdateFileSystemProtection (an EFSResponse mixin)."""

    def update_file_system_protection(self) -> Any:
        from moto.efs.exceptions import BadRequest, EFSError

        file_system = _file_system(self.efs_backend, self._get_param("FileSystemId"))  # type: ignore[attr-defined]
        wanted = self._get_param("ReplicationOverwriteProtection")  # type: ignore[attr-defined]
        if wanted not in ("ENABLED", "DISABLED"):
            raise BadRequest(f"ReplicationOverwriteProtection {wanted!r}: ENABLED or DISABLED")
        if _protection(file_system) == "REPLICATING":
            error = EFSError(
                "ReplicationAlreadyExists",
                f"File system '{file_system.file_system_id}' is the destination of a "
                "replication configuration.",
            )
            error.code = 409
            raise error
        file_system._replication_overwrite_protection = wanted
        return json.dumps({"ReplicationOverwriteProtection": wanted}), _JSON


@behaviour(
    BEHAVIOURS,
    "efs.file-system-protection",
    does="DescribeFileSystems returns a file system's FileSystemProtection (ENABLED unless "
    "changed, REPLICATING for a replication's destination) and UpdateFileSystemProtection "
    "turns it ENABLED or DISABLED",
    reference=_API + "API_UpdateFileSystemProtection.html",
    test=_TESTS + "test_a_file_systems_protection_is_kept",
    replaces={"moto.efs.models:FileSystem.info_json": "0f52c3fb5e662563"},
)
def _file_system_protection() -> None:
    from moto.efs.models import FileSystem
    from moto.efs.responses import EFSResponse

    graft(ProtectionResponse, onto=EFSResponse)
    _route("/2015-02-01/file-systems/<file_system_id>/protection")
    info_json = original(FileSystem, "info_json")

    def described(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = info_json(self)
        answer["FileSystemProtection"] = {"ReplicationOverwriteProtection": _protection(self)}
        return answer

    patch(FileSystem, "info_json", described)


@behaviour(
    BEHAVIOURS,
    "efs.access-point-client-token",
    does="CreateAccessPoint with the ClientToken of an access point of the same file system "
    "answers that access point instead of making a second one (idempotent creation)",
    reference=_API + "API_CreateAccessPoint.html",
    test=_TESTS + "test_an_access_points_client_token_makes_its_create_idempotent",
    replaces={"moto.efs.models:EFSBackend.create_access_point": "52799aefe97b7c02"},
)
def _access_point_client_token() -> None:
    from moto.efs.models import EFSBackend

    create = original(EFSBackend, "create_access_point")

    def create_access_point(self: Any, *args: Any, **kwargs: Any) -> Any:
        token = kwargs.get("client_token", args[0] if args else None)
        file_system = kwargs.get("file_system_id", args[2] if len(args) > 2 else None)
        made = next(
            (
                point
                for point in self.access_points.values()
                if token and point.client_token == token and point.file_system_id == file_system
            ),
            None,
        )
        return made if made is not None else create(self, *args, **kwargs)

    patch(EFSBackend, "create_access_point", create_access_point)
