"""A terraform plan, parsed from ``terraform show -json``, down to attributes.

In a *second* plan (after an apply that succeeded) the two sides of a change
mean: ``before`` = what the provider read back (observed), ``after`` = what
the configuration asks for (declared). Anything that still differs is why the
module does not converge.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: The registry a provider source address names when it names no host.
DEFAULT_HOST = "registry.terraform.io"


def short_address(address: str) -> str:
    """``registry.terraform.io/hashicorp/aws`` -> ``hashicorp/aws`` (other hosts kept)."""
    return address.removeprefix(DEFAULT_HOST + "/")


class _Unknown:
    """A value terraform only knows after apply."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "(known after apply)"

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
"""A declared value terraform knows only after apply (shown as ``(known after apply)``)."""


def holds_unknown(value: Any) -> bool:
    """``value`` is, or holds anywhere, a value known only after apply."""
    if value is UNKNOWN:
        return True
    if isinstance(value, dict):
        return any(holds_unknown(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(holds_unknown(v) for v in value)
    return False


#: Shown instead of a sensitive value in every report.
SENSITIVE = "(sensitive value)"


@dataclass
class AttributeChange:
    """One attribute that differs: ``path`` like ``tags.Name`` or ``ingress[0].cidr_blocks``."""

    path: str
    observed: Any
    declared: Any
    forces_replacement: bool = False
    #: The value, something inside it or above it is sensitive on either side.
    sensitive: bool = False
    #: The plan's sensitivity masks at ``path`` (``after_sensitive`` and
    #: ``before_sensitive`` joined): which leaves to hide. None: not known, so a
    #: sensitive change is hidden whole.
    mask: Any = None

    def shown(self) -> tuple[Any, Any]:
        """``(declared, observed)`` as a report may show them: only the sensitive leaves
        read ``(sensitive value)`` (a listener action's ``client_secret``); a leaf
        sensitive on either side is hidden on both."""
        if not self.sensitive:
            return self.declared, self.observed
        if self.mask is None:
            return SENSITIVE, SENSITIVE
        return redact(self.declared, self.mask), redact(self.observed, self.mask)

    @property
    def unknown(self) -> bool:
        """True when the declared value is only known after apply."""
        return self.declared is UNKNOWN


@dataclass
class ResourceChange:
    """One resource instance terraform would change."""

    address: str
    type: str
    name: str
    mode: str
    provider: str
    actions: tuple[str, ...]
    before: Any
    after: Any
    attributes: list[AttributeChange] = field(default_factory=list)
    module_address: str | None = None
    action_reason: str | None = None
    #: The plan's masks of sensitive values in ``after`` and ``before`` (None: none given).
    after_sensitive: Any = None
    before_sensitive: Any = None

    def shown_top(self, top: str) -> tuple[Any, Any]:
        """``after[top]`` and ``before[top]`` with their sensitive leaves hidden (a leaf
        sensitive on either side, on both)."""
        after = self.after.get(top) if isinstance(self.after, dict) else None
        before = self.before.get(top) if isinstance(self.before, dict) else None
        mask = join_masks(mask_at(self.after_sensitive, top), mask_at(self.before_sensitive, top))
        return redact(after, mask), redact(before, mask)

    @property
    def action(self) -> str:
        """``create``, ``update``, ``delete``, ``replace``, ``read`` or ``no-op``."""
        acts = set(self.actions)
        if {"create", "delete"} <= acts:
            return "replace"
        return self.actions[0] if self.actions else "no-op"


@dataclass
class OutputChange:
    """One root output whose value the plan changes: ``observed`` (now) -> ``declared``."""

    name: str
    actions: tuple[str, ...]
    observed: Any
    declared: Any
    sensitive: bool = False


@dataclass
class Plan:
    """The parsed plan: resource changes, output changes, and drift kept apart."""

    changes: list[ResourceChange]
    outputs: list[OutputChange]
    #: Objects that changed outside terraform (refresh), not changes terraform makes.
    drift: list[ResourceChange]
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    #: Addresses refresh reported as drifted, even where ``drift`` has no detail
    #: (an empty plan is not shown with ``show -json``: its drift changed nothing).
    drifted: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        """True when applying this plan would change nothing (resources or outputs)."""
        return not self.changes and not self.outputs

    @property
    def errored(self) -> bool:
        """True when terraform reported the plan as errored (incomplete)."""
        return bool(self.raw.get("errored"))

    @property
    def relevant(self) -> dict[str, set[str]]:
        """Address -> top-level attributes whose drift contributed to a planned change.

        Terraform's own filter (``relevant_attributes``), the one behind its
        "Objects have changed outside of Terraform" note: drift not listed
        here changed nothing the plan does.
        """
        return relevant_attributes(self.raw)

    def change(self, address: str) -> ResourceChange:
        """The planned change of one resource instance: ``plan.change("aws_vpc.main").action``.

        Raises ``KeyError`` naming the addresses that do change when ``address`` does not.
        """
        for rc in self.changes:
            if rc.address == address:
                return rc
        raise KeyError(f"{address} has no change in this plan; changed: {self.addresses()}")

    def addresses(self) -> list[str]:
        """The addresses of every resource instance this plan changes, in plan order."""
        return [rc.address for rc in self.changes]

    def summary(self) -> str:
        """One line for people: ``"1 to update, 1 output(s) to change"`` (or ``"no changes"``)."""
        counts = Counter(rc.action for rc in self.changes)
        parts = [f"{n} to {a}" for a, n in sorted(counts.items())]
        if self.outputs:
            parts.append(f"{len(self.outputs)} output(s) to change")
        if self.drift:
            parts.append(f"{len(self.drift)} drifted outside terraform")
        return ", ".join(parts) or "no changes"


def parse_plan(data: dict[str, Any]) -> Plan:
    """Build a :class:`Plan` from the JSON of ``terraform show -json PLANFILE``."""
    changes = [
        rc
        for rc in (_resource_change(raw) for raw in data.get("resource_changes") or [])
        if rc.action != "no-op"
    ]
    drift = []
    for raw in data.get("resource_drift") or []:
        rc = _resource_change(raw)
        # Refresh reports null -> {} (and back) on many 3.x attributes; those
        # are not drift a person could act on.
        if rc.action != "no-op" and _drop_empty(rc.before) != _drop_empty(rc.after):
            drift.append(rc)
    outputs = []
    for name, raw in (data.get("output_changes") or {}).items():
        actions = tuple(raw.get("actions") or ())
        if actions and actions != ("no-op",):
            # A map output with one unknown entry is that map, the entry unknown.
            declared = _merge_unknown(raw.get("after"), raw.get("after_unknown"))
            outputs.append(
                OutputChange(
                    name,
                    actions,
                    raw.get("before"),
                    declared,
                    bool(raw.get("after_sensitive") or raw.get("before_sensitive")),
                )
            )
    return Plan(changes, outputs, drift, data, [rc.address for rc in drift])


def relevant_attributes(data: dict[str, Any]) -> dict[str, set[str]]:
    """``relevant_attributes`` of a plan's JSON as address -> top-level attribute names.

    ``[{"resource": "aws_sg.a", "attribute": ["ingress"]}]`` -> ``{"aws_sg.a": {"ingress"}}``;
    an empty attribute path means the whole resource (``"*"``).
    """
    found: dict[str, set[str]] = {}
    for entry in data.get("relevant_attributes") or []:
        address = entry.get("resource")
        if not address:
            continue
        path = entry.get("attribute") or []
        head = path[0] if path and isinstance(path[0], str) else "*"
        found.setdefault(address, set()).add(head)
    return found


def top_attribute(path: str) -> str:
    """The top-level attribute of a plan path: ``ingress[0].cidr_blocks`` -> ``ingress``."""
    return path.split(".", 1)[0].split("[", 1)[0]


def _resource_change(raw: dict[str, Any]) -> ResourceChange:
    change = raw.get("change") or {}
    before = change.get("before")
    after = change.get("after")
    unknown = change.get("after_unknown") or {}
    replace_paths = {_path_text(p) for p in change.get("replace_paths") or []}
    # Terraform writes sensitive values in clear and marks them in these masks: a value
    # sensitive on either side is never shown.
    masks = (change.get("after_sensitive"), change.get("before_sensitive"))
    rc = ResourceChange(
        address=raw.get("address", ""),
        type=raw.get("type", ""),
        name=raw.get("name", ""),
        mode=raw.get("mode", "managed"),
        provider=raw.get("provider_name", ""),
        actions=tuple(change.get("actions") or ()),
        before=before,
        after=after,
        module_address=raw.get("module_address"),
        action_reason=raw.get("action_reason"),
        after_sensitive=masks[0],
        before_sensitive=masks[1],
    )
    if rc.action in ("update", "replace"):
        declared = _merge_unknown(after, unknown)
        for path, observed, wanted in diff_values(before, declared):
            rc.attributes.append(
                AttributeChange(
                    path,
                    observed,
                    wanted,
                    forces_replacement=any(
                        path == p or path.startswith(p + ".") or path.startswith(p + "[")
                        for p in replace_paths
                    ),
                    sensitive=any(_is_sensitive(mask, path) for mask in masks),
                    mask=join_masks(mask_at(masks[0], path), mask_at(masks[1], path)),
                )
            )
    return rc


def _merge_unknown(after: Any, unknown: Any) -> Any:
    """``after`` with UNKNOWN wherever ``after_unknown`` says the value is unknown."""
    if unknown is True:
        return UNKNOWN
    if isinstance(unknown, dict):
        merged = dict(after) if isinstance(after, dict) else {}
        for key, flag in unknown.items():
            merged[key] = _merge_unknown(merged.get(key), flag)
        return merged
    if isinstance(unknown, list) and isinstance(after, list):
        return [
            _merge_unknown(a, unknown[i] if i < len(unknown) else False)
            for i, a in enumerate(after)
        ]
    return after


def diff_values(observed: Any, declared: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every (path, observed, declared) that differs, at the most useful depth.

    Maps and same-length lists of blocks are descended into so the path names
    the exact attribute; a list whose elements are the same in another order
    is reported whole (that *is* the finding: an ordering diff).
    """
    if _same(observed, declared):
        return []
    if isinstance(observed, dict) and isinstance(declared, dict):
        found = []
        for key in sorted(set(observed) | set(declared)):
            sub = f"{path}.{key}" if path else key
            found.extend(diff_values(observed.get(key), declared.get(key), sub))
        return found or [(path, observed, declared)]
    if (
        isinstance(observed, list)
        and isinstance(declared, list)
        and len(observed) == len(declared)
        and not _same_elements(observed, declared)
        and all(isinstance(x, dict) for x in observed + declared)
    ):
        found = []
        for i, (o, d) in enumerate(zip(observed, declared, strict=True)):
            found.extend(diff_values(o, d, f"{path}[{i}]"))
        return found
    return [(path, observed, declared)]


def _drop_empty(value: Any) -> Any:
    """``value`` with null/empty map entries removed (refresh noise, not drift)."""
    if isinstance(value, dict):
        return {k: _drop_empty(v) for k, v in value.items() if v not in (None, {}, [], "")}
    if isinstance(value, list):
        return [_drop_empty(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    if a is UNKNOWN or b is UNKNOWN:
        return False
    return a == b


def _same_elements(a: list[Any], b: list[Any]) -> bool:
    try:
        return sorted(map(repr, a)) == sorted(map(repr, b))
    except TypeError:  # pragma: no cover - repr always works
        return False


def _path_text(parts: list[Any]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _is_sensitive(mask: Any, path: str) -> bool:
    """True when ``mask`` (a plan's ``after_sensitive``/``before_sensitive``) marks the
    value at ``path``, anything above it, or anything inside it as sensitive."""
    for part in _path_parts(path):
        if mask is True:
            return True
        if isinstance(mask, dict):
            mask = mask.get(part) if isinstance(part, str) else None
        elif isinstance(mask, list):
            mask = mask[part] if isinstance(part, int) and part < len(mask) else None
        else:
            return False
    return _any_marked(mask)


def mask_at(mask: Any, path: str) -> Any:
    """The part of a sensitivity mask that covers the value at ``path``: ``True`` when
    it or anything above it is sensitive, else the mask of what is inside it."""
    for part in _path_parts(path):
        if mask is True:
            return True
        if isinstance(mask, dict) and isinstance(part, str):
            mask = mask.get(part)
        elif isinstance(mask, list) and isinstance(part, int) and part < len(mask):
            mask = mask[part]
        else:
            return None
    return mask


def join_masks(a: Any, b: Any) -> Any:
    """One mask that marks what either marks (lists joined by position)."""
    if a is True or b is True:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: join_masks(a.get(k), b.get(k)) for k in {*a, *b}}
    if isinstance(a, list) and isinstance(b, list):
        return [
            join_masks(a[i] if i < len(a) else None, b[i] if i < len(b) else None)
            for i in range(max(len(a), len(b)))
        ]
    if a in (None, False, {}, []):
        return b
    if b in (None, False, {}, []):
        return a
    return True if _any_marked(a) or _any_marked(b) else a  # shapes disagree: hide more


def redact(value: Any, mask: Any) -> Any:
    """``value`` with every part ``mask`` marks replaced by ``(sensitive value)``::

    >>> redact([{"id": "a", "secret": "s"}], [{"secret": True}])
    [{'id': 'a', 'secret': '(sensitive value)'}]
    """
    if mask is True:
        return SENSITIVE
    if isinstance(value, dict) and isinstance(mask, dict):
        return {k: redact(v, mask.get(k)) for k, v in value.items()}
    if isinstance(value, list) and isinstance(mask, list):
        return [redact(v, mask[i] if i < len(mask) else None) for i, v in enumerate(value)]
    if mask not in (None, False) and _any_marked(mask):
        return SENSITIVE  # a mask of another shape than the value: hide it all
    return value


def _any_marked(mask: Any) -> bool:
    if isinstance(mask, dict):
        return any(_any_marked(m) for m in mask.values())
    if isinstance(mask, list):
        return any(_any_marked(m) for m in mask)
    return mask is True


def _path_parts(path: str) -> list[str | int]:
    """``ingress[0].cidr_blocks`` -> ``["ingress", 0, "cidr_blocks"]`` (``""`` -> ``[]``)."""
    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        parts.append(int(index) if index else name)
    return parts


def format_value(value: Any, limit: int = 120) -> str:
    """A value as a person reads it in a failure message."""
    if value is UNKNOWN:
        return "(known after apply)"
    text = value if isinstance(value, str) and value and not value.isspace() else None
    text = json.dumps(value, default=_unknown_text) if text is None else json.dumps(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _unknown_text(value: Any) -> str:
    """What ``json.dumps`` writes for a value inside a structure that only apply knows."""
    return "(known after apply)" if value is UNKNOWN else str(value)
