"""A fault-injection suite that expects defects: each test asserts on what its fault leaves."""

import pytest

#: The error defects each fault leaves on this module: (kind, address).
EXPECTED = {
    # The SDK retries a create the cloud already did: a second VPC, not in state.
    "lost-response@CreateVpc#1": [("duplicate", "aws_vpc.main")],
    # Killed after the VPC was created, before terraform recorded it.
    "crash@CreateVpc#1": [("duplicate", "aws_vpc.main")],
    # CreateQueue is idempotent: the retry finds the queue.
    "lost-response@CreateQueue#1": [],
}


@pytest.mark.parametrize("fault", EXPECTED)
def test_fault_leaves_what_we_expect(converge, fault):
    report = converge(".").recover(fault, replay=False)  # known outcomes: no replay needed
    assert [(d.kind, d.address) for d in report.errors] == EXPECTED[fault]
