"""A module that never converges: the test expects the ConvergenceError."""

import pytest

from pytest_converge import ConvergenceError


def test_timestamp_trigger_never_converges(converge):
    stack = converge(".")
    stack.apply().raise_for_error()
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    message = str(failure.value)
    assert "triggers_replace" in message
    defect = failure.value.defects[0]
    assert defect.address == "terraform_data.deploy"
    assert defect.attribute == "triggers_replace"
    assert defect.declared.startswith("(known after apply)")  # a new timestamp every run
    assert isinstance(defect.observed, str) and defect.observed  # the old timestamp
