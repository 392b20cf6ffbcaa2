"""A module that converges: apply once, and the second plan is empty."""


def test_network_converges(converge):
    stack = converge(".")  # this directory: the module beside the test
    result = stack.apply()
    assert result.ok, result.error
    stack.assert_converged()


def test_network_outputs_and_cloud_objects(converge, converge_emulator):
    stack = converge(".", vars={"name": "second-env"})
    stack.apply().raise_for_error()
    vpc_id = stack.outputs()["vpc_id"]
    vpcs = converge_emulator.client("ec2").describe_vpcs(VpcIds=[vpc_id])["Vpcs"]
    assert vpcs[0]["CidrBlock"] == "10.20.0.0/16"
    assert stack.plan().is_empty
