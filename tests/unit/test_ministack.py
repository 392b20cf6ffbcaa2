"""MiniStack's backend without running it: where it is found, what it serves, provisioning."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from pytest_converge.analysis.gaps import unimplemented_operation
from pytest_converge.emulator import ministack as ms
from pytest_converge.errors import EmulatorError


@pytest.fixture
def nowhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No MiniStack anywhere: an empty PATH entry, an empty cache, no variable."""
    monkeypatch.delenv(ms.EXECUTABLE_ENV, raising=False)
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    return bin_dir


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_what_it_cannot_serve_comes_from_its_service_registry() -> None:
    unsupported = ms.UNSUPPORTED_SERVICES
    # measured turn 5: no MemoryDB, RAM or ECR Public; ElastiCache, EFS and SQS served
    assert {"memorydb", "ram", "ecrpublic", "redshift"} <= unsupported
    for served in ("elasticache", "efs", "sqs", "ec2", "logs", "elbv2", "cloudwatch", "sfn"):
        assert served not in unsupported, served
    assert "elasticache" in ms.served_services()


def test_a_module_needing_a_service_it_lacks_is_not_refused() -> None:
    """MiniStack answers such a call at once (its answer is an operation not implemented),
    so the resource is left untested and the rest judged, not the module refused."""
    emulator = ms.MiniStackEmulator(command=ms.MiniStackCommand(("ministack",), "test"))
    assert emulator.answers_unsupported
    emulator.check_served(["aws_memorydb_acl.main", "aws_sqs_queue.jobs"], "cache")
    answer = b'{"error": "Unsupported service: memorydb"}'
    assert unimplemented_operation(400, {}, answer)
    assert not unimplemented_operation(400, {}, b'{"__type": "ValidationException"}')


@pytest.mark.parametrize(
    "answer",
    [
        # logs, dynamodb, secretsmanager: MiniStack's own codes for an action it lacks
        b'{"__type": "InvalidOperationException",'
        b' "message": "Unknown action: PutDataProtectionPolicy"}',
        b'{"__type": "UnknownOperationException", "message": "Unknown operation: DescribeImport"}',
        b'{"__type": "InvalidRequestException", "message": "Unknown action: BatchGetSecretValue"}',
        b"<ErrorResponse><Error><Code>InvalidInput</Code>"
        b"<Message>Unknown action: ListCidrCollections</Message></Error></ErrorResponse>",
    ],
)
def test_an_action_it_does_not_dispatch_is_not_implemented(answer: bytes) -> None:
    """Whatever the code, MiniStack's "Unknown action: Name" leaves the resource untested
    (cloudwatch v5.7.2 ``log-group-with-data-protection-policy`` failed on it instead)."""
    assert unimplemented_operation(400, {}, answer)
    refused = answer.replace(b"Unknown action: ", b"Unknown log group: ").replace(
        b"Unknown operation: ", b"Unknown table: "
    )
    assert not unimplemented_operation(400, {}, refused)


def test_nothing_installed_says_what_to_run(nowhere: Path) -> None:
    command, tried = ms.find_ministack()
    assert command is None
    assert any("no ministack on PATH" in t for t in tried)
    why = ms.ministack_missing()
    assert why is not None
    assert f"pip install ministack=={ms.PINNED_VERSION}" in why
    assert str(ms.provisioned_dir()) in why


def test_path_before_the_cache_and_the_variable_before_both(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    venv = ms.provisioned_dir()
    (venv / "bin").mkdir(parents=True)
    _executable(venv / "bin" / "python")
    (venv / ms.COMPLETE_MARK).write_text("")
    command, _ = ms.find_ministack()
    assert command is not None and command.argv == (str(venv / "bin" / "python"), "-m", "ministack")

    on_path = _executable(nowhere / "ministack")
    command, _ = ms.find_ministack()
    assert command is not None and command.argv == (str(on_path),) and command.source == "PATH"

    other = tmp_path / "other-venv"
    (other / "bin").mkdir(parents=True)
    _executable(other / "bin" / "python")
    monkeypatch.setenv(ms.EXECUTABLE_ENV, str(other))
    command, _ = ms.find_ministack()
    assert command is not None and command.argv[0] == str(other / "bin" / "python")
    assert command.source == f"${ms.EXECUTABLE_ENV}"
    # A Python named directly runs the module; a console script runs as it is.
    command, _ = ms.find_ministack(named=sys.executable)
    assert command is not None and command.argv == (sys.executable, "-m", "ministack")


def test_a_half_built_venv_is_not_used(nowhere: Path) -> None:
    venv = ms.provisioned_dir()
    (venv / "bin").mkdir(parents=True)
    _executable(venv / "bin" / "python")  # no completion mark: an interrupted provisioning
    assert ms.find_ministack()[0] is None


def test_a_named_one_that_is_missing_is_an_error(nowhere: Path) -> None:
    with pytest.raises(EmulatorError, match="from --converge-ministack"):
        ms.find_ministack(named="/no/such/ministack")


def test_provisioning_without_the_registry_names_the_command_to_run(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", os.defpath)
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # as offline: pip finds no ministack
    with pytest.raises(EmulatorError) as raised:
        ms.provision()
    text = str(raised.value)
    assert "could not provision it" in text and "package registry" in text
    assert f"ministack=={ms.PINNED_VERSION}" in text
    assert "pipx install" in text and ms.EXECUTABLE_ENV in text
    assert ms.find_ministack()[0] is None  # nothing half-built is taken for an install


def test_its_environment_keeps_it_on_loopback_with_the_fake_account(tmp_path: Path) -> None:
    emulator = ms.MiniStackEmulator(command=ms.MiniStackCommand(("ministack",), "test"))
    env = emulator.environment(tmp_path)
    assert env["BIND_HOST"] == "127.0.0.1"
    assert env["MINISTACK_ACCOUNT_ID"] == "123456789012"
    assert env["DOCKER_HOST"] == f"unix://{tmp_path / 'no-docker.sock'}"
    for key in ("TMPDIR", "STATE_DIR", "S3_DATA_DIR", "HOME"):
        assert env[key].startswith(str(tmp_path)), key
    assert env["HTTPS_PROXY"] == env["HTTP_PROXY"] == ms.NOWHERE_PROXY  # loopback, refused
    assert "127.0.0.1" in env["NO_PROXY"]


def test_backend_and_confirm_with_name_ministack(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--converge-backend", "ministack",
        "--converge-confirm-with", "moto",
    )  # fmt: skip
    result.assert_outcomes(passed=1)  # nothing asked for an emulator: none started
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--converge-backend", "ministack",
        "--converge-confirm-with", "ministack",
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*already the backend*--converge-confirm-with moto*"])
    result = pytester.runpytest("-p", "no:cacheprovider", "--converge-confirm-with", "moto")
    result.stderr.fnmatch_lines(["*already the backend*--converge-confirm-with ministack*"])
    result = pytester.runpytest("-p", "no:cacheprovider", "--converge-backend", "mini")
    result.stderr.fnmatch_lines(["*expected one of moto, localstack, ministack*"])


def test_the_html_page_names_the_backend_each_module_ran_on() -> None:
    from pytest_converge.report.html import html_report

    toolchain = {
        "engine": {"flavor": "terraform", "version": "1.11.4"},
        "providers": {"registry.terraform.io/hashicorp/aws": "5.100.0"},
        "backend": {"name": "ministack", "version": "1.5.33"},
    }
    page = html_report(
        {
            "version": 1,
            "modules": ["cache"],
            "scenarios": [
                {"module": "cache", "scenario": "two-run", "outcome": "passed", "seconds": 1.0}
            ],
            "defects": [],
            "toolchains": {"cache": toolchain},
        }
    )
    assert "ran with terraform 1.11.4, hashicorp/aws 5.100.0, on ministack 1.5.33" in page
