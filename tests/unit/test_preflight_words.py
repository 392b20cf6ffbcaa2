"""The pre-flight's line, as a user reads it before the apply (plain data)."""

from __future__ import annotations

from pytest_converge.analysis.preflight import Phase, Preflight, Unservable


def test_the_pre_flight_names_each_resource_and_operation() -> None:
    found = Preflight(
        (
            Unservable(
                "aws_elasticache_parameter_group.this",
                "aws_elasticache_parameter_group",
                "elasticache",
                "CreateCacheParameterGroup",
                Phase.CREATE,
            ),
        )
    )
    assert found.words("moto") == (
        "moto cannot serve aws_elasticache_parameter_group.this "
        "(elasticache:CreateCacheParameterGroup)"
    )
    assert found.addresses == {"aws_elasticache_parameter_group.this"}
    assert Preflight().words("moto") == "moto serves every part"
