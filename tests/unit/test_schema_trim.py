"""The schema relay's trimmed answer: only the types a module's files and state name.

Pure parts: the protobuf wire edit of a schema answer, and the words a working
directory's files hold. tests/integration/test_schema_relay.py runs the trimmed
answer through terraform.
"""

from __future__ import annotations

import json
import os

from pytest_converge.terraform.schema_proxy import (
    SCHEMA_OPTIONAL,
    names_in_use,
    trimmed,
    type_names,
)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _entry(number: int, name: str, size: int = 4) -> bytes:
    """A map entry of field ``number``: name -> a schema of ``size`` bytes."""
    return _field(number, _field(1, name.encode()) + _field(2, b"s" * size))


PROVIDER = _field(1, b"provider block")
VPC = _entry(2, "aws_vpc", size=300)  # a length over 127: two-byte varints
BUCKET = _entry(2, "aws_s3_bucket")
REGION = _entry(3, "aws_region")
AMI = _entry(3, "aws_ami")
FUNCTION = _entry(7, "arn_parse")  # functions pass whole
SECRET = _entry(8, "aws_secretsmanager_secret_version")
ANSWER = PROVIDER + VPC + BUCKET + REGION + AMI + FUNCTION + SECRET + SCHEMA_OPTIONAL


def test_only_the_named_types_are_kept_and_every_other_field_is_unchanged():
    kept = trimmed(ANSWER, {"aws_vpc", "aws_region", "var", "main"})
    assert kept == PROVIDER + VPC + REGION + FUNCTION + SCHEMA_OPTIONAL


def test_an_ephemeral_type_named_is_kept():
    assert trimmed(ANSWER, {"aws_secretsmanager_secret_version"}) == (
        PROVIDER + FUNCTION + SECRET + SCHEMA_OPTIONAL
    )


def test_an_answer_with_nothing_to_drop_is_the_same_bytes():
    wanted = {
        "aws_vpc",
        "aws_s3_bucket",
        "aws_region",
        "aws_ami",
        "aws_secretsmanager_secret_version",
    }
    assert trimmed(ANSWER, wanted) is ANSWER


def test_the_type_names_an_answer_holds():
    assert type_names(ANSWER) == {
        "aws_vpc", "aws_s3_bucket", "aws_region", "aws_ami", "aws_secretsmanager_secret_version"
    }  # fmt: skip
    assert type_names(b"\xff" * 12) == frozenset()


def test_an_answer_that_does_not_parse_is_returned_whole():
    for bad in (ANSWER[:-3], b"\xff" * 12, ANSWER + b"\x0f"):
        assert trimmed(bad, {"aws_vpc"}) is bad


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_names_come_from_the_module_the_modules_it_calls_and_the_state(tmp_path):
    root = tmp_path / "root"
    _write(root / "main.tf", 'module "net" {\n  source = "./net"\n}\n')
    _write(
        root / "net" / "main.tf", 'resource "aws_vpc" "main" {\n  cidr_block = "10.0.0.0/16"\n}\n'
    )
    remote = {"data": {"aws_region": {"here": {}}}}
    _write(root / ".terraform" / "modules" / "remote" / "main.tf.json", json.dumps(remote))
    manifest = {"Modules": [{"Key": "remote", "Dir": ".terraform/modules/remote"}]}
    _write(root / ".terraform" / "modules" / "modules.json", json.dumps(manifest))
    _write(root / "terraform.tfstate", json.dumps({"resources": [{"type": "aws_s3_bucket"}]}))
    _write(root / "terraform.tfstate.d" / "blue" / "terraform.tfstate", '{"type": "aws_kms_key"}')
    _write(tmp_path / "elsewhere" / "main.tf", 'resource "aws_iam_role" "r" {}\n')
    _write(root / "notes.txt", "aws_lambda_function")

    names = names_in_use(root)
    assert {"aws_vpc", "aws_region", "aws_s3_bucket", "aws_kms_key"} <= names
    assert "aws_iam_role" not in names  # a directory no module calls
    assert "aws_lambda_function" not in names  # not a terraform file

    state = root / "terraform.tfstate"
    state.write_text(json.dumps({"resources": [{"type": "aws_sqs_queue"}]}))
    os.utime(state, ns=(1, 1))  # a new stamp even within the clock's resolution
    names = names_in_use(root)
    assert "aws_sqs_queue" in names and "aws_s3_bucket" not in names


def test_the_relay_trims_to_the_types_named_and_keeps_one_answer_per_set_of_types():
    from pytest_converge.terraform.schema_proxy import SchemaRelay

    words = iter([{"aws_vpc", "vpc-0a1"}, {"aws_vpc", "vpc-0b2", "main"}, None])
    relay = SchemaRelay("up.sock", "relay.sock", build="test-build", names=lambda: next(words))
    key = ("test-build", "/tfplugin5.Provider/GetSchema", b"")
    first = relay._trim(key, ANSWER)
    assert first == PROVIDER + VPC + FUNCTION + SCHEMA_OPTIONAL
    # Other words (a state's ids change with every apply), the same types: the same answer.
    assert relay._trim(key, ANSWER) is first
    assert relay._trim(key, ANSWER) is ANSWER  # no names known: the whole schema
    assert relay.trimmed == 2

    def unknown() -> set[str]:
        raise OSError("gone")

    assert SchemaRelay("u", "l", build="b", names=unknown)._trim(key, ANSWER) is ANSWER
