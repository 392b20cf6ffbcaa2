"""Escape hatches: resources that are replaced or re-run on every apply by design.

``terraform_data`` with ``triggers_replace = timestamp()``, a ``null_resource``
with ``triggers = { always = uuid() }``, any resource whose replacement is
forced by an attribute that is unknown on a *second* plan (and by no value known
on both sides, whose unknown consequences they would be), and resources with
provisioners that are replaced on every run: each never converges, and each is
reported once, naming the trigger attribute, instead of as a list of diffs.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .addresses import module_calls
from .defects import Defect
from .gaps import attribute_references
from .hints import ESCAPE_HATCH_WHY, escape_hatch_fix, show
from .plan import UNKNOWN, ResourceChange, holds_unknown
from .source import attribute_expression

#: Resource types whose only purpose is to be re-run when an attribute changes.
TRIGGER_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "terraform_data": ("triggers_replace", "input"),
    "null_resource": ("triggers",),
}


@dataclass(frozen=True)
class Trigger:
    """The attribute that makes ``address`` change on every run, with both values."""

    address: str
    attribute: str
    observed: Any
    declared: Any


def find_triggers(rc: ResourceChange, provisioners: bool = False) -> list[Trigger]:
    """The attributes that make ``rc`` an escape hatch; empty when it is not one.

    ``provisioners`` says the resource's configuration has provisioners (see
    :func:`has_provisioners`); then any replacement counts, whatever forced it.
    """
    if rc.action not in ("update", "replace"):
        return []
    names = TRIGGER_ATTRIBUTES.get(rc.type, ())
    found = [
        attr
        for attr in rc.attributes
        if _top(attr.path) in names and (attr.unknown or attr.forces_replacement)
    ]
    if not found and not _known_cause(rc):
        found = [a for a in rc.attributes if a.unknown and a.forces_replacement]
    if not found and provisioners and rc.action == "replace":
        found = [a for a in rc.attributes if a.forces_replacement]
        if not found and rc.attributes:
            found = [rc.attributes[0]]
    return [Trigger(rc.address, a.path, a.observed, a.declared) for a in found]


def _known_cause(rc: ResourceChange) -> bool:
    """A value known on both sides forces ``rc``'s replacement (a subnet read back as
    another, a block device missing): the unknowns of the replacement follow from it,
    so it is a permanent diff, not a trigger that is new on every run."""
    return any(
        a.forces_replacement
        and not a.unknown
        and a.declared != a.observed
        and not (a.declared in _EMPTY and a.observed in _EMPTY)
        for a in rc.attributes
    )


#: Values that read as "not set" on either side (null vs "" is not a cause).
_EMPTY: tuple[Any, ...] = (None, "", [], {}, 0, False)


def follows_a_replacement(
    plan_json: dict[str, Any] | None, rc: ResourceChange, replaced: Collection[str]
) -> bool:
    """``rc`` changes only because a resource it refers to is replaced in the same plan
    (``replaced``: their config addresses): every attribute that forces its replacement,
    or for an update every attribute it changes, holds a value known only after apply
    and refers to one of them (a VPN connection's route when the connection is replaced;
    a Batch job queue's ``compute_environments`` when the environment is). The cause is
    that resource's finding; this one is its consequence."""
    if not replaced or rc.action not in ("replace", "update"):
        return False
    causes = [a for a in rc.attributes if a.forces_replacement or rc.action == "update"]
    if not causes or not all(holds_unknown(a.declared) for a in causes):
        return False
    configuration = (plan_json or {}).get("configuration") or {}
    return all(
        attribute_references(configuration, rc.address, attr.path) & set(replaced)
        for attr in causes
    )


def has_provisioners(plan_json: dict[str, Any] | None, rc: ResourceChange) -> bool:
    """True when the plan's ``configuration`` gives ``rc``'s resource any provisioner."""
    config = _config_resource(plan_json or {}, rc)
    return bool(config and config.get("provisioners"))


def provisioner_types(plan_json: dict[str, Any] | None, rc: ResourceChange) -> list[str]:
    """``["local-exec", ...]`` for ``rc``'s resource, from the plan's configuration."""
    config = _config_resource(plan_json or {}, rc) or {}
    return [p.get("type", "?") for p in config.get("provisioners") or []]


def escape_hatch_defects(
    rc: ResourceChange,
    triggers: list[Trigger],
    *,
    module: str = "",
    scenario: str = "",
    module_dir: Path | None = None,
    provisioners: list[str] | None = None,
) -> list[Defect]:
    """One ``escape-hatch`` defect per trigger attribute of ``rc``."""
    defects = []
    for trigger in triggers:
        expression = (
            attribute_expression(module_dir, rc.address, trigger.attribute)
            if module_dir is not None
            else None
        )
        declared: Any = trigger.declared
        if declared is UNKNOWN:
            declared = "(known after apply)" + (f" from {expression}" if expression else "")
        runs = f", re-running {', '.join(provisioners)}" if provisioners else ""
        defects.append(
            Defect(
                kind="escape-hatch",
                address=rc.address,
                attribute=trigger.attribute,
                declared=declared,
                observed=trigger.observed,
                classification="unknown",
                module=module,
                scenario=scenario,
                message=f"{rc.address} is {_verb(rc)} on every run{runs}: "
                f"{trigger.attribute} was {show(trigger.observed)}, now {show(declared)}",
                why=ESCAPE_HATCH_WHY,
                fix=escape_hatch_fix(trigger.attribute, expression, bool(provisioners)),
            )
        )
    return defects


def _verb(rc: ResourceChange) -> str:
    return "replaced" if rc.action == "replace" else "updated"


def _top(path: str) -> str:
    return path.split(".")[0].split("[")[0]


def _config_resource(plan_json: dict[str, Any], rc: ResourceChange) -> dict[str, Any] | None:
    """The ``configuration`` entry of ``rc``'s resource block, following module calls."""
    module = (plan_json.get("configuration") or {}).get("root_module") or {}
    for call in module_calls(rc.module_address):
        module = ((module.get("module_calls") or {}).get(call) or {}).get("module") or {}
    prefix = "data." if rc.mode == "data" else ""
    wanted = f"{prefix}{rc.type}.{rc.name}"
    for resource in module.get("resources") or []:
        if resource.get("address") == wanted:
            return resource
    return None
