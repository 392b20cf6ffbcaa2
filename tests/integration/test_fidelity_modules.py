"""The three roots of issue 28, run by terraform through the plugin: they converge now.

A DynamoDB table with ``on_demand_throughput``, an SSM parameter of data type
``aws:ssm:integration`` and a module reading
``data.aws_organizations_organization`` ended, on moto 5.2 as released, with
two ``permanent-diff (dropped)`` findings, a ValidationException and
"couldn't find resource". With the fidelity layer each converges with no
finding at all, on aws 5.x (all three) and on 3.39 (the organization: 3.39
has no ``on_demand_throughput``, and its ``data_type`` takes ``text`` and
``aws:ec2:image`` only). Beside them, modules whose resources moto as released
cannot serve at all converge through the layer's added operations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_converge.emulator.fidelity.organizations import MANAGEMENT_ACCOUNT

MODULES = Path(__file__).resolve().parents[1] / "modules"


def _converges_with_no_finding(stack) -> None:  # type: ignore[no-untyped-def]
    stack.assert_converged()
    assert stack.defects == [], stack.defects


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_the_issue_roots_converge_on_aws5(converge, converge_emulator, provider_line) -> None:
    for name in ("on_demand_table", "integration_parameter", "organization_reader"):
        stack = converge(provider_line.pin(MODULES / name))
        _converges_with_no_finding(stack)
    table = converge_emulator.client("dynamodb", region="eu-west-1").describe_table(
        TableName="orders"
    )["Table"]
    assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50}


@pytest.mark.parametrize("provider_line", ["3.39"], indirect=True)
def test_a_module_reading_its_organization_converges_on_3_39(converge, provider_line) -> None:
    stack = converge(provider_line.pin(MODULES / "organization_reader"))
    _converges_with_no_finding(stack)
    outputs = stack.outputs()
    assert outputs["management_account"] == MANAGEMENT_ACCOUNT
    assert outputs["is_management_account"] is False
    assert outputs["organization_arn"].startswith(
        f"arn:aws:organizations::{MANAGEMENT_ACCOUNT}:organization/o-"
    )


def test_customer_gateways_and_the_outputs_built_from_them_converge(converge) -> None:
    """tests/modules/gap_outputs on aws 3.39: on moto as released every gateway's
    dropped device_name replaces it on each run, and the outputs built from it change
    (test_emulator_gap_findings.py shows that); here the device name is kept."""
    stack = converge(MODULES / "gap_outputs")
    stack.assert_converged()
    assert not [d for d in stack.defects if d.attribute == "device_name" or d.emulator_suspected]
    # What is left is provider 3.39's: a tag-less gateway's tags are {} after create,
    # null once read back, so the output of the whole object settles on the second apply.
    assert [(d.kind, d.address) for d in stack.defects] == [
        ("needs-second-apply", "output.this_customer_gateway")
    ]


def test_a_private_zone_converges(converge, converge_emulator) -> None:
    """tests/modules/private_zone on aws 3.39: on moto as released the zone is public, its
    vpc block reads back empty (a permanent diff; route53's complete example then had a
    second VPC's association refused)."""
    stack = converge(MODULES / "private_zone")
    _converges_with_no_finding(stack)
    zone = converge_emulator.client("route53").get_hosted_zone(Id=stack.outputs()["zone_id"])
    assert zone["HostedZone"]["Config"]["PrivateZone"] is True
    assert len(zone["VPCs"]) == 1


def test_an_email_validated_certificate_converges(converge) -> None:
    """tests/modules/email_certificate on aws 3.39: on moto as released the certificate
    reads back as DNS-validated and is replaced on every plan (acm's email examples)."""
    stack = converge(MODULES / "email_certificate")
    _converges_with_no_finding(stack)
    assert "admin@example.org" in stack.outputs()["validation_emails"]


@pytest.mark.aws5_extra  # the EFS example is the default run's 5.x leg
@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_rule_groups_and_a_traffic_source_converge_on_aws5(
    converge, converge_emulator, provider_line
) -> None:
    """tests/modules/fidelity_rule_group_traffic_source on aws 5.100: a stateful and a
    stateless rule group read back what was written (rule_group, capacity, tags), and an
    Auto Scaling group's target group attachment reads back Added; on moto as released
    both were untested (no CreateRuleGroup, no AttachTrafficSources). A firewall policy
    using both groups, its resource policy and its firewall (no protection declared) read
    back as declared (on moto as released the three were untested), the firewall has an
    endpoint in its subnet (moto as released: none), and so does an ECS
    service's rebalancing, managed tags, execute command and deployment configuration
    (on moto as released each needed a second apply). The group's tagged
    launch template, its warm-up, maintenance policy and capacity type and its scaling
    policy read back as declared (on moto as released each was a permanent diff). An
    Aurora cluster with I/O-Optimized storage and Performance Insights, its custom
    endpoint and a DB parameter group setting a parameter read back as declared (on moto
    as released the cluster's create failed and the parameter read back as none). The
    second plan is empty, and ``terraform destroy`` detaches and deletes every one."""
    stack = converge(provider_line.pin(MODULES / "fidelity_rule_group_traffic_source"))
    _converges_with_no_finding(stack)
    assert stack.outputs()["firewall_endpoint_id"].startswith("vpce-")
    stack.workspace.terraform("destroy", "-auto-approve", "-input=false", check=True, timeout=600)
    firewall = converge_emulator.client("network-firewall", region="eu-west-1")
    assert firewall.list_rule_groups()["RuleGroups"] == []
    assert firewall.list_firewall_policies()["FirewallPolicies"] == []
    assert firewall.list_firewalls()["Firewalls"] == []
    ecs = converge_emulator.client("ecs", region="eu-west-1")
    [cluster] = ecs.describe_clusters(clusters=["ex-ecs"])["clusters"]
    assert cluster["status"] == "INACTIVE"  # as AWS answers a deleted cluster for a while
    asg = converge_emulator.client("autoscaling", region="eu-west-1")
    assert asg.describe_auto_scaling_groups()["AutoScalingGroups"] == []
    rds = converge_emulator.client("rds", region="eu-west-1")
    assert rds.describe_db_clusters()["DBClusters"] == []
    endpoints = rds.describe_db_cluster_endpoints(DBClusterEndpointIdentifier="ex-any")
    assert endpoints["DBClusterEndpoints"] == []


def test_athena_work_groups_with_and_without_tags_converge(converge, converge_emulator) -> None:
    """tests/modules/athena_workgroup on aws 3.39: on moto as released the untagged work
    group's create failed reading its tags ("Does Not Exist")."""
    stack = converge(MODULES / "athena_workgroup")
    _converges_with_no_finding(stack)
    athena = converge_emulator.client("athena")
    names = {g["Name"] for g in athena.list_work_groups()["WorkGroups"]}
    assert {"adhoc", "reports"} <= names
