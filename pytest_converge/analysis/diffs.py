"""Second-plan analysis: every change a converged module would not have.

The plan after a successful apply should be empty. Whatever it still changes
becomes a :class:`~pytest_converge.analysis.defects.Defect`, in this order:

1. escape hatches (a resource replaced/re-run on every run by design),
2. attribute diffs, ``permanent-diff`` when the plan after that (``third``)
   still has them, ``needs-second-apply`` (a warning) when it does not,
3. output-only changes (``output-change``),
4. drift found by refresh (``drift``, a warning): objects changed outside terraform.

Each defect is classified (:mod:`.classify`) and carries a ``why`` and a
``fix`` (:mod:`.hints`); with ``module_dir`` it also points at the resource
block's file and line (:mod:`.source`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import hints
from .classify import classify_with
from .defects import WARNING, Defect
from .escape import escape_hatch_defects, find_triggers, provisioner_types
from .plan import UNKNOWN, AttributeChange, Plan, ResourceChange
from .source import attribute_expression, find_resource

Classifier = Callable[[str, str, Any, Any], "str | None"]

#: Shown instead of a sensitive value in every report.
SENSITIVE = "(sensitive value)"


def plan_defects(
    second: Plan,
    third: Plan | None = None,
    *,
    module: str = "",
    scenario: str = "two-run",
    classify: Classifier | None = None,
    module_dir: Path | None = None,
    reproduce: str = "",
) -> list[Defect]:
    """Defects from the plan after a successful apply (and the one after that).

    A change still present in ``third`` is permanent; one that went away is
    ``needs-second-apply`` (a warning). Without ``third`` every change counts
    as permanent. ``classify`` is ``(address, attribute, declared, observed)
    -> classification | None`` (default: the built-in rules); ``module_dir``
    (the user's module, not a workspace copy) lets defects name the file and
    line of each resource and the source expression of an escape hatch's
    trigger. ``reproduce`` is copied onto every defect.
    """
    classifier = classify or classify_with(None)
    ctx = _Context(module, scenario, module_dir, classifier)
    remaining = _remaining(third)
    defects: list[Defect] = []
    for rc in second.changes:
        defects.extend(_resource_defects(rc, second, remaining, ctx))
    third_outputs = {o.name for o in third.outputs} if third is not None else None
    for out in second.outputs:
        transient = third_outputs is not None and out.name not in third_outputs
        defects.append(_output_defect(out, transient, ctx))
    for rc in second.drift:
        defects.extend(_drift_defects(rc, ctx))
    for defect in defects:
        defect.reproduce = defect.reproduce or reproduce
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
        return self.classifier(address, attribute, declared, observed) or "unknown"

    def locate(self, defect: Defect) -> Defect:
        """Fill in the resource block's file and line when the module is known."""
        if self.module_dir is not None and defect.address and defect.file is None:
            location = find_resource(self.module_dir, defect.address)
            if location is not None:
                defect.file, defect.line = str(location.file), location.line
        return defect


def _remaining(third: Plan | None) -> dict[str, set[str]] | None:
    """Address -> attribute paths still changing in ``third`` (None: no third plan)."""
    if third is None:
        return None
    return {rc.address: {a.path for a in rc.attributes} for rc in third.changes}


def _resource_defects(
    rc: ResourceChange, plan: Plan, remaining: dict[str, set[str]] | None, ctx: _Context
) -> list[Defect]:
    gone = remaining is not None and rc.address not in remaining
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
    return [
        ctx.locate(_attribute_defect(rc, attr, still is not None and attr.path not in still, ctx))
        for attr in rc.attributes
        if not _mirrors_tags(attr.path, rc)
    ]


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
    classification = ctx.classify(rc.address, attr.path, attr.declared, attr.observed)
    declared: Any = attr.declared
    observed: Any = attr.observed
    if attr.sensitive:
        declared = observed = SENSITIVE
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
    if transient:
        return Defect(
            kind="needs-second-apply",
            address=rc.address,
            attribute=attr.path,
            declared=declared,
            observed=observed,
            classification=classification,
            module=ctx.module,
            scenario=ctx.scenario,
            severity=WARNING,
            message=message + "; the plan after the next apply no longer has it",
            why=_TRANSIENT_WHY,
            fix=_TRANSIENT_FIX,
        )
    return Defect(
        kind="permanent-diff",
        address=rc.address,
        attribute=attr.path,
        declared=declared,
        observed=observed,
        classification=classification,
        module=ctx.module,
        scenario=ctx.scenario,
        message=message,
        why=hints.why(classification, attr.declared, attr.observed),
        fix=hints.fix(classification, attr.path, attr.declared, attr.observed),
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
    if out.sensitive:
        declared = observed = SENSITIVE
    return Defect(
        kind="needs-second-apply" if transient else "output-change",
        address=f"output.{out.name}",
        attribute=out.name,
        declared=declared,
        observed=observed,
        classification=classification,
        module=ctx.module,
        scenario=ctx.scenario,
        severity=WARNING if transient else "error",
        message=f"output {out.name} changes on the second plan: "
        f"{hints.show(observed)} -> {hints.show(declared)}",
        why="the output is computed from a value that is recomputed on every run (a "
        "resource replaced each apply, timestamp(), uuid()) or only known after apply"
        if out.declared is UNKNOWN
        else hints.why(classification, out.declared, out.observed),
        fix="derive the output from attributes that converge (ids, names, content hashes), "
        "not from a value recomputed on every run",
    )


def _drift_defects(rc: ResourceChange, ctx: _Context) -> list[Defect]:
    # In resource_drift, before = what terraform recorded, after = what refresh read:
    # parse_plan's observed/declared are the other way round here.
    attrs = rc.attributes or [AttributeChange("", rc.after, rc.before)]
    found = []
    for attr in attrs:
        recorded, actual = attr.observed, attr.declared
        if attr.sensitive:
            recorded = actual = SENSITIVE
        classification = ctx.classify(rc.address, attr.path, recorded, actual)
        found.append(
            ctx.locate(
                Defect(
                    kind="drift",
                    address=rc.address,
                    attribute=attr.path or None,
                    declared=recorded,
                    observed=actual,
                    classification=classification,
                    module=ctx.module,
                    scenario=ctx.scenario,
                    severity=WARNING,
                    message=f"{rc.address} was changed outside terraform between apply and "
                    f"plan"
                    + (
                        f": {attr.path}: {hints.show(recorded)} -> {hints.show(actual)}"
                        if attr.path
                        else ""
                    ),
                    why="refresh read a value different from the one terraform recorded "
                    "after apply: something else changed the object, or the API changed it "
                    "after the provider's read (" + hints.WHY[classification] + ")",
                    fix="nothing outside terraform should touch this object during the test; "
                    "if the API itself rewrites it, treat it like a permanent diff: "
                    + hints.fix(classification, attr.path or None, recorded, actual),
                )
            )
        )
    return found


def _expression(address: str, attribute: str, ctx: _Context) -> str | None:
    """The attribute's source text when it fits on one short line."""
    if ctx.module_dir is None:
        return None
    text = attribute_expression(ctx.module_dir, address, attribute)
    if text and "\n" not in text and len(text) <= 80:
        return text
    return None
