"""The fidelity layer: AWS's documented answers where moto 5.2 answers otherwise.

moto keeps nothing of some values AWS keeps, lacks some operations and serves
an account that belongs to no organization; on a module that converges on AWS
each looks like a defect of the module. Each :class:`Behaviour` here models
one documented behaviour of AWS in moto's own shape (a model attribute and the
response code that sets and returns it, an operation added to the service's
response class the way moto dispatches actions, a backend that starts as AWS
accounts start), written so that it could be offered to moto as it is. One
module per service (``ec2.py``, ``logs.py`` ...) holds its behaviours; its
docstring names the API reference each one follows.

The moto server process loads this package by path, never as part of
``pytest_converge`` (see :mod:`..moto_server`), and calls :func:`install`
before it serves a request. ``CONVERGE_MOTO_FIDELITY_OFF`` in the server's
environment leaves behaviours out: ``all``, or a comma list of names or
services (``ec2.subnet-dns64,logs``), for raw moto. ``GET
/converge-api/fidelity`` answers :func:`status`.

Each behaviour is pinned to the moto it was written against: the versions
(:data:`MOTO_VERSIONS`) and a digest of the source of every moto function it
replaces or wraps (``replaces``). ``tests/unit/test_fidelity.py`` recomputes
the digests and fails naming the behaviour to re-check when an upgrade
changes moto under it; an operation a behaviour adds that moto gained since
makes its install fail (:func:`graft` never overwrites), named in
:func:`status`.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import sys
import threading
import traceback
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The moto releases the behaviours were written and digested against.
MOTO_VERSIONS = ">=5.2.5,<5.3"
#: The per-service modules of this package, each with its ``BEHAVIOURS`` list.
SERVICES = (
    "ec2",
    "dynamodb",
    "ssm",
    "sqs",
    "logs",
    "sns",
    "applicationautoscaling",
    "ssoadmin",
    "organizations",
    "outposts",
    "elasticache",
    "memorydb",
)
#: The server's environment variable that leaves behaviours out.
OFF_VARIABLE = "CONVERGE_MOTO_FIDELITY_OFF"
#: The path the moto server answers :func:`status` on.
STATUS_PATH = "/converge-api/fidelity"


@dataclass(frozen=True)
class Behaviour:
    """One behaviour of AWS the emulator is given: what, after which document, over what."""

    #: ``<service>.<what>``, e.g. ``ec2.subnet-dns64``.
    name: str
    #: What AWS does (and the emulator now does), in a sentence.
    does: str
    #: The AWS API reference page the behaviour follows.
    reference: str
    #: The test that shows the emulator answering so (``path::name``).
    test: str
    #: Puts the behaviour in place (imports moto; run once per process).
    install: Callable[[], None]
    #: moto callables replaced or wrapped (``module:Class.attribute``) -> digest of
    #: their source when the behaviour was written (:func:`source_digest`).
    replaces: Mapping[str, str] = field(default_factory=dict)

    @property
    def service(self) -> str:
        return self.name.split(".", 1)[0]


def behaviour(
    registry: list[Behaviour],
    name: str,
    *,
    does: str,
    reference: str,
    test: str,
    replaces: Mapping[str, str] | None = None,
) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Register the decorated function as the install of a :class:`Behaviour` in ``registry``."""

    def register(install: Callable[[], None]) -> Callable[[], None]:
        registry.append(Behaviour(name, does, reference, test, install, dict(replaces or {})))
        return install

    return register


def behaviours() -> list[Behaviour]:
    """Every behaviour of every service module, in :data:`SERVICES` order."""
    found: list[Behaviour] = []
    for service in SERVICES:
        module = importlib.import_module(f"{__name__}.{service}")
        found.extend(module.BEHAVIOURS)
    return found


def resolve(dotted: str) -> Any:
    """``moto.ec2.models.subnets:Subnet.available_ip_address_count`` -> that function."""
    module_name, _, path = dotted.partition(":")
    target: Any = importlib.import_module(module_name)
    for part in path.split(".") if path else ():
        owner = target
        target = inspect.getattr_static(owner, part)
        if isinstance(target, (staticmethod, classmethod)):
            target = target.__func__
        elif isinstance(target, property):
            target = target.fget
    return target


def source_digest(dotted: str) -> str:
    """The first 16 hex digits of the sha256 of a moto callable's source."""
    source = inspect.getsource(resolve(dotted))
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def original(owner: Any, name: str) -> Any:
    """``owner``'s ``name`` as moto defines it: the function (a property's getter)."""
    value = inspect.getattr_static(owner, name)
    if isinstance(value, property):
        return value.fget
    if isinstance(value, (staticmethod, classmethod)):
        return getattr(owner, name)
    return value


def patch(owner: Any, name: str, value: Any) -> None:
    """Put ``value`` (a wrapper of :func:`original`, or a model's new default) on ``owner``."""
    setattr(owner, name, value)


def graft(mixin: type, onto: type) -> None:
    """Add ``mixin``'s own methods and properties to ``onto``, as if it were one of its bases.

    moto composes a service's backend and response classes from mixins (EC2's
    ``EC2Backend`` and ``EC2Response``): upstream, the mixin would join that
    list. Never overwrites: an attribute ``onto`` already has (moto gained the
    operation) raises, so the behaviour is re-checked rather than shadowing moto.
    """
    for name, value in vars(mixin).items():
        if name.startswith("__") or (not callable(value) and not isinstance(value, property)):
            continue
        if hasattr(onto, name):
            raise RuntimeError(
                f"moto's {onto.__name__} already has {name}: re-check this behaviour against it"
            )
        setattr(onto, name, value)


def installed_moto() -> str:
    from importlib.metadata import version

    return version("moto")


def _in_range(installed: str) -> bool:
    from packaging.specifiers import SpecifierSet

    return installed in SpecifierSet(MOTO_VERSIONS)


_STATUS: dict[str, str] = {}
_LOCK = threading.Lock()


def install(off: str | Collection[str] | None = None) -> dict[str, str]:
    """Install every behaviour not turned off; returns :func:`status`'s ``behaviours``.

    ``off``: names or services to leave out, ``"all"``, or a comma list; by
    default the :data:`OFF_VARIABLE` of the environment. A behaviour that fails
    to install is left out and its error kept (the server keeps serving).
    Idempotent: a second call installs nothing.
    """
    with _LOCK:
        if _STATUS:
            return dict(_STATUS)
        skip = _parse_off(os.environ.get(OFF_VARIABLE, "") if off is None else off)
        moto = installed_moto()
        in_range = _in_range(moto)
        for item in behaviours():
            if "all" in skip or item.name in skip or item.service in skip:
                _STATUS[item.name] = "off"
            elif not in_range:
                _STATUS[item.name] = f"not installed: moto {moto} is outside {MOTO_VERSIONS}"
            else:
                try:
                    item.install()
                except Exception as exc:
                    _STATUS[item.name] = f"failed: {type(exc).__name__}: {exc}"
                    traceback.print_exc(file=sys.stderr)
                else:
                    _STATUS[item.name] = "installed"
        return dict(_STATUS)


def status() -> dict[str, Any]:
    """``{"moto": version, "versions": range, "behaviours": {name: state}}``."""
    return {"moto": installed_moto(), "versions": MOTO_VERSIONS, "behaviours": dict(_STATUS)}


def _parse_off(off: str | Collection[str]) -> set[str]:
    items = off.split(",") if isinstance(off, str) else off
    return {item.strip() for item in items if item.strip()}
