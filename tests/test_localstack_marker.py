"""``@pytest.mark.localstack``: a test that needs LocalStack is skipped, saying why and how to
get it, where no way to run LocalStack exists; it runs where one does."""

from __future__ import annotations

import pytest

TESTS = """
import pytest

@pytest.mark.localstack
def test_needs_localstack():
    pass

def test_plain():
    pass
"""


@pytest.fixture
def no_localstack(monkeypatch: pytest.MonkeyPatch) -> None:
    """No endpoint, no Docker (a DOCKER_HOST that is not local is refused unasked), and an
    interpreter that does not exist."""
    monkeypatch.delenv("LOCALSTACK_ENDPOINT", raising=False)
    monkeypatch.setenv("DOCKER_HOST", "tcp://10.255.255.1:2375")
    monkeypatch.setenv("CONVERGE_LOCALSTACK_PYTHON", "/nonexistent/python3.13")


def test_a_marked_test_is_skipped_with_the_reason_and_the_fix(
    pytester: pytest.Pytester, no_localstack: None
) -> None:
    pytester.makepyfile(TESTS)
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs", "--strict-markers")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*SKIPPED*needs LocalStack: no way to run LocalStack was available:*"
            "/nonexistent/python3.13 (from $CONVERGE_LOCALSTACK_PYTHON): not found*"
            "install-localstack.sh*"
        ]
    )


def test_a_marked_test_runs_where_localstack_is_available(
    pytester: pytest.Pytester, no_localstack: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")  # a running one, say
    pytester.makepyfile(TESTS)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_with_the_localstack_backend_a_marked_test_always_runs(
    pytester: pytest.Pytester, no_localstack: None
) -> None:
    pytester.makepyfile(TESTS)
    result = pytester.runpytest("-p", "no:cacheprovider", "--converge-backend=localstack")
    result.assert_outcomes(passed=2)


def test_the_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.localstack: the test needs LocalStack*"])
