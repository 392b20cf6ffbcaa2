"""DynamoDB: a table's and its global secondary indexes' on-demand throughput.

``CreateTable`` and ``UpdateTable`` take ``OnDemandThroughput`` (the maximum
read and write request units of an on-demand table, and of each global
secondary index in ``GlobalSecondaryIndexes``/``GlobalSecondaryIndexUpdates``)
and ``DescribeTable`` returns it (DynamoDB API reference, OnDemandThroughput:
https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html).
moto 5.2 drops it.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


def _index_throughput(table: Any, indexes: list[dict[str, Any]]) -> None:
    for index in indexes:
        throughput = index.get("OnDemandThroughput")
        if throughput:
            table.converge_index_throughput[index["IndexName"]] = throughput


@behaviour(
    BEHAVIOURS,
    "dynamodb.on-demand-throughput",
    does="CreateTable and UpdateTable keep OnDemandThroughput (the table's and each global "
    "secondary index's), and DescribeTable returns it",
    reference="https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/"
    "API_OnDemandThroughput.html",
    test="tests/integration/test_fidelity_services.py::test_dynamodb_keeps_on_demand_throughput",
    replaces={
        "moto.dynamodb.responses:DynamoHandler.create_table": "f55498d4178c6d88",
        "moto.dynamodb.responses:DynamoHandler.update_table": "b786d1626f12f96d",
        "moto.dynamodb.models.table:Table.describe": "5f29f6e79d11a506",
    },
)
def _on_demand_throughput() -> None:
    from moto.dynamodb.models.table import Table
    from moto.dynamodb.responses import DynamoHandler

    if hasattr(Table, "on_demand_throughput"):
        raise RuntimeError("moto's Table already has on_demand_throughput: re-check")
    patch(Table, "on_demand_throughput", None)
    patch(Table, "converge_index_throughput", None)
    create = original(DynamoHandler, "create_table")
    update = original(DynamoHandler, "update_table")
    describe = original(Table, "describe")

    def create_table(self: Any) -> Any:
        result = create(self)
        table = self.dynamodb_backend.get_table(self.body["TableName"])
        table.on_demand_throughput = self.body.get("OnDemandThroughput")
        table.converge_index_throughput = {}
        _index_throughput(table, self.body.get("GlobalSecondaryIndexes") or [])
        return result

    def update_table(self: Any) -> Any:
        result = update(self)
        table = self.dynamodb_backend.get_table(self.body["TableName"])
        if self.body.get("OnDemandThroughput"):
            table.on_demand_throughput = self.body["OnDemandThroughput"]
        if table.converge_index_throughput is None:
            table.converge_index_throughput = {}
        for change in self.body.get("GlobalSecondaryIndexUpdates") or []:
            for action in ("Create", "Update"):
                if action in change:
                    _index_throughput(table, [change[action]])
        return result

    def describe_table(self: Any, base_key: str = "TableDescription") -> dict[str, Any]:
        described = describe(self, base_key)
        body = described[base_key]
        if self.on_demand_throughput:
            body["OnDemandThroughput"] = self.on_demand_throughput
        for index in body.get("GlobalSecondaryIndexes") or []:
            throughput = (self.converge_index_throughput or {}).get(index.get("IndexName"))
            if throughput:
                index["OnDemandThroughput"] = throughput
        return described

    patch(DynamoHandler, "create_table", create_table)
    patch(DynamoHandler, "update_table", update_table)
    patch(Table, "describe", describe_table)
