"""Explanations that stay true on real runs: what a finding says of its cause.

``tests/modules/instance_volume`` cuts terraform-aws-ec2-instance's
``examples/volume-attachment`` down: on aws 5.x moto's DescribeInstances answers
without ``EnclaveOptions`` (its EC2 names it only for launch templates), and a
volume attachment refers to the instance without writing its security groups.
"""

from __future__ import annotations

from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[1] / "modules" / "instance_volume"

pytestmark = pytest.mark.converge(allow_defects=True)


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_an_instance_names_only_true_causes(converge, provider_line):
    stack = converge(provider_line.pin(MODULE))
    found = stack.converged_defects()
    [enclave] = [d for d in found if d.attribute == "enclave_options"]
    assert enclave.classification == "dropped"
    assert enclave.emulator_suspected and enclave.severity == "warning"
    assert "moto 5.2.5's ec2 DescribeInstances answer never carries it" in enclave.evidence
    # A writer is named only for a field its calls carried.
    for d in found:
        assert "aws_volume_attachment" not in d.message or "volume" in (d.attribute or ""), d
    assert not any(d.severity == "error" for d in found), found
