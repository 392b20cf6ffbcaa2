"""Which AWS operations an emulator backend serves, as data read before any run.

One data file per backend, ``data/served/<backend>.json``, written from the
backend's own dispatch (moto's by ``scripts/served_operations.py``: the response
methods its ``urls.py`` routes to, and the operations the fidelity layer adds;
MiniStack's by ``scripts/ministack_operations.py`` in its own Python: the service its
router sends each request to, and the names that service's ``handle_request``
looks up), with services and operations named as botocore names them::

    >>> moto = served("moto")
    >>> moto.serves("elasticache", "CreateCacheParameterGroup")
    False
    >>> moto.serves("ec2", "CreateVpc")
    True
    >>> moto.serves("no-such-service", "CreateThing") is None
    True

An answer is True when the backend routes the operation to code (whether that
code does all AWS does is another question), False when it answers "not
implemented", and None when the data knows nothing of the service. A service
whose requests a handler of its own reads by HTTP method and query string
(moto's S3) is served ``whole``: every operation answers True. Loading reads
one JSON file (no moto import); ``tests/unit/test_served.py`` fails when the
file is stale (another moto, or regenerating changes it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..analysis.preflight import PlannedResource, Preflight, preflight
from ..awsapi.operations import newest_major, operations_of

__all__ = ["DATA_DIR", "Served", "ServiceOperations", "preflight_of", "served"]

#: Where each backend's data file lives (``<backend>.json``).
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "served"


@dataclass(frozen=True)
class ServiceOperations:
    """What a backend serves of one service."""

    #: Operations routed to the backend's code (moto's, or the fidelity layer's).
    operations: frozenset[str] = frozenset()
    #: Operations a handler of its own reads by HTTP method and query string:
    #: served as far as the data can tell.
    unlisted: frozenset[str] = frozenset()
    #: Every operation served, none listed (a handler of its own for the whole service).
    whole: bool = False
    #: Those of :attr:`operations` the plugin's fidelity layer adds.
    fidelity: frozenset[str] = frozenset()

    def serves(self, operation: str) -> bool:
        return self.whole or operation in self.operations or operation in self.unlisted


@dataclass(frozen=True)
class Served:
    """The operations one backend serves, per botocore service name."""

    backend: str
    #: The backend's release the data was read from (None: no data for the backend).
    version: str | None = None
    by_service: dict[str, ServiceOperations] = field(default_factory=dict, repr=False, hash=False)

    @property
    def services(self) -> frozenset[str]:
        """The botocore service names the backend serves any operation of."""
        return frozenset(self.by_service)

    def serves(self, service: str, operation: str) -> bool | None:
        """Whether ``service``'s ``operation`` (``"efs"``, ``"PutBackupPolicy"``) is
        served; None when the data knows nothing of ``service``."""
        found = self.by_service.get(service)
        return None if found is None else found.serves(operation)

    def service(self, service: str) -> ServiceOperations | None:
        """What the backend serves of ``service`` (None: nothing known of it)."""
        return self.by_service.get(service)


@cache
def served(backend: str) -> Served:
    """The operations ``backend`` (``"moto"``) serves; a backend with no data file
    knows no service (every answer None)."""
    path = DATA_DIR / f"{backend}.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return Served(backend)
    return Served(
        backend,
        data.get("version"),
        {
            name: ServiceOperations(
                frozenset(entry.get("operations", ())),
                frozenset(entry.get("unlisted", ())),
                bool(entry.get("whole", False)),
                frozenset(entry.get("fidelity", ())),
            )
            for name, entry in data.get("services", {}).items()
        },
    )


def preflight_of(
    addresses: Sequence[str], backend: str, provider_major: str | None = None
) -> Preflight:
    """What ``backend`` is known not to serve of the resources and data sources a module
    declares (``addresses``), from its data and the operations each type makes.

    ``provider_major`` is the aws provider's major version init chose; None before init
    (at collection), when the newest major the operations data knows stands in for it.
    """
    major = provider_major or newest_major()
    planned = [
        PlannedResource(a, a.split(".")[1], ("read",), "data")
        if a.startswith("data.")
        else PlannedResource(a, a.split(".")[0], ("create",))
        for a in addresses
    ]
    return preflight(planned, served(backend), lambda kind: operations_of(kind, major))
