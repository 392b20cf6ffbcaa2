"""Bad arguments to a Loop or a Defect raise the plugin's own errors, still ValueErrors."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.errors import ConvergeError, DefectError, LoopError
from pytest_converge.run.loop import Loop, drift_scenario


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"kind": "nope"}, "unknown defect kind 'nope'"),
        ({"kind": "permanent-diff", "classification": "Not A Class"}, "bad classification"),
        ({"kind": "permanent-diff", "severity": "fatal"}, "unknown severity 'fatal'"),
    ],
)
def test_a_bad_defect_is_a_defect_error(fields: dict[str, Any], match: str) -> None:
    with pytest.raises(DefectError, match=match) as caught:
        Defect(message="m", **fields)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ConvergeError)


def _bare_loop() -> Loop:
    """A Loop with no Stack behind it: enough for the argument checks."""
    loop = Loop.__new__(Loop)
    loop._writers = []
    return loop


def test_bad_loop_arguments_are_loop_errors() -> None:
    with pytest.raises(LoopError, match="alert=0"):
        Loop(object(), alert=0)  # type: ignore[arg-type]
    with pytest.raises(LoopError, match="loop's own writer"):
        _bare_loop().writer("terraform", lambda cloud: None)
    loop = _bare_loop().writer("autoscaler", lambda cloud: None)
    with pytest.raises(LoopError, match="already registered"):
        loop.writer("autoscaler", lambda cloud: None)
    with pytest.raises(LoopError, match="unknown drift kind 'wipe'"):
        drift_scenario(object(), "wipe", "aws_vpc.main")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a name"):  # what 0.1.0 raised, still caught
        _bare_loop().writer("", lambda cloud: None)
