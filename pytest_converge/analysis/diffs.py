"""Second-plan analysis: every change a converged module would not have.

The plan after a successful apply should be empty. Whatever it still changes
becomes a :class:`~pytest_converge.analysis.defects.Defect`, in this order:

1. escape hatches (a resource replaced/re-run on every run by design),
2. attribute diffs, ``permanent-diff`` when the plan after that (``third``)
   still has them, ``needs-second-apply`` (a warning) when it does not,
3. output-only changes (``output-change``),
4. drift found by refresh (``drift``): only drift terraform says contributed to
   a planned change (the plan's ``relevant_attributes``) is a warning; the
   rest is one ``info`` line per resource. A drifted object that another
   resource of the same configuration wrote (``writers``) is named as a second
   writer of the same field, with the one-writer-per-field fix.

Changes to several elements of one list/set/map attribute are one finding
(the attribute) with the element-level detail in ``Defect.elements``.

Each defect is classified (:mod:`.classify`) and carries a ``why`` and a
``fix`` (:mod:`.hints`); with ``module_dir`` it also points at the resource
block's file and line (:mod:`.source`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import hints
from .addresses import Address
from .classify import as_classification, classify_with
from .defects import INFO, WARNING, Defect, DefectKind
from .escape import (
    escape_hatch_defects,
    find_triggers,
    follows_a_replacement,
    provisioner_types,
)
from .plan import (
    SENSITIVE,
    UNKNOWN,
    AttributeChange,
    Plan,
    ResourceChange,
    diff_values,
    holds_unknown,
    top_attribute,
)
from .source import attribute_expression, find_resource
from .writers import natural

Classifier = Callable[[str, str, Any, Any], "str | None"]
#: Drifted address -> field -> the other resources that wrote that field.
Writers = Mapping[str, Mapping[str, Sequence[str]]]

__all__ = ["SENSITIVE", "locate", "plan_defects"]


def plan_defects(
    second: Plan,
    third: Plan | None = None,
    *,
    module: str = "",
    scenario: str = "two-run",
    classify: Classifier | None = None,
    module_dir: Path | None = None,
    reproduce: str = "",
    writers: Writers | None = None,
) -> list[Defect]:
    """Defects from the plan after a successful apply (and the one after that).

    A change still present in ``third`` is permanent; one that went away is
    ``needs-second-apply`` (a warning). Without ``third`` every change counts
    as permanent. ``classify`` is ``(address, attribute, declared, observed)
    -> classification | None`` (default: the built-in rules); ``module_dir``
    (the user's module, not a workspace copy) lets defects name the file and
    line of each resource and the source expression of an escape hatch's
    trigger. ``reproduce`` is copied onto every defect. ``writers`` maps a
    drifted address and field to the other resources of the configuration that
    wrote that field during apply (:func:`~.writers.sibling_writers`).
    """
    classifier = classify or classify_with(None)
    ctx = _Context(module, scenario, module_dir, classifier)
    remaining = _remaining(third)
    defects: list[Defect] = []
    for rc in second.changes:
        defects.extend(_resource_defects(rc, second, remaining, ctx))
    flapped = _flapped(second, third, ctx)
    conflicts = _second_writer_conflicts(defects, second, writers or {})
    _add_flapped(defects, flapped, conflicts)
    defects.extend(_output_defects(second, third, ctx))
    defects.extend(_drift_findings(second, ctx, conflicts, writers or {}))
    for defect in defects:
        defect.reproduce = defect.reproduce or reproduce
    return defects


def _flapped(second: Plan, third: Plan | None, ctx: _Context) -> list[Defect]:
    """The changes new in ``third``: the apply in between caused them, so the
    module flaps, it does not settle."""
    if third is None:
        return []
    seen = set(second.addresses())
    flapped: list[Defect] = []
    for rc in third.changes:
        if rc.address not in seen:
            for defect in _resource_defects(rc, third, None, ctx):
                defect.message += " (new in the third plan: the apply of the second undid it)"
                flapped.append(defect)
    return flapped


def _add_flapped(
    defects: list[Defect], flapped: list[Defect], conflicts: Mapping[str, set[str]]
) -> None:
    """Append the flapped changes to ``defects``, except a second writer that a
    conflict's apply undid: it is re-created next, part of that finding, whose
    message then says so."""
    undone = {w for d in defects if d.writers and d.kind == "permanent-diff" for w in d.writers}
    for defect in flapped:
        if defect.address not in undone:
            defects.append(defect)
    if undone & {d.address for d in flapped}:
        for d in defects:
            if set(d.writers) & undone and d.address in conflicts:
                d.message += " The next plan re-creates them."


def _output_defects(second: Plan, third: Plan | None, ctx: _Context) -> list[Defect]:
    """One ``output-change`` per output ``second`` changes (transient when
    ``third`` no longer changes it)."""
    third_outputs = {o.name for o in third.outputs} if third is not None else None
    return [
        _output_defect(out, third_outputs is not None and out.name not in third_outputs, ctx)
        for out in second.outputs
    ]


def _drift_findings(
    second: Plan, ctx: _Context, conflicts: Mapping[str, set[str]], writers: Writers
) -> list[Defect]:
    """The drift ``second``'s refresh found, less what a second-writer conflict
    already explains."""
    relevant = second.relevant
    planned = {
        rc.address: {top_attribute(a.path) or "(object)" for a in rc.attributes}
        for rc in second.changes
    }
    defects: list[Defect] = []
    for rc in second.drift:
        explained = conflicts.get(rc.address, set())
        if explained:
            kept = [
                a
                for a in rc.attributes
                if top_attribute(a.path) not in explained
                and not (_empty(a.observed) and _empty(a.declared))
            ]
            if not kept:
                continue
            rc = replace(rc, attributes=kept)
        defects.extend(
            _drift_defects(
                rc,
                ctx,
                relevant.get(rc.address, set()),
                writers.get(rc.address, {}),
                planned.get(rc.address, set()),
            )
        )
    return defects


class _Context:
    """What every defect of one plan shares."""

    def __init__(
        self, module: str, scenario: str, module_dir: Path | None, classifier: Classifier
    ) -> None:
        self.module = module
        self.scenario = scenario
        self.module_dir = module_dir
        self.classifier = classifier

    def classify(self, address: str, attribute: str, declared: Any, observed: Any) -> str:
        """A classification (a user's :class:`~.classify.Classification` keeps its why/fix)."""
        result = self.classifier(address, attribute, declared, observed)
        return as_classification(result, f"{address} {attribute}")

    def classify_shown(
        self, address: str, attribute: str, values: tuple[Any, Any], shown: tuple[Any, Any]
    ) -> str:
        """A classification of a value with sensitive leaves: first on what can be shown
        (the same placeholder for a secret on both sides, so a write-only secret read
        back empty after the API reordered its block does not hide the order), then,
        if that explains nothing, on the values themselves."""
        if shown != values:
            found = self.classify(address, attribute, *shown)
            if found != "unknown":
                return found
        return self.classify(address, attribute, *values)

    def locate(self, defect: Defect) -> Defect:
        """Fill in the resource block's file and line when the module is known."""
        return locate(defect, self.module_dir)


def locate(defect: Defect, module_dir: Path | None) -> Defect:
    """``defect`` with its resource block's file and line in ``module_dir`` (when known)."""
    if module_dir is not None and defect.address and defect.file is None:
        location = find_resource(module_dir, defect.address)
        if location is not None:
            defect.file, defect.line = str(location.file), location.line
    return defect


def _second_writer_conflicts(
    defects: list[Defect], second: Plan, writers: Writers
) -> dict[str, set[str]]:
    """Turn planned changes of a field that a sibling resource also writes into that finding.

    The object drifted in that field (the sibling wrote it after terraform
    recorded the object) and the plan changes it back: each apply undoes the
    other writer, so the module never settles. Returns address -> the fields.
    """
    drifted = {rc.address: {top_attribute(a.path) for a in rc.attributes} for rc in second.drift}
    found: dict[str, set[str]] = {}
    for d in defects:
        address = d.address or ""
        top = top_attribute(d.attribute or "")
        others = list(writers.get(address, {}).get(top, ()))
        if d.kind not in _CHANGE_KINDS or not others or top not in drifted.get(address, ()):
            continue
        d.kind, d.severity, d.writers = "permanent-diff", "error", others
        d.message = (
            f"{d.address} {top} is also written by {_names(others)}: the plan undoes their "
            f"write, and the next apply of theirs undoes this one. "
            + d.message.removesuffix(_GONE_NEXT)
        )
        d.why = _SECOND_WRITER_WHY
        d.fix = _second_writer_fix(address, top, others)
        found.setdefault(address, set()).add(top)
    return found


_CHANGE_KINDS = ("permanent-diff", "needs-second-apply")
_GONE_NEXT = "; the plan after the next apply no longer has it"


def _remaining(third: Plan | None) -> dict[str, set[str]] | None:
    """Address -> attribute paths still changing in ``third`` (None: no third plan)."""
    if third is None:
        return None
    return {rc.address: {a.path for a in rc.attributes} for rc in third.changes}


def _resource_defects(
    rc: ResourceChange, plan: Plan, remaining: dict[str, set[str]] | None, ctx: _Context
) -> list[Defect]:
    gone = remaining is not None and rc.address not in remaining
    if _deferred_read(rc):
        return []  # the pending change of what it depends on is the finding
    if follows_a_replacement(plan.raw, rc, _replaced(plan)):
        return []  # the replaced resource it refers to is the finding
    if not gone:
        provisioners = provisioner_types(plan.raw, rc)
        triggers = find_triggers(rc, bool(provisioners))
        if triggers:
            found = escape_hatch_defects(
                rc,
                triggers,
                module=ctx.module,
                scenario=ctx.scenario,
                module_dir=ctx.module_dir,
                provisioners=provisioners,
            )
            return [ctx.locate(d) for d in found]
    if not rc.attributes:
        return [ctx.locate(_whole_resource(rc, gone, ctx))]
    still = remaining.get(rc.address, set()) if remaining is not None else None
    found = []
    for group in _by_attribute(_causes(rc)):
        transient = still is not None and all(a.path not in still for a in group)
        if len(group) == 1:
            found.append(_attribute_defect(rc, group[0], transient, ctx))
        else:
            found.append(_group_defect(rc, group, transient, ctx))
    return [ctx.locate(d) for d in found]


def _replaced(plan: Plan) -> set[str]:
    """The config addresses of the resources ``plan`` replaces, and of the data sources it
    reads again at apply because something they depend on has a change pending: what is
    built from either is unknown until apply."""
    found = set()
    for change in plan.changes:
        if change.action == "replace" or _deferred_read(change):
            address = Address.parse(change.address)
            found.add(address.config if address is not None else change.address)
    return found


def _deferred_read(rc: ResourceChange) -> bool:
    """A data source terraform reads at apply only because a resource it depends on
    (``depends_on``, or a reference) has a change pending: a consequence of that change,
    which is a finding of its own, never a finding itself (e.g. a records module's
    ``data.aws_route53_zone`` behind ``depends_on = [module.zones]``)."""
    return rc.mode == "data" and rc.action_reason == "read_because_dependency_pending"


def _causes(rc: ResourceChange) -> list[AttributeChange]:
    """The attribute changes that say why ``rc`` changes, without their consequences.

    A replacement makes every computed attribute (``id``, ``arn``) "known
    after apply" and resets unset ones (null vs ``{}``): those follow from
    the attribute that forces the replacement and are not findings of their own.
    """
    attrs = [a for a in rc.attributes if not _mirrors_tags(a.path, rc)]
    concrete = [a for a in attrs if not (_empty(a.observed) and _empty(a.declared))] or attrs
    if rc.action == "replace" and any(a.forces_replacement for a in concrete):
        return [a for a in concrete if a.forces_replacement or a.declared is not UNKNOWN]
    return concrete


def _by_attribute(attrs: list[AttributeChange]) -> list[list[AttributeChange]]:
    """Changes grouped by their top-level attribute (``tags.a`` and ``tags.b``: ``tags``)."""
    groups: dict[str, list[AttributeChange]] = {}
    for attr in attrs:
        groups.setdefault(top_attribute(attr.path), []).append(attr)
    return list(groups.values())


def _group_defect(
    rc: ResourceChange, group: list[AttributeChange], transient: bool, ctx: _Context
) -> Defect:
    """One finding for several changed elements of one list/set/map attribute."""
    top = top_attribute(group[0].path)
    sensitive = any(a.sensitive for a in group)
    elements = []
    classes = []
    for attr in group:
        # Classified on the values; only the sensitive leaves are hidden when shown.
        cls = ctx.classify(rc.address, attr.path, attr.declared, attr.observed)
        classes.append(cls)
        shown_declared, shown_observed = attr.shown()
        elements.append(
            {
                "path": attr.path,
                "declared": _shown(shown_declared),
                "observed": shown_observed,
                "classification": str(cls),
            }
        )
    declared = _top_value(rc.after, top)
    observed = _top_value(rc.before, top)
    classification = classes[0] if len(set(classes)) == 1 else "unknown"
    if classification == "unknown":
        # Elements paired by index (blocks of a set, read back in another order) each
        # look unexplained; the attribute as a whole may still be one normalisation.
        shown = rc.shown_top(top) if sensitive else (declared, observed)
        classification = ctx.classify_shown(rc.address, top, (declared, observed), shown)
    if classification == "unknown" and "unknown" not in classes:
        # Every element explained: a set block that reads back as a new element has its
        # unset fields (null vs 0 or "") follow from the one real cause.
        classification = _one_cause(classes)
    if classification == "unknown" and sensitive and rc.shown_top(top) == (SENSITIVE, SENSITIVE):
        # A set of blocks with a sensitive member is sensitive whole (terraform's mask
        # is `"user": true` for aws_mq_broker's users), so nothing can be shown to
        # classify, and its blocks come in hash order: a block whose secret reads back
        # otherwise moves, and blocks paired by position explain nothing.
        classification = _paired_by_content(rc.address, top, declared, observed, ctx)
    counted = ", ".join(f"{n} {c}" for c, n in sorted(_count(classes).items()))
    message = f"{rc.address} {rc.action}: {top}: {len(group)} element changes ({counted})" + (
        " (forces replacement)" if any(a.forces_replacement for a in group) else ""
    )
    if sensitive:
        declared, observed = rc.shown_top(top)
    common = {
        "address": rc.address,
        "attribute": top,
        "declared": _shown(declared),
        "observed": observed,
        "classification": str(classification),
        "module": ctx.module,
        "scenario": ctx.scenario,
        "elements": elements,
    }
    if transient:
        return Defect(
            kind="needs-second-apply",
            severity=WARNING,
            message=message + _GONE_NEXT,
            why=_TRANSIENT_WHY,
            fix=_TRANSIENT_FIX,
            **common,
        )
    first = group[0]
    return Defect(
        kind="permanent-diff",
        message=message,
        why=hints.why(classification, *first.shown()),
        fix=hints.fix(classification, top, declared, observed),
        **common,
    )


def _one_cause(classes: list[str]) -> str:
    """The one class of ``classes`` besides ``default`` (the unset fields of a block that
    follow from it); ``unknown`` when there is not exactly one, or one is unknown."""
    causes = {c for c in classes if c != "default"}
    return next(iter(causes)) if len(causes) == 1 and "unknown" not in causes else "unknown"


def _paired_by_content(address: str, top: str, declared: Any, observed: Any, ctx: _Context) -> str:
    """The class of a list of blocks' changes with each declared block paired with the
    observed block closest to it (fewest differing fields) rather than the one at its
    index: the blocks of a set have no order of their own."""
    if not (_dicts(declared) and _dicts(observed)) or len(declared) != len(observed):
        return "unknown"
    rest = list(range(len(observed)))
    classes = []
    for i, block in enumerate(declared):
        j = min(rest, key=lambda k: len(diff_values(observed[k], block)))
        rest.remove(j)
        for path, was, wanted in diff_values(observed[j], block, f"{top}[{i}]"):
            classes.append(ctx.classify(address, path, wanted, was))
    return _one_cause(classes) if classes else "unknown"


def _dicts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


def _top_value(value: Any, top: str) -> Any:
    return value.get(top) if isinstance(value, dict) else None


def _shown(value: Any) -> Any:
    return "(known after apply)" if value is UNKNOWN else value


def _count(items: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[str(item)] = counts.get(str(item), 0) + 1
    return counts


def _mirrors_tags(path: str, rc: ResourceChange) -> bool:
    """``tags_all.k`` is ``tags.k`` merged with provider default_tags: report it once.

    Its declared side is only known after apply, so on its own it would be an
    ``unknown`` finding that says nothing the ``tags.k`` finding does not.
    """
    if not path.startswith("tags_all"):
        return False
    mirrored = "tags" + path[len("tags_all") :]
    return any(
        a.path == mirrored or (a.path == "tags" and path == "tags_all") for a in rc.attributes
    )


def _attribute_defect(
    rc: ResourceChange, attr: AttributeChange, transient: bool, ctx: _Context
) -> Defect:
    # Classified on the values; shown with only the sensitive leaves hidden.
    declared, observed = attr.shown()
    classification = ctx.classify_shown(
        rc.address, attr.path, (attr.declared, attr.observed), (declared, observed)
    )
    declared_text = hints.show(declared)
    expression = _expression(rc.address, attr.path, ctx)
    if expression:
        declared_text += f" (written as {attr.path} = {expression})"
    message = (
        f"{rc.address} {rc.action}: {attr.path}: {hints.show(observed)} -> {declared_text}"
        + (" (forces replacement)" if attr.forces_replacement else "")
    )
    if declared is UNKNOWN:
        declared = "(known after apply)"
    kind: DefectKind
    if transient:
        kind, severity = "needs-second-apply", WARNING
        message, why, fix = message + _GONE_NEXT, _TRANSIENT_WHY, _TRANSIENT_FIX
    else:
        kind, severity = "permanent-diff", ""  # "": the kind's own severity
        # A sensitive value is never shown, not even in the fix ("declare it as ...").
        shown = attr.shown()
        why = hints.why(classification, *shown, attribute=attr.path, resource_type=rc.type)
        fix = hints.fix(classification, attr.path, *shown, resource_type=rc.type)
    return Defect(
        kind=kind,
        address=rc.address,
        attribute=attr.path,
        declared=declared,
        observed=observed,
        classification=str(classification),
        module=ctx.module,
        scenario=ctx.scenario,
        severity=severity,
        message=message,
        why=why,
        fix=fix,
    )


_TRANSIENT_WHY = (
    "an attribute was only readable after creation (eventual consistency) or depended on "
    "another resource applied later in the same run"
)
_TRANSIENT_FIX = "add the missing depends_on, or accept that the first apply is not final"


def _whole_resource(rc: ResourceChange, transient: bool, ctx: _Context) -> Defect:
    """A change with no attribute-level diff: the object is created/deleted again."""
    if rc.action == "create":
        what = "created again: the provider's read no longer finds the object it created"
        why = (
            "the read after apply does not find the object (the API lost it, or the id the "
            "provider stored does not match what the API returns), so terraform plans it anew"
        )
    else:
        what = f"{rc.action}d although nothing in it differs"
        why = hints.WHY["unknown"]
    return Defect(
        kind="needs-second-apply" if transient else "permanent-diff",
        address=rc.address,
        classification="unknown",
        module=ctx.module,
        scenario=ctx.scenario,
        severity=WARNING if transient else "error",
        message=f"{rc.address} would be {what}"
        + (f" ({rc.action_reason})" if rc.action_reason else ""),
        why=_TRANSIENT_WHY if transient else why,
        fix=_TRANSIENT_FIX
        if transient
        else "check that the object's id/name in the configuration matches what the API "
        "returns (e.g. a name the API rewrites), and that the emulator keeps the object",
    )


def _output_defect(out: Any, transient: bool, ctx: _Context) -> Defect:
    classification = ctx.classify(f"output.{out.name}", out.name, out.declared, out.observed)
    declared = out.declared if out.declared is not UNKNOWN else "(known after apply)"
    observed = out.observed
    # A sensitive value is never shown, not even in the why or the fix ("write output x = ...").
    shown = (SENSITIVE, SENSITIVE) if out.sensitive else (out.declared, out.observed)
    if out.sensitive:
        declared = observed = SENSITIVE
    return Defect(
        kind="needs-second-apply" if transient else "output-change",
        address=f"output.{out.name}",
        attribute=out.name,
        declared=declared,
        observed=observed,
        classification=str(classification),
        module=ctx.module,
        scenario=ctx.scenario,
        severity=WARNING if transient else "error",
        message=f"output {out.name} changes on the second plan: "
        f"{hints.show(observed)} -> {hints.show(declared)}",
        why="the output is computed from a value that is recomputed on every run (a "
        "resource replaced each apply, timestamp(), uuid()) or only known after apply"
        if holds_unknown(out.declared)
        else hints.why(classification, *shown),
        fix="derive the output from attributes that converge (ids, names, content hashes), "
        "not from a value recomputed on every run"
        if holds_unknown(out.declared) or classification == "unknown"
        else hints.fix(classification, f"output {out.name}", *shown),
    )


def _drift_defects(
    rc: ResourceChange,
    ctx: _Context,
    relevant: set[str],
    writers: Mapping[str, Sequence[str]],
    planned: set[str] | None = None,
) -> list[Defect]:
    """Relevant drift as warnings; the rest of the resource's drift as one info line
    (``planned``: the resource's attributes the plan changes, told as set back by it)."""
    # In resource_drift, before = what terraform recorded, after = what refresh read:
    # parse_plan's observed/declared are the other way round here.
    attrs = rc.attributes or [AttributeChange("", rc.after, rc.before)]
    # null -> {} (and back) is refresh noise, not a change anyone made.
    attrs = [a for a in attrs if not (_empty(a.observed) and _empty(a.declared))] or attrs
    wanted = [a for a in attrs if "*" in relevant or top_attribute(a.path) in relevant]
    rest = [a for a in attrs if a not in wanted]
    found = [
        _relevant_drift(rc, group, ctx, list(writers.get(top_attribute(group[0].path), ())))
        for group in _by_attribute(wanted)
    ]
    if rest:
        # Only the writers of the fields this line names.
        named = {top_attribute(a.path) for a in rest}
        others = sorted({w for f in named for w in writers.get(f, ())}, key=natural)
        found.append(_background_drift(rc, rest, ctx, others, planned))
    return [ctx.locate(d) for d in found]


def _relevant_drift(
    rc: ResourceChange, group: list[AttributeChange], ctx: _Context, writers: list[str]
) -> Defect:
    path = group[0].path if len(group) == 1 else top_attribute(group[0].path)
    if len(group) == 1:
        recorded, actual = group[0].observed, group[0].declared
        shown_actual, shown_recorded = group[0].shown()
    else:
        recorded, actual = _top_value(rc.before, path), _top_value(rc.after, path)
        shown_actual, shown_recorded = rc.shown_top(path)
    # Classified on the values; shown with only the sensitive leaves hidden.
    classification = ctx.classify_shown(
        rc.address, path, (recorded, actual), (shown_recorded, shown_actual)
    )
    recorded, actual = shown_recorded, shown_actual
    elements = _drift_elements(group) if len(group) > 1 else []
    common = {
        "kind": "drift",
        "address": rc.address,
        "attribute": path or None,
        "declared": recorded,
        "observed": actual,
        "classification": str(classification),
        "module": ctx.module,
        "scenario": ctx.scenario,
        "severity": WARNING,
        "elements": elements,
        "writers": writers,
    }
    if writers:
        return Defect(
            message=f"{rc.address} {path or '(object)'} is also written by "
            f"{_names(writers)}, and the change is part of the plan",
            why=_SECOND_WRITER_WHY,
            fix=_second_writer_fix(rc.address, path, writers),
            **common,
        )
    return Defect(
        message=f"{rc.address} was changed outside terraform between apply and plan"
        + (f": {path}: {hints.show(recorded)} -> {hints.show(actual)}" if path else ""),
        why="refresh read a value different from the one terraform recorded after apply: "
        "something else changed the object, or the API changed it after the provider's read ("
        + hints.why(classification)
        + ")",
        fix="nothing outside terraform should touch this object during the test; if the API "
        "itself rewrites it, treat it like a permanent diff: "
        + hints.fix(classification, path or None, recorded, actual),
        **common,
    )


def _background_drift(
    rc: ResourceChange,
    attrs: list[AttributeChange],
    ctx: _Context,
    writers: list[str],
    planned: set[str] | None = None,
) -> Defect:
    """One line for a resource's drift that contributed to no planned change through a
    reference; an attribute the plan itself changes on this resource is said to be set
    back by the plan (the plan's own finding tells it), not to be outside the plan."""
    names = sorted({top_attribute(a.path) or "(object)" for a in attrs})
    back = [n for n in names if n in (planned or ())]
    other = [n for n in names if n not in back]
    parts = []
    if other:
        parts.append(f"({', '.join(other)}), not part of the plan")
    if back:
        parts.append(f"({', '.join(back)}), which the plan sets back")
    message = f"{rc.address} changed outside terraform " + "; ".join(parts)
    if writers:
        message += f"; also written by {_names(writers)}"
    return Defect(
        kind="drift",
        address=rc.address,
        attribute=None,
        module=ctx.module,
        scenario=ctx.scenario,
        severity=INFO,
        message=message,
        elements=_drift_elements(attrs),
        writers=writers,
        why=_SECOND_WRITER_WHY
        if writers
        else "refresh read values other than those recorded after apply, but terraform does "
        "not need to change anything because of them",
        fix=_second_writer_fix(rc.address, names[0], writers)
        if writers
        else "nothing to do unless the values matter to you",
    )


def _empty(value: Any) -> bool:
    return value is None or value == {} or value == [] or value == ""


def _drift_elements(attrs: list[AttributeChange]) -> list[dict[str, Any]]:
    return [
        {
            "path": a.path,
            "declared": _shown(a.shown()[1]),
            "observed": _shown(a.shown()[0]),
        }
        for a in attrs
    ]


_SECOND_WRITER_WHY = (
    "two resources of this configuration write the same field of one object (one writer per "
    "field): terraform recorded the object before the other resource added its part, so "
    "every refresh reads a change; when one of them declares the field, each apply undoes "
    "the other's write"
)


def _second_writer_fix(address: str, attribute: str | None, writers: list[str]) -> str:
    field_name = attribute or "the field"
    return (
        f"Give {field_name} one writer: either declare it only inline in {address} and "
        f"remove {_names(writers)}, or never declare {field_name} inline in {address} (leave "
        f"it out entirely, not = []) and keep the separate resources."
    )


def _names(writers: Sequence[str], shown: int = 2) -> str:
    head = ", ".join(writers[:shown])
    return head + (f" (and {len(writers) - shown} more)" if len(writers) > shown else "")


def _expression(address: str, attribute: str, ctx: _Context) -> str | None:
    """The attribute's source text when it fits on one short line."""
    if ctx.module_dir is None:
        return None
    text = attribute_expression(ctx.module_dir, address, attribute)
    if text and "\n" not in text and len(text) <= 80:
        return text
    return None
