"""Elastic Load Balancing v2: one listener per port of a load balancer.

A load balancer has at most one listener on a port. ``CreateListener`` is
idempotent: asked again with the same settings it answers the listener that
exists; with other settings on a taken port it fails with ``DuplicateListener``
(Elastic Load Balancing API reference, CreateListener:
https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_CreateListener.html).
moto 5.2 looks the port up among the balancer's listeners keyed by ARN, never
finds it and makes a second listener on the port: a create retried after a
crash or a lost response left a duplicate AWS never makes.
"""

from __future__ import annotations

import inspect
from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


def _settings(protocol: Any, ssl_policy: Any, certificates: Any, actions: Any) -> tuple[Any, ...]:
    """What CreateListener's idempotency compares: protocol, TLS and default actions."""
    return ((protocol or "").upper(), ssl_policy, list(certificates), list(actions))


@behaviour(
    BEHAVIOURS,
    "elbv2.listener-per-port",
    does="CreateListener on a port the load balancer already listens on answers that "
    "listener when the settings are the same, and fails with DuplicateListener when they "
    "differ (moto: a second listener on the port)",
    reference="https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/"
    "API_CreateListener.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_elbv2_a_load_balancer_has_one_listener_per_port",
    replaces={"moto.elbv2.models:ELBv2Backend.create_listener": "51a390befda92513"},
)
def _listener_per_port() -> None:
    from moto.elbv2.exceptions import DuplicateListenerError
    from moto.elbv2.models import ELBv2Backend, FakeAction

    create = original(ELBv2Backend, "create_listener")
    # Its parameters by name, however it is called (moto's CloudFormation passes them
    # by position, its API by keyword).
    parameters = inspect.signature(create)

    def create_listener(self: Any, *args: Any, **given: Any) -> Any:
        kwargs = parameters.bind(self, *args, **given).arguments
        balancer = self.load_balancers.get(kwargs.get("load_balancer_arn"))
        port = str(kwargs.get("port"))
        taken = [
            listener
            for listener in (balancer.listeners.values() if balancer is not None else [])
            if str(listener.port) == port
        ]
        if not taken:
            return create(self, *args, **given)
        [listener] = taken[:1]
        certificate = kwargs.get("certificate")
        asked = _settings(
            kwargs.get("protocol"),
            kwargs.get("ssl_policy"),
            [certificate] if certificate is not None else [],
            # As moto keeps them: its defaults filled in (a forward's stickiness, weights).
            [FakeAction(dict(action)).data for action in kwargs.get("actions") or []],
        )
        kept = _settings(
            listener.protocol,
            listener.ssl_policy,
            listener.certificates,
            [action.data for action in listener.default_actions],
        )
        if asked == kept:
            return listener
        raise DuplicateListenerError()

    patch(ELBv2Backend, "create_listener", create_listener)
