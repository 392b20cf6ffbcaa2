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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .defects import Defect
from .state import StateResource

if TYPE_CHECKING:
    from ..inventory import CloudObject

__all__ = ["NAME_IS_IDENTITY", "find_leftovers"]

#: Types whose name is unique in an account (and region), so the name alone says
#: "this is the object in state". For the others (VPCs, subnets, instances ...)
#: a name is only a ``Name`` tag that a duplicate shares: only the id counts.
NAME_IS_IDENTITY = frozenset(
    {
        "aws_s3_bucket",
        "aws_sqs_queue",
        "aws_sns_topic",
        "aws_iam_role",
        "aws_iam_policy",
        "aws_iam_user",
        "aws_iam_instance_profile",
        "aws_dynamodb_table",
        "aws_lambda_function",
        "aws_cloudwatch_log_group",
        "aws_ecr_repository",
        "aws_secretsmanager_secret",
        "aws_ssm_parameter",
        "aws_lb",
        "aws_ecs_cluster",
        "aws_kinesis_stream",
        "aws_key_pair",
    }
)

#: State attributes that hold a resource's own name, by the types that use them.
_NAME_KEYS = ("name", "bucket", "function_name", "key_name")

#: State attributes through which Terraform knows an object it did not create
#: itself (a VPC's default security group, the main route table an association
#: replaced): objects with these ids are accounted for, whatever their type.
_ADOPTED_ID_KEYS = (
    "original_route_table_id",
    "default_security_group_id",
    "default_route_table_id",
    "default_network_acl_id",
    "main_route_table_id",
)

#: Cleanup commands for the common types, so a report says how to remove the extra.
_DELETE = {
    "aws_vpc": "aws ec2 delete-vpc --vpc-id {id}",
    "aws_subnet": "aws ec2 delete-subnet --subnet-id {id}",
    "aws_security_group": "aws ec2 delete-security-group --group-id {id}",
    "aws_internet_gateway": "aws ec2 delete-internet-gateway --internet-gateway-id {id}",
    "aws_route_table": "aws ec2 delete-route-table --route-table-id {id}",
    "aws_network_acl": "aws ec2 delete-network-acl --network-acl-id {id}",
    "aws_nat_gateway": "aws ec2 delete-nat-gateway --nat-gateway-id {id}",
    "aws_eip": "aws ec2 release-address --allocation-id {id}",
    "aws_instance": "aws ec2 terminate-instances --instance-ids {id}",
    "aws_key_pair": "aws ec2 delete-key-pair --key-name {id}",
    "aws_s3_bucket": "aws s3 rb s3://{id} --force",
    "aws_sqs_queue": "aws sqs delete-queue --queue-url {id}",
    "aws_sns_topic": "aws sns delete-topic --topic-arn {id}",
    "aws_dynamodb_table": "aws dynamodb delete-table --table-name {id}",
    "aws_iam_role": "aws iam delete-role --role-name {id}",
    "aws_iam_user": "aws iam delete-user --user-name {id}",
    "aws_iam_policy": "aws iam delete-policy --policy-arn {id}",
    "aws_iam_instance_profile": "aws iam delete-instance-profile --instance-profile-name {id}",
    "aws_lambda_function": "aws lambda delete-function --function-name {id}",
    "aws_cloudwatch_log_group": "aws logs delete-log-group --log-group-name {id}",
    "aws_ecr_repository": "aws ecr delete-repository --repository-name {id} --force",
    "aws_kms_key": "aws kms schedule-key-deletion --key-id {id}",
    "aws_ssm_parameter": "aws ssm delete-parameter --name {id}",
    "aws_secretsmanager_secret": "aws secretsmanager delete-secret --secret-id {id}",
    "aws_lb": "aws elbv2 delete-load-balancer --load-balancer-arn {id}",
    "aws_ecs_cluster": "aws ecs delete-cluster --cluster {id}",
    "aws_kinesis_stream": "aws kinesis delete-stream --stream-arn {id}",
}

#: Types whose create the AWS provider sends without an idempotency token and with
#: nothing unique in it: a retried call always makes a new object.
_NO_TOKEN = frozenset(
    {
        "aws_vpc",
        "aws_subnet",
        "aws_internet_gateway",
        "aws_route_table",
        "aws_network_acl",
        "aws_eip",
        "aws_kms_key",
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
) -> list[Defect]:
    """One defect per object in ``created`` that no managed resource in ``state`` tracks.

    *Tracked* means the object's id or ARN equals a same-type state resource's
    ``id`` or ``arn`` (URLs compared by path only, since an SQS queue URL
    embeds whichever endpoint answered), or, for types whose names are unique
    (:data:`NAME_IS_IDENTITY`), its name equals the resource's ``name`` /
    ``bucket`` / ``function_name`` / ``key_name``. A different type never
    matches, whatever the name. Data sources are ignored.

    An untracked object is a **duplicate** of the same-type state resource
    that resembles it, else an **orphan**. Resemblance compares the identity
    attributes both sides have - ``cidr_block``, the ``Name`` tag, the name
    (or a ``name_prefix`` the object's name starts with):

    * one of them equal and none different: resembles (a strong match);
    * none of them present on both sides: resembles (a weak match) - same
      type with nothing else to tell them apart, as with a KMS key;
    * any of them different: does not resemble (a different object).

    Among resembling resources strong beats weak, then the one sharing most
    other attributes (``vpc_id``, ``availability_zone`` ...), then the first
    address. A duplicate names that address in ``address`` and the extra
    object's id in ``objects``; an orphan has ``address=None``. Each
    leftover is its own defect, even when two duplicate the same address.
    ``reproduce`` is left for the caller, which knows the scenario.
    """
    managed = [r for r in state if r.mode == "managed"]
    keys_by_type: dict[str, set[str]] = {}
    adopted: set[str] = set()
    for r in managed:
        keys_by_type.setdefault(r.type, set()).update(_state_keys(r))
        adopted.update(_norm(r.values.get(k)) for k in _ADOPTED_ID_KEYS if r.values.get(k))
    by_type: dict[str, list[StateResource]] = {}
    for r in managed:
        by_type.setdefault(r.type, []).append(r)

    defects: list[Defect] = []
    for obj in sorted(created, key=lambda o: (o.type, o.id)):
        if _norm(obj.id) in adopted or _object_keys(obj) & keys_by_type.get(obj.type, set()):
            continue
        candidates = sorted(by_type.get(obj.type, []), key=lambda r: r.address)
        best = _best_resemblance(obj, candidates)
        if best is not None:
            defects.append(_duplicate(obj, best, candidates, module, scenario))
        else:
            defects.append(_orphan(obj, candidates, module, scenario))
    return defects


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
        keys.update(str(r.values[k]) for k in _NAME_KEYS if r.values.get(k))
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
    state_name = next((r.values[k] for k in _NAME_KEYS if r.values.get(k)), None)
    if obj.name and state_name:
        pairs.append(("name", obj.name, state_name))
    return pairs


def _resemble(obj: CloudObject, r: StateResource) -> _Resemblance | None:
    pairs = _identity_pairs(obj, r)
    prefix = r.values.get("name_prefix")
    shared: list[str] = []
    for label, mine, theirs in pairs:
        if mine == theirs:
            shared.append(label)
        elif label == "name" and prefix and str(mine).startswith(str(prefix)):
            # name_prefix: each create call generates a new name from the same prefix.
            shared.append("name_prefix")
        else:
            return None
    if not pairs and prefix and obj.name and obj.name.startswith(str(prefix)):
        shared.append("name_prefix")
    score = sum(
        1
        for k, v in obj.attributes.items()
        if k not in ("cidr_block", "tags", "name")
        and isinstance(v, (str, int, float, bool))
        and r.values.get(k) == v
    )
    return _Resemblance(r, strong=bool(shared), shared=shared, score=score)


def _best_resemblance(obj: CloudObject, candidates: list[StateResource]) -> _Resemblance | None:
    found = [m for m in (_resemble(obj, r) for r in candidates) if m is not None]
    if not found:
        return None
    # Stable sort on an already address-sorted list: the first address wins ties.
    return sorted(found, key=lambda m: (not m.strong, -m.score))[0]


# --- defect text ---------------------------------------------------------------------------


def _delete_hint(obj: CloudObject) -> str:
    template = _DELETE.get(obj.type)
    return f"`{template.format(id=obj.id)}`" if template else f"delete {obj.describe()}"


def _duplicate(
    obj: CloudObject,
    match: _Resemblance,
    candidates: list[StateResource],
    module: str,
    scenario: str,
) -> Defect:
    r = match.resource
    if match.strong:
        because = "same " + ", ".join(
            f"{label} {_attr_value(obj, r, label)!r}" for label in match.shared
        )
    else:
        others = [c.address for c in candidates]
        because = "same type and nothing else tells them apart" + (
            f" (it may duplicate any of {', '.join(others)})" if len(others) > 1 else ""
        )
    message = (
        f"{obj.describe()} duplicates {r.address} ({r.id}): the scenario created a second "
        f"{obj.type} that no resource in state tracks ({because})."
    )
    if obj.type in NAME_IS_IDENTITY or obj.type == "aws_security_group":
        # A security group's name is unique within its VPC: a retried create with a
        # fixed name fails with InvalidGroup.Duplicate instead of duplicating.
        prevent = (
            f"give {r.address} a fixed, unique name (not `name_prefix`) so a retried create "
            "fails with 'already exists' instead of making a second object"
        )
    elif obj.type in _NO_TOKEN:
        prevent = (
            f"the AWS provider creates {obj.type} without an idempotency token and nothing "
            "in it is unique, so a retried create always duplicates; the module cannot stop "
            "that, but a unique per-deployment tag makes extras easy to find and remove, and "
            "this check in CI catches them"
        )
    else:
        prevent = (
            "give the resource a unique name or an idempotency token (ClientToken) so a "
            "retried create fails or returns the first object instead of duplicating"
        )
    fix = f"Prevent: {prevent}. Clean up: {_delete_hint(obj)} (the extra object, not {r.id})."
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
    message = f"{obj.describe()} was created during the scenario but no resource in state tracks it"
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
    target = "<address>"
    import_id = obj.id
    fix = (
        f"If the module declares it, adopt it: `terraform import {target} {import_id}`, or an "
        f'`import` block (Terraform >= 1.5) with `to = {target}` and `id = "{import_id}"`, '
        f"where {target} is the resource that declares this {obj.type}; then re-run. "
        f"Otherwise remove it: {_delete_hint(obj)}. "
        "Prevent: give the resource a fixed, unique name or an idempotency token, so an "
        "interrupted create is found again (or fails loudly) instead of being left behind."
    )
    return Defect(
        kind="orphan",
        address=None,
        declared=None,
        observed=obj.id,
        message=message,
        fix=fix,
        module=module,
        scenario=scenario,
        objects=[obj.id],
        why=_WHY_ORPHAN,
    )
