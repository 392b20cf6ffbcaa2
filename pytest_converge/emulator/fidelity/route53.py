"""Route 53: a hosted zone created with a VPC is private.

Following the Route 53 API reference for ``CreateHostedZone``
(https://docs.aws.amazon.com/Route53/latest/APIReference/API_CreateHostedZone.html):
``VPC`` is given for private hosted zones only, and a zone created with one is
private; ``HostedZoneConfig.PrivateZone`` is not read by this action. moto 5.2
makes a zone private only when ``PrivateZone`` is true, so the zone the aws
provider creates for a ``vpc`` block (it never sends ``PrivateZone``) is public,
with no VPC, and the provider's next call, associating a second VPC, is refused
("PublicZoneVPCAssociation").
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "route53.vpc-makes-a-private-zone",
    does="CreateHostedZone with a VPC creates a private hosted zone associated with it, "
    "whether HostedZoneConfig.PrivateZone is given or not",
    reference="https://docs.aws.amazon.com/Route53/latest/APIReference/API_CreateHostedZone.html",
    test="tests/integration/test_fidelity_services.py::test_route53_a_zone_created_with_a_vpc_is_private",
    replaces={"moto.route53.responses:Route53.create_hosted_zone": "ede5e2fceab76352"},
)
def _vpc_makes_a_private_zone() -> None:
    from moto.route53.responses import Route53

    create_hosted_zone = original(Route53, "create_hosted_zone")

    def create_private_with_vpc(self: Any) -> Any:
        if self._get_param("VPC.VPCId") and isinstance(self.params, dict):
            config = self.params.setdefault("HostedZoneConfig", {})
            config["PrivateZone"] = True
        return create_hosted_zone(self)

    patch(Route53, "create_hosted_zone", create_private_with_vpc)
