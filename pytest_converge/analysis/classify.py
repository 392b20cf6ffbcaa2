"""Why two values never compare equal: the normalisation a provider or API applies.

A permanent diff is almost always the API handing back the declared value in
another *form*: a re-serialised JSON document, a trimmed string, a lower-cased
enum, a sorted list, a filled-in default, a number where a string was sent.
:func:`classify` names that form so the fix can be specific::

    >>> classify('{"a": 1}', '{"a":1}')
    'json-equivalent'
    >>> classify("3", 3)
    'type-coercion'
    >>> classify("a,b", "b,a")
    'order'
    >>> classify(["10.0.0.0/8", "10.0.0.0/8"], ["10.0.0.0/8"])
    'dedup'
    >>> classify([{"id": "tmp", "days": 1}, {"id": "archive", "days": None}],
    ...          [{"id": "archive", "days": 0}, {"id": "tmp", "days": 1}])
    'order'
    >>> classify("PAY_PER_REQUEST mode ignores it", None)
    'dropped'
    >>> classify("tcp", "6", "ingress[0].protocol")
    'alias'

Only an exact match under one normalisation counts: a different document,
set or number is ``unknown``, never a near miss labelled as equivalent.

The built-in rules are also this package's implementation of the
``pytest_converge_classify_diff`` hook (:func:`pytest_converge_classify_diff`),
registered by the plugin with ``trylast`` so a user's ``tryfirst``
implementation in a ``conftest.py`` decides first.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import pluggy

from .defects import CLASSIFICATIONS, is_class_name
from .plan import UNKNOWN

#: Marks the built-in classifier as a pytest hook implementation without
#: importing pytest (the analysis package stays pytest-free).
hookimpl = pluggy.HookimplMarker("pytest")

#: ``(address, attribute, declared, observed) -> classification``.
Classifier = Callable[[str, str, Any, Any], str]


class Classification(str):
    """A classification with its own ``why`` and ``fix``: what a user's hook may return.

    It is the class name (a ``str``: ``Classification("api-rounding") ==
    "api-rounding"``) carrying the text the finding shows::

        @pytest.hookimpl(tryfirst=True)
        def pytest_converge_classify_diff(config, address, attribute, declared, observed):
            if attribute == "retention_in_days" and observed == round_up(declared):
                return Classification(
                    "api-rounding",
                    why="the API rounds retention up to the next allowed value",
                    fix="declare one of 1, 3, 5, 7, 14, 30, ... days",
                )

    A plain string is a classification too; a name that is not built in then
    gets a generic why/fix naming it.
    """

    why: str
    fix: str

    def __new__(cls, name: str, why: str = "", fix: str = "") -> Classification:
        if not is_class_name(name):
            raise ValueError(
                f"bad classification name {name!r}: use lower-case words joined by '-', "
                "e.g. 'api-rounding'"
            )
        made = super().__new__(cls, name)
        made.why = why
        made.fix = fix
        return made

    @property
    def name(self) -> str:
        """The class name, as a plain ``str``."""
        return str(self)

    def __reduce__(self) -> Any:
        return (Classification, (str(self), self.why, self.fix))


#: Values an API commonly treats as "not set" and drops when read back, so a
#: module that declares them sees null/empty on the next plan.
_GENERIC_DEFAULTS: tuple[Any, ...] = (False, 0, "false", "0", "default", "none", "disabled")

#: Per-attribute defaults (the last path segment) AWS fills in or drops.
KNOWN_DEFAULTS: dict[str, tuple[Any, ...]] = {
    "description": ("Managed by Terraform",),
    "path": ("/",),
    "acl": ("private",),
    "instance_tenancy": ("default",),
    "storage_class": ("STANDARD",),
    "kms_data_key_reuse_period_seconds": (300,),
    "message_retention_seconds": (345600,),
    "max_message_size": (262144,),
    "visibility_timeout_seconds": (30,),
    "max_session_duration": (3600,),
    "tenancy": ("default",),
    "encryption_type": ("NONE",),
    "billing_mode": ("PROVISIONED",),
    "sse_algorithm": ("AES256",),
    "deletion_window_in_days": (30,),
    "retention_in_days": (0,),
    "delay_seconds": (0,),
}

#: Numbers an API reports as 0 when the setting does not apply in the chosen
#: mode (an on-demand table's capacities, a disabled feature's period).
NOT_APPLICABLE_ZERO = (
    "read_capacity",
    "write_capacity",
    "provisioned_throughput",
    "iops",
    "throughput",
)

_WS = re.compile(r"\s+")
_NUMBER = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$")


def classify(declared: Any, observed: Any, attribute: str | None = None) -> str:
    """Name the normalisation that turns ``declared`` into ``observed``.

    Returns one of :data:`~pytest_converge.analysis.defects.CLASSIFICATIONS`;
    ``unknown`` when no single normalisation explains the difference (or a
    side is only known after apply). ``attribute`` (a plan path such as
    ``tags.Name``) lets known per-attribute defaults be recognised.
    """
    if declared is UNKNOWN or observed is UNKNOWN:
        return "unknown"
    if _strict_equal(declared, observed):
        return "unknown"  # nothing to explain; callers should not ask
    if isinstance(declared, str) and isinstance(observed, str) and _ws(declared) == _ws(observed):
        return "whitespace"
    d_doc, o_doc = _as_document(declared), _as_document(observed)
    structured = _NOT_JSON not in (d_doc, o_doc) and (
        isinstance(d_doc, dict | list) or isinstance(o_doc, dict | list)
    )
    if structured and _equal(d_doc, o_doc, iam=True):
        return "json-equivalent"
    left, right = (d_doc, o_doc) if structured else (declared, observed)
    for name, rules in _RULES:
        if _equal(left, right, **rules):
            return name
    if sort_key(declared, observed) is not None:
        return "order"
    if _is_alias(declared, observed, attribute):
        return "alias"
    if _is_default(declared, observed, attribute) or empties_dropped(left, right):
        return "default"
    if _is_dropped(declared, observed):
        return "dropped"
    return "unknown"


_RULES: tuple[tuple[str, dict[str, bool]], ...] = (
    ("case", {"case": True, "iam": True}),
    ("order", {"order": True, "iam": True}),
    ("dedup", {"dedup": True, "order": True, "iam": True}),
    ("type-coercion", {"coerce": True, "iam": True}),
)


@hookimpl(trylast=True)
def pytest_converge_classify_diff(
    address: str, attribute: str, declared: Any, observed: Any
) -> str | None:
    """The built-in classifiers as a hook implementation (``None`` when unexplained)."""
    result = classify(declared, observed, attribute)
    return None if result == "unknown" else result


def classify_with(hook: Any = None, config: Any = None) -> Classifier:
    """A classifier that asks the ``pytest_converge_classify_diff`` hook, or the built-ins.

    ``hook`` is pytest's ``config.hook`` (the hook relay), the hook caller
    itself, or None for the built-in rules only. The result is always a valid
    classification; a hook implementation returning anything else is a bug in
    that implementation and raises ``ValueError`` naming the value.
    """
    caller = getattr(hook, "pytest_converge_classify_diff", hook)

    def classifier(address: str, attribute: str, declared: Any, observed: Any) -> str:
        if caller is None:
            return classify(declared, observed, attribute)
        result = caller(
            config=config,
            address=address,
            attribute=attribute,
            declared=declared,
            observed=observed,
        )
        return as_classification(result, f"{address} {attribute}")

    return classifier


def as_classification(result: Any, where: str = "") -> str:
    """A hook's answer as a classification: None is ``unknown``; a bad name raises.

    Accepts a built-in name, a user's own name (``"api-rounding"``) or a
    :class:`Classification` carrying its own why/fix.
    """
    if result is None:
        return "unknown"
    if isinstance(result, Classification) or is_class_name(result):
        return result
    raise ValueError(
        f"a pytest_converge_classify_diff implementation returned {result!r}"
        + (f" for {where}" if where else "")
        + f"; return one of {CLASSIFICATIONS}, a lower-case name of your own "
        "(e.g. 'api-rounding'), a Classification(name, why, fix), or None"
    )


def first_difference(declared: Any, observed: Any) -> tuple[str, Any, Any] | None:
    """Where two (JSON-decoded) values first differ: ``("$.a[0]", declared, observed)``.

    Used to point at the one key of a long document that does not match,
    e.g. ``$.maxReceiveCount: "3" vs 3``. None when they are equal.
    """
    d_doc, o_doc = _as_document(declared), _as_document(observed)
    if _NOT_JSON in (d_doc, o_doc):
        d_doc, o_doc = declared, observed
    return _first_difference(d_doc, o_doc, "$")


def _first_difference(d: Any, o: Any, path: str) -> tuple[str, Any, Any] | None:
    if _strict_equal(d, o):
        return None
    if isinstance(d, dict) and isinstance(o, dict):
        for key in list(d) + [k for k in o if k not in d]:
            found = _first_difference(d.get(key), o.get(key), f"{path}.{key}")
            if found:
                return found
    if isinstance(d, list) and isinstance(o, list) and len(d) == len(o):
        for i, (a, b) in enumerate(zip(d, o, strict=True)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
    return path, d, o


# -- normalisations ---------------------------------------------------------------------------

_NOT_JSON = object()


def _as_document(value: Any) -> Any:
    """``value`` decoded if it is a JSON object/array string, else itself (or _NOT_JSON)."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in ("{", "["):
            try:
                return json.loads(text)
            except ValueError:
                return _NOT_JSON
    return value


def _ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _strict_equal(a: Any, b: Any) -> bool:
    """Equality that, unlike ``==``, keeps ``True``/``1`` and ``1``/``1.0`` apart."""
    if type(a) is not type(b) and not (_is_num(a) and _is_num(b)):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b, strict=True))
    if _is_num(a):
        return type(a) is type(b) and a == b
    return a == b


def _is_num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _equal(
    a: Any,
    b: Any,
    *,
    iam: bool = False,
    case: bool = False,
    order: bool = False,
    coerce: bool = False,
    dedup: bool = False,
) -> bool:
    """``a`` equals ``b`` allowing only the given normalisations, at any depth.

    ``dedup``: the API removed repeated elements of ``a`` (lists and comma lists).
    """
    rules = {"iam": iam, "case": case, "order": order, "coerce": coerce, "dedup": dedup}
    if dedup and isinstance(a, list):
        a = _unique(a)
    if iam:
        # IAM's grammar: a single value and a one-element list mean the same.
        if isinstance(a, list) and len(a) == 1 and not isinstance(b, list):
            return _equal(a[0], b, **rules)
        if isinstance(b, list) and len(b) == 1 and not isinstance(a, list):
            return _equal(a, b[0], **rules)
    if isinstance(a, dict) and isinstance(b, dict):
        if case:
            a = {str(k).casefold(): v for k, v in a.items()}
            b = {str(k).casefold(): v for k, v in b.items()}
        return a.keys() == b.keys() and all(_equal(a[k], b[k], **rules) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False
        if all(_equal(x, y, **rules) for x, y in zip(a, b, strict=True)):
            return True
        return order and _same_multiset(a, b, rules)
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return True
        if case and a.casefold() == b.casefold():
            return True
        if order and ("," in a or "," in b):
            return _same_multiset(_unique(_csv(a)) if dedup else _csv(a), _csv(b), rules)
        if coerce and _is_number_text(a) and _is_number_text(b):
            return float(a) == float(b)
        return False
    if coerce:
        return _coerced_equal(a, b)
    return _strict_equal(a, b)


def _same_multiset(a: list[Any], b: list[Any], rules: dict[str, bool]) -> bool:
    """Every element of ``a`` pairs with a distinct equal element of ``b``."""
    if len(a) != len(b):
        return False
    remaining = list(b)
    for x in a:
        for i, y in enumerate(remaining):
            if _equal(x, y, **rules):
                del remaining[i]
                break
        else:
            return False
    return True


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def _is_number_text(text: str) -> bool:
    return bool(_NUMBER.match(text)) and math.isfinite(float(text))


def _coerced_equal(a: Any, b: Any) -> bool:
    """A string and a number/bool that mean the same value (``"3"``/``3``, ``"true"``/``true``)."""
    if isinstance(a, str) and not isinstance(b, str):
        a, b = b, a
    if not isinstance(b, str):
        return _strict_equal(a, b) or (_is_num(a) and _is_num(b) and a == b)
    if isinstance(a, bool):
        return b.strip().lower() == ("true" if a else "false")
    if _is_num(a):
        return _is_number_text(b) and float(b) == a
    return False


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _leaf(attribute: str | None) -> str:
    """The last name of a plan path: ``ingress[0].description`` -> ``description``."""
    names = re.findall(r"[A-Za-z_][\w-]*", attribute or "")
    return names[-1] if names else ""


def _is_default(declared: Any, observed: Any, attribute: str | None) -> bool:
    """The API's own value instead of the declared one.

    Declared empty and the API filled a value in; declared a default the API
    drops; the API replaced the declared value with its known default (a KMS
    key's 30-day deletion window); or the API reports 0 for a setting that
    does not apply in the chosen mode (an on-demand table's capacities).
    """
    if _is_empty(declared):
        return True  # empty vs a filled-in value, or null vs [] / {} / ""
    leaf = _leaf(attribute)
    known = KNOWN_DEFAULTS.get(leaf, ())
    if _is_empty(observed):
        candidates = _GENERIC_DEFAULTS + known
        return any(_strict_equal(declared, c) or declared == str(c) for c in candidates)
    if any(_strict_equal(observed, c) for c in known):
        return True
    zero = _is_num(observed) and observed == 0 and _is_num(declared)
    return zero and any(leaf == n or leaf.endswith("_" + n) for n in NOT_APPLICABLE_ZERO)


#: IP protocol names and the numbers the EC2 API answers for them.
PROTOCOL_NUMBERS = {"tcp": "6", "udp": "17", "icmp": "1", "icmpv6": "58", "all": "-1"}

_ARN = re.compile(r"^arn:[\w-]+:[\w-]+:[\w-]*:\d*:(?P<resource>.+)$")


def _is_alias(declared: Any, observed: Any, attribute: str | None) -> bool:
    """Another name for the same thing: a protocol's number for its name, an ARN for a name.

    ``"tcp"``/``"6"`` only in a protocol field; an ARN matches a name or id equal to
    its whole resource part (``alias/aws/sqs``) or to the last ``/``- or
    ``:``-separated name in it (``role/app`` -> ``app``).
    """
    if not isinstance(declared, str | int) or not isinstance(observed, str | int):
        return False
    if isinstance(declared, bool) or isinstance(observed, bool):
        return False
    a, b = str(declared).strip(), str(observed).strip()
    if attribute is None or "protocol" in _leaf(attribute):
        if PROTOCOL_NUMBERS.get(a.lower()) == b or PROTOCOL_NUMBERS.get(b.lower()) == a:
            return True
    return _arn_names(a, b) or _arn_names(b, a)


def _arn_names(arn: str, name: str) -> bool:
    """``arn`` is an ARN and ``name`` (not one) is its resource or that resource's name."""
    found = _ARN.match(arn)
    if not found or not name or _ARN.match(name):
        return False
    resource = found["resource"]
    return name == resource or re.split(r"[/:]", resource)[-1] == name


#: Block attributes tried first as the key an API sorts a list of blocks by.
_SORT_KEYS = ("id", "name", "key", "priority", "order", "rule_number", "sid")


def sort_key(declared: Any, observed: Any) -> str | None:
    """The attribute an API sorted a list of nested blocks by, if that is the difference.

    Both are lists of two or more blocks (maps); one attribute holds a distinct
    value in each block, the same values on both sides; the observed blocks are
    in ascending order of it and the declared ones are not. Paired by that
    attribute, each observed block is the declared one, with the API's values
    where the declared one is empty (the provider pairs blocks by position, so
    a field left unset picks up another block's value or the API's default)::

        >>> sort_key([{"id": "tmp", "days": 1}, {"id": "archive", "days": None}],
        ...          [{"id": "archive", "days": 0}, {"id": "tmp", "days": 1}])
        'id'
    """
    if not (_blocks(declared) and _blocks(observed)) or len(declared) != len(observed):
        return None
    shared = set(declared[0]).intersection(*declared, *observed)
    candidates = [k for k in _SORT_KEYS if k in shared] + sorted(shared - set(_SORT_KEYS))
    for key in candidates:
        want, have = [b[key] for b in declared], [b[key] for b in observed]
        if not _distinct_scalars(want) or not _distinct_scalars(have):
            continue
        if sorted(want) != have or want == have:
            continue
        by_key = {b[key]: b for b in observed}
        if all(_paired(block, by_key[block[key]], observed[i]) for i, block in enumerate(declared)):
            return key
    return None


def _paired(declared: dict[str, Any], own: dict[str, Any], positional: dict[str, Any]) -> bool:
    """``own`` (the observed block with the declared block's key) is ``declared`` filled in,
    field by field, or a field the plan carried over from the observed block at the same
    position (the provider pairs blocks by position: a forward action planned where the
    OIDC action was keeps that one's ``authenticate_oidc``) where ``own`` has none."""
    for field in {*declared, *own}:
        mine, theirs = declared.get(field), own.get(field)
        if _filled_in(mine, theirs):
            continue
        if _is_empty(theirs) and _strict_equal(mine, positional.get(field)):
            continue
        return False
    return True


def _blocks(value: Any) -> bool:
    return isinstance(value, list) and len(value) >= 2 and all(isinstance(b, dict) for b in value)


def _distinct_scalars(values: list[Any]) -> bool:
    scalars = [v for v in values if isinstance(v, str | int) and not isinstance(v, bool)]
    kinds = {type(v) for v in scalars}
    return len(scalars) == len(values) and len(set(values)) == len(values) and len(kinds) == 1


def _filled_in(declared: Any, observed: Any) -> bool:
    """``observed`` is ``declared`` with values where it is empty, at any depth."""
    if _strict_equal(declared, observed) or _is_empty(declared):
        return True
    if isinstance(declared, dict) and isinstance(observed, dict):
        return all(_filled_in(declared.get(k), observed.get(k)) for k in {*declared, *observed})
    if isinstance(declared, list) and isinstance(observed, list):
        return len(declared) == len(observed) and all(map(_filled_in, declared, observed))
    return False


def empties_dropped(declared: Any, observed: Any) -> bool:
    """Equal but for members declared empty that read back null or not at all (a map or an
    object whose ``Name = ""`` the API does not keep), at any depth."""
    if _strict_equal(declared, observed):
        return False
    return _equal_but_empties(declared, observed)


def _equal_but_empties(d: Any, o: Any) -> bool:
    if _strict_equal(d, o) or (_is_empty(d) and _is_empty(o)):
        return True
    if isinstance(d, dict) and isinstance(o, dict):
        if any(key not in d for key in o):
            return False
        return all(
            _is_empty(value) if key not in o else _equal_but_empties(value, o[key])
            for key, value in d.items()
        )
    if isinstance(d, list) and isinstance(o, list) and len(d) == len(o):
        return all(_equal_but_empties(a, b) for a, b in zip(d, o, strict=True))
    return False


def _is_dropped(declared: Any, observed: Any) -> bool:
    """Declared a value, the API keeps nothing of it (reads back null or empty)."""
    return not _is_empty(declared) and _is_empty(observed)


def _unique(items: list[Any]) -> list[Any]:
    """``items`` without repeats, first occurrence kept."""
    unique: list[Any] = []
    for item in items:
        if not any(_strict_equal(item, u) for u in unique):
            unique.append(item)
    return unique
