"""What the moto server warms up first: the services the session's modules call.

The plan the warm-up follows, the services a module's files name, and moto's
AWS-managed IAM policies, made when first looked up instead of with every IAM backend
(the first request of every run waited for them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_converge.emulator.base import DEFAULT_REGION
from pytest_converge.emulator.moto_server import (
    ALWAYS_WARM,
    WARM_UP,
    _share_aws_managed_policies,
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


def test_one_thread_at_a_time_warms_what_the_plan_holds() -> None:
    plan = _WarmPlan()
    assert plan.claim()
    assert not plan.claim()  # the warm-up's thread has it
    _drain(plan)  # ... until it answers None: the claim ends
    assert not plan.claim()  # nothing left to warm
    plan.prefer(["kms"], "eu-west-1")  # a hint after the first round
    assert plan.claim()
    assert _drain(plan) == [("sts", "eu-west-1"), ("iam", "eu-west-1"), ("kms", "eu-west-1")]


@pytest.fixture
def lazy_policies(monkeypatch: pytest.MonkeyPatch):
    """moto's IAM models with the server's policies; moto's own restored after."""
    monkeypatch.setenv("MOTO_IAM_LOAD_MANAGED_POLICIES", "true")
    from moto.iam import models

    for name in ("_init_aws_policies", "_init_managed_policies"):
        monkeypatch.setattr(models.IAMBackend, name, getattr(models.IAMBackend, name))
    own = models.IAMBackend("global", "123456789012")
    _share_aws_managed_policies()
    return models, own


def _without_ids(config: dict) -> dict:
    """A policy's AWS Config item but its id (moto draws a random one for each) and the
    second it was made in."""
    config.pop("resourceId")
    config.pop("configurationStateId")
    config["configuration"].pop("policyId")
    return config


def test_aws_managed_policies_are_moto_s_own_made_when_looked_up(lazy_policies) -> None:
    models, own = lazy_policies
    backend = models.IAMBackend("global", "123456789012")
    assert list(backend.managed_policies) == list(own.managed_policies)
    assert len(own.managed_policies) > 1000
    for arn, policy in own.managed_policies.items():
        made = backend.managed_policies[arn]
        assert type(made) is type(policy)
        assert _without_ids(made.to_config_dict()) == _without_ids(policy.to_config_dict())
    assert "arn:aws:iam::aws:policy/NoSuchPolicy" not in backend.managed_policies


def test_a_new_iam_backend_counts_no_attachment_and_keeps_the_accounts_own(lazy_policies) -> None:
    models, _ = lazy_policies
    arn = "arn:aws:iam::aws:policy/ReadOnlyAccess"
    first = models.IAMBackend("global", "123456789012")
    first.managed_policies[arn].attachment_count = 3
    mine = models.ManagedPolicy("mine", account_id="123456789012", region="global", document="{}")
    first.managed_policies[mine.arn] = mine
    assert list(first.managed_policies)[-1] == mine.arn  # the account's own after AWS's
    again = models.IAMBackend("global", "123456789012")  # a reset
    assert again.managed_policies[arn].attachment_count == 0
    assert mine.arn not in again.managed_policies
    del first.managed_policies[mine.arn]
    assert mine.arn not in first.managed_policies


def test_an_iam_backend_makes_no_aws_policy_until_one_is_looked_up(lazy_policies, monkeypatch):
    models, _ = lazy_policies
    made: list[str] = []
    original = models.AWSManagedPolicy.from_data.__func__

    def from_data(cls, name, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(name)
        return original(cls, name, *args, **kwargs)

    monkeypatch.setattr(models.AWSManagedPolicy, "from_data", classmethod(from_data))
    backend = models.IAMBackend("global", "210987654321")
    assert made == []
    found = backend.managed_policies["arn:aws:iam::aws:policy/ReadOnlyAccess"]
    assert found.name == "ReadOnlyAccess"
    assert made == ["ReadOnlyAccess"]


def test_policies_made_at_once_in_threads_are_all_kept(lazy_policies, monkeypatch) -> None:
    """moto serves calls in threads: CreatePolicy calls that each first touch a new
    backend's policies all keep their policy (a map built twice lost the first's)."""
    import threading
    import time

    from pytest_converge.emulator import moto_server

    models, _ = lazy_policies
    read = moto_server._AwsPolicyData.arns

    def slow(self):  # type: ignore[no-untyped-def]
        found = read(self)
        time.sleep(0.05)  # the window a busy machine gives another thread
        return found

    monkeypatch.setattr(moto_server._AwsPolicyData, "arns", slow)
    backend = models.IAMBackend("global", "345678901234")
    start = threading.Barrier(4)

    def create(n: int) -> None:
        policy = models.ManagedPolicy(
            f"mine{n}", account_id="345678901234", region="global", document="{}"
        )
        start.wait()
        backend.managed_policies[policy.arn] = policy

    threads = [threading.Thread(target=create, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    mine = sorted(a for a in backend.managed_policies if ":policy/mine" in a)
    assert mine == [f"arn:aws:iam::345678901234:policy/mine{n}" for n in range(4)]


@pytest.mark.parametrize("path", ["/moto-api/reset", "/converge-api/world"])
def test_a_reset_or_the_worlds_read_waits_for_a_backend_being_made(path, monkeypatch) -> None:
    """A hint after the warm-up's first round is warmed by a thread of its own, beside
    the runs: a reset (or the world's read) walks every backend, and moto's fails if one
    is added meanwhile. They wait for the service being made."""
    import threading
    import time

    from pytest_converge.emulator import moto_server

    answered: list[str] = []

    def inner(environ, start_response):  # moto's app
        answered.append(environ["PATH_INFO"])
        start_response("200 OK", [])
        return [b"{}"]

    monkeypatch.setattr(moto_server, "read_world", lambda: answered.append(path) or {})
    warmed, faithful = threading.Event(), threading.Event()
    warmed.set()
    faithful.set()
    app = moto_server._ResetAfterWarmUp(inner, warmed, faithful)
    environ = {"PATH_INFO": path, "REQUEST_METHOD": "POST" if "reset" in path else "GET"}
    with app.making:  # a warm-up thread makes a backend
        asking = threading.Thread(target=app, args=(environ, lambda *a: None))
        asking.start()
        time.sleep(0.2)
        assert answered == []
    asking.join(timeout=10)
    assert answered == [path]
