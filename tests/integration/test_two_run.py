"""The two-run test, for real: terraform + AWS provider + moto."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_converge import ConvergenceError, ModuleError, TerraformError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
def test_converging_example_passes(converge, provider_line):
    stack = converge(provider_line.pin(EXAMPLES / "network"))
    result = stack.apply()
    assert result.ok, result.error
    assert result.calls, "every call goes through the stack's proxy"
    stack.assert_converged()
    assert stack.plan().is_empty


def _without(text: str, comment: str, resource: str) -> str:
    """``text`` less the block of ``resource`` and the comment above it."""
    start = text.index(comment)
    end = text.index("\n}\n", text.index(f"resource {resource}")) + 3
    return text[:start] + text[end:]


@pytest.mark.parametrize("provider_line", ["5.x"], indirect=True)
def test_permanent_diff_classes_on_5x(converge, provider_line, tmp_path):
    """examples/permanent_diffs on provider 5.x (its own test runs it on 3.39), less
    what 5.x refuses to apply: a string ``maxReceiveCount`` (5.x waits for the
    queue's attributes to read back as sent, and times out after 3 minutes) and an
    on-demand table's capacities (refused at plan)."""
    text = (EXAMPLES / "permanent_diffs" / "main.tf").read_text()
    text = _without(text, "# The count is declared", '"aws_sqs_queue" "orders"')
    text = _without(text, "# An on-demand table", '"aws_dynamodb_table" "sessions"')
    (tmp_path / "main.tf").write_text(text)
    stack = converge(provider_line.pin(tmp_path))
    stack.apply().raise_for_error()
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    found = {d.address: d for d in failure.value.defects if d.kind == "permanent-diff"}
    classes = {a: (d.attribute, d.classification) for a, d in found.items()}
    assert classes == {"aws_security_group.ssh": ("ingress[0].cidr_blocks", "dedup")}
    # 5.x leaves an empty tag value alone (3.39 sends it and reads nothing back), and
    # converges on the prefix-list rule's description, which 3.39 reads back empty
    # (the catalogued gap of moto's DescribeSecurityGroups).
    assert "aws_s3_bucket.archive" not in found
    assert "aws_security_group_rule.office" not in found


def test_escape_hatch_fails_naming_the_trigger_and_both_values(converge):
    stack = converge(EXAMPLES / "escape_hatch")
    stack.apply().raise_for_error()
    old = stack.state()["values"]["root_module"]["resources"][0]["values"]["triggers_replace"]
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    text = str(failure.value)
    assert "terraform_data.deploy" in text
    assert "triggers_replace" in text
    assert old in text  # the observed value: the previous run's timestamp
    assert "(known after apply)" in text  # the declared value: a new timestamp every run


def test_endpoint_is_stable_across_runs(converge):
    stack = converge(EXAMPLES / "network")
    stack.apply().raise_for_error()
    endpoint = stack.proxy.endpoint
    queue_url = stack.outputs()["queue_url"]
    assert endpoint.split("//")[1] in queue_url  # the SQS id embeds the endpoint
    assert stack.plan().is_empty
    assert stack.proxy.endpoint == endpoint


def test_user_module_is_never_modified(converge, tmp_path):
    module = tmp_path / "mod"
    module.mkdir()
    (module / "main.tf").write_text('resource "terraform_data" "x" {\n  input = "a"\n}\n')
    before = sorted(p.name for p in module.iterdir())
    stack = converge(module)
    stack.apply().raise_for_error()
    stack.assert_converged()
    assert sorted(p.name for p in module.iterdir()) == before


def test_missing_module_dir(converge, tmp_path):
    with pytest.raises(ModuleError, match="does not exist"):
        converge(tmp_path / "nope")


def test_dir_without_tf_files(converge, tmp_path):
    (tmp_path / "README.md").write_text("no terraform here")
    with pytest.raises(ModuleError, match=r"no \.tf or \.tf\.json files"):
        converge(tmp_path)


def test_invalid_hcl_shows_terraforms_diagnostic(converge, tmp_path):
    (tmp_path / "main.tf").write_text('resource "terraform_data" "x" {\n  input = \n}\n')
    with pytest.raises(TerraformError) as failure:
        converge(tmp_path)
    assert "main.tf" in str(failure.value)
    assert failure.value.diagnostics


def test_apply_error_carries_the_provider_diagnostic(converge, tmp_path):
    (tmp_path / "main.tf").write_text(
        textwrap.dedent(
            """
            provider "aws" {
              region = "us-east-1"
            }
            resource "aws_dynamodb_table" "t" {
              name         = "t"
              billing_mode = "PAY_PER_REQUEST"
              hash_key     = "id"
              attribute {
                name = "id"
                type = "S"
              }
            }
            """
        )
    )
    stack = converge(tmp_path)
    result = stack.apply()
    assert not result.ok
    assert any(d.address == "aws_dynamodb_table.t" for d in result.error.diagnostics)
    assert "minimum field size of 3" in str(result.error)


def test_case_and_whitespace_diffs_are_classified_for_real(converge):
    """The two classes examples/permanent_diffs does not reach, on this stack for real."""
    stack = converge(Path(__file__).resolve().parents[1] / "modules" / "normalised_forms")
    stack.apply().raise_for_error()
    with pytest.raises(ConvergenceError) as failure:
        stack.assert_converged()
    found = {
        (d.address, d.attribute): d for d in failure.value.defects if d.kind == "permanent-diff"
    }
    # The provider lower-cases the declared window; moto answers it as it was sent.
    window = found[("aws_rds_cluster.db", "preferred_maintenance_window")]
    assert window.classification == "case"
    assert (window.declared, window.observed) == ("tue:00:00-tue:03:00", "Tue:00:00-Tue:03:00")
    assert '"Tue:00:00-Tue:03:00"' in window.fix
    for key in (("aws_iam_role.app", "description"), ("aws_vpc.main", "tags.Note")):
        assert found[key].classification == "whitespace", found[key]
        assert "\r" in found[key].declared and "\r" not in found[key].observed
