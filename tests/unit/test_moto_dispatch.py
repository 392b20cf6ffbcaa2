"""What moto serves, from its own dispatch (responses methods, url patterns)."""

from __future__ import annotations

import pytest

from pytest_converge.emulator.moto_source import implements


@pytest.mark.parametrize(
    ("service", "operation", "served"),
    [
        ("sqs", "CreateQueue", True),  # query protocol: its responses method
        ("ec2", "DescribeSubnets", True),
        ("ec2", "EnableVgwRoutePropagation", False),
        ("elasticache", "CreateCacheParameterGroup", False),
        ("memorydb", "CreateACL", False),
        ("lambda", "CreateFunction", True),  # REST: a url pattern, then the method
        ("efs", "PutBackupPolicy", False),  # REST, generic dispatch, no method
        ("efs", "CreateFileSystem", True),
        ("ecr-public", "CreateRepository", False),  # no package at all
        ("s3", "PutBucketTagging", None),  # S3's own handlers: not told from here
    ],
)
def test_moto_serves_what_its_dispatch_reaches(service, operation, served):
    assert implements(service, operation) is served
