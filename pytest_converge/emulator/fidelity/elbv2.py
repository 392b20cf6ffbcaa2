"""Elastic Load Balancing v2: one listener per port of a load balancer; a subnet
mapping's addresses.

A load balancer has at most one listener on a port. ``CreateListener`` is
idempotent: asked again with the same settings it answers the listener that
exists; with other settings on a taken port it fails with ``DuplicateListener``
(Elastic Load Balancing API reference, CreateListener:
https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_CreateListener.html).
moto 5.2 looks the port up among the balancer's listeners keyed by ARN, never
finds it and makes a second listener on the port: a create retried after a
crash or a lost response left a duplicate AWS never makes.

A subnet mapping (``CreateLoadBalancer`` and ``SetSubnets`` ``SubnetMappings``) gives a
Network Load Balancer's node in that subnet an Elastic IP (``AllocationId``), a private
IPv4 address or an IPv6 address, and ``DescribeLoadBalancers`` answers them in the
zone's ``LoadBalancerAddresses`` (API reference, SubnetMapping and AvailabilityZone).
moto 5.2 keeps the subnet only, so an ``aws_lb`` with ``subnet_mapping { allocation_id }``
read back without its Elastic IPs and was replaced on every plan.
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


#: A subnet mapping's members that become the zone's load balancer address.
_ADDRESS_MEMBERS = ("AllocationId", "PrivateIPv4Address", "IPv6Address")


def _addresses(balancer: Any) -> dict[str, dict[str, str]]:
    """subnet id -> the address its mapping gave (kept on the balancer)."""
    found: dict[str, dict[str, str]] | None = vars(balancer).get("_converge_addresses")
    if found is None:
        found = vars(balancer)["_converge_addresses"] = {}
    return found


def _keep_addresses(balancer: Any, mappings: Any, replace: bool) -> None:
    kept = _addresses(balancer)
    if replace:
        kept.clear()
    for mapping in mappings or []:
        address = {k: str(mapping[k]) for k in _ADDRESS_MEMBERS if mapping.get(k)}
        if address and mapping.get("SubnetId"):
            kept[mapping["SubnetId"]] = address


@behaviour(
    BEHAVIOURS,
    "elbv2.subnet-mapping-addresses",
    does="CreateLoadBalancer and SetSubnets keep each subnet mapping's AllocationId, "
    "PrivateIPv4Address and IPv6Address, and DescribeLoadBalancers answers them in the "
    "zone's LoadBalancerAddresses (moto: the subnet only, so an NLB's Elastic IPs read "
    "back empty and the balancer was replaced on every plan)",
    reference="https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/"
    "API_SubnetMapping.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_elbv2_a_subnet_mappings_elastic_ip_is_kept",
    replaces={
        "moto.elbv2.models:ELBv2Backend.create_load_balancer": "dd53c4e98de08f7a",
        "moto.elbv2.models:ELBv2Backend.set_subnets": "f8740fed02e3cf1a",
        "moto.elbv2.models:FakeLoadBalancer.availability_zones": "bcf37bc233a071b8",
    },
)
def _subnet_mapping_addresses() -> None:
    from moto.elbv2.models import AvailabilityZone, ELBv2Backend, FakeLoadBalancer

    create = original(ELBv2Backend, "create_load_balancer")
    parameters = inspect.signature(create)
    set_subnets = original(ELBv2Backend, "set_subnets")

    def create_load_balancer(self: Any, *args: Any, **given: Any) -> Any:
        balancer = create(self, *args, **given)
        mappings = parameters.bind(self, *args, **given).arguments.get("subnet_mappings")
        _keep_addresses(balancer, mappings, replace=True)
        return balancer

    def set_subnets_kept(self: Any, arn: str, subnets: Any, subnet_mappings: Any) -> Any:
        zones = set_subnets(self, arn, subnets, subnet_mappings)
        balancer = self.load_balancers.get(arn)
        _keep_addresses(balancer, subnet_mappings, replace=True)
        return [_zone(balancer, zone.subnet_id, zone) for zone in zones]

    def _zone(balancer: Any, subnet_id: str, zone: Any) -> Any:
        address = _addresses(balancer).get(subnet_id)
        if address:
            zone.load_balancer_addresses = [dict(address)]
        return zone

    def availability_zones(self: Any) -> list[Any]:
        return [_zone(self, subnet.id, AvailabilityZone(subnet)) for subnet in self.subnets]

    patch(ELBv2Backend, "create_load_balancer", create_load_balancer)
    patch(ELBv2Backend, "set_subnets", set_subnets_kept)
    patch(FakeLoadBalancer, "availability_zones", property(availability_zones))
