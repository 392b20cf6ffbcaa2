"""Terraform's diagnostics are records (text, address, call), parsed once where they are made."""

from __future__ import annotations

from pytest_converge.errors import Diagnostic, TerraformError
from pytest_converge.terraform.runner import Completed


def _ran(events: list[dict], stderr: str = "") -> Completed:
    return Completed(["terraform", "apply"], 1, "", stderr, 1.0, events=events)


def _diagnostic(**body: object) -> dict:
    return {"type": "diagnostic", "@level": "error", "diagnostic": body}


def test_a_json_diagnostic_keeps_the_address_terraform_gives() -> None:
    body = {
        "summary": "creating EC2 VPC",
        "detail": "operation error EC2: CreateVpc, https response error StatusCode: 500",
        "address": 'module.net.aws_vpc.main["a:b"]',
        "range": {"filename": "main.tf", "start": {"line": 3}},
    }
    warning = {"type": "diagnostic", "@level": "warning", "diagnostic": {"summary": "w"}}
    [found] = _ran([warning, _diagnostic(**body)]).diagnostics()
    assert found == Diagnostic(
        "creating EC2 VPC: operation error EC2: CreateVpc, https response error StatusCode: "
        '500 [module.net.aws_vpc.main["a:b"], main.tf:3]',
        address='module.net.aws_vpc.main["a:b"]',  # a ":" in a key: the text could not say
        service="ec2",
        operation="CreateVpc",
    )


def test_a_json_diagnostic_without_an_address_names_none() -> None:
    # Its text ends in brackets that look like an address: only terraform's field counts.
    body = {"summary": "Invalid reference", "detail": "see [aws_vpc.main]"}
    [found] = _ran([_diagnostic(**body)]).diagnostics()
    assert found == Diagnostic("Invalid reference: see [aws_vpc.main]")
    [placed] = _ran([_diagnostic(summary="x", range={"filename": "main.tf"})]).diagnostics()
    assert (placed.text, placed.address) == ("x [main.tf:?]", None)


def test_plain_output_is_read_block_by_block() -> None:
    stderr = """
╷
│ Error: creating Secrets Manager Secret (k): ResourceExistsException: exists
│
│   with aws_secretsmanager_secret.k,
│   on main.tf line 3, in resource "aws_secretsmanager_secret" "k":
│    3: resource "aws_secretsmanager_secret" "k" {
│
╵
╷
│ Warning: Deprecated attribute
╵
╷
│ Error: Failed to query available provider packages
╵
"""
    secret, init = _ran([], stderr).diagnostics()
    assert secret.address == "aws_secretsmanager_secret.k"
    assert secret.text.startswith("creating Secrets Manager Secret (k): ResourceExistsException")
    assert secret.text.endswith('3: resource "aws_secretsmanager_secret" "k" {')
    assert init == Diagnostic("Failed to query available provider packages")


def test_the_message_is_written_from_the_records_when_shown() -> None:
    error = TerraformError("terraform apply", 1, ["plain", Diagnostic("x [a.b]", "a.b")])
    assert all(isinstance(d, Diagnostic) for d in error.diagnostics)
    error.diagnostics.insert(0, Diagnostic("the moto emulator does not implement `ec2:Op`"))
    assert str(error) == (
        "`terraform apply` failed (exit code 1):\n"
        "  the moto emulator does not implement `ec2:Op`\n  plain\n  x [a.b]"
    )


def test_a_providers_wrong_answer_names_its_resource_in_terraforms_words() -> None:
    # Terraform gives these diagnostics no address; its own sentence names the resource.
    body = {
        "summary": "Provider produced inconsistent result after apply",
        "detail": 'When applying changes to module.app.aws_s3_bucket.b["a, b"], provider '
        '"provider[\\"registry.terraform.io/hashicorp/aws\\"]" produced an unexpected new '
        'value: .acl: was cty.StringVal("private"), but now cty.StringVal("public-read").',
    }
    [found] = _ran([_diagnostic(**body)]).diagnostics()
    assert found.address == 'module.app.aws_s3_bucket.b["a, b"]'
    plan = {
        "summary": "Provider produced inconsistent final plan",
        "detail": "When expanding the plan for aws_x.y[0] to include new values learned so "
        "far during apply, provider produced an invalid new value for .tags",
    }
    assert _ran([_diagnostic(**plan)]).diagnostics()[0].address == "aws_x.y[0]"
    stderr = "│ Error: Provider produced inconsistent result after apply\n│\n│ " + body["detail"]
    assert _ran([], stderr).diagnostics()[0].address == 'module.app.aws_s3_bucket.b["a, b"]'


def test_an_answer_the_sdk_could_not_decode_is_marked_on_its_record() -> None:
    v2 = {
        "summary": "creating EC2 Subnet",
        "detail": "operation error EC2: CreateSubnet, https response error StatusCode: 200, "
        "RequestID: x, deserialization failed, failed to decode response body",
        "address": "aws_subnet.a",
    }
    [found] = _ran([_diagnostic(**v2)]).diagnostics()
    assert (found.service, found.operation, found.undecodable) == ("ec2", "CreateSubnet", True)
    stderr = (
        "│ Error: reading EC2 Subnet: SerializationError: failed decoding EC2 Query "
        "response\n│   caused by: parsing\n│\n│   with aws_subnet.a,\n"
    )
    [v1] = _ran([], stderr).diagnostics()
    assert (v1.address, v1.service, v1.operation, v1.undecodable) == (
        "aws_subnet.a",
        "ec2",
        None,
        True,
    )
    refusal = _diagnostic(summary="x", detail="operation error EC2: CreateVpc, 500")
    [refused] = _ran([refusal]).diagnostics()
    assert (refused.operation, refused.undecodable) == ("CreateVpc", False)
