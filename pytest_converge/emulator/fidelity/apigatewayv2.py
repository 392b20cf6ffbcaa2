"""API Gateway v2: a route key is one route of its API.

Following the Amazon API Gateway v2 API reference
(https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/apis-apiid-routes.html):
``CreateRoute`` with a ``RouteKey`` its API already has a route for fails with
``ConflictException`` (409) and leaves that route as it was. moto 5.2 made a second
route under the same key, so a retried or re-run create after a fault at it left a
duplicate where AWS fails the create (terraform-aws-modules/apigateway-v2 v5.5.0).
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/apigatewayv2/latest/api-reference/"
_TESTS = "tests/integration/test_fidelity_services.py::"


def _conflict(route_key: str) -> Exception:
    from moto.apigatewayv2.exceptions import APIGatewayV2Error

    error = APIGatewayV2Error(
        "ConflictException", f"Route with key {route_key} already exists for this API"
    )
    error.code = 409
    return error


@behaviour(
    BEHAVIOURS,
    "apigatewayv2.route-key-unique",
    does="CreateRoute with a RouteKey its API already has a route for fails with "
    "ConflictException (409), the existing route unchanged",
    reference=_API + "apis-apiid-routes.html",
    test=_TESTS + "test_apigatewayv2_a_route_key_is_one_route",
    replaces={"moto.apigatewayv2.models:ApiGatewayV2Backend.create_route": "e3f21f154292cdca"},
)
def _route_key_unique() -> None:
    from moto.apigatewayv2.models import ApiGatewayV2Backend

    create = original(ApiGatewayV2Backend, "create_route")

    def create_route(self: Any, *args: Any, **kwargs: Any) -> Any:
        api = self.get_api(kwargs["api_id"] if "api_id" in kwargs else args[0])
        key = kwargs.get("route_key")
        if key is not None and any(r.route_key == key for r in api.routes.values()):
            raise _conflict(key)
        return create(self, *args, **kwargs)

    patch(ApiGatewayV2Backend, "create_route", create_route)
