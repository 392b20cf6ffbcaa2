"""Which AWS service a Terraform resource type talks to, and which operations it makes.

One rule names a type's service as botocore names it, with the SigV4 signing
name the proxy sees on the wire::

    >>> service_of("aws_sfn_state_machine")
    AwsService(name='stepfunctions', signing_name='states')
    >>> service_of("aws_cloudwatch_log_group").name, service_of("aws_default_vpc").name
    ('logs', 'ec2')

The longest prefix of the type's words (after ``aws_``) that :data:`ALIASES`
names wins (``cloudwatch_log`` before ``cloudwatch``; ``route`` is EC2 but
``route53`` is a word of its own); else the longest prefix that is a botocore
service with ``_`` read as ``-`` or as nothing (``ecrpublic`` ->
``ecr-public``, ``service_discovery`` -> ``servicediscovery``).

:func:`operations_of` reads ``data/resource_operations.json``: per provider
major (``"5"``, ``"3"``) and type, the operations its create, read, update
and delete make, ``learned`` from recorded runs or ``inferred`` from
botocore's model by the resource's noun (:func:`infer_operations`:
``aws_elasticache_parameter_group`` -> ``CreateCacheParameterGroup``,
``DescribeCacheParameterGroups``, ``ModifyCacheParameterGroup``,
``DeleteCacheParameterGroup``). ``scripts/learn_resource_operations.py``
writes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "ALIASES",
    "DATA",
    "PHASES",
    "AwsService",
    "ResourceOperations",
    "botocore_services",
    "infer_operations",
    "operations_of",
    "service_model",
    "service_of",
    "signing_as",
    "signing_name",
    "signing_names",
]

#: Where :func:`operations_of` reads from.
DATA = Path(__file__).resolve().parent.parent / "data" / "resource_operations.json"
#: The phases of a resource's lifecycle, in the order a first apply meets them.
PHASES = ("create", "read", "update", "delete")

#: Type-name prefixes (words after ``aws_``) whose service the name does not spell:
#: prefix -> (botocore service, how many of the prefix's words only name the service;
#: the rest are the resource's noun: ``db`` of ``aws_db_instance`` is in ``DBInstance``).
ALIASES: dict[str, tuple[str, int]] = {
    # EC2's resources carry no service word.
    **{
        prefix: ("ec2", 0)
        for prefix in (
            "ami",
            "customer_gateway",
            "default",
            "egress_only_internet_gateway",
            "eip",
            "flow_log",
            "instance",
            "internet_gateway",
            "key_pair",
            "launch_template",
            "main_route_table",
            "nat_gateway",
            "network",
            "placement_group",
            "route",
            "security_group",
            "snapshot_create_volume_permission",
            "spot",
            "subnet",
            "volume_attachment",
            "vpc",
            "vpn",
        )
    },
    "ec2": ("ec2", 1),
    "ebs": ("ec2", 1),
    "vpc_lattice": ("vpc-lattice", 2),
    "cloudwatch_log": ("logs", 1),
    "cloudwatch_query": ("logs", 1),
    "cloudwatch_event": ("events", 2),
    "cloudwatch": ("cloudwatch", 1),
    "appautoscaling": ("application-autoscaling", 1),
    "api_gateway": ("apigateway", 2),
    "cognito": ("cognito-idp", 1),
    "cognito_identity_pool": ("cognito-identity", 1),
    "lb": ("elbv2", 1),
    "alb": ("elbv2", 1),
    "elb": ("elb", 1),
    "lb_cookie_stickiness_policy": ("elb", 0),
    "lb_ssl_negotiation_policy": ("elb", 0),
    "app_cookie_stickiness_policy": ("elb", 0),
    "load_balancer": ("elb", 0),
    "proxy_protocol_policy": ("elb", 0),
    "db": ("rds", 0),
    "rds": ("rds", 1),
    "sfn": ("stepfunctions", 1),
    "launch_configuration": ("autoscaling", 0),
    "ecrpublic": ("ecr-public", 1),
    "elasticsearch": ("es", 0),
    "msk": ("kafka", 1),
    "mskconnect": ("kafkaconnect", 1),
    "kinesis_firehose": ("firehose", 1),
    "kinesis_analytics": ("kinesisanalytics", 2),
    "kinesis_video": ("kinesisvideo", 2),
    "dx": ("directconnect", 1),
    "prometheus": ("amp", 1),
    "s3_access_point": ("s3control", 1),
    "s3_account_public_access_block": ("s3control", 2),
    "s3_object_lambda_access_point": ("s3control", 1),
    "service_discovery": ("servicediscovery", 2),
    "elastic_beanstalk": ("elasticbeanstalk", 2),
    "cloudhsm_v2": ("cloudhsmv2", 2),
    "ses": ("ses", 1),
    "wafregional": ("waf-regional", 1),
    "sagemaker": ("sagemaker", 1),
    "codestarconnections": ("codestar-connections", 1),
    "ssoadmin": ("sso-admin", 1),
}

#: A type's word the API calls otherwise (``aws_eip`` is an ``Address``).
_WORDS = {
    "lb": "loadbalancer",
    "alb": "loadbalancer",
    "elb": "loadbalancer",
    "eip": "address",
    "ami": "image",
}

#: Verbs of each phase, in tiers: the first tier that names an operation wins
#: (``CreateX`` before ``ImportX``; ``DescribeX`` before ``ListX``).
_VERBS: dict[str, tuple[tuple[str, ...], ...]] = {
    "create": (
        ("Create",),
        ("Run", "Allocate", "Register", "Request", "Put"),
        ("Import",),
        ("Associate", "Attach", "Enable", "Authorize", "Add", "Set", "Tag"),
    ),
    "read": (("Describe", "Get", "Head"), ("List",)),
    "update": (("Modify", "Update"), ("Put", "Set")),
    "delete": (
        ("Delete",),
        ("Terminate", "Release", "Deregister", "Remove", "Revoke", "Cancel"),
        ("Disassociate", "Detach", "Disable", "Untag"),
    ),
}
#: A type named after a relation: its verbs come from its last word.
_RELATIONS = {
    "association": ("Associate", "Disassociate"),
    "attachment": ("Attach", "Detach"),
    "propagation": ("Enable", "Disable"),
}


@dataclass(frozen=True)
class AwsService:
    """A service as botocore names it, and the name requests to it are signed with."""

    #: botocore's (and boto3's) name: ``stepfunctions``, ``elbv2``, ``logs``.
    name: str
    #: SigV4's, what the proxy reads from a request: ``states``, ``elasticloadbalancing``.
    signing_name: str


@dataclass(frozen=True)
class ResourceOperations:
    """The AWS operations a resource type's create, read, update and delete make."""

    service: str
    create: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    update: tuple[str, ...] = ()
    delete: tuple[str, ...] = ()
    #: ``"learned"`` (seen in recorded runs) or ``"inferred"`` (from botocore's model).
    source: str = "inferred"

    def of(self, phase: str) -> tuple[str, ...]:
        """The operations of ``phase`` (one of :data:`PHASES`)."""
        if phase not in PHASES:
            raise ValueError(f"phase {phase!r} is none of {', '.join(PHASES)}")
        found: tuple[str, ...] = getattr(self, phase)
        return found


# -- botocore's data files -------------------------------------------------------
@cache
def _loader() -> Any:
    # Data files only: a botocore Session reads the user's AWS config and fails on an
    # AWS_PROFILE it does not find; nothing here needs a profile or credentials.
    import botocore.loaders

    return botocore.loaders.create_loader()


@cache
def botocore_services() -> frozenset[str]:
    """Every service botocore has a model of."""
    return frozenset(_loader().list_available_services("service-2"))


@cache
def service_model(service: str) -> dict[str, Any] | None:
    """botocore's model of ``service`` as its data file has it (None: no such model)."""
    if service not in botocore_services():
        return None
    model: dict[str, Any] = _loader().load_service_model(service, "service-2")
    return model


@cache
def signing_names() -> dict[str, str]:
    """Every botocore service's SigV4 signing name (``stepfunctions`` -> ``states``), as
    the data file keeps them (else as botocore's models say, reading every model)."""
    kept = _data().get("signing_names")
    return dict(kept) if kept else {s: signing_name(s) for s in sorted(botocore_services())}


def signing_as(signing_name: str) -> tuple[str, ...]:
    """The botocore services that sign as ``signing_name``: its namesake first, then by
    name (``apigateway`` -> ``apigateway``, ``apigatewayv2``; ``elasticfilesystem`` ->
    ``efs``)."""
    found = sorted(s for s, name in signing_names().items() if name == signing_name)
    return tuple(sorted(found, key=lambda s: s != signing_name))


# -- the service rule ------------------------------------------------------------
@cache
def _known_services() -> frozenset[str]:
    """botocore's services as the data file lists them (a directory scan of botocore's
    data saved), or as botocore does."""
    kept = _data().get("signing_names")
    return frozenset(kept) if kept else botocore_services()


def _words(resource_type: str) -> list[str]:
    return resource_type.removeprefix("aws_").split("_")


def _named(resource_type: str) -> tuple[str, int] | None:
    """(botocore service, words that only name it) of a type, by its longest prefix."""
    if not resource_type.startswith("aws_"):
        return None
    words = _words(resource_type)
    available = _known_services()
    squeezed = {name.replace("-", ""): name for name in sorted(available)}
    for n in range(len(words), 0, -1):
        prefix = "_".join(words[:n])
        if prefix in ALIASES:
            return ALIASES[prefix]
        for candidate in (prefix.replace("_", "-"), prefix.replace("_", "")):
            if candidate in available:
                return candidate, n
        if prefix.replace("_", "") in squeezed:
            return squeezed[prefix.replace("_", "")], n
    return None


@cache
def service_of(resource_type: str) -> AwsService | None:
    """The AWS service ``resource_type`` (``aws_lb``) talks to: botocore's name and its
    signing name (``elbv2``, ``elasticloadbalancing``); None when no rule names one."""
    named = _named(resource_type)
    if named is None:
        return None
    signing = _data().get("signing_names", {}).get(named[0]) or signing_name(named[0])
    return AwsService(named[0], signing)


def signing_name(service: str) -> str:
    """The SigV4 name of a botocore service, from its model (``stepfunctions`` ->
    ``states``). The data file keeps every service's, so that a lookup does not parse
    EC2's model."""
    model = service_model(service)
    metadata = model.get("metadata", {}) if model else {}
    return str(metadata.get("signingName") or metadata.get("endpointPrefix") or service)


# -- inferring a type's operations from botocore's model --------------------------
def _forms(noun: str, attributes: bool = False) -> tuple[str, ...]:
    """A noun and its plurals, lower case (``policy``, ``policys``, ``policies``), and
    with ``attributes`` its attribute calls (``ModifyVpcAttribute``)."""
    forms = [noun, noun + "s", noun + "es"]
    if noun.endswith("y"):
        forms.append(noun[:-1] + "ies")
    if attributes:
        forms += [noun + "attribute", noun + "attributes"]
    return tuple(forms)


def _split(operation: str) -> tuple[str, str]:
    """``CreateCacheParameterGroup`` -> (``Create``, ``cacheparametergroup``)."""
    match = re.match(r"[A-Z][a-z]+", operation)
    verb = match.group(0) if match else ""
    return verb, operation[len(verb) :].lower()


_Split = Sequence[tuple[str, str, str]]


def _pick(
    split: _Split,
    nouns: Sequence[str],
    tiers: tuple[tuple[str, ...], ...],
    *,
    ending: bool = False,
    attributes: bool = False,
) -> tuple[tuple[str, ...], str]:
    """The operations of a phase's verbs on the longest of ``nouns`` that has any: the
    noun itself in the first tier that names it, else (``ending``) a longer noun that
    ends in it (``CacheParameterGroup`` for ``parametergroup``); and that full noun."""
    for noun in nouns:
        forms = _forms(noun)
        for tier in tiers:
            # An attribute call (ModifyVpcAttribute) only where the noun has no call of its
            # own in the tier: EC2's volume has ModifyVolume, not the provider's attribute one.
            for wanted in (forms, _forms(noun, attributes)[len(forms) :]):
                found = tuple(op for op, verb, rest in split if verb in tier and rest in wanted)
                if found:
                    return found, noun
        if not ending:
            continue
        for tier in tiers:
            found = tuple(op for op, verb, rest in split if verb in tier and rest.endswith(forms))
            if found:
                rest = _split(found[0])[1]
                form = next(f for f in forms if rest.endswith(f))
                return found, rest[: len(rest) - len(form)] + noun
    return (), ""


def infer_operations(resource_type: str) -> ResourceOperations | None:
    """The operations botocore's model names after ``resource_type``'s noun, per phase.

    The noun is the type's words after those that only name its service, longest
    first (``aws_cloudwatch_log_group``: ``cloudwatchloggroup``, ``loggroup``);
    the create is a create verb on it or on a longer noun ending in it
    (``CreateCacheParameterGroup``), and the other phases are their verbs on the
    create's own noun (``Describe``/``Get``, ``Modify``/``Update``/``Put``,
    ``Delete``; its attribute calls where it has none of its own). A ``..._association`` type is
    ``Associate``/``Disassociate``; an ``aws_default_*`` type adopts what exists,
    so its create reads. None when no create is named so.
    """
    named = _named(resource_type)
    if named is None:
        return None
    service, service_words = named
    model = service_model(service)
    if model is None:
        return None
    words = [_WORDS.get(w, w) for w in _words(resource_type)]
    verbs = dict(_VERBS)
    if words[0] == "default" and len(words) > 1:
        words = words[1:]
        verbs["create"] = verbs["read"]
        verbs["delete"] = ()  # terraform forgets a default object, never deletes it
    relation = _RELATIONS.get(words[-1])
    if relation and len(words) - 1 > service_words:
        words = words[:-1]
        verbs["create"] = ((relation[0],),)
        verbs["delete"] = ((relation[1],),)
    # The noun keeps every word after the service's: never a lone generic word.
    nouns = ["".join(words[i:]) for i in range(min(service_words, len(words) - 1) + 1)]
    split = [(op, *_split(op)) for op in sorted(model["operations"])]
    create, noun = _pick(split, nouns, verbs["create"], ending=True)
    if not create:
        return None
    read, update, delete = (
        _pick(split, [noun], verbs[phase], attributes=phase in ("read", "update"))[0]
        for phase in PHASES[1:]
    )
    return ResourceOperations(service, create, read, update, delete)


# -- the data file ---------------------------------------------------------------
@cache
def _data() -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(DATA.read_text())
    except FileNotFoundError:
        return {}
    return data


def _entry(entry: dict[str, Any]) -> ResourceOperations:
    create, read, update, delete = (tuple(entry.get(phase, ())) for phase in PHASES)
    return ResourceOperations(
        entry["service"], create, read, update, delete, entry.get("source", "inferred")
    )


def operations_of(resource_type: str, provider_major: str | int) -> ResourceOperations | None:
    """What ``resource_type``'s create/read/update/delete call under the AWS provider
    ``provider_major`` (``"5"``, ``"3"``); None when the data knows nothing of it."""
    majors = _data().get("providers", {})
    entry = majors.get(str(provider_major), {}).get("types", {}).get(resource_type)
    return _entry(entry) if entry else None


def newest_major() -> str:
    """The newest aws provider major the data knows (``"5"``)."""
    return max(_data().get("providers", {"5": None}), key=int)


def entries(data: dict[str, Any]) -> Iterable[tuple[str, str, ResourceOperations]]:
    """(major, type, operations) of every entry of a data file's content."""
    for major, found in sorted(data.get("providers", {}).items()):
        for resource_type, entry in sorted(found.get("types", {}).items()):
            yield major, resource_type, _entry(entry)
