"""The moto server process that :class:`~pytest_converge.emulator.moto.MotoEmulator` runs.

``python path/to/moto_server.py --host 127.0.0.1 --port 0 [--fd N]`` (``-m
pytest_converge.emulator.moto_server`` works too, and pays 0.4 s for the
package's imports, which the server does not use)

Serves moto's app (werkzeug, one thread per request) on loopback (on the
listening socket ``--fd`` the parent bound and handed over, if given), prints one
line ``READY <port>`` on stdout once it listens, then installs the fidelity
layer (:mod:`.fidelity`, loaded by path like :mod:`.moto_world`; requests
wait for it) and warms up the backends the session's modules use (those the
plugin uses most until it is told, ``POST /converge-api/warm``); the layer's
behaviours no call has needed yet are installed in the gaps between calls. It exits when
its stdin closes: the parent holds the other end, so the server never
outlives the pytest process that started it, whatever killed that process
(even SIGKILL).

It only ever sees the environment ``MotoEmulator`` builds for it (fake
credentials, no profile, no config files, no proxies): moto reads botocore's
configuration when a backend is imported.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import importlib.util
import inspect
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any

if __package__:
    from . import fidelity
    from .moto_world import WORLD_PATH, read_world
else:  # run as a file: this directory is sys.path[0], and its moto.py would hide moto
    del sys.path[0]
    _here = os.path.dirname(os.path.abspath(__file__))

    def _load(name: str, path: str, package: bool = False) -> Any:
        spec = importlib.util.spec_from_file_location(
            name, path, submodule_search_locations=[os.path.dirname(path)] if package else None
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and relative imports look it up by name
        spec.loader.exec_module(module)
        return module

    _world_module = _load("converge_moto_world", os.path.join(_here, "moto_world.py"))
    WORLD_PATH, read_world = _world_module.WORLD_PATH, _world_module.read_world
    fidelity = _load(
        "converge_fidelity", os.path.join(_here, "fidelity", "__init__.py"), package=True
    )

#: One read-only request per service the plugin uses most, served right after
#: start-up through the app itself (no socket) while terraform init runs in the
#: parent. The first request of a service pays for its backend (EC2: ~1 s), its
#: WSGI app (built under a lock every first request waits on), botocore's model
#: of the service and the account lookup; paid here, on moto's own core, the
#: first apply finds them done. Service -> (X-Amz-Target or None, body).
WARM_UP: dict[str, tuple[str | None, str]] = {
    "sts": (None, "Action=GetCallerIdentity&Version=2011-06-15"),
    "iam": (None, "Action=ListRoles&Version=2010-05-08"),
    "ec2": (None, "Action=DescribeVpcs&Version=2016-11-15"),
    "s3": (None, ""),
    "sqs": (None, "Action=ListQueues&Version=2012-11-05"),
    "dynamodb": ("DynamoDB_20120810.ListTables", "{}"),
}
#: Services every run calls whatever its module holds: the provider asks STS (and IAM,
#: on aws 3.x) who it is when it is configured.
ALWAYS_WARM = ("sts", "iam")
#: ``POST`` here, a JSON ``{"services": [...], "region": "..."}`` (botocore's names):
#: the services the session's modules use, warmed up first (:class:`_WarmPlan`).
#: ``GET``: what the warm-up did, ``{"warmed": [[service, region], ...], "told": N}``
#: (``told``: how many it had warmed when the first hint came, or null).
WARM_PATH = "/converge-api/warm"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="moto_server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fd", type=int, default=None, help="a listening socket to serve on")
    args = parser.parse_args(argv)
    # Start-up and warm-up make millions of objects and almost no garbage: the cyclic
    # collector, run every few hundred allocations, only walks them again and again
    # (EC2's backend: 1.8 s -> 1.2-1.3 s of CPU without it). It is back on, with the
    # start-up's objects left out of its walks for good, once the backends are warm.
    gc.disable()

    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )
    from werkzeug.serving import make_server

    class QuietHandler(MotoRequestHandler):
        def log_request(self, *args: Any, **kwargs: Any) -> None:
            pass  # one line per API call would fill the parent's log for nothing

    # http.server's bind asks for the host's fully qualified name: a name lookup that
    # may go to DNS. A loopback server has no use for it.
    socket.getfqdn = lambda name="": name or "localhost"
    _share_aws_managed_policies()
    _share_botocore_loader()
    _lazy_instance_type_offerings()
    _fast_ec2_ids()
    _quick_default_amis()
    _quick_action_lookup()
    warmed, faithful = threading.Event(), threading.Event()
    dispatcher = DomainDispatcherApplication(create_backend_app)
    _remember_hosts(dispatcher)
    app = _ResetAfterWarmUp(dispatcher, warmed, faithful, _WarmPlan())
    try:
        server = make_server(
            args.host, args.port, app, threaded=True, request_handler=QuietHandler, fd=args.fd
        )
    except (OSError, SystemExit) as exc:
        # werkzeug prints and calls sys.exit(1) when the port is taken.
        print(f"CANNOT-BIND {args.host}:{args.port} {exc}", flush=True)
        return 3
    server.daemon_threads = True  # type: ignore[attr-defined]  # a ThreadedWSGIServer
    threading.Thread(target=_exit_with_parent, name="parent-watch", daemon=True).start()
    print(f"READY {server.server_address[1]}", flush=True)
    os.dup2(2, 1)  # the parent stops reading stdout now: anything later goes to the log
    threading.Thread(
        target=_warm_up, args=(app, warmed, faithful), name="warm-up", daemon=True
    ).start()
    server.serve_forever()
    return 0


def _remember_hosts(dispatcher: Any) -> None:
    """moto's dispatcher answers "which service is host X" once per host, not per request.

    It finds a request's service anew on every request, under the lock every
    request waits on: a listing of moto's package folder (a stat of each of its
    ~180 entries) and up to ~180 URL patterns tried in turn; the answer depends
    on the host alone. Measured: ~1 of the ~6 CPU seconds moto spent in a fault
    matrix of examples/network.
    """
    find = dispatcher.get_backend_for_host
    known: dict[str | None, Any] = {}

    def get_backend_for_host(host: str | None) -> Any:
        if host not in known:
            known[host] = find(host)
        return known[host]

    dispatcher.get_backend_for_host = get_backend_for_host


def _exit_with_parent() -> None:
    """Exit when stdin reaches EOF: the parent closed it, or died."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def _warm_up(app: Any, done: threading.Event, faithful: threading.Event) -> None:
    """Install the fidelity layer (requests wait for it), warm the backends up through
    ``app`` (the gate: each service's behaviours are in place before its first call),
    then install the behaviours no call has needed yet."""
    try:
        fidelity.install(lazy=True)
    except BaseException:
        _collect_again()  # the warm-up ends here: the collector must not stay off
        raise
    finally:
        faithful.set()
    try:
        if app.plan.claim():
            _warm_planned(app)
    finally:
        app.looped.set()  # a hint from now on is warmed by a thread of its own
        if app.plan.claim():  # one taken while this warmed the rest
            _warm_planned(app)
        # Before the rest of the layer, which waits for gaps between calls: a busy
        # server would otherwise keep its garbage for as long as its calls keep coming.
        _collect_again()
        try:
            fidelity.install_rest(before_each=app.quiet.wait)
        finally:
            done.set()
            fidelity.save_digests()


def _warm_planned(app: Any) -> None:
    """Warm what ``app``'s plan holds, a service at a time, until it holds nothing (the
    caller :meth:`~_WarmPlan.claim` ed it). Only a head start: a failure is left for the
    service's first call to meet."""
    from werkzeug.test import Client

    client = Client(app)
    while (next_up := app.plan.next()) is not None:
        service, region = next_up
        with app.making, contextlib.suppress(Exception):
            _prepare(service, region)
        if service not in WARM_UP:
            continue  # its backend is made: the first call builds moto's app for it
        target, body = WARM_UP[service]
        headers = {
            "Authorization": "AWS4-HMAC-SHA256 Credential=testing/20200101/"
            f"{region}/{service}/aws4_request, SignedHeaders=host, Signature=0",
            "Content-Type": "application/x-amz-json-1.0"
            if target
            else "application/x-www-form-urlencoded",
        }
        if target:
            headers["X-Amz-Target"] = target
        with app.making, contextlib.suppress(Exception):  # not a reset: takes no lock
            client.open("/", method="POST" if body else "GET", headers=headers, data=body).close()


def _collect_again() -> None:
    """Turn the cyclic collector back on (see :func:`main`), the objects made so far
    frozen: every later collection of the oldest generation skips them."""
    gc.freeze()
    gc.enable()


def _prepare(service: str, region: str = "us-east-1") -> None:
    """Import ``service``, install its behaviours and make the default account's backend
    in ``region`` (moto's app for the service holds us-east-1's), outside the lock under
    which moto makes that app (every request waits on that lock: a first EC2 backend
    takes 0.2-0.3 s). A global service (IAM) has one backend, its partition's."""
    from moto import backends
    from moto.core import DEFAULT_ACCOUNT_ID

    found: Any = backends.get_backend(service)  # type: ignore[call-overload]
    fidelity.install_imported()
    regions = found[DEFAULT_ACCOUNT_ID]
    for name in dict.fromkeys((region, "us-east-1")):
        if name in regions:
            _ = regions[name]
        elif "aws" in regions:
            _ = regions["aws"]


class _WarmPlan:
    """What the warm-up makes ready, in order: a service and the region it signs for.

    At first the services most modules use (:data:`WARM_UP`), in us-east-1. Told which
    services the session's first module uses (``POST`` :data:`WARM_PATH`), the warm-up
    makes those next, in its region, and leaves the rest of its first list: a module
    without a VPC does not wait for EC2's backend (1.2 CPU seconds, on the cores its
    apply runs on), and its first KMS or SNS call does not pay for that service's.
    The services of the modules told of later are warmed after those.
    """

    def __init__(self, services: Iterable[str] | None = None, region: str = "us-east-1") -> None:
        self._lock = threading.Lock()
        self._left = [(s, region) for s in (services if services is not None else WARM_UP)]
        self._done: list[tuple[str, str]] = []
        #: How many were warmed (or being warmed) when the first hint came.
        self._told: int | None = None
        #: A thread is warming what the plan holds (:meth:`claim`).
        self._warming = False

    def prefer(self, services: list[str], region: str) -> None:
        """Warm ``services`` (botocore's names) and :data:`ALWAYS_WARM` in ``region``:
        instead of the first list on the first hint, after the earlier hints' later."""
        wanted = [(s, region) for s in dict.fromkeys([*ALWAYS_WARM, *services])]
        with self._lock:
            kept = self._left if self._told is not None else []
            self._left = [*kept, *(w for w in wanted if w not in kept)]
            if self._told is None:
                self._told = len(self._done)

    def claim(self) -> bool:
        """Whether the caller is to warm what the plan holds: none is warming it, and it
        holds something. The one that does calls :meth:`next` until it answers None."""
        with self._lock:
            if self._warming or not any(up not in self._done for up in self._left):
                return False
            self._warming = True
            return True

    def next(self) -> tuple[str, str] | None:
        """The next service to warm and its region, or None when all are (the warming
        thread's claim ends then)."""
        with self._lock:
            while self._left:
                up = self._left.pop(0)
                if up not in self._done:
                    self._done.append(up)
                    return up
            self._warming = False
            return None

    def report(self) -> dict[str, Any]:
        """What ``GET`` :data:`WARM_PATH` answers."""
        with self._lock:
            return {"warmed": [list(d) for d in self._done], "told": self._told}

    def take(self, body: bytes) -> None:
        """A ``POST`` :data:`WARM_PATH` body; one that is not such a JSON is ignored."""
        try:
            asked = json.loads(body)
        except ValueError:
            return
        named = asked.get("services") if isinstance(asked, dict) else None
        if isinstance(named, list):
            self.prefer([str(s) for s in named], str(asked.get("region") or "us-east-1"))


class _ResetAfterWarmUp:
    """WSGI wrapper: requests wait for the fidelity layer, a reset for the warm-up.

    Every request waits until :func:`.fidelity.install` has run, and until the
    layer's behaviours for its own service are in place: while some wait for a
    first call (``lazy``), a request first has moto import its service
    (:func:`_import_service`), then :func:`.fidelity.install_imported` (moto answers as
    AWS does from the first call on, without importing 40 services before it).
    moto's reset walks every backend while the warm-up thread may be adding one:
    run together, the reset fails with a 500, so ``POST /moto-api/reset`` waits for
    the warm-up and the rest of the layer, and for a later hint's warm-up thread to
    end the service it is making (:attr:`making`). It also answers ``GET
    /converge-api/world`` (:func:`.moto_world.read_world`: the backend model, which
    holds what no describe call returns) and ``GET /converge-api/fidelity``
    (:func:`.fidelity.status`), both once the whole layer is installed.
    """

    def __init__(
        self,
        app: Any,
        warmed: threading.Event,
        faithful: threading.Event,
        plan: _WarmPlan | None = None,
    ) -> None:
        self.app = app
        self.warmed = warmed
        self.faithful = faithful
        self.quiet = _Quiet()
        self.plan = plan if plan is not None else _WarmPlan()
        #: The warm-up's first round is over: a later hint gets a thread of its own.
        self.looped = threading.Event()
        #: Held while a warm-up thread makes a service's backends: a reset and the world's
        #: read walk every backend, and moto's fail (a 500) if one is added meanwhile.
        self.making = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path = environ.get("PATH_INFO")
        if path == WARM_PATH and environ.get("REQUEST_METHOD") == "POST":
            self.plan.take(_body(environ))  # a hint, taken at once: no warm-up waits on it
            if self.looped.is_set() and self.plan.claim():
                threading.Thread(target=_warm_planned, args=(self,), daemon=True).start()
            start_response("204 No Content", [])
            return []
        if path == WARM_PATH:
            return _answer(start_response, self.plan.report)
        self.faithful.wait(timeout=120)
        if path in ("/moto-api/reset", WORLD_PATH, fidelity.STATUS_PATH):
            self.quiet.now.set()  # the rest of the layer at once, gaps or not
            self.warmed.wait(timeout=120)
        if path == WORLD_PATH:
            with self.making:
                return _answer(start_response, read_world)
        if path == fidelity.STATUS_PATH:
            return _answer(start_response, fidelity.status)
        if not self.warmed.is_set():  # behaviours may still wait for this call's service
            with contextlib.suppress(Exception):  # moto answers what it cannot route itself
                _import_service(self.app, environ)
            fidelity.install_imported()
        self.quiet.began()
        try:
            if path == "/moto-api/reset":
                with self.making:
                    return self.app(environ, start_response)
            return self.app(environ, start_response)
        finally:
            self.quiet.ended()


class _Quiet:
    """Whether the server is between calls: the fidelity layer's behaviours no call has
    needed yet (0.3 s of installing, a third of it importing moto's RDS) are installed
    one at a time, each once no request has been answered for :attr:`GAP` seconds, so
    a run's first calls do not wait for the interpreter behind them. A request that
    needs the whole layer (a reset, the world, the status) sets :attr:`now`.
    """

    GAP = 0.05

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._busy = 0
        self._last = time.monotonic()
        self.now = threading.Event()

    def began(self) -> None:
        with self._lock:
            self._busy += 1

    def ended(self) -> None:
        with self._lock:
            self._busy -= 1
            self._last = time.monotonic()

    def wait(self) -> None:
        """Return once no request is being answered and none was for :attr:`GAP`
        seconds, or at once after :attr:`now` is set."""
        while not self.now.is_set():
            with self._lock:
                left = self.GAP if self._busy else self._last + self.GAP - time.monotonic()
            if left <= 0:
                return
            self.now.wait(left)


def _import_service(dispatcher: Any, environ: dict[str, Any]) -> None:
    """Import the moto service a request is for, as moto's dispatch finds it, but
    without making its app: moto makes the app under a lock every request waits
    on, with the default account's backend in it, which must be made by code the
    fidelity layer has already patched."""
    from moto import backends

    path = environ.get("PATH_INFO", "")
    if isinstance(path, bytes):
        path = path.decode("utf-8", "replace")
    if path.startswith(("/moto-api", "/latest/")) or path == "/favicon.ico":
        return
    host = dispatcher.infer_service_region_host(environ, path)
    service = dispatcher.get_backend_for_host(host) if host else None
    if service and service != "moto_api":
        backends.get_backend(service)


def _body(environ: dict[str, Any], limit: int = 65536) -> bytes:
    """A request's body, up to ``limit`` bytes."""
    try:
        length = min(int(environ.get("CONTENT_LENGTH") or 0), limit)
    except ValueError:
        return b""
    stream = environ.get("wsgi.input")
    return stream.read(length) if stream is not None and length > 0 else b""


def _answer(start_response: Any, read: Any) -> list[bytes]:
    """A ``/converge-api/...`` answer: 200 and JSON, or 500 and the error."""

    try:
        status, data = "200 OK", json.dumps(read()).encode()
    except Exception as exc:  # a moto version whose model differs: say so, do not die
        status, data = "500 Internal Server Error", f"{type(exc).__name__}: {exc}".encode()
    start_response(status, [("Content-Type", "application/json")])
    return [data]


def _share_aws_managed_policies() -> None:
    """Make moto's ~1,600 AWS-managed IAM policies when first looked up, once per process.

    moto makes every one of them (from a 4.7 MB document) with each IAM backend: at the
    first request of any service (moto marks the account visited in IAM), so the
    first call of every run waited 0.26 s for them (0.2-1.7 s on a busy machine), and
    again after each reset. Here an IAM backend's ``managed_policies`` is
    :class:`_AwsPolicies`: the document is read when a call first looks at the
    policies (attaching one, listing them), and a policy made when first looked up,
    shared by the backends of its account (a reset's too: AWS-managed policies cannot
    be changed by a module; only their attachment count is state, and it restarts at
    0 for each backend).

    Only the ``aws`` partition gets them: moto builds an IAM backend for every
    partition (China, GovCloud, ISO) at the first call, five times the work, for
    regions no run here signs for.
    """
    from moto.iam import models

    policies = _AwsPolicyData(models)

    def init_aws_policies(self: Any) -> list[Any]:
        return []  # see init_managed_policies: no list of them all is kept

    def init_managed_policies(self: Any) -> Any:
        if self.partition != "aws" or not models.load_iam_aws_managed_policies():
            return {}
        return _AwsPolicies(policies, self)

    models.IAMBackend._init_aws_policies = init_aws_policies  # type: ignore[method-assign]
    models.IAMBackend._init_managed_policies = init_managed_policies  # type: ignore[method-assign]


class _AwsPolicyData:
    """moto's document of AWS-managed policies, read on first use, and each policy made
    from it once per account (:func:`_share_aws_managed_policies`)."""

    def __init__(self, models: Any) -> None:
        self._models = models
        #: Held while the document is read, a policy made, or a backend's map built.
        self.lock = threading.RLock()
        self._by_arn: dict[str, tuple[str, dict[str, Any]]] | None = None
        self._made: dict[tuple[str, str], Any] = {}

    def arns(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every policy's ARN -> its name and data, in the document's order."""
        with self.lock:
            if self._by_arn is None:
                found = json.loads(self._models.aws_managed_policies_data)
                self._by_arn = {
                    f"arn:aws:iam::aws:policy{d.get('Path') or '/'}{name}": (name, d)
                    for name, d in found.items()
                }
            return self._by_arn

    def policy(self, backend: Any, arn: str) -> Any:
        """The policy ``arn`` of ``backend``'s account (made now if it was not)."""
        with self.lock:
            key = (backend.account_id, arn)
            if key not in self._made:
                name, data = self.arns()[arn]
                self._made[key] = self._models.AWSManagedPolicy.from_data(
                    name, backend.account_id, backend.region_name, data
                )
            return self._made[key]


#: An AWS-managed policy :class:`_AwsPolicies` has not handed out yet.
_UNMADE = object()


class _AwsPolicies(MutableMapping[str, Any]):
    """One IAM backend's ``managed_policies`` (ARN -> policy, AWS's first, then the
    account's own in the order they were made, as moto keeps them): AWS's own made when
    first looked up, their attachment count at 0 for this backend."""

    def __init__(self, data: _AwsPolicyData, backend: Any) -> None:
        self._data = data
        self._backend = backend
        self._held: dict[str, Any] | None = None

    def _all(self) -> dict[str, Any]:
        # Made once, under the data's lock: moto serves calls in threads, and a second
        # thread that made its own would drop what the first had added meanwhile (three
        # CreatePolicy at once: a policy made, then GetPolicy answered 404 for good).
        held = self._held
        if held is None:
            with self._data.lock:
                if self._held is None:
                    self._held = dict.fromkeys(self._data.arns(), _UNMADE)
                held = self._held
        return held

    def __getitem__(self, arn: str) -> Any:
        held = self._all()
        found = held[arn]
        if found is _UNMADE:
            with self._data.lock:
                found = held[arn]
                if found is _UNMADE:
                    found = self._data.policy(self._backend, arn)
                    found.attachment_count = 0
                    held[arn] = found
        return found

    def __setitem__(self, arn: str, policy: Any) -> None:
        self._all()[arn] = policy

    def __delitem__(self, arn: str) -> None:
        del self._all()[arn]

    def __contains__(self, arn: object) -> bool:
        return arn in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._all()))

    def __len__(self) -> int:
        return len(self._all())


def _share_botocore_loader() -> None:
    """One data loader for the whole process, moto's, so each document is parsed once.

    moto opens a new botocore session for every service it builds (to list the
    service's regions), and each session's new loader parses the endpoint and
    service documents again: 0.6 s of the first request on a fresh server. moto
    then parses each service's model a second time with a loader of its own (one
    that adds moto's extra shapes) to read requests: 0.1 s more of each service's
    first call (EC2's model is 2 MB). Both get one loader here, moto's kind (its
    search path is botocore's with moto's folder in front, which holds only those
    extras). The documents are files; they do not change while a process runs.
    """
    from botocore import loaders, session

    original = loaders.create_loader
    shared: dict[str | None, Any] = {}
    lock = threading.Lock()
    try:
        from moto.core import loaders as moto_loaders
        from moto.core import utils as moto_utils

        moto_loader: Any = moto_loaders.create_loader()
    except (ImportError, AttributeError, TypeError):  # another moto: share botocore's only
        moto_loader = None
    else:
        shared[None] = moto_loader
        moto_utils.create_loader = lambda: moto_loader

    def create_loader(search_path_string: str | None = None) -> Any:
        with lock:
            if search_path_string not in shared:
                shared[search_path_string] = original(search_path_string)
            return shared[search_path_string]

    session.create_loader = create_loader


#: moto's EC2 module that reads every instance type offering file when imported.
_OFFERINGS_MODULE = "moto.ec2.models.instance_types"


def _lazy_instance_type_offerings() -> None:
    """Read moto's instance type offerings on first use, not when EC2 is imported.

    ``moto.ec2.models.instance_types`` decompresses and parses ~90 JSON files (every
    region's offerings, by region, zone and zone id) at import: 0.2 s of the first
    EC2 call, which every module with a VPC makes, for ``DescribeInstanceTypeOfferings``
    and the instance type check of ``RunInstances``, which few do. Its import runs
    with ``os.listdir`` showing the offerings' folders empty; each location type's
    table then reads its files the first time it is looked at. A moto whose module
    reads them otherwise is imported unchanged.
    """
    _on_import(_OFFERINGS_MODULE, _offerings_read_later)


class _FunctionNames:
    """``name in`` the names of a class's functions, answered for that one name.

    moto's ``call_action`` asks whether an action is a method of the service's
    response class by listing every function of the class first
    (``inspect.getmembers``, sorted): 0.85 ms an EC2 call (301 functions), ~0.5 s
    of moto's CPU in a fault matrix of examples/network. The answer is the same:
    the name is in the class's or a base's namespace and its value is a function.
    """

    __slots__ = ("_cls",)

    def __init__(self, cls: type) -> None:
        self._cls = cls

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str) or not any(name in vars(k) for k in self._cls.__mro__):
            return False
        return inspect.isfunction(getattr(self._cls, name, None))

    def __iter__(self) -> Iterator[str]:
        return iter(name for name, _ in inspect.getmembers(self._cls, inspect.isfunction))


def _quick_action_lookup() -> None:
    """moto's responses ask :class:`_FunctionNames` whether an action is theirs."""
    from moto.core import responses

    responses.method_names_from_class = _FunctionNames  # type: ignore[assignment]


def _fast_ec2_ids() -> None:
    """EC2's random ids from one draw of moto's random source, not one draw per digit.

    moto's EC2 backend, made at the first EC2 call and again after every reset,
    registers ~1,300 default AMIs, each with a snapshot and a volume whose ids
    (17 hex digits) ``random_resource_id`` draws digit by digit with
    ``random.choice``: ~45,000 draws, 0.15 s of every first EC2 call. The same
    digits come from ``getrandbits`` on the same generator (moto's, which
    ``/moto-api/seed`` seeds), as uniform and as repeatable.
    """

    def after(exec_module: Any) -> Any:
        def run(module: Any) -> None:
            exec_module(module)
            source = getattr(module, "random", None)
            if callable(getattr(module, "random_resource_id", None)) and hasattr(
                source, "getrandbits"
            ):

                def random_resource_id(size: int = 8) -> str:
                    return format(source.getrandbits(4 * size), f"0{size}x")  # type: ignore[union-attr]

                module.random_resource_id = random_resource_id

        return run

    _on_import("moto.ec2.utils", after)


def _quick_default_amis() -> None:
    """EC2's ~1,300 default AMIs made when a call first looks at images or snapshots,
    with one zone lookup, not one per AMI.

    moto makes them (each with a volume and a snapshot: ~4,000 objects, 0.14 s) with
    every EC2 backend: at the first EC2 call, and again for each region's backend at
    every reset, whatever the module calls; a fault matrix resets before each run. Here
    an EC2 backend's ``amis`` and ``snapshots`` are properties (:func:`_lazy_amis`):
    moto's own loader runs the first time either is read (DescribeImages, an
    instance's AMI, DescribeSnapshots, the tagging API), so what any call sees is what
    moto's eager load gives it. Each default AMI's volume looks its zone up by name,
    which lists every zone of the region anew; while the AMIs load, the backend
    answers the same name with the same zone from a table. The AMI files are parsed
    once per process (:func:`_kept_resource`).
    """

    def after(exec_module: Any) -> Any:
        def run(module: Any) -> None:
            exec_module(module)
            _defer_default_amis(module)

        return run

    _on_import("moto.ec2.models.amis", after)


def _defer_default_amis(module: Any) -> None:
    """:func:`_quick_default_amis` on moto's ``moto.ec2.models.amis`` once imported."""
    backend = getattr(module, "AmiBackend", None)
    load = getattr(backend, "_load_amis", None)
    if backend is None or load is None:
        return

    def _load_amis(self: Any) -> None:
        find = getattr(self, "get_zone_by_name", None)
        if find is None:
            return load(self)
        zones: dict[str, Any] = {}

        def get_zone_by_name(name: str) -> Any:
            if name not in zones:
                zones[name] = find(name)
            return zones[name]

        vars(self)["get_zone_by_name"] = get_zone_by_name
        try:
            return load(self)
        finally:
            vars(self).pop("get_zone_by_name", None)

    read = getattr(module, "load_resource", None)
    if callable(read):
        module.load_resource = _kept_resource(read)
    try:
        ebs = importlib.import_module("moto.ec2.models.elastic_block_store")
    except ImportError:  # another moto: eager, as moto makes them (see _lazy_amis)
        ebs = None
    _lazy_amis(backend, getattr(ebs, "EBSBackend", None), _load_amis)


#: Instance keys of :func:`_lazy_amis`: the two dicts, and "the default AMIs are due".
_AMIS, _SNAPSHOTS, _AMIS_DUE = "_converge_amis", "_converge_snapshots", "_converge_amis_due"
_AMIS_LOCK = threading.RLock()


def _lazy_amis(amis: Any, ebs: Any, load: Callable[[Any], None]) -> None:
    """Make ``amis.amis`` (moto's ``AmiBackend``) and ``ebs.snapshots`` (``EBSBackend``,
    which holds each default AMI's snapshot) properties that run ``load`` (the default
    AMIs) on a backend the first time either is read; ``_load_amis`` only marks it due.
    Without the EBS class nothing changes (moto's eager load)."""
    if isinstance(vars(amis).get("amis"), property):
        return  # deferred already
    if ebs is None or "snapshots" in vars(ebs) or "amis" in vars(amis):
        amis._load_amis = load
        return

    def due(self: Any) -> None:
        state = vars(self)
        if state.get(_AMIS_DUE):  # True, or "loading" (another thread waits for it)
            with _AMIS_LOCK:
                if state.get(_AMIS_DUE) is True:
                    state[_AMIS_DUE] = "loading"  # the load reads both properties
                    try:
                        load(self)
                    finally:
                        state.pop(_AMIS_DUE, None)

    def mark_due(self: Any) -> None:
        vars(self)[_AMIS_DUE] = True

    def kept(key: str) -> property:
        def get(self: Any) -> Any:
            due(self)
            try:
                return vars(self)[key]
            except KeyError:
                raise AttributeError(key) from None

        def put(self: Any, value: Any) -> None:
            vars(self)[key] = value

        return property(get, put)

    amis.amis = kept(_AMIS)
    ebs.snapshots = kept(_SNAPSHOTS)
    amis._load_amis = mark_due


def _kept_resource(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """``load_resource`` for a list of records, parsed once per process: each call gets
    new copies of the records (the AMI loader writes into them), not a new parse
    (the region's latest and ECS-optimised AMIs: 0.14 s of each EC2 backend made)."""
    kept: dict[str, Any] = {}
    lock = threading.Lock()

    def load_resource(path: str) -> Any:
        with lock:
            if path not in kept:
                kept[path] = read(path)  # FileNotFoundError: not kept, raised each time
            found = kept[path]
        if isinstance(found, list) and all(isinstance(item, dict) for item in found):
            return [dict(item) for item in found]
        return copy.deepcopy(found)

    return load_resource


def _on_import(name: str, wrap: Callable[[Any], Any]) -> None:
    """Run module ``name``'s import through ``wrap(exec_module)`` when it is first imported."""
    import importlib.machinery

    class Finder:
        @staticmethod
        def find_spec(fullname: str, path: Any = None, target: Any = None) -> Any:
            if fullname != name:
                return None
            sys.meta_path.remove(Finder)
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is not None and spec.loader is not None:
                spec.loader.exec_module = wrap(spec.loader.exec_module)  # type: ignore[method-assign]
            return spec

    if name not in sys.modules:
        sys.meta_path.insert(0, Finder)


def _offerings_read_later(exec_module: Any) -> Any:
    """``exec_module`` of moto's instance type module, its offerings read on first use."""

    def run(module: Any) -> None:
        import moto

        listdir = os.listdir
        root = os.path.join(
            os.path.dirname(moto.__file__), "ec2", "resources", "instance_type_offerings"
        )
        skipped: set[str] = set()

        def empty_below_root(path: Any = ".") -> list[str]:
            where = os.fspath(path)
            if os.path.dirname(where) == root:
                skipped.add(os.path.basename(where))
                return []
            return listdir(path)

        os.listdir = empty_below_root  # type: ignore[assignment]
        try:
            exec_module(module)
        finally:
            os.listdir = listdir
        table = getattr(module, "INSTANCE_TYPE_OFFERINGS", None)
        if not skipped:
            return
        if not isinstance(table, dict) or any(table.get(kind) != {} for kind in skipped):
            exec_module(module)  # not the module this was written for: read them now
            return
        module.listdir = listdir
        for kind in skipped:
            table[kind] = _Offerings(module, os.path.join(root, kind), kind)

    return run


class _Offerings(Mapping[str, Any]):
    """One location type's offerings by region, read when first looked at (``get``,
    ``in``, ``items`` and the rest come from ``Mapping``, through these three)."""

    def __init__(self, module: Any, folder: str, kind: str) -> None:
        self._module, self._folder, self._kind = module, folder, kind
        self._lock = threading.Lock()
        self._read = False
        self._regions: dict[str, Any] = {}

    def _filled(self) -> dict[str, Any]:
        with self._lock:
            if not self._read:
                where = os.path.join("ec2", "resources", "instance_type_offerings", self._kind)
                for name in os.listdir(self._folder):
                    offers = self._module.load_resource(os.path.join(where, name))
                    for offer in offers:
                        offer["LocationType"] = self._kind
                    self._regions[name.split(".")[0]] = offers
                self._read = True
        return self._regions

    def __getitem__(self, region: str) -> Any:
        return self._filled()[region]

    def __iter__(self) -> Iterator[str]:
        return iter(self._filled())

    def __len__(self) -> int:
        return len(self._filled())


if __name__ == "__main__":
    sys.exit(main())
