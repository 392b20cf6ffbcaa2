"""The ``-parallelism`` a Stack's applies run with (plain data: the Stack's own choice)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pytest_converge.run.stack import APPLY_PARALLELISM, Stack


def _parallelism(setting: int | None, **kw: Any) -> Any:
    """The ``parallelism`` ``Stack.apply`` hands its ``_apply`` for ``setting``."""

    def _apply(armed: Any, parallelism: Any, targets: Any, refresh: Any = True, clean: Any = None):
        return parallelism

    stack = SimpleNamespace(settings=SimpleNamespace(parallelism=setting), _apply=_apply)
    return Stack.apply(stack, **kw)  # type: ignore[arg-type]


def test_an_apply_with_no_fault_runs_wide_unless_told_otherwise() -> None:
    # terraform's own 10 ran 21 Route 53 records in 3 waves of the provider's 15 s wait.
    assert APPLY_PARALLELISM > 10
    assert _parallelism(None) == APPLY_PARALLELISM
    assert _parallelism(4) == 4


@pytest.mark.parametrize("setting, expected", [(None, 1), (3, 3)])
def test_a_faulted_apply_keeps_one_open_apply(setting: int | None, expected: int) -> None:
    from pytest_converge.faults import LostResponse

    assert _parallelism(setting, faults=LostResponse("CreateVpc")) == expected
