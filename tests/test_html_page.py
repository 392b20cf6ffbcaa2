"""The HTML page of a real run, in a real browser (headless Chromium through playwright).

A zero-code crash + lost-response matrix of ``tests/modules/vpc_and_subnet``
under ``-n 2`` (real terraform, moto) writes ``--converge-report`` and
``--converge-html``; Chromium loads the page from ``file://`` with every other
request refused, its cells must match the JSON outcomes, and a click on a
failing cell must show that scenario's card. The screenshot is kept in the
pytest base temp (``converge-html/report.png``) and in ``$CONVERGE_ARTIFACTS``
when set, for CI to keep as an artifact.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from pytest_converge.report.html import cell_outcome

MODULE = Path(__file__).resolve().parent / "modules" / "vpc_and_subnet"
#: Debian's package names for the browser.
CHROMIUM = ("chromium", "chromium-browser")


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
        finally:
            browser.close()
    assert remote == []  # the page fetched nothing beyond itself
    for shot in shots:
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
    assert "0 modules, 0 defects; 0 scenarios" in text
