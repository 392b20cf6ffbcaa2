"""RDS: a cluster's settings and scaling configuration.

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
- ``DescribeDBClusters``: ``ScalingConfigurationInfo`` is answered for a
  serverless v1 cluster (``EngineMode`` ``serverless``) only; moto 5.2 answers
  an empty one for every cluster, read as a scaling configuration of nothing
  that the next apply removes.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

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
    "unless given) (moto: none kept at creation; a modification's "
    "EnablePerformanceInsights never answered)",
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
