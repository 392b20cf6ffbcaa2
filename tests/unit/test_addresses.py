"""Resource addresses are read by one parser (analysis/addresses.py), keys and all."""

from __future__ import annotations

import pytest

from pytest_converge.analysis.addresses import Address, module_calls, resource_type, without_keys


def test_an_address_in_its_parts() -> None:
    a = Address.parse('module.net["eu"].module.sub.data.aws_subnet.private[0]')
    assert a is not None
    assert (a.modules, a.mode, a.type, a.name, a.key) == (
        ('net["eu"]', "sub"), "data", "aws_subnet", "private", "[0]",
    )  # fmt: skip
    assert a.module_calls == ["net", "sub"]
    assert a.module == 'module.net["eu"].module.sub'
    assert a.declared == "data.aws_subnet.private"
    assert a.resource == 'module.net["eu"].module.sub.data.aws_subnet.private'
    assert a.config == "module.net.module.sub.data.aws_subnet.private"
    assert str(a) == 'module.net["eu"].module.sub.data.aws_subnet.private[0]'


def test_a_key_holding_dots_and_brackets_stays_whole() -> None:
    a = Address.parse('aws_s3_bucket.b["logs.example.com]"]')
    assert a is not None
    assert (a.type, a.name, a.key, a.config) == (
        "aws_s3_bucket", "b", '["logs.example.com]"]', "aws_s3_bucket.b",
    )  # fmt: skip
    assert resource_type('module.m["a.b"].aws_iam_role.r') == "aws_iam_role"


@pytest.mark.parametrize("text", ["output.arn", "var.name", "module.net", "aws_vpc", ""])
def test_what_is_not_a_resource_is_none(text: str) -> None:
    assert Address.parse(text) is None
    assert resource_type(text) is None


def test_module_calls_and_references() -> None:
    assert module_calls('module.a["x"].module.b') == ["a", "b"]
    assert module_calls(None) == []
    assert without_keys('module.net[0].aws_subnet.a["x.y"].id') == "module.net.aws_subnet.a.id"
