"""The HTML page of a real run, in a real browser (headless Chromium through playwright).

A zero-code crash + lost-response matrix of ``tests/modules/vpc_and_subnet``
under ``-n 2`` (real terraform, moto) writes ``--converge-report`` and
``--converge-html``; Chromium loads the page from ``file://`` with every other
request refused, its cells must match the JSON outcomes, the page must fit a
1,280 px window with the failing points readable without a click, and a click
on a failing cell must show that scenario's card. The layout is also checked
on pages built from synthetic reports: 75 fault points in one module, and 300
resources. Screenshots are kept in the pytest base temp (``converge-html/``)
and in ``$CONVERGE_ARTIFACTS`` when set, for CI to keep as artifacts.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.report import json_report
from pytest_converge.report.html import cell_outcome, html_report

MODULE = Path(__file__).resolve().parent / "modules" / "vpc_and_subnet"
#: Debian's package names for the browser.
CHROMIUM = ("chromium", "chromium-browser")
#: The window the page must fit, sideways.
WIDTH = 1280


def chromium() -> str:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on PATH (Debian: apt-get install chromium; .ci/run installs it)")


def test_a_real_matrix_page_renders_its_cells_and_cards_in_chromium(
    pytester: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory
) -> None:
    pytest.importorskip("xdist")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is in the dev extra: pip install -e .[dev]"
    )
    browser_path = chromium()
    shutil.copytree(MODULE, pytester.path / "mods" / "vpc_and_subnet")
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=crash,lost-response",
        "-n",
        "2",
        "-p",
        "no:cacheprovider",
        "--converge-report=report.json",
        "--converge-html=out/page.html",
    )
    report = json.loads((pytester.path / "report.json").read_text())
    page_file = pytester.path / "out" / "page.html"
    result.stdout.fnmatch_lines(["converge html written to out/page.html"])
    assert page_file.stat().st_size < 3_000_000
    defects: dict[str, list[dict[str, object]]] = {}
    for d in report["defects"]:
        defects.setdefault(d["scenario"], []).append(d)
    expected = {
        s["scenario"]: cell_outcome(s, defects.get(s["scenario"], [])) for s in report["scenarios"]
    }
    assert len(expected) == 5 and "two-run" in expected, expected
    failing = sorted(s for s, o in expected.items() if o != "passed")
    assert failing, expected  # a crash after CreateVpc leaves a duplicate VPC

    shots = [tmp_path_factory.getbasetemp() / "converge-html" / "report.png"]
    if os.environ.get("CONVERGE_ARTIFACTS"):
        shots.append(Path(os.environ["CONVERGE_ARTIFACTS"]) / "converge-html-report.png")
    remote: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def refuse_remote(route: object) -> None:
                url = route.request.url  # type: ignore[attr-defined]
                if url.startswith("file://"):
                    route.continue_()  # type: ignore[attr-defined]
                else:
                    remote.append(url)
                    route.abort()  # type: ignore[attr-defined]

            page.route("**/*", refuse_remote)
            page.goto(page_file.as_uri())
            cells = page.eval_on_selector_all(
                ".sq[data-scenario]",
                "els => els.map(e => [e.dataset.scenario, e.dataset.outcome])",
            )
            # One cell per scenario, each coloured as the JSON says.
            assert len(cells) == len(expected)
            assert dict(cells) == expected
            colours = page.eval_on_selector_all(
                ".sq[data-scenario]", "els => els.map(e => getComputedStyle(e).backgroundColor)"
            )
            assert len(set(colours)) >= 2, colours  # passed and failing look different
            # A click on a failing cell shows its card: what, why, fix, the reproduce line.
            scenario = failing[0]
            page.click(f".sq[data-scenario='{scenario}']")
            card = page.inner_text("#converge-card")
            assert page.get_attribute("#converge-card", "data-scenario") == scenario
            assert f"mods/vpc_and_subnet :: {scenario}" in card
            first = defects[scenario][0]
            assert str(first["kind"]) in card
            for part in ("what", "why", "fix", "reproduce"):
                assert f"\n{part}\n" in f"\n{card}\n", card
            assert f'"mods/vpc_and_subnet::{scenario}"' in card
            for shot in shots:
                shot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(shot), full_page=True)
            page.keyboard.press("Escape")
            assert_fits_and_shows_failing_points(page, report)
        finally:
            browser.close()
    assert remote == []  # the page fetched nothing beyond itself
    for shot in shots:
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def assert_fits_and_shows_failing_points(page: Any, report: dict[str, Any]) -> None:
    """No sideways scroll at :data:`WIDTH`; every failing point and its finding readable
    without a click (beside the matrix, inside the window's width); the legend only
    what the page uses."""
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.get_attribute("#converge-card", "class") != "open"  # nothing clicked
    defects: dict[tuple[str, str], list[dict[str, Any]]] = {}
    first_of_cause: dict[str, dict[str, Any]] = {}
    for d in report["defects"]:
        defects.setdefault((d["module"], d["scenario"]), []).append(d)
        first_of_cause.setdefault(d["cause"], d)
    outcomes = {
        (s["module"], s["scenario"]): cell_outcome(s, defects.get((s["module"], s["scenario"]), []))
        for s in report["scenarios"]
    }
    failing = [key for key, outcome in outcomes.items() if outcome != "passed"]
    assert failing
    for module, scenario in failing:
        point = page.locator(
            f"section[data-module='{module}'] .findings .pt[data-scenario='{scenario}']"
        ).first
        assert point.is_visible(), scenario
        box = point.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= WIDTH, box
        item = point.locator("xpath=ancestor::li[1]")
        text = item.inner_text()
        for d in defects.get((module, scenario), []):
            if d["severity"] == "error":  # under its cause, in that cause's first words
                assert first_of_cause[d["cause"]]["message"][:80] in text, (scenario, text)
    legend = page.eval_on_selector_all(".legend .swatch", "els => els.map(e => e.dataset.outcome)")
    assert sorted(legend) == sorted(set(outcomes.values()))


def synthetic_report(modules: int, resources: int, points: int, kinds: tuple[str, ...]) -> dict:
    """A JSON report of ``modules`` x ``resources`` x ``kinds`` x ``points`` scenarios, a
    quarter of the crash and lost-response ones failing, with long resource addresses."""
    scenarios: list[dict[str, Any]] = []
    found: list[Defect] = []
    for m in range(modules):
        module = f"mods/estate-{m}"
        scenarios.append({"module": module, "scenario": "two-run", "outcome": "passed"})
        for r in range(resources):
            address = f'module.network.aws_route_table_association.private["eu-west-1a-{r}"]'
            for kind in kinds:
                for n in range(1, points + 1):
                    label = f"{kind}@AssociateRouteTable#{n}@{address}"
                    fails = kind in ("crash", "lost-response") and (r * points + n) % 4 == 1
                    scenarios.append(
                        {
                            "module": module,
                            "scenario": label,
                            "outcome": "failed" if fails else "passed",
                            "seconds": 3.2,
                            "fault_address": address,
                        }
                    )
                    if fails:
                        found.append(
                            Defect(
                                kind="recovery-failed" if kind == "crash" else "duplicate",
                                address=address,
                                module=module,
                                scenario=label,
                                message=f"after {label} the clean re-run failed: "
                                "Resource.AlreadyAssociated: the route table is associated",
                                fix=f"`terraform import {address} rtbassoc-0123456789abcdef0`",
                                objects=["rtbassoc-0123456789abcdef0"],
                            )
                        )
    return json_report([f"mods/estate-{m}" for m in range(modules)], scenarios, found)


@pytest.mark.parametrize(
    ("modules", "resources", "points", "kinds"),
    [
        (1, 3, 5, ("error", "lost-response", "throttle", "crash", "interrupt")),
        (2, 150, 1, ("lost-response", "crash")),
    ],
    ids=["75-points-a-module", "300-resources"],
)
def test_the_page_fits_1280_px_with_failing_points_readable_without_a_click(
    tmp_path_factory: pytest.TempPathFactory,
    modules: int,
    resources: int,
    points: int,
    kinds: tuple[str, ...],
) -> None:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is in the dev extra: pip install -e .[dev]"
    )
    browser_path = chromium()
    report = synthetic_report(modules, resources, points, kinds)
    where = tmp_path_factory.getbasetemp() / "converge-html"
    where.mkdir(exist_ok=True)
    name = f"{modules * resources * points * len(kinds)}-points"
    page_file = where / f"{name}.html"
    page_file.write_text(html_report(report), encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 800})
            page.goto(page_file.as_uri())
            page.screenshot(path=str(where / f"{name}.png"))
            assert_fits_and_shows_failing_points(page, report)
            # A point of the list opens its scenario's card over the page.
            point = page.locator(".findings .pt").first
            point.click()
            assert page.get_attribute("#converge-card", "class") == "open"
            scenario = point.get_attribute("data-scenario")
            assert f":: {scenario}" in page.inner_text("#converge-card")
            assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
        finally:
            browser.close()


QUICK_MODULE = """
provider "aws" {
  region = "us-east-1"
}
resource "aws_sqs_queue" "q" {
  name = "quick-queue"
}
"""


def test_pytest_html_reports_carry_the_summary_and_matrix(pytester: pytest.Pytester) -> None:
    pytest.importorskip("pytest_html", reason="pytest-html is in the dev extra")
    (pytester.path / "mods" / "quick").mkdir(parents=True)
    (pytester.path / "mods" / "quick" / "main.tf").write_text(QUICK_MODULE)
    result = pytester.runpytest_subprocess(
        "--converge",
        "mods",
        "--converge-faults=none",
        "-p",
        "no:cacheprovider",
        "--html=out/pytest-html.html",
        "--self-contained-html",
    )
    result.assert_outcomes(passed=1)
    text = (pytester.path / "out" / "pytest-html.html").read_text()
    assert "<div class='converge'>" in text
    assert "data-scenario='two-run' data-module='mods/quick' data-outcome='passed'" in text


def test_the_ini_key_writes_the_page_even_of_a_run_without_scenarios(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini("[pytest]\nconverge_html = out/converge.html\n")
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-n", "0")
    result.assert_outcomes(passed=1)
    text = (pytester.path / "out" / "converge.html").read_text()
    assert "0 modules, 0 scenarios: " in text and ">no defects</div>" in text
