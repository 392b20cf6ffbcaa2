"""Handles AWS Outposts requests (loaded as ``moto.outposts.responses``)."""

from __future__ import annotations

from typing import Any

from moto.core.responses import ActionResult, BaseResponse, EmptyResult

from .models import OutpostsBackend, outposts_backends


class OutpostsResponse(BaseResponse):
    def __init__(self) -> None:
        super().__init__(service_name="outposts")

    @property
    def outposts_backend(self) -> OutpostsBackend:
        return outposts_backends[self.current_account][self.region]

    def create_site(self) -> ActionResult:
        given = {
            k: self._get_param(k) for k in ("Description", "Notes", "Tags", "OperatingAddress")
        }
        site = self.outposts_backend.create_site(self._get_param("Name"), **given)
        return ActionResult({"Site": site})

    def get_site(self) -> ActionResult:
        return ActionResult({"Site": self.outposts_backend.get_site(self._get_param("SiteId"))})

    def list_sites(self) -> ActionResult:
        return ActionResult({"Sites": self.outposts_backend.list_sites()})

    def delete_site(self) -> ActionResult:
        self.outposts_backend.delete_site(self._get_param("SiteId"))
        return EmptyResult()

    def create_outpost(self) -> ActionResult:
        keys = ("Description", "AvailabilityZone", "AvailabilityZoneId", "Tags",
                "SupportedHardwareType")  # fmt: skip
        given: dict[str, Any] = {k: self._get_param(k) for k in keys}
        outpost = self.outposts_backend.create_outpost(
            self._get_param("Name"), self._get_param("SiteId"), **given
        )
        return ActionResult({"Outpost": outpost})

    def get_outpost(self) -> ActionResult:
        outpost = self.outposts_backend.get_outpost(self._get_param("OutpostId"))
        return ActionResult({"Outpost": outpost})

    def list_outposts(self) -> ActionResult:
        outposts = self.outposts_backend.list_outposts(
            life_cycle_status=self._get_param("LifeCycleStatusFilter"),
            availability_zone=self._get_param("AvailabilityZoneFilter"),
            availability_zone_id=self._get_param("AvailabilityZoneIdFilter"),
        )
        return ActionResult({"Outposts": outposts})

    def delete_outpost(self) -> ActionResult:
        self.outposts_backend.delete_outpost(self._get_param("OutpostId"))
        return EmptyResult()

    def tag_resource(self) -> ActionResult:
        self.outposts_backend.tag_resource(self._get_param("ResourceArn"), self._get_param("Tags"))
        return EmptyResult()

    def untag_resource(self) -> ActionResult:
        self.outposts_backend.untag_resource(
            self._get_param("ResourceArn"), self._get_param("TagKeys") or []
        )
        return EmptyResult()

    def list_tags_for_resource(self) -> ActionResult:
        tags = self.outposts_backend.list_tags_for_resource(self._get_param("ResourceArn"))
        return ActionResult({"Tags": tags})
