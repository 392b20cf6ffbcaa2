"""Duplicates and orphans: cloud objects a scenario created that state does not track.

An empty second plan proves only that Terraform is content with what it
*knows*. When a create call succeeds but its response is lost (the SDK
retries and creates a second object) or terraform dies before writing the
new object into state, the account keeps an object no one manages. This
module compares the objects that appeared during a scenario
(``after.minus(before)`` of :mod:`pytest_converge.inventory`) with the
final state and reports each untracked one::

    >>> defects = find_leftovers(created, state_resources(show_json), module="network")
    >>> defects[0].kind, defects[0].address, defects[0].objects
    ('duplicate', 'aws_vpc.main', ['vpc-0f00'])

Pure: plain data in, :class:`~pytest_converge.analysis.defects.Defect` out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..inventory.catalogue import (
    ADOPTED_ID_ATTRIBUTES,
    GLOBAL,
    NAME_ATTRIBUTES,
    NAME_IS_IDENTITY,
    is_setting,
    route_id,
    rule_ids,
)
from .defects import Defect
from .hints import delete_hint, duplicate_prevention, in_region, orphan_fix
from .state import StateResource

if TYPE_CHECKING:
    from ..inventory import CloudObject

__all__ = ["NAME_IS_IDENTITY", "find_leftovers", "is_setting", "stands_for", "state_region"]

#: Ids of objects that Terraform does not give an id the API knows (a rule is a hash,
#: an attachment a random string): the lister names them with the same function of
#: their content that these derive from state, for the resource type itself and for
#: the resources that declare them inline. Type -> [(state type, ids from its values)].
_CONTENT_IDS: dict[str, list[tuple[str, Callable[[dict[str, Any]], set[str]]]]] = {}


def _content_ids(object_type: str, *state_types: str):
    def register(fn: Callable[[dict[str, Any]], set[str]]) -> Callable[[dict[str, Any]], set[str]]:
        for state_type in state_types:
            _CONTENT_IDS.setdefault(object_type, []).append((state_type, fn))
        return fn

    return register


def _sources(rule: dict[str, Any], own_group: str) -> list[str]:
    found = [*(rule.get("cidr_blocks") or []), *(rule.get("ipv6_cidr_blocks") or [])]
    found += list(rule.get("prefix_list_ids") or [])
    found += list(rule.get("security_groups") or [])
    if rule.get("source_security_group_id"):
        found.append(rule["source_security_group_id"])
    if rule.get("self"):
        found.append(own_group)
    return found


@_content_ids("aws_security_group_rule", "aws_security_group_rule")
def _rule_ids(v: dict[str, Any]) -> set[str]:
    group = v.get("security_group_id") or ""
    return rule_ids(
        group, v.get("type", ""), v.get("protocol"), v.get("from_port"), v.get("to_port"),
        _sources(v, group),
    )  # fmt: skip


@_content_ids("aws_security_group_rule", "aws_security_group", "aws_default_security_group")
def _inline_rule_ids(v: dict[str, Any]) -> set[str]:
    group = v.get("id") or ""
    ids: set[str] = set()
    for direction in ("ingress", "egress"):
        for rule in v.get(direction) or []:
            ids |= rule_ids(
                group, direction, rule.get("protocol"), rule.get("from_port"),
                rule.get("to_port"), _sources(rule, group),
            )  # fmt: skip
    return ids


def _vpc_rule_ids(direction: str) -> Callable[[dict[str, Any]], set[str]]:
    """A rule of ``aws_vpc_security_group_{ingress,egress}_rule``: one source each."""

    def ids(v: dict[str, Any]) -> set[str]:
        source = next(
            (v[k] for k in ("cidr_ipv4", "cidr_ipv6", "prefix_list_id",
                            "referenced_security_group_id") if v.get(k)),
            None,
        )  # fmt: skip
        return rule_ids(
            v.get("security_group_id") or "", direction, v.get("ip_protocol"),
            v.get("from_port"), v.get("to_port"), [source] if source else [],
        )  # fmt: skip

    return ids


for _direction in ("ingress", "egress"):
    _content_ids("aws_security_group_rule", f"aws_vpc_security_group_{_direction}_rule")(
        _vpc_rule_ids(_direction)
    )


_DESTINATIONS = (
    "destination_cidr_block",
    "destination_ipv6_cidr_block",
    "destination_prefix_list_id",
)


@_content_ids("aws_route", "aws_route")
def _route_ids(v: dict[str, Any]) -> set[str]:
    return {route_id(v.get("route_table_id") or "", v[k]) for k in _DESTINATIONS if v.get(k)}


@_content_ids("aws_route", "aws_route_table", "aws_default_route_table")
def _inline_route_ids(v: dict[str, Any]) -> set[str]:
    table = v.get("id") or ""
    return {
        route_id(table, r[k])
        for r in v.get("route") or []
        for k in ("cidr_block", "ipv6_cidr_block", "destination_prefix_list_id")
        if r.get(k)
    }


def _attachments(owner_key: str, list_key: str) -> Callable[[dict[str, Any]], set[str]]:
    def ids(v: dict[str, Any]) -> set[str]:
        arn = v.get("policy_arn") or ""
        if v.get(owner_key):
            return {f"{v[owner_key]}/{arn}"}
        return {f"{owner}/{arn}" for owner in v.get(list_key) or []}

    return ids


for _kind in ("role", "user", "group"):
    _content_ids(f"aws_iam_{_kind}_policy_attachment", f"aws_iam_{_kind}_policy_attachment")(
        _attachments(_kind, "")
    )
    # The exclusive aws_iam_policy_attachment lists roles, users and groups at once.
    _content_ids(f"aws_iam_{_kind}_policy_attachment", "aws_iam_policy_attachment")(
        _attachments("", f"{_kind}s")
    )
_content_ids("aws_iam_role_policy_attachment", "aws_iam_role")(
    lambda v: {f"{v.get('name')}/{arn}" for arn in v.get("managed_policy_arns") or []}
)
_content_ids("aws_iam_role_policy", "aws_iam_role")(
    lambda v: {
        f"{v.get('name')}:{p.get('name')}" for p in v.get("inline_policy") or [] if p.get("name")
    }
)

_WHY_DUPLICATE = (
    "The create call succeeded but its response was lost (a timeout, a reset connection, "
    "a 5xx from a proxy), and the SDK retried a non-idempotent create; or terraform was "
    "killed after the create and the re-run created the object again. State records only "
    "one of the two, so the second plan is empty while the extra object stays in the "
    "account (and on the bill) with nothing managing it."
)
_WHY_ORPHAN = (
    "The create call succeeded but terraform died (or gave up after an error) before "
    "recording the new object in state, or its response was lost so terraform never "
    "learned the id. Nothing manages the object now: a re-run creates another one or "
    "fails with 'already exists', and `terraform destroy` leaves it behind."
)


def find_leftovers(
    created: Iterable[CloudObject],
    state: Iterable[StateResource],
    *,
    module: str = "",
    scenario: str = "",
    provider_regions: Mapping[str, str] | None = None,
) -> list[Defect]:
    """One defect per object in ``created`` that no managed resource in ``state`` tracks.

    *Tracked* means the object's id or ARN equals a same-type state resource's
    ``id`` or ``arn`` (URLs compared by path only, since an SQS queue URL
    embeds whichever endpoint answered), or, for types whose names are unique
    (:data:`NAME_IS_IDENTITY`), its name equals the resource's ``name`` /
    ``bucket`` / ``function_name`` / ``key_name``; rules, routes and policy
    attachments are tracked by their content, also when declared inline in
    their group, table or role. A different type never matches, whatever
    the name. Data sources are ignored.

    Matching is **per region**: a state resource's region is the one in its
    ARN, else its ``region`` attribute, else ``provider_regions`` of its
    provider configuration (``"aws"``, ``"aws.west"``); a resource or object
    whose region is unknown or global matches any region. So a queue named
    like the module's own but in another region is a leftover, and a VPC
    duplicated through a provider alias is matched against that alias's VPCs.

    An untracked object is a **duplicate** of the same-type, same-region
    state resource that resembles it, else an **orphan**. Resemblance
    compares the identity attributes both sides have - ``cidr_block``, the
    ``Name`` tag, the name (or a ``name_prefix`` the object's name starts with):

    * one of them equal and none different: resembles (a strong match);
    * none of them present on both sides: resembles (a weak match) - same
      type with nothing else to tell them apart, as with a KMS key;
    * any of them different: does not resemble (a different object).

    Among resembling resources strong beats weak, then the more specific name
    (the name itself, then the longer ``name_prefix``), then the one sharing most
    other attributes (``vpc_id``, ``availability_zone`` ...), then the first
    address (the message then names every resource it is as like). A
    duplicate names that address in ``address`` and the extra object's id in
    ``objects``; an orphan has ``address=None``. Each
    leftover is its own defect, even when two duplicate the same address.
    ``reproduce`` is left for the caller, which knows the scenario.
    """
    managed = _Managed.of(state, dict(provider_regions or {}))
    untracked = [
        obj
        for obj in sorted(created, key=lambda o: (o.type, o.id, o.region))
        if not managed.tracks(obj)
    ]
    # A rule, route or attachment of a leftover group, table or role goes with it
    # (AWS gives every new group an allow-all egress rule): one defect, not two.
    leftover_ids = {o.id for o in untracked}
    parts: dict[str, list[str]] = {}
    for obj in untracked:
        owner = _owner(obj)
        if owner is not None and owner in leftover_ids:
            parts.setdefault(owner, []).append(obj.id)
    return [
        _leftover(obj, managed.candidates(obj), parts.get(obj.id, []), module, scenario)
        for obj in untracked
        if _owner(obj) not in leftover_ids
    ]


@dataclass(frozen=True)
class _Managed:
    """The managed resources of a state, by what can track an object of each type."""

    regions: Mapping[str, str]
    #: Ids of objects terraform knows without having created them (a VPC's default
    #: security group, a replaced main route table): never a leftover.
    adopted: set[str]
    #: Object type -> (keys, region) of every state resource that can track one.
    keys_by_type: dict[str, list[tuple[set[str], str | None]]]
    by_type: dict[str, list[StateResource]]

    @classmethod
    def of(cls, state: Iterable[StateResource], regions: Mapping[str, str]) -> _Managed:
        managed = [r for r in state if r.mode == "managed"]
        adopted: set[str] = set()
        for r in managed:
            adopted.update(_norm(r.values.get(k)) for k in ADOPTED_ID_ATTRIBUTES if r.values.get(k))
        keys_by_type: dict[str, list[tuple[set[str], str | None]]] = {}
        by_type: dict[str, list[StateResource]] = {}
        for r in managed:
            region = state_region(r, regions)
            keys_by_type.setdefault(r.type, []).append((_state_keys(r), region))
            by_type.setdefault(r.type, []).append(r)
        for object_type, sources in _CONTENT_IDS.items():
            for state_type, ids in sources:
                for r in by_type.get(state_type, []):
                    entry = (ids(r.values), state_region(r, regions))
                    keys_by_type.setdefault(object_type, []).append(entry)
        return cls(regions, adopted, keys_by_type, by_type)

    def tracks(self, obj: CloudObject) -> bool:
        """Some resource (or the state's adopted ids) tracks ``obj`` in its region."""
        if _norm(obj.id) in self.adopted:
            return True
        mine = _object_keys(obj)
        return any(
            mine & keys and _same_region(obj.region, region)
            for keys, region in self.keys_by_type.get(obj.type, [])
        )

    def candidates(self, obj: CloudObject) -> list[StateResource]:
        """The resources of ``obj``'s type and region, by address: what it may duplicate."""
        return sorted(
            (
                r
                for r in self.by_type.get(obj.type, [])
                if _same_region(obj.region, state_region(r, self.regions))
            ),
            key=lambda r: r.address,
        )


def _leftover(
    obj: CloudObject,
    candidates: list[StateResource],
    parts: list[str],
    module: str,
    scenario: str,
) -> Defect:
    """``obj``'s finding: a duplicate of the candidate it resembles, else an orphan;
    its ``parts`` (the ids of its leftover rules, routes, attachments) go with it."""
    # A rule, route or attachment is its content: one that differs is no duplicate.
    best = None if obj.type in _CONTENT_IDS else _best_resemblance(obj, candidates)
    if best is not None:
        defect = _duplicate(obj, best, candidates, module, scenario)
    else:
        defect = _orphan(obj, candidates, module, scenario)
    defect.objects.extend(parts)
    return defect


def left_object(defect: Defect, created: Iterable[CloudObject]) -> CloudObject | None:
    """The created object a leftover finding (an orphan, a duplicate) is about: the one
    with its first object id. Ids are unique within a type only (an ElastiCache and a
    Redshift subnet group may both be ``ex-complete``): of several, the one whose type
    the finding's text opens with (``aws_elasticache_subnet_group ex-complete ...``)."""
    if not defect.objects:
        return None
    same = [obj for obj in created if obj.id == defect.objects[0]]
    if len(same) > 1:
        same = [obj for obj in same if defect.message.startswith(f"{obj.type} {obj.id}")]
    return same[0] if len(same) == 1 else None


def stands_for(obj: CloudObject, state: Iterable[StateResource]) -> str | None:
    """The address in ``state`` that ``obj`` is (its id, ARN or unique name), or else the
    one it resembles (see :func:`find_leftovers`): which resource a leftover object of a
    run stands for in the state of a clean apply of the same configuration."""
    candidates = sorted(
        (r for r in state if r.mode == "managed" and r.type == obj.type), key=lambda r: r.address
    )
    mine = _object_keys(obj)
    tracked = [r.address for r in candidates if mine & _state_keys(r)]
    if tracked:
        return tracked[0] if len(tracked) == 1 else None
    best = None if obj.type in _CONTENT_IDS else _best_resemblance(obj, candidates)
    if best is None or not (best.strong or len(candidates) == 1):
        return None  # nothing tells it from its siblings
    if len(_tied(obj, candidates)) > 1:
        return None  # as like one of them as another (one name_prefix)
    return best.resource.address


#: Attributes of a listed sub-object that name the object it belongs to.
_OWNER_KEYS = ("security_group_id", "route_table_id", "topic_arn", "owner")


def _owner(obj: CloudObject) -> str | None:
    for key in _OWNER_KEYS:
        value = obj.attributes.get(key)
        if isinstance(value, str) and value and value != obj.id:
            return value
    return None


def state_region(r: StateResource, provider_regions: Mapping[str, str] | None = None) -> str | None:
    """The region a state resource lives in, or None when nothing says (see find_leftovers)."""
    region = r.values.get("region")  # an S3 bucket's own location
    if isinstance(region, str) and region:
        return region
    arn = r.values.get("arn")
    if isinstance(arn, str) and arn.startswith("arn:"):
        parts = arn.split(":")
        if len(parts) > 3:
            return parts[3] or GLOBAL  # IAM and Route 53 ARNs have no region
    if provider_regions and r.provider:
        return provider_regions.get(_provider_key(r.provider))
    return None


def _provider_key(provider: str) -> str:
    """``provider["registry.terraform.io/hashicorp/aws"].west`` -> ``aws.west``."""
    head, _, alias = provider.rpartition("]")
    name = head.rsplit("/", 1)[-1].strip('"')
    alias = alias.lstrip(".")
    return f"{name}.{alias}" if alias else name


def _same_region(a: str | None, b: str | None) -> bool:
    return not a or not b or a == b or GLOBAL in (a, b)


# --- matching ------------------------------------------------------------------------------


def _norm(value: Any) -> str:
    """A comparable form of an id: URLs by path (``/123456789012/queue``), others as is."""
    text = str(value).strip()
    if text.startswith(("http://", "https://")):
        return urlsplit(text).path.rstrip("/")
    return text


def _state_keys(r: StateResource) -> set[str]:
    keys = {_norm(r.values[k]) for k in ("id", "arn", "url") if r.values.get(k)}
    if r.id:
        keys.add(_norm(r.id))
    if r.type in NAME_IS_IDENTITY:
        keys.update(str(r.values[k]) for k in NAME_ATTRIBUTES if r.values.get(k))
    return keys


def _object_keys(obj: CloudObject) -> set[str]:
    keys = {_norm(obj.id)}
    if obj.arn:
        keys.add(_norm(obj.arn))
    if obj.name and obj.type in NAME_IS_IDENTITY:
        keys.add(obj.name)
    return keys


@dataclass(frozen=True)
class _Resemblance:
    resource: StateResource
    strong: bool
    shared: list[str]  # identity attributes equal on both sides, for the message
    score: int  # other attributes equal on both sides (a tie-breaker)
    #: How much of the object's name the resource fixes: its whole name, the length of
    #: its ``name_prefix`` (``app-task-`` tells more than ``app-``), 0 when neither.
    named: int = 0

    def rank(self) -> tuple[bool, int, int]:
        """Lower is a better match: strong first, then the more specific name, then
        more other attributes shared."""
        return (not self.strong, -self.named, -self.score)


def _name_tag(tags: Any) -> str | None:
    return tags.get("Name") if isinstance(tags, dict) else None


def _identity_pairs(obj: CloudObject, r: StateResource) -> list[tuple[str, Any, Any]]:
    """``(label, object value, state value)`` for each identity attribute both sides have."""
    pairs: list[tuple[str, Any, Any]] = []
    cidr = obj.attributes.get("cidr_block")
    if cidr and r.values.get("cidr_block"):
        pairs.append(("cidr_block", cidr, r.values["cidr_block"]))
    obj_tag = _name_tag(obj.attributes.get("tags"))
    state_tag = _name_tag(r.values.get("tags")) or _name_tag(r.values.get("tags_all"))
    if obj_tag and state_tag:
        pairs.append(("tags.Name", obj_tag, state_tag))
    state_name = next((r.values[k] for k in NAME_ATTRIBUTES if r.values.get(k)), None)
    if obj.name and state_name:
        pairs.append(("name", obj.name, state_name))
    return pairs


def _resemble(obj: CloudObject, r: StateResource) -> _Resemblance | None:
    pairs = _identity_pairs(obj, r)
    prefix = r.values.get("name_prefix")
    shared: list[str] = []
    named = 0
    for label, mine, theirs in pairs:
        if mine == theirs:
            shared.append(label)
            named = max(named, len(str(mine)) + 1 if label == "name" else 0)
        elif label == "name" and prefix and str(mine).startswith(str(prefix)):
            # name_prefix: each create call generates a new name from the same prefix.
            shared.append("name_prefix")
            named = max(named, len(str(prefix)))
        else:
            return None
    if not pairs and prefix and obj.name and obj.name.startswith(str(prefix)):
        shared.append("name_prefix")
        named = len(str(prefix))
    score = sum(
        1
        for k, v in obj.attributes.items()
        if k not in ("cidr_block", "tags", "name")
        and isinstance(v, (str, int, float, bool))
        and r.values.get(k) == v
    )
    return _Resemblance(r, strong=bool(shared), shared=shared, score=score, named=named)


def _best_resemblance(obj: CloudObject, candidates: list[StateResource]) -> _Resemblance | None:
    found = _resemblances(obj, candidates)
    return found[0] if found else None


def _resemblances(obj: CloudObject, candidates: list[StateResource]) -> list[_Resemblance]:
    """The candidates ``obj`` resembles, best first (:meth:`_Resemblance.rank`; a stable
    sort on an address-sorted list: the first address first among equals)."""
    found = [m for m in (_resemble(obj, r) for r in candidates) if m is not None]
    return sorted(found, key=_Resemblance.rank)


def _tied(obj: CloudObject, candidates: list[StateResource]) -> list[str]:
    """The addresses ``obj`` resembles as much as it resembles the best of them (two
    roles of one ``name_prefix``): more than one, and nothing tells which it stands for."""
    found = _resemblances(obj, candidates)
    best = found[0].rank() if found else None
    return [m.resource.address for m in found if m.rank() == best]


# --- defect text ---------------------------------------------------------------------------


def _duplicate(
    obj: CloudObject,
    match: _Resemblance,
    candidates: list[StateResource],
    module: str,
    scenario: str,
) -> Defect:
    r = match.resource
    tied = _tied(obj, candidates) if match.strong else []
    if match.strong:
        because = "same " + ", ".join(
            f"{label} {_attr_value(obj, r, label)!r}" for label in match.shared
        )
        if len(tied) > 1:
            because += f"; {', '.join(tied)} are as like it: it may duplicate any of them"
    else:
        others = [c.address for c in candidates]
        because = "same type and nothing else tells them apart" + (
            f" (it may duplicate any of {', '.join(others)})" if len(others) > 1 else ""
        )
    message = (
        f"{obj.describe()}{in_region(obj)} duplicates {r.address} ({r.id}): the scenario created "
        f"a second {obj.type} that no resource in state tracks ({because})."
    )
    prevent = duplicate_prevention(obj.type, r.address)
    fix = f"Prevent: {prevent}. Clean up: {delete_hint(obj)} (the extra object, not {r.id})."
    return Defect(
        kind="duplicate",
        address=r.address,
        declared=r.id,
        observed=[r.id, obj.id],
        message=message,
        fix=fix,
        module=module,
        scenario=scenario,
        objects=[obj.id],
        why=_WHY_DUPLICATE,
    )


def _attr_value(obj: CloudObject, r: StateResource, label: str) -> Any:
    if label == "cidr_block":
        return obj.attributes.get("cidr_block")
    if label == "tags.Name":
        return _name_tag(obj.attributes.get("tags"))
    if label == "name_prefix":
        return r.values.get("name_prefix")
    return obj.name


def _orphan(
    obj: CloudObject, candidates: list[StateResource], module: str, scenario: str
) -> Defect:
    message = (
        f"{obj.describe()}{in_region(obj)} was created during the scenario but no resource "
        "in state tracks it"
    )
    if candidates:
        differs = "; ".join(
            f"{c.address}: "
            + ", ".join(
                f"{label} {theirs!r} vs {mine!r}"
                for label, mine, theirs in _identity_pairs(obj, c)
                if mine != theirs
            )
            for c in candidates
        )
        message += f" (state has {obj.type} resources, but they differ: {differs})"
    message += "."
    return Defect(
        kind="orphan",
        address=None,
        declared=None,
        observed=obj.id,
        message=message,
        fix=orphan_fix(obj),
        module=module,
        scenario=scenario,
        objects=[obj.id],
        why=_WHY_ORPHAN,
    )


# --- coverage ------------------------------------------------------------------------------


def unverified_types(
    state: Iterable[StateResource], pending: Iterable[str], covered: Iterable[str]
) -> list[str]:
    """AWS resource types the scenario created that no inventory lister covers.

    The types created are those of every managed resource in the final
    ``state`` plus the ``pending`` addresses (creates started and never
    recorded, as a crash leaves them); settings (:func:`is_setting`) and
    non-AWS types (``terraform_data``, ``random_*``) are left out. A lister
    covers a type when it was asked to list it, whether or not it found one.
    """
    made = {r.type for r in state if r.mode == "managed"}
    for address in pending:
        parts = address.split(" ")[0].split(".")
        types = [p for p in parts if p.startswith("aws_")]
        made.update(types[-1:])
    wanted = {t for t in made if t.startswith("aws_") and not is_setting(t)}
    # A lister of content-named objects covers the types that declare them too (the
    # rules of a group, of aws_vpc_security_group_ingress_rule: one lister of rules).
    listed = set(covered)
    listed |= {t for o in listed for t, _ in _CONTENT_IDS.get(o, [])}
    return sorted(wanted - listed)


def unverified_defect(types: list[str], *, module: str = "", scenario: str = "") -> Defect:
    """A warning naming the types whose leftovers this scenario could not look for."""
    listed = ", ".join(types)
    lead = (
        f"no inventory lister covers {listed}: duplicates and orphans of "
        f"{'this type' if len(types) == 1 else 'these types'} after "
    )
    return Defect(
        kind="unverified",
        severity="warning",
        observed=types,
        objects=[],
        module=module,
        scenario=scenario,
        message=(
            f"{lead}{scenario or 'the fault'} were not looked for, so passing says nothing "
            "about them"
        ),
        scenario_at=len(lead) if scenario else None,
        why=(
            "the leftover check compares the objects that exist after the scenario with state; "
            "objects of a type nobody lists are invisible to it"
        ),
        fix=(
            "add a lister for the type with a "
            "`pytest_converge_inventory(emulator, regions, services)` "
            "hook in conftest.py (returning CloudObject(type, id, region=...) for each object), "
            "or check it by hand"
        ),
    )
