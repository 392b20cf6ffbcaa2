"""The options table as plain data: its rows, the settings fields, reproduce arguments, docs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_converge.plugin.options import (
    OPTIONS,
    Settings,
    allow_list,
    drift_kinds,
    fault_kinds,
    reference_markdown,
    stage_names,
)


def test_every_row_has_a_settings_field_of_its_name_and_default() -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(Settings)}
    for option in OPTIONS:
        assert option.name in defaults, option.name
        assert defaults[option.name] == option.default, option.name
    assert len({o.flag for o in OPTIONS}) == len({o.ini for o in OPTIONS}) == len(OPTIONS)


def test_the_flags_keep_their_dests() -> None:
    """``config.getoption(dest)`` in users' conftests keeps working."""
    assert {o.dest for o in OPTIONS} == {
        "converge_paths",
        "converge_no_reattach",
        *(f"converge_{o.name}" for o in OPTIONS if o.name not in ("paths", "reattach")),
    }
    assert {o.name: o.dest for o in OPTIONS}["paths"] == "converge_paths"


def test_every_row_is_documented_with_an_example() -> None:
    for option in OPTIONS:
        assert option.help and option.example, option.name


def test_reproduce_arguments_carry_outcome_options_only() -> None:
    given = Settings(
        parallelism=2,
        report=Path("r.json"),
        strict=True,
        keep=True,
        reattach=False,
        faults=("crash",),
        allow_replace=("aws_s3_bucket.a",),
        raw={
            "parallelism": "2",
            "report": "r.json",
            "faults": "crash",
            "allow_replace": "aws_s3_bucket.a, module.x.*",
            "strict": True,
            "keep": True,
            "reattach": False,
        },
    )
    assert given.outcome_args(skip=("faults",)) == [
        "--converge-parallelism=2",
        "--converge-allow-replace='aws_s3_bucket.a, module.x.*'",
        "--converge-strict",
    ]
    assert "--converge-faults=crash" in given.outcome_args()
    assert Settings().outcome_args() == []


def test_timeouts_give_init_at_least_five_minutes() -> None:
    assert Settings().timeouts == {}
    assert Settings(timeout=30.0).timeouts == {"apply": 30.0, "plan": 30.0, "init": 300.0}


def test_the_reference_has_a_row_per_option() -> None:
    text = reference_markdown()
    lines = text.splitlines()
    assert lines[0].startswith("| Option | ini key |")
    assert len(lines) == 2 + len(OPTIONS)
    for option, line in zip(OPTIONS, lines[2:], strict=True):
        assert f"`{option.flag}" in line and f"`{option.ini}`" in line
        assert line.count(" | ") == 4, line  # a "|" in a cell is escaped
    assert "`converge_faults = all`" in text


def test_the_value_parsers() -> None:
    assert fault_kinds("crash, crash,lost-response") == ("crash", "lost-response")
    assert fault_kinds("none") == ()
    assert drift_kinds("all") == ("delete", "modify")
    assert stage_names("dev,prod") == ("dev", "prod")
    assert allow_list("a.b,\nc.*") == ["a.b", "c.*"]
    for parse, bad in [(fault_kinds, "boom"), (drift_kinds, "wipe"), (stage_names, "dev,dev")]:
        with pytest.raises(ValueError, match="expected"):
            parse(bad)
