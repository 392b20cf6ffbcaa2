"""Classification of permanent diffs, fix hints, and the classify hook (plain data)."""

from __future__ import annotations

import json

import pluggy
import pytest

from pytest_converge.analysis import hints
from pytest_converge.analysis.classify import (
    Classification,
    classify,
    classify_with,
    first_difference,
    pytest_converge_classify_diff,
    sort_key,
)
from pytest_converge.analysis.defects import CLASSIFICATIONS
from pytest_converge.analysis.plan import UNKNOWN

POLICY = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject"], "Resource": "*"}],
}


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ('{"a": 1, "b": [1, 2]}', '{"b":[1,2],"a":1}'),
        (json.dumps(POLICY, indent=2), json.dumps(POLICY, separators=(",", ":"))),
        # IAM: a single string and a one-element list mean the same.
        (
            '{"Statement": [{"Action": "s3:GetObject", "Effect": "Allow"}]}',
            '{"Statement": [{"Action": ["s3:GetObject"], "Effect": "Allow"}]}',
        ),
        # IAM: a Statement object and a one-element Statement list.
        (
            '{"Version": "2012-10-17", "Statement": {"Effect": "Allow", "Action": "sqs:*"}}',
            '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["sqs:*"]}]}',
        ),
        # Real: moto's json.dumps vs the provider's compact jsonencode().
        (
            '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:dlq","maxReceiveCount":3}',
            '{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dlq", '
            '"maxReceiveCount": 3}',
        ),
    ],
)
def test_json_equivalent(declared, observed):
    assert classify(declared, observed) == "json-equivalent"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ("echo hello\n", "echo hello"),
        ("  indented value", "indented value"),
        ("a  b\tc", "a b c"),
        ('{"a": 1}\n', '{"a": 1}'),
    ],
)
def test_whitespace(declared, observed):
    assert classify(declared, observed) == "whitespace"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ("Mon:00:00-Mon:03:00", "mon:00:00-mon:03:00"),
        ("new_image", "NEW_IMAGE"),
        (["TCP", "udp"], ["tcp", "UDP"]),
        ('{"Effect": "allow"}', '{"Effect": "Allow"}'),
    ],
)
def test_case(declared, observed):
    assert classify(declared, observed) == "case"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        (["10.9.0.0/16", "10.1.0.0/16"], ["10.1.0.0/16", "10.9.0.0/16"]),
        ("b,a,c", "a,b,c"),
        ("b, a", "a,b"),
        ([{"port": 2}, {"port": 1}], [{"port": 1}, {"port": 2}]),
        ('{"Action": ["s3:Put", "s3:Get"]}', '{"Action": ["s3:Get", "s3:Put"]}'),
    ],
)
def test_order(declared, observed):
    assert classify(declared, observed) == "order"


@pytest.mark.parametrize(
    ("declared", "observed", "attribute"),
    [
        (None, "arn:aws:kms:us-east-1:123456789012:key/abc", "kms_master_key_id"),
        ("", "Managed by Terraform", "description"),
        ([], ["sg-123"], "vpc_security_group_ids"),
        ({}, {"Owner": "platform"}, "tags"),
        (None, [], "ingress"),
        # The reverse: the API drops a value equal to its default.
        ("default", None, "instance_tenancy"),
        (False, None, "enabled"),
        ("/", "", "path"),
    ],
)
def test_default(declared, observed, attribute):
    assert classify(declared, observed, attribute) == "default"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ("3", 3),
        (3, "3"),
        ("true", True),
        ("false", False),
        ("1.0", 1),
        (1, 1.0),
        # Real: maxReceiveCount declared as a string inside jsonencode().
        ('{"arn":"x","maxReceiveCount":"3"}', '{"arn": "x", "maxReceiveCount": 3}'),
    ],
)
def test_type_coercion(declared, observed):
    assert classify(declared, observed) == "type-coercion"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        # Different JSON documents.
        ('{"a": 1}', '{"a": 2}'),
        ('{"Statement": [{"Action": "s3:GetObject"}]}', '{"Statement": [{"Action": "s3:*"}]}'),
        ('{"Action": ["a", "b"]}', '{"Action": "a"}'),
        # Different sets, same length / one element more.
        (["a", "b"], ["a", "c"]),
        (["a", "b"], ["b", "a", "a"]),
        ("a,b", "a,c"),
        # Different numbers.
        ("3", 4),
        ("1.0", 1.5),
        ("true", False),
        (True, 1),
        # Case-different but different words.
        ("Allow", "deny"),
        ("abc", "ABD"),
        # Whitespace inside a word is not whitespace normalisation.
        ("ab", "a b"),
        # Only known after apply.
        (UNKNOWN, "x"),
        # Invalid JSON on one side.
        ('{"a": 1', '{"a": 1}'),
    ],
)
def test_near_misses_are_unknown(declared, observed):
    assert classify(declared, observed, "some_attribute") == "unknown"


@pytest.mark.parametrize(
    ("declared", "observed", "attribute"),
    [
        # A network ACL rule's protocol by name, answered by number (moto + 3.39).
        ("tcp", "6", "ingress[0].protocol"),
        ("udp", "17", "protocol"),
        ("icmp", "1", "ip_protocol"),
        ("all", "-1", "egress[0].protocol"),
        ("-1", "all", "protocol"),
        # An ARN where a name (or id) was declared, and the reverse.
        ("orders", "arn:aws:sqs:us-east-1:123456789012:orders", "queue"),
        ("app", "arn:aws:iam::123456789012:role/app", "role"),
        ("alias/aws/sqs", "arn:aws:kms:us-east-1:123456789012:alias/aws/sqs", "kms_master_key_id"),
        ("arn:aws:lambda:us-east-1:123456789012:function:fn", "fn", "function_name"),
    ],
)
def test_alias(declared, observed, attribute):
    assert classify(declared, observed, attribute) == "alias"


@pytest.mark.parametrize(
    ("declared", "observed", "attribute"),
    [
        ("tcp", "17", "protocol"),  # another protocol
        ("tcp", "6", "description"),  # not a protocol field
        ("orders", "arn:aws:sqs:us-east-1:123456789012:payments", "queue"),
        ("app", "arn:aws:iam::123456789012:role/other-app", "role"),
        ("pp", "arn:aws:iam::123456789012:role/app", "role"),  # a suffix, not the name
        ("arn:aws:sqs:us-east-1:1:a", "arn:aws:sqs:us-east-1:2:a", "queue"),
    ],
)
def test_alias_near_misses_are_not_alias(declared, observed, attribute):
    assert classify(declared, observed, attribute) != "alias"


#: Lifecycle rules as the provider plans them (declared: configuration order, unset
#: fields null) and as an API answers them sorted by id, its defaults filled in.
RULE_TMP = {"id": "tmp", "prefix": "tmp/", "expiration": [{"days": 1, "date": None}]}
RULE_ARCHIVE = {"id": "archive", "prefix": "archive/", "expiration": []}
SORTED_RULES = [
    {**RULE_ARCHIVE, "expiration": []},
    {**RULE_TMP, "expiration": [{"days": 1, "date": ""}]},
]


def test_blocks_the_api_sorts_by_a_key_are_order():
    assert classify([RULE_TMP, RULE_ARCHIVE], SORTED_RULES, "lifecycle_rule") == "order"
    assert sort_key([RULE_TMP, RULE_ARCHIVE], SORTED_RULES) == "id"
    fix = hints.fix("order", "lifecycle_rule", [RULE_TMP, RULE_ARCHIVE], SORTED_RULES)
    assert 'sorted by id: "archive", "tmp"' in fix


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        # Same order: nothing to sort (the difference is elsewhere).
        ([RULE_ARCHIVE, RULE_TMP], [RULE_ARCHIVE, {**RULE_TMP, "prefix": "x/"}]),
        # Sorted by id, but a field the module set differs: not only the order.
        ([RULE_TMP, RULE_ARCHIVE], [RULE_ARCHIVE, {**RULE_TMP, "prefix": "other/"}]),
        # Another order that is not sorted by any attribute.
        (
            [{"id": "b", "n": None}, {"id": "c", "n": 3}, {"id": "a", "n": 1}],
            [{"id": "c", "n": 3}, {"id": "a", "n": 1}, {"id": "b", "n": 0}],
        ),
        # A key that repeats identifies nothing.
        ([{"id": "a", "n": 2}, {"id": "a", "n": 1}], [{"id": "a", "n": 1}, {"id": "a", "n": 0}]),
        # One block: no order to speak of.
        ([{"id": "a", "n": None}], [{"id": "a", "n": 1}]),
    ],
    ids=["same-order", "changed-field", "unsorted", "repeated-key", "one-block"],
)
def test_blocks_that_differ_otherwise_are_not_order(declared, observed):
    assert sort_key(declared, observed) is None
    assert classify(declared, observed, "rule") != "order"


SAMPLES = [
    ('{"a":1}', '{"a": 1}', "json-equivalent"),
    ("a\n", "a", "whitespace"),
    ("A", "a", "case"),
    ("a,b", "b,a", "order"),
    (None, "x", "default"),
    ("3", 3, "type-coercion"),
    ("tcp", "6", "alias"),
    ("x", "y", "unknown"),
]


@pytest.mark.parametrize(("declared", "observed", "expected"), SAMPLES)
def test_each_sample_gets_its_own_classification(declared, observed, expected):
    assert classify(declared, observed) == expected


SHARPER = [
    # The API keeps nothing of a declared value.
    ("2001:db8::/64", None, "ipv6_cidr_block", "dropped"),
    ("gw-device-1", "", "device_name", "dropped"),
    # On-demand DynamoDB reports 0 for capacities that do not apply.
    (5, 0, "read_capacity", "default"),
    (5, 0, "global_secondary_index[0].write_capacity", "default"),
    # KMS substitutes its default deletion window.
    (7, 30, "deletion_window_in_days", "default"),
    # Repeated elements removed (a SG rule's CIDRs; an IAM action list).
    (["10.0.0.0/8", "10.0.0.0/8", "10.1.0.0/16"], ["10.1.0.0/16", "10.0.0.0/8"], "c", "dedup"),
    ('{"Action":["s3:GetObject","s3:GetObject"]}', '{"Action":"s3:GetObject"}', "p", "dedup"),
    ("a,a,b", "a,b", "x", "dedup"),
    # Permuted IAM action list inside a policy document.
    (
        '{"Statement":[{"Action":["sqs:B","sqs:A"],"Effect":"Allow"}]}',
        '{"Statement":[{"Action":["sqs:A","sqs:B"],"Effect":"Allow"}]}',
        "policy",
        "order",
    ),
    # Not a capacity: a 0 for another number stays unknown.
    (5, 0, "max_size", "unknown"),
]


@pytest.mark.parametrize(("declared", "observed", "attribute", "expected"), SHARPER)
def test_sharper_classes(declared, observed, attribute, expected):
    assert classify(declared, observed, attribute) == expected


def test_the_samples_reach_every_classification():
    # A classification nothing can produce is dead text in the reports.
    reached = {e for *_, e in SAMPLES} | {e for *_, e in SHARPER}
    assert reached == set(CLASSIFICATIONS)


def test_first_difference_points_inside_documents():
    assert first_difference('{"a": {"b": "3"}}', '{"a": {"b": 3}}') == ("$.a.b", "3", 3)
    assert first_difference("x", "x") is None


def test_hookimpl_returns_none_when_unexplained():
    assert pytest_converge_classify_diff("a.b", "x", "3", 3) == "type-coercion"
    assert pytest_converge_classify_diff("a.b", "x", "3", 4) is None
    opts = pluggy.HookimplMarker("pytest")  # the marker the plugin manager reads
    assert getattr(pytest_converge_classify_diff, opts.project_name + "_impl")["trylast"]


def test_classify_with_none_uses_builtins():
    classifier = classify_with(None)
    assert classifier("aws_sqs_queue.q", "redrive_policy", '{"a":1}', '{"a": 1}') == (
        "json-equivalent"
    )
    assert classifier("aws_sqs_queue.q", "name", "a", "b") == "unknown"


def _hook_with(*plugins):
    """A pluggy manager with the converge hookspec, the built-ins and ``plugins``."""
    from pytest_converge.analysis import classify as builtin
    from pytest_converge.plugin import hookspecs

    pm = pluggy.PluginManager("pytest")
    pm.add_hookspecs(hookspecs)
    pm.register(builtin)
    for plugin in plugins:
        pm.register(plugin)
    return pm.hook


def test_classify_with_hook_lets_a_user_implementation_decide_first():
    class Mine:
        @pluggy.HookimplMarker("pytest")(tryfirst=True)
        def pytest_converge_classify_diff(self, address, attribute, declared, observed):
            return "default" if attribute == "special" else None

    hook = _hook_with(Mine())
    classifier = classify_with(hook)
    assert classifier("x.y", "special", "a", "b") == "default"
    assert classifier("x.y", "other", "3", 3) == "type-coercion"  # falls through to built-ins
    assert classifier("x.y", "other", "a", "b") == "unknown"
    # The hook caller itself is accepted too.
    assert classify_with(hook.pytest_converge_classify_diff)("x.y", "o", "A", "a") == "case"


@pytest.mark.parametrize("bad", ["Equivalent ish!", 42, ""])
def test_classify_with_rejects_an_invalid_classification(bad):
    class Bad:
        @pluggy.HookimplMarker("pytest")(tryfirst=True)
        def pytest_converge_classify_diff(self, address, attribute, declared, observed):
            return bad

    with pytest.raises(ValueError, match="Classification\\(name, why, fix\\)"):
        classify_with(_hook_with(Bad()))("x.y", "a", 1, 2)


def test_a_user_hook_may_return_a_new_class_name():
    """A class of one's own, as a plain name or with its own why and fix (was rejected)."""

    class Mine:
        @pluggy.HookimplMarker("pytest")(tryfirst=True)
        def pytest_converge_classify_diff(self, address, attribute, declared, observed):
            if attribute == "retention_in_days":
                return Classification(
                    "api-rounding",
                    why="the API rounds retention up to the next allowed value",
                    fix="declare one of 1, 3, 5, 7, 14, 30 days",
                )
            if attribute == "name":
                return "name-prefix"
            return None

    classifier = classify_with(_hook_with(Mine()))
    rounded = classifier("aws_cloudwatch_log_group.g", "retention_in_days", 2, 3)
    assert rounded == "api-rounding" and rounded.why.startswith("the API rounds")
    assert classifier("aws_sqs_queue.q", "name", "a", "a-1") == "name-prefix"
    assert hints.why(rounded) == rounded.why
    assert hints.fix(rounded, "retention_in_days").startswith("declare one of 1, 3")
    assert "'name-prefix'" in hints.why("name-prefix")
    with pytest.raises(ValueError, match="lower-case"):
        Classification("Not Valid")


@pytest.mark.parametrize("classification", CLASSIFICATIONS)
def test_every_classification_has_why_and_a_fix_with_last_resort(classification):
    assert hints.why(classification)
    text = hints.fix(classification, "redrive_policy", "a", "b")
    assert "redrive_policy" in text
    assert "Last resort only" in text
    assert "ignore_changes = [redrive_policy]" in text


def test_fix_hints_are_concrete():
    assert "chomp(" in hints.fix("whitespace", "user_data", "echo\n", "echo")
    assert "jsonencode()" in hints.fix("json-equivalent", "policy", "{}", "{}")
    assert "aws_iam_policy_document" in hints.fix("json-equivalent", "policy", "{}", "{}")
    assert "sort()" in hints.fix("order", "cidr_blocks", ["b", "a"], ["a", "b"])
    assert '"NEW_IMAGE"' in hints.fix("case", "stream_view_type", "new_image", "NEW_IMAGE")
    assert "upper()" in hints.fix("case", "stream_view_type", "new_image", "NEW_IMAGE")
    default = hints.fix("default", "description", "", "Managed by Terraform")
    assert '"Managed by Terraform"' in default
    typed = hints.fix("type-coercion", "redrive_policy", '{"n":"3"}', '{"n": 3}')
    assert "n = 3" in typed and "tonumber" in typed
    assert "tobool" in hints.fix("type-coercion", "enabled", "true", True)
    assert "tostring" in hints.fix("type-coercion", "port", 3, "3")


def test_ignore_changes_reference():
    assert hints.ignore_changes_ref("tags.Name") == 'tags["Name"]'
    assert hints.ignore_changes_ref("ingress[0].cidr_blocks") == "ingress"
    assert hints.ignore_changes_ref("policy") == "policy"


def test_json_fix_says_when_no_spelling_converges():
    # Real (moto + provider 3.39): the provider sends canonical JSON, moto answers
    # json.dumps() with spaces; rewriting the module cannot fix that.
    declared = '{"deadLetterTargetArn":"arn:dlq","maxReceiveCount":3}'
    observed = '{"deadLetterTargetArn": "arn:dlq", "maxReceiveCount": 3}'
    text = hints.fix("json-equivalent", "redrive_policy", declared, observed)
    assert "no spelling of the document converges" in text
    assert "Last resort only" in text
    written = hints.fix("json-equivalent", "policy", '{"b": 1, "a": 2}', '{"a":2,"b":1}')
    assert "jsonencode()" in written


def test_blocks_returned_sorted_with_fields_carried_over_by_position_are_order():
    # An ALB listener's actions declared out of `order` (aws 3.39 on moto, measured):
    # the plan pairs blocks by position, so the forward action planned where the OIDC
    # one was keeps its authenticate_oidc, and the OIDC one the forward's target group.
    oidc = {"client_id": "app", "client_secret": "s", "scope": "", "session_timeout": 0}
    declared = [
        {"type": "forward", "order": 2, "target_group_arn": "tg", "authenticate_oidc": [oidc]},
        {
            "type": "authenticate-oidc",
            "order": 1,
            "target_group_arn": "tg",
            "authenticate_oidc": [{**oidc, "scope": None, "session_timeout": None}],
        },
    ]
    observed = [
        {
            "type": "authenticate-oidc",
            "order": 1,
            "target_group_arn": "",
            "authenticate_oidc": [oidc],
        },
        {"type": "forward", "order": 2, "target_group_arn": "tg", "authenticate_oidc": []},
    ]
    assert classify(declared, observed, "default_action") == "order"
    # A field that differs in its own block is no carry-over: not order.
    changed = [{**declared[0], "target_group_arn": "other"}, declared[1]]
    assert classify(changed, observed, "default_action") != "order"


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ({"example": "", "example2": "example2"}, {"example": None, "example2": "example2"}),
        ({"Name": "", "Env": "dev"}, {"Env": "dev"}),
        ([{"rule": {"name": "", "id": "r-1"}}], [{"rule": {"id": "r-1"}}]),
    ],
)
def test_a_member_declared_empty_that_reads_back_null_is_the_apis_default(declared, observed):
    """An output map of resolver rule associations whose ``Name = ""`` reads back null:
    the same cause as the value alone, not an unknown one."""
    assert classify(declared, observed) == "default"
    assert "keeps no empty value" in hints.why("default", declared, observed)
    assert "Leave the member declared empty out" in hints.fix("default", "x", declared, observed)


@pytest.mark.parametrize(
    ("declared", "observed"),
    [
        ({"Name": "web", "Env": "dev"}, {"Env": "dev"}),  # a value lost: not empty
        ({"Env": "dev"}, {"Env": "dev", "Extra": ""}),  # a member the API added
    ],
)
def test_only_members_declared_empty_may_be_missing(declared, observed):
    assert classify(declared, observed) != "default"
