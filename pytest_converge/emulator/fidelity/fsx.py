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
A Lustre file system keeps its ``FileSystemTypeVersion`` (the Lustre version).
"""

from __future__ import annotations

import time
from typing import Any

from . import Behaviour, behaviour, original, patch

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
