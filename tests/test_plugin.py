"""Acceptance tests of the plugin's wiring, the way pytest plugins are tested."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_fixtures_are_registered(pytester: pytest.Pytester):
    result = pytester.runpytest("--fixtures")
    result.stdout.fnmatch_lines(["*converge_toolchain*", "*converge_emulator*", "converge *"])


def test_help_lists_the_option_group(pytester: pytest.Pytester):
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(
        ["*convergence checks of Terraform modules*", "*--converge-backend*", "*--converge-faults*"]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--converge-backend", "azure"], "*expected one of moto, localstack*"),
        (["--converge-parallelism", "0"], "*whole number greater than 0*"),
        (["--converge-timeout", "soon"], "*number of seconds*"),
        (["--converge-endpoint", "https://s3.amazonaws.com"], "*only loopback URLs*"),
    ],
)
def test_bad_option_values_are_usage_errors(pytester: pytest.Pytester, args, message):
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_a_provider_mirror_must_be_a_directory_holding_a_provider(pytester: pytest.Pytester):
    pytester.makefile(".zip", mirror="not a mirror")
    pytester.mkdir("empty")
    result = pytester.runpytest("--converge-provider-mirror", "mirror.zip")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--converge-provider-mirror mirror.zip: a file, not a directory*"]
    )
    pytester.makeini("[pytest]\nconverge_provider_mirror = empty\n")  # the ini twin
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*empty: holds no provider; expected a filesystem mirror*"])


def test_a_cli_config_that_does_not_parse_is_one_usage_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
):
    rc = pytester.makefile(".tfrc", ci="provider_installation {\n  direct {\n")
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(rc))
    pytester.mkdir("mod").joinpath("main.tf").write_text('resource "aws_sqs_queue" "q" {}\n')
    result = pytester.runpytest("--converge", "mod")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the CLI config does not parse: *ci.tfrc:*: not valid HCL*"])


def test_ini_twin_is_validated(pytester: pytest.Pytester):
    pytester.makeini("[pytest]\nconverge_parallelism = many\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_outcomes_of_a_real_module(pytester: pytest.Pytester):
    """A converging module passes; an escape hatch fails with the defect, not a traceback."""
    pytester.makepyfile(
        test_modules=f"""
        def test_converges(converge):
            stack = converge(r"{EXAMPLES / "network"}")
            stack.apply().raise_for_error()
            stack.assert_converged()

        def test_escape_hatch(converge):
            stack = converge(r"{EXAMPLES / "escape_hatch"}")
            stack.apply().raise_for_error()
            stack.assert_converged()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*ConvergenceError: */examples/escape_hatch does not converge*",
            "*triggers_replace*",
            "*convergence defects*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_apply_error_is_terraforms_diagnostic(pytester: pytest.Pytester):
    pytester.makefile(
        ".tf",
        main="""
        provider "aws" {
          region = "us-east-1"
        }
        resource "aws_dynamodb_table" "t" {
          name         = "t"
          billing_mode = "PAY_PER_REQUEST"
          hash_key     = "id"
          attribute {
            name = "id"
            type = "S"
          }
        }
        """,
    )
    pytester.makepyfile(
        test_apply="""
        def test_apply(converge):
            converge(".").apply().raise_for_error()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*TerraformError*", "*minimum field size of 3*aws_dynamodb_table.t*"]
    )
