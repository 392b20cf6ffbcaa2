"""Amazon MSK: a new cluster becomes active.

Following the Amazon MSK API reference
(https://docs.aws.amazon.com/msk/1.0/apireference/):

- ``CreateCluster`` / ``CreateClusterV2`` answer ``CREATING``; the cluster is ``ACTIVE``
  once it is ready, which ``DescribeCluster``, ``DescribeClusterV2``, ``ListClusters`` and
  ``ListClustersV2`` then answer (the ``State`` of ClusterInfo and Cluster). moto 5.2
  keeps every cluster ``CREATING`` for ever, so the provider's wait for an
  ``aws_msk_cluster`` or ``aws_msk_serverless_cluster`` never ended (the stall watch cut
  it: terraform-aws-modules/msk-kafka-cluster v2.13.1 ``serverless``). Here a cluster
  is ready when it is first described or listed after its create.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/msk/1.0/apireference/"


def _ready(backend: Any) -> None:
    for cluster in backend.clusters.values():
        if cluster.state == "CREATING":
            cluster.state = "ACTIVE"


@behaviour(
    BEHAVIOURS,
    "kafka.cluster-active",
    does="A new MSK cluster (provisioned or serverless) answers CREATING to its create and "
    "ACTIVE to DescribeCluster(V2) and ListClusters(V2) after it (moto: CREATING for ever, "
    "so the provider's wait for the cluster never ended)",
    reference=_API + "clusters-clusterarn.html",
    test="tests/integration/test_fidelity_services.py::test_kafka_a_new_cluster_becomes_active",
    replaces={
        "moto.kafka.models:KafkaBackend.describe_cluster_v2": "9c96ca6a309ab167",
        "moto.kafka.models:KafkaBackend.describe_cluster": "20cee6c8366cb339",
        "moto.kafka.models:KafkaBackend.list_clusters": "b17bec6bbd2ea7af",
        "moto.kafka.models:KafkaBackend.list_clusters_v2": "2083274662201eb7",
    },
)
def _cluster_active() -> None:
    from moto.kafka.models import KafkaBackend

    for name in ("describe_cluster_v2", "describe_cluster", "list_clusters", "list_clusters_v2"):
        before = original(KafkaBackend, name)

        def answer(self: Any, *args: Any, _before: Any = before, **kwargs: Any) -> Any:
            _ready(self)
            return _before(self, *args, **kwargs)

        patch(KafkaBackend, name, answer)
