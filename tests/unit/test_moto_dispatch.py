"""What moto serves, from its own dispatch (responses methods, url patterns)."""

from __future__ import annotations

import pytest

from pytest_converge.emulator.moto_source import implements


@pytest.mark.parametrize(
    ("service", "operation", "served"),
    [
        ("sqs", "CreateQueue", True),  # query protocol: its responses method
        ("ec2", "DescribeSubnets", True),
        ("ec2", "CreateSpotDatafeedSubscription", False),
        ("elasticache", "CreateGlobalReplicationGroup", False),
        ("memorydb", "CreateMultiRegionCluster", False),
        ("lambda", "CreateFunction", True),  # REST: a url pattern, then the method
        ("efs", "PutBackupPolicy", True),  # REST; the fidelity layer's (moto has none)
        ("efs", "CreateFileSystem", True),
        ("ecr-public", "CreateRepository", False),  # no package at all
        ("s3", "PutBucketTagging", True),  # S3's own handlers: the whole service served
    ],
)
def test_moto_serves_what_its_dispatch_reaches(service, operation, served):
    assert implements(service, operation) is served


@pytest.mark.parametrize(
    ("signing_name", "operation", "service"),
    [
        ("elasticfilesystem", "CreateMountTarget", "efs"),
        ("elasticfilesystem", "PutBackupPolicy", "efs"),
        ("apigateway", "CreateApi", "apigatewayv2"),  # v1 is the namesake, v2 has it
        ("apigateway", "CreateRestApi", "apigateway"),
    ],
)
def test_a_calls_signing_name_is_read_as_the_botocore_service_with_the_operation(
    signing_name, operation, service
):
    # The proxy records a call under its signing name ("elasticfilesystem:CreateMountTarget").
    assert implements(signing_name, operation) is implements(service, operation) is True


@pytest.mark.parametrize(
    ("service", "operation"),
    [
        ("ec2", "DescribeVpcBlockPublicAccessOptions"),  # grafted onto EC2Response
        ("outposts", "ListOutposts"),  # a service laid out as moto's own
    ],
)
def test_what_the_fidelity_layer_serves_counts(service, operation):
    assert implements(service, operation) is True


def test_moto_alone_does_not_serve_them(tmp_path):
    from pytest_converge.emulator.moto_source import SourceIndex

    bare = SourceIndex(extra=[], cache=tmp_path)
    assert not bare.responds_to("ec2", "DescribeVpcBlockPublicAccessOptions")
    assert bare.package_of("outposts") is None
