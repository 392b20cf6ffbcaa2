"""The recovered world: what the emulator holds after a scenario, against a clean apply's.

An empty second plan is not a correct world. An update refused with a
non-retryable error fails the apply, yet the provider's SDK keeps the planned
values in state, the resource is not tainted, and when its Read never
refreshes the attribute the re-run plans nothing while the object keeps its
old value (``aws_db_instance.password``, an ``aws_s3_object``'s content).

Pure: the objects an emulator holds (:class:`HeldObject`, read elsewhere)
and state in, a :class:`World` (objects by address) and defects out::

    clean = match_world(held_after_a_clean_apply, clean_state, covered)
    recovered = match_world(held_after_the_scenario, recovered_state, covered)
    world_defects(clean, recovered, fault="error@PutObject#1:status=403")
    # [Defect(kind='wrong-fixed-point', address='aws_s3_object.index',
    #         attribute='content', ...)]

Objects are matched through state by address (the state attributes that
identify each object, such as an RDS instance's ``identifier``), so ids an
emulator generates never decide a match; values that are generated (ids,
ARNs, timestamps) compare equal whatever they are.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .defects import Defect
from .state import StateResource

__all__ = ["HeldObject", "World", "held_objects", "match_world", "world_defects"]


@dataclass(frozen=True)
class HeldObject:
    """One object an emulator holds: its terraform types, identity and stored attributes."""

    types: tuple[str, ...]
    match: dict[str, str]
    attributes: dict[str, Any] = field(default_factory=dict)
    #: Attributes never shown (a password): a message gives a length and a hash.
    secret: frozenset[str] = frozenset()
    region: str = ""

    @property
    def label(self) -> str:
        """``aws_db_instance identifier=orders``: the object in a message."""
        return f"{self.types[0]} " + ", ".join(f"{k}={v}" for k, v in self.match.items())


@dataclass
class World:
    """What an emulator holds, matched to one state."""

    #: Address -> the object state records there.
    objects: dict[str, HeldObject] = field(default_factory=dict)
    #: Held objects no state entry identifies.
    unmatched: list[HeldObject] = field(default_factory=list)
    #: Addresses of compared types whose object the emulator does not hold.
    missing: list[str] = field(default_factory=list)
    #: The resource types the emulator's reader covers (only they are compared).
    covered: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (zero-code mode shares a module's clean world between workers)."""
        return {
            "objects": {a: _held_json(o) for a, o in self.objects.items()},
            "unmatched": [_held_json(o) for o in self.unmatched],
            "missing": list(self.missing),
            "covered": sorted(self.covered),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> World:
        """The World :meth:`to_json` wrote."""
        return cls(
            {a: _held(o) for a, o in (data.get("objects") or {}).items()},
            [_held(o) for o in data.get("unmatched") or []],
            list(data.get("missing") or []),
            frozenset(data.get("covered") or ()),
        )


def _held_json(obj: HeldObject) -> dict[str, Any]:
    return {
        "types": list(obj.types),
        "match": dict(obj.match),
        "attributes": dict(obj.attributes),
        "secret": sorted(obj.secret),
        "region": obj.region,
    }


def _held(data: dict[str, Any]) -> HeldObject:
    """One object of a backend's ``world()`` answer (or of :meth:`World.to_json`)."""
    return HeldObject(
        types=tuple(data["types"]),
        match={k: str(v) for k, v in (data.get("match") or {}).items()},
        attributes=dict(data.get("attributes") or {}),
        secret=frozenset(data.get("secret") or ()),
        region=data.get("region") or "",
    )


def held_objects(data: dict[str, Any]) -> list[HeldObject]:
    """The objects of a backend's ``world()`` answer (``{"objects": [...]}``)."""
    return [_held(o) for o in data.get("objects") or []]


def match_world(
    held: Iterable[HeldObject], state: Sequence[StateResource], covered: Collection[str]
) -> World:
    """Each held object under the state address whose values identify it.

    A state resource of a type in ``covered`` that no object matches is
    ``missing``; an object that no state resource matches is ``unmatched``.
    """
    world = World(covered=frozenset(covered))
    candidates = [r for r in state if r.is_managed and r.type in world.covered]
    taken: set[str] = set()
    for obj in held:
        address = next(
            (
                r.address
                for r in candidates
                if r.address not in taken
                and r.type in obj.types
                and all(_same_id(r.values.get(k), v) for k, v in obj.match.items())
            ),
            None,
        )
        if address is None:
            world.unmatched.append(obj)
        else:
            taken.add(address)
            world.objects[address] = obj
    world.missing = [r.address for r in candidates if r.address not in taken]
    return world


def _same_id(in_state: Any, held: str) -> bool:
    return in_state is not None and str(in_state) == held


def world_defects(
    clean: World,
    recovered: World,
    *,
    fault: str,
    module: str = "",
    scenario: str = "",
    inventoried: Collection[str] = (),
) -> list[Defect]:
    """``wrong-fixed-point`` for each attribute the recovered world holds otherwise than
    the clean one, and for each object state records that the emulator lacks; ``orphan``
    for a held object no state accounts for, of a type the inventory does not list
    (``inventoried`` types have their leftovers found there already).

    Call it only when the re-run's plan is empty: a planned change is a second-plan
    defect, not a wrong fixed point.
    """
    found: list[Defect] = []
    for address, obj in sorted(recovered.objects.items()):
        reference = clean.objects.get(address)
        if reference is None:
            continue  # the clean apply has no such address (count or for_each of the runs)
        for attribute in sorted(reference.attributes):
            want, have = reference.attributes.get(attribute), obj.attributes.get(attribute)
            if _equivalent(want, have):
                continue
            secret = attribute in obj.secret or attribute in reference.secret
            found.append(
                _wrong_value(address, attribute, want, have, secret, fault, module, scenario)
            )
    for address in recovered.missing:
        if address in clean.missing:
            continue  # the emulator never holds it (a reader's gap), clean or not
        found.append(_missing(address, fault, module, scenario))
    clean_unmatched = {_identity(o) for o in clean.unmatched}
    for obj in recovered.unmatched:
        if _identity(obj) in clean_unmatched or set(obj.types) & set(inventoried):
            continue
        found.append(_unaccounted(obj, fault, module, scenario))
    return found


def _identity(obj: HeldObject) -> tuple[Any, ...]:
    return (obj.types, tuple(sorted(obj.match.items())))


# -- comparison ----------------------------------------------------------------------------

#: Values an emulator generates: they differ between any two runs and mean nothing here.
_GENERATED = (
    re.compile(r"^arn:aws[\w-]*:"),  # ARNs (they embed generated ids)
    re.compile(r"^[a-z]{1,8}(-[a-z]{1,8})?-[0-9a-f]{8,17}$"),  # vpc-0a1b2c3d, sg-..., db-...
    re.compile(r"^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$", re.I),  # UUIDs
    re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}"),  # timestamps
)


def _generated(value: Any) -> bool:
    return isinstance(value, str) and any(p.match(value) for p in _GENERATED)


def _equivalent(want: Any, have: Any) -> bool:
    """Equal, or both generated values (an id, an ARN, a timestamp); lists and maps
    element by element."""
    if want == have:
        return True
    if _generated(want) and _generated(have):
        return True
    if isinstance(want, dict) and isinstance(have, dict):
        return want.keys() == have.keys() and all(_equivalent(want[k], have[k]) for k in want)
    if isinstance(want, list) and isinstance(have, list):
        return len(want) == len(have) and all(map(_equivalent, want, have))
    return False


#: Keys the digests of secrets: two digests in one run compare, none can be looked up.
_SECRET_KEY = secrets.token_bytes(16)


def shown(value: Any, secret: bool) -> Any:
    """``value`` as a message shows it: a secret as its length and a keyed digest."""
    if not secret or value is None:
        return value
    text = str(value)
    digest = hmac.new(_SECRET_KEY, text.encode(), hashlib.sha256).hexdigest()[:8]
    return f"<secret: {len(text)} characters, digest {digest}>"


# -- defects -------------------------------------------------------------------------------

_WHY = (
    "the fault failed the update after the plan had been made, yet the provider kept the "
    "planned value in state (terraform-plugin-sdk returns the planned values as the new "
    "state when Update fails, and does not taint the resource), and its Read never "
    "refreshes this attribute: the re-run sees nothing to change, the plan is empty, and "
    "the object keeps the value it had"
)


def _fix(address: str) -> str:
    return (
        f"write the configured value again by replacing the object: "
        f"`terraform apply -replace={address}`. For the module or provider author: fail "
        "the update so that state keeps the old value (return the error before setting "
        "new values, or `d.Partial(true)`), or make the value readable so that a refresh "
        "sees the difference"
    )


def _after(fault: str, scenario: str) -> int | None:
    """Where a message ``after {fault} ...`` names the scenario (when the fault's label
    is the scenario's, as in a scenario's run)."""
    return len("after ") if fault == scenario else None


def _wrong_value(
    address: str,
    attribute: str,
    want: Any,
    have: Any,
    secret: bool,
    fault: str,
    module: str,
    scenario: str,
) -> Defect:
    clean, recovered = shown(want, secret), shown(have, secret)
    return Defect(
        kind="wrong-fixed-point",
        address=address,
        attribute=attribute,
        declared=clean,
        observed=recovered,
        module=module,
        scenario=scenario,
        scenario_at=_after(fault, scenario),
        message=(
            f"after {fault} and a clean re-run, the plan is empty but {address}.{attribute} "
            f"differs from what a clean apply makes: the emulator holds {recovered!r}, a "
            f"clean apply of the same configuration {clean!r}"
        ),
        why=_WHY,
        fix=_fix(address),
    )


def _missing(address: str, fault: str, module: str, scenario: str) -> Defect:
    return Defect(
        kind="wrong-fixed-point",
        address=address,
        module=module,
        scenario=scenario,
        scenario_at=_after(fault, scenario),
        message=(
            f"after {fault} and a clean re-run, the plan is empty but the emulator holds no "
            f"object for {address}, which state records and a clean apply makes"
        ),
        why=(
            "state records an object the fault left unmade or deleted, and the provider's "
            "Read does not notice it is gone, so the re-run plans nothing"
        ),
        fix=_fix(address),
    )


def _unaccounted(obj: HeldObject, fault: str, module: str, scenario: str) -> Defect:
    return Defect(
        kind="orphan",
        address=None,
        module=module,
        scenario=scenario,
        objects=[obj.label],
        observed=obj.label,
        scenario_at=_after(fault, scenario),
        message=(
            f"after {fault} and a clean re-run, the emulator holds {obj.label}, which no "
            "state entry accounts for and a clean apply does not make"
        ),
        why="the fault's run made the object and terraform never recorded it",
        fix=(
            "make the create idempotent (a fixed name the re-run adopts or imports), or "
            "delete the object by hand"
        ),
    )
