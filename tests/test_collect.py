"""Zero-code mode (``pytest --converge PATH``): collection, selection, options, outcomes.

Real terraform and moto run in these tests, on small modules: one with an SQS
queue and a VPC (two mutating calls: its fault points), and ``terraform_data``
ones that need no AWS at all.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

pytest_plugins = ["pytester"]

AWS_MODULE = """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 3.39, < 6.0" }
  }
}

provider "aws" {
  region = "us-east-1"
}

module "tags" {
  source = "../shared/tags"
}

resource "aws_sqs_queue" "jobs" {
  name = "collect-jobs"
}

resource "aws_vpc" "main" {
  cidr_block = "10.30.0.0/16"
}
"""

CHILD_MODULE = """
resource "terraform_data" "tags" {
  input = { team = "converge" }
}
"""

HATCH_MODULE = """
resource "terraform_data" "deploy" {
  triggers_replace = timestamp()
}
"""

CALM_MODULE = """
variable "name" {
  type = string
}

variable "size" {
  type    = number
  default = 1
  validation {
    condition     = var.size > 0
    error_message = "size must be positive"
  }
}

resource "terraform_data" "calm" {
  input = "${var.name}-${var.size}"
}
"""


@pytest.fixture
def modules(pytester: pytest.Pytester) -> pytest.Pytester:
    """A tree under ``mods/``: two roots, a child module, an example and hidden dir to skip."""
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    files = {
        "mods/small/main.tf": AWS_MODULE,
        "mods/shared/tags/main.tf": CHILD_MODULE,
        "mods/small/examples/basic/main.tf": 'module "small" {\n  source = "../.."\n}\n',
        "mods/.hidden/main.tf": CHILD_MODULE,
        "mods/hatch/main.tf": HATCH_MODULE,
        # The repository's own tests must not run in zero-code mode.
        "tests/test_own.py": "def test_own():\n    pass\n",
        "mods/hatch/test_beside.py": "def test_beside():\n    pass\n",
    }
    for name, text in files.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return pytester


def collected(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line and " " not in line.strip()]


def test_collect_only_lists_root_modules_and_their_fault_points(modules: pytest.Pytester) -> None:
    result = modules.runpytest("--converge", "mods", "--collect-only", "-q")
    assert result.ret == 0, result.stdout.str()
    assert collected(result) == [
        "mods/hatch::two-run",
        "mods/small::two-run",
        "mods/small::lost-response@CreateQueue#1@aws_sqs_queue.jobs",
        "mods/small::lost-response@CreateVpc#1@aws_vpc.main",
        "mods/small::crash@CreateQueue#1@aws_sqs_queue.jobs",
        "mods/small::crash@CreateVpc#1@aws_vpc.main",
    ]
    # Child module, the module's examples/, hidden dirs and python tests: none collected.
    assert "tests/test_own.py" not in result.stdout.str()
    assert "test_beside" not in result.stdout.str()

    picked = modules.runpytest(
        "--converge", "mods", "--collect-only", "-q", "-k", "small and crash"
    )
    assert collected(picked) == [
        "mods/small::crash@CreateQueue#1@aws_sqs_queue.jobs",
        "mods/small::crash@CreateVpc#1@aws_vpc.main",
    ]


def test_ignore_options_leave_root_modules_out(modules: pytest.Pytester) -> None:
    """pytest's own --ignore and --ignore-glob reach the modules under a --converge PATH."""
    args = ["--converge", "mods", "--converge-faults=none", "--collect-only", "-q"]
    ignored = modules.runpytest(*args, "--ignore=mods/small")
    assert collected(ignored) == ["mods/hatch::two-run"]
    globbed = modules.runpytest(*args, "--ignore-glob=*/hat*")
    assert collected(globbed) == ["mods/small::two-run"]


def test_converge_faults_none_all_and_invalid(modules: pytest.Pytester) -> None:
    none = modules.runpytest("--converge", "mods", "--converge-faults=none", "--collect-only", "-q")
    assert collected(none) == ["mods/hatch::two-run", "mods/small::two-run"]

    every = modules.runpytest("--converge", "mods/small", "--converge-faults=all", "--collect-only")
    names = [re.sub(r"[<>]|ConvergeItem ", "", n).strip() for n in every.outlines if "Item" in n]
    kinds = {n.split("@")[0] for n in names if "@" in n}
    assert kinds == {"error", "lost-response", "throttle", "crash", "interrupt"}
    assert len(names) == 1 + 5 * 2

    bad = modules.runpytest("--converge", "mods", "--converge-faults=crash,explode")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--converge-faults*explode*error, lost-response, throttle*"])


def test_paths_without_modules_are_usage_errors(modules: pytest.Pytester) -> None:
    (modules.path / "empty" / "sub").mkdir(parents=True)
    nothing = modules.runpytest("--converge", "empty")
    assert nothing.ret == pytest.ExitCode.USAGE_ERROR
    nothing.stderr.fnmatch_lines(["*--converge*empty: no Terraform root module found*"])

    missing = modules.runpytest("--converge", "no/such/dir")
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--converge*no/such/dir: no such directory*"])


def test_required_variables_are_named_then_read_from_converge_tfvars(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "calm").mkdir()
    (pytester.path / "calm" / "main.tf").write_text(CALM_MODULE)
    needs = pytester.runpytest("--converge", "calm", "--converge-faults=none")
    assert needs.ret == pytest.ExitCode.INTERRUPTED
    needs.stdout.fnmatch_lines(["*calm needs values for variable(s) name:*converge.tfvars*"])
    assert "size" not in needs.stdout.str().split("needs values")[1].split(":")[0]

    (pytester.path / "calm" / "converge.tfvars").write_text('name = "x" # for the test\n')
    ran = pytester.runpytest("--converge", "calm", "--converge-faults=none", "-v")
    ran.stdout.fnmatch_lines(["calm::two-run PASSED*"])
    assert ran.ret == 0


def test_items_run_report_defects_and_select_by_nodeid(modules: pytest.Pytester) -> None:
    (modules.path / "mods" / "calm").mkdir()
    calm = CALM_MODULE.replace("type = string", 'default = "a"')
    (modules.path / "mods" / "calm" / "main.tf").write_text(calm)
    args = ["--converge", "mods", "--converge-faults=none", "-v", "--junitxml=junit.xml"]
    first = modules.runpytest(*args, "-k", "hatch or calm")
    first.assert_outcomes(passed=1, failed=1, deselected=1)
    out = first.stdout.str()
    first.stdout.fnmatch_lines(
        [
            "mods/calm::two-run PASSED*",
            "mods/hatch::two-run FAILED*",
            "*hatch does not converge*",
            "*escape-hatch*terraform_data.deploy*triggers_replace*",
            '*reproduce*pytest --converge mods --converge-faults none "mods/hatch::two-run"*',
        ]
    )
    assert "Traceback" not in out and "def runtest" not in out

    props = {
        p.get("name"): p.get("value")
        for case in ET.parse(modules.path / "junit.xml").iter("testcase")
        if case.get("name") == "two-run" and "hatch" in case.get("classname", "")
        for p in case.iter("property")
    }
    assert props["converge.kind"] == "escape-hatch"
    assert props["converge.module"] == "mods/hatch"
    props = {k: json.loads(v) for k, v in props.items() if k.startswith("converge_")}
    assert [d["kind"] for d in props["converge_defects"]] == ["escape-hatch"]
    assert props["converge_scenario"]["scenario"] == "two-run"
    assert props["converge_scenario"]["outcome"] == "failed"
    assert props["converge_scenario"]["path"] == "mods/hatch"

    # --lf: the nodeids are stable, so only the failed scenario runs again.
    again = modules.runpytest("--converge", "mods", "--converge-faults=none", "--lf", "-v")
    again.stdout.fnmatch_lines(["mods/hatch::two-run FAILED*"])
    again.assert_outcomes(failed=1, deselected=2)

    # The reproduce line works: a ``dir::scenario`` argument runs just that scenario
    # (and only that module is collected).
    one = modules.runpytest("--converge", "mods", "--converge-faults=none", "mods/calm::two-run")
    one.assert_outcomes(passed=1)
    assert "hatch" not in one.stdout.str()


def test_fault_item_reports_the_duplicate(modules: pytest.Pytester) -> None:
    result = modules.runpytest(
        "--converge", "mods/small", "--converge-faults=crash", "-k", "CreateVpc", "-v"
    )
    result.assert_outcomes(failed=1, deselected=2)
    result.stdout.fnmatch_lines(
        [
            "mods/small::crash@CreateVpc#1@aws_vpc.main FAILED*",
            "*_ mods/small::crash@CreateVpc#1@aws_vpc.main *_",
            "*duplicate*aws_vpc.main*",
        ]
    )


def test_xdist_spreads_modules_and_merges_defects(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    for name in ("hatch_a", "hatch_b"):
        (pytester.path / "mods" / name).mkdir(parents=True)
        (pytester.path / "mods" / name / "main.tf").write_text(HATCH_MODULE)
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "-n",
        "2",
        "-p",
        "no:cacheprovider",
        "--converge-report",
        "report.json",
    )
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    # The controller writes one JSON report holding both workers' results.
    report = json.loads((pytester.path / "report.json").read_text())
    assert sorted(d["module"] for d in report["defects"]) == ["mods/hatch_a", "mods/hatch_b"]
    assert len(report["scenarios"]) == 2
    summary = out.split("convergence defects")[1].split("short test summary")[0]
    # Merged from both workers, each module's defect listed once (reproduce lines aside).
    listed = [line for line in summary.splitlines() if "pytest --converge" not in line]
    for module in ("hatch_a", "hatch_b"):
        assert sum(module in line for line in listed) == 1, summary
    # Each worker (own emulator, own ports) ran one scenario.
    assert "[gw0] linux" in out and "[gw1] linux" in out


def test_ini_converge_paths_add_modules_to_the_projects_tests(modules: pytest.Pytester) -> None:
    modules.makeini("[pytest]\ntestpaths = tests\nconverge_paths = mods\n")
    result = modules.runpytest("--converge-faults=none", "--collect-only", "-q")
    assert collected(result) == [
        "tests/test_own.py::test_own",
        "mods/hatch::two-run",
        "mods/small::two-run",
    ]
