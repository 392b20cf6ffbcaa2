"""Route 53: a hosted zone created with a VPC is private; CIDR collections; VPC
association authorizations.

Each behaviour follows the Route 53 API reference
(https://docs.aws.amazon.com/Route53/latest/APIReference/):

- ``CreateHostedZone``: ``VPC`` is given for private hosted zones only, and a
  zone created with one is private; ``HostedZoneConfig.PrivateZone`` is not read
  by this action. moto 5.2 makes a zone private only when ``PrivateZone`` is
  true, so the zone the aws provider creates for a ``vpc`` block (it never sends
  ``PrivateZone``) is public, with no VPC, and the provider's next call,
  associating a second VPC, is refused ("PublicZoneVPCAssociation").
- ``Create``/``List``/``Change``/``DeleteCidrCollection(s)``, ``ListCidrBlocks``,
  ``ListCidrLocations``: a collection of named locations, each a list of CIDR
  blocks; each change batch (``PUT`` and ``DELETE_IF_EXISTS`` of a location's
  blocks) adds one to the collection's ``Version``, and a batch naming another
  version is ``CidrCollectionVersionMismatchException``; a collection with
  locations is ``CidrCollectionInUseException`` on delete (moto: none of these).
- ``Create``/``Delete``/``ListVPCAssociationAuthorization(s)``: a private hosted
  zone's authorizations for VPCs (of other accounts) to be associated with it;
  deleting one that is not there is ``VPCAssociationAuthorizationNotFound``
  (moto: none of these).
"""

from __future__ import annotations

import uuid
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/Route53/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"


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


def _route(path: str) -> None:
    """Serve ``path`` as moto's Route 53 paths are served (its ``urls.url_paths``, read
    when the server first builds the Route 53 app: after :func:`install`)."""
    from moto.route53 import urls

    if path in urls.url_paths:
        raise RuntimeError(f"moto's Route 53 already serves {path}: re-check this behaviour")
    urls.url_paths[path] = urls.Route53.dispatch


def _error(code: str, message: str) -> Exception:
    """A Route 53 error, its HTTP status read from botocore's model by its ``code``."""
    from moto.route53.exceptions import Route53ClientError

    return Route53ClientError(code, message)


class CidrCollectionBackend:
    """The account's CIDR collections (a Route53Backend mixin).

    A collection is kept as its summary (``Arn``, ``Id``, ``Name``, ``Version``) and
    ``Locations``, each location's name to its CIDR blocks in the order first put.
    """

    cidr_collections: Kept[dict[str, Any]] = Kept()

    def create_cidr_collection(self, name: str, caller_reference: str) -> dict[str, Any]:
        for found in self.cidr_collections.values():
            if found["Name"] == name:
                raise _error(
                    "CidrCollectionAlreadyExistsException",
                    f"A CIDR collection with the name {name} already exists",
                )
        collection_id = str(uuid.uuid4())
        collection = {
            "Arn": f"arn:{self.partition}:route53:::cidrcollection/{collection_id}",  # type: ignore[attr-defined]
            "Id": collection_id,
            "Name": name,
            "Version": 1,
            "CallerReference": caller_reference,
            "Locations": {},
        }
        self.cidr_collections[collection_id] = collection
        return self._cidr_summary(collection)

    @staticmethod
    def _cidr_summary(collection: dict[str, Any]) -> dict[str, Any]:
        return {k: collection[k] for k in ("Arn", "Id", "Name", "Version")}

    def _cidr_collection(self, collection_id: str) -> dict[str, Any]:
        found = self.cidr_collections.get(collection_id)
        if found is None:
            raise _error(
                "NoSuchCidrCollectionException",
                f"The CIDR collection with ID {collection_id} does not exist",
            )
        return found

    def list_cidr_collections(self) -> list[dict[str, Any]]:
        return [self._cidr_summary(c) for c in self.cidr_collections.values()]

    def change_cidr_collection(
        self, collection_id: str, version: Any, changes: list[dict[str, Any]]
    ) -> None:
        collection = self._cidr_collection(collection_id)
        if version is not None and int(version) != collection["Version"]:
            raise _error(
                "CidrCollectionVersionMismatchException",
                f"The CIDR collection version {version} does not match the current "
                f"version {collection['Version']}",
            )
        locations = {name: list(blocks) for name, blocks in collection["Locations"].items()}
        for change in changes:
            name, blocks = change["LocationName"], change.get("CidrList") or []
            if change["Action"] == "PUT":
                kept = locations.setdefault(name, [])
                kept.extend(b for b in blocks if b not in kept)
            elif change["Action"] == "DELETE_IF_EXISTS":
                left = [b for b in locations.get(name, []) if b not in blocks]
                if left:
                    locations[name] = left
                else:
                    locations.pop(name, None)  # AWS: a location with no blocks is gone
            else:
                raise _error("InvalidInput", f"Invalid action {change['Action']}")
        collection["Locations"] = locations
        collection["Version"] += 1

    def list_cidr_locations(self, collection_id: str) -> list[dict[str, Any]]:
        collection = self._cidr_collection(collection_id)
        return [{"LocationName": name} for name in collection["Locations"]]

    def list_cidr_blocks(self, collection_id: str, location: str | None) -> list[dict[str, Any]]:
        collection = self._cidr_collection(collection_id)
        if location and location not in collection["Locations"]:
            raise _error(
                "NoSuchCidrLocationException",
                f"The CIDR location {location} does not exist in collection {collection_id}",
            )
        return [
            {"CidrBlock": block, "LocationName": name}
            for name, blocks in collection["Locations"].items()
            if not location or name == location
            for block in blocks
        ]

    def delete_cidr_collection(self, collection_id: str) -> None:
        collection = self._cidr_collection(collection_id)
        if collection["Locations"]:
            raise _error(
                "CidrCollectionInUseException",
                f"The CIDR collection {collection_id} is not empty",
            )
        del self.cidr_collections[collection_id]


class CidrCollectionResponse:
    """The CIDR collection actions (a Route53 response mixin)."""

    def create_cidr_collection(self) -> Any:
        from moto.core.responses import ActionResult

        collection = self.backend.create_cidr_collection(  # type: ignore[attr-defined]
            self._get_param("Name"),  # type: ignore[attr-defined]
            self._get_param("CallerReference"),  # type: ignore[attr-defined]
        )
        location = f"https://route53.amazonaws.com/2013-04-01/cidrcollection/{collection['Id']}"
        return ActionResult({"Collection": collection, "Location": location})

    def list_cidr_collections(self) -> Any:
        from moto.core.responses import ActionResult

        page, token = one_page(
            self.backend.list_cidr_collections(),  # type: ignore[attr-defined]
            self._get_param("NextToken"),  # type: ignore[attr-defined]
            self._get_param("MaxResults"),  # type: ignore[attr-defined]
        )
        return ActionResult({"CidrCollections": page, "NextToken": token})

    def change_cidr_collection(self) -> Any:
        from moto.core.responses import ActionResult

        collection_id = self._get_param("Id")  # type: ignore[attr-defined]
        self.backend.change_cidr_collection(  # type: ignore[attr-defined]
            collection_id,
            self._get_param("CollectionVersion"),  # type: ignore[attr-defined]
            self._get_param("Changes", []),  # type: ignore[attr-defined]
        )
        return ActionResult({"Id": collection_id})

    def list_cidr_locations(self) -> Any:
        from moto.core.responses import ActionResult

        page, token = one_page(
            self.backend.list_cidr_locations(self._get_param("CollectionId")),  # type: ignore[attr-defined]
            self._get_param("NextToken"),  # type: ignore[attr-defined]
            self._get_param("MaxResults"),  # type: ignore[attr-defined]
        )
        return ActionResult({"CidrLocations": page, "NextToken": token})

    def list_cidr_blocks(self) -> Any:
        from moto.core.responses import ActionResult

        page, token = one_page(
            self.backend.list_cidr_blocks(  # type: ignore[attr-defined]
                self._get_param("CollectionId"),  # type: ignore[attr-defined]
                self._get_param("LocationName"),  # type: ignore[attr-defined]
            ),
            self._get_param("NextToken"),  # type: ignore[attr-defined]
            self._get_param("MaxResults"),  # type: ignore[attr-defined]
        )
        return ActionResult({"CidrBlocks": page, "NextToken": token})

    def delete_cidr_collection(self) -> Any:
        from moto.core.responses import EmptyResult

        self.backend.delete_cidr_collection(self._get_param("Id"))  # type: ignore[attr-defined]
        return EmptyResult()


@behaviour(
    BEHAVIOURS,
    "route53.cidr-collections",
    does="Create/List/Change/DeleteCidrCollection(s), ListCidrLocations and ListCidrBlocks: "
    "named locations of CIDR blocks, PUT and DELETE_IF_EXISTS in change batches that each "
    "add one to the collection's Version (CidrCollectionVersionMismatchException for "
    "another), CidrCollectionInUseException deleting one with locations (moto: none)",
    reference=_API + "API_ChangeCidrCollection.html",
    test=_TESTS + "test_route53_a_cidr_collection_keeps_its_locations",
)
def _cidr_collections() -> None:
    from moto.route53.models import Route53Backend
    from moto.route53.responses import Route53

    graft(CidrCollectionBackend, onto=Route53Backend)
    graft(CidrCollectionResponse, onto=Route53)
    _route(r"{0}/(?P<api_version>[\d_-]+)/cidrcollection$")
    _route(r"{0}/(?P<api_version>[\d_-]+)/cidrcollection/(?P<collection_id>[^/]+)$")
    _route(r"{0}/(?P<api_version>[\d_-]+)/cidrcollection/(?P<collection_id>[^/]+)/cidrblocks$")


class VpcAssociationAuthorizationBackend:
    """Each hosted zone's VPC association authorizations (a Route53Backend mixin)."""

    vpc_association_authorizations: Kept[list[dict[str, str]]] = Kept()

    def _authorizing_zone(self, zone_id: str) -> str:
        zone = self.get_hosted_zone(zone_id)  # type: ignore[attr-defined]
        if not zone.private_zone:
            raise _error("InvalidInput", "A public hosted zone has no VPC associations")
        return str(zone.resource_id)

    def create_vpc_association_authorization(
        self, zone_id: str, vpc: dict[str, str]
    ) -> dict[str, str]:
        if not vpc.get("VPCId"):
            raise _error("InvalidVPCId", "The VPC ID is invalid")
        kept = self.vpc_association_authorizations.setdefault(self._authorizing_zone(zone_id), [])
        wanted = {"VPCRegion": vpc.get("VPCRegion") or "", "VPCId": vpc["VPCId"]}
        if wanted not in kept:
            kept.append(wanted)
        return wanted

    def delete_vpc_association_authorization(self, zone_id: str, vpc: dict[str, str]) -> None:
        kept = self.vpc_association_authorizations.get(self._authorizing_zone(zone_id), [])
        gone = [v for v in kept if v["VPCId"] == vpc.get("VPCId")]
        if not gone:
            raise _error(
                "VPCAssociationAuthorizationNotFound",
                f"The VPC {vpc.get('VPCId')} is not authorized to associate with the zone",
            )
        kept.remove(gone[0])

    def list_vpc_association_authorizations(self, zone_id: str) -> list[dict[str, str]]:
        return list(self.vpc_association_authorizations.get(self._authorizing_zone(zone_id), []))


class VpcAssociationAuthorizationResponse:
    """The VPC association authorization actions (a Route53 response mixin)."""

    def create_vpc_association_authorization(self) -> Any:
        from moto.core.responses import ActionResult

        zone_id = self._get_param("HostedZoneId")  # type: ignore[attr-defined]
        vpc = self.backend.create_vpc_association_authorization(  # type: ignore[attr-defined]
            zone_id,
            self._get_param("VPC", {}),  # type: ignore[attr-defined]
        )
        return ActionResult({"HostedZoneId": zone_id, "VPC": vpc})

    def delete_vpc_association_authorization(self) -> Any:
        from moto.core.responses import EmptyResult

        self.backend.delete_vpc_association_authorization(  # type: ignore[attr-defined]
            self._get_param("HostedZoneId"),  # type: ignore[attr-defined]
            self._get_param("VPC", {}),  # type: ignore[attr-defined]
        )
        return EmptyResult()

    def list_vpc_association_authorizations(self) -> Any:
        from moto.core.responses import ActionResult

        zone_id = self._get_param("HostedZoneId")  # type: ignore[attr-defined]
        page, token = one_page(
            self.backend.list_vpc_association_authorizations(zone_id),  # type: ignore[attr-defined]
            self._get_param("NextToken"),  # type: ignore[attr-defined]
            self._get_param("MaxResults"),  # type: ignore[attr-defined]
        )
        return ActionResult({"HostedZoneId": zone_id, "VPCs": page, "NextToken": token})


@behaviour(
    BEHAVIOURS,
    "route53.vpc-association-authorizations",
    does="Create/Delete/ListVPCAssociationAuthorization(s) keep a private hosted zone's "
    "authorizations for VPCs to be associated with it; deleting a missing one is "
    "VPCAssociationAuthorizationNotFound (moto: none)",
    reference=_API + "API_CreateVPCAssociationAuthorization.html",
    test=_TESTS + "test_route53_a_vpc_association_is_authorized",
)
def _vpc_association_authorizations() -> None:
    from moto.route53.models import Route53Backend
    from moto.route53.responses import Route53

    graft(VpcAssociationAuthorizationBackend, onto=Route53Backend)
    graft(VpcAssociationAuthorizationResponse, onto=Route53)
    for action in ("authorizevpcassociation", "deauthorizevpcassociation"):
        _route(rf"{{0}}/(?P<api_version>[\d_-]+)/hostedzone/(?P<zone_id>[^/]+)/{action}$")
