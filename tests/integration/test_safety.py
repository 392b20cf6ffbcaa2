"""A module written for a real account still only ever talks to the emulator."""

from __future__ import annotations

import textwrap

import pytest

from pytest_converge.emulator.base import Emulator
from pytest_converge.errors import UnsafeTargetError

REAL_ACCOUNT_MODULE = textwrap.dedent(
    """
    terraform {
      backend "s3" {
        bucket = "company-terraform-state"
        key    = "prod/network.tfstate"
        region = "us-east-1"
      }
    }

    provider "aws" {
      region                  = "us-east-1"
      profile                 = "production"
      shared_credentials_file = "/home/ops/.aws/credentials"
      allowed_account_ids     = ["999999999999"]
      assume_role {
        role_arn = "arn:aws:iam::999999999999:role/admin"
      }
      endpoints {
        s3  = "https://s3.amazonaws.com"
        sqs = "https://sqs.us-east-1.amazonaws.com"
      }
    }

    provider "aws" {
      alias  = "west"
      region = "us-west-2"
      profile = "production"
    }

    resource "aws_sqs_queue" "east" {
      name = "safety-east"
    }

    resource "aws_s3_bucket" "east" {
      bucket = "safety-east-bucket"
    }

    resource "aws_sqs_queue" "west" {
      provider = aws.west
      name     = "safety-west"
    }
    """
)


def test_real_account_settings_are_neutralised(converge, tmp_path):
    # (Ambient AWS_* variables are scrubbed too: tests/unit/test_safety.py. They
    # are not set here because moto runs inside this process and would see them.)
    (tmp_path / "main.tf").write_text(REAL_ACCOUNT_MODULE)
    stack = converge(tmp_path)
    result = stack.apply()
    # No network here: had anything gone anywhere but the emulator, apply would fail.
    assert result.ok, result.error
    ops = {c.operation for c in result.calls}
    assert {"CreateQueue", "CreateBucket"} <= ops
    # Signed with our fake key, or with the emulator's STS answer to the assume_role.
    assert any(c.operation == "AssumeRole" for c in result.calls)
    assert {c.access_key[:4] for c in result.calls if c.access_key} <= {"AKIA", "ASIA"}
    assert not (stack.workdir / ".terraform" / "terraform.tfstate").exists() or (
        '"type": "s3"' not in (stack.workdir / ".terraform" / "terraform.tfstate").read_text()
    )
    assert (stack.workdir / "terraform.tfstate").exists()  # local state, not S3


class _RemoteEmulator(Emulator):
    name = "remote"

    @property
    def endpoint(self) -> str:
        return "https://ec2.us-east-1.amazonaws.com"

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def reset(self) -> None:
        pass

    def is_alive(self) -> bool:
        return True


def test_stack_refuses_an_emulator_that_is_not_loopback(converge_toolchain, tmp_path):
    from pytest_converge.stack import Stack
    from pytest_converge.workspace import Templates

    (tmp_path / "main.tf").write_text('resource "terraform_data" "x" {}\n')
    with pytest.raises(UnsafeTargetError):
        Stack(
            tmp_path,
            emulator=_RemoteEmulator(),
            templates=Templates(converge_toolchain, tmp_path / "t"),
            workdir=tmp_path / "w",
        )
