"""Zero-code upgrades and stages: ``--converge-upgrade-from=REF`` and ``--converge-stages``.

Each test builds a small git repository with two commits in a temp dir and
runs pytest on it in a subprocess, with real terraform and moto, as a fresh
clone in CI would.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

PROVIDER = 'provider "aws" {\n  region = "us-east-1"\n}\n'

QUEUE = """
resource "aws_sqs_queue" "{label}" {{
  name = "{name}"
{extra}}}
"""

TABLE = (
    PROVIDER
    + """
resource "aws_dynamodb_table" "orders" {
  name         = "orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
"""
)

HATCH = """
resource "terraform_data" "deploy" {
  triggers_replace = timestamp()
}
"""


def queue(label: str, name: str, extra: str = "") -> str:
    return PROVIDER + QUEUE.format(label=label, name=name, extra=extra)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)


@pytest.fixture
def repo(pytester: pytest.Pytester) -> Path:
    root = pytester.path
    git(root, "init", "-q")
    commit(
        root,
        {
            "mods/app/main.tf": queue("jobs", "upg-jobs"),
            "mods/tagged/main.tf": queue("events", "upg-events"),
            "mods/rekey/main.tf": TABLE,
        },
        "v1",
    )
    commit(
        root,
        {
            # renamed without a moved block
            "mods/app/main.tf": queue("work", "upg-jobs"),
            "mods/tagged/main.tf": queue(
                "events", "upg-events", '  tags = {\n    team = "a"\n  }\n'
            ),
            "mods/fresh/main.tf": queue("new", "upg-new"),
            # a new hash key replaces the table: accepted with --converge-allow-replace
            "mods/rekey/main.tf": TABLE.replace('"id"', '"order_id"'),
        },
        "v2",
    )
    return root


def test_upgrade_from_head_1_in_a_fresh_clone(pytester: pytest.Pytester, repo: Path):
    def checkout() -> tuple[str, ...]:
        tracked = git(repo, "status", "--porcelain", "--untracked-files=no")
        return tracked, git(repo, "worktree", "list"), git(repo, "rev-parse", "HEAD")

    before = checkout()
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-upgrade-from=HEAD~1",
        "--converge-faults=none",
        "--converge-allow-replace=aws_dynamodb_table.orders",
        "--converge-report=report.json",
        "--converge-html=page.html",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(passed=7, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ mods/app::upgrade-from@HEAD~1 _*",
            "*destructive-upgrade*aws_sqs_queue.work*",
            "moved {",
            "  from = aws_sqs_queue.jobs",
            "  to   = aws_sqs_queue.work",
            "}",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*convergence upgrades*",
            "mods/app::upgrade-from@HEAD~1  from HEAD~1 (*): failed (1 to create, 1 to delete)",
            "mods/fresh::upgrade-from@HEAD~1  from HEAD~1 (*): passed (new module*",
            "mods/rekey::upgrade-from@HEAD~1  from HEAD~1 (*): passed (1 to replace)",
            "mods/tagged::upgrade-from@HEAD~1  from HEAD~1 (*): passed (1 to update)",
        ]
    )
    # The reproduce line names the revision and the one item.
    result.stdout.fnmatch_lines(
        [
            "*reproduce*--converge-faults none *--converge-upgrade-from='HEAD~1' "
            '*"mods/app::upgrade-from@HEAD~1"*'
        ]
    )
    report = json.loads((repo / "report.json").read_text())
    [defect] = [d for d in report["defects"] if d["kind"] == "destructive-upgrade"]
    assert defect["scenario"] == "upgrade-from@HEAD~1"
    # The upgrade plan's actions are in the JSON and on the page, the destructive marked.
    [rekey] = [
        s
        for s in report["scenarios"]
        if s["module"] == "mods/rekey" and s["scenario"] == "upgrade-from@HEAD~1"
    ]
    assert rekey["actions"] == {"aws_dynamodb_table.orders": "replace"}
    assert rekey["upgrade_from"].startswith("HEAD~1")
    jsonschema = pytest.importorskip("jsonschema")
    from pytest_converge.report import load_schema

    jsonschema.validate(report, load_schema())
    page = (repo / "page.html").read_text()
    assert (
        "<tr class=destructive><td><code>aws_dynamodb_table.orders</code></td><td>replace</td>"
        in page
    )
    # The user's checkout is untouched: same files, same HEAD, no extra worktree.
    assert checkout() == before


def test_a_crash_in_the_upgrade_apply_is_a_scenario(pytester: pytest.Pytester, repo: Path):
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods/tagged",
        "--converge-upgrade-from=HEAD~1",
        "--converge-faults=crash",
        "-k",
        "upgrade",
        "-v",
        "-p",
        "no:cacheprovider",
    )
    # Fault points of the upgrade apply only: tagging, not the old revision's CreateQueue.
    result.stdout.fnmatch_lines(
        ["*mods/tagged::upgrade-crash@TagQueue#1@aws_sqs_queue.events PASSED*"]
    )
    assert "upgrade-crash@CreateQueue" not in result.stdout.str()
    result.assert_outcomes(passed=2, deselected=2)


def test_a_bad_revision_is_a_usage_error_naming_the_fix(pytester: pytest.Pytester, repo: Path):
    result = pytester.runpytest_subprocess(
        "--converge", "mods", "--converge-upgrade-from=origin/main", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--converge-upgrade-from origin/main: no such revision in*fetch*"]
    )


def test_stages_stop_before_the_later_stage(pytester: pytest.Pytester):
    pytester.makefile(".tf", **{"good/main": TABLE})
    pytester.makefile(".tf", **{"hatch/main": HATCH})
    result = pytester.runpytest_subprocess(
        "--converge",
        ".",
        "--converge-stages=dev,prod",
        "--converge-faults=none",
        "-k",
        "stages",
        "-p",
        "no:cacheprovider",
    )
    # Both stages create the table "orders": prod would collide with dev's unless
    # each stage has its own account.
    result.assert_outcomes(passed=1, failed=1, deselected=2)
    result.stdout.fnmatch_lines(
        [
            "*promotion stopped at stage 'dev' (not run: prod)*",
            "*convergence stages*",
            "good: dev converged -> prod converged",
            "hatch: dev failed -> prod not run  (stopped at dev)",
        ]
    )


def test_stage_values_are_checked(pytester: pytest.Pytester):
    pytester.makefile(".tf", **{"m/main": HATCH})
    result = pytester.runpytest_subprocess("--converge", ".", "--converge-stages=dev")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--converge-stages*two or more distinct stage names*dev,prod*"])


def test_the_stateful_types_hook_adds_and_removes_types(pytester: pytest.Pytester):
    pytester.makeconftest(
        """
        def pytest_converge_stateful_types(config, types):
            types.add("aws_ssm_parameter")
            types.discard("aws_sqs_queue")
        """
    )
    pytester.makepyfile(
        """
        from pytest_converge.plugin.session import get_session

        def test_types(request):
            types = get_session(request.config).stateful_types()
            assert "aws_ssm_parameter" in types and "aws_sqs_queue" not in types
            assert "aws_dynamodb_table" in types
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_option_values_parse():
    from pytest_converge.plugin.collect.options import allow_list, stage_names

    assert stage_names("dev, prod,eu-prod") == ("dev", "prod", "eu-prod")
    assert stage_names("") == ()
    for bad in ("dev", "dev,dev", "dev,pr od"):
        with pytest.raises(ValueError, match="two or more distinct stage names"):
            stage_names(bad)
    assert allow_list("aws_s3_bucket.a, module.x.*\naws_kms_key.k") == [
        "aws_s3_bucket.a",
        "module.x.*",
        "aws_kms_key.k",
    ]


def test_a_lost_answer_through_an_alias_in_the_upgrade_apply_is_a_duplicate_in_its_region(
    pytester: pytest.Pytester,
):
    """The zero-code upgrade item inventories the alias's region, as fault items do."""
    root = pytester.path
    git(root, "init", "-q")
    modules = Path(__file__).resolve().parent / "modules" / "upgrade"
    commit(root, {"mods/net/main.tf": (modules / "alias_v1" / "main.tf").read_text()}, "v1")
    commit(root, {"mods/net/main.tf": (modules / "alias_added" / "main.tf").read_text()}, "v2")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-upgrade-from=HEAD~1",
        "--converge-faults=lost-response",
        "--converge-report=report.json",
        "-k",
        "upgrade-lost-response and CreateVpc",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(failed=1, deselected=result.parseoutcomes()["deselected"])
    result.stdout.fnmatch_lines(
        ["*_ mods/net::upgrade-lost-response@CreateVpc#1@aws_vpc.dr *_", "*duplicate*aws_vpc.dr*"]
    )
    report = json.loads((root / "report.json").read_text())
    [dup] = [d for d in report["defects"] if d["kind"] == "duplicate"]
    assert dup["address"] == "aws_vpc.dr"
    assert dup["scenario"] == "upgrade-lost-response@CreateVpc#1@aws_vpc.dr"
    assert " in us-west-2 duplicates aws_vpc.dr" in dup["message"]
