"""The HTML page of a run, from plain JSON report data (no terraform, no browser)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.report import json_report, merge_reports
from pytest_converge.report.__main__ import main as report_main
from pytest_converge.report.html import cell_outcome, html_report, parse_scenario


class Page(HTMLParser):
    """The elements of a page that carry ``data-scenario``, and every remote reference."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.scenarios: list[dict[str, str | None]] = []
        self.tags: list[str] = []
        self.references: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append(tag)
        if "data-scenario" in found and "sq" in (found.get("class") or "").split():
            self.scenarios.append(found)
        for name in ("src", "href", "action", "data", "srcset"):
            if found.get(name):
                self.references.append(f"{tag} {name}={found[name]}")

    def cells(self) -> dict[tuple[str | None, str | None], str | None]:
        return {(s["data-module"], s["data-scenario"]): s["data-outcome"] for s in self.scenarios}


def defect(kind: str, scenario: str, **extra: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "module": "mods/net",
        "scenario": scenario,
        "address": extra.pop("address", "aws_vpc.main"),
        "attribute": None,
        "declared": None,
        "observed": None,
        "message": f"a {kind}",
        "fix": "do this",
        "why": "because",
        "reproduce": f'pytest --converge mods "mods/net::{scenario}"',
        "objects": ["vpc-1234"],
        "classification": None,
        "severity": extra.pop("severity", "error"),
        "emulator_suspected": extra.pop("emulator_suspected", False),
        "evidence": "",
        **extra,
    }


SCENARIOS = [
    {"module": "mods/net", "scenario": "two-run", "outcome": "passed", "seconds": 1.0},
    {
        "module": "mods/net",
        "scenario": "crash@CreateSubnet#1@aws_subnet.a",
        "outcome": "failed",
        "seconds": 2.0,
        "fault_address": "aws_subnet.a",
    },
    {
        "module": "mods/net",
        "scenario": "crash@CreateVpc#1@aws_vpc.main",
        "outcome": "failed",
        "seconds": 2.0,
        "fault_address": "aws_vpc.main",
    },
    {
        "module": "mods/net",
        "scenario": "lost-response@CreateVpc#1@aws_vpc.main",
        "outcome": "flaky",
        "seconds": 2.0,
    },
    {
        "module": "mods/net",
        "scenario": "lost-response@CreateTags#2@aws_vpc.main",
        "outcome": "passed",
        "seconds": 2.0,
    },
    {"module": "mods/net", "scenario": "error@CreateVpc#1", "outcome": "error", "seconds": 0.1},
]
DEFECTS = [
    defect("duplicate", "crash@CreateVpc#1@aws_vpc.main"),
    defect("recovery-failed", "crash@CreateSubnet#1@aws_subnet.a", address="aws_subnet.a"),
    defect("orphan", "crash@CreateSubnet#1@aws_subnet.a", address=None),
    defect(
        "permanent-diff",
        "two-run",
        attribute="tags.Name",
        declared="Web",
        observed="web",
        classification="case",
        severity="warning",
        emulator_suspected=True,
        evidence="moto lower-cases it",
    ),
]


def report() -> dict[str, Any]:
    return merge_reports(
        [{"version": 1, "modules": ["mods/net"], "scenarios": SCENARIOS, "defects": DEFECTS}]
    )


@pytest.mark.parametrize(
    ("label", "parsed"),
    [
        ("crash@CreateVpc#1@aws_vpc.main", ("crash", "CreateVpc#1", "aws_vpc.main")),
        ("lost-response@CreateVpc#2", ("lost-response", "CreateVpc#2", None)),
        ("drift-delete@aws_sqs_queue.q", ("drift-delete", "", "aws_sqs_queue.q")),
        (
            "crash@CreateVpc#1@module.net.aws_vpc.this[0]",
            ("crash", "CreateVpc#1", "module.net.aws_vpc.this[0]"),
        ),
        ("two-run", ("two-run", "", None)),
    ],
)
def test_scenario_labels_split_into_kind_operation_and_resource(
    label: str, parsed: tuple[str, str, str | None]
) -> None:
    assert parse_scenario(label) == parsed


def test_a_failed_cell_takes_its_worst_error_defect_kind() -> None:
    failed = {"outcome": "failed"}
    assert cell_outcome(failed, [{"kind": "orphan"}, {"kind": "duplicate"}]) == "duplicate"
    assert cell_outcome(failed, [{"kind": "orphan"}, {"kind": "recovery-failed"}]) == (
        "recovery-failed"
    )
    assert cell_outcome(failed, [{"kind": "wrong-fixed-point"}]) == "wrong-fixed-point"
    assert cell_outcome(failed, [{"kind": "stalled"}]) == "failed"
    # A warning never names the cell.
    assert cell_outcome(failed, [{"kind": "orphan", "severity": "warning"}]) == "failed"
    assert cell_outcome({"outcome": "passed"}, [{"kind": "orphan"}]) == "passed"
    assert cell_outcome({"outcome": "flaky"}, []) == "flaky"
    assert cell_outcome({"outcome": "skipped"}, []) == "skipped"
    assert cell_outcome({"outcome": "interrupted"}, []) == "interrupted"
    assert cell_outcome({"outcome": "something new"}, []) == "error"


def test_every_scenario_is_one_cell_with_its_id_and_outcome() -> None:
    page = Page(html_report(report()))
    assert page.cells() == {
        ("mods/net", "two-run"): "passed",
        # recovery-failed and orphan: the re-run's failure names the cell.
        ("mods/net", "crash@CreateSubnet#1@aws_subnet.a"): "recovery-failed",
        ("mods/net", "crash@CreateVpc#1@aws_vpc.main"): "duplicate",
        ("mods/net", "lost-response@CreateVpc#1@aws_vpc.main"): "flaky",
        ("mods/net", "lost-response@CreateTags#2@aws_vpc.main"): "passed",
        ("mods/net", "error@CreateVpc#1"): "error",
    }
    assert len(page.scenarios) == len(SCENARIOS)


def test_rows_are_resources_in_plan_order_and_columns_fault_kinds() -> None:
    data = report()
    for n in (10, 2):
        data["scenarios"].append(
            {
                "module": "mods/net",
                "scenario": f"crash@CreateRoute#1@aws_route.r[{n}]",
                "outcome": "passed",
                "seconds": 1.0,
            }
        )
    text = html_report(data)
    matrix = text.split("<table class='matrix'>", 1)[1].split("</table>", 1)[0]
    rows = [r.split("</code>")[0] for r in matrix.split("<tr><td><code>")[1:]]
    # By address as terraform's plan lists them (r[2] before r[10]); the unpinned
    # error@CreateVpc#1 whose resource is not known has a row of its own, last.
    assert rows == [
        "aws_route.r[2]",
        "aws_route.r[10]",
        "aws_subnet.a",
        "aws_vpc.main",
        "(resource not known)",
    ]
    # Columns in the fault kinds' own order (error, lost-response, ..., crash).
    heads = re.findall(r"<th>([a-z-]+)</th>", matrix)
    assert heads == ["resource", "error", "lost-response", "crash"]
    # Two lost-response scenarios of aws_vpc.main: each square's title names its point,
    # and the squares carry letters only, so a cell of many points wraps.
    assert "title='lost-response@CreateVpc#1@aws_vpc.main: flaky'>~</span>" in matrix
    assert "title='lost-response@CreateTags#2@aws_vpc.main: passed'></span>" in matrix


def test_each_scenario_has_a_card_with_what_why_fix_reproduce_and_objects() -> None:
    text = html_report(report())
    card = text.split("data-scenario='crash@CreateVpc#1@aws_vpc.main'>", 1)[1].split("</div>", 1)[0]
    for part in ("a duplicate", "because", "do this", "vpc-1234", "<dt>reproduce</dt>"):
        assert part in card
    assert "pytest --converge mods &quot;mods/net::crash@CreateVpc#1@aws_vpc.main&quot;" in card


def test_summary_keeps_emulator_suspected_findings_apart_and_diffs_side_by_side() -> None:
    text = html_report(report())
    summary = text.split("<section class='module'", 1)[1].split("<h3>", 1)[0]
    assert "1 module, 6 scenarios: " in text
    # One count, worded as the terminal summary words it.
    assert (
        "<div class='count' data-defects='4'>4 defects from 4 findings in 3 scenarios: "
        "3 errors, 1 warning (1 suspected emulator gap)</div>"
    ) in text
    assert "<span class='badge failed'>failed</span>" in summary
    assert "3 of 6 scenarios failed" in summary  # duplicate, recovery-failed and the error
    assert "defects by kind: duplicate 1, orphan 1, recovery-failed 1" in summary
    assert "suspected emulator gaps (not the module's fault): permanent-diff 1" in summary
    diffs = text.split("<table class='diffs'>", 1)[1].split("</table>", 1)[0]
    assert "aws_vpc.main.tags.Name" in diffs
    assert "<td><pre>Web</pre></td><td><pre>web</pre></td><td>case</td>" in diffs


def test_a_loop_is_a_timeline_per_drifted_and_flapping_field() -> None:
    data = report()
    data["loops"] = [
        {
            "module": "mods/net",
            "test": "test_loop.py::test_it",
            "cycles": [
                {
                    "number": n,
                    "seconds": 1,
                    "reads": 1,
                    "writes": 0,
                    "changed": [],
                    "converged": n != 2,
                    "paused": n == 3,
                }
                for n in (1, 2, 3, 4)
            ],
            "drift": [
                {
                    "address": "aws_sqs_queue.q",
                    "attribute": "delay_seconds",
                    "by": "oncall",
                    "detected_cycle": 2,
                    "reverted_cycle": 4,
                }
            ],
            "flapping": [
                {
                    "address": "aws_sqs_queue.q",
                    "attribute": "tags.Owner",
                    "values": ["a", "b"],
                    "writers": ["terraform", "autoscaler"],
                    "cycles": [2, 3],
                }
            ],
            "defects": ["flapping"],
        }
    ]
    text = html_report(data)
    svg = text.split("<h3>loop test_loop.py::test_it: 4 cycles</h3>", 1)[1].split("</svg>")[0]
    assert "aws_sqs_queue.q.delay_seconds" in svg and "aws_sqs_queue.q.tags.Owner" in svg
    assert "cycle 2: drifted (oncall)" in svg and "cycle 4: reverted by terraform" in svg
    assert "cycle 3: flapping: &quot;a&quot;, &quot;b&quot; by terraform, autoscaler" in svg
    assert svg.count("paused: plans only") == 1


def test_an_upgrade_marks_its_destructive_actions() -> None:
    data = report()
    data["scenarios"].append(
        {
            "module": "mods/net",
            "scenario": "upgrade-from@v1",
            "outcome": "failed",
            "seconds": 3,
            "upgrade_from": "git:v1",
            "actions": {"aws_db_instance.db": "replace", "aws_sqs_queue.q": "update"},
        }
    )
    # The JSON report keeps an upgrade's plan actions.
    data = merge_reports([data])
    assert data["scenarios"][-1]["actions"]["aws_db_instance.db"] == "replace"
    data["defects"].append(
        defect("destructive-upgrade", "upgrade-from@v1", address="aws_db_instance.db")
    )
    text = html_report(data)
    upgrades = text.split("<h3>upgrades</h3>", 1)[1]
    assert "<li class='destructive'>aws_db_instance.db: a destructive-upgrade</li>" in upgrades
    assert "<code>upgrade-from@v1</code> from git:v1" in upgrades
    assert (
        "<tr class=destructive><td><code>aws_db_instance.db</code></td><td>replace</td></tr>"
        in upgrades
    )
    assert "<tr><td><code>aws_sqs_queue.q</code></td><td>update</td></tr>" in upgrades


def test_the_page_fetches_nothing_and_escapes_what_it_shows() -> None:
    data = report()
    data["defects"][0]["message"] = "<script>alert(1)</script> http://example.com/x.png"
    text = html_report(data)
    page = Page(text)
    assert page.references == []
    assert "<link" not in text and "url(" not in text and "@import" not in text
    assert "<script>alert(1)" not in text
    assert page.tags.count("script") == 1  # the page's own


def test_a_few_hundred_scenarios_stay_under_3_mb() -> None:
    scenarios, defects = [], []
    for m in range(10):
        for r in range(20):
            for kind in ("crash", "lost-response"):
                label = f"{kind}@CreateThing#1@aws_thing.r{r}"
                scenarios.append(
                    {
                        "module": f"mods/m{m}",
                        "scenario": label,
                        "outcome": "failed",
                        "seconds": 12.5,
                        "fault_address": f"aws_thing.r{r}",
                    }
                )
                for k in ("duplicate", "orphan"):
                    defects.append(
                        {
                            **defect(k, label, address=f"aws_thing.r{r}"),
                            "module": f"mods/m{m}",
                            "message": "x" * 600,
                            "why": "y" * 400,
                            "fix": "z" * 400,
                        }
                    )
    data = json_report([f"mods/m{m}" for m in range(10)], scenarios, [])
    data["defects"] = defects
    text = html_report(data)
    assert len(Page(text).scenarios) == 400
    assert len(text.encode()) < 3_000_000, len(text.encode())


def test_merge_writes_the_page_of_all_shards(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(
        json.dumps(
            merge_reports(
                [
                    {
                        "version": 1,
                        "modules": ["mods/net"],
                        "scenarios": SCENARIOS[:3],
                        "defects": DEFECTS,
                    }
                ]
            )
        )
    )
    b.write_text(
        json.dumps(
            merge_reports(
                [{"version": 1, "modules": ["mods/net"], "scenarios": SCENARIOS[3:], "defects": []}]
            )
        )
    )
    page = tmp_path / "out" / "all.html"
    assert (
        report_main(
            ["merge", str(a), str(b), "-o", str(tmp_path / "all.json"), "--html", str(page)]
        )
        == 0
    )
    assert len(Page(page.read_text()).scenarios) == len(SCENARIOS)


def test_a_confirmed_finding_says_which_emulator_showed_it_too() -> None:
    """``--converge-confirm-with``: an error the second emulator showed too says so beside
    the finding and on its scenario's card; a finding nobody confirmed says nothing."""
    confirmed = defect(
        "recovery-failed",
        "crash@CreateSubnet#1@aws_subnet.a",
        address="aws_subnet.a",
        confirmed_by={"emulator": "ministack", "version": "1.5.33", "plan": "1 to add"},
    )
    text = html_report(
        merge_reports(
            [{"version": 1, "modules": ["mods/net"], "scenarios": SCENARIOS,
              "defects": [confirmed, DEFECTS[0]]}]
        )
    )  # fmt: skip
    assert text.count("<span class='confirmed'>(confirmed on ministack 1.5.33)</span>") == 1
    card = text.split("data-scenario='crash@CreateSubnet#1@aws_subnet.a'>", 1)[1]
    card = card.split("</div>", 1)[0]
    assert "<dt>confirmed</dt><dd>ministack 1.5.33 shows it too (its second plan: 1 to add)" in card
    other = text.split("data-scenario='crash@CreateVpc#1@aws_vpc.main'>", 1)[1]
    assert "<dt>confirmed</dt>" not in other.split("</div>", 1)[0]
