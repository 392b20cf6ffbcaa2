"""The no-op plan gate: what makes a plan saved after an apply non-empty, as defects.

A pipeline's plan after its own apply (``terraform show -json tfplan``, made
against a real account) should change nothing. Whatever it would change
becomes the defects the plugin's own second plan gives (:func:`.diffs.plan_defects`:
permanent diffs with their class, escape hatches, output changes), plus what
only a plan of a real account shows:

- ``reverted-drift``: an object changed outside terraform (a console fix) that
  the plan sets back, worded as such ("changed outside terraform:
  visibility_timeout_seconds 30 -> 120; this apply sets it back"), not as a
  permanent diff;
- the apply before the plan did not finish: a tainted object, a deposed one
  (``needs-second-apply``, an error here: the plan is not empty);
- a ``-refresh-only`` plan: each drifted attribute, from what to what, and
  whether the configuration sets it back (from the plan's ``configuration``
  and ``variables``; a ``lifecycle { ignore_changes }`` is read from the source).

An empty plan gives nothing, whatever refresh found (terraform itself says that
drift changed nothing). There is no plan after the next apply, so whether a
permanent diff settles after one more apply is not checked; its message says so.
Everything here is pure: plan JSON in, defects out::

    defects = gate_defects(json.loads(Path("plan.json").read_text()), module="plan.json")
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import PlanFileError
from . import hints
from .addresses import module_calls
from .classify import as_classification, classify_with
from .defects import ERROR, WARNING, Defect, DefectKind
from .diffs import SENSITIVE, locate, plan_defects
from .hints import show
from .plan import (
    UNKNOWN,
    AttributeChange,
    OutputChange,
    Plan,
    ResourceChange,
    diff_values,
    parse_plan,
    top_attribute,
)
from .source import ignored_changes

#: The scenario of every finding of the gate (its item is ``<plan file>::plan-gate``).
SCENARIO = "plan-gate"

#: The ``format_version`` majors read here: 0.x (terraform 0.12 to 1.0) and 1.x (since
#: 1.1, and OpenTofu). Terraform raises the major only for changes that are not compatible.
SUPPORTED_MAJORS = (0, 1)

#: Keys of which a plan's JSON has at least one (a state's has ``values`` instead).
_PLAN_KEYS = ("resource_changes", "planned_values", "resource_drift", "output_changes")

Classifier = Callable[[str, str, Any, Any], "str | None"]

#: Appended to a permanent diff's message: the gate sees one plan, not the one after.
UNCHECKED = "; one plan after apply: whether another apply settles it was not checked"


# -- is it a plan? ------------------------------------------------------------------------------


def read_plan_text(text: str, name: str = "the file") -> dict[str, Any]:
    """The plan in ``text`` (``terraform show -json`` output), checked by :func:`check_plan`.

    Raises :class:`~pytest_converge.errors.PlanFileError` saying what the text is instead.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        first = text.lstrip().split("\n", 1)[0]
        try:
            event = json.loads(first)
        except ValueError:
            event = None
        if isinstance(event, dict) and "@message" in event:
            raise PlanFileError(
                f"{name} is the event log of `terraform plan -json` (one JSON object a "
                "line), not a plan: save the plan with `terraform plan -out tfplan` and give "
                "the gate `terraform show -json tfplan > plan.json`"
            ) from None
        raise PlanFileError(
            f"{name} is not JSON ({exc}): give the gate `terraform show -json tfplan` "
            "(or the binary plan file `terraform plan -out tfplan` wrote)"
        ) from None
    return check_plan(data, name)


def check_plan(data: Any, name: str = "the plan") -> dict[str, Any]:
    """``data`` when it is the JSON of ``terraform show -json PLANFILE`` in a format read here.

    Raises :class:`~pytest_converge.errors.PlanFileError` naming what ``data`` is
    instead: another JSON document (a state, a provider schema), a format of an
    unsupported major version, or a plan terraform could not finish.
    """
    how = "give the gate `terraform show -json tfplan` of a plan saved with `plan -out tfplan`"
    if not isinstance(data, dict):
        raise PlanFileError(
            f"{name} is not a terraform plan: it holds a JSON {type(data).__name__}, a plan "
            f"is an object; {how}"
        )
    version = data.get("format_version")
    if not any(key in data for key in _PLAN_KEYS):
        if "values" in data:
            what = "a state (`terraform show -json` with no plan file)"
        elif "provider_schemas" in data:
            what = "provider schemas (`terraform providers schema -json`)"
        elif "@message" in data:
            what = "a line of `terraform plan -json`'s event log"
        elif version is None:
            what = "JSON with no format_version"
        else:
            what = "JSON with none of " + ", ".join(_PLAN_KEYS)
        raise PlanFileError(f"{name} is not a terraform plan: it is {what}; {how}")
    major = _major(version)
    if major is None:
        raise PlanFileError(
            f'{name} has format_version {version!r}: not a terraform plan\'s ("1.2"); {how}'
        )
    if major not in SUPPORTED_MAJORS:
        raise PlanFileError(
            f"{name} is a plan of format_version {version}, which this pytest-converge does "
            f"not read (it reads {' and '.join(f'{m}.x' for m in SUPPORTED_MAJORS)}): "
            "upgrade pytest-converge, or show the plan with the terraform the format came with"
        )
    if data.get("errored"):
        raise PlanFileError(
            f"{name} is a plan terraform could not finish (errored): the gate reads complete "
            "plans; fix the plan's errors first (`terraform plan` prints them)"
        )
    return data


def _major(version: Any) -> int | None:
    head = str(version).split(".", 1)[0] if isinstance(version, str | int | float) else ""
    return int(head) if head.isdigit() else None


def is_refresh_only(data: dict[str, Any]) -> bool:
    """True for a ``terraform plan -refresh-only`` plan: drift, no resource changes.

    Terraform writes no ``resource_changes`` in that mode; a normal plan lists
    every resource instance, unchanged ones as ``no-op``.
    """
    return not data.get("resource_changes") and bool(data.get("resource_drift"))


# -- the gate -----------------------------------------------------------------------------------


def gate_defects(
    data: Any,
    *,
    module: str = "",
    scenario: str = SCENARIO,
    classify: Classifier | None = None,
    module_dir: Path | None = None,
    reproduce: str = "",
) -> list[Defect]:
    """Every reason the plan ``data`` (``terraform show -json``) is not empty, as defects.

    ``module`` names the plan in reports; ``module_dir`` (the plan's configuration)
    gives each finding its file and line and the source of an escape hatch's
    trigger; ``classify`` is ``(address, attribute, declared, observed) ->
    classification | None`` (default: the built-in rules). Raises
    :class:`~pytest_converge.errors.PlanFileError` when ``data`` is not a plan.
    """
    data = check_plan(data)
    gate = _Gate(module, scenario, classify or classify_with(None), module_dir, data)
    found = gate.refresh_only() if is_refresh_only(data) else gate.post_apply()
    for defect in found:
        defect.reproduce = defect.reproduce or reproduce
        locate(defect, gate.module_dir)
    return found


@dataclass
class _Gate:
    module: str
    scenario: str
    classify: Classifier
    module_dir: Path | None
    data: dict[str, Any]

    def defect(self, kind: DefectKind, address: str, message: str, **fields: Any) -> Defect:
        return Defect(
            kind=kind,
            address=address,
            module=self.module,
            scenario=self.scenario,
            message=message,
            **fields,
        )

    # -- a normal plan ----------------------------------------------------------------------

    def post_apply(self) -> list[Defect]:
        """A plan made after an apply: each change, drift it sets back told as such."""
        entries = self.data.get("resource_changes") or []
        changing = [c for c in entries if not _no_op(c)]
        # An import or a move a no-op change carries still changes the state.
        pending = [c for c in entries if _no_op(c) and _pending(c)]
        unfinished = [
            c for c in changing if c.get("deposed") or c.get("action_reason") in _UNFINISHED
        ]
        plan = parse_plan(
            {**self.data, "resource_changes": [c for c in changing if c not in unfinished]}
        )
        if plan.is_empty and not unfinished and not pending:
            return []  # what refresh found changed nothing terraform would do
        found = [self._unfinished(c) for c in unfinished]
        found.extend(self._not_applied(str(c.get("address", "")), _pending(c)) for c in pending)
        changes = _without_consequent_reads(plan.changes)
        drift = {rc.address: rc for rc in plan.drift}
        kept: list[ResourceChange] = []
        for rc in changes:
            reason = _REASONS.get(str(rc.action_reason)) or _FORGOTTEN.get(rc.action)
            if reason:
                what = f"{rc.address} would be {_done(rc.action)}: {reason}"
                found.append(self._not_applied(rc.address, what))
                continue
            drifted = drift.get(rc.address)
            if drifted is None:
                kept.append(rc)
                continue
            reverted, rest, rest_drift = self._reverted(rc, drifted)
            found.extend(reverted)
            if rest is not None:
                kept.append(rest)
            if rest_drift is None:
                del drift[rc.address]
            else:
                drift[rc.address] = rest_drift
        outputs = [o for o in plan.outputs if not (kept or found) or not _follows(o)]
        rest_plan = Plan(kept, outputs, list(drift.values()), plan.raw)
        for defect in plan_defects(
            rest_plan,
            None,
            module=self.module,
            scenario=self.scenario,
            classify=self.classify,
            module_dir=self.module_dir,
        ):
            if defect.kind == "permanent-diff":
                defect.message += UNCHECKED
            found.append(defect)
        return found

    def _reverted(
        self, rc: ResourceChange, drifted: ResourceChange
    ) -> tuple[list[Defect], ResourceChange | None, ResourceChange | None]:
        """The planned changes of ``rc`` that set back its drift (``reverted-drift``), and
        what is left of the change and of the drift."""
        if drifted.action == "delete":
            if rc.action != "create":
                return [], rc, drifted
            return [self._recreated(rc.address, "this apply creates it again")], None, None
        drifted_tops = _tops(drifted.attributes)
        groups: dict[str, list[AttributeChange]] = {}
        for attr in rc.attributes:
            top = top_attribute(attr.path)
            if top in drifted_tops:
                groups.setdefault(top, []).append(attr)
        # A value a normalisation explains (order, case, dedup ...) is the API's rewrite of
        # what terraform sent: a permanent diff, as in the plugin's own second plan. Any
        # other value refresh found was put there from outside.
        groups = {
            top: group
            for top, group in groups.items()
            if self._unexplained(
                rc, "tags" if top == "tags_all" and "tags" in groups else top, groups
            )
        }
        if not groups:
            return [], rc, drifted
        if "tags" in groups:  # tags_all is the same tags with the provider's defaults
            mirrored = [a for a in rc.attributes if top_attribute(a.path) == "tags_all"]
            groups["tags_all"] = groups.get("tags_all") or mirrored
        found = [
            self._setting_back(rc, drifted, top, group)
            for top, group in groups.items()
            if not (top == "tags_all" and "tags" in groups)
        ]
        rest = [a for a in rc.attributes if top_attribute(a.path) not in groups]
        if any(a.forces_replacement for g in groups.values() for a in g) and not any(
            a.forces_replacement for a in rest
        ):
            rest = []  # what a replacement makes new (id, arn ...) follows from it
        rest_drift = [a for a in drifted.attributes if top_attribute(a.path) not in groups]
        return (
            found,
            replace(rc, attributes=rest) if rest else None,
            replace(drifted, attributes=rest_drift) if _tops(rest_drift) else None,
        )

    def _unexplained(
        self, rc: ResourceChange, top: str, groups: dict[str, list[AttributeChange]]
    ) -> bool:
        group = groups[top]
        if len(group) == 1:
            path, declared, observed = group[0].path, group[0].declared, group[0].observed
            shown = group[0].shown()
        else:
            path, declared, observed = top, _at(rc.after, top), _at(rc.before, top)
            sensitive = any(a.sensitive for a in group)
            shown = rc.shown_top(top) if sensitive else (declared, observed)
        # As the plugin's own second plan classifies it (diffs._Context.classify_shown):
        # first on what can be shown, so a write-only secret read back empty after the
        # API sorted its block does not make the sorting look like a change from outside.
        if shown != (declared, observed):
            found = as_classification(self.classify(rc.address, path, *shown))
            if found != "unknown":
                return False
        return as_classification(self.classify(rc.address, path, declared, observed)) == "unknown"

    def _setting_back(
        self,
        rc: ResourceChange,
        drifted: ResourceChange,
        top: str,
        group: list[AttributeChange],
    ) -> Defect:
        """One ``reverted-drift``: ``top`` changed outside terraform, the plan sets it back."""
        path = group[0].path if len(group) == 1 else top
        # In resource_drift, observed = what terraform recorded, declared = what refresh read.
        same = [a for a in drifted.attributes if a.path == path]
        if same:
            recorded, actual = same[0].observed, same[0].declared
        else:
            recorded, actual = _at(drifted.before, top), _at(drifted.after, top)
        declared = group[0].declared if len(group) == 1 else _at(rc.after, top)
        sensitive = any(a.sensitive for a in group) or any(
            a.sensitive for a in drifted.attributes if top_attribute(a.path) == top
        )
        back = _same(declared, recorded)
        replaces = any(a.forces_replacement for a in group)
        if replaces:
            then = "this apply replaces the object to set it " + ("back" if back else "anew")
        elif back:
            then = "this apply sets it back"
        else:
            then = f"this apply sets it to {_shown(declared, sensitive)}"
        return self.defect(
            "reverted-drift",
            rc.address,
            f"{rc.address} was changed outside terraform: "
            f"{_change(path, recorded, actual, sensitive)}; {then}",
            attribute=path,
            declared=SENSITIVE if sensitive else _plain(declared),
            observed=SENSITIVE if sensitive else actual,
            why=_REVERTED_WHY,
            fix=_reverted_fix(rc.address, path, actual, sensitive),
        )

    def _recreated(self, address: str, then: str) -> Defect:
        return self.defect(
            "reverted-drift",
            address,
            f"{address} was deleted outside terraform; {then}",
            why="the object was deleted outside terraform after the last apply (by hand, a "
            "script, another tool); the configuration still declares it",
            fix=f"If the deletion was wanted, remove {address} from the configuration (or "
            "a `removed` block); if not, the next apply creates it again (a new, empty object: "
            "what the old one held is gone).",
        )

    def _unfinished(self, raw: dict[str, Any]) -> Defect:
        """A change left by an apply that did not finish: a deposed or a tainted object."""
        address = str(raw.get("address", ""))
        deposed = raw.get("deposed")
        if deposed:
            message = (
                f"{address}: an old object (deposed {deposed}) is left from a "
                "create_before_destroy replacement whose destroy did not finish; this apply "
                "destroys it"
            )
            why = (
                "the apply before this plan created the replacement and then failed or was "
                "stopped before it destroyed the old object"
            )
            fix = (
                "apply again (it destroys the deposed object), and find in that apply's log why "
                "the destroy failed (an object still using it, deletion protection, a timeout)"
            )
        else:
            message = (
                f"{address} is tainted: its create or a provisioner failed in the apply before "
                "this plan; this apply replaces it"
            )
            why = _REASONS["replace_because_tainted"]
            fix = (
                "fix the step that failed (the apply's log names it) and apply again; "
                f"`terraform untaint {address}` if the object is in fact fine"
            )
        return self.defect("needs-second-apply", address, message, severity=ERROR, why=why, fix=fix)

    def _not_applied(self, address: str, message: str) -> Defect:
        """A change terraform plans for a reason of its own (``action_reason``, an import,
        a move), not an attribute diff: the apply before did not apply this configuration."""
        return self.defect(
            "permanent-diff",
            address,
            message,
            why="the configuration planned is not the one the apply before this plan applied "
            "(or that apply did not finish)",
            fix="gate the plan made after applying the same revision of the configuration; "
            "a change meant to happen belongs in that apply (`moved`, `removed` and `import` "
            "blocks are applied like any change)",
        )

    # -- a refresh-only plan ----------------------------------------------------------------

    def refresh_only(self) -> list[Defect]:
        """Each drifted attribute of a ``-refresh-only`` plan, and whether the
        configuration sets it back (an error) or keeps it (a warning)."""
        found: list[Defect] = []
        for rc in parse_plan(self.data).drift:
            if rc.action == "delete":
                if self._resource_config(rc) is None:
                    found.append(
                        self.defect(
                            "drift",
                            rc.address,
                            f"{rc.address} was deleted outside terraform; the configuration no "
                            "longer declares it, so the next apply only forgets it",
                            why="the object was deleted outside terraform",
                            fix="nothing to do if the deletion was wanted",
                        )
                    )
                else:
                    found.append(self._recreated(rc.address, "the next apply creates it again"))
                continue
            groups: dict[str, list[AttributeChange]] = {}
            for attr in rc.attributes:
                if not (_empty(attr.observed) and _empty(attr.declared)):  # null vs {}: noise
                    groups.setdefault(top_attribute(attr.path), []).append(attr)
            for top, group in groups.items():
                if top == "tags_all" and "tags" in groups:
                    continue
                found.append(self._refreshed(rc, top, group))
        return found

    def _refreshed(self, rc: ResourceChange, top: str, group: list[AttributeChange]) -> Defect:
        path = group[0].path if len(group) == 1 else top
        if len(group) == 1:
            recorded, actual = group[0].observed, group[0].declared
        else:
            recorded, actual = _at(rc.before, top), _at(rc.after, top)
        sensitive = any(a.sensitive for a in group)
        verdict = self._configured(rc, top, path[len(top) :], recorded, actual, sensitive)
        message = (
            f"{rc.address} was changed outside terraform: "
            f"{_change(path, recorded, actual, sensitive)}; {verdict.text}"
        )
        if verdict.known:
            cls = as_classification(self.classify(rc.address, path, verdict.declared, actual))
            if cls != "unknown":
                return self._rewritten(rc.address, path, verdict.declared, actual, cls, sensitive)
        if verdict.reverts:
            return self.defect(
                "reverted-drift",
                rc.address,
                message,
                attribute=path,
                declared=SENSITIVE if sensitive else _plain(verdict.declared),
                observed=SENSITIVE if sensitive else actual,
                why=_REVERTED_WHY,
                fix=_reverted_fix(rc.address, path, actual, sensitive),
            )
        return self.defect(
            "drift",
            rc.address,
            message,
            attribute=path,
            declared=SENSITIVE if sensitive else recorded,
            observed=SENSITIVE if sensitive else actual,
            severity=WARNING,
            why="the object was changed outside terraform; the configuration does not manage "
            "this value, so the next apply leaves it as it is now",
            fix=f"nothing to do if the new value is wanted; declare {top} in {rc.address} to "
            "have terraform own it",
        )

    def _rewritten(
        self, address: str, path: str, declared: Any, actual: Any, cls: str, sensitive: bool
    ) -> Defect:
        """A refreshed value that a normalisation of the declared one explains: the API
        rewrites it, and every apply sets it again (a permanent diff)."""
        shown = (SENSITIVE, SENSITIVE) if sensitive else (declared, actual)
        return self.defect(
            "permanent-diff",
            address,
            f"{address} {path}: refresh reads {_shown(actual, sensitive)}, the configuration "
            f"declares {_shown(declared, sensitive)}: the API answers the value in its own form "
            f"({cls}), so each apply sets it again" + UNCHECKED,
            attribute=path,
            declared=shown[0],
            observed=shown[1],
            classification=cls,
            why=hints.why(cls, *shown),
            fix=hints.fix(cls, path, *shown),
        )

    def _configured(
        self,
        rc: ResourceChange,
        top: str,
        rest: str,
        recorded: Any,
        actual: Any,
        sensitive: bool,
    ) -> _Verdict:
        """What the next apply does to a drifted value, from the plan's configuration."""
        if self.module_dir is not None:
            ignored = ignored_changes(self.module_dir, rc.address) or frozenset()
            if top in ignored or "*" in ignored:
                return _Verdict(
                    False, f"the configuration ignores changes to {top}: the next apply keeps it"
                )
        config = self._resource_config(rc)
        if config is None:
            return _Verdict(
                True,
                "its resource is no longer in the configuration: the next apply destroys it",
            )
        expression = (config.get("expressions") or {}).get(top)
        if expression is None:
            return _Verdict(False, f"the configuration does not set {top}: the next apply keeps it")
        known, value, source = self._evaluate(expression, rc.module_address, rest)
        if known:
            declares = f"the configuration declares {_shown(value, sensitive)}{source}"
            if _same(value, actual):
                return _Verdict(False, f"{declares} already")
            then = "sets it back" if _same(value, recorded) else "sets it to that"
            return _Verdict(True, f"{declares}: the next apply {then}", value, known=True)
        return _Verdict(
            True,
            f"the configuration sets {top} from an expression{source}: the next apply sets it to "
            f"what that gives (at the last apply: {_shown(recorded, sensitive)})",
            recorded,
        )

    def _resource_config(self, rc: ResourceChange) -> dict[str, Any] | None:
        """The ``configuration`` entry of ``rc``'s block, following module calls."""
        module = _module_config(self.data, rc.module_address)
        if module is None:
            return None
        wanted = ("data." if rc.mode == "data" else "") + f"{rc.type}.{rc.name}"
        for resource in module.get("resources") or []:
            if resource.get("address") == wanted:
                return dict(resource)
        return None

    def _evaluate(
        self, expression: Any, module_address: str | None, rest: str
    ) -> tuple[bool, Any, str]:
        """``(known, value, how)`` of a configuration expression, down ``rest`` (``.Name``).

        A constant is known; so is a variable passed down module calls unchanged to a
        root variable's value in the plan. Anything else (a function, ``each.key``,
        another resource's attribute, nested blocks) is not evaluated.
        """
        if not isinstance(expression, dict):
            return False, None, " (in nested blocks)"
        if "constant_value" in expression:
            return True, _walk(expression["constant_value"], rest), ""
        refs = expression.get("references") or []
        calls = module_calls(module_address)
        while len(refs) == 1 and str(refs[0]).startswith("var."):
            name = str(refs[0])[4:]
            if not calls:
                variables = self.data.get("variables") or {}
                if name not in variables:
                    break
                value = _walk((variables[name] or {}).get("value"), rest)
                return True, value, f" (var.{name})"
            parent = _module_config(self.data, _join(calls[:-1]))
            call = ((parent or {}).get("module_calls") or {}).get(calls[-1]) or {}
            expression = (call.get("expressions") or {}).get(name) or {}
            if "constant_value" in expression:
                return True, _walk(expression["constant_value"], rest), ""
            refs = expression.get("references") or []
            calls = calls[:-1]
        return False, None, f" ({', '.join(map(str, refs))})" if refs else ""


@dataclass(frozen=True)
class _Verdict:
    """What the next apply does to a value changed outside terraform."""

    reverts: bool
    text: str
    declared: Any = None
    #: ``declared`` is the configuration's value (not the value at the last apply).
    known: bool = False


_REVERTED_WHY = (
    "something outside terraform (a console fix, a script, another tool) changed the object "
    "after the last apply, and the configuration still declares the value it had: the next "
    "apply undoes the change"
)


def _reverted_fix(address: str, path: str, actual: Any, sensitive: bool) -> str:
    wanted = f"{path} = {show(actual)}" if not sensitive else f"the new {path}"
    return (
        f"If the change is wanted (a fix to keep), put it in the configuration ({wanted} in "
        f"{address}) before the next apply; if not, the apply sets it back. If another system "
        f"owns {top_attribute(path)}, stop declaring it here."
    )


#: Why terraform plans a change that no attribute diff explains (its ``action_reason``).
_REASONS = {
    "replace_because_tainted": "terraform marks an object tainted when its create or a "
    "create-time provisioner fails, and replaces it in the next plan",
    "replace_by_request": "the plan was made with -replace naming it",
    "replace_by_triggers": "a reference in its lifecycle replace_triggered_by changed",
    "delete_because_no_resource_config": "its block is no longer in the configuration",
    "delete_because_no_module": "its module call is no longer in the configuration",
    "delete_because_wrong_repetition": "count or for_each was added to or removed from its block",
    "delete_because_count_index": "its count index is beyond the count now",
    "delete_because_each_key": "its for_each key is no longer in the set",
    "delete_because_no_move_target": "a moved block names it, and the target is not in the "
    "configuration",
}
#: A change no action reason explains: a ``removed`` block that keeps the object.
_FORGOTTEN = {
    "forget": "a removed block (lifecycle destroy = false) drops it from the state; the object "
    "stays"
}
#: Action reasons of a change the apply before the plan left unfinished.
_UNFINISHED = ("replace_because_tainted",)


def _no_op(entry: dict[str, Any]) -> bool:
    return tuple((entry.get("change") or {}).get("actions") or ()) in ((), ("no-op",))


def _pending(entry: dict[str, Any]) -> str:
    """What an unchanged object's entry still does to the state: an import or a move."""
    address = str(entry.get("address", ""))
    if (entry.get("change") or {}).get("importing"):
        return f"{address} would be imported (an import block)"
    previous = entry.get("previous_address")
    if previous and previous != address:
        return f"{previous} would move to {address} (a moved block)"
    return ""


def _without_consequent_reads(changes: list[ResourceChange]) -> list[ResourceChange]:
    """Data sources read again at apply follow from the other changes (they depend on
    them): they are findings only when nothing else changes."""
    others = [rc for rc in changes if rc.action != "read"]
    return others or changes


def _follows(out: OutputChange) -> bool:
    """An output whose every change is a value only known after apply: it follows from a
    resource the plan changes, not a finding of its own."""
    changed = diff_values(out.observed, out.declared)
    return bool(changed) and all(declared is UNKNOWN for _, _, declared in changed)


def _module_config(data: dict[str, Any], module_address: str | None) -> dict[str, Any] | None:
    module = (data.get("configuration") or {}).get("root_module") or {}
    for call in module_calls(module_address):
        module = ((module.get("module_calls") or {}).get(call) or {}).get("module")
        if not isinstance(module, dict):
            return None
    return module


def _join(calls: list[str]) -> str | None:
    return ".".join(f"module.{c}" for c in calls) or None


def _walk(value: Any, rest: str) -> Any:
    """``value`` down a path rest such as ``.Name`` or ``[0].cidr``; None where it has none."""
    for part in rest.replace("[", ".").replace("]", "").split("."):
        if not part:
            continue
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def _tops(attrs: list[AttributeChange]) -> set[str]:
    """Top-level attributes that really changed (null vs ``{}`` is refresh noise)."""
    return {top_attribute(a.path) for a in attrs if not (_empty(a.observed) and _empty(a.declared))}


def _at(value: Any, top: str) -> Any:
    return value.get(top) if isinstance(value, dict) else None


def _empty(value: Any) -> bool:
    return value is None or value == {} or value == [] or value == ""


def _same(a: Any, b: Any) -> bool:
    return a is not UNKNOWN and b is not UNKNOWN and (a == b or (_empty(a) and _empty(b)))


def _change(path: str, recorded: Any, actual: Any, sensitive: bool) -> str:
    """``visibility_timeout_seconds 30 -> 120`` (a sensitive value is not shown)."""
    if sensitive:
        return f"{path} (sensitive value)"
    return f"{path} {show(recorded)} -> {show(actual)}"


def _shown(value: Any, sensitive: bool) -> str:
    return "(sensitive value)" if sensitive else show(value)


def _plain(value: Any) -> Any:
    return "(known after apply)" if value is UNKNOWN else value


def _done(action: str) -> str:
    done = {
        "create": "created",
        "delete": "deleted",
        "replace": "replaced",
        "read": "read again",
        "forget": "forgotten",
    }
    return done.get(action, "updated")
