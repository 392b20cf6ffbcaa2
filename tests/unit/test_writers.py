"""Second writers of one object: apply windows from events, calls from the proxy log."""

from __future__ import annotations

from types import SimpleNamespace

from pytest_converge.analysis.state import StateResource
from pytest_converge.analysis.writers import apply_windows, fault_addresses, sibling_writers


def _event(kind, address, second):
    return {
        "type": kind,
        "@timestamp": f"2026-11-30T10:00:{second:09.6f}Z",
        "hook": {"resource": {"addr": address}},
    }


def _call(operation, second, status=200, mutating=True):
    # started is monotonic; the clock offset below maps 0.0 to 10:00:00 UTC.
    return SimpleNamespace(operation=operation, started=second, status=status, mutating=mutating)


EPOCH_10H = 1796032800.0  # 2026-11-30T10:00:00Z


def _state():
    return [
        StateResource("aws_vpc.main", "aws_vpc", "managed", "vpc-1", {"id": "vpc-1"}),
        StateResource(
            "aws_security_group.this",
            "aws_security_group",
            "managed",
            "sg-1",
            {"id": "sg-1", "vpc_id": "vpc-1"},
        ),
        StateResource(
            "aws_security_group_rule.ingress[0]",
            "aws_security_group_rule",
            "managed",
            "sgrule-1",
            {"id": "sgrule-1", "security_group_id": "sg-1"},
        ),
        StateResource(
            "aws_subnet.a",
            "aws_subnet",
            "managed",
            "subnet-1",
            {"id": "subnet-1", "vpc_id": "vpc-1"},
        ),
    ]


EVENTS = [
    _event("apply_start", "aws_vpc.main", 1),
    _event("apply_complete", "aws_vpc.main", 2),
    _event("apply_start", "aws_security_group.this", 3),
    _event("apply_complete", "aws_security_group.this", 4),
    _event("apply_start", "aws_security_group_rule.ingress[0]", 5),
    _event("apply_start", "aws_subnet.a", 5.1),
    _event("apply_complete", "aws_security_group_rule.ingress[0]", 6),
    _event("apply_complete", "aws_subnet.a", 6),
]
CALLS = [
    _call("CreateVpc", 1.5),
    _call("CreateSecurityGroup", 3.5),
    _call("AuthorizeSecurityGroupIngress", 5.5),
    _call("CreateSubnet", 5.6),
    _call("DescribeSecurityGroups", 5.7, mutating=False),
]


def test_apply_windows_from_events():
    windows = apply_windows([*EVENTS, _event("apply_start", "aws_s3_bucket.b", 7)])
    assert windows["aws_vpc.main"].end - windows["aws_vpc.main"].start == 1.0
    assert windows["aws_s3_bucket.b"].end == float("inf")


def test_a_sibling_that_wrote_the_drifted_field_is_named():
    found = sibling_writers(
        {"aws_security_group.this": ["ingress"], "aws_vpc.main": ["main_route_table_id"]},
        EVENTS,
        CALLS,
        _state(),
        clock_offset=EPOCH_10H,
    )
    # The rule's AuthorizeSecurityGroupIngress wrote the group's ingress; the
    # subnet refers to the VPC but CreateSubnet writes nothing the VPC drifted in.
    assert found == {"aws_security_group.this": {"ingress": ["aws_security_group_rule.ingress[0]"]}}


def test_calls_that_failed_or_came_before_the_object_existed_are_not_writes():
    failed = [_call("AuthorizeSecurityGroupIngress", 5.5, status=500)]
    assert (
        sibling_writers(
            {"aws_security_group.this": ["ingress"]}, EVENTS, failed, _state(), EPOCH_10H
        )
        == {}
    )
    early = [_call("AuthorizeSecurityGroupIngress", 3.5)]
    assert (
        sibling_writers(
            {"aws_security_group.this": ["ingress"]}, EVENTS, early, _state(), EPOCH_10H
        )
        == {}
    )


def test_a_rule_of_another_group_that_only_names_this_one_as_source_is_not_its_writer():
    # Real shape (terraform-aws-security-group v4.17.2 examples/complete): a rule of
    # group B with source_security_group_id = A, and A's own rule (security_group_id = A).
    state = [
        *_state()[:2],
        StateResource(
            "aws_security_group_rule.own",
            "aws_security_group_rule",
            "managed",
            "sgrule-1",
            {"id": "sgrule-1", "security_group_id": "sg-1"},
        ),
        StateResource(
            "aws_security_group_rule.other",
            "aws_security_group_rule",
            "managed",
            "sgrule-2",
            {"id": "sgrule-2", "security_group_id": "sg-2", "source_security_group_id": "sg-1"},
        ),
    ]
    events = [
        *EVENTS[:4],
        _event("apply_start", "aws_security_group_rule.own", 5),
        _event("apply_start", "aws_security_group_rule.other", 5),
        _event("apply_complete", "aws_security_group_rule.own", 6),
        _event("apply_complete", "aws_security_group_rule.other", 6),
    ]
    calls = [
        _call("AuthorizeSecurityGroupIngress", 5.5),
        _call("AuthorizeSecurityGroupIngress", 5.6),
    ]
    found = sibling_writers(
        {"aws_security_group.this": ["ingress"]}, events, calls, state, EPOCH_10H
    )
    assert found == {"aws_security_group.this": {"ingress": ["aws_security_group_rule.own"]}}


def test_the_resource_a_fault_hit_is_the_one_whose_apply_was_running():
    calls = [
        _call("CreateQueue", 1.5),
        SimpleNamespace(operation="CreateQueue", started=3.5, status=0, mutating=True, fault="x"),
    ]
    events = [
        _event("apply_start", "aws_sqs_queue.a", 1),
        _event("apply_complete", "aws_sqs_queue.a", 2),
        _event("apply_start", "aws_sqs_queue.b", 3),  # killed: the window never closes
    ]
    assert fault_addresses(calls, events, EPOCH_10H) == ["aws_sqs_queue.b"]
    # Two windows open at the moment of the call: not known, not guessed.
    both = [*events, _event("apply_start", "aws_sqs_queue.c", 3.2)]
    assert fault_addresses(calls, both, EPOCH_10H) == []


def _instance_state():
    """terraform-aws-ec2-instance examples/volume-attachment, as state has it."""
    return [
        StateResource("aws_ebs_volume.this", "aws_ebs_volume", "managed", "vol-2", {"id": "vol-2"}),
        StateResource(
            "module.ec2.aws_instance.this[0]",
            "aws_instance",
            "managed",
            "i-1",
            {
                "id": "i-1",
                "vpc_security_group_ids": ["sg-1"],
                "volume_tags": {"Name": "a"},
                "ebs_block_device": [{"volume_id": "vol-2"}],
            },
        ),
        StateResource(
            "aws_volume_attachment.this",
            "aws_volume_attachment",
            "managed",
            "vai-1",
            {"id": "vai-1", "instance_id": "i-1", "volume_id": "vol-2"},
        ),
    ]


INSTANCE_EVENTS = [
    _event("apply_start", "aws_ebs_volume.this", 1),
    _event("apply_complete", "aws_ebs_volume.this", 2),
    _event("apply_start", "module.ec2.aws_instance.this[0]", 3),
    _event("apply_complete", "module.ec2.aws_instance.this[0]", 4),
    _event("apply_start", "aws_volume_attachment.this", 5),
    _event("apply_complete", "aws_volume_attachment.this", 6),
]


def _sent(operation, second, *names):
    call = _call(operation, second)
    call.sent = frozenset(names)
    return call


def test_a_writer_is_named_only_for_the_fields_its_calls_carried():
    from pytest_converge.awsapi.model import api_members

    def members(rtype, field, operations):
        return api_members(rtype, field, None, operations)

    calls = [
        _sent("CreateVolume", 1.5, "AvailabilityZone", "Size", "TagSpecification"),
        _sent("RunInstances", 3.5, "ImageId", "SecurityGroupId", "TagSpecification"),
        # The instance's volume_tags written onto its volumes.
        _sent("CreateTags", 3.8, "ResourceId", "Tag"),
        _sent("AttachVolume", 5.5, "Device", "InstanceId", "VolumeId"),
    ]
    events = INSTANCE_EVENTS
    drifted = {
        "module.ec2.aws_instance.this[0]": ["vpc_security_group_ids", "volume_tags"],
        "aws_ebs_volume.this": ["tags"],
    }
    found = sibling_writers(drifted, events, calls, _instance_state(), EPOCH_10H, members)
    # AttachVolume writes the instance's volumes, never its security groups.
    assert found["module.ec2.aws_instance.this[0]"] == {
        "volume_tags": ["aws_volume_attachment.this"]
    }
    # The instance's CreateTags (Tag) on the volume fights the volume's own tags.
    assert found["aws_ebs_volume.this"] == {"tags": ["module.ec2.aws_instance.this[0]"]}
    # A call of the right operation that did not send the member writes nothing.
    untagged = [calls[0], calls[1], _sent("CreateTags", 3.8, "ResourceId"), calls[3]]
    found = sibling_writers(drifted, events, untagged, _instance_state(), EPOCH_10H, members)
    assert "aws_ebs_volume.this" not in found


def test_a_shared_member_counts_only_for_the_object_the_request_names():
    from pytest_converge.awsapi.model import api_members

    def members(rtype, field, operations):
        return api_members(rtype, field, None, operations)

    def tags(second, resource_id):
        call = _sent("CreateTags", second, "ResourceId", "Tag")
        call.requested = frozenset({resource_id, "Name", "web"})
        return call

    drifted = {"aws_ebs_volume.this": ["tags"]}
    state = _instance_state()
    # The instance tagged itself, not the volume: no writer of the volume's tags.
    found = sibling_writers(drifted, INSTANCE_EVENTS, [tags(3.8, "i-1")], state, EPOCH_10H, members)
    assert found == {}
    found = sibling_writers(
        drifted, INSTANCE_EVENTS, [tags(3.8, "vol-2")], state, EPOCH_10H, members
    )
    assert found == {"aws_ebs_volume.this": {"tags": ["module.ec2.aws_instance.this[0]"]}}


ROLE_ARN = "arn:aws:iam::123456789012:role/eg-test-sns"
TOPIC_ARN = "arn:aws:sns:us-east-2:123456789012:eg-test-sns"


def _sns_state():
    # cloudposse's labels give the role and the topic one name: the topic's state holds
    # the role's id (its name) as its own name.
    return [
        StateResource("aws_iam_role.this", "aws_iam_role", "managed", "eg-test-sns", {
            "id": "eg-test-sns", "arn": ROLE_ARN, "name": "eg-test-sns"}),
        StateResource("aws_iam_role_policy.this", "aws_iam_role_policy", "managed",
                      "eg-test-sns:p", {"id": "eg-test-sns:p", "role": "eg-test-sns"}),
        StateResource("aws_sns_topic.this", "aws_sns_topic", "managed", TOPIC_ARN, {
            "id": TOPIC_ARN, "arn": TOPIC_ARN, "name": "eg-test-sns"}),
        StateResource("aws_sns_topic_policy.this", "aws_sns_topic_policy", "managed",
                      TOPIC_ARN, {"id": TOPIC_ARN, "arn": TOPIC_ARN}),
    ]  # fmt: skip


SNS_EVENTS = [
    _event("apply_start", "aws_iam_role.this", 1),
    _event("apply_complete", "aws_iam_role.this", 2),
    # The role's policy and the topic are applied at once (terraform's parallelism).
    _event("apply_start", "aws_iam_role_policy.this", 3),
    _event("apply_start", "aws_sns_topic.this", 3.1),
    _event("apply_complete", "aws_iam_role_policy.this", 4),
    _event("apply_complete", "aws_sns_topic.this", 4.5),
    _event("apply_start", "aws_sns_topic_policy.this", 5),
    _event("apply_complete", "aws_sns_topic_policy.this", 6),
]


def _sns_call(service, operation, second, *requested):
    call = _call(operation, second)
    call.service, call.requested = service, frozenset(requested)
    return call


def test_a_call_made_while_two_applies_were_open_is_theirs_whose_service_made_it():
    """cloudposse sns-topic v1.2.0 complete: the role's inline policy written by its
    aws_iam_role_policy, not also by the SNS topic whose apply was open meanwhile."""
    calls = [
        _sns_call("iam", "PutRolePolicy", 3.5, "eg-test-sns"),
        _sns_call("sns", "CreateTopic", 3.6, "eg-test-sns"),
    ]
    services = {"aws_iam_role_policy": "iam", "aws_sns_topic": "sns"}.get
    found = sibling_writers(
        {"aws_iam_role.this": ["inline_policy"]},
        SNS_EVENTS,
        calls,
        _sns_state(),
        EPOCH_10H,
        service_of=services,
    )
    assert found == {"aws_iam_role.this": {"inline_policy": ["aws_iam_role_policy.this"]}}
    # Without knowing services, both open applies are named (as before).
    both = sibling_writers(
        {"aws_iam_role.this": ["inline_policy"]}, SNS_EVENTS, calls, _sns_state(), EPOCH_10H
    )
    assert both["aws_iam_role.this"]["inline_policy"] == [
        "aws_iam_role_policy.this",
        "aws_sns_topic.this",
    ]


def test_an_attribute_set_by_name_through_an_attribute_map_operation_is_written():
    """The topic's ``policy`` replaced by aws_sns_topic_policy's SetTopicAttributes
    (AttributeName=Policy): its writer, not a change from outside terraform."""
    calls = [_sns_call("sns", "SetTopicAttributes", 5.5, TOPIC_ARN, "Policy", '{"Id":"x"}')]
    found = sibling_writers(
        {"aws_sns_topic.this": ["policy"]}, SNS_EVENTS, calls, _sns_state(), EPOCH_10H
    )
    assert found == {"aws_sns_topic.this": {"policy": ["aws_sns_topic_policy.this"]}}
    other = [_sns_call("sns", "SetTopicAttributes", 5.5, TOPIC_ARN, "DisplayName", "x")]
    assert (
        sibling_writers(
            {"aws_sns_topic.this": ["policy"]}, SNS_EVENTS, other, _sns_state(), EPOCH_10H
        )
        == {}
    )


def test_an_authorization_that_sends_the_field_is_not_its_writer():
    """route53 v5.0.0 complete: a private zone's ``vpc`` is written by the
    aws_route53_zone_association (AssociateVPCWithHostedZone); the
    aws_route53_vpc_association_authorization's CreateVPCAssociationAuthorization sends
    the VPC too, but makes an authorization of its own and writes nothing of the zone."""
    state = [
        StateResource("aws_route53_zone.this", "aws_route53_zone", "managed", "Z1",
                      {"id": "Z1", "zone_id": "Z1"}),
        StateResource("aws_route53_vpc_association_authorization.this",
                      "aws_route53_vpc_association_authorization", "managed", "Z1:vpc-2",
                      {"id": "Z1:vpc-2", "zone_id": "Z1", "vpc_id": "vpc-2"}),
        StateResource("aws_route53_zone_association.this", "aws_route53_zone_association",
                      "managed", "Z1:vpc-2", {"id": "Z1:vpc-2", "zone_id": "Z1",
                                              "vpc_id": "vpc-2"}),
    ]  # fmt: skip
    events = [
        _event("apply_start", "aws_route53_zone.this", 1),
        _event("apply_complete", "aws_route53_zone.this", 2),
        _event("apply_start", "aws_route53_vpc_association_authorization.this", 3),
        _event("apply_complete", "aws_route53_vpc_association_authorization.this", 4),
        _event("apply_start", "aws_route53_zone_association.this", 5),
        _event("apply_complete", "aws_route53_zone_association.this", 6),
    ]
    calls = [
        _call("CreateVPCAssociationAuthorization", 3.5),
        _call("AssociateVPCWithHostedZone", 5.5),
    ]
    found = sibling_writers({"aws_route53_zone.this": ["vpc"]}, events, calls, state, EPOCH_10H)
    assert found == {"aws_route53_zone.this": {"vpc": ["aws_route53_zone_association.this"]}}
