"""The why and fix of a recovery-failed defect, worded in analysis/hints.py from plain text."""

from __future__ import annotations

import pytest

from pytest_converge.analysis.hints import recovery_failed_hints


@pytest.mark.parametrize(
    "text",
    [
        "creating IAM Role (app): EntityAlreadyExists: Role with name app already exists.",
        "BucketAlreadyOwnedByYou: Your previous request to create the named bucket "
        "succeeded and you already own it. Bucket already exists",
        "InvalidGroup.Duplicate: the security group is In Use",
    ],
)
def test_a_taken_name_says_import_the_object(text):
    why, fix = recovery_failed_hints(text, "aws_iam_role.app")
    assert "the name is taken" in why
    assert fix.startswith("`terraform import aws_iam_role.app <id>`")
    assert "import { to = aws_iam_role.app ... }" in fix


def test_a_duplicate_code_is_a_taken_name_and_the_word_alone_is_not() -> None:
    for code in ("InvalidPermission.Duplicate: the rule exists", "DuplicateListener: port 80"):
        assert "the name is taken" in recovery_failed_hints(code, "aws_lb_listener.a")[0]
    why, _ = recovery_failed_hints("ValidationError: duplicate tag keys", "aws_lb.a")
    assert "taken" not in why


def test_a_rule_or_route_made_again_says_import_or_inline_never_name_prefix() -> None:
    """A rule's content is its identity: no name to vary; inline blocks are read back."""
    for address in (
        "module.sg.aws_security_group_rule.ingress_rules[0]",
        'aws_vpc_security_group_ingress_rule.this["https"]',
        "aws_route.private_nat[1]",
    ):
        why, fix = recovery_failed_hints(
            "InvalidPermission.Duplicate: the specified rule already exists",
            address,
            kind="lost-response",
        )
        assert "no name to vary" in why and "answer was lost" in why
        assert fix.startswith(f"`terraform import {address} <id>`")
        assert "name_prefix" not in fix and "blocks" in fix
    # A type with a name keeps the name's advice.
    _, fix = recovery_failed_hints("already exists", "aws_security_group.app")
    assert "name_prefix" in fix


def test_any_other_failure_says_make_the_create_idempotent():
    why, fix = recovery_failed_hints("timeout while waiting for state to become 'ready'", None)
    assert why == "the re-run cannot complete from the state the faulted run left"
    assert "idempotent" in fix


def test_an_empty_tag_value_is_explained_as_the_providers_not_the_emulators() -> None:
    from pytest_converge.analysis import hints

    nacl = "aws_default_network_acl"
    text = hints.why("default", "", None, attribute="tags.Name", resource_type=nacl)
    assert "#20371" in text and "on AWS too" in text
    assert "non-empty value" in hints.fix("default", "tags.Name", "", None, resource_type=nacl)
    # Any other empty value, and a tag of a type it was not measured on, keep the general cause.
    assert hints.why("default", "", None, attribute="description", resource_type=nacl) != text
    assert hints.why("default", "", None, attribute="tags.x", resource_type="aws_s3_bucket") != text
