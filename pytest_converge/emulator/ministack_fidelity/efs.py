"""EFS behaviours of the MiniStack layer (Amazon EFS API Reference)."""

from __future__ import annotations

import json
from typing import Any

from . import core

BEHAVIOURS: list[core.Behaviour] = []


@core.behaviour(
    BEHAVIOURS,
    "efs.access-point-posix-user",
    does="an access point created without a PosixUser has none (MiniStack kept an empty one, "
    "which the provider read as uid 0, gid 0: a permanent diff of posix_user)",
    reference="https://docs.aws.amazon.com/efs/latest/ug/API_CreateAccessPoint.html",
    test="tests/integration/test_ministack_fidelity.py::test_access_point_posix_user",
    replaces={"ministack.services.efs:_create_access_point": "ac198915a1ce9318"},
)
def access_point_posix_user() -> None:
    from ministack.services import efs

    created = core.original(efs, "_create_access_point")

    def _create_access_point(body: Any) -> Any:
        status, headers, answer = created(body)
        if status != 200 or "PosixUser" in body:
            return status, headers, answer
        record = efs._access_points[json.loads(answer)["AccessPointId"]]
        record.pop("PosixUser", None)
        return efs._json(status, record)

    core.patch(efs, "_create_access_point", _create_access_point)


@core.behaviour(
    BEHAVIOURS,
    "efs.policy-id-as-given",
    does="PutFileSystemPolicy keeps the policy's Id as given, none when it has none "
    "(MiniStack added Id 1, so a policy document without an Id never matched its read-back); "
    "the Sid and Resource it fills in are as the API reference's example answers",
    reference="https://docs.aws.amazon.com/efs/latest/ug/API_PutFileSystemPolicy.html",
    test="tests/integration/test_ministack_fidelity.py::test_policy_id_as_given",
    replaces={"ministack.services.efs:_put_file_system_policy": "b914ec0db0847496"},
)
def policy_id_as_given() -> None:
    from ministack.services import efs

    put = core.original(efs, "_put_file_system_policy")

    def _put_file_system_policy(fs_id: str, body: Any) -> Any:
        status, headers, answer = put(fs_id, body)
        if status != 200 or "Id" in json.loads(body["Policy"]):
            return status, headers, answer
        system = efs._file_systems[fs_id]
        policy = json.loads(system["FileSystemPolicy"])
        policy.pop("Id", None)
        system["FileSystemPolicy"] = json.dumps(policy)
        return efs._json(status, {"FileSystemId": fs_id, "Policy": system["FileSystemPolicy"]})

    core.patch(efs, "_put_file_system_policy", _put_file_system_policy)
