"""Explanations that stay true on real runs: what a finding says of its cause.

A block with one sensitive member is classified on its values and shown with only
that member hidden. ``tests/modules/instance_volume`` cuts terraform-aws-ec2-instance's
``examples/volume-attachment`` down: on aws 5.x moto's DescribeInstances answers
without ``EnclaveOptions`` (its EC2 names it only for launch templates), and a
volume attachment refers to the instance without writing its security groups.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[1] / "modules" / "instance_volume"

pytestmark = pytest.mark.converge(allow_defects=True)


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_an_instance_names_only_true_causes(converge, provider_line):
    stack = converge(provider_line.pin(MODULE))
    found = stack.converged_defects()
    # The fidelity layer answers EnclaveOptions as AWS does (ec2.instance-enclave-options);
    # on moto as released the read's-answer rule marks it suspected
    # (tests/unit/test_model_gaps.py reads moto's DescribeInstances code for it).
    assert not [d for d in found if d.attribute == "enclave_options"], found
    # A writer is named only for a field its calls carried.
    for d in found:
        assert "aws_volume_attachment" not in d.message or "volume" in (d.attribute or ""), d
    assert not any(d.severity == "error" for d in found), found


def test_a_listener_with_a_secret_in_one_action_is_classified_and_shown_redacted(converge):
    """``tests/modules/listener_oidc``: default actions declared out of their ``order``,
    one with an OIDC client secret; the provider reads them back sorted (aws 3.39)."""
    stack = converge(MODULE.parent / "listener_oidc")
    [found] = [d for d in stack.converged_defects() if d.attribute == "default_action"]
    assert found.kind == "permanent-diff" and found.classification == "order"
    text = json.dumps(found.to_dict())
    assert "s3cret-value" not in text
    # Only the secret is hidden: the actions, their order and the rest of the block show.
    assert [a["type"] for a in found.observed] == ["authenticate-oidc", "forward"]
    [oidc] = found.observed[0]["authenticate_oidc"]
    assert oidc["client_secret"] == "(sensitive value)" and oidc["client_id"] == "app"
    assert all(e["declared"] != "(sensitive value)" for e in found.elements)
