"""``python -m pytest_converge.report merge a.json b.json -o all.json --sarif all.sarif``.

A package's ``__main__`` (not ``report/__init__``) so that running it does not
re-execute a module the package import already loaded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..analysis.defects import Defect
from . import ReportError, _read_report, merge_reports, sarif_report
from .html import html_report


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pytest_converge.report merge a.json b.json -o all.json --sarif all.sarif``."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m pytest_converge.report",
        description="Work with pytest-converge JSON reports.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    merge = commands.add_parser(
        "merge",
        help="merge the --converge-report files of CI shards into one",
        description="Merge --converge-report files (e.g. of CI shards) into one report, "
        "and optionally write SARIF for all their defects.",
    )
    merge.add_argument("reports", nargs="+", type=Path, metavar="REPORT.json")
    merge.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="merged JSON report (default: stdout)"
    )
    merge.add_argument("--sarif", type=Path, metavar="FILE", help="also write SARIF 2.1.0 here")
    merge.add_argument(
        "--html", type=Path, metavar="FILE", help="also write the run's HTML page here"
    )
    merge.add_argument(
        "--root",
        type=Path,
        default=Path.cwd(),
        metavar="DIR",
        help="repository root the SARIF locations are relative to (default: current directory)",
    )
    options = parser.parse_args(argv)
    try:
        merged = merge_reports([_read_report(p) for p in options.reports])
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(merged, indent=2)
    if options.output is None:
        print(text)
    else:
        options.output.parent.mkdir(parents=True, exist_ok=True)
        options.output.write_text(text + "\n")
    if options.sarif is not None:
        defects = [Defect.from_dict(d) for d in merged["defects"]]
        options.sarif.parent.mkdir(parents=True, exist_ok=True)
        sarif = sarif_report(defects, options.root, toolchains=merged["toolchains"])
        options.sarif.write_text(json.dumps(sarif, indent=2) + "\n")
    if options.html is not None:
        options.html.parent.mkdir(parents=True, exist_ok=True)
        options.html.write_text(html_report(merged), encoding="utf-8")
    print(
        f"merged {len(options.reports)} reports: {len(merged['modules'])} modules, "
        f"{len(merged['scenarios'])} scenarios; {merged['counts']['words']}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
