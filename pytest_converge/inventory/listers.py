"""The built-in listers: how each Terraform resource type is listed through boto3.

Each lister lists one type in one :class:`~.engine.Scope` (an emulator and a
region) and reports each object under the id Terraform stores for it. What a
type *is* (its service, whether it is regional or global, what identifies
it) is in :mod:`.catalogue`; this module says only how to list it. Most are
one paginated call, written as data with :func:`one_call`; the rest are
functions of their own.

Objects the emulator (or AWS) makes on its own - the default VPC and its
subnets, each VPC's default security group, main route table and default
network ACL, AWS-managed IAM policies, KMS keys and aliases - are filtered out
by the listers themselves, so an inventory is meaningful without a baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .catalogue import CATALOGUE, route_id, rule_ids
from .engine import BUILTIN_LISTERS, CloudObject, Lister, Scope

__all__ = ["one_call", "simple"]

# --- helpers for listers -------------------------------------------------------------------


def _pages(client: Any, operation: str, result_key: str, **params: Any) -> list[Any]:
    """Every item under ``result_key`` of ``operation``, across pages when it paginates."""
    if client.can_paginate(operation):
        items: list[Any] = []
        for page in client.get_paginator(operation).paginate(**params):
            items.extend(page.get(result_key) or [])
        return items
    return list(getattr(client, operation)(**params).get(result_key) or [])


def _tags(tag_list: Iterable[dict[str, str]] | None) -> dict[str, str]:
    """EC2-style ``[{"Key": k, "Value": v}]`` to ``{k: v}``."""
    return {t["Key"]: t.get("Value", "") for t in tag_list or () if "Key" in t}


def _default_vpc_ids(ec2: Any) -> set[str]:
    vpcs = _pages(
        ec2, "describe_vpcs", "Vpcs", Filters=[{"Name": "is-default", "Values": ["true"]}]
    )
    return {v["VpcId"] for v in vpcs}


Field = str | Callable[[dict[str, Any]], Any] | None


def _get(item: dict[str, Any], spec: Field) -> Any:
    if spec is None:
        return None
    if callable(spec):
        return spec(item)
    return item.get(spec)


def simple(
    type_: str,
    service: str,
    operation: str,
    result_key: str,
    id_: Field,
    *,
    name: Field = None,
    arn: Field = None,
    keep: Callable[[dict[str, Any]], bool] | None = None,
    attributes: dict[str, Field] | None = None,
    params: dict[str, Any] | None = None,
    scope: str = "regional",
) -> Lister:
    """A lister that is one (paginated) list call: the common case, written as data.

    ``id_``, ``name``, ``arn`` and each of ``attributes`` name a key of the
    listed item, or are a function of it; ``keep(item)`` filters (emulator
    built-ins, deleted objects).
    """

    def list_(s: Scope) -> list[CloudObject]:
        items = _pages(s.client(service), operation, result_key, **(params or {}))
        found = []
        for item in items:
            if keep is not None and not keep(item):
                continue
            attrs = {k: _get(item, v) for k, v in (attributes or {}).items()}
            found.append(
                s.obj(
                    type_,
                    str(_get(item, id_)),
                    name=_get(item, name),
                    arn=_get(item, arn),
                    **attrs,
                )
            )
        return found

    list_.__name__ = f"list_{type_}"
    return Lister(type_, list_, scope, service)


def one_call(type_: str, operation: str, result_key: str, id_: Field, **options: Any) -> Lister:
    """:func:`simple` for a type in the catalogue, which says its service and scope."""
    known = CATALOGUE[type_]
    if not known.service:
        raise ValueError(f"{type_} has no service in the catalogue: a lister needs one")
    return simple(type_, known.service, operation, result_key, id_, scope=known.scope, **options)


def _lister(type_: str, list_: Callable[[Scope], Iterable[CloudObject]]) -> Lister:
    """A lister function of its own, for a type in the catalogue."""
    known = CATALOGUE[type_]
    return Lister(type_, list_, known.scope, known.service)


def _ec2_tags(item: dict[str, Any]) -> dict[str, str]:
    return _tags(item.get("Tags"))


def _not_deleted(state_key: str, *gone: str) -> Callable[[dict[str, Any]], bool]:
    return lambda item: str(item.get(state_key, "")).lower() not in gone


# --- EC2 / VPC ----------------------------------------------------------------------------


def list_internet_gateways(s: Scope) -> list[CloudObject]:
    """``aws_internet_gateway``: every gateway but one attached to a default VPC."""
    ec2 = s.client("ec2")
    default_vpcs = _default_vpc_ids(ec2)
    found = []
    for g in _pages(ec2, "describe_internet_gateways", "InternetGateways"):
        vpc_ids = [a.get("VpcId") for a in g.get("Attachments") or []]
        if any(v in default_vpcs for v in vpc_ids):
            continue
        found.append(
            s.obj(
                "aws_internet_gateway",
                g["InternetGatewayId"],
                vpc_id=vpc_ids[0] if vpc_ids else None,
                tags=_tags(g.get("Tags")),
            )
        )
    return found


def _route_tables(s: Scope) -> tuple[list[dict[str, Any]], set[str]]:
    ec2 = s.client("ec2")
    return _pages(ec2, "describe_route_tables", "RouteTables"), _default_vpc_ids(ec2)


def list_route_tables(s: Scope) -> list[CloudObject]:
    """``aws_route_table``: every table but each VPC's main route table.

    Known limit: a module's own table made main (``aws_main_route_table_association``)
    is filtered too; the VPC's original main table then shows up, and
    :func:`~pytest_converge.analysis.leftovers.find_leftovers` recognises it through
    the association's ``original_route_table_id``.
    """
    tables, _ = _route_tables(s)
    return [
        s.obj("aws_route_table", t["RouteTableId"], vpc_id=t.get("VpcId"), tags=_ec2_tags(t))
        for t in tables
        if not any(a.get("Main") for a in t.get("Associations") or [])
    ]


def list_route_table_associations(s: Scope) -> list[CloudObject]:
    """``aws_route_table_association``: id is the association id (``rtbassoc-...``)."""
    tables, default_vpcs = _route_tables(s)
    return [
        s.obj(
            "aws_route_table_association",
            a["RouteTableAssociationId"],
            route_table_id=t["RouteTableId"],
            subnet_id=a.get("SubnetId"),
            gateway_id=a.get("GatewayId"),
        )
        for t in tables
        if t.get("VpcId") not in default_vpcs
        for a in t.get("Associations") or []
        if not a.get("Main")
        and (a.get("AssociationState") or {}).get("State", "associated") == "associated"
    ]


def list_routes(s: Scope) -> list[CloudObject]:
    """``aws_route``: every route but ``local`` ones and the default VPC's, under Terraform's id.

    Routes written inline in an ``aws_route_table`` are objects too: the
    leftover matcher counts them as tracked through that table's ``route``.
    """
    tables, default_vpcs = _route_tables(s)
    found = []
    for t in tables:
        if t.get("VpcId") in default_vpcs:
            continue
        for r in t.get("Routes") or []:
            # The VPC's own local route, routes a gateway propagates and a gateway
            # endpoint's prefix-list routes (the endpoint's, not an aws_route) are not
            # declared as routes.
            gateway = str(r.get("GatewayId") or "")
            if gateway == "local" or gateway.startswith("vpce-"):
                continue
            if r.get("Origin") in ("CreateRouteTable", "EnableVgwRoutePropagation"):
                continue
            destination = (
                r.get("DestinationCidrBlock")
                or r.get("DestinationIpv6CidrBlock")
                or r.get("DestinationPrefixListId")
            )
            if not destination:
                continue
            found.append(
                s.obj(
                    "aws_route",
                    route_id(t["RouteTableId"], destination),
                    name=f"{t['RouteTableId']} -> {destination}",
                    route_table_id=t["RouteTableId"],
                    destination=destination,
                )
            )
    return found


def list_eips(s: Scope) -> list[CloudObject]:
    """``aws_eip``: id is the allocation id (VPC) or the public IP (EC2-Classic), as Terraform."""
    ec2 = s.client("ec2")
    found = []
    for a in ec2.describe_addresses().get("Addresses") or []:  # not paginated by the API
        id_ = a.get("AllocationId") if a.get("Domain", "vpc") == "vpc" else a.get("PublicIp")
        if not id_:
            id_ = a.get("AllocationId") or a.get("PublicIp")
        found.append(
            s.obj(
                "aws_eip",
                id_,
                public_ip=a.get("PublicIp"),
                instance=a.get("InstanceId"),
                tags=_tags(a.get("Tags")),
            )
        )
    return found


def list_instances(s: Scope) -> list[CloudObject]:
    """``aws_instance``: every instance not terminated, but those an Auto Scaling group
    launched (tagged ``aws:autoscaling:groupName`` by AWS): the group's, which launches
    and terminates them itself, never a resource's (a leftover group is its own finding)."""
    ec2 = s.client("ec2")
    found = []
    for reservation in _pages(ec2, "describe_instances", "Reservations"):
        for i in reservation.get("Instances") or []:
            if (i.get("State") or {}).get("Name") in ("terminated", "shutting-down"):
                continue
            if AUTOSCALING_GROUP_TAG in _tags(i.get("Tags")):
                continue
            found.append(
                s.obj(
                    "aws_instance",
                    i["InstanceId"],
                    ami=i.get("ImageId"),
                    instance_type=i.get("InstanceType"),
                    subnet_id=i.get("SubnetId"),
                    tags=_tags(i.get("Tags")),
                )
            )
    return found


def list_security_group_rules(s: Scope) -> list[CloudObject]:
    """``aws_security_group_rule``: one object per (rule, source) of every non-default group.

    Terraform's own rule ids are hashes; these ids come from :func:`rule_ids`,
    which the leftover matcher applies to state too.
    """
    ec2 = s.client("ec2")
    found = []
    for g in _pages(ec2, "describe_security_groups", "SecurityGroups"):
        if g.get("GroupName") == "default":
            continue
        for direction, key in (("ingress", "IpPermissions"), ("egress", "IpPermissionsEgress")):
            for p in g.get(key) or []:
                sources = [r.get("CidrIp") for r in p.get("IpRanges") or []]
                sources += [r.get("CidrIpv6") for r in p.get("Ipv6Ranges") or []]
                sources += [r.get("PrefixListId") for r in p.get("PrefixListIds") or []]
                sources += [r.get("GroupId") for r in p.get("UserIdGroupPairs") or []]
                for id_ in rule_ids(
                    g["GroupId"],
                    direction,
                    p.get("IpProtocol"),
                    p.get("FromPort", 0),
                    p.get("ToPort", 0),
                    sources,
                ):
                    found.append(
                        s.obj(
                            "aws_security_group_rule",
                            id_,
                            name=id_,
                            security_group_id=g["GroupId"],
                            type=direction,
                        )
                    )
    return found


def list_lb_listeners(s: Scope) -> list[CloudObject]:
    """``aws_lb_listener``: every listener of every load balancer; id is its ARN."""
    elb = s.client("elbv2")
    found = []
    for lb in _pages(elb, "describe_load_balancers", "LoadBalancers"):
        arn = lb["LoadBalancerArn"]
        for listener in _pages(elb, "describe_listeners", "Listeners", LoadBalancerArn=arn):
            found.append(
                s.obj(
                    "aws_lb_listener",
                    listener["ListenerArn"],
                    arn=listener["ListenerArn"],
                    load_balancer_arn=arn,
                    port=listener.get("Port"),
                )
            )
    return found


# --- S3 (one global list; each bucket in its own region) ------------------------------------


def list_s3_buckets(s: Scope) -> list[CloudObject]:
    """``aws_s3_bucket``: id is the bucket name, region its location."""
    s3 = s.client("s3")
    found = []
    for b in s3.list_buckets().get("Buckets") or []:
        name = b["Name"]
        region = b.get("BucketRegion")
        if not region:
            location = s3.get_bucket_location(Bucket=name).get("LocationConstraint")
            region = {None: "us-east-1", "": "us-east-1", "EU": "eu-west-1"}.get(location, location)
        found.append(
            s.obj(
                "aws_s3_bucket",
                name,
                name=name,
                arn=f"arn:aws:s3:::{name}",
                region=region,
                bucket=name,
            )
        )
    return found


# --- messaging, data, keys ------------------------------------------------------------------


def list_sqs_queues(s: Scope) -> list[CloudObject]:
    """``aws_sqs_queue``: id is the queue URL (its host is the endpoint the caller used)."""
    sqs = s.client("sqs")
    found = []
    for url in _pages(sqs, "list_queues", "QueueUrls"):
        parts = url.rstrip("/").split("/")
        name, account = parts[-1], parts[-2] if len(parts) > 1 else ""
        arn = f"arn:aws:sqs:{s.region}:{account}:{name}" if account.isdigit() else None
        found.append(s.obj("aws_sqs_queue", url, name=name, arn=arn, url=url))
    return found


def list_kinesis_streams(s: Scope) -> list[CloudObject]:
    """``aws_kinesis_stream``: id is the stream ARN (provider 3.x sets it so)."""
    kinesis = s.client("kinesis")
    found = []
    for name in _pages(kinesis, "list_streams", "StreamNames"):
        summary = kinesis.describe_stream_summary(StreamName=name)["StreamDescriptionSummary"]
        if summary.get("StreamStatus") == "DELETING":
            continue
        arn = summary["StreamARN"]
        found.append(s.obj("aws_kinesis_stream", arn, name=name, arn=arn))
    return found


def list_kms_keys(s: Scope) -> list[CloudObject]:
    """``aws_kms_key``: customer-managed keys not pending deletion; id is the key id."""
    kms = s.client("kms")
    found = []
    for k in _pages(kms, "list_keys", "Keys"):
        meta = kms.describe_key(KeyId=k["KeyId"])["KeyMetadata"]
        # AWS-managed keys (aws/s3, aws/ebs ...) appear lazily and belong to no module.
        if meta.get("KeyManager") == "AWS":
            continue
        if meta.get("KeyState") in ("PendingDeletion", "PendingReplicaDeletion"):
            continue
        found.append(
            s.obj(
                "aws_kms_key",
                meta["KeyId"],
                arn=meta.get("Arn"),
                description=meta.get("Description"),
            )
        )
    return found


def _log_group_arn(g: dict[str, Any]) -> str | None:
    # Terraform stores the ARN without the ":*" DescribeLogGroups appends.
    arn = g.get("arn")
    return arn[:-2] if arn and arn.endswith(":*") else arn


def list_ecs_clusters(s: Scope) -> list[CloudObject]:
    """``aws_ecs_cluster``: active clusters; id is the cluster ARN."""
    ecs = s.client("ecs")
    arns = _pages(ecs, "list_clusters", "clusterArns")
    found = []
    for start in range(0, len(arns), 100):  # DescribeClusters takes at most 100
        for c in ecs.describe_clusters(clusters=arns[start : start + 100]).get("clusters") or []:
            if c.get("status", "ACTIVE") != "ACTIVE":
                continue
            arn = c["clusterArn"]
            found.append(s.obj("aws_ecs_cluster", arn, name=c.get("clusterName"), arn=arn))
    return found


def list_ecs_services(s: Scope) -> list[CloudObject]:
    """``aws_ecs_service``: id is the service ARN; services being drained excluded."""
    ecs = s.client("ecs")
    found = []
    for cluster in _pages(ecs, "list_clusters", "clusterArns"):
        arns = _pages(ecs, "list_services", "serviceArns", cluster=cluster)
        for start in range(0, len(arns), 10):  # DescribeServices takes at most 10
            chunk = arns[start : start + 10]
            for svc in ecs.describe_services(cluster=cluster, services=chunk).get("services") or []:
                if svc.get("status", "ACTIVE") != "ACTIVE":
                    continue
                arn = svc["serviceArn"]
                found.append(
                    s.obj(
                        "aws_ecs_service",
                        arn,
                        name=svc.get("serviceName"),
                        arn=arn,
                        cluster=cluster,
                    )
                )
    return found


def list_ecs_task_definitions(s: Scope) -> list[CloudObject]:
    """``aws_ecs_task_definition``: every ACTIVE revision, id its ARN.

    Terraform's id is the family, but each registration makes a new revision:
    a retried RegisterTaskDefinition is an extra revision, found by ARN.
    """
    ecs = s.client("ecs")
    return [
        s.obj(
            "aws_ecs_task_definition",
            arn,
            name=arn.rsplit("/", 1)[-1],
            arn=arn,
            family=arn.rsplit("/", 1)[-1].rsplit(":", 1)[0],
        )
        for arn in _pages(ecs, "list_task_definitions", "taskDefinitionArns", status="ACTIVE")
    ]


def _target_tracking_alarm(alarm: dict[str, Any]) -> bool:
    """An alarm a target tracking scaling policy made and owns (``TargetTracking-table/t-
    AlarmHigh-<uuid>``, its actions the policy; "DO NOT EDIT OR DELETE"): the service's,
    as on AWS, never a module's object."""
    return str(alarm.get("AlarmName", "")).startswith("TargetTracking-") and any(
        ":scalingPolicy:" in str(action) for action in alarm.get("AlarmActions") or ()
    )


#: The tag AWS gives each instance an Auto Scaling group launches: the group's name.
AUTOSCALING_GROUP_TAG = "aws:autoscaling:groupName"


def _per_namespace(s: Scope, operation: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    """``(namespace, item)`` for each item under ``key`` of Application Auto Scaling's
    ``operation`` in every service namespace of the API's model: the API lists one
    namespace a call; one the emulator refuses (a ValidationException) holds nothing."""
    from botocore.exceptions import ClientError

    scaling = s.client("application-autoscaling")
    found: list[tuple[str, dict[str, Any]]] = []
    for namespace in scaling.meta.service_model.shape_for("ServiceNamespace").enum:
        try:
            items = _pages(scaling, operation, key, ServiceNamespace=namespace)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ValidationException":
                raise
            continue
        found.extend((namespace, item) for item in items)
    return found


def list_appautoscaling_targets(s: Scope) -> list[CloudObject]:
    """``aws_appautoscaling_target``: every scalable target; id is its resource id
    (``table/orders``), as terraform's (a table's read and write targets share it).
    Registering a target again updates it: a retry never duplicates one."""
    return [
        s.obj(
            "aws_appautoscaling_target",
            target["ResourceId"],
            arn=target.get("ScalableTargetARN"),
            service_namespace=namespace,
            scalable_dimension=target.get("ScalableDimension"),
        )
        for namespace, target in _per_namespace(s, "describe_scalable_targets", "ScalableTargets")
    ]


def list_appautoscaling_policies(s: Scope) -> list[CloudObject]:
    """``aws_appautoscaling_policy``: every scaling policy; id is its name, as terraform's.
    Putting a policy again updates it: a retry never duplicates one."""
    return [
        s.obj(
            "aws_appautoscaling_policy",
            policy["PolicyName"],
            name=policy["PolicyName"],
            arn=policy.get("PolicyARN"),
            service_namespace=namespace,
            resource_id=policy.get("ResourceId"),
            scalable_dimension=policy.get("ScalableDimension"),
        )
        for namespace, policy in _per_namespace(s, "describe_scaling_policies", "ScalingPolicies")
    ]


def list_efs_mount_targets(s: Scope) -> list[CloudObject]:
    """``aws_efs_mount_target``: every mount target of every file system; id ``fsmt-...``."""
    efs = s.client("efs")
    found = []
    for fs in _pages(efs, "describe_file_systems", "FileSystems"):
        for target in (
            efs.describe_mount_targets(FileSystemId=fs["FileSystemId"]).get("MountTargets") or []
        ):
            found.append(
                s.obj(
                    "aws_efs_mount_target",
                    target["MountTargetId"],
                    file_system_id=fs["FileSystemId"],
                    subnet_id=target.get("SubnetId"),
                )
            )
    return found


def list_efs_access_points(s: Scope) -> list[CloudObject]:
    """``aws_efs_access_point``: every access point of every file system; id ``fsap-...``."""
    efs = s.client("efs")
    found = []
    for fs in _pages(efs, "describe_file_systems", "FileSystems"):
        points = efs.describe_access_points(FileSystemId=fs["FileSystemId"])
        for point in points.get("AccessPoints") or []:
            found.append(
                s.obj(
                    "aws_efs_access_point",
                    point["AccessPointId"],
                    name=point.get("Name"),
                    arn=point.get("AccessPointArn"),
                    file_system_id=fs["FileSystemId"],
                    tags=_tags(point.get("Tags")),
                )
            )
    return found


def _event_rules(s: Scope) -> list[tuple[str, dict[str, Any]]]:
    """``(bus, rule)`` for every rule of every event bus but those a service manages
    (``ManagedBy``: an archive's rule, on AWS too)."""
    events = s.client("events")
    found = []
    for bus in _pages(events, "list_event_buses", "EventBuses"):
        for rule in _pages(events, "list_rules", "Rules", EventBusName=bus["Name"]):
            if not rule.get("ManagedBy"):
                found.append((bus["Name"], rule))
    return found


def _rule_id(bus: str, rule: str) -> str:
    """Terraform's id of a rule: its name on the default bus, ``bus/rule`` elsewhere."""
    return rule if bus == "default" else f"{bus}/{rule}"


def list_event_rules(s: Scope) -> list[CloudObject]:
    """``aws_cloudwatch_event_rule``: id ``bus/rule`` (the rule's name on the default bus)."""
    return [
        s.obj(
            "aws_cloudwatch_event_rule",
            _rule_id(bus, rule["Name"]),
            name=rule["Name"],
            arn=rule.get("Arn"),
            event_bus_name=bus,
        )
        for bus, rule in _event_rules(s)
    ]


def list_event_targets(s: Scope) -> list[CloudObject]:
    """``aws_cloudwatch_event_target``: id ``bus-rule-target`` (``rule-target`` on the
    default bus), as terraform's."""
    events = s.client("events")
    found = []
    for bus, rule in _event_rules(s):
        targets = _pages(
            events, "list_targets_by_rule", "Targets", Rule=rule["Name"], EventBusName=bus
        )
        for target in targets:
            prefix = rule["Name"] if bus == "default" else f"{bus}-{rule['Name']}"
            found.append(
                s.obj(
                    "aws_cloudwatch_event_target",
                    f"{prefix}-{target['Id']}",
                    arn=target.get("Arn"),
                    rule=rule["Name"],
                    event_bus_name=bus,
                    target_id=target["Id"],
                )
            )
    return found


def _api_parts(s: Scope, operation: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    """``(api id, item)`` for each item of ``operation`` (``get_routes`` ...) of every API."""
    apis = s.client("apigatewayv2")
    return [
        (api["ApiId"], item)
        for api in _pages(apis, "get_apis", "Items")
        for item in _pages(apis, operation, "Items", ApiId=api["ApiId"])
        if key in item
    ]


def list_http_api_routes(s: Scope) -> list[CloudObject]:
    """``aws_apigatewayv2_route``: every route of every API; id is the route's id."""
    return [
        s.obj(
            "aws_apigatewayv2_route", route["RouteId"], api_id=api, route_key=route.get("RouteKey")
        )
        for api, route in _api_parts(s, "get_routes", "RouteId")
    ]


def list_http_api_integrations(s: Scope) -> list[CloudObject]:
    """``aws_apigatewayv2_integration``: every integration of every API; id is its id."""
    return [
        s.obj(
            "aws_apigatewayv2_integration",
            integration["IntegrationId"],
            api_id=api,
            integration_uri=integration.get("IntegrationUri"),
        )
        for api, integration in _api_parts(s, "get_integrations", "IntegrationId")
    ]


def list_http_api_stages(s: Scope) -> list[CloudObject]:
    """``aws_apigatewayv2_stage``: every stage of every API; id is the stage's name, as
    terraform's (``$default`` in many APIs: an API's own leftover is the API's finding)."""
    return [
        s.obj("aws_apigatewayv2_stage", stage["StageName"], name=stage["StageName"], api_id=api)
        for api, stage in _api_parts(s, "get_stages", "StageName")
    ]


def list_sns_subscriptions(s: Scope) -> list[CloudObject]:
    """``aws_sns_topic_subscription``: id is the subscription ARN (pending ones excluded)."""
    sns = s.client("sns")
    return [
        s.obj(
            "aws_sns_topic_subscription",
            sub["SubscriptionArn"],
            name=f"{sub.get('Protocol')}:{sub.get('Endpoint')}",
            arn=sub["SubscriptionArn"],
            topic_arn=sub.get("TopicArn"),
            endpoint=sub.get("Endpoint"),
            protocol=sub.get("Protocol"),
        )
        for sub in _pages(sns, "list_subscriptions", "Subscriptions")
        if str(sub.get("SubscriptionArn", "")).startswith("arn:")
    ]


def list_lambda_aliases(s: Scope) -> list[CloudObject]:
    """``aws_lambda_alias``: id is the alias ARN."""
    lam = s.client("lambda")
    return [
        s.obj(
            "aws_lambda_alias",
            a["AliasArn"],
            name=f"{f['FunctionName']}:{a['Name']}",
            arn=a["AliasArn"],
            function_name=f["FunctionName"],
        )
        for f in _pages(lam, "list_functions", "Functions")
        for a in _pages(lam, "list_aliases", "Aliases", FunctionName=f["FunctionName"])
    ]


def list_lambda_layer_versions(s: Scope) -> list[CloudObject]:
    """``aws_lambda_layer_version``: every version, id its ARN (a retried publish is a new one)."""
    lam = s.client("lambda")
    return [
        s.obj(
            "aws_lambda_layer_version",
            v["LayerVersionArn"],
            name=v["LayerVersionArn"].split(":layer:", 1)[-1],
            arn=v["LayerVersionArn"],
        )
        for layer in _pages(lam, "list_layers", "Layers")
        for v in _pages(lam, "list_layer_versions", "LayerVersions", LayerName=layer["LayerName"])
    ]


# --- IAM (global) ---------------------------------------------------------------------------

_SERVICE_ROLE_PATHS = ("/aws-service-role/", "/aws-reserved/")


def _iam_children(
    child_type: str,
    parent_op: str,
    parent_key: str,
    parent_name: str,
    child_op: str,
    child_key: str,
    param: str,
    *,
    attached: bool,
) -> Lister:
    """Inline policies (``role:policy``) or managed-policy attachments (``role/arn``) of
    every role, user or group: Terraform's id for the former, a comparable one for the latter.
    """

    def list_(s: Scope) -> list[CloudObject]:
        iam = s.client("iam")
        found = []
        for parent in _pages(iam, parent_op, parent_key):
            if parent.get("Path", "/").startswith(_SERVICE_ROLE_PATHS):
                continue
            owner = parent[parent_name]
            for child in _pages(iam, child_op, child_key, **{param: owner}):
                if attached:
                    arn = child["PolicyArn"]
                    id_ = f"{owner}/{arn}"
                    found.append(s.obj(child_type, id_, name=id_, policy_arn=arn, owner=owner))
                else:
                    id_ = f"{owner}:{child}"
                    found.append(s.obj(child_type, id_, name=id_, owner=owner))
        return found

    list_.__name__ = f"list_{child_type}"
    return _lister(child_type, list_)


def list_iam_access_keys(s: Scope) -> list[CloudObject]:
    """``aws_iam_access_key``: id is the access key id."""
    iam = s.client("iam")
    return [
        s.obj("aws_iam_access_key", k["AccessKeyId"], name=k["AccessKeyId"], user=u["UserName"])
        for u in _pages(iam, "list_users", "Users")
        for k in _pages(iam, "list_access_keys", "AccessKeyMetadata", UserName=u["UserName"])
    ]


def list_transit_gateway_routes(s: Scope) -> list[CloudObject]:
    """``aws_ec2_transit_gateway_route``: the static routes of every transit gateway route
    table (a default table's too), as terraform names one: ``<table>_<destination>``."""
    ec2 = s.client("ec2")
    static = [{"Name": "type", "Values": ["static"]}]
    found = []
    for table in _pages(ec2, "describe_transit_gateway_route_tables", "TransitGatewayRouteTables"):
        if str(table.get("State", "")).lower() in ("deleted", "deleting"):
            continue
        rtb = table["TransitGatewayRouteTableId"]
        routes = ec2.search_transit_gateway_routes(
            TransitGatewayRouteTableId=rtb, Filters=static
        ).get("Routes")
        for route in routes or []:
            destination = route.get("DestinationCidrBlock") or route.get("PrefixListId")
            if destination and str(route.get("State", "")).lower() != "deleted":
                found.append(
                    s.obj(
                        "aws_ec2_transit_gateway_route",
                        f"{rtb}_{destination}",
                        route_table_id=rtb,
                        destination=destination,
                    )
                )
    return found


def list_ram_resource_shares(s: Scope) -> list[CloudObject]:
    """``aws_ram_resource_share``: the account's own shares (not those shared with it),
    by ARN (terraform's id)."""
    ram = s.client("ram")
    found = []
    for share in _pages(ram, "get_resource_shares", "resourceShares", resourceOwner="SELF"):
        if str(share.get("status", "")).upper() in ("DELETING", "DELETED", "FAILED"):
            continue
        arn = share["resourceShareArn"]
        found.append(s.obj("aws_ram_resource_share", arn, name=share.get("name"), arn=arn))
    return found


#: The built-in listers, one per type the catalogue gives a service (the test of the
#: catalogue holds the two together), into the engine's :data:`BUILTIN_LISTERS`.
BUILTIN_LISTERS.update(
    (lister.type, lister)
    for lister in [
        # -- VPC family --
        one_call(
            "aws_vpc", "describe_vpcs", "Vpcs", "VpcId",
            keep=lambda v: not v.get("IsDefault"),
            attributes={"cidr_block": "CidrBlock", "tags": _ec2_tags},
        ),
        one_call(
            "aws_subnet", "describe_subnets", "Subnets", "SubnetId",
            arn="SubnetArn",
            keep=lambda v: not v.get("DefaultForAz"),
            attributes={
                "cidr_block": "CidrBlock",
                "vpc_id": "VpcId",
                "availability_zone": "AvailabilityZone",
                "tags": _ec2_tags,
            },
        ),
        # AWS refuses to create a group named "default": the name alone is exact.
        one_call(
            "aws_security_group", "describe_security_groups", "SecurityGroups", "GroupId",
            name="GroupName",
            keep=lambda g: g.get("GroupName") != "default",
            attributes={"vpc_id": "VpcId", "description": "Description", "tags": _ec2_tags},
        ),
        _lister("aws_security_group_rule", list_security_group_rules),
        _lister("aws_internet_gateway", list_internet_gateways),
        one_call(
            "aws_egress_only_internet_gateway", "describe_egress_only_internet_gateways",
            "EgressOnlyInternetGateways", "EgressOnlyInternetGatewayId",
            attributes={"tags": _ec2_tags},
        ),
        _lister("aws_route_table", list_route_tables),
        _lister("aws_route_table_association", list_route_table_associations),
        _lister("aws_route", list_routes),
        one_call(
            "aws_network_acl", "describe_network_acls", "NetworkAcls", "NetworkAclId",
            keep=lambda n: not n.get("IsDefault"),
            attributes={"vpc_id": "VpcId", "tags": _ec2_tags},
        ),
        one_call(
            "aws_nat_gateway", "describe_nat_gateways", "NatGateways", "NatGatewayId",
            keep=_not_deleted("State", "deleted", "deleting", "failed"),
            attributes={"subnet_id": "SubnetId", "vpc_id": "VpcId", "tags": _ec2_tags},
        ),
        _lister("aws_eip", list_eips),
        one_call(
            "aws_vpc_endpoint", "describe_vpc_endpoints", "VpcEndpoints", "VpcEndpointId",
            keep=_not_deleted("State", "deleted", "deleting", "rejected", "failed"),
            attributes={"vpc_id": "VpcId", "service_name": "ServiceName", "tags": _ec2_tags},
        ),
        one_call(
            "aws_flow_log", "describe_flow_logs", "FlowLogs", "FlowLogId",
            attributes={
                "log_destination": "LogDestination",
                "log_group_name": "LogGroupName",
                "traffic_type": "TrafficType",
                "tags": _ec2_tags,
            },
        ),
        one_call(
            "aws_vpn_gateway", "describe_vpn_gateways", "VpnGateways", "VpnGatewayId",
            keep=_not_deleted("State", "deleted", "deleting"),
            attributes={"tags": _ec2_tags},
        ),
        one_call(
            "aws_customer_gateway", "describe_customer_gateways", "CustomerGateways",
            "CustomerGatewayId",
            keep=_not_deleted("State", "deleted", "deleting"),
            attributes={"ip_address": "IpAddress", "tags": _ec2_tags},
        ),
        # AWS's own default option set (moto's VPCs name it "default") is nobody's.
        one_call(
            "aws_vpc_dhcp_options", "describe_dhcp_options", "DhcpOptions", "DhcpOptionsId",
            keep=lambda d: d.get("DhcpOptionsId", "default") != "default",
            attributes={"tags": _ec2_tags},
        ),
        # A gateway's default route table is AWS's, made with it: no resource declares it.
        one_call(
            "aws_ec2_transit_gateway", "describe_transit_gateways", "TransitGateways",
            "TransitGatewayId",
            arn="TransitGatewayArn",
            keep=_not_deleted("State", "deleted", "deleting"),
            attributes={"description": "Description", "tags": _ec2_tags},
        ),
        one_call(
            "aws_ec2_transit_gateway_route_table", "describe_transit_gateway_route_tables",
            "TransitGatewayRouteTables", "TransitGatewayRouteTableId",
            keep=lambda t: _not_deleted("State", "deleted", "deleting")(t)
            and not t.get("DefaultAssociationRouteTable")
            and not t.get("DefaultPropagationRouteTable"),
            attributes={"transit_gateway_id": "TransitGatewayId", "tags": _ec2_tags},
        ),
        one_call(
            "aws_ec2_transit_gateway_vpc_attachment", "describe_transit_gateway_vpc_attachments",
            "TransitGatewayVpcAttachments", "TransitGatewayAttachmentId",
            keep=_not_deleted("State", "deleted", "deleting", "failed", "rejected"),
            attributes={
                "transit_gateway_id": "TransitGatewayId",
                "vpc_id": "VpcId",
                "tags": _ec2_tags,
            },
        ),
        _lister("aws_ec2_transit_gateway_route", list_transit_gateway_routes),
        _lister("aws_instance", list_instances),
        one_call(
            "aws_key_pair", "describe_key_pairs", "KeyPairs", "KeyName",
            name="KeyName",
            attributes={"key_name": "KeyName", "key_pair_id": "KeyPairId", "tags": _ec2_tags},
        ),
        one_call(
            "aws_launch_template", "describe_launch_templates", "LaunchTemplates",
            "LaunchTemplateId",
            name="LaunchTemplateName",
        ),
        # -- storage, messaging, data --
        _lister("aws_s3_bucket", list_s3_buckets),
        _lister("aws_sqs_queue", list_sqs_queues),
        _lister("aws_ram_resource_share", list_ram_resource_shares),
        one_call(
            "aws_sns_topic", "list_topics", "Topics", "TopicArn",
            name=lambda t: t["TopicArn"].rsplit(":", 1)[-1],
            arn="TopicArn",
        ),
        _lister("aws_sns_topic_subscription", list_sns_subscriptions),
        one_call(
            "aws_dynamodb_table", "list_tables", "TableNames", lambda n: n,
            name=lambda n: n,
        ),
        _lister("aws_kinesis_stream", list_kinesis_streams),
        one_call(
            "aws_secretsmanager_secret", "list_secrets", "SecretList", "ARN",
            name="Name",
            arn="ARN",
            keep=lambda x: not x.get("DeletedDate"),
        ),
        # AWS's public parameters (/aws/...) belong to no module.
        one_call(
            "aws_ssm_parameter", "describe_parameters", "Parameters", "Name",
            name="Name",
            arn="ARN",
            keep=lambda p: not p["Name"].startswith("/aws/"),
            attributes={"type": "Type"},
        ),
        _lister("aws_kms_key", list_kms_keys),
        # AWS-managed aliases (alias/aws/s3 ...) appear lazily and belong to no module.
        one_call(
            "aws_kms_alias", "list_aliases", "Aliases", "AliasName",
            name="AliasName",
            arn="AliasArn",
            keep=lambda a: not a["AliasName"].startswith("alias/aws/"),
            attributes={"target_key_id": "TargetKeyId"},
        ),
        one_call(
            "aws_cloudwatch_log_group", "describe_log_groups", "logGroups",
            "logGroupName",
            name="logGroupName",
            arn=_log_group_arn,
        ),
        one_call(
            "aws_cloudwatch_metric_alarm", "describe_alarms", "MetricAlarms",
            "AlarmName",
            name="AlarmName",
            arn="AlarmArn",
            keep=lambda a: not _target_tracking_alarm(a),
        ),
        one_call(
            "aws_ecr_repository", "describe_repositories", "repositories",
            "repositoryName",
            name="repositoryName",
            arn="repositoryArn",
        ),
        # -- compute --
        one_call(
            "aws_lambda_function", "list_functions", "Functions", "FunctionName",
            name="FunctionName",
            arn="FunctionArn",
            attributes={"function_name": "FunctionName"},
        ),
        _lister("aws_lambda_alias", list_lambda_aliases),
        _lister("aws_lambda_layer_version", list_lambda_layer_versions),
        one_call(
            "aws_lambda_event_source_mapping", "list_event_source_mappings",
            "EventSourceMappings", "UUID",
            keep=_not_deleted("State", "deleting"),
            attributes={
                "event_source_arn": "EventSourceArn",
                "function_name": "FunctionArn",
            },
        ),
        one_call(
            "aws_lb", "describe_load_balancers", "LoadBalancers", "LoadBalancerArn",
            name="LoadBalancerName",
            arn="LoadBalancerArn",
            attributes={"vpc_id": "VpcId", "load_balancer_type": "Type"},
        ),
        one_call(
            "aws_lb_target_group", "describe_target_groups", "TargetGroups",
            "TargetGroupArn",
            name="TargetGroupName",
            arn="TargetGroupArn",
            attributes={"vpc_id": "VpcId"},
        ),
        _lister("aws_lb_listener", list_lb_listeners),
        _lister("aws_ecs_cluster", list_ecs_clusters),
        _lister("aws_ecs_service", list_ecs_services),
        _lister("aws_ecs_task_definition", list_ecs_task_definitions),
        _lister("aws_appautoscaling_target", list_appautoscaling_targets),
        one_call(
            "aws_autoscaling_schedule", "describe_scheduled_actions",
            "ScheduledUpdateGroupActions", "ScheduledActionName",
            name="ScheduledActionName",
            arn="ScheduledActionARN",
            attributes={"autoscaling_group_name": "AutoScalingGroupName"},
        ),
        one_call(
            "aws_efs_file_system", "describe_file_systems", "FileSystems", "FileSystemId",
            name="Name",
            arn="FileSystemArn",
            attributes={"creation_token": "CreationToken", "tags": _ec2_tags},
        ),
        _lister("aws_efs_mount_target", list_efs_mount_targets),
        _lister("aws_efs_access_point", list_efs_access_points),
        # The account's own bus, "default", is no module's.
        one_call(
            "aws_cloudwatch_event_bus", "list_event_buses", "EventBuses", "Name",
            name="Name",
            arn="Arn",
            keep=lambda bus: bus["Name"] != "default",
        ),
        _lister("aws_cloudwatch_event_rule", list_event_rules),
        _lister("aws_cloudwatch_event_target", list_event_targets),
        one_call(
            "aws_cloudwatch_event_archive", "list_archives", "Archives", "ArchiveName",
            name="ArchiveName",
            arn="ArchiveArn",
            attributes={"event_source_arn": "EventSourceArn"},
        ),
        one_call(
            "aws_apigatewayv2_api", "get_apis", "Items", "ApiId",
            name="Name",
            attributes={"tags": "Tags"},
        ),
        _lister("aws_apigatewayv2_route", list_http_api_routes),
        _lister("aws_apigatewayv2_integration", list_http_api_integrations),
        _lister("aws_apigatewayv2_stage", list_http_api_stages),
        one_call(
            "aws_cloudwatch_log_metric_filter", "describe_metric_filters", "metricFilters",
            "filterName",
            name="filterName",
            attributes={"log_group_name": "logGroupName"},
        ),
        _lister("aws_appautoscaling_policy", list_appautoscaling_policies),
        one_call(
            "aws_autoscaling_group", "describe_auto_scaling_groups",
            "AutoScalingGroups", "AutoScalingGroupName",
            name="AutoScalingGroupName",
            arn="AutoScalingGroupARN",
        ),
        # -- databases --
        one_call(
            "aws_db_instance", "describe_db_instances", "DBInstances",
            "DBInstanceIdentifier",
            name="DBInstanceIdentifier",
            arn="DBInstanceArn",
            keep=_not_deleted("DBInstanceStatus", "deleting"),
        ),
        one_call(
            "aws_db_subnet_group", "describe_db_subnet_groups", "DBSubnetGroups",
            "DBSubnetGroupName",
            name="DBSubnetGroupName",
            arn="DBSubnetGroupArn",
            keep=lambda g: g["DBSubnetGroupName"] != "default",
            attributes={"vpc_id": "VpcId"},
        ),
        # The engines' own "default.<family>" groups belong to no module.
        one_call(
            "aws_db_parameter_group", "describe_db_parameter_groups", "DBParameterGroups",
            "DBParameterGroupName",
            name="DBParameterGroupName",
            arn="DBParameterGroupArn",
            keep=lambda g: not g["DBParameterGroupName"].startswith("default."),
        ),
        one_call(
            "aws_elasticache_subnet_group", "describe_cache_subnet_groups",
            "CacheSubnetGroups", "CacheSubnetGroupName",
            name="CacheSubnetGroupName",
            arn="ARN",
            keep=lambda g: g["CacheSubnetGroupName"] != "default",
        ),
        one_call(
            "aws_redshift_subnet_group", "describe_cluster_subnet_groups",
            "ClusterSubnetGroups", "ClusterSubnetGroupName",
            name="ClusterSubnetGroupName",
            keep=lambda g: g["ClusterSubnetGroupName"] != "default",
        ),
        # -- IAM (global) --
        one_call(
            "aws_iam_role", "list_roles", "Roles", "RoleName",
            name="RoleName",
            arn="Arn",
            keep=lambda r: not r.get("Path", "/").startswith(_SERVICE_ROLE_PATHS),
        ),
        # Customer-managed (Scope=Local) policies only: AWS-managed ones are built in.
        one_call(
            "aws_iam_policy", "list_policies", "Policies", "Arn",
            name="PolicyName",
            arn="Arn",
            params={"Scope": "Local"},
        ),
        one_call("aws_iam_user", "list_users", "Users", "UserName",
                name="UserName", arn="Arn"),
        one_call("aws_iam_group", "list_groups", "Groups", "GroupName",
                name="GroupName", arn="Arn"),
        one_call(
            "aws_iam_instance_profile", "list_instance_profiles", "InstanceProfiles",
            "InstanceProfileName",
            name="InstanceProfileName",
            arn="Arn",
        ),
        one_call(
            "aws_iam_openid_connect_provider", "list_open_id_connect_providers",
            "OpenIDConnectProviderList", "Arn",
            arn="Arn",
        ),
        _iam_children(
            "aws_iam_role_policy_attachment", "list_roles", "Roles", "RoleName",
            "list_attached_role_policies", "AttachedPolicies", "RoleName", attached=True,
        ),
        _iam_children(
            "aws_iam_user_policy_attachment", "list_users", "Users", "UserName",
            "list_attached_user_policies", "AttachedPolicies", "UserName", attached=True,
        ),
        _iam_children(
            "aws_iam_group_policy_attachment", "list_groups", "Groups", "GroupName",
            "list_attached_group_policies", "AttachedPolicies", "GroupName", attached=True,
        ),
        _iam_children(
            "aws_iam_role_policy", "list_roles", "Roles", "RoleName",
            "list_role_policies", "PolicyNames", "RoleName", attached=False,
        ),
        _iam_children(
            "aws_iam_user_policy", "list_users", "Users", "UserName",
            "list_user_policies", "PolicyNames", "UserName", attached=False,
        ),
        _iam_children(
            "aws_iam_group_policy", "list_groups", "Groups", "GroupName",
            "list_group_policies", "PolicyNames", "GroupName", attached=False,
        ),
        _lister("aws_iam_access_key", list_iam_access_keys),
        # -- DNS (global) --
        one_call(
            "aws_route53_zone", "list_hosted_zones", "HostedZones",
            lambda z: z["Id"].rsplit("/", 1)[-1],
            name="Name",
        ),
    ]
)  # fmt: skip
