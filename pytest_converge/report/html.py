"""One self-contained HTML page of a run, drawn from its JSON report (``--converge-html``).

The page is built from the ``--converge-report`` document alone (``json_report``
or ``merge_reports``), so what it shows is what the JSON says. It holds its CSS
and its one small script inline and fetches nothing: it opens from a CI
artifact or ``file://``.

It fits any window from 1,280 px wide, whatever the matrix's size: a module's
fault matrix (squares that wrap in their cells) and, beside it, the list of its
defects (one per cause, :func:`~.counts.group_defects`) with the failing points
behind each, readable without a click; a click on a square or a point opens that
scenario's card over the page. The header counts defects with
:func:`~.counts.count_defects`, as the terminal summary, JUnit and the JSON do.

Every scenario's square carries ``data-scenario`` (its id, as in the JSON) and
``data-outcome`` (a cell outcome, :func:`cell_outcome`), so users and tests can
script against it::

    page = html_report(json.loads(Path("report.json").read_text()))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..analysis.defects import ERROR, INFO, Defect, emulator_words
from ..analysis.labels import Label, natural
from ..faults.kinds import FAULT_KINDS
from . import ran_with
from .counts import count_defects, group_defects

#: Cell outcomes, worst first: the colour of a failed scenario is its worst defect kind.
CELL_OUTCOMES = (
    "error",
    "interrupted",
    "recovery-failed",
    "duplicate",
    "orphan",
    "wrong-fixed-point",
    "failed",
    "flaky",
    "skipped",
    "passed",
)
#: The letter in a cell, so outcomes read without colours.
_LETTERS = {
    "duplicate": "D",
    "orphan": "O",
    "recovery-failed": "R",
    "wrong-fixed-point": "W",
    "failed": "F",
    "flaky": "~",
    "error": "E",
    "interrupted": "I",
    "skipped": "S",
}
#: Defect kinds that name a failed scenario's cell (others make it ``failed``).
_CELL_KINDS = ("recovery-failed", "duplicate", "orphan", "wrong-fixed-point")

#: The row of scenarios whose resource is not known (unpinned, the fault's hit not recorded).
_UNKNOWN_ROW = "(resource not known)"

_COLOURS = {
    "passed": "#2e9d57",
    "duplicate": "#c0392b",
    "orphan": "#e67e22",
    "recovery-failed": "#8e44ad",
    "wrong-fixed-point": "#d35d9b",
    "failed": "#6e2c00",
    "flaky": "#f1c40f",
    "error": "#34495e",
    "interrupted": "#7f8c8d",
    "skipped": "#bdc3c7",
}

# Every rule under .converge: the same block styles the page and its part of a pytest-html report.
_CSS = """
.converge{font:14px/1.4 system-ui,sans-serif;color:#222;background:#fafafa}
.converge header{background:#263238;color:#fff;padding:12px 20px}
.converge header h1{font-size:18px;margin:0 0 4px;color:#fff}
.converge .count{font-weight:600}
.converge .legend{margin-top:4px;font-size:12px}
.converge .legend .swatch{margin:0 2px 0 10px}
.converge main{padding:16px 20px;overflow-wrap:anywhere}
.converge #converge-card{display:none;position:fixed;top:12px;right:12px;z-index:10;
width:min(460px,calc(100vw - 24px));max-height:calc(100vh - 24px);overflow:auto;
background:#fff;border:1px solid #888;border-radius:6px;padding:10px 14px;
box-shadow:0 4px 16px rgba(0,0,0,.3);overflow-wrap:anywhere}
.converge #converge-card.open{display:block}
.converge #converge-card button{float:right;font-size:16px;cursor:pointer}
.converge section.module{background:#fff;border:1px solid #ddd;border-radius:6px;
padding:10px 14px;margin-bottom:16px}
.converge .columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px;
align-items:start}
@media (max-width:900px){.converge .columns{grid-template-columns:minmax(0,1fr)}}
.converge h2{font-size:16px;margin:4px 0}
.converge h3{font-size:14px;margin:12px 0 4px}
.converge table{border-collapse:collapse}
.converge table.matrix{width:100%}
.converge table.diffs{table-layout:fixed;width:100%}
.converge td,.converge th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;
text-align:left;overflow-wrap:anywhere}
.converge th{background:#f0f0f0;font-weight:600;font-size:12px;overflow-wrap:normal}
.converge .sqs{display:flex;flex-wrap:wrap;gap:2px}
.converge .sqs .sq{margin:0}
.converge details summary{cursor:pointer;margin:6px 0}
.converge .sq,.converge .swatch{display:inline-block;min-width:18px;height:18px;margin:1px;
border-radius:3px;color:#fff;font:11px/18px monospace;text-align:center;padding:0 2px;
border:2px solid transparent;vertical-align:middle}
.converge .sq{cursor:pointer}
.converge .sq.named{height:auto;max-width:100%;white-space:normal;overflow-wrap:anywhere}
.converge .sq.selected{border-color:#000}
.converge .badge{display:inline-block;border-radius:3px;padding:0 6px;color:#fff;font-size:12px}
.converge .badge.warning{background:#b9770e}
.converge .badge.partly{background:#7d6608}
.converge .untested{color:#7d6608}
.converge ol.findings{margin:0;padding-left:20px;font-size:13px}
.converge ol.findings li{margin-bottom:8px}
.converge .pt{cursor:pointer;color:#1a5276;text-decoration:underline;font:12px monospace}
.converge .findings .text{margin:2px 0;color:#333}
.converge .suspected{color:#666}
.converge .confirmed{color:#a40000}
.converge code,.converge pre{font:12px monospace;background:#f4f4f4}
.converge pre{white-space:pre-wrap;overflow-wrap:anywhere;padding:4px;margin:2px 0}
.converge .card{display:none}
.converge #converge-card dt{font-weight:600;margin-top:6px}
.converge #converge-card dd{margin:0 0 0 8px}
.converge .destructive{color:#c0392b;font-weight:600}
.converge svg text{font:11px sans-serif}
"""
_CSS += "".join(
    f'.converge [data-outcome="{name}"].sq,.converge [data-outcome="{name}"].swatch,'
    f".converge .badge.{name}{{background:{colour}}}"
    for name, colour in _COLOURS.items()
)
# Opens the card of the clicked square (or point of the list) over the page.
_SCRIPT = """
(function(){
  var panel=document.getElementById('converge-card');
  var body=document.getElementById('converge-card-body');
  var squares=document.querySelectorAll('.converge .sq');
  function show(el){
    var key=el.getAttribute('data-key');
    var card=document.getElementById('converge-card-'+key);
    squares.forEach(function(s){
      s.classList.toggle('selected',s.getAttribute('data-key')===key);
    });
    body.innerHTML=card?card.innerHTML:'';
    panel.setAttribute('data-scenario',el.getAttribute('data-scenario'));
    panel.setAttribute('data-outcome',el.getAttribute('data-outcome'));
    panel.classList.add('open');
  }
  function hide(){panel.classList.remove('open')}
  document.querySelectorAll('.converge .sq,.converge .pt').forEach(function(el){
    el.addEventListener('click',function(){show(el)});
  });
  panel.querySelector('button').addEventListener('click',hide);
  document.addEventListener('keydown',function(e){if(e.key==='Escape')hide()});
})();
"""


def parse_scenario(label: str) -> tuple[str, str, str | None]:
    """``(kind, operation, address)`` of a scenario label.

    ``crash@CreateVpc#1@aws_vpc.main`` -> ``("crash", "CreateVpc#1", "aws_vpc.main")``;
    ``drift-delete@aws_sqs_queue.q`` -> ``("drift-delete", "", "aws_sqs_queue.q")``;
    ``two-run`` -> ``("two-run", "", None)``.
    """
    found = Label.parse(label)
    if found.point is None:  # drift-<kind>@<address>, upgrade-from@REF, two-run
        return found.kind, "", found.target
    return found.kind, f"{found.point.operation}#{found.point.n}", found.point.address


def cell_outcome(scenario: Mapping[str, Any], defects: Sequence[Mapping[str, Any]]) -> str:
    """The outcome a scenario's cell is coloured by: one of :data:`CELL_OUTCOMES`.

    A failed scenario takes its worst defect kind among ``recovery-failed``,
    ``duplicate``, ``orphan`` and ``wrong-fixed-point``; otherwise it stays ``failed``.
    """
    outcome = str(scenario.get("outcome", ""))
    if outcome in ("failed", "xpassed"):
        kinds = {d.get("kind") for d in defects if d.get("severity", ERROR) == ERROR}
        for kind in _CELL_KINDS:
            if kind in kinds:
                return kind
        return "failed"
    if outcome == "xfailed":
        return "passed"
    return outcome if outcome in CELL_OUTCOMES else "error"


def html_report(report: Mapping[str, Any], title: str = "pytest-converge report") -> str:
    """The page of a ``--converge-report`` document (a version-1 report)."""
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title><style>body{{margin:0}}</style></head><body>"
        + html_fragment(report, title)
        + "</body></html>\n"
    )


def html_fragment(report: Mapping[str, Any], title: str = "pytest-converge report") -> str:
    """The page's content as one ``<div class="converge">``, its style and script inside.

    The page is this in a document; pytest-html's report takes it as a summary part.
    """
    defects_of: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for d in report.get("defects", []):
        defects_of.setdefault((str(d.get("module")), str(d.get("scenario"))), []).append(d)
    modules = list(report.get("modules", []))
    for s in report.get("scenarios", []):
        if s["module"] not in modules:
            modules.append(s["module"])
    cells: list[tuple[Mapping[str, Any], str]] = [
        (s, cell_outcome(s, defects_of.get((s["module"], s["scenario"]), [])))
        for s in report.get("scenarios", [])
    ]
    totals: dict[str, int] = {}
    for _, outcome in cells:
        totals[outcome] = totals.get(outcome, 0) + 1
    keys = {id(s): str(i) for i, (s, _) in enumerate(cells)}
    found = [Defect.from_dict(dict(d)) for d in report.get("defects", [])]
    count = count_defects(found)
    body = [
        f"<div class='converge'><style>{_CSS}</style><header>",
        f"<h1>{escape(title)}</h1>",
        f"<div>{_count(len(modules), 'module')}, {_count(len(cells), 'scenario')}: "
        f"{_badges(totals)}</div>",
        f"<div class='count' data-defects='{count.defects}'>{escape(count.words())}</div>",
        _legend(totals),
        "</header><main>",
    ]
    for module in modules:
        mine = [(s, o) for s, o in cells if s["module"] == module]
        mod_defects = [d for d in report.get("defects", []) if d.get("module") == module]
        loops = [loop for loop in report.get("loops", []) if loop.get("module") == module]
        toolchain = (report.get("toolchains") or {}).get(module)
        body.append(_module_section(module, mine, mod_defects, loops, keys, toolchain))
    body.append(
        "</main><aside id='converge-card'><button type='button' title='close (Esc)'>"
        "&times;</button><div id='converge-card-body'></div></aside>"
    )
    body.append("<div hidden>")
    for s, outcome in cells:
        mine_found = defects_of.get((s["module"], s["scenario"]), [])
        body.append(_card(s, outcome, mine_found, keys[id(s)]))
    body.append("</div>")
    return "\n".join(body) + f"<script>{_SCRIPT}</script></div>"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _ordered(outcomes: Mapping[str, int]) -> list[str]:
    return [o for o in CELL_OUTCOMES if o in outcomes] + sorted(
        o for o in outcomes if o not in CELL_OUTCOMES
    )


def _badges(counts: Mapping[str, int]) -> str:
    return " ".join(
        f"<span class='badge {escape(o)}'>{escape(o)} {counts[o]}</span>" for o in _ordered(counts)
    )


def _legend(outcomes: Mapping[str, int]) -> str:
    """What the squares' colours and letters mean: only those the page shows."""
    if not outcomes:
        return ""
    return (
        "<div class='legend'>squares:"
        + "".join(
            f"<span class='swatch' data-outcome='{escape(o, True)}'>"
            f"{escape(_LETTERS.get(o, ''))}</span>{escape(o)}"
            for o in _ordered(outcomes)
        )
        + "</div>"
    )


#: Cell outcomes that make a module's scenarios fail.
_FAILING = frozenset(CELL_OUTCOMES) - {"passed", "skipped", "flaky"}


def _module_outcome(cells: Sequence[tuple[Mapping[str, Any], str]]) -> tuple[str, str]:
    """A module's outcome (``failed``, ``flaky`` or ``passed``) and its words."""
    failing = sum(o in _FAILING for _, o in cells)
    if failing:
        return "failed", f"{failing} of {_count(len(cells), 'scenario')} failed"
    flaky = sum(o == "flaky" for _, o in cells)
    if flaky:
        return "flaky", f"{flaky} of {_count(len(cells), 'scenario')} flaky"
    return "passed", f"{_count(len(cells), 'scenario')} passed"


def _module_section(
    module: str,
    cells: list[tuple[Mapping[str, Any], str]],
    defects: list[Mapping[str, Any]],
    loops: list[Mapping[str, Any]],
    keys: Mapping[int, str],
    toolchain: Mapping[str, Any] | None = None,
) -> str:
    outcome, words = _module_outcome(cells)
    found = [Defect.from_dict(dict(d)) for d in defects]
    kinds: dict[str, int] = {}
    suspected: dict[str, int] = {}
    for d, _ in group_defects(d for d in found if d.severity != INFO):
        into = suspected if d.emulator_suspected else kinds
        into[d.kind] = into.get(d.kind, 0) + 1
    out = [
        f"<section class='module' data-module='{escape(module, True)}'>",
        f"<h2>{escape(module)} <span class='badge {outcome}'>{outcome}</span></h2>",
        f"<div class='outcome'>{words}; {escape(count_defects(found).words())}</div>",
        "<div>defects by kind: "
        + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")
        + "</div>",
    ]
    untested = [d for d, _ in group_defects(found) if d.kind == "untested"]
    if untested:
        out[1] = out[1].replace("</h2>", " <span class='badge partly'>partly verified</span></h2>")
        out.append(
            "<div class='untested'>partly verified: the backend cannot serve "
            + "; ".join(
                escape(f"{d.address} ({d.observed})")
                + (escape(f", with {', '.join(d.waiting)}") if d.waiting else "")
                for d in untested
            )
            + " (left out; the rest was judged)</div>"
        )
    if toolchain:  # the engine, providers and emulator (backend and version) it ran with
        out.append(f"<div class='ran-with'>ran with {escape(ran_with(toolchain))}</div>")
    if suspected:
        out.append(
            "<div class='suspected'>suspected emulator gaps (not the module's fault): "
            + ", ".join(f"{k} {n}" for k, n in sorted(suspected.items()))
            + "</div>"
        )
    out.append(_others(cells, keys))
    out.append("<div class='columns'><div class='grid'>")
    out.append(_matrix(cells, keys))
    out.append("</div><div class='list'>")
    out.append(_findings(module, cells, found, keys))
    out.append("</div></div>")
    out.append(_diffs(defects))
    out.extend(_loop(loop) for loop in loops)
    out.append(_upgrades(cells, defects))
    out.append("</section>")
    return "\n".join(x for x in out if x)


def _findings(
    module: str,
    cells: list[tuple[Mapping[str, Any], str]],
    found: list[Defect],
    keys: Mapping[int, str],
) -> str:
    """Beside the matrix: each defect (one per cause) with the points that found it,
    then the failing scenarios that recorded none; errors first."""
    cell_of = {str(s["scenario"]): (s, o) for s, o in cells}

    def point(scenario: str, address: str | None = None) -> str:
        # Under its resource's finding a point needs no @address: crash@CreateVpc#1.
        shown = scenario.removesuffix(f"@{address}") if address else scenario
        if scenario not in cell_of:
            return f"<code>{escape(shown)}</code>"
        s, outcome = cell_of[scenario]
        return (
            f"<span class='pt' data-key='{keys[id(s)]}' data-scenario='{escape(scenario, True)}' "
            f"data-outcome='{outcome}' title='{escape(scenario, True)}'>{escape(shown)}</span>"
        )

    groups = group_defects(d for d in found if d.severity != INFO)
    groups.sort(key=lambda group: not any(d.is_error for d in group[1]))
    items = []
    for d, findings in groups:
        error = any(f.is_error for f in findings)
        scenarios = sorted({f.scenario for f in findings if f.scenario}, key=natural)
        where = ".".join(x for x in (d.address, d.attribute) if x) or module
        label = "" if error else " <span class='badge warning'>warning</span>"
        if d.emulator_suspected:
            label += " <span class='suspected'>(suspected emulator gap)</span>"
        if d.confirmed_by:
            label += f" <span class='confirmed'>(confirmed on {escape(d.confirmed_on)})</span>"
        items.append(
            f"<li data-kind='{escape(d.kind, True)}'><b>{escape(d.kind)}</b>{label} "
            f"<code>{escape(where)}</code>"
            + (f", {_count(len(findings), 'finding')}" if len(findings) > 1 else "")
            + (": " + ", ".join(point(x, d.address) for x in scenarios) if scenarios else "")
            + f"<div class='text'>{escape(_short(d.message))}</div>"
            + (f"<div class='text'><b>fix</b> {escape(d.fix)}</div>" if d.fix else "")
            + "</li>"
        )
    named = {f.scenario for f in found if f.is_error}
    for s, outcome in cells:
        if outcome in _FAILING and str(s["scenario"]) not in named:
            items.append(
                f"<li><span class='badge {outcome}'>{outcome}</span> "
                f"{point(str(s['scenario']))}: no defect recorded (its card has the outcome)</li>"
            )
    if not items:
        return "<h3>defects</h3><p>none</p>"
    return (
        "<h3>defects and their failing points</h3><ol class='findings'>" + "".join(items) + "</ol>"
    )


def _short(text: str, limit: int = 400) -> str:
    """The list's text of a finding (its card has it whole)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _square(s: Mapping[str, Any], outcome: str, key: str, text: str, named: bool = False) -> str:
    return (
        f"<span class='sq{' named' if named else ''}' "
        f"data-scenario='{escape(str(s['scenario']), True)}' "
        f"data-module='{escape(str(s['module']), True)}' data-outcome='{outcome}' "
        f"data-key='{key}' title='{escape(str(s['scenario']), True)}: {outcome}'>"
        f"{escape(text)}</span>"
    )


def _decided(decided: Any) -> str:
    """How a grouped matrix decided the scenario (``decided_by`` of its JSON entry)."""
    if not isinstance(decided, dict):
        return ""
    points = int(decided.get("points", 1))
    shared = f"with {points - 1} other point(s) in one run" if points > 1 else "in a run of its own"
    if decided.get("shares"):
        shared = f"as {decided['shares']} (a crash earlier in the same create), " + shared
    return f"; decided {shared} ({float(decided.get('seconds', 0)):.0f} s)"


def _in_matrix(kind: str, op: str) -> bool:
    """A fault or drift scenario has a square in the matrix; the others (two-run,
    upgrades, stages) stand above it, named."""
    return bool(op) or kind.startswith("drift-")


def _others(cells: list[tuple[Mapping[str, Any], str]], keys: Mapping[int, str]) -> str:
    others = [(s, o) for s, o in cells if not _in_matrix(*parse_scenario(str(s["scenario"]))[:2])]
    if not others:
        return ""
    squares = " ".join(
        _square(s, o, keys[id(s)], str(s["scenario"]), named=True) for s, o in others
    )
    return f"<div>{squares}</div>"


def _matrix(cells: list[tuple[Mapping[str, Any], str]], keys: Mapping[int, str]) -> str:
    """Rows: resources in plan order (terraform lists them by address); columns: fault kinds.

    A cell's squares (one per fault point of that resource and kind) wrap, so a
    resource with dozens of points makes a taller row, never a wider page; a
    square's title names its point.
    """
    rows: dict[str, dict[str, list[tuple[Mapping[str, Any], str]]]] = {}
    for s, outcome in cells:
        kind, op, address = parse_scenario(str(s["scenario"]))
        if not _in_matrix(kind, op):
            continue
        row = str(s.get("fault_address") or address or _UNKNOWN_ROW)
        rows.setdefault(row, {}).setdefault(kind, []).append((s, outcome))
    kinds = {kind for by_kind in rows.values() for kind in by_kind}
    columns = [k for k in FAULT_KINDS if k in kinds] + sorted(kinds - set(FAULT_KINDS))
    order = sorted(rows, key=lambda row: (row == _UNKNOWN_ROW, natural(row)))
    rows = {row: rows[row] for row in order}
    for by_kind in rows.values():
        for squares in by_kind.values():
            squares.sort(key=lambda c: natural(parse_scenario(str(c[0]["scenario"]))[1]))
    out = []
    if rows:
        out.append("<h3>fault matrix</h3>")
        quiet = {row: by_kind for row, by_kind in rows.items() if not _fails(by_kind)}
        if len(rows) <= _ROWS_SHOWN or not quiet:
            quiet = {}
        loud = {row: by_kind for row, by_kind in rows.items() if row not in quiet}
        if loud:
            out.append(_table(loud, columns, keys))
        if quiet:
            # Hundreds of resources: the ones where every point passed fold away.
            out.append(
                f"<details><summary>{_count(len(quiet), 'more resource')} where every "
                f"point passed</summary>{_table(quiet, columns, keys)}</details>"
            )
    return "\n".join(out)


#: Rows a matrix shows open; beyond, the rows whose every point passed fold away.
_ROWS_SHOWN = 20


def _fails(by_kind: Mapping[str, list[tuple[Mapping[str, Any], str]]]) -> bool:
    return any(o not in ("passed", "skipped") for squares in by_kind.values() for _, o in squares)


def _table(
    rows: Mapping[str, Mapping[str, list[tuple[Mapping[str, Any], str]]]],
    columns: list[str],
    keys: Mapping[int, str],
) -> str:
    out = ["<table class='matrix'><tr><th>resource</th>"]
    out.extend(f"<th>{escape(c)}</th>" for c in columns)
    out.append("</tr>")
    for row, by_kind in rows.items():
        out.append(f"<tr><td><code>{escape(row)}</code></td>")
        for column in columns:
            squares = "".join(
                _square(s, o, keys[id(s)], _LETTERS.get(o, "")) for s, o in by_kind.get(column, [])
            )
            out.append(f"<td class='cell'><div class='sqs'>{squares}</div></td>")
        out.append("</tr>")
    out.append("</table>")
    return "\n".join(out)


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True)
    return f"<pre>{escape(text[:2000])}</pre>"


def _diffs(defects: list[Mapping[str, Any]]) -> str:
    diffs = [d for d in defects if d.get("kind") == "permanent-diff"]
    if not diffs:
        return ""
    seen: set[tuple[Any, Any]] = set()
    out = [
        "<h3>permanent diffs</h3><table class='diffs'><tr><th>attribute</th>"
        "<th>declared</th><th>observed</th><th>class</th></tr>"
    ]
    for d in diffs:
        where = (d.get("address"), d.get("attribute"))
        if where in seen:
            continue
        seen.add(where)
        out.append(
            f"<tr data-scenario='{escape(str(d.get('scenario')), True)}'>"
            f"<td><code>{escape(str(d.get('address')))}.{escape(str(d.get('attribute')))}"
            f"</code></td><td>{_value(d.get('declared'))}</td><td>{_value(d.get('observed'))}"
            f"</td><td>{escape(str(d.get('classification')))}</td></tr>"
        )
    out.append("</table>")
    return "\n".join(out)


def _loop(loop: Mapping[str, Any]) -> str:
    """A timeline per drifted or flapping field: one box per cycle."""
    cycles = list(loop.get("cycles", []))
    if not cycles:
        return ""
    fields: list[tuple[str, dict[int, str]]] = []
    for e in loop.get("drift", []):
        end = e.get("reverted_cycle") or cycles[-1]["number"]
        marks = {
            c: f"drifted ({e.get('by') or 'unknown writer'})"
            for c in range(int(e["detected_cycle"]), int(end) + 1)
        }
        if e.get("reverted_cycle"):
            marks[int(e["reverted_cycle"])] = "reverted by terraform"
        fields.append((f"{e['address']}.{e.get('attribute') or '(deleted)'}", marks))
    for f in loop.get("flapping", []):
        values = ", ".join(json.dumps(v) for v in f.get("values", []))
        writers = ", ".join(f.get("writers", []))
        marks = {int(c): f"flapping: {values} by {writers}" for c in f.get("cycles", [])}
        fields.append((f"{f['address']}.{f.get('attribute')}", marks))
    width = 34
    height = 22 * (len(fields) + 1) + 8
    wide = 260 + width * len(cycles)
    # Scaled down to the column where a long loop would be wider than the page.
    svg = [
        f"<svg viewBox='0 0 {wide} {height}' width='{wide}' height='{height}' "
        "style='max-width:100%;height:auto'>"
    ]
    for i, c in enumerate(cycles):
        x = 260 + i * width
        svg.append(f"<text x='{x + 4}' y='14'>#{c['number']}</text>")
        if c.get("paused"):
            svg.append(
                f"<rect x='{x}' y='18' width='{width - 2}' height='{height - 20}' "
                "fill='#eceff1'><title>paused: plans only</title></rect>"
            )
    for row, (name, marks) in enumerate(fields):
        y = 22 * (row + 1)
        svg.append(f"<text x='0' y='{y + 14}'>{escape(name[:40])}</text>")
        for i, c in enumerate(cycles):
            mark = marks.get(int(c["number"]))
            if mark is None:
                continue
            colour = "#2e9d57" if mark.startswith("reverted") else "#e67e22"
            svg.append(
                f"<rect x='{260 + i * width}' y='{y}' width='{width - 4}' height='18' "
                f"fill='{colour}'><title>cycle {c['number']}: {escape(mark)}</title></rect>"
            )
    svg.append("</svg>")
    label = escape(str(loop.get("test") or "loop"))
    return f"<h3>loop {label}: {len(cycles)} cycles</h3>" + "".join(svg)


#: Upgrade plan actions that destroy an object (terraform's own names).
_DESTRUCTIVE = ("delete", "replace", "delete-create", "create-delete")


def _upgrades(cells: list[tuple[Mapping[str, Any], str]], defects: list[Mapping[str, Any]]) -> str:
    """Each upgrade scenario's plan actions, the destructive ones marked, and its findings."""
    upgrades = [s for s, _ in cells if str(s["scenario"]).startswith(("upgrade", "stages"))]
    if not upgrades:
        return ""
    out = ["<h3>upgrades</h3><ul>"]
    for s in upgrades:
        found = [
            d
            for d in defects
            if d.get("scenario") == s["scenario"]
            and d.get("kind") in ("destructive-upgrade", "upgrade-failed")
        ]
        actions = s.get("actions") or {}
        rows = "".join(
            f"<tr{' class=destructive' if action in _DESTRUCTIVE else ''}>"
            f"<td><code>{escape(str(address))}</code></td><td>{escape(str(action))}</td></tr>"
            for address, action in sorted(actions.items(), key=lambda a: natural(str(a[0])))
        )
        items = "".join(
            f"<li class='destructive'>{escape(str(d.get('address')))}: "
            f"{escape(str(d.get('message')))}</li>"
            for d in found
        )
        since = f" from {escape(str(s['upgrade_from']))}" if s.get("upgrade_from") else ""
        out.append(
            f"<li><code>{escape(str(s['scenario']))}</code>{since}: "
            f"{'destructive findings:' if found else 'no destructive finding'}<ul>{items}</ul>"
            + (
                f"<table class='actions'><tr><th>address</th><th>plan action</th></tr>{rows}"
                "</table>"
                if rows
                else ""
            )
            + "</li>"
        )
    out.append("</ul>")
    return "\n".join(out)


def _card(s: Mapping[str, Any], outcome: str, defects: list[Mapping[str, Any]], key: str) -> str:
    out = [
        f"<div class='card' id='converge-card-{key}' "
        f"data-scenario='{escape(str(s['scenario']), True)}'>",
        f"<h3>{escape(str(s['module']))} :: {escape(str(s['scenario']))}</h3>",
        f"<p><span class='badge {outcome}'>{outcome}</span> in {s.get('seconds', 0)} s"
        + (
            f", the fault hit <code>{escape(str(s['fault_address']))}</code>"
            if s.get("fault_address")
            else ""
        )
        + _decided(s.get("decided_by"))
        + "</p>",
    ]
    if not defects:
        out.append("<p>No defect.</p>")
    for d in defects:
        out.append("<dl class='defect'>")
        where = ".".join(str(x) for x in (d.get("address"), d.get("attribute")) if x)
        out.append(
            f"<dt>what</dt><dd><b>{escape(str(d.get('kind')))}</b>"
            f"{' ' + escape(where) if where else ''}: {escape(str(d.get('message')))}</dd>"
        )
        if d.get("emulator_suspected"):
            out.append(
                f"<dt>suspected emulator gap</dt><dd>{escape(str(d.get('evidence') or ''))}</dd>"
            )
        confirmed = d.get("confirmed_by")
        if isinstance(confirmed, Mapping):
            plan = confirmed.get("plan")
            out.append(
                f"<dt>confirmed</dt><dd>{escape(emulator_words(confirmed))} shows it too"
                + (f" (its second plan: {escape(str(plan))})" if plan else "")
                + "</dd>"
            )
        for name in ("why", "fix", "reproduce"):
            if d.get(name):
                out.append(f"<dt>{name}</dt><dd><pre>{escape(str(d[name]))}</pre></dd>")
        if d.get("objects"):
            objects = "".join(f"<li><code>{escape(str(o))}</code></li>" for o in d["objects"])
            out.append(f"<dt>objects</dt><dd><ul>{objects}</ul></dd>")
        out.append("</dl>")
    out.append("</div>")
    return "\n".join(out)
