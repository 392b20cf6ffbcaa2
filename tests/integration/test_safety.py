"""A module written for a real account still only ever talks to the emulator."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_converge.emulator.base import TERRAFORM_ACCESS_KEY, Emulator
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


#: The same for provider 5.x, in its own words (``shared_credentials_file`` is gone),
#: with the settings 5.x adds that could send a call elsewhere: STS's own region,
#: FIPS/dual-stack endpoints, a proxy, a CA bundle, config files, a role chain.
REAL_ACCOUNT_MODULE_5 = textwrap.dedent(
    """
    provider "aws" {
      region                   = "us-east-1"
      profile                  = "production"
      shared_config_files      = ["/home/ops/.aws/config"]
      shared_credentials_files = ["/home/ops/.aws/credentials"]
      allowed_account_ids      = ["999999999999"]
      sts_region               = "eu-central-1"
      use_fips_endpoint        = true
      use_dualstack_endpoint   = true
      http_proxy               = "http://proxy.corp.example:3128"
      https_proxy              = "http://proxy.corp.example:3128"
      custom_ca_bundle         = "/etc/corp/ca.pem"
      retry_mode               = "adaptive"
      assume_role {
        role_arn     = "arn:aws:iam::999999999999:role/admin"
        session_name = "ci"
      }
      endpoints {
        s3  = "https://s3.amazonaws.com"
        sqs = "https://sqs.us-east-1.amazonaws.com"
        sts = "https://sts.amazonaws.com"
        iam = "https://iam.amazonaws.com"
      }
    }

    provider "aws" {
      alias      = "west"
      region     = "us-west-2"
      profile    = "production"
      sts_region = "us-west-2"
    }

    data "aws_caller_identity" "west" {
      provider = aws.west
    }

    resource "aws_sqs_queue" "east" {
      name = "safety-east"
    }

    resource "aws_s3_bucket" "east" {
      bucket = "safety-east-bucket"
    }

    resource "aws_iam_group" "east" {
      name = "safety-east"
    }

    resource "aws_sqs_queue" "west" {
      provider = aws.west
      name     = "safety-west"
    }
    """
)
MODULES = Path(__file__).resolve().parents[1] / "modules"


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_real_account_settings_are_neutralised(converge, tmp_path, provider_line):
    # (Ambient AWS_* variables are scrubbed too: tests/unit/test_safety.py. They
    # are not set here because moto runs inside this process and would see them.)
    module = REAL_ACCOUNT_MODULE if provider_line.name == "3.39" else REAL_ACCOUNT_MODULE_5
    (tmp_path / "main.tf").write_text(module)
    stack = converge(provider_line.pin(tmp_path))
    result = stack.apply()
    # No network here: had anything gone anywhere but the emulator, apply would fail,
    # and the egress guard records every connection that tried.
    assert result.ok, result.error
    assert result.egress == [] and stack.egress_guard.attempts == []
    ops = {c.operation for c in result.calls}
    assert {"CreateQueue", "CreateBucket"} <= ops
    # Signed with our fake key, or with the emulator's STS answer to the assume_role.
    assert any(c.operation == "AssumeRole" for c in result.calls)
    assert {c.access_key[:4] for c in result.calls if c.access_key} <= {"AKIA", "ASIA"}
    backend_state = stack.workspace.workdir / ".terraform" / "terraform.tfstate"
    assert not backend_state.exists() or '"type": "s3"' not in backend_state.read_text()
    assert stack.workspace.state_file.exists()  # local state, not S3


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_a_root_of_module_calls_only_talks_to_the_emulator_only(converge, provider_line):
    # The root names no aws provider at all; one child inherits the default
    # configuration, the other has a provider block of its own in eu-west-1.
    stack = converge(provider_line.pin(MODULES / "module_calls_only"))
    result = stack.apply()
    assert result.ok, result.error
    assert result.egress == [] and stack.egress_guard.attempts == []
    regions = {c.operation: c.region for c in result.calls}
    assert {"GetCallerIdentity", "CreateGroup", "CreateLogGroup"} <= set(regions)
    assert regions["CreateLogGroup"] == "eu-west-1"
    assert {c.access_key for c in result.calls if c.access_key} == {TERRAFORM_ACCESS_KEY}
    assert stack.plan().is_empty


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
    from pytest_converge.run.stack import Stack
    from pytest_converge.terraform.workspace import Templates

    (tmp_path / "main.tf").write_text('resource "terraform_data" "x" {}\n')
    with pytest.raises(UnsafeTargetError):
        Stack(
            tmp_path,
            emulator=_RemoteEmulator(),
            templates=Templates(converge_toolchain, tmp_path / "t"),
            workdir=tmp_path / "w",
        )
