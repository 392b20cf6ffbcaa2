"""One self-contained HTML page of a run, drawn from its JSON report (``--converge-html``).

The page is built from the ``--converge-report`` document alone (``json_report``
or ``merge_reports``), so what it shows is what the JSON says. It holds its CSS
and its one small script inline and fetches nothing: it opens from a CI
artifact or ``file://``.

Every scenario's element carries ``data-scenario`` (its id, as in the JSON) and
``data-outcome`` (a cell outcome, :func:`cell_outcome`), so users and tests can
script against it::

    page = html_report(json.loads(Path("report.json").read_text()))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..analysis.defects import ERROR
from ..analysis.writers import natural
from ..faults.kinds import FAULT_KINDS

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
.converge .legend{margin-top:4px;font-size:12px}
.converge main{display:flex;gap:16px;padding:16px 20px;align-items:flex-start}
.converge .modules{flex:1;min-width:0}
.converge #converge-card{position:sticky;top:12px;width:380px;flex:none;background:#fff;
border:1px solid #ccc;border-radius:6px;padding:10px 14px;max-height:90vh;overflow:auto;
overflow-wrap:anywhere}
.converge section.module{background:#fff;border:1px solid #ddd;border-radius:6px;
padding:10px 14px;margin-bottom:16px}
.converge h2{font-size:16px;margin:4px 0}
.converge h3{font-size:14px;margin:12px 0 4px}
.converge table{border-collapse:collapse}
.converge td,.converge th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;
text-align:left}
.converge th{background:#f0f0f0;font-weight:600}
.converge table.matrix td.cell{white-space:nowrap}
.converge .sq{display:inline-block;min-width:22px;height:22px;margin:1px;border-radius:3px;
cursor:pointer;color:#fff;font:11px/22px monospace;text-align:center;padding:0 3px;
border:2px solid transparent}
.converge .sq.selected{border-color:#000}
.converge .badge{display:inline-block;border-radius:3px;padding:0 6px;color:#fff;font-size:12px}
.converge .legend .badge{margin-right:4px}
.converge .suspected{color:#666}
.converge code,.converge pre{font:12px monospace;background:#f4f4f4}
.converge pre{white-space:pre-wrap;overflow-wrap:anywhere;padding:4px;margin:2px 0}
.converge .card{display:none}
.converge #converge-card dt{font-weight:600;margin-top:6px}
.converge #converge-card dd{margin:0 0 0 8px}
.converge .destructive{color:#c0392b;font-weight:600}
.converge svg text{font:11px sans-serif}
"""
_CSS += "".join(
    f'.converge [data-outcome="{name}"].sq,.converge .badge.{name}{{background:{colour}}}'
    for name, colour in _COLOURS.items()
)
# Shows the card of the clicked (or hovered) scenario in the side panel.
_SCRIPT = """
(function(){
  var panel=document.getElementById('converge-card');
  var squares=document.querySelectorAll('.converge .sq');
  function show(el){
    var card=document.getElementById('converge-card-'+el.getAttribute('data-key'));
    squares.forEach(function(s){s.classList.remove('selected')});
    el.classList.add('selected');
    panel.innerHTML=card?card.innerHTML:'';
    panel.setAttribute('data-scenario',el.getAttribute('data-scenario'));
    panel.setAttribute('data-outcome',el.getAttribute('data-outcome'));
  }
  squares.forEach(function(el){
    el.addEventListener('click',function(){show(el)});
    el.addEventListener('mouseenter',function(){
      if(!document.querySelector('.converge .sq.selected'))show(el);
    });
  });
})();
"""


def parse_scenario(label: str) -> tuple[str, str, str | None]:
    """``(kind, operation, address)`` of a scenario label.

    ``crash@CreateVpc#1@aws_vpc.main`` -> ``("crash", "CreateVpc#1", "aws_vpc.main")``;
    ``drift-delete@aws_sqs_queue.q`` -> ``("drift-delete", "", "aws_sqs_queue.q")``;
    ``two-run`` -> ``("two-run", "", None)``.
    """
    kind, _, rest = label.partition("@")
    if "#" not in rest.split("@", 1)[0]:
        return kind, "", rest or None  # drift-<kind>@<address>, upgrade-from@REF, two-run
    op, _, address = rest.partition("@")
    return kind, op, address or None


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
    body = [
        f"<div class='converge'><style>{_CSS}</style><header>",
        f"<h1>{escape(title)}</h1>",
        f"<div>{_count(len(modules), 'module')}, "
        f"{_count(len(report.get('defects', [])), 'defect')}; "
        f"{_count(len(cells), 'scenario')}: {_badges(totals)}</div>",
        "<div class='legend'>colours: "
        + " ".join(f"<span class='badge {o}'>{o}</span>" for o in CELL_OUTCOMES)
        + "</div>",
        "</header><main><div class='modules'>",
    ]
    for module in modules:
        mine = [(s, o) for s, o in cells if s["module"] == module]
        mod_defects = [d for d in report.get("defects", []) if d.get("module") == module]
        loops = [loop for loop in report.get("loops", []) if loop.get("module") == module]
        body.append(_module_section(module, mine, mod_defects, loops, keys))
    body.append(
        "</div><aside id='converge-card'><p>Click a cell to see its scenario.</p></aside></main>"
    )
    body.append("<div hidden>")
    for s, outcome in cells:
        found = defects_of.get((s["module"], s["scenario"]), [])
        body.append(_card(s, outcome, found, keys[id(s)]))
    body.append("</div>")
    return "\n".join(body) + f"<script>{_SCRIPT}</script></div>"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _badges(counts: Mapping[str, int]) -> str:
    order = [o for o in CELL_OUTCOMES if o in counts] + sorted(
        o for o in counts if o not in CELL_OUTCOMES
    )
    return " ".join(
        f"<span class='badge {escape(o)}'>{escape(o)} {counts[o]}</span>" for o in order
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
) -> str:
    outcome, words = _module_outcome(cells)
    kinds: dict[str, int] = {}
    suspected: dict[str, int] = {}
    for d in defects:
        into = suspected if d.get("emulator_suspected") else kinds
        into[str(d.get("kind"))] = into.get(str(d.get("kind")), 0) + 1
    out = [
        f"<section class='module' data-module='{escape(module, True)}'>",
        f"<h2>{escape(module)} <span class='badge {outcome}'>{outcome}</span></h2>",
        f"<div class='outcome'>{words}</div>",
        "<div>defects: "
        + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")
        + "</div>",
    ]
    if suspected:
        out.append(
            "<div class='suspected'>suspected emulator gaps (not the module's fault): "
            + ", ".join(f"{k} {n}" for k, n in sorted(suspected.items()))
            + "</div>"
        )
    out.append(_matrix(cells, keys))
    out.append(_diffs(defects))
    out.extend(_loop(loop) for loop in loops)
    out.append(_upgrades(cells, defects))
    out.append("</section>")
    return "\n".join(x for x in out if x)


def _square(s: Mapping[str, Any], outcome: str, key: str, text: str) -> str:
    return (
        f"<span class='sq' data-scenario='{escape(str(s['scenario']), True)}' "
        f"data-module='{escape(str(s['module']), True)}' data-outcome='{outcome}' "
        f"data-key='{key}' title='{escape(str(s['scenario']), True)}: {outcome}'>"
        f"{escape(text)}</span>"
    )


def _matrix(cells: list[tuple[Mapping[str, Any], str]], keys: Mapping[int, str]) -> str:
    """Rows: resources in plan order (terraform lists them by address); columns: fault kinds."""
    rows: dict[str, dict[str, list[tuple[Mapping[str, Any], str]]]] = {}
    others: list[tuple[Mapping[str, Any], str]] = []
    for s, outcome in cells:
        kind, op, address = parse_scenario(str(s["scenario"]))
        if not op and not kind.startswith("drift-"):
            others.append((s, outcome))  # two-run, upgrades, stages
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
    if others:
        out.append(
            "<div>"
            + " ".join(_square(s, o, keys[id(s)], str(s["scenario"])) for s, o in others)
            + "</div>"
        )
    if rows:
        out.append("<h3>fault matrix</h3><table class='matrix'><tr><th>resource</th>")
        out.extend(f"<th>{escape(c)}</th>" for c in columns)
        out.append("</tr>")
        for row, by_kind in rows.items():
            out.append(f"<tr><td><code>{escape(row)}</code></td>")
            for column in columns:
                squares = by_kind.get(column, [])
                several = len(squares) > 1
                out.append(
                    "<td class='cell'>"
                    + "".join(
                        _square(
                            s,
                            o,
                            keys[id(s)],
                            parse_scenario(str(s["scenario"]))[1]
                            if several
                            else _LETTERS.get(o, ""),
                        )
                        for s, o in squares
                    )
                    + "</td>"
                )
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
    svg = [f"<svg width='{260 + width * len(cycles)}' height='{height}'>"]
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
        for name in ("why", "fix", "reproduce"):
            if d.get(name):
                out.append(f"<dt>{name}</dt><dd><pre>{escape(str(d[name]))}</pre></dd>")
        if d.get("objects"):
            objects = "".join(f"<li><code>{escape(str(o))}</code></li>" for o in d["objects"])
            out.append(f"<dt>objects</dt><dd><ul>{objects}</ul></dd>")
        out.append("</dl>")
    out.append("</div>")
    return "\n".join(out)
