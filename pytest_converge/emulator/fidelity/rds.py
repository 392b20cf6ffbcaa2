"""RDS: a cluster's settings, scaling configuration and storage type,
activity streams, custom endpoints, the source of a DB parameter, a cluster
restored from S3, an instance's Database Insights mode and maintenance
window, DB proxy endpoints.

Following the Amazon RDS API reference
(https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/):

- ``CreateDBCluster`` / ``ModifyDBCluster``: a cluster keeps
  ``EnablePerformanceInsights`` and ``DescribeDBClusters`` answers it as
  ``PerformanceInsightsEnabled``, with the ``PerformanceInsightsRetentionPeriod``
  (7 days when enabled without one) and ``PerformanceInsightsKMSKeyId`` given;
  it keeps the ``MonitoringInterval`` (0 unless given), ``MonitoringRoleArn``,
  ``DatabaseInsightsMode`` and ``EngineLifecycleSupport``
  (``open-source-rds-extended-support`` unless given) it is created with.
  moto 5.2 keeps none of them at creation (a modification keeps all but
  ``EnablePerformanceInsights``, which it keeps under a name it never
  answers), so a cluster declaring them was modified on every apply or on the
  second.
- ``CreateDBInstance``: an instance keeps the ``DatabaseInsightsMode`` it is
  created with, ``standard`` unless given, and ``DescribeDBInstances`` answers
  it; an Aurora instance answers its cluster's, the green instance of a
  blue/green deployment its blue one's. moto 5.2 keeps it only from a
  ``ModifyDBInstance``, so an instance declaring it was modified on every apply
  (through a blue/green deployment where the module asks for one).
- ``CreateDBInstance`` / ``ModifyDBInstance``: a backup window may end when the
  maintenance window starts (or start when it ends): the two share no time.
  moto 5.2 refuses such windows as overlapping.
- ``DescribeDBClusters``: ``ScalingConfigurationInfo`` is answered for a
  serverless v1 cluster (``EngineMode`` ``serverless``) only; moto 5.2 answers
  an empty one for every cluster, read as a scaling configuration of nothing
  that the next apply removes.
- ``CreateDBCluster``: an Aurora cluster takes the Aurora storage types
  ``aurora`` and ``aurora-iopt1`` (I/O-Optimized), a Multi-AZ DB cluster
  ``io1``, ``io2`` and ``gp3``; moto 5.2 fails with a server error on any type
  but ``gp2``, ``io1`` and ``standard``.
- ``DescribeDBParameters``: a parameter a ``ModifyDBParameterGroup`` set has
  ``Source`` ``user``, and ``Source`` selects the parameters answered; moto 5.2
  answers no ``Source`` and ignores the filter, so a provider keeping only the
  user's parameters read none back.
- ``StartActivityStream``, ``StopActivityStream``: a cluster's database
  activity stream, ``DescribeDBClusters`` answering its
  ``ActivityStreamStatus`` (``stopped`` until started), ``ActivityStreamMode``,
  ``ActivityStreamKmsKeyId`` and ``ActivityStreamKinesisStreamName``
  (``aws-rds-das-<DbClusterResourceId>``); starting a started stream or
  stopping a stopped one is ``InvalidDBClusterStateFault``, a missing cluster
  ``DBClusterNotFoundFault``. moto 5.2 has neither operation.

- ``CreateDBClusterEndpoint``, ``DescribeDBClusterEndpoints``,
  ``ModifyDBClusterEndpoint``, ``DeleteDBClusterEndpoint``: a cluster's custom
  endpoints (``EndpointType`` ``CUSTOM``, a ``CustomEndpointType`` of
  ``READER``, ``WRITER`` or ``ANY``, static or excluded members), each at
  ``<id>.cluster-custom-<the cluster's>`` and tagged by its ARN; asked by
  cluster, the cluster's own ``WRITER`` and ``READER`` endpoints too. A taken
  identifier is ``DBClusterEndpointAlreadyExistsFault``, a missing one
  ``DBClusterEndpointNotFoundFault``. moto 5.2 has none of these operations.
- ``RestoreDBClusterFromS3``: an Aurora MySQL cluster made from a MySQL backup
  in an S3 bucket is made as ``CreateDBCluster`` makes one, from the request's
  cluster members; a bucket that does not exist is ``InvalidS3BucketFault``.
  moto 5.2 has no such operation.
- ``CreateDBProxyEndpoint``, ``DescribeDBProxyEndpoints``,
  ``ModifyDBProxyEndpoint``, ``DeleteDBProxyEndpoint``: a DB proxy's extra
  endpoints (``TargetRole`` ``READ_WRITE`` unless ``READ_ONLY``, in the VPC of
  their subnets, the VPC's default security group unless given), each at
  ``<name>.endpoint.proxy-<the proxy's>`` and tagged by its ARN; asked by
  proxy, the proxy's default endpoint too. A missing proxy is
  ``DBProxyNotFoundFault``, a taken name ``DBProxyEndpointAlreadyExistsFault``,
  a missing endpoint ``DBProxyEndpointNotFoundFault``. moto 5.2 has none of
  these operations.

Not modelled: the ``Filters`` of DescribeDBClusterEndpoints and
DescribeDBProxyEndpoints, a proxy's endpoints deleted with it, a family's
``engine-default`` and ``system`` parameters (none is answered), the Kinesis
data stream AWS makes for an activity stream, and an activity stream of a DB
instance (RDS for Oracle and SQL Server).
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: The retention period, in days, of Performance Insights enabled without one.
DEFAULT_RETENTION = 7
#: CreateDBCluster's parameters moto drops that a DBCluster answers (the attribute its
#: serializer reads, as its ModifyDBCluster sets them) -> the value when not given.
CREATE_SETTINGS: dict[str, Any] = {
    "monitoring_interval": 0,
    "monitoring_role_arn": None,
    "database_insights_mode": None,
    "engine_lifecycle_support": "open-source-rds-extended-support",
}


def _keep_performance_insights(cluster: Any, kwargs: dict[str, Any], *, created: bool) -> None:
    """Set ``cluster``'s Performance Insights from a Create/ModifyDBCluster's parameters."""
    enabled = kwargs.get("enable_performance_insights")
    if enabled is None and not created:
        return
    cluster.performance_insights_enabled = bool(enabled)
    if not enabled:
        cluster.performance_insights_retention_period = None
        return
    retention = kwargs.get("performance_insights_retention_period")
    cluster.performance_insights_retention_period = (
        retention or getattr(cluster, "performance_insights_retention_period", None)
        or DEFAULT_RETENTION
    )  # fmt: skip
    key = kwargs.get("performance_insights_kms_key_id")
    if key:
        cluster.performance_insights_kms_key_id = key


@behaviour(
    BEHAVIOURS,
    "rds.cluster-settings",
    does="CreateDBCluster and ModifyDBCluster keep EnablePerformanceInsights and "
    "DescribeDBClusters answers PerformanceInsightsEnabled, with the "
    "PerformanceInsightsRetentionPeriod (7 unless given) and PerformanceInsightsKMSKeyId; "
    "CreateDBCluster keeps MonitoringInterval (0 unless given), MonitoringRoleArn, "
    "DatabaseInsightsMode and EngineLifecycleSupport (open-source-rds-extended-support "
    "unless given) (moto 5.2.6: only Performance Insights kept at creation; a "
    "modification's EnablePerformanceInsights never answered)",
    reference=_API + "API_CreateDBCluster.html",
    test=_TESTS + "test_rds_a_cluster_keeps_its_settings",
    replaces={
        "moto.rds.models:RDSBackend.create_db_cluster": "c3efc0ee16fc5a5b",
        "moto.rds.models:RDSBackend.modify_db_cluster": "43fce48378b9e689",
    },
)
def _cluster_settings() -> None:
    from moto.rds.models import RDSBackend

    create_before = original(RDSBackend, "create_db_cluster")
    modify_before = original(RDSBackend, "modify_db_cluster")

    def create_db_cluster(self: Any, kwargs: dict[str, Any]) -> Any:
        cluster = create_before(self, kwargs)
        _keep_performance_insights(cluster, kwargs, created=True)
        for attribute, default in CREATE_SETTINGS.items():
            value = kwargs.get(attribute)
            setattr(cluster, attribute, default if value is None else value)
        return cluster

    def modify_db_cluster(self: Any, kwargs: dict[str, Any]) -> Any:
        answered = modify_before(self, kwargs)
        # moto answers a copy of the cluster it keeps: both get the change.
        kept = self.clusters[answered.db_cluster_identifier]
        for cluster in {id(answered): answered, id(kept): kept}.values():
            _keep_performance_insights(cluster, kwargs, created=False)
        return answered

    patch(RDSBackend, "create_db_cluster", create_db_cluster)
    patch(RDSBackend, "modify_db_cluster", modify_db_cluster)


#: The mode of Database Insights of an RDS DB instance created without one.
DEFAULT_INSIGHTS_MODE = "standard"


@behaviour(
    BEHAVIOURS,
    "rds.instance-database-insights",
    does="CreateDBInstance keeps DatabaseInsightsMode and DescribeDBInstances answers it, "
    "standard unless given; an Aurora instance answers its cluster's (moto: none kept at "
    "creation, so an instance declaring it was modified on every apply)",
    reference=_API + "API_CreateDBInstance.html",
    test=_TESTS + "test_rds_an_instance_keeps_its_database_insights_mode",
    replaces={
        "moto.rds.models:RDSBackend.create_db_instance": "aba121431790f5fd",
        "moto.rds.models:BlueGreenDeployment._create_green_instance": "c236216cde8d198d",
    },
)
def _instance_database_insights() -> None:
    from moto.rds.models import BlueGreenDeployment, DBCluster, RDSBackend

    before = original(RDSBackend, "create_db_instance")
    green_before = original(BlueGreenDeployment, "_create_green_instance")

    def create_db_instance(self: Any, db_kwargs: dict[str, Any]) -> Any:
        database = before(self, db_kwargs)
        cluster = self.clusters.get(database.db_cluster_identifier or "")
        # Aurora instances inherit the mode from their cluster: it cannot be set on them.
        asked = getattr(cluster, "database_insights_mode", None) if cluster else None
        database.database_insights_mode = (
            asked or db_kwargs.get("database_insights_mode") or DEFAULT_INSIGHTS_MODE
        )
        return database

    def _create_green_instance(self: Any, *args: Any, **kwargs: Any) -> str:
        green = green_before(self, *args, **kwargs)
        source = self._get_valid_instance_or_raise(self.source)
        if isinstance(source, DBCluster):  # its instances answer the cluster's mode
            return str(green)
        # The green copy is made with the blue's settings, its Database Insights mode too.
        self.backend.find_db_from_id(green).database_insights_mode = getattr(
            source, "database_insights_mode", DEFAULT_INSIGHTS_MODE
        )
        return str(green)

    patch(RDSBackend, "create_db_instance", create_db_instance)
    patch(BlueGreenDeployment, "_create_green_instance", _create_green_instance)


@behaviour(
    BEHAVIOURS,
    "rds.adjacent-windows",
    does="CreateDBInstance and ModifyDBInstance accept a backup window that ends when the "
    "maintenance window starts, or starts when it ends: windows that only touch share no "
    "time (moto: 'The backup window and maintenance window must not overlap.')",
    reference=_API + "API_CreateDBInstance.html",
    test=_TESTS + "test_rds_backup_and_maintenance_windows_may_touch",
    replaces={"moto.rds.utils:get_overlap_between_two_date_ranges": "bd6b25876d7bd7c7"},
)
def _adjacent_windows() -> None:
    from moto.rds import utils

    before = original(utils, "get_overlap_between_two_date_ranges")

    def get_overlap_between_two_date_ranges(*ranges: Any) -> int:
        overlap = int(before(*ranges))
        # moto's only caller counts an overlap >= 0 as a conflict: a shared end point is none.
        return -1 if overlap == 0 else overlap

    patch(utils, "get_overlap_between_two_date_ranges", get_overlap_between_two_date_ranges)


@behaviour(
    BEHAVIOURS,
    "rds.serverless-v1-scaling-configuration",
    does="DescribeDBClusters answers ScalingConfigurationInfo for a serverless v1 cluster "
    "(EngineMode serverless) only (moto: an empty one for every cluster)",
    reference=_API + "API_DBCluster.html",
    test=_TESTS + "test_rds_only_a_serverless_v1_cluster_has_a_scaling_configuration",
    replaces={"moto.rds.models:DBCluster.scaling_configuration_info": "6cf0cd25b11123c5"},
)
def _serverless_v1_scaling_configuration() -> None:
    from moto.rds.models import DBCluster

    before = original(DBCluster, "scaling_configuration_info")

    def scaling_configuration_info(self: Any) -> dict[str, Any] | None:
        return before(self) if self.engine_mode == "serverless" else None

    patch(DBCluster, "scaling_configuration_info", property(scaling_configuration_info))


def _state_fault(message: str) -> Exception:
    from moto.rds.exceptions import RDSClientError

    return RDSClientError("InvalidDBClusterStateFault", message)


class ActivityStreamBackend:
    """StartActivityStream and StopActivityStream of a cluster (an RDSBackend mixin)."""

    def start_activity_stream(self, arn: str, mode: str, kms_key_id: str) -> dict[str, Any]:
        [cluster] = self.describe_db_clusters(arn)  # type: ignore[attr-defined]
        if cluster.activity_stream_status != "stopped":
            raise _state_fault(f"The activity stream of DB cluster {arn} is already started.")
        cluster.activity_stream_mode = mode
        cluster.activity_stream_kms_key_id = kms_key_id
        cluster.activity_stream_kinesis_stream_name = (
            f"aws-rds-das-{cluster.db_cluster_resource_id}"
        )
        cluster.activity_stream_status = "started"
        return {
            "KmsKeyId": kms_key_id,
            "KinesisStreamName": cluster.activity_stream_kinesis_stream_name,
            "Status": "starting",
            "Mode": mode,
        }

    def stop_activity_stream(self, arn: str) -> dict[str, Any]:
        [cluster] = self.describe_db_clusters(arn)  # type: ignore[attr-defined]
        if cluster.activity_stream_status != "started":
            raise _state_fault(f"The activity stream of DB cluster {arn} is not started.")
        answer = {
            "KmsKeyId": cluster.activity_stream_kms_key_id,
            "KinesisStreamName": cluster.activity_stream_kinesis_stream_name,
            "Status": "stopping",
        }
        cluster.activity_stream_status = "stopped"
        for attribute in ("mode", "kms_key_id", "kinesis_stream_name"):
            setattr(cluster, f"activity_stream_{attribute}", None)
        return answer


class ActivityStreamResponse:
    """The activity stream actions (an RDSResponse mixin)."""

    def start_activity_stream(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        answer = self.backend.start_activity_stream(  # type: ignore[attr-defined]
            get("ResourceArn"), get("Mode"), get("KmsKeyId")
        )
        answer["ApplyImmediately"] = bool(get("ApplyImmediately"))
        answer["EngineNativeAuditFieldsIncluded"] = bool(get("EngineNativeAuditFieldsIncluded"))
        return ActionResult(answer)

    def stop_activity_stream(self) -> Any:
        from moto.core.responses import ActionResult

        arn = self._get_param("ResourceArn")  # type: ignore[attr-defined]
        return ActionResult(self.backend.stop_activity_stream(arn))  # type: ignore[attr-defined]


@behaviour(
    BEHAVIOURS,
    "rds.activity-streams",
    does="StartActivityStream and StopActivityStream of a cluster, DescribeDBClusters "
    "answering its ActivityStreamStatus (stopped until started), ActivityStreamMode, "
    "ActivityStreamKmsKeyId and ActivityStreamKinesisStreamName; InvalidDBClusterStateFault "
    "for a stream already started or stopped (moto: neither operation)",
    reference=_API + "API_StartActivityStream.html",
    test=_TESTS + "test_rds_a_clusters_activity_stream_starts_and_stops",
)
def _activity_streams() -> None:
    from moto.rds.models import DBCluster, RDSBackend
    from moto.rds.responses import RDSResponse

    graft(ActivityStreamBackend, onto=RDSBackend)
    graft(ActivityStreamResponse, onto=RDSResponse)
    if hasattr(DBCluster, "activity_stream_status"):
        raise RuntimeError("moto's DBCluster already has activity_stream_status: re-check")
    # A cluster's stream is stopped until started (the model's new default).
    patch(DBCluster, "activity_stream_status", "stopped")


#: The storage types of a cluster, by engine (Aurora's, else a Multi-AZ DB cluster's)
#: -> the AllocatedStorage it answers when created without one.
_AURORA_STORAGE = {"aurora": 1, "aurora-iopt1": 1, "gp2": 1, "io1": 1, "standard": 1}
_MULTI_AZ_STORAGE = {"gp2": 20, "gp3": 20, "io1": 100, "io2": 100, "standard": 5}


@behaviour(
    BEHAVIOURS,
    "rds.cluster-storage-types",
    does="CreateDBCluster takes the storage types aurora and aurora-iopt1 for an Aurora "
    "cluster, io1, io2 and gp3 for a Multi-AZ DB cluster (moto: a server error for any "
    "but gp2, io1 and standard)",
    reference=_API + "API_CreateDBCluster.html",
    test=_TESTS + "test_rds_a_cluster_takes_the_aurora_storage_types",
    replaces={"moto.rds.models:DBCluster.default_allocated_storage": "0bbca6d016e52350"},
)
def _cluster_storage_types() -> None:
    from moto.rds.models import DBCluster

    before = original(DBCluster, "default_allocated_storage")

    def default_allocated_storage(engine: str, storage_type: str) -> int:
        if engine.startswith("aurora") and storage_type in _AURORA_STORAGE:
            return _AURORA_STORAGE[storage_type]
        if engine in ("mysql", "postgres") and storage_type in _MULTI_AZ_STORAGE:
            return _MULTI_AZ_STORAGE[storage_type]
        return int(before(engine, storage_type))

    patch(DBCluster, "default_allocated_storage", staticmethod(default_allocated_storage))


@behaviour(
    BEHAVIOURS,
    "rds.parameters-by-source",
    does="DescribeDBParameters answers a parameter a ModifyDBParameterGroup set with Source "
    "user and honours the Source filter (moto: no Source, the filter ignored)",
    reference=_API + "API_DescribeDBParameters.html",
    test=_TESTS + "test_rds_a_parameter_the_user_set_has_source_user",
    replaces={"moto.rds.responses:RDSResponse.describe_db_parameters": "996200ae6f674b7a"},
)
def _parameters_by_source() -> None:
    from moto.core.responses import ActionResult
    from moto.rds.responses import RDSResponse

    before = original(RDSResponse, "describe_db_parameters")

    def describe_db_parameters(self: Any) -> Any:
        answered = before(self)
        source = self.params.get("Source")
        # Every parameter moto keeps is one a modification set: the user's.
        parameters = [{"Source": "user", **p} for p in answered.result["Parameters"]]
        if source:
            parameters = [p for p in parameters if p["Source"] == source]
        return ActionResult({"Parameters": parameters})

    patch(RDSResponse, "describe_db_parameters", describe_db_parameters)


def _error(code: str, message: str) -> Exception:
    from moto.rds.exceptions import RDSClientError

    return RDSClientError(code, message)


class DBClusterEndpoint:
    """A custom endpoint of a cluster, as DescribeDBClusterEndpoints answers it."""

    def __init__(self, cluster: Any, identifier: str, kind: str, tags: list[Any]) -> None:
        self.db_cluster_endpoint_identifier = identifier.lower()
        self.db_cluster_identifier = cluster.db_cluster_identifier
        self.db_cluster_endpoint_resource_identifier = (
            "cluster-endpoint-"
            + (cluster.db_cluster_resource_id.removeprefix("cluster-").lower()[:26])
        )
        self.endpoint = (
            f"{self.db_cluster_endpoint_identifier}.cluster-custom-{cluster.url_identifier}."
            f"{cluster.region}.rds.amazonaws.com"
        )
        self.db_cluster_endpoint_arn = (
            f"arn:{cluster.partition}:rds:{cluster.region}:{cluster.account_id}:"
            f"cluster-endpoint:{self.db_cluster_endpoint_identifier}"
        )
        self.status = "available"
        self.endpoint_type = "CUSTOM"
        self.custom_endpoint_type = kind
        self.static_members: list[str] = []
        self.excluded_members: list[str] = []
        self.tags = list(tags)

    def get_tags(self) -> list[dict[str, str]]:
        return self.tags

    def add_tags(self, tags: list[dict[str, str]]) -> list[dict[str, str]]:
        keys = {t["Key"] for t in tags}
        self.tags = [t for t in self.tags if t["Key"] not in keys] + list(tags)
        return self.tags

    def remove_tags(self, tag_keys: list[str]) -> None:
        self.tags = [t for t in self.tags if t["Key"] not in tag_keys]

    def answer(self, status: str) -> dict[str, Any]:
        """The endpoint as an action on it answers, in ``status``."""
        return {
            "DBClusterEndpointIdentifier": self.db_cluster_endpoint_identifier,
            "DBClusterIdentifier": self.db_cluster_identifier,
            "DBClusterEndpointResourceIdentifier": self.db_cluster_endpoint_resource_identifier,
            "Endpoint": self.endpoint,
            "Status": status,
            "EndpointType": self.endpoint_type,
            "CustomEndpointType": self.custom_endpoint_type,
            "StaticMembers": self.static_members,
            "ExcludedMembers": self.excluded_members,
            "DBClusterEndpointArn": self.db_cluster_endpoint_arn,
        }


#: The types a custom endpoint may have.
CUSTOM_ENDPOINT_TYPES = ("READER", "WRITER", "ANY")


def _endpoint_type(kind: str | None) -> str:
    if (kind or "").upper() not in CUSTOM_ENDPOINT_TYPES:
        raise _error(
            "InvalidParameterValue",
            f"Invalid endpoint type {kind}: valid values are {', '.join(CUSTOM_ENDPOINT_TYPES)}",
        )
    return str(kind).upper()


class ClusterEndpointBackend:
    """A Region's custom cluster endpoints (an RDSBackend mixin)."""

    cluster_endpoints: Kept[DBClusterEndpoint] = Kept()

    def create_db_cluster_endpoint(
        self, cluster_id: str, identifier: str, kind: str, static: Any, excluded: Any, tags: Any
    ) -> DBClusterEndpoint:
        [cluster] = self.describe_db_clusters(cluster_id)  # type: ignore[attr-defined]
        if identifier.lower() in self.cluster_endpoints:
            raise _error(
                "DBClusterEndpointAlreadyExistsFault",
                f"DB cluster endpoint {identifier} already exists.",
            )
        endpoint = DBClusterEndpoint(cluster, identifier, _endpoint_type(kind), tags or [])
        endpoint.static_members = list(static or [])
        endpoint.excluded_members = list(excluded or [])
        self.cluster_endpoints[endpoint.db_cluster_endpoint_identifier] = endpoint
        return endpoint

    def get_db_cluster_endpoint(self, identifier: str) -> DBClusterEndpoint:
        found = self.cluster_endpoints.get((identifier or "").lower())
        if found is None:
            raise _error(
                "DBClusterEndpointNotFoundFault", f"DB cluster endpoint {identifier} not found."
            )
        return found

    def describe_db_cluster_endpoints(
        self, cluster_id: str | None, identifier: str | None
    ) -> list[dict[str, Any]]:
        answered: list[dict[str, Any]] = []
        if cluster_id and not identifier:
            [cluster] = self.describe_db_clusters(cluster_id)  # type: ignore[attr-defined]
            for kind, endpoint in (
                ("WRITER", cluster.endpoint),
                ("READER", cluster.reader_endpoint),
            ):
                answered.append({
                    "DBClusterIdentifier": cluster.db_cluster_identifier, "Endpoint": endpoint,
                    "Status": "available", "EndpointType": kind,
                })  # fmt: skip
        for endpoint in self.cluster_endpoints.values():
            if cluster_id and endpoint.db_cluster_identifier != cluster_id.lower():
                continue
            if identifier and endpoint.db_cluster_endpoint_identifier != identifier.lower():
                continue
            answered.append(endpoint.answer("available"))
        return answered

    def modify_db_cluster_endpoint(
        self, identifier: str, kind: str | None, static: Any, excluded: Any
    ) -> DBClusterEndpoint:
        endpoint = self.get_db_cluster_endpoint(identifier)
        if kind:
            endpoint.custom_endpoint_type = _endpoint_type(kind)
        if static is not None:
            endpoint.static_members = list(static)
        if excluded is not None:
            endpoint.excluded_members = list(excluded)
        return endpoint

    def delete_db_cluster_endpoint(self, identifier: str) -> DBClusterEndpoint:
        endpoint = self.get_db_cluster_endpoint(identifier)
        del self.cluster_endpoints[endpoint.db_cluster_endpoint_identifier]
        return endpoint


class ClusterEndpointResponse:
    """The cluster endpoint actions (an RDSResponse mixin)."""

    def create_db_cluster_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        endpoint = self.backend.create_db_cluster_endpoint(  # type: ignore[attr-defined]
            get("DBClusterIdentifier"), get("DBClusterEndpointIdentifier"), get("EndpointType"),
            get("StaticMembers"), get("ExcludedMembers"), get("Tags"),
        )  # fmt: skip
        return ActionResult(endpoint.answer("creating"))

    def describe_db_cluster_endpoints(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        found = self.backend.describe_db_cluster_endpoints(  # type: ignore[attr-defined]
            get("DBClusterIdentifier"), get("DBClusterEndpointIdentifier")
        )
        page, marker = one_page(found, get("Marker"), get("MaxRecords"))
        return ActionResult({"DBClusterEndpoints": page, "Marker": marker})

    def modify_db_cluster_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        endpoint = self.backend.modify_db_cluster_endpoint(  # type: ignore[attr-defined]
            get("DBClusterEndpointIdentifier"), get("EndpointType"), get("StaticMembers"),
            get("ExcludedMembers"),
        )  # fmt: skip
        return ActionResult(endpoint.answer("modifying"))

    def delete_db_cluster_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        identifier = self._get_param("DBClusterEndpointIdentifier")  # type: ignore[attr-defined]
        endpoint = self.backend.delete_db_cluster_endpoint(identifier)  # type: ignore[attr-defined]
        return ActionResult(endpoint.answer("deleting"))


@behaviour(
    BEHAVIOURS,
    "rds.cluster-endpoints",
    does="Create/Describe/Modify/DeleteDBClusterEndpoint(s): a cluster's custom endpoints "
    "(READER, WRITER or ANY, static or excluded members) tagged by their ARN, the cluster's "
    "own WRITER and READER endpoints when asked by cluster; "
    "DBClusterEndpointAlreadyExistsFault, DBClusterEndpointNotFoundFault (moto: none of "
    "these operations)",
    reference=_API + "API_CreateDBClusterEndpoint.html",
    test=_TESTS + "test_rds_a_clusters_custom_endpoints_are_kept",
    replaces={"moto.rds.models:RDSBackend._get_resource_for_tagging": "7ba7c2b7d1288d2a"},
)
def _cluster_endpoints() -> None:
    from moto.rds.models import RDSBackend
    from moto.rds.responses import RDSResponse

    graft(ClusterEndpointBackend, onto=RDSBackend)
    graft(ClusterEndpointResponse, onto=RDSResponse)
    before = original(RDSBackend, "_get_resource_for_tagging")

    def _get_resource_for_tagging(self: Any, arn: str) -> Any:
        head, _, identifier = arn.rpartition(":")
        if head.endswith(":cluster-endpoint"):
            return self.get_db_cluster_endpoint(identifier)
        return before(self, arn)

    patch(RDSBackend, "_get_resource_for_tagging", _get_resource_for_tagging)


#: RestoreDBClusterFromS3's members that name the backup, not the cluster it makes.
_S3_IMPORT = (
    "s3_bucket_name",
    "s3_prefix",
    "s3_ingestion_role_arn",
    "source_engine",
    "source_engine_version",
)


class S3ImportBackend:
    """Aurora MySQL clusters made from a MySQL backup in S3 (an RDSBackend mixin)."""

    def restore_db_cluster_from_s3(self, kwargs: dict[str, Any]) -> Any:
        from moto.s3.models import s3_backends

        bucket = kwargs.get("s3_bucket_name") or ""
        if bucket not in s3_backends[self.account_id]["global"].buckets:  # type: ignore[attr-defined]
            raise _error("InvalidS3BucketFault", f"S3 bucket {bucket} not found")
        asked = {k: v for k, v in kwargs.items() if k not in _S3_IMPORT}
        return self.create_db_cluster(asked)  # type: ignore[attr-defined]


class S3ImportResponse:
    """The RestoreDBClusterFromS3 action (an RDSResponse mixin)."""

    def restore_db_cluster_from_s3(self) -> Any:
        from moto.core.responses import ActionResult

        cluster = self.backend.restore_db_cluster_from_s3(dict(self.params))  # type: ignore[attr-defined]
        return ActionResult({"DBCluster": cluster})


@behaviour(
    BEHAVIOURS,
    "rds.restore-cluster-from-s3",
    does="RestoreDBClusterFromS3 makes a cluster as CreateDBCluster makes one, from the "
    "request's cluster members (the backup's bucket, prefix, role and source engine are "
    "not kept); InvalidS3BucketFault for a bucket that does not exist (moto: no such "
    "operation)",
    reference=_API + "API_RestoreDBClusterFromS3.html",
    test=_TESTS + "test_rds_restores_a_cluster_from_s3",
)
def _restore_cluster_from_s3() -> None:
    from moto.rds.models import RDSBackend
    from moto.rds.responses import RDSResponse

    graft(S3ImportBackend, onto=RDSBackend)
    graft(S3ImportResponse, onto=RDSResponse)


class DBProxyEndpoint:
    """An endpoint of a DB proxy, as DescribeDBProxyEndpoints answers it."""

    def __init__(self, proxy: Any, name: str, subnets: list[str], groups: list[str]) -> None:
        import random
        import string

        from moto.core.utils import utcnow

        self.db_proxy_endpoint_name = name
        self.db_proxy_name = proxy.db_proxy_name
        suffix = "".join(random.choices(string.ascii_lowercase + string.digits, k=17))
        self.db_proxy_endpoint_arn = (
            f"arn:{proxy.partition}:rds:{proxy.region}:{proxy.account_id}:"
            f"db-proxy-endpoint:prx-endpoint-{suffix}"
        )
        self.endpoint = (
            f"{name}.endpoint.proxy-{proxy.url_identifier}.{proxy.region}.rds.amazonaws.com"
        )
        self.vpc_id = proxy.vpc_id
        self.vpc_subnet_ids = list(subnets)
        self.vpc_security_group_ids = list(groups)
        self.target_role = "READ_WRITE"
        self.created_date = utcnow()
        self.tags: list[dict[str, str]] = []

    def answer(self, status: str) -> dict[str, Any]:
        return {
            "DBProxyEndpointName": self.db_proxy_endpoint_name,
            "DBProxyEndpointArn": self.db_proxy_endpoint_arn,
            "DBProxyName": self.db_proxy_name,
            "Status": status,
            "VpcId": self.vpc_id,
            "VpcSecurityGroupIds": self.vpc_security_group_ids,
            "VpcSubnetIds": self.vpc_subnet_ids,
            "Endpoint": self.endpoint,
            "CreatedDate": self.created_date,
            "TargetRole": self.target_role,
            "IsDefault": False,
        }

    # RDS tags by ARN (ListTagsForResource and its kin), as moto's models keep them.
    def get_tags(self) -> list[dict[str, str]]:
        return self.tags

    def add_tags(self, tags: list[dict[str, str]]) -> list[dict[str, str]]:
        given = {t["Key"]: t for t in tags}
        self.tags = [t for t in self.tags if t["Key"] not in given] + list(given.values())
        return self.tags

    def remove_tags(self, keys: list[str]) -> None:
        self.tags = [t for t in self.tags if t["Key"] not in keys]


def _default_proxy_endpoint(proxy: Any) -> dict[str, Any]:
    """The endpoint a proxy is made with: its own, read/write, named as the proxy."""
    return {
        "DBProxyEndpointName": proxy.db_proxy_name,
        "DBProxyEndpointArn": proxy.arn,
        "DBProxyName": proxy.db_proxy_name,
        "Status": proxy.status,
        "VpcId": proxy.vpc_id,
        "VpcSecurityGroupIds": proxy.vpc_security_group_ids,
        "VpcSubnetIds": proxy.vpc_subnet_ids,
        "Endpoint": proxy.endpoint,
        "CreatedDate": proxy.created_date,
        "TargetRole": "READ_WRITE",
        "IsDefault": True,
    }


class ProxyEndpointBackend:
    """A Region's DB proxy endpoints (an RDSBackend mixin)."""

    proxy_endpoints: Kept[DBProxyEndpoint] = Kept()

    def _proxy(self, name: str) -> Any:
        proxy = self.db_proxies.get(name)  # type: ignore[attr-defined]
        if proxy is None:
            raise _error("DBProxyNotFoundFault", f"The specified proxy name {name} doesn't exist.")
        return proxy

    def create_db_proxy_endpoint(
        self, proxy_name: str, name: str, subnets: Any, groups: Any, role: Any, tags: Any
    ) -> DBProxyEndpoint:
        from moto.ec2.models import ec2_backends

        proxy = self._proxy(proxy_name)
        taken = name in self.proxy_endpoints or name in self.db_proxies  # type: ignore[attr-defined]
        if taken:
            raise _error(
                "DBProxyEndpointAlreadyExistsFault",
                f"The specified DB proxy endpoint name {name} must be unique.",
            )
        ec2 = ec2_backends[self.account_id][self.region_name]  # type: ignore[attr-defined]
        found = ec2.describe_subnets(subnet_ids=list(subnets or []))
        default = ec2.get_default_security_group(found[0].vpc_id)
        if not groups and default is not None:
            groups = [default.id]
        endpoint = DBProxyEndpoint(proxy, name, list(subnets or []), list(groups))
        endpoint.vpc_id = found[0].vpc_id
        endpoint.target_role = role or "READ_WRITE"
        endpoint.tags = list(tags or [])
        self.proxy_endpoints[name] = endpoint
        return endpoint

    def get_db_proxy_endpoint(self, name: str) -> DBProxyEndpoint:
        found = self.proxy_endpoints.get(name or "")
        if found is None:
            raise _error(
                "DBProxyEndpointNotFoundFault", f"The DB proxy endpoint {name} doesn't exist."
            )
        return found

    def describe_db_proxy_endpoints(
        self, proxy_name: str | None, name: str | None
    ) -> list[dict[str, Any]]:
        answered: list[dict[str, Any]] = []
        if proxy_name:
            proxy = self._proxy(proxy_name)
            if not name or name == proxy_name:
                answered.append(_default_proxy_endpoint(proxy))
        for endpoint in self.proxy_endpoints.values():
            if proxy_name and endpoint.db_proxy_name != proxy_name:
                continue
            if name and endpoint.db_proxy_endpoint_name != name:
                continue
            answered.append(endpoint.answer("available"))
        if name and not answered:
            self.get_db_proxy_endpoint(name)
        return answered

    def modify_db_proxy_endpoint(
        self, name: str, new_name: str | None, groups: Any
    ) -> DBProxyEndpoint:
        endpoint = self.get_db_proxy_endpoint(name)
        if new_name and new_name != name:
            if new_name in self.proxy_endpoints:
                raise _error(
                    "DBProxyEndpointAlreadyExistsFault",
                    f"The specified DB proxy endpoint name {new_name} must be unique.",
                )
            del self.proxy_endpoints[name]
            proxy = self._proxy(endpoint.db_proxy_name)
            endpoint.db_proxy_endpoint_name = new_name
            endpoint.endpoint = (
                f"{new_name}.endpoint.proxy-{proxy.url_identifier}.{proxy.region}.rds.amazonaws.com"
            )
            self.proxy_endpoints[new_name] = endpoint
        if groups:
            endpoint.vpc_security_group_ids = list(groups)
        return endpoint

    def delete_db_proxy_endpoint(self, name: str) -> DBProxyEndpoint:
        endpoint = self.get_db_proxy_endpoint(name)
        del self.proxy_endpoints[name]
        return endpoint


class ProxyEndpointResponse:
    """The DB proxy endpoint actions (an RDSResponse mixin)."""

    def create_db_proxy_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        endpoint = self.backend.create_db_proxy_endpoint(  # type: ignore[attr-defined]
            get("DBProxyName"), get("DBProxyEndpointName"), get("VpcSubnetIds"),
            get("VpcSecurityGroupIds"), get("TargetRole"), get("Tags"),
        )  # fmt: skip
        return ActionResult({"DBProxyEndpoint": endpoint.answer("creating")})

    def describe_db_proxy_endpoints(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        found = self.backend.describe_db_proxy_endpoints(  # type: ignore[attr-defined]
            get("DBProxyName"), get("DBProxyEndpointName")
        )
        page, marker = one_page(found, get("Marker"), get("MaxRecords"))
        return ActionResult({"DBProxyEndpoints": page, "Marker": marker})

    def modify_db_proxy_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        endpoint = self.backend.modify_db_proxy_endpoint(  # type: ignore[attr-defined]
            get("DBProxyEndpointName"), get("NewDBProxyEndpointName"), get("VpcSecurityGroupIds")
        )
        return ActionResult({"DBProxyEndpoint": endpoint.answer("modifying")})

    def delete_db_proxy_endpoint(self) -> Any:
        from moto.core.responses import ActionResult

        name = self._get_param("DBProxyEndpointName")  # type: ignore[attr-defined]
        endpoint = self.backend.delete_db_proxy_endpoint(name)  # type: ignore[attr-defined]
        return ActionResult({"DBProxyEndpoint": endpoint.answer("deleting")})


@behaviour(
    BEHAVIOURS,
    "rds.proxy-endpoints",
    does="Create/Describe/Modify/DeleteDBProxyEndpoint(s): a DB proxy's extra endpoints "
    "(READ_WRITE unless READ_ONLY, in the proxy's VPC, the VPC's default security group "
    "unless given) at <name>.endpoint.proxy-<the proxy's>, tagged by their ARN; asked by "
    "proxy, its default endpoint too; DBProxyNotFoundFault, "
    "DBProxyEndpointAlreadyExistsFault, DBProxyEndpointNotFoundFault (moto: none of these "
    "operations)",
    reference=_API + "API_CreateDBProxyEndpoint.html",
    test=_TESTS + "test_rds_a_proxys_endpoints_are_kept",
    replaces={"moto.rds.models:RDSBackend._get_resource_for_tagging": "7ba7c2b7d1288d2a"},
)
def _proxy_endpoints() -> None:
    from moto.rds.models import RDSBackend
    from moto.rds.responses import RDSResponse

    graft(ProxyEndpointBackend, onto=RDSBackend)
    graft(ProxyEndpointResponse, onto=RDSResponse)
    before = original(RDSBackend, "_get_resource_for_tagging")

    def _get_resource_for_tagging(self: Any, arn: str) -> Any:
        if arn.rpartition(":")[0].endswith(":db-proxy-endpoint"):
            for endpoint in self.proxy_endpoints.values():
                if endpoint.db_proxy_endpoint_arn == arn:
                    return endpoint
            raise _error(
                "DBProxyEndpointNotFoundFault", f"The DB proxy endpoint {arn} doesn't exist."
            )
        return before(self, arn)

    patch(RDSBackend, "_get_resource_for_tagging", _get_resource_for_tagging)
