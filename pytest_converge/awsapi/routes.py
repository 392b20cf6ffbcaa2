"""Which REST operation a request is, from botocore's model: its method and path.

Every operation of a REST-JSON or REST-XML service has an ``http`` trait in
botocore's model (``POST /2015-02-01/mount-targets``); those are the routes of
the service's SigV4 signing name, the name a call's credential scope carries::

    >>> rest_api("elasticfilesystem").operation("POST", "/2015-02-01/mount-targets")
    'CreateMountTarget'
    >>> rest_api("elasticfilesystem").operation("PUT", "/2015-02-01/file-systems/fs-1/policy")
    'PutFileSystemPolicy'

A ``{Param}`` of a template is one path segment, a greedy ``{Param+}`` the rest of
the path; a literal segment beats a placeholder, a placeholder the greedy one,
and a fixed query key of the template (``?tagging``, ``?operation=tag-resource``)
must be in the request. Services sharing a signing name share its routes
(``apigateway`` is API Gateway v1 and v2, told apart by v2's ``/v2/``); where two
of them name one route differently, the service named as the signing name wins,
then the first by name. Models are read the first time their signing name is seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import parse_qsl

from .operations import service_model, signing_as

__all__ = ["RestApi", "Route", "rest_api"]

#: The protocols whose operations are told apart by method and path.
REST_PROTOCOLS = ("rest-json", "rest-xml")

# How specific a template's segment is: the most specific route is tried first.
_LITERAL, _PLACEHOLDER, _GREEDY = 2, 1, 0


@dataclass(frozen=True)
class Route:
    """One operation's ``http`` trait: ``PUT /2015-02-01/file-systems/{FileSystemId}/policy``."""

    method: str
    #: The path's segments: literal text, ``None`` for a ``{Param}``, ``"+"`` for the
    #: greedy ``{Param+}`` (always last).
    segments: tuple[str | None, ...]
    #: Query keys the template fixes, each with the value it fixes ("" for none).
    query: tuple[tuple[str, str], ...]
    operation: str
    #: botocore's name of the service (``apigatewayv2``).
    service: str

    @classmethod
    def of(cls, service: str, operation: str, http: dict[str, str]) -> Route:
        path, _, query = http["requestUri"].partition("?")
        segments: list[str | None] = []
        for segment in path.split("/"):
            if not segment:
                continue  # "/hostedzone/{Id}/rrset/": as path_template reads it
            if segment.startswith("{") and segment.endswith("}"):
                segments.append("+" if segment.endswith("+}") else None)
            else:
                segments.append(segment)
        fixed = tuple(parse_qsl(query, keep_blank_values=True))
        return cls(http["method"].upper(), tuple(segments), fixed, operation, service)

    def rank(self) -> tuple[tuple[int, ...], int]:
        """Greater is more specific: segment by segment, then fixed query keys."""
        kinds = tuple(
            _PLACEHOLDER if s is None else _GREEDY if s == "+" else _LITERAL for s in self.segments
        )
        return kinds, len(self.query)

    def fits_length(self, count: int) -> bool:
        """A path of ``count`` segments may fit (a greedy placeholder takes one or more)."""
        if self.segments and self.segments[-1] == "+":
            return count >= len(self.segments)
        return count == len(self.segments)

    def matches(self, segments: tuple[str, ...], query: dict[str, str]) -> bool:
        """The request's path segments (as many as :meth:`fits_length` asks) and query
        fit this template."""
        for want, got in zip(self.segments, segments, strict=False):  # a greedy "+" takes the rest
            if want is not None and want != got and want != "+":
                return False
        return all(k in query and (not v or query[k] == v) for k, v in self.query)


@dataclass(frozen=True)
class RestApi:
    """The routes of one signing name, most specific first."""

    signing_name: str
    #: ``rest-json`` or ``rest-xml``; empty when no REST service signs with the name.
    protocol: str
    routes: tuple[Route, ...]
    # (method, number of path segments) -> the routes that may fit, most specific first.
    _fitting: dict[tuple[str, int], tuple[Route, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def route(self, method: str, path: str, query: Iterable[tuple[str, str]] = ()) -> Route | None:
        """The route a request takes (``path`` without its query), None: no template fits."""
        segments = tuple(s for s in path.split("/") if s)
        key = (method.upper(), len(segments))
        fitting = self._fitting.get(key)
        if fitting is None:
            fitting = self._fitting[key] = tuple(
                r for r in self.routes if r.method == key[0] and r.fits_length(key[1])
            )
        given = dict(query)
        for route in fitting:
            if route.matches(segments, given):
                return route
        return None

    def operation(
        self, method: str, path: str, query: Iterable[tuple[str, str]] = ()
    ) -> str | None:
        """The operation's name (``CreateMountTarget``), None: no template fits."""
        route = self.route(method, path, query)
        return route.operation if route else None


@cache
def rest_api(signing_name: str) -> RestApi:
    """The REST routes of every botocore service that signs as ``signing_name``."""
    routes: list[Route] = []
    protocol = ""
    for service in signing_as(signing_name):
        model = service_model(service) or {}
        if model.get("metadata", {}).get("protocol") not in REST_PROTOCOLS:
            continue
        protocol = protocol or model["metadata"]["protocol"]
        routes.extend(Route.of(service, n, o["http"]) for n, o in model["operations"].items())
    # sorted() is stable: among equally specific routes the first service's comes first.
    return RestApi(signing_name, protocol, tuple(sorted(routes, key=Route.rank, reverse=True)))
