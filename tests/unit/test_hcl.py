"""The one HCL reader (python-hcl2's parser): blocks, lines, literals, JSON syntax."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_converge.analysis.source import attribute_expression, find_resource
from pytest_converge.terraform.hcl import (
    NOT_LITERAL,
    HclError,
    blocks_of,
    declared_regions,
    module_blocks,
    module_tree,
    parse_text,
    provider_regions,
)
from pytest_converge.terraform.tfvars import (
    assigned_variables,
    declared_variables,
    missing_variables,
)
from pytest_converge.terraform.workspace import aws_provider_configs, local_calls, uses_aws

TRICKY = """\
# a comment with a brace {
// another } one
/* a block comment
provider "aws" { region = "ap-south-1" }
*/
provider "aws" {
  region = "eu-west-1" # trailing { comment
}

provider "aws" {
  alias  = "west"
  region = var.second_region
}

variable "second_region" {
  default = "us-west-2"
}

variable "required" {}

resource "aws_security_group" "web" {
  name        = "web-${var.required}"
  description = <<-EOT
    braces { in } a heredoc, and "quotes"
    provider "aws" { region = "sa-east-1" }
  EOT
  dynamic "ingress" {
    for_each = [80, 443]
    content {
      from_port = ingress.value
      to_port   = ingress.value
    }
  }
  tags = {
    Name    = "web"
    "x.y"   = "dotted"
    literal = "$${not_a_template}"
  }
}
"""


def test_blocks_lines_and_literals_through_comments_heredocs_and_dynamic_blocks() -> None:
    blocks = parse_text(TRICKY)
    providers = blocks_of(blocks, "provider", "aws")
    # The commented-out provider and the one inside the heredoc are not blocks.
    assert [(p.line, p.value("region"), p.value("alias", None)) for p in providers] == [
        (6, "eu-west-1", None),
        (10, NOT_LITERAL, "west"),
    ]
    assert providers[1].attributes["region"].expression == "var.second_region"
    [sg] = blocks_of(blocks, "resource", "aws_security_group", "web")
    assert (sg.line, sg.end_line) == (21, 39)
    assert sg.value("name") is NOT_LITERAL  # a template
    assert sg.attributes["description"].expression.startswith("<<-EOT")
    [dynamic] = sg.children("dynamic")
    assert dynamic.labels == ("ingress",)
    assert dynamic.children("content")[0].attributes["from_port"].expression == "ingress.value"
    tags = sg.attributes["tags"]
    assert tags.value == {"Name": "web", "x.y": "dotted", "literal": "${not_a_template}"}
    assert tags.entries["x.y"].expression == '"dotted"'
    assert [v.labels for v in blocks_of(blocks, "variable")] == [("second_region",), ("required",)]


def test_a_file_that_does_not_parse_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "main.tf"
    bad.write_text('resource "aws_vpc" "a" {\n  cidr_block = \n}\n')
    with pytest.raises(HclError, match=r"main\.tf:\d+: not valid HCL"):
        parse_text(bad.read_text(), bad)
    (tmp_path / "ok.tf").write_text('variable "x" {}\n')
    # Discovery skips what does not parse (terraform names that error itself).
    assert [b.labels for b in module_blocks(tmp_path)] == [("x",)]
    with pytest.raises(HclError):
        module_blocks(tmp_path, strict=True)
    # Asked for variables only, a file that never says "variable" is not even parsed.
    assert [b.labels for b in module_blocks(tmp_path, "variable", strict=True)] == [("x",)]


def test_json_syntax_files_give_the_same_blocks(tmp_path: Path) -> None:
    (tmp_path / "main.tf.json").write_text(
        json.dumps(
            {
                "//": "a JSON-syntax comment",
                "provider": {
                    "aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "us-west-2"}]
                },
                "variable": {"name": {"default": "x"}, "size": {}},
                "module": {"net": {"source": "./net"}},
                "resource": {"aws_vpc": {"main": {"cidr_block": "10.0.0.0/16"}}},
                "output": {"id": {"value": "${aws_vpc.main.id}"}},
            },
            indent=2,
        )
    )
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "main.tf").write_text('provider "aws" {\n  region = "ap-south-1"\n}\n')
    assert provider_regions(tmp_path) == {"aws": "eu-west-1", "aws.west": "us-west-2"}
    assert declared_regions(tmp_path) == {"eu-west-1", "us-west-2", "ap-south-1"}
    assert declared_variables(tmp_path) == {"name": True, "size": False}
    assert local_calls(tmp_path) == {tmp_path / "net"}
    assert module_tree(tmp_path) == [tmp_path, tmp_path / "net"]
    assert uses_aws(tmp_path)
    [vpc] = blocks_of(module_blocks(tmp_path), "resource", "aws_vpc")
    assert vpc.value("cidr_block") == "10.0.0.0/16"
    [out] = blocks_of(module_blocks(tmp_path), "output")
    assert out.value("value") is NOT_LITERAL
    assert find_resource(tmp_path, "aws_vpc.main").file.name == "main.tf.json"


def test_provider_regions_follow_variable_defaults_and_nested_modules(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        TRICKY + 'module "replica" {\n  source = "./modules/replica"\n}\n'
    )
    child = tmp_path / "modules" / "replica"
    child.mkdir(parents=True)
    # A legacy child module with its own provider block (and a comment in the way).
    (child / "main.tf").write_text(
        'provider "aws" {\n  /* the DR copy */ region = "ca-central-1"\n}\n'
        'resource "aws_s3_bucket" "copy" {\n  bucket = "copy"\n}\n'
    )
    assert provider_regions(tmp_path) == {"aws": "eu-west-1", "aws.west": "us-west-2"}
    assert declared_regions(tmp_path) == {"eu-west-1", "us-west-2", "ca-central-1"}
    configs = aws_provider_configs(tmp_path)
    assert [(c.alias, c.has_region) for c in configs] == [(None, True), ("west", True)]
    assert find_resource(tmp_path, "module.replica.aws_s3_bucket.copy").line == 4
    assert attribute_expression(tmp_path, "aws_security_group.web", "tags.Name") == '"web"'
    assert attribute_expression(tmp_path, "aws_security_group.web", 'tags["x.y"]') == '"dotted"'
    assert missing_variables(tmp_path) == ["required"]


def test_tfvars_assignments_with_heredocs_maps_and_comments(tmp_path: Path) -> None:
    tfvars = tmp_path / "converge.tfvars"
    tfvars.write_text(
        '# comment\nname = "x" // trailing\npolicy = <<EOT\nnot_a_var = 1\nEOT\n'
        'tags = {\n  inner = "no"\n}\n/* hidden = 1 */\n'
    )
    assert assigned_variables(tfvars) == {"name", "policy", "tags"}
    as_json = tmp_path / "converge.tfvars.json"
    as_json.write_text('{"name": "x", "size": 2}')
    assert assigned_variables(as_json) == {"name", "size"}


# --- the parse cache on disk ---------------------------------------------------

CACHED = """\
variable "name" {
  type = string
}

resource "aws_sqs_queue" "jobs" {
  name       = var.name
  fifo_queue = false
  dynamic "tag" {
    for_each = {}
    content {}
  }
}
"""


@pytest.fixture
def parse_cache(tmp_path, monkeypatch):
    """A fresh cache (as a new process has) in a directory of its own."""
    from pytest_converge.terraform import hcl

    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(hcl, "_PARSES", hcl._ParseCache())
    return tmp_path / "cache" / "hcl"


def _no_parser(monkeypatch):
    from pytest_converge.terraform import hcl

    def refuse():
        raise AssertionError("parsed again: the cache was not used")

    monkeypatch.setattr(hcl, "_parser", refuse)
    monkeypatch.setattr(hcl, "_PARSES", hcl._ParseCache())  # another process


def test_a_second_process_reads_the_parse_from_the_cache_under_its_own_path(
    parse_cache, monkeypatch, tmp_path
):
    first = parse_text(CACHED, tmp_path / "a" / "main.tf")
    assert len(list(parse_cache.glob("*.pickle"))) == 1
    _no_parser(monkeypatch)
    again = parse_text(CACHED, tmp_path / "b" / "main.tf")  # a copy of the module elsewhere
    assert [(b.type, b.labels, b.line, b.end_line) for b in again] == [
        (b.type, b.labels, b.line, b.end_line) for b in first
    ]
    queue = again[1]
    assert queue.file == tmp_path / "b" / "main.tf"
    assert all(b.file == queue.file for b in queue.blocks)
    assert queue.value("fifo_queue") is False
    assert queue.value("name") is NOT_LITERAL  # the one sentinel, not a copy of it


def test_a_broken_entry_is_parsed_again_and_a_bad_file_is_never_cached(parse_cache, tmp_path):
    parse_text(CACHED, tmp_path / "main.tf")
    (entry,) = parse_cache.glob("*.pickle")
    entry.write_bytes(b"\x80\x05truncated")
    assert [b.type for b in parse_text(CACHED, tmp_path / "main.tf")] == ["variable", "resource"]
    for _ in range(2):
        with pytest.raises(HclError, match=r"broken\.tf:1"):
            parse_text('resource "x" {\n', tmp_path / "broken.tf")
    assert len(list(parse_cache.glob("*.pickle"))) == 1


def test_an_unwritable_cache_only_costs_the_parse(tmp_path, monkeypatch):
    from pytest_converge.terraform import hcl

    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("CONVERGE_CACHE_DIR", str(blocker))
    monkeypatch.setattr(hcl, "_PARSES", hcl._ParseCache())
    assert [b.type for b in parse_text(CACHED, tmp_path / "main.tf")] == ["variable", "resource"]


def test_a_full_cache_loses_its_oldest_half(parse_cache, monkeypatch, tmp_path):
    from pytest_converge.terraform import hcl

    monkeypatch.setattr(hcl._ParseCache, "LIMIT", 4)
    for n in range(5):
        parse_text(f'variable "v{n}" {{}}\n', tmp_path / "main.tf")
    assert len(list(parse_cache.glob("*.pickle"))) == 3
