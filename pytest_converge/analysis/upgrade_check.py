"""Upgrade-plan analysis: what applying this revision over the released one would destroy.

The *upgrade plan* is the plan of the current module over the state the old
revision left. Pure logic: a parsed :class:`~.plan.Plan` in, records out.

- :func:`upgrade_actions`: the plan's action per address (moves included);
- :func:`moved_hints`: a delete and a create of the same type whose
  attributes are equivalent are one object renamed without a ``moved`` block;
- :func:`upgrade_defects`: ``destructive-upgrade`` findings. Replacing or
  deleting an object of a *stateful* type loses its data (an error unless
  allowed); a rename of any other type is still a needless destroy/create
  (a warning). Each rename's fix is the exact ``moved`` block.

>>> hints = moved_hints(plan)                                     # doctest: +SKIP
>>> hints[0].block
'moved {\\n  from = aws_sqs_queue.jobs\\n  to   = aws_sqs_queue.work\\n}'
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from .addresses import Address
from .defects import ERROR, WARNING, Defect
from .hints import show
from .plan import UNKNOWN, Plan, ResourceChange
from .stateful import STATEFUL_TYPES

#: Attributes that never tell two objects apart in a rename: computed
#: identifiers the new object only gets after apply, and provider merges.
_IGNORED = frozenset({"id", "arn", "tags_all", "timeouts"})

_DESTRUCTIVE = ("delete", "replace")
_NAMES = ("name", "bucket", "identifier", "cluster_identifier", "cluster_id", "domain_name")


@dataclass(frozen=True)
class UpgradeAction:
    """What the upgrade does to one address (``moved_from`` set when a ``moved`` block moved it)."""

    address: str
    type: str
    action: str
    moved_from: str | None = None
    #: Attribute paths that force the replacement (``replace`` only).
    forcing: tuple[str, ...] = ()


@dataclass(frozen=True)
class MovedHint:
    """A delete and a create of equivalent objects: one object renamed without ``moved``."""

    type: str
    old: str
    new: str
    #: The attributes compared and found equal (what makes them one object).
    same: tuple[str, ...] = ()

    @property
    def block(self) -> str:
        """The exact ``moved`` block that keeps the object under its new address."""
        return f"moved {{\n  from = {self.old}\n  to   = {self.new}\n}}"


def upgrade_actions(plan: Plan) -> list[UpgradeAction]:
    """Every address the upgrade plan touches or moves, in plan order.

    A resource moved by a ``moved`` block and otherwise unchanged is listed
    as ``move``; reads of data sources are left out.
    """
    forcing = {rc.address: rc for rc in plan.changes}
    found: list[UpgradeAction] = []
    raw = plan.raw.get("resource_changes")
    if raw is None:  # an empty plan is not shown as JSON: only the parsed changes
        return [_action(rc, None) for rc in plan.changes if rc.mode == "managed"]
    for entry in raw:
        if entry.get("mode", "managed") != "managed":
            continue
        address = entry.get("address", "")
        previous = entry.get("previous_address")
        rc = forcing.get(address)
        if rc is not None:
            found.append(_action(rc, previous))
        elif previous:
            found.append(UpgradeAction(address, entry.get("type", ""), "move", previous))
    return found


def _action(rc: ResourceChange, previous: str | None) -> UpgradeAction:
    forcing = tuple(a.path for a in rc.attributes if a.forces_replacement)
    return UpgradeAction(rc.address, rc.type, rc.action, previous, forcing)


def moved_hints(plan: Plan) -> list[MovedHint]:
    """Pairs of a delete and a create of one type with equivalent attributes.

    Equivalent: every attribute the new object declares with a known,
    non-empty value, and that the old object has, is equal (computed ids,
    ``arn`` and ``tags_all`` aside), and at least one such attribute exists.
    Each delete and create is used once; the pair sharing most attributes wins.
    """
    deletes = [rc for rc in plan.changes if rc.action == "delete" and rc.mode == "managed"]
    creates = [rc for rc in plan.changes if rc.action == "create" and rc.mode == "managed"]
    candidates: list[tuple[int, int, int, MovedHint]] = []
    for i, gone in enumerate(deletes):
        for j, new in enumerate(creates):
            if gone.type != new.type:
                continue
            same = _equivalent(gone.before, new.after)
            if same:
                candidates.append(
                    (-len(same), i, j, MovedHint(new.type, gone.address, new.address, same))
                )
    hints: list[MovedHint] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for _, i, j, hint in sorted(candidates, key=lambda c: c[:3]):
        if i in used_old or j in used_new:
            continue
        used_old.add(i)
        used_new.add(j)
        hints.append(hint)
    return hints


def _equivalent(before: Any, after: Any) -> tuple[str, ...]:
    """The attributes showing ``before`` (state) and ``after`` (config) are one object; () if not.

    A name (``name``, ``bucket``, ...) both sides know decides alone: equal
    names are one object (other attributes may change with the move), a
    different name is another object. Without one, every top-level scalar
    the configuration sets must be equal. Nested blocks are not compared:
    the provider fills them with defaults the configuration does not state.
    """
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ()
    scalars = [
        key
        for key, wanted in sorted(after.items())
        if key not in _IGNORED
        and key in before
        and not _empty(wanted)
        and wanted is not UNKNOWN
        and not isinstance(wanted, (dict, list))
    ]
    same = [key for key in scalars if before[key] == after[key]]
    named = [key for key in _NAMES if key in scalars]
    if named:
        return tuple(named + [k for k in same if k not in named]) if named[0] in same else ()
    return tuple(same) if same and len(same) == len(scalars) else ()


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def is_allowed(address: str, allow: Iterable[str]) -> bool:
    """True when ``address`` matches an ``allow_replace`` entry.

    An entry is an address (``aws_s3_bucket.logs``; it also covers every
    instance, ``aws_s3_bucket.logs[0]``) or a glob (``module.store.*``).
    """
    bare = re.sub(r"\[[^\]]*\]$", "", address)
    return any(a in (address, bare) or fnmatch.fnmatchcase(address, a) for a in allow)


def upgrade_defects(
    plan: Plan,
    *,
    stateful: Collection[str] = STATEFUL_TYPES,
    allow_replace: Iterable[str] = (),
    module: str = "",
    scenario: str = "upgrade",
    old: str = "the old revision",
) -> list[Defect]:
    """``destructive-upgrade`` findings of the upgrade plan.

    - a replace or delete of a ``stateful`` type: an error (data loss);
    - a delete + create pair that is a rename (:func:`moved_hints`): an error
      for a stateful type, a warning for any other, with the ``moved`` block
      as the fix.

    Addresses matching ``allow_replace`` (see :func:`is_allowed`) are accepted.
    """
    allowed = list(allow_replace)
    hints = moved_hints(plan)
    renamed = {h.old: h for h in hints} | {h.new: h for h in hints}
    defects: list[Defect] = []
    seen: set[str] = set()
    for rc in plan.changes:
        if rc.mode != "managed" or rc.address in seen:
            continue
        hint = renamed.get(rc.address)
        if hint is not None:
            seen.update((hint.old, hint.new))
            if is_allowed(hint.old, allowed) or is_allowed(hint.new, allowed):
                continue
            defects.append(_rename_defect(hint, hint.type in stateful, module, scenario, old))
        elif (
            rc.action in _DESTRUCTIVE
            and rc.type in stateful
            and not is_allowed(rc.address, allowed)
        ):
            defects.append(_loss_defect(rc, module, scenario, old))
    return defects


def _rename_defect(hint: MovedHint, stateful: bool, module: str, scenario: str, old: str) -> Defect:
    loss = "its data is lost" if stateful else "anything depending on it is disrupted"
    return Defect(
        kind="destructive-upgrade",
        address=hint.new,
        declared=hint.new,
        observed=hint.old,
        module=module,
        scenario=scenario,
        severity=ERROR if stateful else WARNING,
        message=(
            f"the upgrade from {old} destroys {hint.old} and creates {hint.new}: the same "
            f"{hint.type} (equal {', '.join(hint.same[:4])}{'...' if len(hint.same) > 4 else ''}) "
            "renamed in the configuration without a `moved` block"
        ),
        why=(
            "terraform tracks objects by address; a new address without a `moved` block "
            f"means destroy the old object and create a new one, so {loss}"
        ),
        fix=_moved_fix(hint),
    )


def _loss_defect(rc: ResourceChange, module: str, scenario: str, old: str) -> Defect:
    forcing = [a for a in rc.attributes if a.forces_replacement]
    if rc.action == "delete":
        return Defect(
            kind="destructive-upgrade",
            address=rc.address,
            module=module,
            scenario=scenario,
            observed=_identity(rc.before),
            message=(
                f"the upgrade from {old} deletes {rc.address} ({rc.type}), a stateful object: "
                "its data is lost"
            ),
            why=_DELETE_REASONS.get(
                rc.action_reason or "",
                "the resource is no longer in the configuration, so terraform destroys it",
            ),
            fix=(
                "if it was renamed or moved into a module, add a `moved` block; to keep the "
                "object out of terraform's hands, add (terraform >= 1.7)\n"
                f"removed {{\n  from = {_bare(rc.address)}\n  lifecycle {{\n    destroy = false\n"
                "  }\n}\n"
                f'if losing it is intended, accept it: allow_replace=["{rc.address}"]'
            ),
        )
    attribute = forcing[0].path if forcing else None
    paths = ", ".join(a.path for a in forcing) or "(provider decided)"
    return Defect(
        kind="destructive-upgrade",
        address=rc.address,
        attribute=attribute,
        declared=forcing[0].declared if forcing else None,
        observed=forcing[0].observed if forcing else None,
        module=module,
        scenario=scenario,
        message=(
            f"the upgrade from {old} replaces {rc.address} ({rc.type}), a stateful object: "
            f"the old one and its data are destroyed. Forces replacement: {paths}"
            + "".join(
                f"; {a.path}: {show(a.observed, 60)} -> {show(a.declared, 60)}" for a in forcing
            )
        ),
        why=(
            "the provider cannot change these attributes in place, so terraform deletes the "
            "object and creates a new, empty one"
        ),
        fix=(
            f"keep {paths} as released, or migrate: create the new {rc.type} beside the old "
            "one under a new address, copy the data, then remove the old one in a later release; "
            f'if losing the data is intended, accept it: allow_replace=["{rc.address}"]'
        ),
    )


def _identity(before: Any) -> Any:
    if isinstance(before, dict):
        for key in (*_NAMES, "id"):
            if before.get(key):
                return before[key]
    return None


def _moved_fix(hint: MovedHint) -> str:
    text = f"add this block to the configuration (terraform >= 1.1):\n{hint.block}"
    prefix = re.match(r"(module\.[^.]+(?:\[[^\]]*\])?\.)", hint.old)
    if prefix and hint.new.startswith(prefix.group(1)):
        inner = MovedHint(hint.type, hint.old[prefix.end() :], hint.new[prefix.end() :])
        text += f"\nor, inside the called module itself:\n{inner.block}"
    return text


#: Terraform's ``action_reason`` of a delete, in words.
_DELETE_REASONS = {
    "delete_because_count_index": "its `count` no longer includes this index (a condition "
    "or count changed), so terraform destroys it",
    "delete_because_each_key": "its `for_each` no longer has this key, so terraform destroys it",
    "delete_because_wrong_repetition": "it switched between `count`, `for_each` and neither, "
    "so the old instance address is gone",
    "delete_because_no_module": "the module call holding it is gone or no longer has this instance",
    "delete_because_no_resource_config": "the resource is no longer in the configuration, so "
    "terraform destroys it",
}


def _bare(address: str) -> str:
    found = Address.parse(address)
    return found.resource if found is not None else address
