"""The built-in inventory listers against a real (embedded) moto."""

from __future__ import annotations

import io
import json
import time
import zipfile
import zlib
from collections.abc import Iterator
from typing import Any

import pluggy
import pytest

from pytest_converge import inventory
from pytest_converge.emulator import MotoEmulator
from pytest_converge.errors import EmulatorError
from pytest_converge.inventory import (
    BUILTIN_LISTERS,
    GLOBAL,
    CloudObject,
    Inventory,
    pytest_converge_inventory,
    take_inventory,
)
from pytest_converge.plugin import hookspecs

ACCOUNT = "123456789012"


def _client(e: MotoEmulator, service: str) -> Any:
    """A cached client (``Emulator.client`` builds a new session, 0.1-0.25 s, per call)."""
    return inventory._client(e, service)


@pytest.fixture(scope="session")
def moto_emulator() -> Iterator[MotoEmulator]:
    emulator = MotoEmulator()
    emulator.start()
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture
def emulator(moto_emulator: MotoEmulator) -> MotoEmulator:
    """The session's moto, emptied."""
    moto_emulator.reset()
    return moto_emulator


def _touch_every_service(e: MotoEmulator) -> None:
    """Make moto create everything it creates lazily (default VPC, AWS-managed keys ...)."""
    ec2 = _client(e, "ec2")
    ec2.describe_vpcs()
    ec2.describe_security_groups()
    _client(e, "kms").list_aliases()
    _client(e, "iam").list_policies(Scope="AWS", MaxItems=1)
    _client(e, "ssm").describe_parameters()


def test_an_empty_emulator_lists_nothing(emulator: MotoEmulator) -> None:
    _touch_every_service(emulator)
    # moto really made its defaults: a default VPC, its subnets, SG, main table, NACL.
    ec2 = _client(emulator, "ec2")
    assert ec2.describe_vpcs()["Vpcs"] and ec2.describe_subnets()["Subnets"]
    assert ec2.describe_network_acls()["NetworkAcls"]

    inv = take_inventory(emulator)
    assert list(inv) == [], inv.objects
    assert inv.skipped == {}


def test_a_new_vpc_lists_without_its_default_sg_route_table_and_acl(
    emulator: MotoEmulator,
) -> None:
    ec2 = _client(emulator, "ec2")
    vpc_id = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    # Each VPC comes with its own default SG, main route table and default NACL.
    assert ec2.describe_security_groups(Filters=[{"Name": "vpc-id", "Values": [vpc_id]}])[
        "SecurityGroups"
    ]
    inv = take_inventory(emulator)
    assert [(o.type, o.id) for o in inv] == [("aws_vpc", vpc_id)]
    [obj] = inv.by_type("aws_vpc")
    assert obj.attributes["cidr_block"] == "10.0.0.0/16"
    assert obj.region == emulator.region


def _lambda_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("index.py", "def handler(event, context):\n    return 1\n")
    return buf.getvalue()


def _create_one_of_each(e: MotoEmulator) -> dict[str, set[str]]:
    """Create one object of every supported type; return the ids Terraform would store."""
    ec2 = _client(e, "ec2")
    region = e.region
    expected: dict[str, set[str]] = {}

    def add(type_: str, id_: str) -> None:
        expected.setdefault(type_, set()).add(id_)

    vpc = ec2.create_vpc(
        CidrBlock="10.0.0.0/16",
        TagSpecifications=[{"ResourceType": "vpc", "Tags": [{"Key": "Name", "Value": "main"}]}],
    )["Vpc"]["VpcId"]
    add("aws_vpc", vpc)
    azs = [z["ZoneName"] for z in ec2.describe_availability_zones()["AvailabilityZones"]][:2]
    subnets = [
        ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.0.{i}.0/24", AvailabilityZone=az)["Subnet"][
            "SubnetId"
        ]
        for i, az in enumerate(azs)
    ]
    for s in subnets:
        add("aws_subnet", s)
    add(
        "aws_security_group",
        ec2.create_security_group(GroupName="web", Description="web", VpcId=vpc)["GroupId"],
    )
    igw = ec2.create_internet_gateway()["InternetGateway"]["InternetGatewayId"]
    ec2.attach_internet_gateway(InternetGatewayId=igw, VpcId=vpc)
    add("aws_internet_gateway", igw)
    add("aws_route_table", ec2.create_route_table(VpcId=vpc)["RouteTable"]["RouteTableId"])
    add("aws_network_acl", ec2.create_network_acl(VpcId=vpc)["NetworkAcl"]["NetworkAclId"])
    eip_for_nat = ec2.allocate_address(Domain="vpc")["AllocationId"]
    add("aws_eip", eip_for_nat)
    add("aws_eip", ec2.allocate_address(Domain="vpc")["AllocationId"])
    add(
        "aws_nat_gateway",
        ec2.create_nat_gateway(SubnetId=subnets[0], AllocationId=eip_for_nat)["NatGateway"][
            "NatGatewayId"
        ],
    )
    ami = "ami-0123456789abcdef0"  # moto does not check it; listing its ~1,300 AMIs takes 1.5 s
    running, terminated = (
        i["InstanceId"]
        for i in ec2.run_instances(
            ImageId=ami, MinCount=2, MaxCount=2, InstanceType="t3.micro", SubnetId=subnets[0]
        )["Instances"]
    )
    ec2.terminate_instances(InstanceIds=[terminated])  # terminated ones are gone for terraform
    add("aws_instance", running)
    ec2.create_key_pair(KeyName="deployer")
    add("aws_key_pair", "deployer")
    # A gateway comes with its default route table (AWS's, not listed); a table and
    # an attachment of the module's are.
    tgw = ec2.create_transit_gateway(Description="hub")["TransitGateway"]["TransitGatewayId"]
    add("aws_ec2_transit_gateway", tgw)
    add(
        "aws_ec2_transit_gateway_route_table",
        ec2.create_transit_gateway_route_table(TransitGatewayId=tgw)["TransitGatewayRouteTable"][
            "TransitGatewayRouteTableId"
        ],
    )
    table = next(i for t, i in expected.items() if t == "aws_ec2_transit_gateway_route_table")
    [table_id] = table
    ec2.create_transit_gateway_route(
        DestinationCidrBlock="10.50.0.0/16", TransitGatewayRouteTableId=table_id, Blackhole=True
    )
    add("aws_ec2_transit_gateway_route", f"{table_id}_10.50.0.0/16")
    add(
        "aws_ec2_transit_gateway_vpc_attachment",
        ec2.create_transit_gateway_vpc_attachment(
            TransitGatewayId=tgw, VpcId=vpc, SubnetIds=[subnets[0]]
        )["TransitGatewayVpcAttachment"]["TransitGatewayAttachmentId"],
    )
    share = _client(e, "ram").create_resource_share(name="hub")["resourceShare"]
    add("aws_ram_resource_share", share["resourceShareArn"])

    _client(e, "s3").create_bucket(Bucket="acme-logs")
    add("aws_s3_bucket", "acme-logs")
    add("aws_sqs_queue", _client(e, "sqs").create_queue(QueueName="jobs")["QueueUrl"])
    add("aws_sns_topic", _client(e, "sns").create_topic(Name="alerts")["TopicArn"])

    iam = _client(e, "iam")
    trust = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Service": "lambda.amazonaws.com"},
                    "Action": "sts:AssumeRole",
                }
            ],
        }
    )
    role_arn = iam.create_role(RoleName="app", AssumeRolePolicyDocument=trust)["Role"]["Arn"]
    add("aws_iam_role", "app")
    policy_doc = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
        }
    )
    add(
        "aws_iam_policy",
        iam.create_policy(PolicyName="app-s3", PolicyDocument=policy_doc)["Policy"]["Arn"],
    )
    iam.create_user(UserName="ci")
    add("aws_iam_user", "ci")
    iam.create_instance_profile(InstanceProfileName="app-profile")
    add("aws_iam_instance_profile", "app-profile")

    _client(e, "dynamodb").create_table(
        TableName="locks",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
    add("aws_dynamodb_table", "locks")
    _client(e, "lambda").create_function(
        FunctionName="worker",
        Runtime="python3.12",
        Role=role_arn,
        Handler="index.handler",
        Code={"ZipFile": _lambda_zip()},
    )
    add("aws_lambda_function", "worker")

    kms = _client(e, "kms")
    add("aws_kms_key", kms.create_key(Description="data")["KeyMetadata"]["KeyId"])
    doomed = kms.create_key(Description="doomed")["KeyMetadata"]["KeyId"]
    kms.schedule_key_deletion(KeyId=doomed, PendingWindowInDays=7)  # gone for terraform

    _client(e, "logs").create_log_group(logGroupName="/app/worker")
    add("aws_cloudwatch_log_group", "/app/worker")
    _client(e, "ecr").create_repository(repositoryName="app")
    add("aws_ecr_repository", "app")
    add(
        "aws_secretsmanager_secret",
        _client(e, "secretsmanager").create_secret(Name="db-password", SecretString="x")["ARN"],
    )
    _client(e, "ssm").put_parameter(Name="/app/level", Value="debug", Type="String")
    add("aws_ssm_parameter", "/app/level")
    add(
        "aws_lb",
        _client(e, "elbv2").create_load_balancer(Name="web", Subnets=subnets)["LoadBalancers"][0][
            "LoadBalancerArn"
        ],
    )
    add(
        "aws_ecs_cluster",
        _client(e, "ecs").create_cluster(clusterName="apps")["cluster"]["clusterArn"],
    )
    kinesis = _client(e, "kinesis")
    kinesis.create_stream(StreamName="events", ShardCount=1)
    add(
        "aws_kinesis_stream",
        kinesis.describe_stream_summary(StreamName="events")["StreamDescriptionSummary"][
            "StreamARN"
        ],
    )
    _create_the_rest(e, vpc, subnets, role_arn, expected)
    assert region == "us-east-1"
    return expected


def _create_the_rest(
    e: MotoEmulator,
    vpc: str,
    subnets: list[str],
    role_arn: str,
    expected: dict[str, set[str]],
) -> None:
    """The types the widely used public modules create beyond the basics (VPC family,
    rules, attachments, aliases, subscriptions, ECS, RDS ...)."""

    def add(type_: str, id_: str) -> None:
        expected.setdefault(type_, set()).add(id_)

    ec2 = _client(e, "ec2")
    [web] = ec2.describe_security_groups(Filters=[{"Name": "group-name", "Values": ["web"]}])[
        "SecurityGroups"
    ]
    sg = web["GroupId"]
    ec2.authorize_security_group_ingress(
        GroupId=sg,
        IpPermissions=[
            {
                "IpProtocol": "tcp",
                "FromPort": 443,
                "ToPort": 443,
                "IpRanges": [{"CidrIp": "10.1.0.0/16"}, {"CidrIp": "10.2.0.0/16"}],
            }
        ],
    )
    add("aws_security_group_rule", f"{sg}/ingress/tcp/443-443/10.1.0.0/16")
    add("aws_security_group_rule", f"{sg}/ingress/tcp/443-443/10.2.0.0/16")
    # AWS gives every new group an allow-all egress rule (Terraform removes it on create).
    add("aws_security_group_rule", f"{sg}/egress/-1/all/0.0.0.0/0")
    add(
        "aws_egress_only_internet_gateway",
        ec2.create_egress_only_internet_gateway(VpcId=vpc)["EgressOnlyInternetGateway"][
            "EgressOnlyInternetGatewayId"
        ],
    )
    [table] = expected["aws_route_table"]
    add(
        "aws_route_table_association",
        ec2.associate_route_table(RouteTableId=table, SubnetId=subnets[1])["AssociationId"],
    )
    [igw] = expected["aws_internet_gateway"]
    ec2.create_route(RouteTableId=table, DestinationCidrBlock="0.0.0.0/0", GatewayId=igw)
    # The provider's own id: "r-" + table id + crc32 of the destination.
    add("aws_route", f"r-{table}{zlib.crc32(b'0.0.0.0/0')}")
    add(
        "aws_vpc_endpoint",
        ec2.create_vpc_endpoint(
            VpcId=vpc, ServiceName="com.amazonaws.us-east-1.s3", RouteTableIds=[table]
        )["VpcEndpoint"]["VpcEndpointId"],
    )
    logs = _client(e, "logs")
    logs.create_log_group(logGroupName="/vpc/flow")
    add("aws_cloudwatch_log_group", "/vpc/flow")
    add(
        "aws_flow_log",
        ec2.create_flow_logs(
            ResourceIds=[vpc],
            ResourceType="VPC",
            TrafficType="ALL",
            LogGroupName="/vpc/flow",
            DeliverLogsPermissionArn=role_arn,
        )["FlowLogIds"][0],
    )
    add(
        "aws_vpn_gateway",
        ec2.create_vpn_gateway(Type="ipsec.1")["VpnGateway"]["VpnGatewayId"],
    )
    add(
        "aws_customer_gateway",
        ec2.create_customer_gateway(Type="ipsec.1", PublicIp="203.0.113.12", BgpAsn=65000)[
            "CustomerGateway"
        ]["CustomerGatewayId"],
    )
    add(
        "aws_launch_template",
        ec2.create_launch_template(
            LaunchTemplateName="web", LaunchTemplateData={"InstanceType": "t3.micro"}
        )["LaunchTemplate"]["LaunchTemplateId"],
    )

    sns = _client(e, "sns")
    [topic] = expected["aws_sns_topic"]
    add(
        "aws_sns_topic_subscription",
        sns.subscribe(
            TopicArn=topic, Protocol="sqs", Endpoint=f"arn:aws:sqs:us-east-1:{ACCOUNT}:jobs"
        )["SubscriptionArn"],
    )
    kms = _client(e, "kms")
    [key] = expected["aws_kms_key"]
    kms.create_alias(AliasName="alias/data", TargetKeyId=key)
    add("aws_kms_alias", "alias/data")
    _client(e, "cloudwatch").put_metric_alarm(
        AlarmName="cpu-high",
        MetricName="CPUUtilization",
        Namespace="AWS/EC2",
        Statistic="Average",
        Period=60,
        EvaluationPeriods=1,
        Threshold=90.0,
        ComparisonOperator="GreaterThanThreshold",
    )
    add("aws_cloudwatch_metric_alarm", "cpu-high")

    elb = _client(e, "elbv2")
    group = elb.create_target_group(Name="web", Protocol="HTTP", Port=80, VpcId=vpc)
    group_arn = group["TargetGroups"][0]["TargetGroupArn"]
    add("aws_lb_target_group", group_arn)
    [balancer] = expected["aws_lb"]
    listener = elb.create_listener(
        LoadBalancerArn=balancer, Protocol="HTTP", Port=80,
        DefaultActions=[{"Type": "forward", "TargetGroupArn": group_arn}],
    )  # fmt: skip
    add("aws_lb_listener", listener["Listeners"][0]["ListenerArn"])
    ecs = _client(e, "ecs")
    [cluster] = expected["aws_ecs_cluster"]
    task = ecs.register_task_definition(
        family="web",
        containerDefinitions=[{"name": "web", "image": "nginx", "memory": 128}],
    )["taskDefinition"]["taskDefinitionArn"]
    add("aws_ecs_task_definition", task)
    add(
        "aws_ecs_service",
        ecs.create_service(cluster=cluster, serviceName="web", taskDefinition=task, desiredCount=0)[
            "service"
        ]["serviceArn"],
    )
    scaling = _client(e, "application-autoscaling")
    scaled = {"ServiceNamespace": "ecs", "ResourceId": "service/apps/web"}
    dimension = {**scaled, "ScalableDimension": "ecs:service:DesiredCount"}
    scaling.register_scalable_target(**dimension, MinCapacity=0, MaxCapacity=2)
    add("aws_appautoscaling_target", "service/apps/web")
    # A target tracking policy makes CloudWatch alarms of its own (on AWS too): the
    # service's, never listed as a module's alarms (only "cpu-high" below is).
    metric = {"PredefinedMetricType": "ECSServiceAverageCPUUtilization"}
    scaling.put_scaling_policy(
        PolicyName="cpu", PolicyType="TargetTrackingScaling", **dimension,
        TargetTrackingScalingPolicyConfiguration={
            "TargetValue": 50.0, "PredefinedMetricSpecification": metric
        },
    )  # fmt: skip
    add("aws_appautoscaling_policy", "cpu")
    autoscaling = _client(e, "autoscaling")
    # The instance the group launches is the group's (tagged aws:autoscaling:groupName),
    # never listed as an aws_instance of the module (only the one run above is).
    autoscaling.create_auto_scaling_group(
        AutoScalingGroupName="web",
        LaunchTemplate={"LaunchTemplateName": "web"},
        MinSize=0,
        MaxSize=1,
        DesiredCapacity=1,
        VPCZoneIdentifier=subnets[0],
    )
    add("aws_autoscaling_group", "web")
    autoscaling.put_scheduled_update_group_action(
        AutoScalingGroupName="web", ScheduledActionName="night", Recurrence="0 22 * * *",
        DesiredCapacity=0,
    )  # fmt: skip
    add("aws_autoscaling_schedule", "night")

    efs = _client(e, "efs")
    fs = efs.create_file_system(CreationToken="shared")["FileSystemId"]
    add("aws_efs_file_system", fs)
    add(
        "aws_efs_mount_target",
        efs.create_mount_target(FileSystemId=fs, SubnetId=subnets[0])["MountTargetId"],
    )
    add("aws_efs_access_point", efs.create_access_point(FileSystemId=fs)["AccessPointId"])

    events = _client(e, "events")
    events.create_event_bus(Name="orders")
    add("aws_cloudwatch_event_bus", "orders")
    events.put_rule(Name="placed", EventBusName="orders", EventPattern='{"source": ["shop"]}')
    events.put_rule(Name="hourly", ScheduleExpression="rate(1 hour)")  # the default bus
    add("aws_cloudwatch_event_rule", "orders/placed")
    add("aws_cloudwatch_event_rule", "hourly")
    queue = f"arn:aws:sqs:us-east-1:{ACCOUNT}:jobs"
    events.put_targets(Rule="placed", EventBusName="orders", Targets=[{"Id": "q", "Arn": queue}])
    events.put_targets(Rule="hourly", Targets=[{"Id": "q", "Arn": queue}])
    add("aws_cloudwatch_event_target", "orders-placed-q")
    add("aws_cloudwatch_event_target", "hourly-q")
    # An archive's rule (and its target) is the service's: ManagedBy, never listed.
    events.create_archive(
        ArchiveName="orders", EventSourceArn=f"arn:aws:events:us-east-1:{ACCOUNT}:event-bus/orders"
    )
    add("aws_cloudwatch_event_archive", "orders")

    http = _client(e, "apigatewayv2")
    api = http.create_api(Name="shop", ProtocolType="HTTP")["ApiId"]
    add("aws_apigatewayv2_api", api)
    integration = http.create_integration(
        ApiId=api, IntegrationType="HTTP_PROXY", IntegrationMethod="GET",
        IntegrationUri="https://example.com", PayloadFormatVersion="1.0",
    )["IntegrationId"]  # fmt: skip
    add("aws_apigatewayv2_integration", integration)
    add(
        "aws_apigatewayv2_route",
        http.create_route(ApiId=api, RouteKey="GET /hello", Target=f"integrations/{integration}")[
            "RouteId"
        ],
    )
    http.create_stage(ApiId=api, StageName="$default", AutoDeploy=True)
    add("aws_apigatewayv2_stage", "$default")
    metric = {"metricName": "rejects", "metricNamespace": "vpc", "metricValue": "1"}
    _client(e, "logs").put_metric_filter(
        logGroupName="/vpc/flow", filterName="rejects", filterPattern="REJECT",
        metricTransformations=[metric],
    )  # fmt: skip
    add("aws_cloudwatch_log_metric_filter", "rejects")

    rds = _client(e, "rds")
    rds.create_db_subnet_group(
        DBSubnetGroupName="db", DBSubnetGroupDescription="db", SubnetIds=subnets
    )
    add("aws_db_subnet_group", "db")
    rds.create_db_parameter_group(
        DBParameterGroupName="pg15", DBParameterGroupFamily="postgres15", Description="pg"
    )
    add("aws_db_parameter_group", "pg15")
    rds.create_db_instance(
        DBInstanceIdentifier="app-db",
        DBInstanceClass="db.t3.micro",
        Engine="postgres",
        MasterUsername="app",
        MasterUserPassword="not-a-real-password",
        AllocatedStorage=20,
        DBSubnetGroupName="db",
    )
    add("aws_db_instance", "app-db")
    _client(e, "redshift").create_cluster_subnet_group(
        ClusterSubnetGroupName="warehouse", Description="dw", SubnetIds=subnets
    )
    add("aws_redshift_subnet_group", "warehouse")
    add(
        "aws_vpc_dhcp_options",
        ec2.create_dhcp_options(
            DhcpConfigurations=[{"Key": "domain-name", "Values": ["corp.internal"]}]
        )["DhcpOptions"]["DhcpOptionsId"],
    )
    lam = _client(e, "lambda")
    add(
        "aws_lambda_alias",
        lam.create_alias(FunctionName="worker", Name="live", FunctionVersion="$LATEST")["AliasArn"],
    )
    add(
        "aws_lambda_layer_version",
        lam.publish_layer_version(LayerName="deps", Content={"ZipFile": _lambda_zip()})[
            "LayerVersionArn"
        ],
    )
    add(
        "aws_lambda_event_source_mapping",
        lam.create_event_source_mapping(
            EventSourceArn=f"arn:aws:sqs:us-east-1:{ACCOUNT}:jobs", FunctionName="worker"
        )["UUID"],
    )
    _client(e, "elasticache").create_cache_subnet_group(
        CacheSubnetGroupName="cache", CacheSubnetGroupDescription="cache", SubnetIds=subnets
    )
    add("aws_elasticache_subnet_group", "cache")

    iam = _client(e, "iam")
    [policy] = expected["aws_iam_policy"]
    iam.create_group(GroupName="ops")
    add("aws_iam_group", "ops")
    iam.attach_role_policy(RoleName="app", PolicyArn=policy)
    add("aws_iam_role_policy_attachment", f"app/{policy}")
    iam.attach_user_policy(UserName="ci", PolicyArn=policy)
    add("aws_iam_user_policy_attachment", f"ci/{policy}")
    iam.attach_group_policy(GroupName="ops", PolicyArn=policy)
    add("aws_iam_group_policy_attachment", f"ops/{policy}")
    inline = json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}],
        }
    )
    iam.put_role_policy(RoleName="app", PolicyName="inline", PolicyDocument=inline)
    add("aws_iam_role_policy", "app:inline")
    iam.put_user_policy(UserName="ci", PolicyName="inline", PolicyDocument=inline)
    add("aws_iam_user_policy", "ci:inline")
    iam.put_group_policy(GroupName="ops", PolicyName="inline", PolicyDocument=inline)
    add("aws_iam_group_policy", "ops:inline")
    add(
        "aws_iam_access_key",
        iam.create_access_key(UserName="ci")["AccessKey"]["AccessKeyId"],
    )
    add(
        "aws_iam_openid_connect_provider",
        iam.create_open_id_connect_provider(
            Url="https://token.actions.githubusercontent.com",
            ClientIDList=["sts.amazonaws.com"],
            ThumbprintList=["a" * 40],
        )["OpenIDConnectProviderArn"],
    )
    zone = _client(e, "route53").create_hosted_zone(Name="example.com", CallerReference="1")
    add("aws_route53_zone", zone["HostedZone"]["Id"].rsplit("/", 1)[-1])


def test_every_supported_type_is_listed_under_terraforms_id(emulator: MotoEmulator) -> None:
    _touch_every_service(emulator)
    before = take_inventory(emulator)
    expected = _create_one_of_each(emulator)
    after = take_inventory(emulator)
    created = after.minus(before)

    assert set(expected) == set(BUILTIN_LISTERS), "the test covers every built-in lister"
    found: dict[str, set[str]] = {}
    for obj in created:
        found.setdefault(obj.type, set()).add(obj.id)
    assert found == expected
    assert after.skipped == {}

    # A few identifying attributes, names and ARNs, as the matcher uses them.
    [queue] = created.by_type("aws_sqs_queue")
    assert queue.name == "jobs" and queue.arn == f"arn:aws:sqs:us-east-1:{ACCOUNT}:jobs"
    [vpc] = created.by_type("aws_vpc")
    assert vpc.name == "main" and vpc.attributes["tags"] == {"Name": "main"}
    [role] = created.by_type("aws_iam_role")
    assert role.arn == f"arn:aws:iam::{ACCOUNT}:role/app"
    [group] = created.by_type("aws_security_group")
    assert group.name == "web"
    [cluster] = created.by_type("aws_ecs_cluster")
    assert cluster.name == "apps"
    for log_group in created.by_type("aws_cloudwatch_log_group"):
        assert log_group.arn and not log_group.arn.endswith(":*")
    assert {o.region for o in created if o.type.startswith("aws_iam_")} == {GLOBAL}
    assert {o.region for o in created if not o.type.startswith(("aws_iam_", "aws_route53_"))} == {
        "us-east-1"
    }
    assert {s.attributes["cidr_block"] for s in created.by_type("aws_subnet")} == {
        "10.0.0.0/24",
        "10.0.1.0/24",
    }


def test_inventory_speed(emulator: MotoEmulator) -> None:
    """A warm inventory of an emulator with ~30 objects stays well under a second."""
    _touch_every_service(emulator)
    take_inventory(emulator)  # clients built, moto's lazy backends created
    empty = min(_timed(emulator) for _ in range(3))
    _create_one_of_each(emulator)
    full = min(_timed(emulator) for _ in range(3))
    # Generous bounds (measured ~0.2 s / ~0.3 s here): this catches a lost thread pool
    # or per-call client creation, not scheduler noise.
    assert empty < 1.5, empty
    assert full < 2.5, full


def _timed(e: MotoEmulator) -> float:
    started = time.perf_counter()
    take_inventory(e)
    return time.perf_counter() - started


def test_minus_is_what_appeared(emulator: MotoEmulator) -> None:
    before = take_inventory(emulator)
    sqs = _client(emulator, "sqs")
    url = sqs.create_queue(QueueName="new")["QueueUrl"]
    after = take_inventory(emulator)
    created = after.minus(before)
    assert [(o.type, o.id) for o in created] == [("aws_sqs_queue", url)]
    assert ("aws_sqs_queue", url) in created
    assert len(before.minus(after)) == 0
    assert len(after.minus(after)) == 0


def test_inventory_set_semantics() -> None:
    a = CloudObject("aws_vpc", "vpc-1", attributes={"cidr_block": "10.0.0.0/16"})
    same = CloudObject("aws_vpc", "vpc-1", attributes={"cidr_block": "other"})
    b = CloudObject("aws_s3_bucket", "b", name="b")
    inv = Inventory([b, a, same])
    assert len(inv) == 2 and a in inv and same in inv and ("aws_s3_bucket", "b") in inv
    assert inv.objects == [b, a]  # sorted by (type, id)
    assert inv.by_type("aws_vpc") == [a] and inv.by_type("aws_eip") == []
    assert inv.minus(Inventory([a])).objects == [b]
    assert hash(a) == hash(same)  # attributes take no part in identity


def test_a_lister_for_a_service_the_emulator_lacks_fails_soft(
    emulator: MotoEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    def list_amplify_apps(e: Any) -> list[CloudObject]:
        apps = inventory._client(e, "amplify").list_apps()["apps"]  # moto has no Amplify
        return [CloudObject("aws_amplify_app", a["appId"]) for a in apps]

    def list_unknown_service(e: Any) -> list[CloudObject]:
        inventory._client(e, "no-such-service")  # botocore does not know it either
        return []

    monkeypatch.setitem(BUILTIN_LISTERS, "aws_amplify_app", list_amplify_apps)
    monkeypatch.setitem(BUILTIN_LISTERS, "aws_nothing", list_unknown_service)
    _client(emulator, "s3").create_bucket(Bucket="still-listed")

    inv = take_inventory(emulator)
    assert set(inv.skipped) == {"aws_amplify_app", "aws_nothing"}
    assert [o.id for o in inv] == ["still-listed"]


def test_listers_merged_through_the_pytest_hook(emulator: MotoEmulator) -> None:
    class ExtraLister:
        @inventory.hookimpl
        def pytest_converge_inventory(self, emulator: Any) -> list[CloudObject]:
            return [CloudObject("aws_custom_thing", "thing-1")]

    pm = pluggy.PluginManager("pytest")
    pm.add_hookspecs(hookspecs)
    pm.register(inventory)
    pm.register(ExtraLister())
    _client(emulator, "sns").create_topic(Name="t")

    inv = take_inventory(emulator, pm.hook.pytest_converge_inventory)
    assert [o.type for o in inv] == ["aws_custom_thing", "aws_sns_topic"]
    # A plain function wrapping the hook, as the fixtures pass it, works the same.
    wrapped = take_inventory(
        emulator,
        lambda e, regions, services: pm.hook.pytest_converge_inventory(
            config=None, emulator=e, regions=regions, services=services
        ),
    )
    assert wrapped.objects == inv.objects
    assert (
        pytest_converge_inventory(emulator=emulator, regions=None, services=None)[0].type
        == "aws_sns_topic"
    )


def test_a_stopped_emulator_raises_emulator_error() -> None:
    e = MotoEmulator()
    e.start()
    e.stop()
    with pytest.raises(EmulatorError, match="not running"):
        take_inventory(e)
    with pytest.raises(EmulatorError):
        pytest_converge_inventory(emulator=e, regions=["eu-west-1"], services=None)


def test_every_region_asked_for_is_listed_and_global_services_once(
    emulator: MotoEmulator,
) -> None:
    eu = inventory._client(emulator, "ec2", "eu-west-1")
    west = inventory._client(emulator, "ec2", "us-west-2")
    eu_vpc = eu.create_vpc(CidrBlock="10.50.0.0/16")["Vpc"]["VpcId"]
    west_vpc = west.create_vpc(CidrBlock="10.51.0.0/16")["Vpc"]["VpcId"]
    inventory._client(emulator, "s3", "us-west-2").create_bucket(
        Bucket="west-bucket", CreateBucketConfiguration={"LocationConstraint": "us-west-2"}
    )
    inventory._client(emulator, "sqs", "eu-west-1").create_queue(QueueName="jobs")
    inventory._client(emulator, "sqs", "us-west-2").create_queue(QueueName="jobs")
    _client(emulator, "iam").create_user(UserName="ci")

    default_only = take_inventory(emulator)
    assert default_only.ids("aws_vpc") == set()  # us-east-1 has none of them
    assert [(o.id, o.region) for o in default_only.by_type("aws_s3_bucket")] == [
        ("west-bucket", "us-west-2")  # listed once, in its own region
    ]

    inv = take_inventory(emulator, regions=["eu-west-1", "us-west-2"])
    assert {(o.id, o.region) for o in inv.by_type("aws_vpc")} == {
        (eu_vpc, "eu-west-1"),
        (west_vpc, "us-west-2"),
    }
    # One queue name in two regions: two objects (the inventory keys on the region too).
    assert sorted(o.region for o in inv.by_type("aws_sqs_queue")) == ["eu-west-1", "us-west-2"]
    assert [o.arn for o in inv.by_type("aws_sqs_queue") if o.region == "eu-west-1"] == [
        f"arn:aws:sqs:eu-west-1:{ACCOUNT}:jobs"
    ]
    assert [(o.id, o.region) for o in inv.by_type("aws_iam_user")] == [("ci", GLOBAL)]
    assert len(inv.by_type("aws_s3_bucket")) == 1
    assert ("aws_vpc", "eu-west-1", eu_vpc) in inv and ("aws_vpc", eu_vpc) in inv
    assert inv.regions == {"eu-west-1", "us-west-2", GLOBAL}
    assert set(BUILTIN_LISTERS) <= inv.covered


def test_aws_built_ins_stay_filtered_in_every_region(emulator: MotoEmulator) -> None:
    """Default VPCs, AWS-managed policies, KMS aliases and parameter groups are nobody's."""
    for region in ("eu-west-1", "us-west-2"):
        ec2 = inventory._client(emulator, "ec2", region)
        ec2.describe_vpcs()
        ec2.describe_security_groups()
        ec2.describe_route_tables()
        inventory._client(emulator, "kms", region).list_aliases()
        inventory._client(emulator, "rds", region).describe_db_parameter_groups()
    _client(emulator, "iam").list_policies(Scope="AWS", MaxItems=1)
    inv = take_inventory(emulator, regions=["eu-west-1", "us-west-2", "us-east-1"])
    assert list(inv) == [], inv.objects


def test_the_readme_names_the_number_of_built_in_listers() -> None:
    from pathlib import Path

    # The README's fault-injection section moved to the docs' faults guide.
    page = (Path(__file__).resolve().parents[2] / "docs" / "guides" / "faults.md").read_text()
    assert f"regions, services)`: {len(BUILTIN_LISTERS)} AWS types ship with the" in page


def test_listers_of_services_nobody_called_are_skipped(emulator: MotoEmulator) -> None:
    vpc = _client(emulator, "ec2").create_vpc(CidrBlock="10.70.0.0/16")["Vpc"]["VpcId"]
    url = _client(emulator, "sqs").create_queue(QueueName="only-sqs")["QueueUrl"]
    _client(emulator, "iam").create_user(UserName="ci")
    only_sqs = take_inventory(emulator, services={"us-east-1": {"sqs"}})
    assert [o.id for o in only_sqs] == [url]
    # "Not called" is not "not covered": the types stay covered (none of them can exist).
    assert "aws_vpc" in only_sqs.covered
    called = take_inventory(emulator, services={"us-east-1": {"ec2", "iam"}})
    assert {o.id for o in called} == {vpc, "ci"}
    assert take_inventory(emulator, services=None).ids("aws_sqs_queue") == {url}


def test_lister_services_are_named_as_sigv4_scopes_name_them() -> None:
    """The proxy records SigV4 signing names: each lister's must be botocore's."""
    import botocore.session

    from pytest_converge.inventory import Lister

    session = botocore.session.get_session()
    for type_, lister in BUILTIN_LISTERS.items():
        assert isinstance(lister, Lister) and lister.service, type_
        model = session.get_service_model(lister.service)
        assert lister.signing_name == model.signing_name, type_
