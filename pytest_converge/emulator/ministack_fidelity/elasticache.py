"""ElastiCache behaviours of the MiniStack layer (Amazon ElastiCache API Reference)."""

from __future__ import annotations

import re
from typing import Any

from . import core

BEHAVIOURS: list[core.Behaviour] = []

#: One ``<Parameter>`` of MiniStack's DescribeCacheParameters answer, and its source.
_PARAMETER = re.compile(rb"<Parameter>.*?</Parameter>", re.S)
_SOURCE = re.compile(rb"<Source>([^<]*)</Source>")


@core.behaviour(
    BEHAVIOURS,
    "elasticache.parameters-by-source",
    does="DescribeCacheParameters given a Source answers only the parameters of that source "
    "(user: those set with ModifyCacheParameterGroup); MiniStack answered every parameter "
    "of the family, so each default read back as a parameter the module never set",
    reference="https://docs.aws.amazon.com/AmazonElastiCache/latest/APIReference/"
    "API_DescribeCacheParameters.html",
    test="tests/integration/test_ministack_backend.py::test_cache_parameter_group_converges",
    replaces={"ministack.services.elasticache:_describe_cache_parameters": "e8a950c558277e4b"},
)
def parameters_by_source() -> None:
    from ministack.services import elasticache

    described = core.original(elasticache, "_describe_cache_parameters")

    def _describe_cache_parameters(params: Any) -> Any:
        status, headers, body = described(params)
        source = elasticache._p(params, "Source")
        if status != 200 or not source:
            return status, headers, body

        def kept(found: re.Match[bytes]) -> bytes:
            said = _SOURCE.search(found.group(0))
            return found.group(0) if said and said.group(1).decode() == source else b""

        return status, headers, _PARAMETER.sub(kept, body)

    core.patch(elasticache, "_describe_cache_parameters", _describe_cache_parameters)
