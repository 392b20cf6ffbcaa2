"""Known emulator gaps: findings the emulator causes, not the module.

An emulator that drops a value the real API keeps (moto and a subnet's IPv6
CIDR) makes a correct module look as if it never converges. The plugin ships
a catalogue of such gaps as data (``pytest_converge/data/emulator_gaps.json``),
each entry reproduced for real, in this format::

    {
      "emulator": "moto",
      "versions": ">=5.1,<5.3",
      "resource_type": "aws_subnet",
      "attribute": "ipv6_cidr_block",
      "real_api": "AWS keeps the /64 and DescribeSubnets returns it",
      "evidence": "reproduction: tests/... / link",
      "errors": ["unexpected state '\\{'State': 'associated'\\}'"]
    }

``errors`` (optional) are regular expressions of terraform errors the gap
causes, which explain a ``recovery-failed`` finding of that type.
``versions`` is a PEP 440 specifier set matched against the installed
emulator (empty: every version); ``attribute`` is a plan path prefix with list
indices left out (``ingress.description`` matches ``ingress[3].description``;
empty or ``*``: any attribute of the type). The file is a JSON list of entries
(or ``{"gaps": [...]}``).

:func:`mark_emulator_gaps` marks each matching finding ``emulator_suspected``
with the entry as ``evidence`` and, unless ``strict``, lowers an error to a
warning. Nothing is dropped: the finding is still listed.

A second source of evidence is the emulator's own model: an attribute sent as
an API member its source never reads (:mod:`.model_gaps`, no entry needed). A
third is the other emulator disagreeing (:func:`mark_disagreements`, used by
``--converge-confirm-with``).

This module also names an emulator's gaps in *calls*
(:func:`unimplemented_operation`): moto answers an operation it does not
implement with an HTML 404/500 page or a ``NotImplemented`` error, which the
provider turns into a hex dump.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..errors import Diagnostic
from .defects import ERROR, INFO, Defect
from .model_gaps import ModelFacts, mark_model_gaps, resource_type
from .model_gaps import plain_path as _plain_path
from .model_gaps import suspect as _suspect

__all__ = [
    "CATALOGUE",
    "Gap",
    "attribute_references",
    "emulator_version",
    "load_catalogue",
    "mark_disagreements",
    "mark_emulator_gaps",
    "mark_followers",
    "matching_gap",
    "output_references",
    "resource_type",
    "unimplemented_operation",
]

#: The catalogue shipped with the plugin.
CATALOGUE = Path(__file__).resolve().parents[1] / "data" / "emulator_gaps.json"

#: Finding kinds about an attribute's value, the only ones a value gap explains.
_VALUE_KINDS = ("permanent-diff", "needs-second-apply", "drift", "output-change")
#: Findings that carry terraform's error as their observed value (see ``Gap.errors``).
_ERROR_KINDS = ("recovery-failed",)

#: Distribution names of the emulators, for their installed version.
_DISTRIBUTIONS = {"moto": "moto", "localstack": "localstack-core"}

_REQUIRED = ("emulator", "resource_type", "attribute", "real_api", "evidence")


@dataclass(frozen=True)
class Gap:
    """One known emulator gap (an entry of the catalogue)."""

    emulator: str
    resource_type: str
    attribute: str
    real_api: str
    evidence: str
    versions: str = ""
    #: Patterns (regular expressions) of terraform errors the gap causes: a run that
    #: fails on one (``recovery-failed``, an apply error) is explained by it too.
    errors: tuple[str, ...] = ()

    def applies_to(self, emulator: str, version: str | None) -> bool:
        """This entry is about ``emulator`` at ``version`` (an unknown version matches)."""
        if self.emulator.lower() != emulator.lower():
            return False
        if not self.versions or version is None:
            return True
        from packaging.specifiers import SpecifierSet
        from packaging.version import InvalidVersion, Version

        try:
            return Version(version) in SpecifierSet(self.versions)
        except InvalidVersion:
            return True

    def covers(self, path: str | None) -> bool:
        """``path`` (a plan path) is the entry's attribute or inside it."""
        wanted = self.attribute.strip()
        if wanted in ("", "*"):
            return True
        if not path:
            return False
        plain = _plain_path(path)
        return plain == wanted or plain.startswith(wanted + ".")

    def describe(self, emulator_version: str | None) -> str:
        """The ``evidence`` text of a finding this entry explains."""
        where = f"{self.resource_type}.{self.attribute}" if self.attribute else self.resource_type
        version = f" {emulator_version}" if emulator_version else ""
        return (
            f"known {self.emulator}{version} gap ({self.versions or 'all versions'}) for "
            f"{where}: {self.real_api.rstrip('.')}. Evidence: {self.evidence}"
        )


def load_catalogue(paths: Iterable[str | Path] = ()) -> list[Gap]:
    """The shipped catalogue plus the entries of ``paths`` (same format).

    A malformed entry raises ``ValueError`` naming the file, the entry and
    the missing or bad field.
    """
    gaps = list(_load(str(CATALOGUE)))
    for path in paths:
        gaps.extend(_load(str(path)))
    return gaps


@lru_cache(maxsize=16)
def _load(path: str) -> tuple[Gap, ...]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"emulator gap catalogue {path}: cannot read it: {exc}") from None
    entries = data.get("gaps") if isinstance(data, Mapping) else data
    if not isinstance(entries, list):
        raise ValueError(
            f'emulator gap catalogue {path}: expected a JSON list of entries or {{"gaps": [...]}}'
        )
    gaps = []
    for n, entry in enumerate(entries):
        missing = [k for k in _REQUIRED if not isinstance(entry.get(k), str)]
        if not isinstance(entry, Mapping) or missing:
            raise ValueError(
                f"emulator gap catalogue {path}: entry {n} lacks {', '.join(missing)} "
                f"(each entry needs {', '.join(_REQUIRED)} as strings, and may give versions)"
            )
        gap = Gap(
            emulator=entry["emulator"],
            resource_type=entry["resource_type"],
            attribute=entry["attribute"],
            real_api=entry["real_api"],
            evidence=entry["evidence"],
            versions=str(entry.get("versions") or ""),
            errors=tuple(entry.get("errors") or ()),
        )
        for pattern in gap.errors:
            try:
                re.compile(pattern)
            except (re.error, TypeError):
                raise ValueError(
                    f"emulator gap catalogue {path}: entry {n} has errors entry {pattern!r}, "
                    "not a regular expression"
                ) from None
        if gap.versions:
            from packaging.specifiers import InvalidSpecifier, SpecifierSet

            try:
                SpecifierSet(gap.versions)
            except InvalidSpecifier:
                raise ValueError(
                    f"emulator gap catalogue {path}: entry {n} has versions "
                    f"{gap.versions!r}, not a version specifier such as '>=5.1,<5.3'"
                ) from None
        gaps.append(gap)
    return tuple(gaps)


def emulator_version(emulator: Any) -> str | None:
    """The emulator's version: its ``version`` attribute, else the installed package's."""
    version = getattr(emulator, "version", None)
    if isinstance(version, str) and version:
        return version
    return _installed_version(str(getattr(emulator, "name", emulator)).lower())


@cache
def _installed_version(name: str) -> str | None:
    """The installed distribution's version of emulator ``name`` (a scan of the import
    path's metadata each time it is asked otherwise: ~2 ms, asked per finding)."""
    distribution = _DISTRIBUTIONS.get(name)
    if distribution is None:
        return None
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(distribution)
    except PackageNotFoundError:
        return None


def matching_gap(
    defect: Defect, gaps: Sequence[Gap], emulator: str, version: str | None
) -> Gap | None:
    """The catalogue entry that explains ``defect`` on this emulator, if any.

    A finding about a whole list/set/map attribute matches only when every
    changed element is covered by one entry.
    """
    rtype = resource_type(defect.address)
    if rtype is None:
        return None
    if defect.kind in _ERROR_KINDS:
        said = str(defect.observed)
        return next(
            (
                gap
                for gap in gaps
                if gap.resource_type == rtype
                and gap.applies_to(emulator, version)
                and any(re.search(pattern, said) for pattern in gap.errors)
            ),
            None,
        )
    if defect.kind not in _VALUE_KINDS:
        return None
    paths = [e.get("path", "") for e in defect.elements] or [defect.attribute]
    for gap in gaps:
        if gap.resource_type != rtype or not gap.applies_to(emulator, version):
            continue
        if all(gap.covers(p) for p in paths):
            return gap
    return None


def mark_emulator_gaps(
    defects: Iterable[Defect],
    emulator: str,
    version: str | None,
    *,
    strict: bool = False,
    gaps: Sequence[Gap] | None = None,
    configuration: Mapping[str, Any] | None = None,
    replaced: Collection[str] = (),
    model: ModelFacts | None = None,
) -> list[Defect]:
    """Mark the findings a known gap explains; returns the marked ones.

    Each gets ``emulator_suspected`` and the entry as ``evidence``; an error
    becomes a warning unless ``strict``. A finding no entry explains is then
    asked of the emulator's own ``model`` (:func:`.model_gaps.mark_model_gaps`:
    an attribute sent as an API member the emulator never reads). A finding
    that follows from a suspected one is marked too (:func:`mark_followers`;
    ``configuration`` is the plan's, for the outputs' references, and
    ``replaced`` the addresses it replaces).
    """
    catalogue = load_catalogue() if gaps is None else gaps
    defects = list(defects)
    marked = []
    for defect in defects:
        if defect.emulator_suspected or defect.severity == INFO:
            continue
        gap = matching_gap(defect, catalogue, emulator, version)
        if gap is None:
            continue
        _suspect(defect, gap.describe(version), strict)
        marked.append(defect)
    marked += mark_model_gaps(defects, model, strict=strict)
    marked += mark_placeholders(defects, emulator, strict=strict)
    return marked + mark_followers(defects, configuration, replaced=replaced, strict=strict)


#: What an emulator answers for a field it does not model: the API reference's example
#: value (moto's MSK configuration ARN, ``"string"``). AWS never answers it.
PLACEHOLDERS = frozenset({"string"})
#: The findings whose observed value is the emulator's answer.
_ANSWERED_KINDS = ("permanent-diff", "needs-second-apply", "drift", "output-change")


def _placeholder_in(value: Any) -> str | None:
    """The first placeholder among ``value``'s leaves (JSON-like), else None."""
    if isinstance(value, str):
        return value if value in PLACEHOLDERS else None
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return next((p for p in map(_placeholder_in, value) if p is not None), None)
    return None


def mark_placeholders(
    defects: Iterable[Defect], emulator: str, *, strict: bool = False
) -> list[Defect]:
    """Mark the findings whose observed value holds a placeholder the emulator answered
    (:data:`PLACEHOLDERS`) that the declared value does not: the value is the emulator's
    invention, not the module's doing."""
    marked = []
    for defect in defects:
        if (
            defect.emulator_suspected
            or defect.severity == INFO
            or defect.kind not in _ANSWERED_KINDS
        ):
            continue
        placeholder = _placeholder_in(defect.observed)
        if placeholder is None or _placeholder_in(defect.declared) is not None:
            continue
        _suspect(
            defect,
            f"the {emulator} emulator answered {placeholder!r} in it, the API reference's "
            "example value, which AWS never answers: a field the emulator does not model",
            strict,
        )
        marked.append(defect)
    return marked


def mark_followers(
    defects: Sequence[Defect],
    configuration: Mapping[str, Any] | None = None,
    *,
    replaced: Collection[str] = (),
    strict: bool = False,
) -> list[Defect]:
    """Mark the findings that follow from a suspected gap among ``defects``.

    An output built from a dropped attribute changes on every plan too: it is
    no second defect of the module. A finding follows from a suspected one
    when it is a root output, or a resource's attribute, built (in the plan's
    ``configuration``, through module outputs and their inputs) from that
    attribute, from the whole object (``[for k, v in aws_customer_gateway.this
    : v.id]``), or from any attribute of it when the plan replaces it
    (``replaced``: a dropped value that forces replacement gives the object a
    new id on every run, and replaces what is built from that too: an
    ``escape-hatch``); or when its declared value holds the suspected one's
    declared value and its observed value does not (the value went missing on
    the way). An object with a finding no gap explains is no cause of its
    dependents' changes: they may come from that finding. A marked finding
    can be the cause of the next. Returns the findings it marked.
    """
    renewed = {_plain_path(a) for a in replaced}
    marked: list[Defect] = []
    while True:
        found = _followers(defects, configuration or {}, renewed, strict)
        if not found:
            return marked
        marked.extend(found)


def _followers(
    defects: Sequence[Defect],
    configuration: Mapping[str, Any],
    renewed: Collection[str],
    strict: bool,
) -> list[Defect]:
    """One round of :func:`mark_followers`: the findings a suspected one explains now."""
    suspects = [d for d in defects if d.emulator_suspected and d.address and d.attribute]
    if not suspects:
        return []
    unexplained = {
        _plain_path(d.address)
        for d in defects
        if d.address and not d.emulator_suspected and d.severity != INFO
        if d.kind in _FOLLOWING_KINDS and not _is_output(d)
    }
    marked = []
    for defect in defects:
        if defect.emulator_suspected or defect.severity == INFO:
            continue
        if defect.kind not in _FOLLOWING_KINDS:
            continue
        references = _references_of(defect, configuration)
        cause = next(
            (s for s in suspects if _follows(defect, s, references, unexplained, renewed)),
            None,
        )
        if cause is None:
            continue
        _suspect(
            defect,
            f"follows from the suspected emulator gap of {cause.address} {cause.attribute} "
            f"(this value is built from it): {cause.evidence}",
            strict,
        )
        marked.append(defect)
    return marked


#: Finding kinds that may follow from a suspected gap: value findings, and a
#: resource replaced on every run because what it is built from is.
_FOLLOWING_KINDS = (*_VALUE_KINDS, "escape-hatch")


def _references_of(defect: Defect, configuration: Mapping[str, Any]) -> set[str]:
    if not defect.attribute or defect.kind == "drift":
        return set()
    if _is_output(defect):
        return output_references(configuration, defect.attribute)
    return attribute_references(configuration, defect.address or "", defect.attribute)


def _is_output(defect: Defect) -> bool:
    """A root output's finding (``output-change``, or ``needs-second-apply`` of an output)."""
    return (defect.address or "").startswith("output.")


def output_references(configuration: Mapping[str, Any], name: str) -> set[str]:
    """What root output ``name`` is built from: resource paths, indices left out.

    References through a module's output or input variable are followed to
    the resources inside (``module.vpc.cgw_ids`` -> ``module.vpc.aws_customer_gateway.this``);
    terraform lists every prefix of a reference (``aws_vpc.this.id`` and
    ``aws_vpc.this``), kept as it gives them. Locals are not in terraform's
    JSON view of the configuration: a value built through one is not followed.
    """
    root = configuration.get("root_module") or {}
    output = (root.get("outputs") or {}).get(name) or {}
    found: set[str] = set()
    _resolve(_expression_references(output), root, [], "", found, depth=0)
    return found


def attribute_references(
    configuration: Mapping[str, Any], address: str, attribute: str
) -> set[str]:
    """What ``attribute`` of the resource at ``address`` is built from (as
    :func:`output_references`): ``log_group_name = var.name``, in a module
    called with ``name = module.group.name``, is built from that module's
    ``aws_cloudwatch_log_group.this.name``."""
    parts = _plain_path(address).split(".")
    module = configuration.get("root_module") or {}
    callers: list[tuple[Mapping[str, Any], str, str]] = []
    prefix = ""
    while len(parts) > 2 and parts[0] == "module":
        callers.append((module, prefix, parts[1]))
        module = ((module.get("module_calls") or {}).get(parts[1]) or {}).get("module") or {}
        prefix += f"module.{parts[1]}."
        parts = parts[2:]
    wanted = ".".join(parts)
    top = _plain_path(attribute).split(".")[0]
    found: set[str] = set()
    for resource in module.get("resources") or []:
        if resource.get("address") == wanted:
            given = (resource.get("expressions") or {}).get(top)
            references = _with_each(_all_references(given), resource)
            _resolve(references, module, callers, prefix, found, depth=0)
    return found


def _with_each(references: Sequence[str], block: Mapping[str, Any]) -> list[str]:
    """``references`` and, where they use ``each.value``, what the block's ``for_each`` is
    built from (a wrapper module's ``each.value.name`` comes from its ``var.items``)."""
    extra: list[str] = []
    if any(str(r).startswith("each.") for r in references):
        extra = (block.get("for_each_expression") or {}).get("references") or []
    return [*references, *extra]


def _all_references(node: Any) -> list[str]:
    """Every ``references`` list in an expression (a nested block's too)."""
    if isinstance(node, Mapping):
        own = [str(r) for r in node.get("references") or []]
        return own + [r for k, v in node.items() if k != "references" for r in _all_references(v)]
    if isinstance(node, list):
        return [r for item in node for r in _all_references(item)]
    return []


def _expression_references(holder: Mapping[str, Any]) -> list[str]:
    expression = holder.get("expression") or {}
    return [str(r) for r in expression.get("references") or []]


def _resolve(
    references: Sequence[str],
    module: Mapping[str, Any],
    callers: list[tuple[Mapping[str, Any], str, str]],
    prefix: str,
    found: set[str],
    depth: int,
) -> None:
    """Add the resource paths ``references`` (in ``module``, at ``prefix``) are built from.

    ``callers`` holds, innermost last, each enclosing module with its prefix and
    the name of the call into the next one, for ``var.`` references.
    """
    if depth > 16:  # a reference cycle terraform would refuse anyway
        return
    plain = [_plain_path(r) for r in references]
    calls = module.get("module_calls") or {}
    for ref in plain:
        parts = ref.split(".")
        if parts[0] == "module" and len(parts) >= 2 and parts[1] in calls:
            inner = calls[parts[1]].get("module") or {}
            outputs = inner.get("outputs") or {}
            if len(parts) >= 3:
                chosen = [parts[2]] if parts[2] in outputs else []
            elif any(r.startswith(ref + ".") for r in plain):
                chosen = []  # the specific output is listed too
            else:
                chosen = list(outputs)  # the whole module object
            frame = (module, prefix, parts[1])
            for out in chosen:
                _resolve(
                    _expression_references(outputs[out]),
                    inner,
                    [*callers, frame],
                    f"{prefix}module.{parts[1]}.",
                    found,
                    depth + 1,
                )
        elif parts[0] == "var" and len(parts) >= 2 and callers:
            parent, parent_prefix, call = callers[-1]
            entry = (parent.get("module_calls") or {}).get(call) or {}
            given = (entry.get("expressions") or {}).get(parts[1]) or {}
            inputs = _with_each(given.get("references") or [], entry)
            _resolve(inputs, parent, callers[:-1], parent_prefix, found, depth + 1)
        elif parts[0] not in ("var", "local", "each", "count", "path", "self", "terraform"):
            found.add(prefix + ref)


def _follows(
    defect: Defect,
    cause: Defect,
    references: Collection[str],
    unexplained: Collection[str],
    renewed: Collection[str],
) -> bool:
    if defect is cause or defect.address == cause.address:
        return False
    resource = _plain_path(cause.address or "")
    target = f"{resource}.{_plain_path(cause.attribute or '').split('.')[0]}"
    if any(r == target or r.startswith(target + ".") for r in references):
        return True
    if resource not in unexplained:
        inside = [r for r in references if r.startswith(resource + ".")]
        if resource in references and not inside:
            return True  # built from the whole object
        if inside and resource in renewed:
            return True  # built from an object the gap makes new on every run
    wanted = cause.declared
    if not isinstance(wanted, str | int | float) or isinstance(wanted, bool):
        return False
    if len(str(wanted)) < 4:  # "true", "0": too common to say one value came from another
        return False
    return _holds(defect.declared, wanted) and not _holds(defect.observed, wanted)


def _holds(value: Any, wanted: Any) -> bool:
    """``value`` is ``wanted`` or holds it (in a list, map, or a longer string)."""
    if isinstance(value, Mapping):
        return any(_holds(v, wanted) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_holds(v, wanted) for v in value)
    if isinstance(value, str) and isinstance(wanted, str):
        return wanted in value
    return bool(value == wanted)


def mark_disagreements(
    defects: Iterable[Defect],
    other_defects: Iterable[Defect],
    this: str,
    other: str,
    *,
    other_plan: str = "",
    other_version: str | None = None,
    strict: bool = False,
) -> list[Defect]:
    """Mark the findings that ``other`` (the second emulator) does not show.

    The same module on the other emulator converges on that attribute: one
    of the two emulators differs from AWS there, most likely the one that
    shows the finding. Returns the marked findings. An error ``other`` shows
    too stays an error, confirmed: its ``confirmed_by`` names ``other``, its
    ``other_version`` and ``other_plan``.
    """
    theirs = {_key(d) for d in other_defects if d.severity == ERROR}
    marked = []
    for defect in defects:
        if defect.severity != ERROR and not defect.emulator_suspected:
            continue
        if _key(defect) in theirs:
            if defect.severity == ERROR:
                defect.confirmed_by = {
                    "emulator": other,
                    "version": other_version,
                    "plan": other_plan,
                }
            continue
        plan = f" (its second plan: {other_plan})" if other_plan else ""
        text = (
            f"{other} does not show this finding for the same module{plan}: "
            f"only {this} does, so {this} probably differs from AWS here"
        )
        if defect.emulator_suspected and defect.evidence:
            defect.evidence += f"; and {text}"
        else:
            _suspect(defect, text, strict)
        marked.append(defect)
    return marked


def _key(d: Defect) -> tuple:
    return (d.kind, d.address, d.attribute)


# -- gaps in calls ------------------------------------------------------------------------

_NOT_IMPLEMENTED = re.compile(
    rb"NotImplemented|not (yet )?implemented|InternalFailure|UnknownOperation"
    rb"|InvalidAction|UnrecognizedClientException",
    re.I,
)


#: An ``InvalidAction`` answer's message naming the action unknown.
#: MiniStack's answer for a service it does not serve: ``{"error": "Unsupported service: x"}``.
_UNSUPPORTED_SERVICE = re.compile(rb'\{\s*"error"\s*:\s*"Unsupported service\b')
_UNKNOWN_ACTION = re.compile(
    rb"unknown [\w -]*action|action [^<]* (is )?not (valid|supported)", re.I
)
#: MiniStack's answer to an action its service does not dispatch, whatever code it
#: gives (``InvalidOperationException`` in logs, ``UnknownOperationException`` in
#: dynamodb, ``InvalidRequestException`` in secretsmanager): the message names it.
_UNKNOWN_NAMED = re.compile(
    rb'(?:"message"\s*:\s*"|<Message>)Unknown (?:action|operation): \w+(?:"|</Message>)', re.I
)


def unimplemented_operation(status: int, headers: Any, body: bytes) -> bool:
    """True when an emulator's answer says it does not implement the operation.

    moto answers an unknown operation with an HTML 404 or 500 page, or an
    error whose code is ``NotImplemented``/``InternalFailure``; a 501 is the
    HTTP form of the same; MiniStack (as AWS for an action that does not exist)
    answers a 400 ``InvalidAction`` naming the action unknown (or another code with
    the message ``Unknown action: Name``), and a 400
    ``{"error": "Unsupported service: redshift"}`` for a service it lacks. A real API error
    (4xx with an AWS error code such as ``InvalidParameterValue``) is not one.
    """
    if status < 400:
        return False
    if status == 501:
        return True
    head = body[:4096].lstrip()
    if head[:15].lower().startswith((b"<!doctype html", b"<html")):
        return status in (404, 405, 500)
    if b"InvalidAction" in head and _UNKNOWN_ACTION.search(head):
        return True
    if _UNSUPPORTED_SERVICE.match(head) or _UNKNOWN_NAMED.search(head):
        return True
    return bool(_NOT_IMPLEMENTED.search(head)) and (status >= 500 or b"Implemented" in head)


def unimplemented_notes(
    calls: Iterable[Any],
    emulator: str,
    implements: Callable[[str, str], bool | None] | None = None,
) -> list[Diagnostic]:
    """One sentence per operation the emulator answered as not implemented, as a record
    of that call (its service and operation, and the resource whose apply made it when
    the proxy located every such call on one).

    ``calls`` are the proxy's records (``service``, ``operation``, ``method``,
    ``path``, ``unimplemented``, ``upstream_status``, ``parameters``).
    ``implements(service, operation)`` is what the emulator's own dispatch says it
    serves (:func:`.emulator.moto_source.implements`): an error page to an operation it
    serves is the emulator failing on that request, said with the request, not a
    missing operation.
    """
    notes: dict[str, Diagnostic] = {}
    by_name: dict[str, set[str | None]] = {}
    for call in calls:
        if not getattr(call, "unimplemented", False):
            continue
        name = operation_name(call.service, call.operation, call.method, call.path)
        by_name.setdefault(name, set()).add(getattr(call, "address", None))
        if name in notes:
            continue
        operation = name.partition(":")[2]
        served = (
            implements(call.service, operation) if implements and " " not in operation else None
        )
        known = None if " " in operation else operation  # the HTTP form names none
        if served:
            notes[name] = Diagnostic(
                f"the {emulator} emulator failed on a `{name}` request (it serves that "
                f"operation, and answered HTTP {call.upstream_status} with an error page to "
                f"this request: {request_excerpt(call)}): an emulator bug on these "
                f"parameters, not a missing operation and not a module error. Test the "
                f"resource that sends it on another backend (--converge-backend), or leave "
                f"that setting out of the module under test (converge.tfvars)",
                service=call.service,
                operation=known,
            )
            continue
        notes[name] = Diagnostic(
            f"the {emulator} emulator does not implement `{name}` (it answered HTTP "
            f"{call.upstream_status} with an error page instead of an API response): this "
            f"is an emulator gap, not a module error. Test the resource that needs it on "
            f"another backend (--converge-backend), or leave it out of the module under "
            f"test (e.g. a count/for_each switched off in converge.tfvars)",
            service=call.service,
            operation=known,
        )
    return [replace(note, address=_one(by_name[name])) for name, note in notes.items()]


def _one(addresses: set[str | None]) -> str | None:
    """The one resource all of a note's calls or diagnostics were for, else None."""
    return next(iter(addresses)) if len(addresses) == 1 else None


#: How much of a request an explanation quotes: parameters, and characters of each value.
_EXCERPT_PARAMETERS = 4
_EXCERPT_VALUE = 60


def request_excerpt(call: Any) -> str:
    """A short excerpt of a call's request: its first parameters (``Filter.1.Name=
    ipv6-cidr-block-association.ipv6-cidr-block, ...``), else its method and path."""
    parameters = dict(getattr(call, "parameters", None) or {})
    if not parameters:
        return f"{call.method} {call.path}"
    shown = [
        f"{k}={v if len(v) <= _EXCERPT_VALUE else v[: _EXCERPT_VALUE - 3] + '...'}"
        for k, v in list(parameters.items())[:_EXCERPT_PARAMETERS]
    ]
    more = len(parameters) - _EXCERPT_PARAMETERS
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


#: The call an AWS SDK (v2) error names: ``operation error EC2: CreateVpc, ...``.
_SDK_CALL = re.compile(r"operation error ([\w .-]+?): (\w+),")


def sdk_call(text: str) -> tuple[str, str] | None:
    """The call an AWS SDK (v2) error in ``text`` names, ``("ec2", "CreateVpc")``; the
    service is the SDK's id without spaces (``CloudWatch Logs``: ``cloudwatchlogs``)."""
    found = _SDK_CALL.search(text)
    return (_service_id(found.group(1)), found.group(2)) if found else None


def _service_id(sdk_name: str) -> str:
    return sdk_name.strip().lower().replace(" ", "")


#: The provider's SDK could not decode an answer: ``operation error EC2: CreateSubnet,
#: ... deserialization failed`` (SDK v2) or ``SerializationError`` (SDK v1).
_UNDECODABLE = re.compile(
    r"operation error ([\w .-]+?): (\w+),.*?(?:deserialization failed|failed to decode)"
    r"|SerializationError: failed (?:decoding|to unmarshal) ([\w .-]+?) (?:Query|JSON|REST)?"
    r".*?response",
    re.I,
)


def undecodable_call(text: str) -> tuple[str, str | None] | None:
    """The call whose answer the provider's SDK could not decode, as an error in ``text``
    says it: ``("ec2", "CreateSubnet")`` (SDK v2), ``("ec2", None)`` (SDK v1 names the
    service only); None when it says no such thing. Read once, where terraform's
    diagnostics become records (``Diagnostic.undecodable``)."""
    found = _UNDECODABLE.search(text)
    if found is None:
        return None
    return _service_id(found.group(1) or found.group(3) or ""), found.group(2) or None


def undecodable_notes(diagnostics: Iterable[Diagnostic], emulator: str) -> list[Diagnostic]:
    """One sentence per operation whose answer the provider could not decode (the records
    marked ``undecodable``), as a record of that call (its service, its operation where
    the SDK names it, and the resource whose diagnostics said it when they all are one's).

    moto answers some calls with values AWS never sends (an IPv6-only subnet's
    AvailableIpAddressCount of 2^64 - 5): the provider fails on the answer, not
    on the module.
    """
    notes: dict[str, Diagnostic] = {}
    by_name: dict[str, set[str | None]] = {}
    for diagnostic in diagnostics:
        service, operation = diagnostic.service, diagnostic.operation
        if not diagnostic.undecodable or service is None:
            continue
        name = f"{service}:{operation}" if operation else f"{service} (an answer)"
        by_name.setdefault(name, set()).add(diagnostic.address)
        notes.setdefault(
            name,
            Diagnostic(
                f"the {emulator} emulator answered `{name}` with a response the provider "
                "cannot decode: this is an emulator gap, not a module error (see the decoding "
                "error below). Test the resource that needs it on another backend "
                "(--converge-backend), or leave it out of the module under test",
                service=service,
                operation=operation,
            ),
        )
    return [replace(note, address=_one(by_name[name])) for name, note in notes.items()]


def operation_name(service: str, operation: str, method: str = "", path: str = "") -> str:
    """``service:Operation`` as IAM writes it, e.g. ``elasticfilesystem:CreateMountTarget``.

    The proxy names a REST call from botocore's model (``faults/operations.py``); one
    no template of it fits keeps its HTTP form, ``service:GET /path``.
    """
    if " " not in operation:
        return f"{service}:{operation}"
    return f"{service}:{method} {path}"
