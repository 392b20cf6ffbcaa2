"""Failure text, terminal summary, JSON/JUnit/SARIF output.

Everything here is pure: defects in, text or JSON-serialisable dicts out.
Values only known after apply are written as ``"(known after apply)"``.

- :func:`format_defects`: the pytest failure message, duplicates collapsed.
- :func:`count_defects` (``report/counts.py``): how many defects, grouped by cause; every
  output below counts with it.
- :func:`summary_lines`: the terminal summary section, grouped by module.
- :func:`json_report`: the ``--converge-report`` document (``schemas/report.schema.json``).
- :func:`sarif_report`: SARIF 2.1.0 for code-scanning UIs.
- :func:`junit_properties`: ``record_property`` pairs for JUnit XML.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from .._version import __version__
from ..analysis.defects import (
    CLASSIFICATIONS,
    ERROR,
    INFO,
    KINDS,
    WARNING,
    Defect,
    DefectKind,
    severity_of,
)
from ..analysis.hints import show
from ..analysis.plan import UNKNOWN, short_address
from ..analysis.source import find_resource
from ..errors import ConvergenceError, DefectError
from .counts import cause, count_defects, group_defects

REPORT_VERSION = 1
SCHEMA_PATH = Path(__file__).parent.parent / "schemas" / "report.schema.json"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/pytest-converge/pytest-converge"

#: One line per defect kind: the summary's legend and the SARIF rules' descriptions.
KIND_HELP: dict[DefectKind, str] = {
    "permanent-diff": "the second and third plans still change an attribute: the module "
    "never converges",
    "needs-second-apply": "the second plan changed something, the third did not: one apply "
    "is not enough",
    "escape-hatch": "a resource is replaced or re-run on every apply (timestamp(), uuid(), "
    "provisioners)",
    "output-change": "only an output value changes on the second plan",
    "drift": "refresh found the object changed outside terraform between apply and plan",
    "reverted-drift": "an object was changed outside terraform (a console fix) and the next "
    "apply sets it back: a plan gate's finding",
    "duplicate": "an object was created twice: one is in state, the other is not",
    "orphan": "an object exists that no state entry accounts for (named by the resource "
    "the fault hit)",
    "recovery-failed": "the clean re-run after a fault failed (with the object the fault "
    "left behind, when the re-run failed on it)",
    "wrong-fixed-point": "after a fault the re-run plans nothing, yet an object differs from "
    "what a clean apply makes (a failed update left the planned value in state)",
    "emulator-difference": "the module converges on one emulator and not on another",
    "unverified": "the scenario created types no inventory lister covers: their duplicates "
    "and orphans were not looked for",
    "untested": "a resource the backend cannot serve (an operation it has no code for) and "
    "what waits on it were left out; the rest of the module was judged (partly verified)",
    "egress": "a run tried to reach a host beyond the emulator (refused: runs stay offline)",
    "stalled": "a terraform command kept repeating one API call against the same answer "
    "(an emulator gap) and was stopped",
    "flapping": "under a loop, two writers set the same field: it changes back and forth "
    "every cycle",
    "unnoticed-drift": "an out-of-band change or deletion the loop's plan never sees: the "
    "estate stays wrong",
    "not-converging": "under a loop, the same change or error repeats cycle after cycle",
    "destructive-correction": "reverting drift would replace or delete a stateful object "
    "(its data is lost)",
    "destructive-upgrade": "upgrading from the released revision replaces or deletes an object "
    "that holds data, or renames one without a `moved` block",
    "upgrade-failed": "applying this revision over the released one failed",
}

#: Order of the per-kind columns in the summary.
_KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}


# -- failure text ---------------------------------------------------------------------------


def convergence_error(defects: Sequence[Defect], header: str, detail: str = "") -> ConvergenceError:
    """The error for ``defects``: their failure text under ``header``, then ``detail``.

    Where the core (Stack, the scenario runner, loop, upgrade) gets a failure worded::

        raise convergence_error(defects, "modules/app does not converge:")
    """
    text = format_defects(defects, header=header)
    return ConvergenceError(text + "\n" + detail if detail else text, defects)


def format_defects(defects: Sequence[Defect], header: str = "") -> str:
    """The failure message: one compact block per distinct defect, written for the module's author.

    Duplicates (same :meth:`Defect.key`, e.g. the same diff found by several
    fault scenarios) are collapsed into one block with a count and the
    scenarios they came from.
    """
    groups = group_defects(d for d in defects if d.severity != INFO)
    lines = [header] if header else []
    count = count_defects(defects)
    if count.findings != count.defects:
        lines.append(count.words())
    for n, (d, occurrences) in enumerate(groups, 1):
        lines.extend(_block(n, d, occurrences))
    lines.extend(_info_lines(defects))
    return "\n".join(lines)


def _info_lines(defects: Sequence[Defect]) -> list[str]:
    """Detail-only findings (drift no planned change needed): one line per resource."""
    found = [d for d, _ in group_defects(d for d in defects if d.severity == INFO)]
    if not found:
        return []
    return [
        f"{len(found)} resource(s) drifted without changing the plan (detail in the JSON "
        "report, --converge-report FILE):"
    ] + [f"   - {d.message}" for d in found]


#: How many element-level changes a finding shows before "... and N more".
_ELEMENTS_SHOWN = 8


def _block(n: int, d: Defect, occurrences: list[Defect]) -> list[str]:
    named: str = d.kind  # the kind as the heading names it, with its classification
    if d.classification and (d.kind != "escape-hatch" or d.classification != "unknown"):
        named += f" ({d.classification})"
    where = d.address or "(no address)"
    if d.attribute and not where.endswith(d.attribute):
        where += f" . {d.attribute}"
    severity = "" if d.severity == ERROR else f" [{d.severity}]"
    if d.emulator_suspected:
        severity += " [suspected emulator gap]"
    if d.confirmed_by:
        severity += f" [confirmed on {d.confirmed_on}]"
    head = f"{n}. {named}{severity}: {where}"
    if len(occurrences) > 1:
        scenarios = sorted({o.scenario for o in occurrences if o.scenario})
        head += f"  (x{len(occurrences)}" + (f": {', '.join(scenarios)})" if scenarios else ")")
    rows: list[tuple[str, str]] = []
    if d.module:
        rows.append(("module", d.module + (f" ({_declared_in(d)})" if d.file else "")))
    # An attribute's null is a value (nothing declared, the API's default); elsewhere
    # a null says only that the finding has no such side.
    if d.attribute or d.declared is not None:
        rows.append(("declared", show(d.declared, 200)))
    if d.attribute or d.observed is not None:
        rows.append(("observed", show(d.observed, 200)))
    for i, element in enumerate(d.elements[:_ELEMENTS_SHOWN]):
        rows.append(("element" if i == 0 else "", _element(element)))
    if len(d.elements) > _ELEMENTS_SHOWN:
        rows.append(("", f"... and {len(d.elements) - _ELEMENTS_SHOWN} more"))
    for label, value in (
        ("what", d.message),
        ("objects", ", ".join(d.objects)),
        ("evidence", d.evidence),
        ("confirmed", _confirmed(d)),
        ("why", d.why),
        ("fix", d.fix),
        ("reproduce", d.reproduce),
    ):
        if value:
            rows.append((label, value))
    return [head] + [f"   {label:<10} {value}" for label, value in rows]


def _confirmed(d: Defect) -> str:
    """``ministack 1.5.33 shows it too (its second plan: 1 to update)``, or ``""``."""
    if not d.confirmed_by:
        return ""
    plan = d.confirmed_by.get("plan")
    return f"{d.confirmed_on} shows it too" + (f" (its second plan: {plan})" if plan else "")


def _declared_in(d: Defect) -> str:
    """``main.tf:5``: the resource's file under the module's own directory where it lies
    there (so the text is the same on every machine), else the file as recorded."""
    file, module = Path(str(d.file)), Path(d.module).parts
    for start in range(len(file.parts) - len(module) - 1, -1, -1):
        if module and file.parts[start : start + len(module)] == module:
            inside = Path(*file.parts[start + len(module) :])
            return f"{inside.as_posix()}:{d.line}"
    return f"{d.file}:{d.line}"


def _element(element: Mapping[str, Any]) -> str:
    """``ingress[0].description: "" -> "web" (dropped)``: observed -> declared."""
    text = (
        f"{element.get('path', '')}: {show(element.get('observed'), 80)} -> "
        f"{show(element.get('declared'), 80)}"
    )
    cls = element.get("classification")
    return text + (f" ({cls})" if cls else "")


# -- terminal summary -----------------------------------------------------------------------


def summary_lines(defects_by_module: Mapping[str, Sequence[Defect]]) -> list[str]:
    """The terminal summary: a table of modules x defect kinds, a legend and a next step.

    Modules mapped to an empty list are shown as converged.
    """
    if not defects_by_module:
        return []
    kinds = sorted(
        {d.kind for found in defects_by_module.values() for d in found if d.severity != INFO},
        key=lambda k: _KIND_ORDER.get(k, len(KINDS)),
    )
    width = max(len("module"), *(len(m) for m in defects_by_module))
    header = f"{'module':<{width}}  {'result':<10}" + "".join(f"  {k:>{len(k)}}" for k in kinds)
    lines = [header, "-" * len(header)]
    for module, found in defects_by_module.items():
        mine = count_defects(found)
        kinds_found = Counter(d.kind for d, _ in group_defects(found) if d.severity != INFO)
        result = (
            "FAILED"
            if mine.errors
            else "partly"
            if any(d.kind == "untested" for d in found)
            else "warnings"
            if mine.warnings
            else "converged"
        )
        row = f"{module:<{width}}  {result:<10}"
        row += "".join(f"  {kinds_found.get(k, 0) or '-':>{len(k)}}" for k in kinds)
        lines.append(row)
    everything = [d for found in defects_by_module.values() for d in found]
    modules = len(defects_by_module)
    lines.append(
        f"{modules} module{'' if modules == 1 else 's'}, {count_defects(everything).words()}"
    )
    classes = Counter(
        d.classification
        for found in defects_by_module.values()
        for d, _ in group_defects(found)
        if d.kind == "permanent-diff" and d.classification
    )
    if classes:
        lines.append(
            "permanent diffs by classification: "
            + ", ".join(f"{c} {n}" for c, n in sorted(classes.items()))
        )
    lines.extend(_suspected_lines(defects_by_module))
    lines.extend(_untested_lines(defects_by_module))
    if kinds:
        lines.append("legend:")
        lines.extend(f"  {k}: {KIND_HELP.get(k, k)}" for k in kinds)
        lines.append("next step: " + _next_step(defects_by_module))
    return lines


def _untested_lines(defects_by_module: Mapping[str, Sequence[Defect]]) -> list[str]:
    """Each module the backend could not serve whole: partly verified, and what was not."""
    lines: list[str] = []
    for module, found in defects_by_module.items():
        parts = partly_verified_of(defect_json(d) for d in found).get(module)
        if not parts:
            continue
        if not lines:
            lines.append("partly verified (the backend cannot serve a part; the rest was judged):")
        for part in parts:
            waiting = f", with {', '.join(part['waiting'])}" if part["waiting"] else ""
            lines.append(
                f"  {module}: {part['address']} untested ({part['operation']} not served){waiting}"
            )
    return lines


def partly_verified_of(defects: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{module: [{"address", "operation", "waiting"}]}`` from ``untested`` findings (as the
    JSON report has them): the part of each module no run could test, once each."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for d in defects:
        if d.get("kind") != "untested" or not d.get("address"):
            continue
        found.setdefault(str(d.get("module", "")), {}).setdefault(
            str(d["address"]),
            {
                "address": str(d["address"]),
                "operation": str(d.get("observed", "")),
                "waiting": list(d.get("waiting") or []),
            },
        )
    return {m: list(parts.values()) for m, parts in sorted(found.items())}


def _suspected_lines(defects_by_module: Mapping[str, Sequence[Defect]]) -> list[str]:
    """Each suspected emulator gap, one line: listed even when its test passed."""
    found = [
        d
        for found in defects_by_module.values()
        for d, _ in group_defects(found)
        if d.emulator_suspected
    ]
    if not found:
        return []
    lines = [
        f"suspected emulator gaps ({len(found)} of the defects above, probably not the module's):"
    ]
    for d in found:
        where = (d.address or "(module)") + (f" . {d.attribute}" if d.attribute else "")
        evidence = d.evidence if len(d.evidence) <= 160 else d.evidence[:157] + "..."
        lines.append(f"  {d.module}: {d.kind} ({d.classification}) {where}: {evidence}")
    return lines


def _next_step(defects_by_module: Mapping[str, Sequence[Defect]]) -> str:
    for found in defects_by_module.values():
        for d in sorted(found, key=lambda d: d.severity != ERROR):
            if d.reproduce:
                return f"reproduce the first one with: {d.reproduce}"
    return "rerun the failing module with -x -vv to see each defect's fix"


# -- JSON report ----------------------------------------------------------------------------


def jsonable(value: Any) -> Any:
    """``value`` with UNKNOWN, tuples, sets, Paths and dataclasses made JSON-serialisable."""
    if value is UNKNOWN:
        return "(known after apply)"
    if isinstance(value, Defect):
        return jsonable(value.to_dict())
    if is_dataclass(value) and not isinstance(value, type):
        return jsonable(asdict(value))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((jsonable(v) for v in value), key=repr)
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def defect_json(defect: Defect) -> dict[str, Any]:
    """A defect as the JSON report, the user properties and xdist carry it (the one way):
    its fields and its ``cause`` (:func:`~.counts.cause`, shared by the findings of one defect)."""
    return {**jsonable(defect.to_dict()), "cause": cause(defect)}


def ran_with(toolchain: Mapping[str, Any]) -> str:
    """A module's toolchain record in words, as a failure header and the HTML page name it::

    >>> ran_with({"engine": {"flavor": "terraform", "version": "1.11.4"},
    ...           "providers": {"registry.terraform.io/hashicorp/aws": "5.100.0"},
    ...           "backend": {"name": "ministack", "version": "1.5.33"}})
    'terraform 1.11.4, hashicorp/aws 5.100.0, on ministack 1.5.33'
    """
    engine = toolchain.get("engine") or {}
    words = [f"{engine.get('flavor', '')} {engine.get('version', '')}".strip()]
    providers = toolchain.get("providers") or {}
    words += [f"{short_address(a)} {v}" for a, v in sorted(providers.items())]
    backend = toolchain.get("backend") or {}
    if backend.get("name"):
        words.append(" ".join(["on", *(str(v) for v in backend.values() if v)]))
    return ", ".join(w for w in words if w)


def json_report(
    modules: Iterable[str | os.PathLike[str]],
    scenarios: Iterable[Mapping[str, Any] | object],
    defects: Iterable[Defect],
    loops: Iterable[Mapping[str, Any]] = (),
    toolchains: Mapping[str, Mapping[str, Any]] | None = None,
    fidelity: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The ``--converge-report`` document (validates against ``schemas/report.schema.json``).

    ``modules`` are names/paths (strings or Paths); ``scenarios`` are mappings
    or objects with ``module``, ``scenario``, ``outcome`` and ``seconds``;
    ``loops`` are continuous-loop records (``LoopReport.to_dict()`` plus ``test``);
    ``toolchains`` maps a module to the engine, provider versions and emulator its runs
    used (``{"engine": {"flavor", "version"}, "providers": {address: version},
    "backend": {"name", "version"}}``); ``fidelity`` the behaviours of the emulator's
    fidelity layer it left out, and why.
    """
    entries = [_scenario(s) for s in scenarios]
    defects = list(defects)
    # Created types no inventory lister covers, over every scenario (zero-code items
    # record them per scenario, fixture tests as `unverified` defects): leftovers of
    # these were never looked for.
    unverified = {t for e in entries for t in e.get("unverified_types", [])}
    for d in defects:
        if d.kind == "unverified" and isinstance(d.observed, list):
            unverified.update(str(t) for t in d.observed)
    return {
        "version": REPORT_VERSION,
        "modules": [str(m) for m in modules],
        "toolchains": {str(m): jsonable(dict(tc)) for m, tc in sorted((toolchains or {}).items())},
        "scenarios": entries,
        "counts": count_defects(defects).to_dict(),
        "defects": [defect_json(d) for d in defects],
        "unverified_types": sorted(unverified),
        "partly_verified": partly_verified_of(defect_json(d) for d in defects),
        "loops": [jsonable(dict(loop)) for loop in loops],
        "fidelity": dict(sorted((fidelity or {}).items())),
    }


def _scenario(item: Mapping[str, Any] | object) -> dict[str, Any]:
    get = (
        item.get if isinstance(item, Mapping) else lambda k, default=None: getattr(item, k, default)
    )
    seconds = get("seconds", 0.0)
    entry = {
        "module": str(get("module", "")),
        "scenario": str(get("scenario", "")),
        "outcome": str(get("outcome", "")),
        "seconds": round(float(seconds or 0.0), 3),
    }
    unverified = get("unverified_types", None)
    if unverified:
        entry["unverified_types"] = sorted(str(t) for t in unverified)
    untested = get("untested", None)
    if isinstance(untested, Mapping) and untested:
        entry["untested"] = {str(a): str(op) for a, op in untested.items()}
    hit = get("fault_address", None)
    if hit:
        entry["fault_address"] = str(hit)
    decided = get("decided_by", None)
    if isinstance(decided, Mapping):
        by: dict[str, object] = {
            "run": int(decided.get("run", 0)),
            "points": int(decided.get("points", 1)),
            "seconds": round(float(decided.get("seconds", 0.0)), 3),
        }
        if decided.get("shares"):
            by["shares"] = str(decided["shares"])
        entry["decided_by"] = by
    # Upgrade items: the revision and the upgrade plan's action per address.
    old = get("upgrade_from", None)
    if old:
        entry["upgrade_from"] = str(old)
    actions = get("actions", None)
    if isinstance(actions, Mapping):
        entry["actions"] = {str(a): str(action) for a, action in actions.items()}
    return entry


def load_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`json_report` (shipped as package data)."""
    return json.loads(SCHEMA_PATH.read_text())


# -- SARIF ----------------------------------------------------------------------------------


def sarif_report(
    defects: Iterable[Defect],
    root: Path,
    version: str | None = None,
    toolchains: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict:
    """SARIF 2.1.0: one rule per defect kind, one result per distinct defect.

    Locations are the resource block's file and line, relative to ``root``
    (the repository), taken from ``Defect.file``/``line`` or, failing that,
    looked up in ``root / defect.module``. ``toolchains`` (as in
    :func:`json_report`) go in the run's properties, and each result names
    its module's engine and providers.
    """
    toolchains = {str(m): jsonable(dict(tc)) for m, tc in (toolchains or {}).items()}
    root = Path(root).resolve()
    rules = [_rule(kind) for kind in KINDS]
    index = {kind: i for i, kind in enumerate(KINDS)}
    results = []
    for d, occurrences in group_defects(defects):
        result: dict[str, Any] = {
            "ruleId": d.kind,
            "ruleIndex": index[d.kind],
            "level": _SARIF_LEVEL.get(d.severity, "warning"),
            "message": {"text": _sarif_message(d)},
            "partialFingerprints": {"convergeDefect/v1": cause(d)},
            "properties": jsonable(
                {
                    "module": d.module,
                    "scenarios": sorted({o.scenario for o in occurrences if o.scenario}),
                    "attribute": d.attribute,
                    "declared": d.declared,
                    "observed": d.observed,
                    "classification": d.classification,
                    "emulator_suspected": d.emulator_suspected,
                    "evidence": d.evidence,
                    "confirmed_by": d.confirmed_by,
                    "fix": d.fix,
                    "objects": d.objects,
                    "reproduce": d.reproduce,
                    "toolchain": toolchains.get(d.module),
                }
            ),
        }
        location: dict[str, Any] = {}
        physical = _physical_location(d, root)
        if physical:
            location["physicalLocation"] = physical
        if d.address:
            location["logicalLocations"] = [
                {"fullyQualifiedName": d.address, "name": d.address, "kind": "resource"}
            ]
        if location:
            result["locations"] = [location]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "pytest-converge",
                        "version": version or _package_version(),
                        "informationUri": TOOL_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": root.as_uri() + "/"}},
                "results": results,
                "properties": {"toolchains": dict(sorted(toolchains.items()))},
            }
        ],
    }


_SARIF_LEVEL = {ERROR: "error", WARNING: "warning", INFO: "note"}


def _rule(kind: DefectKind) -> dict[str, Any]:
    text = KIND_HELP.get(kind, kind)
    warning = severity_of(kind) == WARNING
    help_text = text[0].upper() + text[1:] + "."
    if kind == "permanent-diff":
        help_text += " Classifications: " + ", ".join(CLASSIFICATIONS) + "; each result's fix "
        help_text += "names the change to make."
    return {
        "id": kind,
        "name": "".join(part.title() for part in kind.split("-")),
        "shortDescription": {"text": text},
        "fullDescription": {"text": help_text},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": "warning" if warning else "error"},
    }


def _sarif_message(d: Defect) -> str:
    parts = [d.message or f"{d.kind}: {d.address}"]
    if d.classification and d.kind == "permanent-diff":
        parts.append(f"Classification: {d.classification}.")
    if d.emulator_suspected:
        parts.append(f"Suspected emulator gap: {d.evidence}.")
    if d.confirmed_by:
        parts.append(f"Confirmed: {_confirmed(d)}.")
    if d.why:
        parts.append(f"Why: {d.why}.")
    if d.fix:
        parts.append(f"Fix: {d.fix}")
    return " ".join(parts)


def _physical_location(d: Defect, root: Path) -> dict[str, Any] | None:
    file, line = d.file, d.line
    if file is None and d.address and d.module:
        found = find_resource(root / d.module, d.address)
        if found is not None:
            file, line = str(found.file), found.line
    if file is None:
        return None
    path = Path(file)
    if not path.is_absolute():
        path = root / path
    try:
        uri = path.resolve().relative_to(root.resolve()).as_posix()
        artifact = {"uri": uri, "uriBaseId": "SRCROOT"}
    except ValueError:
        # Outside the repository root: an absolute file URI still locates it.
        artifact = {"uri": path.resolve().as_uri()}
    physical: dict[str, Any] = {"artifactLocation": artifact}
    if line:
        physical["region"] = {"startLine": int(line)}
    return physical


def _package_version() -> str:

    return __version__


# -- JUnit ----------------------------------------------------------------------------------


def junit_properties(defect: Defect) -> list[tuple[str, str]]:
    """``(name, value)`` pairs for ``record_property``, all strings, prefixed ``converge.``."""
    pairs = [
        ("converge.kind", defect.kind),
        ("converge.severity", defect.severity),
        ("converge.module", defect.module),
        ("converge.scenario", defect.scenario),
        ("converge.address", defect.address or ""),
        ("converge.attribute", defect.attribute or ""),
        ("converge.classification", defect.classification or ""),
        ("converge.emulator_suspected", "true" if defect.emulator_suspected else "false"),
        ("converge.evidence", defect.evidence),
        ("converge.declared", show(defect.declared, 500)),
        ("converge.observed", show(defect.observed, 500)),
        ("converge.fix", defect.fix),
    ]
    if defect.confirmed_by:
        pairs.append(("converge.confirmed_by", defect.confirmed_on))
    if defect.objects:
        pairs.append(("converge.objects", ", ".join(defect.objects)))
    if defect.reproduce:
        pairs.append(("converge.reproduce", defect.reproduce))
    if defect.file:
        pairs.append(("converge.location", f"{defect.file}:{defect.line or 1}"))
    if defect.severity != INFO:  # detail is no defect: it has no cause to count
        pairs.append(("converge.cause", cause(defect)))
    return [(name, value) for name, value in pairs if value]


def junit_suite_properties(defects: Iterable[Defect]) -> list[tuple[str, str]]:
    """The run's ``<testsuite>`` properties: :func:`count_defects` of all its findings.

    The distinct ``converge.cause`` values of the test cases are ``converge.defects``.
    """
    count = count_defects(defects)
    return [
        ("converge.defects", str(count.defects)),
        ("converge.errors", str(count.errors)),
        ("converge.warnings", str(count.warnings)),
        ("converge.findings", str(count.findings)),
        ("converge.scenarios", str(count.scenarios)),
        ("converge.summary", count.words()),
    ]


# -- merging shards -------------------------------------------------------------------------


class ReportError(ValueError):
    """A report file cannot be merged: unreadable, not JSON, or another format version."""


def merge_reports(documents: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One ``--converge-report`` document from those of several shards (or runs).

    Modules are united; scenarios and defects are concatenated in the order
    given. Each document must be a version-1 report (:func:`json_report`).
    """
    modules: list[str] = []
    scenarios: list[Mapping[str, Any]] = []
    defects: list[Mapping[str, Any]] = []
    unverified: set[str] = set()
    loops: list[Mapping[str, Any]] = []
    toolchains: dict[str, Mapping[str, Any]] = {}
    fidelity: dict[str, str] = {}
    for i, doc in enumerate(documents):
        if not isinstance(doc, Mapping) or doc.get("version") != REPORT_VERSION:
            found = doc.get("version") if isinstance(doc, Mapping) else type(doc).__name__
            raise ReportError(
                f"document {i + 1} is not a version {REPORT_VERSION} pytest-converge report "
                f"(version: {found!r}); write it with --converge-report"
            )
        for module in doc.get("modules", []):
            if module not in modules:
                modules.append(module)
        scenarios.extend(doc.get("scenarios", []))
        defects.extend(doc.get("defects", []))
        unverified.update(doc.get("unverified_types", []))
        loops.extend(doc.get("loops", []))
        toolchains.update(doc.get("toolchains", {}))
        fidelity.update(doc.get("fidelity", {}))
    return {
        "version": REPORT_VERSION,
        "modules": sorted(modules),
        "toolchains": dict(sorted(toolchains.items())),
        "scenarios": [_scenario(s) for s in scenarios],
        "counts": _counts(defects),
        "defects": defects,
        "unverified_types": sorted(unverified),
        "partly_verified": partly_verified_of(defects),
        "loops": loops,
        "fidelity": dict(sorted(fidelity.items())),
    }


def _counts(defects: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """:func:`count_defects` of report entries (their findings as the JSON has them)."""
    try:
        return count_defects(Defect.from_dict(dict(d)) for d in defects).to_dict()
    except (DefectError, TypeError, ValueError) as exc:
        raise ReportError(f"a defect is not one a pytest-converge report holds: {exc}") from None


def _read_report(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise ReportError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ReportError(
            f"{path}: not JSON ({exc}); pass files written by --converge-report"
        ) from None
    try:
        return merge_reports([data])
    except ReportError as exc:
        raise ReportError(f"{path}: {str(exc).removeprefix('document 1 ')}") from None
