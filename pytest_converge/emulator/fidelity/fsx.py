"""FSx: a file system says where it is in its life, whose it is and in which VPC.

Following the FSx API reference (``API_FileSystem.html``): every ``FileSystem``
of ``CreateFileSystem`` and ``DescribeFileSystems`` has its ``Lifecycle``
(``CREATING``, then ``AVAILABLE``), ``CreationTime``, ``OwnerId`` and the
``VpcId`` of its subnets. moto 5.2 answers none of them, so the aws provider's
create waiter reads the state ``''`` and fails every Lustre, ONTAP and OpenZFS
file system ("unexpected state '', wanted target 'AVAILABLE'"). The emulator
makes a file system at once, so it is ``AVAILABLE`` from its first answer.
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
