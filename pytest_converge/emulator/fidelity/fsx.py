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
