"""AWS-managed IAM policies exist in the embedded emulator, as in AWS, and are no findings."""

from __future__ import annotations

from pathlib import Path

from pytest_converge import LostResponse
from pytest_converge.inventory import pytest_converge_inventory

MODULE = Path(__file__).resolve().parents[1] / "modules" / "managed_policies"


def test_attaching_aws_managed_policies_converges(converge, converge_emulator):
    stack = converge(MODULE)
    stack.apply().raise_for_error()
    stack.assert_converged()
    iam = converge_emulator.client("iam")
    attached = iam.list_attached_role_policies(RoleName="break-glass-admin")["AttachedPolicies"]
    assert [p["PolicyArn"] for p in attached] == ["arn:aws:iam::aws:policy/AdministratorAccess"]
    grouped = iam.list_attached_group_policies(GroupName="storage-operators")["AttachedPolicies"]
    assert [p["PolicyName"] for p in grouped] == ["AmazonS3FullAccess"]
    # Hundreds of AWS-managed policies exist; none is an object of the module.
    assert len(iam.list_policies(Scope="AWS", MaxItems=1000)["Policies"]) > 500
    policies = [
        o
        for o in pytest_converge_inventory(converge_emulator, None, None)
        if o.type == "aws_iam_policy"
    ]
    assert policies == []


def test_a_lost_attachment_response_recovers(converge):
    report = converge(MODULE).recover(LostResponse("AttachRolePolicy"))
    report.raise_for_defects()


def test_a_reset_forgets_attachments_to_aws_managed_policies(converge_emulator):
    # The policies are built once per emulator process and shared across resets.
    iam = converge_emulator.client("iam")
    arn = "arn:aws:iam::aws:policy/ReadOnlyAccess"
    converge_emulator.reset()
    iam.create_group(GroupName="readers")
    iam.attach_group_policy(GroupName="readers", PolicyArn=arn)
    assert iam.get_policy(PolicyArn=arn)["Policy"]["AttachmentCount"] == 1
    converge_emulator.reset()
    assert iam.get_policy(PolicyArn=arn)["Policy"]["AttachmentCount"] == 0
    assert iam.list_groups()["Groups"] == []
