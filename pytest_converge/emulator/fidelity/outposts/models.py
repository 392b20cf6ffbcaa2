"""AWS Outposts in moto's shape: the sites and outposts of an account and Region.

Follows the AWS Outposts API reference
(https://docs.aws.amazon.com/outposts/latest/APIReference/): ``CreateSite``,
``GetSite``, ``ListSites``, ``DeleteSite``, ``CreateOutpost``, ``GetOutpost``,
``ListOutposts`` (with its lifecycle and availability-zone filters),
``DeleteOutpost`` and the tag operations. An outpost belongs to a site of its
account and to an Availability Zone of its Region.

Loaded as ``moto.outposts.models`` (see the package's ``__init__``).
"""

from __future__ import annotations

from typing import Any

from moto.core.base_backend import BackendDict, BaseBackend
from moto.core.common_models import BaseModel
from moto.core.exceptions import JsonRESTError
from moto.moto_api._internal import mock_random as random


class NotFoundException(JsonRESTError):
    code = 404

    def __init__(self, message: str) -> None:
        super().__init__("NotFoundException", message)


class ValidationException(JsonRESTError):
    def __init__(self, message: str) -> None:
        super().__init__("ValidationException", message)


def _random_id(prefix: str) -> str:
    return prefix + random.get_random_hex(length=17)


class Site(BaseModel):
    def __init__(self, backend: OutpostsBackend, name: str, **given: Any) -> None:
        self.site_id = _random_id("os-")
        self.account_id = backend.account_id
        self.name = name
        self.description = given.get("Description")
        self.notes = given.get("Notes")
        self.tags: dict[str, str] = dict(given.get("Tags") or {})
        self.site_arn = (
            f"arn:{backend.partition}:outposts:{backend.region_name}:{backend.account_id}:"
            f"site/{self.site_id}"
        )
        address = given.get("OperatingAddress") or {}
        self.operating_address_country_code = address.get("CountryCode")
        self.operating_address_state_or_region = address.get("StateOrRegion")
        self.operating_address_city = address.get("City")


class Outpost(BaseModel):
    def __init__(self, backend: OutpostsBackend, site: Site, name: str, zone: Any,
                 **given: Any) -> None:  # fmt: skip
        self.outpost_id = _random_id("op-")
        self.owner_id = backend.account_id
        self.outpost_arn = (
            f"arn:{backend.partition}:outposts:{backend.region_name}:{backend.account_id}:"
            f"outpost/{self.outpost_id}"
        )
        self.site_id = site.site_id
        self.site_arn = site.site_arn
        self.name = name
        self.description = given.get("Description")
        self.life_cycle_status = "ACTIVE"
        self.availability_zone = zone.name
        self.availability_zone_id = zone.zone_id
        self.tags: dict[str, str] = dict(given.get("Tags") or {})
        self.supported_hardware_type = given.get("SupportedHardwareType") or "RACK"


class OutpostsBackend(BaseBackend):
    def __init__(self, region_name: str, account_id: str) -> None:
        super().__init__(region_name, account_id)
        self.sites: dict[str, Site] = {}
        self.outposts: dict[str, Outpost] = {}

    def create_site(self, name: str, **given: Any) -> Site:
        site = Site(self, name, **given)
        self.sites[site.site_id] = site
        return site

    def get_site(self, site_id: str) -> Site:
        for site in self.sites.values():
            if site_id in (site.site_id, site.site_arn):
                return site
        raise NotFoundException(f"Site {site_id} not found.")

    def list_sites(self) -> list[Site]:
        return list(self.sites.values())

    def delete_site(self, site_id: str) -> None:
        site = self.get_site(site_id)
        if any(o.site_id == site.site_id for o in self.outposts.values()):
            raise JsonRESTError("ConflictException", f"Site {site_id} still has outposts.")
        del self.sites[site.site_id]

    def _zone(self, name: str | None, zone_id: str | None) -> Any:
        from moto.ec2.models.availability_zones_and_regions import RegionsAndZonesBackend

        for zone in RegionsAndZonesBackend.zones.get(self.region_name, []):
            if name in (zone.name, None) and zone_id in (zone.zone_id, None):
                return zone
        raise ValidationException(
            f"Availability Zone {name or zone_id} is not in Region {self.region_name}."
        )

    def create_outpost(self, name: str, site_id: str, **given: Any) -> Outpost:
        site = self.get_site(site_id)
        zone = self._zone(given.get("AvailabilityZone"), given.get("AvailabilityZoneId"))
        outpost = Outpost(self, site, name, zone, **given)
        self.outposts[outpost.outpost_id] = outpost
        return outpost

    def get_outpost(self, outpost_id: str) -> Outpost:
        for outpost in self.outposts.values():
            if outpost_id in (outpost.outpost_id, outpost.outpost_arn):
                return outpost
        raise NotFoundException(f"Outpost {outpost_id} not found.")

    def list_outposts(
        self,
        life_cycle_status: list[str] | None = None,
        availability_zone: list[str] | None = None,
        availability_zone_id: list[str] | None = None,
    ) -> list[Outpost]:
        return [
            o
            for o in self.outposts.values()
            if (not life_cycle_status or o.life_cycle_status in life_cycle_status)
            and (not availability_zone or o.availability_zone in availability_zone)
            and (not availability_zone_id or o.availability_zone_id in availability_zone_id)
        ]

    def delete_outpost(self, outpost_id: str) -> None:
        del self.outposts[self.get_outpost(outpost_id).outpost_id]

    def _tagged(self, arn: str) -> Any:
        for item in [*self.outposts.values(), *self.sites.values()]:
            if arn in (getattr(item, "outpost_arn", None), getattr(item, "site_arn", None)):
                return item
        raise NotFoundException(f"Resource {arn} not found.")

    def tag_resource(self, arn: str, tags: dict[str, str]) -> None:
        self._tagged(arn).tags.update(tags)

    def untag_resource(self, arn: str, keys: list[str]) -> None:
        tagged = self._tagged(arn)
        for key in keys:
            tagged.tags.pop(key, None)

    def list_tags_for_resource(self, arn: str) -> dict[str, str]:
        return dict(self._tagged(arn).tags)


outposts_backends = BackendDict(OutpostsBackend, "outposts")
