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
replaces or wraps (``replaces``). :func:`install` checks them first: a
behaviour whose moto function changed is ``stale: <callable> changed`` and
left out, as is one for a moto outside the versions or whose install failed;
:func:`status` names each, and the plugin's session warns with it.
``tests/unit/test_fidelity.py`` recomputes the digests and fails naming the
behaviour to re-check when an upgrade changes moto under it. Putting a
behaviour in place refuses what it was not written over: :func:`graft` never
overwrites an operation moto gained since, and :func:`patch` wraps only the
function whose digest the behaviour recorded (or this layer's wrapper of it).

``CONVERGE_MOTO_FIDELITY_RECORDED`` (for tests: ``callable=digest,...``)
stands in for the digests the behaviours recorded, so a test makes one stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import json
import os
import sys
import threading
import traceback
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

#: The moto releases the behaviours were written and digested against.
MOTO_VERSIONS = ">=5.2.6,<5.3"
#: The per-service modules of this package, each with its ``BEHAVIOURS`` list.
SERVICES = (
    "ec2",
    "dynamodb",
    "ssm",
    "sqs",
    "logs",
    "cloudwatch",
    "sns",
    "applicationautoscaling",
    "ssoadmin",
    "organizations",
    "outposts",
    "ecr",
    "ecs",
    "efs",
    "ram",
    "elasticache",
    "memorydb",
    "route53",
    "acm",
    "fsx",
    "networkfirewall",
    "autoscaling",
    "cloudfront",
    "route53resolver",
    "rds",
    "secretsmanager",
    "kms",
    "elbv2",
    "opensearchserverless",
    "emrserverless",
    "grafana",
    "apprunner",
    "globalaccelerator",
    "apigatewayv2",
    "athena",
    "kafka",
)
#: The server's environment variable that leaves behaviours out.
OFF_VARIABLE = "CONVERGE_MOTO_FIDELITY_OFF"
#: The server's environment variable whose ``callable=digest`` pairs stand in for the
#: digests behaviours recorded (a test makes a behaviour stale with it).
RECORDED_VARIABLE = "CONVERGE_MOTO_FIDELITY_RECORDED"
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
    """``moto.ec2.models.subnets:Subnet.available_ip_address_count`` -> that function
    (moto's own, also after a behaviour of this layer replaced it)."""
    owner, name = _owner(dotted)
    if name is None:
        return owner
    if (id(owner), name) in _ORIGINALS:
        return _ORIGINALS[id(owner), name]
    return _unwrapped(inspect.getattr_static(owner, name))


def _owner(dotted: str) -> tuple[Any, str | None]:
    """``module:Class.attribute`` -> (the class, ``attribute``); a module's own function
    -> (the module, its name); a bare module -> (the module, None)."""
    module_name, _, path = dotted.partition(":")
    owner: Any = importlib.import_module(module_name)
    parts = path.split(".") if path else []
    for part in parts[:-1]:
        owner = inspect.getattr_static(owner, part)
    return owner, (parts[-1] if parts else None)


def _unwrapped(value: Any) -> Any:
    if isinstance(value, (staticmethod, classmethod)):
        return value.__func__
    if isinstance(value, property):
        return value.fget
    return value


def digest_of(function: Any) -> str:
    """The first 16 hex digits of the sha256 of ``function``'s source.

    A function's source is found by tokenising its file from its first line: 0.12-0.19 s
    for the ~100 functions the layer checks (248 times), at every moto start. Where
    :data:`DIGESTS_VARIABLE` names a file, each function's digest is kept there under
    its file's path, size and modification time and its first line, so a moto started
    over the same installation reads it instead (:func:`save_digests` writes it).
    """
    key = _digest_key(function)
    found = (_USED_DIGESTS.get(key) or _kept_digests().get(key)) if key is not None else None
    if found is None:
        found = hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]
    if key is not None:
        _USED_DIGESTS[key] = found
    return found


#: The moto server's environment variable naming the file of kept digests (:func:`digest_of`).
DIGESTS_VARIABLE = "CONVERGE_MOTO_DIGESTS"
#: The digests read from that file (None: not read yet), and those this process used.
_DIGESTS: dict[str, str] | None = None
_USED_DIGESTS: dict[str, str] = {}


def _digest_key(function: Any) -> str | None:
    """What identifies ``function``'s source without reading it (None: not a function of
    a file): the file ``inspect.getsource`` reads (after ``__wrapped__``), its size and
    modification time, the function's first line and name."""
    if not os.environ.get(DIGESTS_VARIABLE):
        return None
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return None
    try:
        found = os.stat(code.co_filename)
    except OSError:
        return None
    return (
        f"{code.co_filename}:{found.st_size}:{found.st_mtime_ns}:"
        f"{code.co_firstlineno}:{getattr(code, 'co_qualname', code.co_name)}"
    )


def _kept_digests() -> dict[str, str]:
    global _DIGESTS
    if _DIGESTS is None:
        _DIGESTS = {}
        path = os.environ.get(DIGESTS_VARIABLE)
        if path:
            try:
                with open(path, encoding="utf-8") as handle:
                    read = json.load(handle)
            except (OSError, ValueError):
                read = {}
            if isinstance(read, dict):
                _DIGESTS = {k: v for k, v in read.items() if isinstance(v, str)}
    return _DIGESTS


def save_digests() -> None:
    """Write the digests this process used to :data:`DIGESTS_VARIABLE`'s file, if they are
    not all there (a new moto, a changed file), with those it held whose files are
    unchanged (another virtual environment's moto keeps its own)."""
    path = os.environ.get(DIGESTS_VARIABLE)
    if not path or not _USED_DIGESTS or _USED_DIGESTS.items() <= _kept_digests().items():
        return
    kept = {**_kept_digests(), **_USED_DIGESTS}
    current = {k: v for k, v in kept.items() if _still_there(k)}
    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(current, handle, sort_keys=True)
        os.replace(temporary, path)


def _still_there(key: str) -> bool:
    """``key``'s file has the size and modification time the key says."""
    filename, size, mtime = key.rsplit(":", 4)[:3]
    try:
        found = os.stat(filename)
    except OSError:
        return False
    return f"{found.st_size}" == size and f"{found.st_mtime_ns}" == mtime


def source_digest(dotted: str) -> str:
    """The first 16 hex digits of the sha256 of a moto callable's source."""
    return digest_of(resolve(dotted))


def original(owner: Any, name: str) -> Any:
    """``owner``'s ``name`` as moto defines it: the function (a property's getter)."""
    value = inspect.getattr_static(owner, name)
    if isinstance(value, property):
        return value.fget
    if isinstance(value, (staticmethod, classmethod)):
        return getattr(owner, name)
    return value


#: (id(owner), name) -> moto's own function there, once a behaviour replaced it.
_ORIGINALS: dict[tuple[int, str], Any] = {}
#: (id(owner), name) -> what this layer put there last.
_PUT: dict[tuple[int, str], Any] = {}
#: The behaviour being installed (:func:`install` holds the lock meanwhile).
_INSTALLING: list[Behaviour] = []
#: What :func:`patch` finds where an attribute is not.
_MISSING = object()


def patch(owner: Any, name: str, value: Any, *, recorded: bool = True) -> None:
    """Put ``value`` (a wrapper of :func:`original`, or a model's new default) on ``owner``.

    Like :func:`graft`, it refuses what the behaviour was not written over: an
    attribute moto has is replaced only when the installing behaviour recorded it in
    ``replaces`` and moto's function there still has that digest (a wrapper this
    layer put over it stands for it); otherwise it raises, so the behaviour is
    re-checked rather than wrapping something else. An attribute moto lacks is added.
    ``recorded=False`` is for a wrapper that does not depend on what it wraps (an
    access check put over every operation): it wraps whatever moto has.
    """
    key = (id(owner), name)
    current = inspect.getattr_static(owner, name, _MISSING)
    ours = key in _PUT and current is _PUT[key]
    if ours:  # a wrapper of this layer: what stands under it is moto's (or was added)
        moto = _ORIGINALS.get(key, _MISSING)
    else:
        moto = _MISSING if current is _MISSING else _unwrapped(current)
        if moto is not _MISSING:
            _ORIGINALS[key] = moto
    if moto is not _MISSING and recorded:
        _check_recorded(owner, name, moto)
    setattr(owner, name, value)
    _PUT[key] = inspect.getattr_static(owner, name)


def _check_recorded(owner: Any, name: str, moto: Any) -> None:
    """Raise unless the installing behaviour recorded ``owner.name`` with ``moto``'s digest."""
    item = _INSTALLING[-1] if _INSTALLING else None
    replaces = _recorded(item) if item is not None else {}
    for dotted, digest in replaces.items():
        where, attribute = _owner(dotted)
        if attribute != name or where is not owner:
            continue
        if digest_of(moto) != digest:
            raise RuntimeError(f"moto's {dotted} is not the one recorded: re-check this behaviour")
        return
    label = getattr(owner, "__qualname__", getattr(owner, "__name__", repr(owner)))
    raise RuntimeError(
        f"moto's {label}.{name} is not in the behaviour's replaces: record its digest "
        "(tests/unit/test_fidelity.py prints it), or add what moto lacks under another name"
    )


def _recorded(item: Behaviour) -> dict[str, str]:
    """``item``'s recorded digests, with :data:`RECORDED_VARIABLE`'s in their place."""
    given = dict(
        pair.strip().rsplit("=", 1)
        for pair in os.environ.get(RECORDED_VARIABLE, "").split(",")
        if "=" in pair
    )
    return {dotted: given.get(dotted, digest) for dotted, digest in item.replaces.items()}


def stale(item: Behaviour) -> str | None:
    """Why ``item`` must not be installed over this moto (``stale: <callable> changed``),
    or None when every function it replaces still has the digest it recorded."""
    for dotted, digest in _recorded(item).items():
        try:
            now = source_digest(dotted)
        except (ImportError, AttributeError, OSError, TypeError):
            return f"stale: {dotted} is gone"
        if now != digest:
            return f"stale: {dotted} changed"
    return None


T = TypeVar("T")


class Kept(Generic[T]):
    """A dict a grafted mixin keeps on each moto backend, by name, made on first use.

    moto builds its backends before :func:`graft` adds a mixin to their class, so a
    mixin has no ``__init__`` of its own: its dict is made the first time it is read,
    holding what ``seed`` gives for that backend (the defaults every AWS account has).
    """

    def __init__(self, seed: Callable[[Any], dict[str, T]] | None = None) -> None:
        self._seed = seed
        self._key = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._key = f"_{name}"

    @overload
    def __get__(self, backend: None, owner: type) -> Kept[T]: ...
    @overload
    def __get__(self, backend: object, owner: type | None = None) -> dict[str, T]: ...
    def __get__(self, backend: Any, owner: type | None = None) -> Kept[T] | dict[str, T]:
        if backend is None:
            return self
        found: dict[str, T] | None = vars(backend).get(self._key)
        if found is None:
            found = vars(backend)[self._key] = self._seed(backend) if self._seed else {}
        return found


def graft(mixin: type, onto: type) -> None:
    """Add ``mixin``'s own methods and properties to ``onto``, as if it were one of its bases.

    moto composes a service's backend and response classes from mixins (EC2's
    ``EC2Backend`` and ``EC2Response``): upstream, the mixin would join that
    list. Never overwrites: an attribute ``onto`` already has (moto gained the
    operation) raises, so the behaviour is re-checked rather than shadowing moto.
    """
    for name, value in vars(mixin).items():
        if name.startswith("__") or (
            not callable(value) and not isinstance(value, (property, Kept))
        ):
            continue
        if hasattr(onto, name):
            raise RuntimeError(
                f"moto's {onto.__name__} already has {name}: re-check this behaviour against it"
            )
        setattr(onto, name, value)


def one_page(
    items: Sequence[T], token: Any, size: Any, default: int = 100
) -> tuple[list[T], str | None]:
    """One page of ``items`` as the list actions of these behaviours answer it: the
    request's token (or marker) is the index to start at, ``size`` its maximum (else
    ``default``), and the next token is None on the last page."""
    start = int(token or 0)
    end = start + int(size or default)
    return list(items[start:end]), (str(end) if end < len(items) else None)


def empty_action(
    backend: str, method: str, *params: str | tuple[str, Any], dry_run: bool = False
) -> Callable[[Any], Any]:
    """A response mixin's action, named ``method``, that hands the request's ``params`` (a
    name, or a name and its default) to the ``backend`` attribute's ``method`` and answers
    the empty result, as moto's own actions of that kind do. ``dry_run``: EC2's
    ``DryRun`` is answered first."""

    def action(self: Any) -> Any:
        from moto.core.responses import EmptyResult

        if dry_run:
            self.error_on_dryrun()
        values = [self._get_param(*((p,) if isinstance(p, str) else p)) for p in params]
        getattr(getattr(self, backend), method)(*values)
        return EmptyResult()

    action.__name__ = action.__qualname__ = method
    return action


def serve_package(service: str, directory: str, host: str) -> None:
    """Load the service package at ``directory`` (laid out as moto's ``moto/<service>/``)
    as ``moto.<service>``, and route requests whose host matches ``host`` to it, so that
    moto's dispatch finds the service as it finds its own: its backends through
    ``moto.backends.get_backend``, its requests through ``moto.backend_index``.
    Refuses when moto has a package of that name (moto gained the service)."""
    import importlib.util
    import re
    import types

    from moto import backend_index

    name = f"moto.{service}"
    if name in sys.modules or importlib.util.find_spec(name):
        raise RuntimeError(f"moto has a {service} service: re-check this behaviour against it")
    package = types.ModuleType(name)
    package.__path__ = [directory]
    package.__package__ = name
    sys.modules[name] = package
    try:
        models = importlib.import_module(f"{name}.models")
    except BaseException:
        del sys.modules[name]
        raise
    backends = f"{service}_backends"
    setattr(package, backends, getattr(models, backends))
    backend_index.backend_url_patterns.append((service, re.compile(host)))


def installed_moto() -> str:
    from importlib.metadata import version

    return version("moto")


def _in_range(installed: str) -> bool:
    from packaging.specifiers import SpecifierSet

    return installed in SpecifierSet(MOTO_VERSIONS)


_STATUS: dict[str, str] = {}
_LOCK = threading.Lock()


#: Behaviours :func:`install` left for later (``lazy``), by name, with the moto packages
#: each touches: :func:`install_imported` installs one once any of them is imported.
_PENDING: dict[str, tuple[Behaviour, frozenset[str]]] = {}
#: What :func:`status` says of a behaviour left for later.
PENDING = "pending: no call has reached its service yet"


def _packages(item: Behaviour) -> frozenset[str]:
    """The moto packages ``item`` touches: its service's and those of what it replaces."""
    names = {item.service}
    names.update(
        dotted.split(":", 1)[0].split(".")[1]
        for dotted in item.replaces
        if dotted.startswith("moto.") and "." in dotted.split(":", 1)[0]
    )
    return frozenset(f"moto.{name}" for name in names)


def _moto_has(package: str) -> bool:
    import importlib.util

    try:
        return package in sys.modules or importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def install(
    off: str | Collection[str] | None = None,
    *,
    items: Sequence[Behaviour] | None = None,
    unfit: str | None = None,
    lazy: bool = False,
) -> dict[str, str]:
    """Install every behaviour not turned off; returns :func:`status`'s ``behaviours``.

    ``off``: names or services to leave out, ``"all"``, or a comma list; by
    default the :data:`OFF_VARIABLE` of the environment. A behaviour for a moto
    outside :data:`MOTO_VERSIONS`, one whose recorded digests moto's source no
    longer has (:func:`stale`) and one that fails to install are left out, and
    why is kept (the server keeps serving).
    Idempotent: a second call installs nothing.

    ``lazy``: a behaviour whose service moto has is left :data:`PENDING` until one of
    the moto packages it touches is imported (:func:`install_imported`, which the
    server runs before each request while any is pending) or :func:`install_rest`
    runs; one that adds a service moto lacks is installed at once. A server then
    answers its first calls without importing every service the layer covers.

    ``items`` and ``unfit`` are for another emulator's layer that uses this
    machinery in its own process (:mod:`..ministack_fidelity`): its behaviours, and
    why none fits the emulator running (None: they may be installed).
    """
    with _LOCK:
        if _STATUS:
            return dict(_STATUS)
        skip = _parse_off(os.environ.get(OFF_VARIABLE, "") if off is None else off)
        if items is None:
            items = behaviours()
            moto = installed_moto()
            unfit = (
                None
                if _in_range(moto)
                else f"not installed: moto {moto} is outside {MOTO_VERSIONS}"
            )
        for item in items:
            if "all" in skip or item.name in skip or item.service in skip:
                _STATUS[item.name] = "off"
            elif unfit is not None:
                _STATUS[item.name] = unfit
            elif (
                lazy
                and _moto_has(f"moto.{item.service}")
                and not any(package in sys.modules for package in _packages(item))
            ):
                _STATUS[item.name] = PENDING
                _PENDING[item.name] = (item, _packages(item))
            elif (why := stale(item)) is not None:
                _STATUS[item.name] = why
            else:
                _STATUS[item.name] = _installed(item)
        return dict(_STATUS)


def install_imported() -> None:
    """Install every pending behaviour one of whose moto packages is imported now
    (installing one may import more: until none is left that is)."""
    if not any(
        any(package in sys.modules for package in packages)
        for _, packages in list(_PENDING.values())  # a copy: the lock is not held here
    ):
        return  # the common case once a service's behaviours are in: no wait on the lock
    with _LOCK:
        while True:
            ready = [
                name
                for name, (_, packages) in _PENDING.items()
                if any(package in sys.modules for package in packages)
            ]
            if not ready:
                return
            for name in ready:
                _settle(name)


def install_rest(before_each: Callable[[], object] | None = None) -> None:
    """Install every behaviour still pending, in the layer's order.

    ``before_each()`` is called before each one (outside the lock): a server waits there
    for a quiet moment, so a behaviour no call has needed yet is not installed while
    calls wait for the same interpreter.
    """
    for name in list(_PENDING):
        if before_each is not None:
            before_each()
        with _LOCK:
            _settle(name)


def _settle(name: str) -> None:
    """Install the pending behaviour ``name`` (the caller holds the lock)."""
    entry = _PENDING.pop(name, None)
    if entry is not None:
        item = entry[0]
        _STATUS[name] = why if (why := stale(item)) is not None else _installed(item)


def _installed(item: Behaviour) -> str:
    """Install ``item``: ``installed``, or why it failed (the server keeps serving)."""
    _INSTALLING.append(item)
    try:
        item.install()
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        return f"failed: {type(exc).__name__}: {exc}"
    finally:
        _INSTALLING.pop()
    return "installed"


def not_installed(behaviours: Mapping[str, str]) -> dict[str, str]:
    """Of :func:`status`'s ``behaviours``, those neither installed nor turned off: why."""
    return {name: why for name, why in behaviours.items() if why not in ("installed", "off")}


def status() -> dict[str, Any]:
    """``{"moto": version, "versions": range, "behaviours": {name: state}}``."""
    return {"moto": installed_moto(), "versions": MOTO_VERSIONS, "behaviours": dict(_STATUS)}


def _parse_off(off: str | Collection[str]) -> set[str]:
    items = off.split(",") if isinstance(off, str) else off
    return {item.strip() for item in items if item.strip()}
