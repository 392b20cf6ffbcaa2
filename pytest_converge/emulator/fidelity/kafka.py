"""Amazon MSK: a new cluster becomes active; its bootstrap brokers.

Following the Amazon MSK API reference
(https://docs.aws.amazon.com/msk/1.0/apireference/):

- ``CreateCluster`` / ``CreateClusterV2`` answer ``CREATING``; the cluster is ``ACTIVE``
  once it is ready, which ``DescribeCluster``, ``DescribeClusterV2``, ``ListClusters`` and
  ``ListClustersV2`` then answer (the ``State`` of ClusterInfo and Cluster). moto 5.2
  keeps every cluster ``CREATING`` for ever, so the provider's wait for an
  ``aws_msk_cluster`` or ``aws_msk_serverless_cluster`` never ended (the stall watch cut
  it: terraform-aws-modules/msk-kafka-cluster v2.13.1 ``serverless``). Here a cluster
  is ready when it is first described or listed after its create.
- ``DescribeCluster`` / ``DescribeClusterV2``: ``CurrentBrokerSoftwareInfo`` names a
  configuration (``ConfigurationArn``, ``ConfigurationRevision``) only when the cluster
  was given one; moto 5.2 answers ``"string"`` and revision 1 for every cluster, which
  the provider read as an ``aws_msk_cluster``'s ``configuration_info`` and planned to
  remove on every run (a permanent diff blamed on the module).
- ``GetBootstrapBrokers``: the broker strings a client connects with, one per way of
  connecting the cluster allows (``BootstrapBrokerString`` for plaintext,
  ``...Tls``, ``...SaslScram``, ``...SaslIam``; a serverless cluster: IAM on port
  9098), ``NotFoundException`` for an unknown cluster. moto 5.2 lacks it, so every
  MSK cluster's create ended there (the provider reads them after the wait).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from . import Behaviour, behaviour, graft, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/msk/1.0/apireference/"


def _ready(backend: Any) -> None:
    for cluster in backend.clusters.values():
        if cluster.state == "CREATING":
            cluster.state = "ACTIVE"


def _own_configuration(backend: Any, answer: Any) -> Any:
    """``answer`` (a described cluster) without moto's placeholder configuration when the
    cluster has none of its own."""
    if not isinstance(answer, dict):
        return answer
    cluster = backend.clusters.get(answer.get("clusterArn"))
    if cluster is None or cluster.configuration_info:
        return answer
    for info in (answer, answer.get("provisioned") or {}):
        software = info.get("currentBrokerSoftwareInfo")
        if isinstance(software, dict):
            software.pop("configurationArn", None)
            software.pop("configurationRevision", None)
    return answer


@behaviour(
    BEHAVIOURS,
    "kafka.describe-cluster",
    does="A new MSK cluster (provisioned or serverless) answers CREATING to its create and "
    "ACTIVE to DescribeCluster(V2) and ListClusters(V2) after it, and names a configuration "
    "in CurrentBrokerSoftwareInfo only when it was given one (moto: CREATING for ever, so "
    'the provider\'s wait never ended; configuration "string" revision 1 for every cluster)',
    reference=_API + "clusters-clusterarn.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_kafka_a_described_cluster_is_active_with_only_its_own_configuration",
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
            return _own_configuration(self, _before(self, *args, **kwargs))

        patch(KafkaBackend, name, answer)


#: Ports of an MSK cluster's brokers by way of connecting (the MSK developer guide's
#: "Port information").
_PORTS = {"": 9092, "Tls": 9094, "SaslScram": 9096, "SaslIam": 9098}


def bootstrap_brokers(cluster: Any, region: str) -> dict[str, str]:
    """GetBootstrapBrokers' answer for ``cluster`` (its wire names): a string per way it
    accepts clients."""
    name = cluster.cluster_name
    if cluster.cluster_type == "SERVERLESS":
        host = f"boot-{name[:8].lower()}.c1.kafka-serverless.{region}.amazonaws.com"
        return {"bootstrapBrokerStringSaslIam": f"{host}:{_PORTS['SaslIam']}"}
    auth = cluster.client_authentication or {}
    sasl = auth.get("sasl") or {}
    in_transit = ((cluster.encryption_info or {}).get("encryptionInTransit") or {}).get(
        "clientBroker", "TLS"
    )
    ways = []
    if in_transit in ("PLAINTEXT", "TLS_PLAINTEXT"):
        ways.append("")
    if in_transit in ("TLS", "TLS_PLAINTEXT"):
        ways.append("Tls")
    if (sasl.get("scram") or {}).get("enabled"):
        ways.append("SaslScram")
    if (sasl.get("iam") or {}).get("enabled"):
        ways.append("SaslIam")
    count = int(cluster.number_of_broker_nodes or 1)
    found = {}
    for way in ways:
        hosts = [
            f"b-{n}.{name.lower()}.abc123.c1.kafka.{region}.amazonaws.com:{_PORTS[way]}"
            for n in range(1, count + 1)
        ]
        found[f"bootstrapBrokerString{way}"] = ",".join(hosts)
    return found


class BootstrapBrokersResponse:
    """GetBootstrapBrokers (a KafkaResponse mixin)."""

    def get_bootstrap_brokers(self) -> str:
        from moto.kafka.exceptions import NotFoundException

        path = self.parsed_url.path  # type: ignore[attr-defined]
        arn = unquote(path.split("/clusters/", 1)[-1].rsplit("/bootstrap-brokers", 1)[0])
        backend = self.kafka_backend  # type: ignore[attr-defined]
        cluster = backend.clusters.get(arn)
        if cluster is None:
            raise NotFoundException(f"Cluster {arn} does not exist.")
        return json.dumps(bootstrap_brokers(cluster, backend.region_name))


@behaviour(
    BEHAVIOURS,
    "kafka.bootstrap-brokers",
    does="GetBootstrapBrokers answers a cluster's broker strings, one per way of connecting "
    "it allows (plaintext, TLS, SASL/SCRAM, IAM; IAM only for a serverless cluster); "
    "NotFoundException for an unknown cluster (moto: no such operation)",
    reference=_API + "clusters-clusterarn-bootstrap-brokers.html",
    test="tests/integration/test_fidelity_services.py::test_kafka_a_clusters_bootstrap_brokers",
)
def _bootstrap_brokers() -> None:
    from moto.kafka.responses import KafkaResponse

    graft(BootstrapBrokersResponse, onto=KafkaResponse)
