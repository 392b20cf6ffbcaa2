"""The options table is the one place an option lives: ``pytest --help``, the ini keys,
the settings a run reads and the reproduce lines all come from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_converge.plugin.options import OPTIONS, Option

#: The flags and ini keys of the release before the table (none may disappear).
FLAGS_BEFORE = {
    "--converge",
    "--converge-backend",
    "--converge-endpoint",
    "--converge-terraform",
    "--converge-provider-mirror",
    "--converge-faults",
    "--converge-report",
    "--converge-sarif",
    "--converge-parallelism",
    "--converge-timeout",
    "--converge-localstack-python",
    "--converge-unsupported",
    "--converge-confirm-with",
    "--converge-drift",
    "--converge-loop-alert",
    "--converge-upgrade-from",
    "--converge-stages",
    "--converge-allow-replace",
    "--converge-keep",
    "--converge-strict",
    "--converge-no-reattach",
}
INI_BEFORE = {
    "converge_paths",
    "converge_backend",
    "converge_endpoint",
    "converge_terraform",
    "converge_provider_mirror",
    "converge_faults",
    "converge_report",
    "converge_sarif",
    "converge_parallelism",
    "converge_timeout",
    "converge_localstack_python",
    "converge_unsupported",
    "converge_confirm_with",
    "converge_drift",
    "converge_loop_alert",
    "converge_upgrade_from",
    "converge_stages",
    "converge_allow_replace",
    "converge_keep",
    "converge_strict",
    "converge_reattach",
}


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_help_shows_every_row_and_nothing_else(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    out = result.stdout.str()
    flags = set(re.findall(r"(--converge(?:-[a-z]+)*)\b", out))
    inis = dict(re.findall(r"^\s+(converge_\w+) \((\w+)\):", out, re.MULTILINE))
    assert flags >= {o.flag for o in OPTIONS}
    # A flag in the help that is not a row (or named in a row's help) lives somewhere else.
    named_in_help = set(re.findall(r"(--converge(?:-[a-z]+)*)", " ".join(o.help for o in OPTIONS)))
    assert flags - named_in_help <= {o.flag for o in OPTIONS}
    assert inis == {o.ini: o.ini_type for o in OPTIONS}
    assert {o.flag for o in OPTIONS} >= FLAGS_BEFORE
    assert set(inis) >= INI_BEFORE
    squeezed = _squeezed(out)
    for option in OPTIONS:
        assert _squeezed(option.help) in squeezed, option.flag
        assert _squeezed(option.ini_help or option.help) in squeezed, option.ini


def _mirror(base: Path) -> Path:
    """A filesystem mirror holding one (empty) packed provider."""
    folder = base / "mirror" / "registry.terraform.io" / "hashicorp" / "aws"
    folder.mkdir(parents=True)
    (folder / "terraform-provider-aws_3.39.0_linux_amd64.zip").write_bytes(b"")
    return base / "mirror"


def _example(option: Option, base: Path) -> str:
    if option.name == "provider_mirror":
        return str(_mirror(base))
    if option.name == "paths":
        (base / option.example).mkdir()
        (base / option.example / "main.tf").write_text('output "x" {\n  value = 1\n}\n')
    if option.name == "plan":
        (base / option.example).write_text('{"format_version": "1.2", "resource_changes": []}')
    if option.name == "plan_source":
        (base / option.example).mkdir()
        return str(base / option.example)
    return option.example


def _expected(option: Option, example: str, base: Path) -> object:
    if option.kind == "switch":
        return not option.default
    if option.kind == "paths":
        return (base / example,)
    return option.parse(example)


INNER = """
from pathlib import PosixPath

from pytest_converge.plugin.options import settings

def test_value(pytestconfig):
    value = getattr(settings(pytestconfig), {name!r})
    assert value == {expected!r}, value
    assert value != {default!r}
"""


@pytest.mark.parametrize("source", ["ini", "cli"])
@pytest.mark.parametrize("option", OPTIONS, ids=[o.name for o in OPTIONS])
def test_every_option_sets_its_setting(
    pytester: pytest.Pytester, option: Option, source: str
) -> None:
    """The example of each row, given as its ini key or its flag, reaches the settings."""
    example = _example(option, pytester.path)
    expected = _expected(option, example, pytester.path)
    pytester.makepyfile(
        test_value=INNER.format(name=option.name, expected=expected, default=option.default)
    )
    args = ["-p", "no:cacheprovider", "-k", "test_value", "test_value.py"]
    if option.kind == "paths":
        # Collected, not run (two-run is deselected): no fault points to record.
        args += ["--converge-faults=none"]
    if source == "ini":
        pytester.makeini(f"[pytest]\n{option.ini} = {example}\n")
    elif option.kind == "switch":
        args.append(option.flag)
    else:
        args += [option.flag, example]
    assert option.example and expected != option.default
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    result.assert_outcomes(passed=1)


def test_a_bad_value_names_the_option_and_the_valid_form(pytester: pytest.Pytester) -> None:
    """From the ini file too: the message names the flag, the value and what is expected."""
    for ini, message in [
        ("converge_loop_alert = 0", "*--converge-loop-alert '0': expected a whole number*"),
        ("converge_unsupported = maybe", "*--converge-unsupported 'maybe': expected 'fail'*"),
        ("converge_faults = crash,boom", "*--converge-faults: unknown fault kind 'boom'*"),
        ("converge_drift = wipe", "*--converge-drift: unknown drift kind 'wipe'*"),
        ("converge_stages = dev", "*--converge-stages: 'dev': expected two or more*"),
        ("converge_plan_source = nowhere", "*--converge-plan-source 'nowhere': no such directory*"),
        ("converge_confirm_with = moto", "*--converge-confirm-with 'moto' is already the backend*"),
        ("converge_matrix = batched", "*--converge-matrix 'batched': expected one of grouped*"),
    ]:
        pytester.makeini(f"[pytest]\n{ini}\n")
        result = pytester.runpytest("-p", "no:cacheprovider")
        assert result.ret == pytest.ExitCode.USAGE_ERROR, ini
        result.stderr.fnmatch_lines([message])


def test_settings_are_read_once_and_frozen(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import dataclasses
        import pytest
        from pytest_converge.plugin.options import settings
        from pytest_converge.plugin.session import get_session

        def test_once(pytestconfig):
            found = settings(pytestconfig)
            assert get_session(pytestconfig).settings is found is settings(pytestconfig)
            assert found.parallelism == 2 and found.timeouts["init"] == 300.0
            with pytest.raises(dataclasses.FrozenInstanceError):
                found.parallelism = 3
        """
    )
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--converge-parallelism=2", "--converge-timeout=30"
    )
    result.assert_outcomes(passed=1)


def test_a_whole_number_written_as_a_float_is_that_number(pytester: pytest.Pytester) -> None:
    """``2.0`` passed the check of 0.1.0 and then failed (``int("2.0")``) when a Stack was built."""
    pytester.makepyfile(
        """
        from pytest_converge.plugin.session import get_session

        def test_parallelism(pytestconfig):
            assert get_session(pytestconfig).settings.parallelism == 2
        """
    )
    pytester.runpytest("-p", "no:cacheprovider", "--converge-parallelism=2.0").assert_outcomes(
        passed=1
    )
