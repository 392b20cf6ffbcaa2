"""FSx: a file system says where it is in its life, whose it is and in which VPC.

Following the FSx API reference (``API_FileSystem.html``): every ``FileSystem``
of ``CreateFileSystem`` and ``DescribeFileSystems`` has its ``Lifecycle``
(``CREATING``, then ``AVAILABLE``), ``CreationTime``, ``OwnerId`` and the
``VpcId`` of its subnets. moto 5.2 answers none of them, so the aws provider's
create waiter reads the state ``''`` and fails every Lustre, ONTAP and OpenZFS
file system ("unexpected state '', wanted target 'AVAILABLE'"). The emulator
makes a file system at once, so it is ``AVAILABLE`` from its first answer.

A file system's ``WindowsConfiguration`` is answered in its own shape
(``WindowsFileSystemConfiguration``), not the request's: ``Aliases`` are
``Alias`` objects and a self-managed directory's password is never answered.
A Lustre file system keeps its ``FileSystemTypeVersion`` (the Lustre version),
and its data repository associations (links of its directories to S3 prefixes).
An ONTAP file system keeps its storage virtual machines (``API_StorageVirtualMachine.html``)
and their volumes, an OpenZFS file system its root volume and the volumes under it
(``API_Volume.html``): the aws provider reads an OpenZFS file system's root volume
on every refresh.
"""

from __future__ import annotations

import json
import time
from typing import Any
from uuid import uuid4

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []


def _vpc_of(account_id: str, region: str, subnet_ids: list[str]) -> str | None:
    """The VPC of the first of ``subnet_ids`` moto's EC2 knows, else None."""
    from moto.ec2.models import ec2_backends

    ec2 = ec2_backends[account_id][region]
    for subnet_id in subnet_ids or ():
        try:
            return str(ec2.get_subnet(subnet_id).vpc_id)
        except Exception:
            continue
    return None


@behaviour(
    BEHAVIOURS,
    "fsx.file-system-lifecycle",
    does="CreateFileSystem and DescribeFileSystems answer each file system's Lifecycle "
    "(AVAILABLE), CreationTime, OwnerId and VpcId",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/API_FileSystem.html",
    test="tests/integration/test_fidelity_services.py::test_fsx_a_file_system_is_available",
    replaces={"moto.fsx.models:FileSystem.to_dict": "dbc82ceeb298a3b8"},
)
def _file_system_lifecycle() -> None:
    from moto.fsx.models import FileSystem

    to_dict = original(FileSystem, "to_dict")

    def with_lifecycle(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = to_dict(self)
        _, _, _, region, account_id, _ = self.resource_arn.split(":", 5)
        created = vars(self).setdefault("_created", time.time())
        answer.update(Lifecycle="AVAILABLE", CreationTime=created, OwnerId=account_id)
        vpc = _vpc_of(account_id, region, self.subnet_ids)
        if vpc is not None:
            answer["VpcId"] = vpc
        return answer

    patch(FileSystem, "to_dict", with_lifecycle)


#: WindowsFileSystemConfiguration members a CreateFileSystem request names otherwise.
_WINDOWS_ONLY_ASKED = ("Aliases", "SelfManagedActiveDirectoryConfiguration")


@behaviour(
    BEHAVIOURS,
    "fsx.windows-configuration",
    does="CreateFileSystem and DescribeFileSystems answer a Windows file system's Aliases "
    "as Alias objects (Name, Lifecycle AVAILABLE) and its self-managed directory "
    "without the password (moto: the request's strings, which the provider cannot decode)",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/"
    "API_WindowsFileSystemConfiguration.html",
    test="tests/integration/test_fidelity_services.py::test_fsx_answers_a_windows_configuration",
    replaces={"moto.fsx.models:FileSystem.to_dict": "dbc82ceeb298a3b8"},
)
def _windows_configuration() -> None:
    from moto.fsx.models import FileSystem

    to_dict = original(FileSystem, "to_dict")

    def with_windows_shape(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = to_dict(self)
        asked = answer.get("WindowsConfiguration")
        if not asked:
            return answer
        windows = {k: v for k, v in asked.items() if k not in _WINDOWS_ONLY_ASKED}
        if asked.get("Aliases"):
            windows["Aliases"] = [
                {"Name": name, "Lifecycle": "AVAILABLE"} for name in asked["Aliases"]
            ]
        directory = asked.get("SelfManagedActiveDirectoryConfiguration")
        if directory:
            windows["SelfManagedActiveDirectoryConfiguration"] = {
                k: v for k, v in directory.items() if k != "Password"
            }
        answer["WindowsConfiguration"] = windows
        return answer

    patch(FileSystem, "to_dict", with_windows_shape)


def _lustre_version(asked: str | None, lustre: dict[str, Any] | None) -> str:
    """The Lustre version AWS gives a file system: ``asked``, else its documented default."""
    if asked:
        return asked
    lustre = lustre or {}
    if lustre.get("DeploymentType") != "PERSISTENT_2":
        return "2.10"
    return "2.15" if (lustre.get("MetadataConfiguration") or {}).get("Mode") else "2.12"


@behaviour(
    BEHAVIOURS,
    "fsx.lustre-version",
    does="CreateFileSystem keeps a Lustre file system's FileSystemTypeVersion (2.10, or 2.12 "
    "or 2.15 for PERSISTENT_2, unless given) and every answer has it (moto: dropped, so "
    "the provider read '' and replaced the file system on every plan)",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html",
    test="tests/integration/test_fidelity_services.py::test_fsx_a_lustre_file_system_keeps_its_version",
    replaces={
        "moto.fsx.models:FSxBackend.create_file_system": "bd32c690f22d47b1",
        "moto.fsx.models:FileSystem.to_dict": "dbc82ceeb298a3b8",
    },
)
def _lustre_version_kept() -> None:
    from moto.fsx.models import FileSystem, FSxBackend

    create = original(FSxBackend, "create_file_system")
    to_dict = original(FileSystem, "to_dict")

    def create_keeping_version(self: Any, **kwargs: Any) -> Any:
        made = create(self, **kwargs)
        if made.file_system_type == "LUSTRE":
            made._type_version = _lustre_version(
                kwargs.get("file_system_type_version"), kwargs.get("lustre_configuration")
            )
        return made

    def with_version(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = to_dict(self)
        version = vars(self).get("_type_version")
        if version:
            answer["FileSystemTypeVersion"] = version
        return answer

    patch(FSxBackend, "create_file_system", create_keeping_version)
    patch(FileSystem, "to_dict", with_version)


def _not_found(association_id: str) -> Exception:
    from moto.core.exceptions import JsonRESTError

    return JsonRESTError(
        "DataRepositoryAssociationNotFound",
        f"Data repository association '{association_id}' does not exist.",
    )


class DataRepositoryAssociation:
    """A link between a Lustre file system's directory and an S3 bucket's prefix."""

    def __init__(self, backend: Any, asked: dict[str, Any]) -> None:
        self.association_id = f"dra-{uuid4().hex[:17]}"
        self.resource_arn = (
            f"arn:aws:fsx:{backend.region_name}:{backend.account_id}:association/"
            f"{asked['FileSystemId']}/{self.association_id}"
        )
        self.file_system_id: str = asked["FileSystemId"]
        self.file_system_path: str = asked.get("FileSystemPath") or "/"
        self.data_repository_path: str = asked["DataRepositoryPath"]
        self.batch_import: bool = bool(asked.get("BatchImportMetaDataOnCreate"))
        self.chunk_size: int = asked.get("ImportedFileChunkSize") or 1024
        self.s3: dict[str, Any] | None = asked.get("S3")
        self.created = time.time()

    def answer(self, backend: Any, lifecycle: str = "AVAILABLE") -> dict[str, Any]:
        answer = {
            "AssociationId": self.association_id,
            "ResourceARN": self.resource_arn,
            "FileSystemId": self.file_system_id,
            "Lifecycle": lifecycle,
            "FileSystemPath": self.file_system_path,
            "DataRepositoryPath": self.data_repository_path,
            "BatchImportMetaDataOnCreate": self.batch_import,
            "ImportedFileChunkSize": self.chunk_size,
            "Tags": backend.list_tags_for_resource(self.resource_arn),
            "CreationTime": self.created,
        }
        if self.s3:
            answer["S3"] = self.s3
        return answer


class DataRepositoryAssociationBackend:
    """The Region's data repository associations (an FSxBackend mixin)."""

    data_repository_associations: Kept[DataRepositoryAssociation] = Kept()

    def get_data_repository_association(self, association_id: str) -> DataRepositoryAssociation:
        found = self.data_repository_associations.get(association_id)
        if found is None:
            raise _not_found(association_id)
        return found

    def create_data_repository_association(
        self, asked: dict[str, Any]
    ) -> DataRepositoryAssociation:
        from moto.fsx.exceptions import FileSystemNotFound

        if asked.get("FileSystemId") not in self.file_systems:  # type: ignore[attr-defined]
            raise FileSystemNotFound(asked.get("FileSystemId") or "")
        made = DataRepositoryAssociation(self, asked)
        self.data_repository_associations[made.association_id] = made
        if asked.get("Tags"):
            self.tagger.tag_resource(made.resource_arn, asked["Tags"])  # type: ignore[attr-defined]
        return made

    def update_data_repository_association(
        self, asked: dict[str, Any]
    ) -> DataRepositoryAssociation:
        found = self.get_data_repository_association(asked.get("AssociationId") or "")
        if asked.get("ImportedFileChunkSize"):
            found.chunk_size = asked["ImportedFileChunkSize"]
        if asked.get("S3") is not None:
            found.s3 = asked["S3"]
        return found

    def delete_data_repository_association(self, association_id: str) -> DataRepositoryAssociation:
        found = self.get_data_repository_association(association_id)
        del self.data_repository_associations[association_id]
        self.tagger.delete_all_tags_for_resource(found.resource_arn)  # type: ignore[attr-defined]
        return found


class DataRepositoryAssociationResponse:
    """The data repository association actions (an FSxResponse mixin)."""

    def create_data_repository_association(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        made = backend.create_data_repository_association(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"Association": made.answer(backend, "CREATING")})

    def describe_data_repository_associations(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        if asked.get("AssociationIds"):
            found = [backend.get_data_repository_association(i) for i in asked["AssociationIds"]]
        else:
            found = list(backend.data_repository_associations.values())
        for each in asked.get("Filters") or ():
            if each.get("Name") == "file-system-id":
                found = [a for a in found if a.file_system_id in each.get("Values", ())]
        page, token = one_page(
            [a.answer(backend) for a in found], asked.get("NextToken"), asked.get("MaxResults")
        )
        return json.dumps({"Associations": page, "NextToken": token})

    def update_data_repository_association(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        found = backend.update_data_repository_association(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"Association": found.answer(backend)})

    def delete_data_repository_association(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        gone = self.fsx_backend.delete_data_repository_association(asked.get("AssociationId"))  # type: ignore[attr-defined]
        return json.dumps(
            {
                "AssociationId": gone.association_id,
                "Lifecycle": "DELETING",
                "DeleteDataInFileSystem": bool(asked.get("DeleteDataInFileSystem")),
            }
        )


@behaviour(
    BEHAVIOURS,
    "fsx.data-repository-associations",
    does="Create/Describe/Update/DeleteDataRepositoryAssociation(s) keep a Lustre file "
    "system's links to S3 (ImportedFileChunkSize 1024 unless given), filtered by "
    "file-system-id and tagged by ARN; a missing association is "
    "DataRepositoryAssociationNotFound, a missing file system FileSystemNotFound",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/"
    "API_CreateDataRepositoryAssociation.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_fsx_keeps_a_data_repository_association",
)
def _data_repository_associations() -> None:
    from moto.fsx.models import FSxBackend
    from moto.fsx.responses import FSxResponse

    graft(DataRepositoryAssociationBackend, onto=FSxBackend)
    graft(DataRepositoryAssociationResponse, onto=FSxResponse)


def _fsx_error(code: str, message: str) -> Exception:
    from moto.core.exceptions import JsonRESTError

    return JsonRESTError(code, message)


def _file_system(backend: Any, file_system_id: str | None, kind: str) -> Any:
    """``file_system_id``'s file system, which must be of the FileSystemType ``kind``."""
    from moto.fsx.exceptions import FileSystemNotFound

    found = backend.file_systems.get(file_system_id or "")
    if found is None:
        raise FileSystemNotFound(file_system_id or "")
    if found.file_system_type != kind:
        raise _fsx_error("BadRequest", f"File system '{file_system_id}' is not {kind}.")
    return found


def _filtered(
    found: list[Any], filters: list[dict[str, Any]] | None, names: dict[str, str]
) -> list[Any]:
    """``found`` narrowed by a Describe request's ``Filters`` (``names``: filter -> attribute)."""
    for each in filters or ():
        attribute = names.get(each.get("Name", ""))
        if attribute:
            found = [f for f in found if getattr(f, attribute) in each.get("Values", ())]
    return found


class StorageVirtualMachine:
    """An FSx for ONTAP storage virtual machine (SVM) of a file system."""

    def __init__(self, backend: Any, asked: dict[str, Any]) -> None:
        self.svm_id = f"svm-{uuid4().hex[:17]}"
        self.file_system_id: str = asked["FileSystemId"]
        self.resource_arn = (
            f"arn:aws:fsx:{backend.region_name}:{backend.account_id}:storage-virtual-machine/"
            f"{self.file_system_id}/{self.svm_id}"
        )
        self.name: str = asked["Name"]
        self.uuid = str(uuid4())
        self.root_volume_security_style: str = asked.get("RootVolumeSecurityStyle") or "UNIX"
        self.active_directory: dict[str, Any] | None = None
        self.configure_directory(asked.get("ActiveDirectoryConfiguration"))
        self.created = time.time()
        # Management, NFS and SMB answer on one address of the file system's range.
        self.address = f"198.19.255.{len(backend.storage_virtual_machines) % 250 + 2}"

    def configure_directory(self, asked: dict[str, Any] | None) -> None:
        """Keep the Active Directory an SVM joins, as it is answered: no password, the
        NetBIOS name in capitals; an update keeps what it does not name."""
        if not asked:
            return
        directory = dict(self.active_directory or {})
        if asked.get("NetBiosName"):
            directory["NetBiosName"] = asked["NetBiosName"].upper()
        managed = {
            k: v
            for k, v in (asked.get("SelfManagedActiveDirectoryConfiguration") or {}).items()
            if k != "Password"
        }
        if managed:
            directory["SelfManagedActiveDirectoryConfiguration"] = {
                **directory.get("SelfManagedActiveDirectoryConfiguration", {}),
                **managed,
            }
        self.active_directory = directory

    def answer(self, backend: Any, region: str, lifecycle: str = "CREATED") -> dict[str, Any]:
        host = f"{self.svm_id}.{self.file_system_id}.fsx.{region}.amazonaws.com"

        def endpoint(prefix: str) -> dict[str, Any]:
            return {"DNSName": f"{prefix}{host}", "IpAddresses": [self.address]}

        endpoints = {
            "Iscsi": endpoint("iscsi."),
            "Management": endpoint(""),
            "Nfs": endpoint("nfs."),
        }
        answer: dict[str, Any] = {
            "CreationTime": self.created,
            "Endpoints": endpoints,
            "FileSystemId": self.file_system_id,
            "Lifecycle": lifecycle,
            "Name": self.name,
            "ResourceARN": self.resource_arn,
            "StorageVirtualMachineId": self.svm_id,
            "Subtype": "DEFAULT",
            "UUID": self.uuid,
            "Tags": backend.list_tags_for_resource(self.resource_arn),
        }
        if self.active_directory:
            answer["ActiveDirectoryConfiguration"] = self.active_directory
            managed = self.active_directory.get("SelfManagedActiveDirectoryConfiguration") or {}
            netbios = self.active_directory.get("NetBiosName")
            if netbios and managed.get("DomainName"):
                endpoints["Smb"] = {
                    "DNSName": f"{netbios}.{managed['DomainName']}".lower(),
                    "IpAddresses": [self.address],
                }
        return answer


class StorageVirtualMachineBackend:
    """The Region's ONTAP storage virtual machines (an FSxBackend mixin)."""

    storage_virtual_machines: Kept[StorageVirtualMachine] = Kept()

    def get_storage_virtual_machine(self, svm_id: str) -> StorageVirtualMachine:
        found = self.storage_virtual_machines.get(svm_id)
        if found is None:
            raise _fsx_error(
                "StorageVirtualMachineNotFound",
                f"Storage virtual machine '{svm_id}' does not exist.",
            )
        return found

    def create_storage_virtual_machine(self, asked: dict[str, Any]) -> StorageVirtualMachine:
        _file_system(self, asked.get("FileSystemId"), "ONTAP")
        made = StorageVirtualMachine(self, asked)
        self.storage_virtual_machines[made.svm_id] = made
        if asked.get("Tags"):
            self.tagger.tag_resource(made.resource_arn, asked["Tags"])  # type: ignore[attr-defined]
        return made

    def update_storage_virtual_machine(self, asked: dict[str, Any]) -> StorageVirtualMachine:
        found = self.get_storage_virtual_machine(asked.get("StorageVirtualMachineId") or "")
        found.configure_directory(asked.get("ActiveDirectoryConfiguration"))
        return found

    def delete_storage_virtual_machine(self, svm_id: str) -> StorageVirtualMachine:
        found = self.get_storage_virtual_machine(svm_id)
        volumes = getattr(self, "volumes", {})
        if any(v.svm_id == svm_id for v in volumes.values()):
            raise _fsx_error(
                "BadRequest",
                f"Storage virtual machine '{svm_id}' has volumes: delete them first.",
            )
        del self.storage_virtual_machines[svm_id]
        self.tagger.delete_all_tags_for_resource(found.resource_arn)  # type: ignore[attr-defined]
        return found


class StorageVirtualMachineResponse:
    """The storage virtual machine actions (an FSxResponse mixin)."""

    def create_storage_virtual_machine(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        made = backend.create_storage_virtual_machine(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps(
            {"StorageVirtualMachine": made.answer(backend, self.region, "CREATING")}  # type: ignore[attr-defined]
        )

    def describe_storage_virtual_machines(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        if asked.get("StorageVirtualMachineIds"):
            found = [
                backend.get_storage_virtual_machine(i) for i in asked["StorageVirtualMachineIds"]
            ]
        else:
            found = list(backend.storage_virtual_machines.values())
        found = _filtered(found, asked.get("Filters"), {"file-system-id": "file_system_id"})
        page, token = one_page(
            [s.answer(backend, self.region) for s in found],  # type: ignore[attr-defined]
            asked.get("NextToken"),
            asked.get("MaxResults"),
        )
        return json.dumps({"StorageVirtualMachines": page, "NextToken": token})

    def update_storage_virtual_machine(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        found = backend.update_storage_virtual_machine(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"StorageVirtualMachine": found.answer(backend, self.region)})  # type: ignore[attr-defined]

    def delete_storage_virtual_machine(self) -> str:
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        gone = self.fsx_backend.delete_storage_virtual_machine(asked.get("StorageVirtualMachineId"))  # type: ignore[attr-defined]
        return json.dumps({"StorageVirtualMachineId": gone.svm_id, "Lifecycle": "DELETING"})


@behaviour(
    BEHAVIOURS,
    "fsx.storage-virtual-machines",
    does="Create/Describe/Update/DeleteStorageVirtualMachine(s) keep an ONTAP file system's "
    "SVMs (CREATING then CREATED; endpoints, subtype DEFAULT, a UUID, the Active Directory "
    "joined without its password), filtered by file-system-id and tagged by ARN; a "
    "missing SVM is StorageVirtualMachineNotFound, one with volumes is not deleted",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/"
    "API_CreateStorageVirtualMachine.html",
    test="tests/integration/test_fidelity_services.py::test_fsx_keeps_a_storage_virtual_machine",
)
def _storage_virtual_machines() -> None:
    from moto.fsx.models import FSxBackend
    from moto.fsx.responses import FSxResponse

    graft(StorageVirtualMachineBackend, onto=FSxBackend)
    graft(StorageVirtualMachineResponse, onto=FSxResponse)


#: What AWS gives a SnapLock volume's retention unless asked (ONTAP's defaults).
_SNAPLOCK_RETENTION = {
    "DefaultRetention": {"Type": "YEARS", "Value": 0},
    "MinimumRetention": {"Type": "YEARS", "Value": 0},
    "MaximumRetention": {"Type": "YEARS", "Value": 30},
}
#: A tiering policy's cooling period unless asked, by its name.
_COOLING_DAYS = {"AUTO": 31, "SNAPSHOT_ONLY": 2}
_MEBIBYTE = 1024 * 1024


def _ontap_configuration(asked: dict[str, Any], svm: StorageVirtualMachine) -> dict[str, Any]:
    """An ONTAP volume's ``OntapConfiguration`` as AWS answers it for the ``asked`` one."""
    kept: dict[str, Any] = {
        "FlexCacheEndpointType": "NONE",
        "SecurityStyle": asked.get("SecurityStyle") or svm.root_volume_security_style,
        "StorageVirtualMachineId": svm.svm_id,
        "StorageVirtualMachineRoot": False,
        "UUID": str(uuid4()),
        "OntapVolumeType": asked.get("OntapVolumeType") or "RW",
        "SnapshotPolicy": asked.get("SnapshotPolicy") or "default",
        "CopyTagsToBackups": bool(asked.get("CopyTagsToBackups")),
        "StorageEfficiencyEnabled": bool(asked.get("StorageEfficiencyEnabled")),
        "VolumeStyle": asked.get("VolumeStyle") or "FLEXVOL",
        "TieringPolicy": {"Name": "SNAPSHOT_ONLY"},
    }
    if asked.get("JunctionPath"):
        kept["JunctionPath"] = asked["JunctionPath"]
    _ontap_update(kept, asked)
    if kept["VolumeStyle"] == "FLEXGROUP":
        aggregates = (asked.get("AggregateConfiguration") or {}).get("Aggregates") or ["aggr1"]
        each = (asked.get("AggregateConfiguration") or {}).get("ConstituentsPerAggregate") or 8
        kept["AggregateConfiguration"] = {
            "Aggregates": aggregates,
            "TotalConstituents": each * len(aggregates),
        }
    return kept


def _ontap_update(kept: dict[str, Any], asked: dict[str, Any]) -> None:
    """Apply the members a Create or UpdateOntapVolumeConfiguration names to ``kept``."""
    for member in (
        "JunctionPath", "SecurityStyle", "SnapshotPolicy", "CopyTagsToBackups",
        "StorageEfficiencyEnabled",
    ):  # fmt: skip
        if asked.get(member) is not None:
            kept[member] = asked[member]
    if asked.get("SizeInBytes"):
        kept["SizeInBytes"] = int(asked["SizeInBytes"])
        kept["SizeInMegabytes"] = kept["SizeInBytes"] // _MEBIBYTE
    elif asked.get("SizeInMegabytes"):
        kept["SizeInMegabytes"] = int(asked["SizeInMegabytes"])
        kept["SizeInBytes"] = kept["SizeInMegabytes"] * _MEBIBYTE
    if asked.get("TieringPolicy"):
        kept["TieringPolicy"] = dict(asked["TieringPolicy"])
    policy = kept["TieringPolicy"]
    if policy.get("Name") in _COOLING_DAYS:
        policy.setdefault("CoolingPeriod", _COOLING_DAYS[policy["Name"]])
    if asked.get("SnaplockConfiguration"):
        snaplock = {**kept.get("SnaplockConfiguration", {}), **asked["SnaplockConfiguration"]}
        snaplock.setdefault("AuditLogVolume", False)
        snaplock.setdefault("PrivilegedDelete", "DISABLED")
        snaplock.setdefault("VolumeAppendModeEnabled", False)
        snaplock.setdefault("AutocommitPeriod", {"Type": "NONE"})
        snaplock["RetentionPeriod"] = {**_SNAPLOCK_RETENTION, **snaplock.get("RetentionPeriod", {})}
        kept["SnaplockConfiguration"] = snaplock


def _openzfs_configuration(asked: dict[str, Any], path: str) -> dict[str, Any]:
    """An OpenZFS volume's ``OpenZFSConfiguration`` as AWS answers it for the ``asked`` one."""
    kept: dict[str, Any] = {
        "VolumePath": path,
        "RecordSizeKiB": 128,
        "DataCompressionType": "NONE",
        "CopyTagsToSnapshots": False,
        "ReadOnly": False,
        "NfsExports": [],
        "UserAndGroupQuotas": [],
    }
    for member in ("ParentVolumeId", "OriginSnapshot"):
        if asked.get(member):
            kept[member] = asked[member]
    _openzfs_update(kept, asked)
    if asked.get("CopyTagsToSnapshots") is not None:
        kept["CopyTagsToSnapshots"] = asked["CopyTagsToSnapshots"]
    return kept


def _openzfs_update(kept: dict[str, Any], asked: dict[str, Any]) -> None:
    """Apply the members an Update (or Create) OpenZFS volume configuration names to ``kept``."""
    for member in (
        "StorageCapacityReservationGiB", "StorageCapacityQuotaGiB", "RecordSizeKiB",
        "DataCompressionType", "NfsExports", "UserAndGroupQuotas", "ReadOnly",
    ):  # fmt: skip
        if asked.get(member) is not None:
            kept[member] = asked[member]


class Volume:
    """An FSx for ONTAP or OpenZFS volume."""

    def __init__(
        self, backend: Any, name: str, file_system_id: str, volume_type: str, tags: Any = None
    ) -> None:
        self.volume_id = f"fsvol-{uuid4().hex[:17]}"
        self.name = name
        self.file_system_id = file_system_id
        self.volume_type = volume_type
        self.resource_arn = (
            f"arn:aws:fsx:{backend.region_name}:{backend.account_id}:volume/"
            f"{file_system_id}/{self.volume_id}"
        )
        self.ontap: dict[str, Any] | None = None
        self.openzfs: dict[str, Any] | None = None
        self.created = time.time()
        if tags:
            backend.tagger.tag_resource(self.resource_arn, tags)

    @property
    def svm_id(self) -> str | None:
        return (self.ontap or {}).get("StorageVirtualMachineId")

    @property
    def parent_id(self) -> str | None:
        return (self.openzfs or {}).get("ParentVolumeId")

    def answer(self, backend: Any, lifecycle: str | None = None) -> dict[str, Any]:
        ready = "CREATED" if self.ontap is not None else "AVAILABLE"
        answer: dict[str, Any] = {
            "CreationTime": self.created,
            "FileSystemId": self.file_system_id,
            "Lifecycle": lifecycle or ready,
            "Name": self.name,
            "ResourceARN": self.resource_arn,
            "Tags": backend.list_tags_for_resource(self.resource_arn),
            "VolumeId": self.volume_id,
            "VolumeType": self.volume_type,
        }
        if self.ontap is not None:
            answer["OntapConfiguration"] = self.ontap
        if self.openzfs is not None:
            answer["OpenZFSConfiguration"] = self.openzfs
        return answer


def _volume_not_found(volume_id: str) -> Exception:
    return _fsx_error("VolumeNotFound", f"Volume '{volume_id}' does not exist.")


class VolumeBackend:
    """The Region's ONTAP and OpenZFS volumes (an FSxBackend mixin)."""

    volumes: Kept[Volume] = Kept()

    def get_volume(self, volume_id: str) -> Volume:
        found = self.volumes.get(volume_id)
        if found is None:
            raise _volume_not_found(volume_id)
        return found

    def create_openzfs_root_volume(self, file_system: Any) -> Volume:
        """The root volume AWS makes with an OpenZFS file system, from its
        ``RootVolumeConfiguration``."""
        asked = (file_system.open_zfs_configuration or {}).get("RootVolumeConfiguration") or {}
        root = Volume(self, "fsx", file_system.file_system_id, "OPENZFS")
        root.openzfs = _openzfs_configuration(asked, "/fsx")
        self.volumes[root.volume_id] = root
        return root

    def create_volume(self, asked: dict[str, Any]) -> Volume:
        kind = asked.get("VolumeType")
        if kind == "ONTAP":
            ontap = asked.get("OntapConfiguration") or {}
            svm = self.get_storage_virtual_machine(ontap.get("StorageVirtualMachineId") or "")  # type: ignore[attr-defined]
            made = Volume(self, asked["Name"], svm.file_system_id, kind, asked.get("Tags"))
            made.ontap = _ontap_configuration(ontap, svm)
        elif kind == "OPENZFS":
            openzfs = asked.get("OpenZFSConfiguration") or {}
            parent = self.get_volume(openzfs.get("ParentVolumeId") or "")
            path = f"{(parent.openzfs or {}).get('VolumePath', '/fsx')}/{asked['Name']}"
            made = Volume(self, asked["Name"], parent.file_system_id, kind, asked.get("Tags"))
            made.openzfs = _openzfs_configuration(openzfs, path)
        else:
            raise _fsx_error("BadRequest", f"VolumeType {kind!r} is not ONTAP or OPENZFS.")
        self.volumes[made.volume_id] = made
        return made

    def update_volume(self, asked: dict[str, Any]) -> Volume:
        found = self.get_volume(asked.get("VolumeId") or "")
        if asked.get("Name"):
            found.name = asked["Name"]
        if found.ontap is not None and asked.get("OntapConfiguration"):
            _ontap_update(found.ontap, asked["OntapConfiguration"])
        if found.openzfs is not None and asked.get("OpenZFSConfiguration"):
            _openzfs_update(found.openzfs, asked["OpenZFSConfiguration"])
        return found

    def check_deletable(self, file_system_id: str, openzfs: dict[str, Any] | None) -> None:
        """Refuse to delete a file system AWS refuses to: an ONTAP one with SVMs, an
        OpenZFS one with child volumes unless DELETE_CHILD_VOLUMES_AND_SNAPSHOTS."""
        svms = getattr(self, "storage_virtual_machines", {})
        if any(svm.file_system_id == file_system_id for svm in svms.values()):
            raise _fsx_error(
                "BadRequest",
                f"File system '{file_system_id}' has storage virtual machines: delete them first.",
            )
        children = [
            v for v in self.volumes.values() if v.file_system_id == file_system_id and v.parent_id
        ]
        options = (openzfs or {}).get("Options") or ()
        if children and "DELETE_CHILD_VOLUMES_AND_SNAPSHOTS" not in options:
            raise _fsx_error(
                "BadRequest",
                f"File system '{file_system_id}' has child volumes: delete them first, or "
                "ask for DELETE_CHILD_VOLUMES_AND_SNAPSHOTS.",
            )

    def delete_volume(self, asked: dict[str, Any]) -> Volume:
        found = self.get_volume(asked.get("VolumeId") or "")
        if found.openzfs is not None and not found.parent_id:
            raise _fsx_error("BadRequest", "A file system's root volume is deleted with it.")
        children = [v for v in self.volumes.values() if v.parent_id == found.volume_id]
        options = (asked.get("OpenZFSConfiguration") or {}).get("Options") or ()
        if children and "DELETE_CHILD_VOLUMES_AND_SNAPSHOTS" not in options:
            raise _fsx_error(
                "BadRequest", f"Volume '{found.volume_id}' has child volumes: delete them first."
            )
        for gone in [found, *children]:
            self.volumes.pop(gone.volume_id, None)
            self.tagger.delete_all_tags_for_resource(gone.resource_arn)  # type: ignore[attr-defined]
        return found


class VolumeResponse:
    """The volume actions (an FSxResponse mixin)."""

    def create_volume(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        made = backend.create_volume(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"Volume": made.answer(backend, "CREATING")})

    def describe_volumes(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        asked = json.loads(self.body)  # type: ignore[attr-defined]
        if asked.get("VolumeIds"):
            found = [backend.get_volume(i) for i in asked["VolumeIds"]]
        else:
            found = list(backend.volumes.values())
        found = _filtered(
            found,
            asked.get("Filters"),
            {"file-system-id": "file_system_id", "storage-virtual-machine-id": "svm_id"},
        )
        page, token = one_page(
            [v.answer(backend) for v in found], asked.get("NextToken"), asked.get("MaxResults")
        )
        return json.dumps({"Volumes": page, "NextToken": token})

    def update_volume(self) -> str:
        backend = self.fsx_backend  # type: ignore[attr-defined]
        found = backend.update_volume(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"Volume": found.answer(backend)})

    def delete_volume(self) -> str:
        gone = self.fsx_backend.delete_volume(json.loads(self.body))  # type: ignore[attr-defined]
        return json.dumps({"VolumeId": gone.volume_id, "Lifecycle": "DELETING"})


@behaviour(
    BEHAVIOURS,
    "fsx.volumes",
    does="Create/Describe/Update/DeleteVolume(s) keep ONTAP volumes (on an SVM; CREATED, "
    "sizes in bytes and MiB, RW, snapshot policy default, SNAPSHOT_ONLY tiering, FlexGroup "
    "aggregates, SnapLock defaults) and OpenZFS volumes (under a parent; AVAILABLE, 128 KiB "
    "records, no compression unless given); an OpenZFS file system has a root volume "
    "(OpenZFSConfiguration.RootVolumeId) that goes with it; VolumeNotFound for a missing one; "
    "a file system with SVMs, or child volumes unless asked to delete them, is not deleted",
    reference="https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateVolume.html",
    test="tests/integration/test_fidelity_services.py::test_fsx_keeps_ontap_and_openzfs_volumes",
    replaces={
        "moto.fsx.models:FSxBackend.create_file_system": "bd32c690f22d47b1",
        "moto.fsx.models:FSxBackend.delete_file_system": "8a6be56dbb904ea4",
        "moto.fsx.models:FileSystem.to_dict": "dbc82ceeb298a3b8",
    },
)
def _volumes() -> None:
    from moto.fsx.models import FileSystem, FSxBackend
    from moto.fsx.responses import FSxResponse

    graft(VolumeBackend, onto=FSxBackend)
    graft(VolumeResponse, onto=FSxResponse)
    create = original(FSxBackend, "create_file_system")
    delete = original(FSxBackend, "delete_file_system")
    to_dict = original(FileSystem, "to_dict")

    def create_with_root_volume(self: Any, **kwargs: Any) -> Any:
        made = create(self, **kwargs)
        if made.file_system_type == "OPENZFS":
            made._root_volume_id = self.create_openzfs_root_volume(made).volume_id
        return made

    def delete_with_volumes(self: Any, file_system_id: str, *args: Any, **kwargs: Any) -> Any:
        self.check_deletable(file_system_id, kwargs.get("open_zfs_configuration"))
        gone = delete(self, file_system_id, *args, **kwargs)
        for volume in [v for v in self.volumes.values() if v.file_system_id == file_system_id]:
            del self.volumes[volume.volume_id]
        return gone

    def with_root_volume(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = to_dict(self)
        root = vars(self).get("_root_volume_id")
        if root and "OpenZFSConfiguration" in answer:
            openzfs = dict(answer["OpenZFSConfiguration"])
            openzfs.pop("RootVolumeConfiguration", None)
            answer["OpenZFSConfiguration"] = {**openzfs, "RootVolumeId": root}
        return answer

    patch(FSxBackend, "create_file_system", create_with_root_volume)
    patch(FSxBackend, "delete_file_system", delete_with_volumes)
    patch(FileSystem, "to_dict", with_root_volume)
