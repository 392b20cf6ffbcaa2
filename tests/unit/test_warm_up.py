"""What the moto server warms up first: the services the session's modules call.

The plan the warm-up follows, and the services a module's files name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_converge.emulator.base import DEFAULT_REGION
from pytest_converge.emulator.moto_server import (
    ALWAYS_WARM,
    WARM_UP,
    _WarmPlan,
)
from pytest_converge.terraform.workspace import module_services


def _drain(plan: _WarmPlan) -> list[tuple[str, str]]:
    taken = []
    while (up := plan.next()) is not None:
        taken.append(up)
    return taken


def test_untold_the_warm_up_makes_the_services_most_modules_use() -> None:
    assert _drain(_WarmPlan()) == [(s, "us-east-1") for s in WARM_UP]


def test_told_the_warm_up_makes_the_modules_services_and_none_of_its_own_list() -> None:
    plan = _WarmPlan()
    first = plan.next()  # the warm-up had begun when the hint came
    plan.take(json.dumps({"services": ["kms", "sqs", "kms"], "region": "eu-west-1"}).encode())
    rest = _drain(plan)
    assert first == ("sts", "us-east-1")
    assert rest == [(s, "eu-west-1") for s in (*ALWAYS_WARM, "kms", "sqs")]
    assert plan.report() == {"warmed": [list(first), *map(list, rest)], "told": 1}


def test_a_later_hint_adds_its_services_after_the_earlier_ones() -> None:
    plan = _WarmPlan()
    plan.prefer(["sns"], "us-east-1")
    plan.prefer(["ec2", "sns"], "us-east-1")
    assert [s for s, _ in _drain(plan)] == [*ALWAYS_WARM, "sns", "ec2"]


@pytest.mark.parametrize("body", [b"", b"not json", b"[1, 2]", b'{"services": 3}'])
def test_a_hint_that_is_not_one_changes_nothing(body: bytes) -> None:
    plan = _WarmPlan()
    plan.take(body)
    assert plan.report()["told"] is None
    assert _drain(plan) == [(s, "us-east-1") for s in WARM_UP]


def test_a_modules_services_come_from_its_files_and_the_modules_it_calls(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    (tmp_path / "main.tf").write_text(
        'variable "region" {\n  default = "ap-southeast-2"\n}\n'
        'provider "aws" {\n  region = var.region\n}\n'
        'data "aws_caller_identity" "me" {}\n'
        'resource "aws_sns_topic" "t" {}\n'
        'resource "random_id" "r" {\n  byte_length = 2\n}\n'
        'module "inner" {\n  source = "./inner"\n}\n'
    )
    (tmp_path / "inner" / "main.tf").write_text(
        'resource "aws_cloudwatch_log_group" "g" {}\nresource "aws_sns_topic" "u" {}\n'
    )
    # STS (the caller identity) is warmed for every module, as IAM is.
    assert module_services(tmp_path) == (["sns", "logs"], "ap-southeast-2")


def test_a_module_without_a_region_of_its_own_is_warmed_in_the_workspaces(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('resource "aws_sqs_queue" "q" {}\n')
    assert module_services(tmp_path) == (["sqs"], DEFAULT_REGION)
