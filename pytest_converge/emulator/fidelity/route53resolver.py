"""Route 53 Resolver: an endpoint keeps its protocols and its IP address type.

Following the Route 53 Resolver API reference for ``CreateResolverEndpoint`` and
``UpdateResolverEndpoint``
(https://docs.aws.amazon.com/Route53/latest/APIReference/API_route53resolver_CreateResolverEndpoint.html):
``Protocols`` (``Do53`` unless given) and ``ResolverEndpointType`` (``IPV4`` unless
given) are kept and answered. moto 5.2 keeps neither, so an
``aws_route53_resolver_endpoint`` read back no protocols and no type, and planned
both back on every run.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []

_DEFAULTS = {"Protocols": ["Do53"], "ResolverEndpointType": "IPV4"}


@behaviour(
    BEHAVIOURS,
    "route53resolver.endpoint-protocols",
    does="Create/UpdateResolverEndpoint keep Protocols (Do53 unless given) and "
    "ResolverEndpointType (IPV4 unless given), and every answer describing the endpoint "
    "has them (moto: neither)",
    reference="https://docs.aws.amazon.com/Route53/latest/APIReference/"
    "API_route53resolver_CreateResolverEndpoint.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_a_resolver_endpoint_keeps_its_protocols",
    replaces={
        "moto.route53resolver.responses:Route53ResolverResponse.create_resolver_endpoint": (
            "6b023cba3f2fd6a0"
        ),
        "moto.route53resolver.responses:Route53ResolverResponse.update_resolver_endpoint": (
            "4ffc85686d7dc26c"
        ),
        "moto.route53resolver.models:ResolverEndpoint.description": "ac10758f94be40a8",
    },
)
def _endpoint_protocols() -> None:
    from moto.route53resolver.models import ResolverEndpoint
    from moto.route53resolver.responses import Route53ResolverResponse

    described = original(ResolverEndpoint, "description")

    def description(self: Any) -> dict[str, Any]:
        return {**described(self), **_DEFAULTS, **getattr(self, "converge_settings", {})}

    def keeping(action: Any) -> Any:
        def kept(self: Any) -> str:
            answer = action(self)
            endpoint_id = json.loads(answer)["ResolverEndpoint"]["Id"]
            endpoint = self.route53resolver_backend.resolver_endpoints[endpoint_id]
            settings = dict(getattr(endpoint, "converge_settings", {}))
            settings.update(
                {name: self._get_param(name) for name in _DEFAULTS if self._get_param(name)}
            )
            endpoint.converge_settings = settings
            return json.dumps({"ResolverEndpoint": endpoint.description()})

        kept.__name__ = action.__name__
        return kept

    patch(ResolverEndpoint, "description", description)
    for name in ("create_resolver_endpoint", "update_resolver_endpoint"):
        patch(Route53ResolverResponse, name, keeping(original(Route53ResolverResponse, name)))
