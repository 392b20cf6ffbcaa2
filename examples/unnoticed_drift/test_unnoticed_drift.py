"""An out-of-band deletion the loop never notices (AWS provider 3.39 + moto).

The whole matrix, no test code: ``pytest --converge examples/unnoticed_drift
--converge-drift delete`` fails exactly ``drift-delete@aws_secretsmanager_secret.api_key``
with ``unnoticed-drift``. The same check, written as a test:
"""

import pytest

from pytest_converge import ConvergenceError


def test_deleted_secret_goes_unnoticed(converge):
    stack = converge(".")
    loop = stack.loop()
    secret = "aws_secretsmanager_secret.api_key"
    loop.console(
        lambda cloud: cloud.terraform("destroy", f"-target={secret}", "-auto-approve"),
        name="oncall",
    )
    report = loop.run(cycles=2)
    # The secret is scheduled for deletion ...
    described = stack.emulator.client("secretsmanager").describe_secret(
        SecretId="unnoticed-api-key"
    )
    assert "DeletedDate" in described
    # ... and no plan of the loop proposes anything: no drift, no change, no write.
    assert report.out_of_band[1] == ["DeleteSecret by oncall"]
    assert all(c.converged and c.writes == 0 for c in report.cycles)
    assert report.drift == []
    [defect] = report.defects
    assert (defect.kind, defect.address) == ("unnoticed-drift", secret)
    with pytest.raises(ConvergenceError, match="unnoticed-drift"):
        report.raise_for_defects()


def test_deleted_queue_is_recreated(converge):
    stack = converge(".")
    loop = stack.loop()
    queue = "aws_sqs_queue.events"
    loop.console(lambda cloud: cloud.terraform("destroy", f"-target={queue}", "-auto-approve"))
    report = loop.run(cycles=2)
    [event] = report.drift
    assert (event.address, event.change, event.by) == (queue, "delete", "oncall")
    assert (event.detected_cycle, event.reverted_cycle, event.lifetime_cycles) == (1, 1, 1)
    assert event.lifetime_seconds > 0
    assert report.cycles[0].write_operations == {"CreateQueue": 1}
    assert report.cycles[1].converged and report.cycles[1].writes == 0
    report.raise_for_defects()
