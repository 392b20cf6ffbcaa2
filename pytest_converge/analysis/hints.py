"""What to change in the module, per classification: the ``why`` and the ``fix`` of a defect.

Every text names the attribute and, where it helps, shows the value the
provider returns, so the fix can be copied. ``ignore_changes`` is only ever
offered as a last resort and said as such: it hides the diff, it does not
make the module converge.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..inventory.catalogue import CATALOGUE, GLOBAL
from .addresses import resource_type
from .classify import empties_dropped, first_difference, sort_key
from .plan import UNKNOWN, format_value

if TYPE_CHECKING:
    from ..inventory import CloudObject

#: What the provider/API does, per classification.
WHY: dict[str, str] = {
    "json-equivalent": "the API stores the document and returns it re-serialised (other key "
    "order, spacing, or IAM's single value instead of a one-element list); the provider "
    "compares the text, so the same document reads as a change",
    "whitespace": "the API trims or re-flows whitespace (a heredoc's trailing newline, "
    "indentation) and returns the value without it",
    "case": "the API stores the value case-insensitively and returns it in its own case",
    "order": "the API returns the elements in its own order (sorted or insertion order) and "
    "the attribute is an ordered list, so another order reads as a change (a list of blocks "
    "the API sorts by a key attribute too: the provider pairs blocks by position)",
    "dropped": "the API accepts the value and keeps nothing of it: the read after apply "
    "returns null or empty, so every plan sets it again",
    "default": "the API fills in a default when the value is empty or omitted, drops a "
    "value equal to its default, substitutes its own value for the declared one, or "
    "reports 0 for a setting that does not apply in the chosen mode (an on-demand table's "
    "capacities), so declared and read-back values never match",
    "dedup": "the API removes repeated elements (the same CIDR or action twice) and returns "
    "each once, so the declared list with repeats never matches",
    "type-coercion": "the API stores the value with another type (a number or boolean "
    "where a string was sent, or the reverse) and returns it that way",
    "alias": "the API answers another name for the same thing (a protocol's number for "
    "its name, an ARN for a name or id) and the provider compares the text, so the declared "
    "name reads as a change",
    "unknown": "the provider reads back a value that differs from the configuration and "
    "no known normalisation (JSON, whitespace, case, order, default, type) explains it",
}

#: What an escape hatch (a resource re-run on every apply) is.
ESCAPE_HATCH_WHY = (
    "the trigger's value is only known at apply time and is new on every run (timestamp(), "
    "uuid(), a value computed during apply), so terraform replaces the resource and re-runs "
    "its provisioners on every apply"
)


def show(value: Any, limit: int = 120) -> str:
    """A value for a message: JSON documents as their own text, the rest as in a plan."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        text = value.strip()
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return format_value(value, limit)


def ignore_changes_ref(attribute: str) -> str:
    """The ``ignore_changes`` entry for a plan path: ``tags.Name`` -> ``tags["Name"]``."""
    head, _, rest = attribute.partition(".")
    head = head.split("[")[0]
    if rest and "[" not in attribute.split(".")[0] and re.fullmatch(r"[^.\[\]]+", rest):
        return f'{head}["{rest}"]'
    return head


def last_resort(attribute: str | None) -> str:
    """The ``ignore_changes`` sentence, always labelled as a last resort."""
    ref = ignore_changes_ref(attribute) if attribute else "<attribute>"
    return (
        f"Last resort only (it hides the diff instead of fixing it): "
        f"lifecycle {{ ignore_changes = [{ref}] }}."
    )


def why(
    classification: str | None,
    declared: Any = None,
    observed: Any = None,
    attribute: str | None = None,
    resource_type: str | None = None,
) -> str:
    """What the provider/API does to produce this kind of diff (``attribute``, its plan
    path, and ``resource_type``, where the cause depends on them).

    A :class:`~.classify.Classification` with its own ``why`` (a user's hook)
    is used as it is; a user's class name without one is named in a generic text.
    """
    own = getattr(classification, "why", "")
    if own:
        return own
    if classification and classification not in WHY:
        return (
            f"classified as {classification!r} by a pytest_converge_classify_diff "
            "implementation: the API returns the value in another form than declared"
        )
    text = WHY.get(classification or "unknown", WHY["unknown"])
    if classification == "default" and _empty_tag(attribute, declared, observed, resource_type):
        return EMPTY_TAG_WHY
    if classification == "default":
        text = _why_default(declared, observed)
    if classification in ("json-equivalent", "type-coercion", "case", "default"):
        spot = first_difference(declared, observed)
        if spot and spot[0] != "$":
            path, d, o = spot
            text += f" (at {path}: declared {format_value(d, 60)}, observed {format_value(o, 60)})"
    return text


def _why_default(declared: Any, observed: Any) -> str:
    """Which of the ``default`` cases this is, in one sentence."""
    empty: tuple[Any, ...] = (None, "", [], {})
    if declared in empty and observed in empty:
        return "the API keeps no empty value: the declared empty value reads back as null"
    if empties_dropped(declared, observed):
        return (
            "the API keeps no empty value: a member declared empty reads back as null or not at all"
        )
    if declared in empty:
        return "the API fills in its own default when the value is empty or omitted"
    if isinstance(observed, int | float) and not isinstance(observed, bool) and observed == 0:
        return (
            "the API reports 0 for a setting that does not apply in the chosen mode (an "
            "on-demand table's capacities, a feature that is off), whatever was declared"
        )
    if observed in empty:
        return "the API does not store a value equal to its default and reads back nothing"
    return "the API substitutes its own (default) value for the declared one"


def fix(
    classification: str | None,
    attribute: str | None,
    declared: Any = None,
    observed: Any = None,
    resource_type: str | None = None,
) -> str:
    """The concrete change to the module for a diff of this classification."""
    attr = attribute or "the attribute"
    shown = show(observed, 200)
    own = getattr(classification, "fix", "")
    if own:
        return f"{own} {last_resort(attribute)}"
    if classification == "default" and _empty_tag(attribute, declared, observed, resource_type):
        return (
            f"Give {attr} a non-empty value, or leave the tag out: the provider never "
            f"sends a tag with an empty value. {last_resort(attribute)}"
        )
    make = _FIXES.get(classification or "unknown", _fix_unknown)
    return f"{make(attr, declared, observed, shown)} {last_resort(attribute)}"


def _fix_json(attr: str, declared: Any, observed: Any, shown: str) -> str:
    if _is_canonical_json(declared):
        # The plan's declared side is already jsonencode()'s canonical text: the
        # provider normalises whatever is written, so no spelling converges.
        return (
            f"{attr} is already declared in canonical form (the provider normalises it "
            f"before comparing), but the API returns {shown}: no spelling of the document "
            f"converges. Check whether the real API answers in canonical form (an emulator "
            f"that re-serialises is an emulator difference), and report it to the provider."
        )
    policy = attr.split(".")[0] in _IAM_POLICY_ATTRIBUTES
    tail = (
        ' For IAM policies a data "aws_iam_policy_document" renders the canonical form.'
        if policy
        else ""
    )
    return (
        f"Declare {attr} in the form the provider returns, {shown}: build it with "
        f"jsonencode() from an HCL object instead of a heredoc or hand-written string, "
        f"and use lists where the API returns lists.{tail}"
    )


def _is_canonical_json(value: Any) -> bool:
    """``value`` is compact, key-sorted JSON text, the way jsonencode() writes it."""
    if not isinstance(value, str) or value.strip()[:1] not in ("{", "["):
        return False
    try:
        doc = json.loads(value)
    except ValueError:
        return False
    canonical = json.dumps(doc, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return value == canonical and value != json.dumps(doc)


def _fix_whitespace(attr: str, declared: Any, observed: Any, shown: str) -> str:
    if isinstance(declared, str) and declared.rstrip("\n") == observed:
        how = "the heredoc's trailing newline is dropped: wrap it in chomp(<<-EOT ... EOT)"
    else:
        how = "wrap the value in trimspace(), or build JSON with jsonencode()"
    return f"Remove the whitespace the API does not keep in {attr}: {how}; it returns {shown}."


def _fix_case(attr: str, declared: Any, observed: Any, shown: str) -> str:
    func = "lower()" if isinstance(observed, str) and observed == observed.lower() else "upper()"
    return f"Write {attr} = {shown} exactly as the API returns it (or apply {func} to it)."


def _fix_order(attr: str, declared: Any, observed: Any, shown: str) -> str:
    key = sort_key(declared, observed)
    if key is not None:
        keys = ", ".join(format_value(block[key]) for block in observed)
        return (
            f"Declare the {attr} blocks in the order the API returns them, sorted by {key}: {keys}."
        )
    if isinstance(observed, str):
        how = 'declare the items in that order: join(",", sort(...)) if the API sorts them'
    else:
        how = "sort() the list if the API sorts it, or use a set-typed attribute/toset() "
        how += "where the provider offers one"
    return f"Declare {attr} in the order the API returns it, {shown}: {how}."


#: Why a tag declared with an empty value reads back as none, on the types it was
#: measured on (vpc v3.7.0 ``network-acls``, aws 3.39: the wire log has no empty-valued
#: tag in any CreateTags, while moto keeps one when sent).
EMPTY_TAG_TYPES = frozenset({"aws_default_network_acl"})
EMPTY_TAG_WHY = (
    "the AWS provider leaves a tag whose value is empty out of the tagging call it makes "
    "(hashicorp/terraform-provider-aws#20371), so the declared empty value never reaches "
    "the API and the plan asks for it again on every run: on AWS too, not an emulator gap"
)


def _empty_tag(
    attribute: str | None, declared: Any, observed: Any, resource_type: str | None
) -> bool:
    """``tags.Name`` (or ``tags_all``) of a type of :data:`EMPTY_TAG_TYPES` declared ``""``
    and read back as none."""
    top = (attribute or "").split(".", 1)[0].split("[", 1)[0]
    return (
        resource_type in EMPTY_TAG_TYPES
        and top in ("tags", "tags_all")
        and "." in (attribute or "")
        and declared == ""
        and observed in (None, "")
    )


def _fix_default(attr: str, declared: Any, observed: Any, shown: str) -> str:
    if declared in ("", [], {}) and observed in (None, "", [], {}):
        return (
            f"Leave {attr} out (remove the attribute) instead of setting it to "
            f"{format_value(declared)}: the API keeps no empty value."
        )
    spot = first_difference(declared, observed) if empties_dropped(declared, observed) else None
    if spot is not None:
        return (
            f"Leave the member declared empty out of {attr} ({spot[0]}, declared "
            f"{format_value(spot[1])}) or give it a value: the API keeps no empty value."
        )
    if declared is None or declared in ("", [], {}):
        return (
            f"Set {attr} = {shown} explicitly (the default the API fills in), or remove "
            f"the attribute instead of setting it to {format_value(declared)}."
        )
    if observed == 0 and not isinstance(observed, bool):
        return (
            f"Do not set {attr} in a mode where it does not apply (the API reports 0): "
            f'make it conditional, e.g. {attr} = var.billing_mode == "PROVISIONED" ? '
            f"{format_value(declared)} : null, or set it to 0/null in that mode."
        )
    if observed is not None and observed not in ("", [], {}):
        return (
            f"Declare {attr} = {shown}, the value the API uses (it replaces "
            f"{format_value(declared)} with it), or check which values the API accepts."
        )
    return (
        f"Remove {attr} (or set it to null): the API does not store its default value "
        f"{format_value(declared)} and reads back {format_value(observed)}."
    )


def _fix_dropped(attr: str, declared: Any, observed: Any, shown: str) -> str:
    return (
        f"Remove {attr} (the API keeps nothing of {format_value(declared, 60)}), or set it "
        f"only where the API supports it. If the real API does keep it, this is an emulator "
        f"gap, not the module's defect."
    )


def _fix_dedup(attr: str, declared: Any, observed: Any, shown: str) -> str:
    return (
        f"Remove the repeated elements from {attr}: declare each once, e.g. wrap the list "
        f"in distinct(...); the API returns {shown}."
    )


def _fix_type(attr: str, declared: Any, observed: Any, shown: str) -> str:
    spot = first_difference(declared, observed)
    if spot and spot[0] != "$":
        path, _, value = spot
        key = path.removeprefix("$.")
        return (
            f"Inside {attr}, write {key} = {format_value(value)} with the type the API "
            f"returns ({_type_name(value)}, e.g. {_cast(value)}), not "
            f"{format_value(spot[1])}."
        )
    return (
        f"Declare {attr} with the type the API returns ({_type_name(observed)}): "
        f"{attr} = {_cast(observed)}; it returns {shown}."
    )


def _fix_alias(attr: str, declared: Any, observed: Any, shown: str) -> str:
    return (
        f"Declare {attr} = {shown}, the name the API answers, instead of "
        f"{format_value(declared)}: the same thing by another name never compares equal."
    )


def _fix_unknown(attr: str, declared: Any, observed: Any, shown: str) -> str:
    if declared is UNKNOWN:
        return (
            f"{attr} is only known after apply on every plan: derive it from values that "
            f"are stable between runs."
        )
    return (
        f"Compare the declared and observed {attr}; if the provider rewrites the value, "
        f"declare it in the form it returns, {shown}."
    )


_IAM_POLICY_ATTRIBUTES = {"policy", "assume_role_policy", "inline_policy", "policy_document"}

_FIXES = {
    "dropped": _fix_dropped,
    "dedup": _fix_dedup,
    "json-equivalent": _fix_json,
    "whitespace": _fix_whitespace,
    "case": _fix_case,
    "order": _fix_order,
    "default": _fix_default,
    "type-coercion": _fix_type,
    "alias": _fix_alias,
    "unknown": _fix_unknown,
}


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return type(value).__name__


def _cast(value: Any) -> str:
    """The HCL that produces ``value`` from a value of another type."""
    if isinstance(value, bool):
        return f'tobool("{json.dumps(value)}")'
    if isinstance(value, int | float):
        return f'tonumber("{value}")'
    if isinstance(value, str):
        return f"tostring({value})"
    return format_value(value)


def escape_hatch_fix(
    attribute: str, expression: str | None = None, provisioners: bool = False
) -> str:
    """How to make a per-run trigger change only when its input changes."""
    what = f"{attribute} = {expression}" if expression else attribute
    run = " (and its provisioners re-run)" if provisioners else ""
    return (
        f"{what} changes on every run, so the resource is replaced{run} every apply. Trigger "
        f"on a value that changes only when the input changes: a content hash such as "
        f'filesha256("build.sh") or sha256(file(...)), a version variable, or the ids of '
        f"the resources it depends on. {last_resort(attribute)}"
    )


#: An AWS error code saying the object is there already (``InvalidGroup.Duplicate``,
#: ``InvalidPermission.Duplicate``, ``DuplicateListener``), not a word in a message.
_DUPLICATE_CODE = re.compile(r"\.Duplicate\b|\bDuplicate[A-Z]\w*")


def recovery_failed_hints(
    text: str, address: str | None, replacing: bool = False, kind: str | None = None
) -> tuple[str, str]:
    """The ``why`` and ``fix`` of a ``recovery-failed`` defect.

    ``text`` is the clean re-run's error after a fault; ``address`` the
    resource it names (or the one the faulted run left pending); ``replacing``:
    the re-run was replacing it (the object is in state, tainted by the failed create);
    ``kind`` the fault's kind (``crash``, ``lost-response``...), when one fault ran.

    >>> why, fix = recovery_failed_hints("Role app already exists", "aws_iam_role.app")
    >>> fix.startswith("`terraform import aws_iam_role.app <id>`")
    True
    """
    taken = "already exist" in text.lower() or "inuse" in text.lower().replace(" ", "")
    duplicate = _DUPLICATE_CODE.search(text) is not None
    if replacing and (taken or duplicate):
        return (
            "the first run's create failed after the object existed, so state holds it "
            "tainted; the re-run replaces it, and the replacement's name is the one the "
            "tainted object still has (create_before_destroy makes the new one first)",
            f"a name the replacement does not share (name_prefix) lets the replacement "
            f"happen; or, when the object is sound, `terraform untaint {address}` keeps it",
        )
    if (taken or duplicate) and address is not None and _by_content(address):
        return _content_taken(address, kind)
    if taken or duplicate:
        return (
            f"the first run created the object {unrecorded(kind)}; "
            "the re-run tries to create it again and the name is taken",
            f"`terraform import {address} <id>` (or an `import {{ to = {address} ... }}` "
            "block) adopts the object; a module can avoid it with names that do not "
            "collide (name_prefix) or by tolerating existing objects",
        )
    return (
        "the re-run cannot complete from the state the faulted run left",
        "make the resource's create idempotent, or document the manual recovery",
    )


def _by_content(address: str) -> bool:
    """``address`` is of a type whose object is its content (a rule, a route, an
    attachment): no name to vary, AWS keeps one of each."""
    type_ = resource_type(address) or ""
    known = CATALOGUE.get(type_)
    return type_ in _INLINE or (known is not None and known.identity == "content")


#: Where a module declares objects of a content type so a re-run reads them back
#: instead of creating them again (the provider reconciles the blocks as a set).
_INLINE = {
    "aws_security_group_rule": "the group's `ingress`/`egress` blocks",
    "aws_vpc_security_group_ingress_rule": "the group's `ingress` blocks",
    "aws_vpc_security_group_egress_rule": "the group's `egress` blocks",
    "aws_route": "the route table's `route` blocks",
}


def _content_taken(address: str, kind: str | None) -> tuple[str, str]:
    """The ``why`` and ``fix`` of a re-run whose create of a rule, route or attachment
    found the one the faulted run made: a name_prefix cannot help; import or inline."""
    inline = _INLINE.get(resource_type(address) or "")
    avoid = (
        f"; declared in {inline} instead, the re-run's refresh reads it back and creates "
        "nothing (mixing both styles on one group or table is not supported)"
        if inline
        else ""
    )
    return (
        f"the first run made it {unrecorded(kind)}; AWS keeps one of each (its content "
        "is its identity, there is no name to vary), so the re-run's create of the same "
        "one fails",
        f"`terraform import {address} <id>` (or an `import {{ to = {address} ... }}` "
        f"block) adopts it{avoid}",
    )


# --- leftovers (what the catalogue knows of a type's creates and deletes) -----------------


def duplicate_prevention(type_: str, address: str) -> str:
    """How a module keeps a retried create of ``type_`` from making a second object.

    >>> duplicate_prevention("aws_vpc", "aws_vpc.main").startswith("the AWS provider creates")
    True
    """
    idempotency = CATALOGUE[type_].idempotency if type_ in CATALOGUE else ""
    if idempotency == "name":
        return (
            f"give {address} a fixed, unique name (not `name_prefix`) so a retried create "
            "fails with 'already exists' instead of making a second object"
        )
    if idempotency == "none":
        return (
            f"the AWS provider creates {type_} without an idempotency token and nothing "
            "in it is unique, so a retried create always duplicates; the module cannot stop "
            "that, but a unique per-deployment tag makes extras easy to find and remove, and "
            "this check in CI catches them"
        )
    return (
        "give the resource a unique name or an idempotency token (ClientToken) so a "
        "retried create fails or returns the first object instead of duplicating"
    )


#: How a module keeps an interrupted create from leaving an object behind.
_LEFTOVER_PREVENTION = (
    "Prevent: give the resource a fixed, unique name or an idempotency token, so an "
    "interrupted create is found again (or fails loudly) instead of being left behind."
)


def adopt_hint(obj: CloudObject, address: str | None) -> str:
    """How ``address`` takes the object over (``terraform import`` or an ``import``
    block); with no address, how the resource that should own it does."""
    if address is None:
        return (
            f"If a resource of the module declares this {obj.type}, adopt it: "
            f"`terraform import` with that resource's address and the id {obj.id} (or an "
            f'`import` block, Terraform >= 1.5, with `id = "{obj.id}"`)'
        )
    return (
        f"Adopt it into {address}: `terraform import {address} {obj.id}` (or an `import` "
        f'block, Terraform >= 1.5, with `to = {address}` and `id = "{obj.id}"`)'
    )


def orphan_fix(obj: CloudObject, address: str | None = None) -> str:
    """The fix of an orphan: adopt it (into ``address``, the resource that should own
    it, when known), else remove it with the catalogue's command; and the prevention.

    >>> from pytest_converge.inventory import CloudObject
    >>> fix = orphan_fix(CloudObject("aws_subnet", "subnet-1"), "aws_subnet.app")
    >>> "`terraform import aws_subnet.app subnet-1`" in fix
    True
    """
    return (
        f"{adopt_hint(obj, address)}, then re-run; otherwise remove it: "
        f"{delete_hint(obj)}. {_LEFTOVER_PREVENTION}"
    )


def left_behind_hints(
    obj: CloudObject, address: str, error: str, kind: str | None = None
) -> tuple[str, str]:
    """The ``why`` and ``fix`` of a ``recovery-failed`` whose re-run collided with ``obj``,
    the object the faulted run (a fault of ``kind``, when one) created for ``address``
    and never recorded."""
    taken = (
        "its name is taken"
        if "already exist" in error.lower() or "inuse" in error.lower().replace(" ", "")
        else "it collides with that object"
    )
    why = (
        f"the faulted run created {obj.describe()} for {address} {unrecorded(kind)}; "
        f"the clean re-run creates {address} again and {taken}"
    )
    fix = (
        f"{adopt_hint(obj, address)}, or remove it: {delete_hint(obj)}; then re-run. "
        f"{_IN_AN_ACCOUNT.get(kind or '', _IN_AN_ACCOUNT[''])} leaves the same in a real "
        "account: make the create tolerate an existing object, give it names that do not "
        "collide (name_prefix), or document this recovery."
    )
    return why, fix


#: How each fault kind kept a made object out of state (after "created the object").
_UNRECORDED = {
    "crash": "then died (killed mid-apply) before recording it in state",
    "interrupt": "then stopped (interrupted, as Ctrl-C) before recording it in state",
    "lost-response": (
        "but the answer was lost on its way back (terraform got an error), so terraform "
        "never recorded it in state"
    ),
}
#: Where a user meets the same outside a test, by fault kind.
_IN_AN_ACCOUNT = {
    "crash": "A crash mid-apply",
    "interrupt": "A cancelled apply",
    "lost-response": "A lost answer (a dropped connection, a timeout)",
    "": "A crash, a cancel or a lost answer mid-apply",
}


def unrecorded(kind: str | None) -> str:
    """How a fault of ``kind`` kept the object its call made out of state; a phrase true
    of every kind when it is not known (a run of several points).

    >>> unrecorded("lost-response").startswith("but the answer was lost")
    True
    """
    return _UNRECORDED.get(
        kind or "",
        "but never recorded it in state (the run ended, or the answer was lost, before it could)",
    )


def in_region(obj: CloudObject) -> str:
    """`` in <region>`` for a regional object, empty for a global one."""
    return f" in {obj.region}" if obj.region and obj.region != GLOBAL else ""


def delete_hint(obj: CloudObject) -> str:
    """The command that removes a leftover object (the catalogue's), or a plain "delete"."""
    known = CATALOGUE.get(obj.type)
    where = in_region(obj)
    if known is None or not known.delete:
        return f"delete {obj.describe()}{where}"
    flag = f" --region {obj.region}" if where else ""
    fields = _Fields({**obj.attributes, "name": obj.name or obj.id, "id": obj.id})
    return f"`{known.delete.format_map(fields)}{flag}`"


class _Fields(dict[str, Any]):
    """A delete command's fields: a field the object does not have stays ``<field>``."""

    def __missing__(self, key: str) -> str:
        return f"<{key}>"
