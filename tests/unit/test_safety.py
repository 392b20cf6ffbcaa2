"""The safety guard's pure parts: loopback checks and the scrubbed environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge.emulator.base import FAKE_ACCESS_KEY
from pytest_converge.errors import UnsafeTargetError
from pytest_converge.isolation.safety import (
    LoopbackTarget,
    ensure_loopback,
    is_loopback_url,
    loopback_target,
    terraform_env,
)
from pytest_converge.terraform.workspace import ProviderConfig, ProviderSchema, provider_override

#: THE loopback table: every place that checks an endpoint (the session, the
#: Stack, the provider override, the fault proxy's upstream, LocalStack's
#: endpoint) uses safety.loopback_target, and each is run against this table.
LOOPBACK = [
    "http://127.0.0.1:4566",
    "https://127.0.0.1:4566",
    "http://127.8.9.10:1",
    "http://localhost:5000",
    "https://localhost",
    "http://[::1]:80",
    "http://127.0.0.1:4566/",
]
NOT_LOOPBACK = [
    "https://ec2.us-east-1.amazonaws.com",
    "http://10.0.0.1:4566",
    "https://192.168.1.5:4566",
    "http://0.0.0.0:4566",
    "http://169.254.169.254/",
    "http://localhost.example.com",
    "http://example.com:80",
    "ftp://127.0.0.1",
    "127.0.0.1:5000",
    "http://127.0.0.1:notaport",
    "not a url",
    "",
]


def _checks():
    from pytest_converge.emulator.localstack import check_loopback
    from pytest_converge.faults import Proxy

    return {
        "ensure_loopback": ensure_loopback,
        "localstack.check_loopback": check_loopback,
        "Proxy(upstream=...)": lambda url: Proxy(upstream=url),
        "provider_override": lambda url: provider_override(
            url, [], ProviderSchema("3.39.0", frozenset(), frozenset({"s3"}))
        ),
    }


@pytest.mark.parametrize("url", LOOPBACK)
def test_loopback_accepted_everywhere(url):
    assert is_loopback_url(url)
    for name, check in _checks().items():
        try:
            check(url)
        except UnsafeTargetError as exc:  # pragma: no cover - the failure message
            pytest.fail(f"{name} refused {url!r}: {exc}")


@pytest.mark.parametrize("url", NOT_LOOPBACK)
def test_anything_else_refused_everywhere(url):
    assert not is_loopback_url(url)
    for name, check in _checks().items():
        with pytest.raises(UnsafeTargetError, match="loopback"):
            check(url)
            pytest.fail(f"{name} accepted {url!r}")


def test_loopback_target_never_resolves_names():
    assert loopback_target("http://localhost:4566") == LoopbackTarget("http", "127.0.0.1", 4566)
    assert loopback_target("https://127.0.0.1").port == 443
    assert loopback_target("http://[::1]").host == "::1"


def test_environment_is_scrubbed(tmp_path: Path):
    real = {
        "PATH": "/usr/bin",
        "AWS_PROFILE": "production",
        "AWS_ACCESS_KEY_ID": "AKIAREALKEY",
        "AWS_SECRET_ACCESS_KEY": "real",
        "AWS_SESSION_TOKEN": "real",
        "AWS_ROLE_ARN": "arn:aws:iam::1:role/x",
        "AWS_WEB_IDENTITY_TOKEN_FILE": "/var/run/token",
        "TF_CLI_ARGS_apply": "-target=x",
        "TF_VAR_account": "prod",
        "TF_CLI_CONFIG_FILE": "/root/.terraformrc",
        "HTTPS_PROXY": "http://proxy:3128",
        "GOOGLE_APPLICATION_CREDENTIALS": "/keys.json",
        "ARM_CLIENT_SECRET": "x",
    }
    env = terraform_env(tmp_path / "cli.rc", tmp_path, base=real)
    assert env["PATH"] == "/usr/bin"
    assert env["AWS_ACCESS_KEY_ID"] == FAKE_ACCESS_KEY
    assert env["TF_CLI_CONFIG_FILE"] == str(tmp_path / "cli.rc")
    for gone in (
        "AWS_PROFILE",
        "AWS_SESSION_TOKEN",
        "AWS_ROLE_ARN",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "TF_CLI_ARGS_apply",
        "TF_VAR_account",
        "HTTPS_PROXY",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "ARM_CLIENT_SECRET",
    ):
        assert gone not in env, gone
    assert not Path(env["AWS_CONFIG_FILE"]).exists()
    assert not Path(env["AWS_SHARED_CREDENTIALS_FILE"]).exists()


def test_override_points_every_endpoint_and_nulls_credentials():
    schema = ProviderSchema(
        "3.39.0",
        frozenset({"access_key", "secret_key", "profile", "shared_credentials_file", "token"}),
        frozenset({"ec2", "s3", "sts", "iam"}),
    )
    override, extra = provider_override(
        "http://127.0.0.1:1234", [ProviderConfig(None, True), ProviderConfig("west", True)], schema
    )
    assert override.count('provider "aws"') == 2
    assert 'alias = "west"' in override
    assert override.count('sts = "http://127.0.0.1:1234"') == 2
    assert "profile = null" in override and "token = null" in override
    assert "s3_use_path_style" not in override  # not in this provider version's schema
    assert extra == ""


def test_override_turns_off_5x_settings_that_lead_to_other_hosts():
    schema = ProviderSchema(
        "5.100.0",
        frozenset(
            {"use_fips_endpoint", "use_dualstack_endpoint", "http_proxy", "https_proxy"}
            | {"custom_ca_bundle", "s3_use_path_style", "shared_config_files", "sts_region"}
        ),
        frozenset({"sts", "iam", "s3"}),
    )
    override, _ = provider_override("http://127.0.0.1:1", [ProviderConfig(None, True)], schema)
    for line in (
        "use_fips_endpoint = false",
        "use_dualstack_endpoint = false",
        "http_proxy = null",
        "https_proxy = null",
        "custom_ca_bundle = null",
        "shared_config_files = null",
        "s3_use_path_style = true",
        'iam = "http://127.0.0.1:1"',
    ):
        assert line in override, line
    assert "s3_force_path_style" not in override  # a 3.x name


def test_called_modules_own_provider_blocks_are_found(tmp_path: Path):
    from pytest_converge.terraform.workspace import nested_provider_configs

    (tmp_path / "main.tf").write_text(
        'module "a" {\n  source = "./a"\n}\nmodule "b" {\n  source = "./b"\n}\n'
    )
    for name, body in (("a", 'provider "aws" {\n  region = "eu-west-1"\n}\n'), ("b", "")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.tf").write_text(body + 'resource "aws_sqs_queue" "q" {}\n')
    assert nested_provider_configs(tmp_path) == {"a": [ProviderConfig(None, True)]}


def test_override_refuses_a_remote_endpoint():
    schema = ProviderSchema("3.39.0", frozenset(), frozenset({"ec2"}))
    with pytest.raises(UnsafeTargetError):
        provider_override("https://ec2.amazonaws.com", [ProviderConfig(None, True)], schema)


def test_module_without_provider_block_gets_one():
    schema = ProviderSchema("3.39.0", frozenset({"access_key"}), frozenset({"ec2"}))
    _, extra = provider_override("http://127.0.0.1:1", [], schema)
    assert 'provider "aws"' in extra and 'region = "us-east-1"' in extra


def test_emulator_environment_is_an_allow_list(tmp_path: Path):
    from pytest_converge.isolation.safety import emulator_env

    shell = {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": "/src",
        "HOME": "/home/dev",
        "AWS_PROFILE": "production",
        "AWS_CONFIG_FILE": "/home/dev/.aws/config",
        "AWS_ACCESS_KEY_ID": "AKIAREALKEY",
        "AWS_ENDPOINT_URL": "https://example.invalid",
        "HTTPS_PROXY": "http://proxy:3128",
        "http_proxy": "http://proxy:3128",
        "SOME_TOKEN": "secret",
    }
    env = emulator_env(tmp_path, base=shell)
    assert {k: env[k] for k in ("PATH", "LANG", "LC_ALL", "PYTHONPATH")} == {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": "/src",
    }
    assert env["HOME"] == str(tmp_path)
    assert env["AWS_ACCESS_KEY_ID"] == FAKE_ACCESS_KEY
    for gone in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "HTTPS_PROXY", "http_proxy", "SOME_TOKEN"):
        assert gone not in env, gone
    assert not Path(env["AWS_CONFIG_FILE"]).exists()
