"""A module needing a service the backend cannot serve fails (or skips) before any apply.

LocalStack in host mode has no DynamoDB or Kinesis here (they need engines it
downloads); without this check ``examples/network`` spent ~3 minutes in
provider retries and ended with ``InternalError ... ListTables``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pytest_converge.emulator.base import Emulator, resource_service
from pytest_converge.errors import UnsupportedServiceError
from pytest_converge.storage import cache_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CACHE = cache_dir()


class _Backend(Emulator):
    """Only what check_served needs: a name, a mode and the services it lacks."""

    name = "localstack"
    mode = "host"
    unsupported_services = frozenset({"dynamodb", "kinesis"})
    endpoint = "http://127.0.0.1:1"

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def reset(self) -> None: ...
    def is_alive(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("type_", "service"),
    [("aws_dynamodb_table", "dynamodb"), ("aws_kinesis_stream", "kinesis"),
     ("aws_kinesis_firehose_delivery_stream", "firehose"), ("aws_s3_bucket", "s3")],
)  # fmt: skip
def test_resource_service(type_: str, service: str) -> None:
    assert resource_service(type_) == service


def test_check_served_names_types_backend_and_what_serves_them() -> None:
    backend = _Backend()
    backend.check_served(["aws_s3_bucket.a", "aws_kinesis_firehose_delivery_stream.f"])
    with pytest.raises(UnsupportedServiceError) as info:
        backend.check_served(
            ["aws_vpc.main", "aws_dynamodb_table.locks", "data.aws_kinesis_stream.s"], "network"
        )
    message = str(info.value)
    assert "network needs dynamodb, kinesis" in message
    assert "localstack (host mode)" in message
    assert "aws_dynamodb_table.locks" in message and "data.aws_kinesis_stream.s" in message
    assert "moto" in message and "--converge-unsupported=skip" in message
    assert info.value.services == {
        "dynamodb": ["aws_dynamodb_table.locks"],
        "kinesis": ["data.aws_kinesis_stream.s"],
    }


def _localstack_or_skip() -> None:
    from pytest_converge.emulator.localstack import find_localstack_python

    python, reasons = find_localstack_python()
    if python is None:
        pytest.skip(
            f"LocalStack is not installed ({'; '.join(reasons)}); run .ci/install-localstack.sh"
        )


@pytest.mark.localstack
def test_network_on_host_localstack_fails_fast(pytester: pytest.Pytester, monkeypatch) -> None:
    # pytester points HOME elsewhere: name the cache (and its LocalStack venv) first.
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(CACHE))
    _localstack_or_skip()
    started = time.monotonic()
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--converge", str(EXAMPLES / "network"),
        "--converge-backend", "localstack", timeout=300,
    )  # fmt: skip
    seconds = time.monotonic() - started
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*needs dynamodb, which the localstack (host mode) backend cannot serve*",
         "*dynamodb: aws_dynamodb_table.locks*", "*Run it on moto*"]
    )  # fmt: skip
    result.stdout.no_fnmatch_line("*ListTables*")
    assert seconds < 120, f"took {seconds:.0f}s: the check must come before any apply"


@pytest.mark.localstack
def test_network_on_host_localstack_is_skipped_by_option(
    pytester: pytest.Pytester, monkeypatch
) -> None:
    # pytester points HOME elsewhere: name the cache (and its LocalStack venv) first.
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(CACHE))
    _localstack_or_skip()
    pytester.makepyfile(
        test_fixture=f"""
def test_network(converge):
    converge(r"{EXAMPLES / "network"}").assert_converged()
"""
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "--converge", str(EXAMPLES / "network"),
        "--converge-backend", "localstack", "--converge-unsupported=skip", str(pytester.path),
        timeout=300,
    )  # fmt: skip
    result.assert_outcomes(skipped=2)  # the --converge module and the fixture test
    result.stdout.fnmatch_lines(["*SKIPPED*needs dynamodb*aws_dynamodb_table.locks*"])


def test_a_bad_option_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--converge-unsupported=ignore")
    result.stderr.fnmatch_lines(["*--converge-unsupported 'ignore': expected 'fail'*'skip'*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR
