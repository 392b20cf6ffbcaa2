"""A public module's real breaking release, caught as a destructive upgrade.

terraform-aws-modules/terraform-aws-dynamodb-table v1.2.0 moved an autoscaled
table from ``aws_dynamodb_table.this`` to ``aws_dynamodb_table.autoscaled``
without a ``moved`` block (its changelog: "may cause unexpected changes").
Upgrading from v1.1.1 deletes the table and creates an empty one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: These tests inspect the defects they expect instead of raising them.
pytestmark = pytest.mark.converge(allow_defects=True)

PUBLIC = Path(__file__).resolve().parents[1] / "modules" / "public" / "dynamodb-table"
OLD = "module.dynamodb_table.aws_dynamodb_table.this[0]"
NEW = "module.dynamodb_table.aws_dynamodb_table.autoscaled[0]"


def test_dynamodb_table_v1_2_0_replaces_an_autoscaled_table(converge):
    stack = converge(PUBLIC / "v1.2.0" / "root")
    # The upgrade apply never finishes: the new table's CreateTable is retried while
    # the old table of the same name waits for the autoscaling target that now
    # points at the new one (until the apply timeout). The plan is what this test
    # checks; a short timeout keeps it from costing the suite ten minutes.
    stack.workspace.runner.timeouts["apply"] = 60
    report = stack.upgrade_from(PUBLIC / "v1.1.1" / "root")
    assert (report.action(OLD), report.action(NEW)) == ("delete", "create")
    [hint] = report.moved
    assert (hint.old, hint.new) == (OLD, NEW)
    [found] = [d for d in report.errors if d.kind == "destructive-upgrade"]
    assert f"moved {{\n  from = {OLD}\n  to   = {NEW}\n}}" in found.fix
    # Inside the module, the block its authors could have shipped:
    assert (
        "from = aws_dynamodb_table.this[0]\n  to   = aws_dynamodb_table.autoscaled[0]" in found.fix
    )


def test_the_suggested_moved_block_makes_the_upgrade_clean(converge):
    report = converge(PUBLIC / "v1.2.0" / "root_moved").upgrade_from(PUBLIC / "v1.1.1" / "root")
    assert report.action(NEW) == "move"
    assert report.errors == [], report.defects
