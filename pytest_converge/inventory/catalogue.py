"""What the project knows of each Terraform resource type, in one table.

One :class:`ResourceType` per type: the boto3 service and scope its built-in
lister lists through (:mod:`.listers` says *how* it lists), what identifies
one of its objects (the API's id, a name unique in the account, or its
content), what a retried create does, the command that deletes a leftover,
the state attributes through which a resource adopts objects it did not
create, and whether the type is a setting of another object rather than an
object of its own. The inventory, :mod:`pytest_converge.analysis.leftovers`
and :mod:`pytest_converge.analysis.hints` read it; none keeps a table of its own::

    >>> CATALOGUE["aws_s3_bucket"].name_attribute
    'bucket'
    >>> sorted(t.type for t in listed() if t.scope == "global")[:2]
    ['aws_iam_access_key', 'aws_iam_group']

Pure data and pure functions (no boto3, no I/O), so ``analysis/`` imports it.
Adding a lister starts here: a row with its ``service``, then the lister in
:mod:`.listers` (``tests/unit/test_catalogue.py`` holds the two together).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ADOPTED_ID_ATTRIBUTES",
    "CATALOGUE",
    "GLOBAL",
    "NAME_ATTRIBUTES",
    "NAME_IS_IDENTITY",
    "ResourceType",
    "is_setting",
    "listed",
    "route_id",
    "rule_ids",
    "signing_name",
]

#: The region of objects that have none (IAM, Route 53, CloudFront).
GLOBAL = "global"


@dataclass(frozen=True)
class ResourceType:
    """What the inventory and the leftover check know of one Terraform resource type.

    * ``service``: the boto3 client the built-in lister lists through (None: no
      built-in lister); ``scope``: ``"regional"`` (listed once per region) or
      ``"global"`` (once per inventory: IAM, Route 53, S3's bucket list).
    * ``identity``: what tells the object in state from a duplicate: ``"id"``
      (only the API's id: a name is a ``Name`` tag a duplicate shares),
      ``"name"`` (the name is unique in the account and region, held in state
      under ``name_attribute``) or ``"content"`` (rules, routes, attachments:
      the lister and the leftover check derive the same id from the content).
    * ``idempotency``: what a retried create does: ``"name"`` (a fixed unique
      name makes it fail with "already exists"; the default of identity
      ``"name"``), ``"none"`` (the provider sends no idempotency token and
      nothing in it is unique: it always duplicates), ``""`` (not known: a
      token or a unique name may prevent it).
    * ``delete``: the AWS CLI command that removes a leftover (``{id}`` is its id,
      ``{name}`` its name, any other field one of the lister's attributes).
    * ``adopts``: state attributes naming objects the resource knows without
      having created them (a VPC's default security group).
    * ``setting``: the type configures another object and is never an object
      of its own (see :func:`is_setting`).
    """

    type: str
    service: str | None = None
    scope: str = "regional"
    identity: str = "id"
    name_attribute: str = "name"
    idempotency: str = ""
    delete: str | None = None
    adopts: tuple[str, ...] = ()
    setting: bool = False

    def __post_init__(self) -> None:
        if self.identity == "name" and not self.idempotency:
            object.__setattr__(self, "idempotency", "name")

    @property
    def signing_name(self) -> str | None:
        """The SigV4 service name the proxy records for calls to :attr:`service`."""
        return signing_name(self.service) if self.service else None


#: boto3 client names whose SigV4 signing name differs (botocore's ``signingName``).
_SIGNING_NAMES = {
    "elbv2": "elasticloadbalancing",
    "cloudwatch": "monitoring",
    "efs": "elasticfilesystem",
    "apigatewayv2": "apigateway",
}


def signing_name(service: str) -> str:
    """The SigV4 signing name of a boto3 client name (``elbv2`` -> ``elasticloadbalancing``)."""
    return _SIGNING_NAMES.get(service, service)


_VPC_ADOPTS = (
    "default_security_group_id",
    "default_route_table_id",
    "default_network_acl_id",
    "main_route_table_id",
)

_TYPES = [
    # -- VPC family --
    ResourceType(
        "aws_vpc", "ec2", idempotency="none", adopts=_VPC_ADOPTS,
        delete="aws ec2 delete-vpc --vpc-id {id}",
    ),
    ResourceType(
        "aws_subnet", "ec2", idempotency="none",
        delete="aws ec2 delete-subnet --subnet-id {id}",
    ),
    # A group's name is unique within its VPC: a retried create with a fixed name
    # fails with InvalidGroup.Duplicate instead of duplicating.
    ResourceType(
        "aws_security_group", "ec2", idempotency="name",
        delete="aws ec2 delete-security-group --group-id {id}",
    ),
    ResourceType("aws_security_group_rule", "ec2", identity="content"),
    ResourceType(
        "aws_internet_gateway", "ec2", idempotency="none",
        delete="aws ec2 delete-internet-gateway --internet-gateway-id {id}",
    ),
    ResourceType(
        "aws_egress_only_internet_gateway", "ec2",
        delete="aws ec2 delete-egress-only-internet-gateway "
        "--egress-only-internet-gateway-id {id}",
    ),
    ResourceType(
        "aws_route_table", "ec2", idempotency="none",
        delete="aws ec2 delete-route-table --route-table-id {id}",
    ),
    ResourceType(
        "aws_route_table_association", "ec2",
        delete="aws ec2 disassociate-route-table --association-id {id}",
    ),
    ResourceType("aws_route", "ec2", identity="content"),
    ResourceType(
        "aws_network_acl", "ec2", idempotency="none",
        delete="aws ec2 delete-network-acl --network-acl-id {id}",
    ),
    ResourceType(
        "aws_nat_gateway", "ec2", delete="aws ec2 delete-nat-gateway --nat-gateway-id {id}"
    ),
    ResourceType(
        "aws_eip", "ec2", idempotency="none", delete="aws ec2 release-address --allocation-id {id}"
    ),
    ResourceType(
        "aws_vpc_endpoint", "ec2", delete="aws ec2 delete-vpc-endpoints --vpc-endpoint-ids {id}"
    ),
    ResourceType("aws_flow_log", "ec2", delete="aws ec2 delete-flow-logs --flow-log-ids {id}"),
    ResourceType(
        "aws_vpn_gateway", "ec2", delete="aws ec2 delete-vpn-gateway --vpn-gateway-id {id}"
    ),
    ResourceType(
        "aws_customer_gateway", "ec2",
        delete="aws ec2 delete-customer-gateway --customer-gateway-id {id}",
    ),
    ResourceType(
        "aws_vpc_dhcp_options", "ec2",
        delete="aws ec2 delete-dhcp-options --dhcp-options-id {id}",
    ),
    # CreateTransitGateway and CreateTransitGatewayRouteTable take no client token.
    ResourceType(
        "aws_ec2_transit_gateway", "ec2", idempotency="none",
        delete="aws ec2 delete-transit-gateway --transit-gateway-id {id}",
    ),
    ResourceType(
        "aws_ec2_transit_gateway_route_table", "ec2", idempotency="none",
        delete="aws ec2 delete-transit-gateway-route-table "
        "--transit-gateway-route-table-id {id}",
    ),
    ResourceType(
        "aws_ec2_transit_gateway_vpc_attachment", "ec2",
        delete="aws ec2 delete-transit-gateway-vpc-attachment "
        "--transit-gateway-attachment-id {id}",
    ),
    # terraform's id is ``<route table>_<destination>``, which the lister gives each route.
    ResourceType(
        "aws_ec2_transit_gateway_route", "ec2",
        delete="aws ec2 delete-transit-gateway-route --transit-gateway-route-table-id "
        "{route_table_id} --destination-cidr-block {destination}",
    ),
    # terraform's id of a share is its ARN.
    ResourceType(
        "aws_ram_resource_share", "ram",
        delete="aws ram delete-resource-share --resource-share-arn {id}",
    ),
    ResourceType(
        "aws_instance", "ec2", delete="aws ec2 terminate-instances --instance-ids {id}"
    ),
    ResourceType(
        "aws_key_pair", "ec2", identity="name", name_attribute="key_name",
        delete="aws ec2 delete-key-pair --key-name {id}",
    ),
    ResourceType(
        "aws_launch_template", "ec2", identity="name",
        delete="aws ec2 delete-launch-template --launch-template-id {id}",
    ),
    # Known without being created: the main route table an association replaced.
    ResourceType("aws_main_route_table_association", adopts=("original_route_table_id",)),
    ResourceType("aws_default_vpc", adopts=_VPC_ADOPTS),
    # -- storage, messaging, data --
    ResourceType(
        "aws_s3_bucket", "s3", scope="global", identity="name", name_attribute="bucket",
        delete="aws s3 rb s3://{id} --force",
    ),
    ResourceType(
        "aws_sqs_queue", "sqs", identity="name",
        delete="aws sqs delete-queue --queue-url {id}",
    ),
    ResourceType(
        "aws_sns_topic", "sns", identity="name",
        delete="aws sns delete-topic --topic-arn {id}",
    ),
    ResourceType(
        "aws_sns_topic_subscription", "sns",
        delete="aws sns unsubscribe --subscription-arn {id}",
    ),
    ResourceType(
        "aws_dynamodb_table", "dynamodb", identity="name",
        delete="aws dynamodb delete-table --table-name {id}",
    ),
    ResourceType(
        "aws_kinesis_stream", "kinesis", identity="name",
        delete="aws kinesis delete-stream --stream-arn {id}",
    ),
    ResourceType(
        "aws_secretsmanager_secret", "secretsmanager", identity="name",
        delete="aws secretsmanager delete-secret --secret-id {id}",
    ),
    ResourceType(
        "aws_ssm_parameter", "ssm", identity="name",
        delete="aws ssm delete-parameter --name {id}",
    ),
    ResourceType(
        "aws_kms_key", "kms", idempotency="none",
        delete="aws kms schedule-key-deletion --key-id {id}",
    ),
    ResourceType(
        "aws_kms_alias", "kms", identity="name",
        delete="aws kms delete-alias --alias-name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_log_group", "logs", identity="name",
        delete="aws logs delete-log-group --log-group-name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_metric_alarm", "cloudwatch", identity="name",
        delete="aws cloudwatch delete-alarms --alarm-names {id}",
    ),
    ResourceType(
        "aws_ecr_repository", "ecr", identity="name",
        delete="aws ecr delete-repository --repository-name {id} --force",
    ),
    # -- compute --
    ResourceType(
        "aws_lambda_function", "lambda", identity="name", name_attribute="function_name",
        delete="aws lambda delete-function --function-name {id}",
    ),
    ResourceType(
        "aws_lambda_alias", "lambda",
        delete="aws lambda delete-alias --function-name <function> --name {id}",
    ),
    ResourceType("aws_lambda_layer_version", "lambda"),
    ResourceType(
        "aws_lambda_event_source_mapping", "lambda",
        delete="aws lambda delete-event-source-mapping --uuid {id}",
    ),
    ResourceType(
        "aws_lb", "elbv2", identity="name",
        delete="aws elbv2 delete-load-balancer --load-balancer-arn {id}",
    ),
    ResourceType(
        "aws_lb_target_group", "elbv2", identity="name",
        delete="aws elbv2 delete-target-group --target-group-arn {id}",
    ),
    ResourceType(
        "aws_lb_listener", "elbv2",
        delete="aws elbv2 delete-listener --listener-arn {id}",
    ),
    ResourceType(
        "aws_ecs_cluster", "ecs", identity="name",
        delete="aws ecs delete-cluster --cluster {id}",
    ),
    ResourceType(
        "aws_ecs_service", "ecs", identity="name",
        delete="aws ecs delete-service --service {id} --force",
    ),
    ResourceType(
        "aws_ecs_task_definition", "ecs",
        delete="aws ecs deregister-task-definition --task-definition {id}",
    ),
    ResourceType(
        "aws_autoscaling_schedule", "autoscaling",
        delete="aws autoscaling delete-scheduled-action --scheduled-action-name {id} "
        "--auto-scaling-group-name <group>",
    ),
    ResourceType(
        "aws_efs_file_system", "efs", delete="aws efs delete-file-system --file-system-id {id}"
    ),
    ResourceType(
        "aws_efs_mount_target", "efs", delete="aws efs delete-mount-target --mount-target-id {id}"
    ),
    ResourceType(
        "aws_efs_access_point", "efs",
        delete="aws efs delete-access-point --access-point-id {id}",
    ),
    ResourceType(
        "aws_cloudwatch_event_bus", "events", identity="name",
        delete="aws events delete-event-bus --name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_event_rule", "events",
        delete="aws events delete-rule --name {name} --event-bus-name {event_bus_name}",
    ),
    ResourceType(
        "aws_apigatewayv2_api", "apigatewayv2", delete="aws apigatewayv2 delete-api --api-id {id}"
    ),
    ResourceType(
        "aws_apigatewayv2_route", "apigatewayv2",
        delete="aws apigatewayv2 delete-route --api-id {api_id} --route-id {id}",
    ),
    ResourceType(
        "aws_apigatewayv2_integration", "apigatewayv2",
        delete="aws apigatewayv2 delete-integration --api-id {api_id} --integration-id {id}",
    ),
    ResourceType(
        "aws_apigatewayv2_stage", "apigatewayv2",
        delete="aws apigatewayv2 delete-stage --api-id {api_id} --stage-name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_log_metric_filter", "logs",
        delete="aws logs delete-metric-filter --log-group-name {log_group_name} "
        "--filter-name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_event_archive", "events", identity="name",
        delete="aws events delete-archive --archive-name {id}",
    ),
    ResourceType(
        "aws_cloudwatch_event_target", "events",
        delete="aws events remove-targets --rule {rule} --event-bus-name {event_bus_name} "
        "--ids {target_id}",
    ),
    ResourceType(
        "aws_appautoscaling_target", "application-autoscaling",
        delete="aws application-autoscaling deregister-scalable-target --resource-id {id} "
        "--service-namespace <namespace> --scalable-dimension <dimension>",
    ),
    ResourceType(
        "aws_appautoscaling_policy", "application-autoscaling",
        delete="aws application-autoscaling delete-scaling-policy --policy-name {id} "
        "--service-namespace <namespace> --resource-id <resource id> "
        "--scalable-dimension <dimension>",
    ),
    ResourceType(
        "aws_autoscaling_group", "autoscaling", identity="name",
        delete="aws autoscaling delete-auto-scaling-group --auto-scaling-group-name {id} "
        "--force-delete",
    ),
    # -- databases --
    ResourceType(
        "aws_db_instance", "rds", delete="aws rds delete-db-instance --db-instance-identifier {id}"
    ),
    ResourceType(
        "aws_db_subnet_group", "rds", identity="name",
        delete="aws rds delete-db-subnet-group --db-subnet-group-name {id}",
    ),
    ResourceType(
        "aws_db_parameter_group", "rds", identity="name",
        delete="aws rds delete-db-parameter-group --db-parameter-group-name {id}",
    ),
    ResourceType(
        "aws_elasticache_subnet_group", "elasticache", identity="name",
        delete="aws elasticache delete-cache-subnet-group --cache-subnet-group-name {id}",
    ),
    ResourceType(
        "aws_redshift_subnet_group", "redshift", identity="name",
        delete="aws redshift delete-cluster-subnet-group --cluster-subnet-group-name {id}",
    ),
    # -- IAM (global) --
    ResourceType(
        "aws_iam_role", "iam", scope="global", identity="name",
        delete="aws iam delete-role --role-name {id}",
    ),
    ResourceType(
        "aws_iam_policy", "iam", scope="global", identity="name",
        delete="aws iam delete-policy --policy-arn {id}",
    ),
    ResourceType(
        "aws_iam_user", "iam", scope="global", identity="name",
        delete="aws iam delete-user --user-name {id}",
    ),
    ResourceType(
        "aws_iam_group", "iam", scope="global", identity="name",
        delete="aws iam delete-group --group-name {id}",
    ),
    ResourceType(
        "aws_iam_instance_profile", "iam", scope="global", identity="name",
        delete="aws iam delete-instance-profile --instance-profile-name {id}",
    ),
    ResourceType("aws_iam_openid_connect_provider", "iam", scope="global"),
    ResourceType("aws_iam_role_policy_attachment", "iam", scope="global", identity="content"),
    ResourceType("aws_iam_user_policy_attachment", "iam", scope="global", identity="content"),
    ResourceType("aws_iam_group_policy_attachment", "iam", scope="global", identity="content"),
    ResourceType("aws_iam_role_policy", "iam", scope="global", identity="content"),
    ResourceType("aws_iam_user_policy", "iam", scope="global"),
    ResourceType("aws_iam_group_policy", "iam", scope="global"),
    ResourceType(
        "aws_iam_access_key", "iam", scope="global",
        delete="aws iam delete-access-key --access-key-id {id}",
    ),
    # -- DNS (global) --
    ResourceType(
        "aws_route53_zone", "route53", scope="global",
        delete="aws route53 delete-hosted-zone --id {id}",
    ),
    # -- state only: they declare rules, routes or attachments inline, whose ids the
    # leftover check derives from their content --
    ResourceType("aws_default_security_group"),
    ResourceType("aws_default_route_table"),
    ResourceType("aws_iam_policy_attachment"),
    # aws 5.x's rule resources, one source each, named by content as the group's rules
    ResourceType("aws_vpc_security_group_ingress_rule"),
    ResourceType("aws_vpc_security_group_egress_rule"),
    # -- settings of another object that the name patterns of is_setting miss --
    ResourceType("aws_network_acl_rule", setting=True),
    ResourceType("aws_iam_user_login_profile", setting=True),
    ResourceType("aws_iam_account_alias", setting=True),
    ResourceType("aws_ebs_encryption_by_default", setting=True),
    ResourceType("aws_ec2_tag", setting=True),
    ResourceType("aws_sqs_queue_policy", setting=True),
    ResourceType("aws_vpc_ipv4_cidr_block_association", setting=True),
]  # fmt: skip

#: Terraform resource type -> what is known of it.
CATALOGUE: dict[str, ResourceType] = {t.type: t for t in _TYPES}


def listed() -> Iterator[ResourceType]:
    """The types a built-in lister lists (those with a ``service``), in catalogue order."""
    return (t for t in CATALOGUE.values() if t.service)


#: Types whose name is unique in an account (and region), so the name alone says
#: "this is the object in state". For the others (VPCs, subnets, instances ...)
#: a name is only a ``Name`` tag that a duplicate shares: only the id counts.
NAME_IS_IDENTITY = frozenset(t.type for t in CATALOGUE.values() if t.identity == "name")

#: State attributes that hold a resource's own name (``name`` first: a type that has
#: it and another, such as a Lambda alias's ``function_name``, is named by ``name``).
NAME_ATTRIBUTES = ("name", *sorted({t.name_attribute for t in CATALOGUE.values()} - {"name"}))

#: State attributes through which Terraform knows an object it did not create itself
#: (a VPC's default security group, the main route table an association replaced):
#: objects with these ids are accounted for, whatever the type that names them.
ADOPTED_ID_ATTRIBUTES = tuple(dict.fromkeys(a for t in CATALOGUE.values() for a in t.adopts))


# --- settings ------------------------------------------------------------------------------

#: Name patterns of resource types that only configure another object (a policy
#: document on a bucket, an association, a membership): a retried call rewrites
#: the same setting and cannot leave a second object behind, so no lister is needed.
_SETTING_PREFIXES = ("aws_default_", "aws_s3_bucket_")
_SETTING_SUFFIXES = (
    "_policy",
    "_association",
    "_attachment",
    "_membership",
    "_permission",
    "_propagation",
    "_configuration",
    "_settings",
    "_notification",
    "_config",
    "_capacity_providers",
)


def is_setting(type_: str) -> bool:
    """True for a type that configures another object and is never an object of its own."""
    known = CATALOGUE.get(type_)
    return (
        (known is not None and known.setting)
        or type_.startswith(_SETTING_PREFIXES)
        or type_.endswith(_SETTING_SUFFIXES)
    )


# --- ids derived from content (the lister and the leftover check use the same) ------------


def route_id(route_table_id: str, destination: str) -> str:
    """The id the AWS provider gives an ``aws_route``: ``r-<table><crc32(destination)>``."""
    return f"r-{route_table_id}{zlib.crc32(destination.encode())}"


_PROTOCOLS = {"6": "tcp", "17": "udp", "1": "icmp", "all": "-1", "58": "icmpv6"}


def rule_ids(
    group_id: str,
    direction: str,
    protocol: Any,
    from_port: Any,
    to_port: Any,
    sources: Iterable[str],
) -> set[str]:
    """Comparable ids of a security group rule, one per source (CIDR, prefix list, group).

    Both the lister and the leftover matcher use it, so a rule Terraform
    declares (standalone or inline in the group) and the rule the API lists
    meet on the same string whatever the protocol spelling (``-1``/``all``,
    ``6``/``tcp``).
    """
    proto = _PROTOCOLS.get(str(protocol).lower(), str(protocol).lower())
    ports = "all" if proto == "-1" else f"{from_port}-{to_port}"
    return {f"{group_id}/{direction}/{proto}/{ports}/{src}" for src in sources if src}
