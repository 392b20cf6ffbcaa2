"""A gRPC relay between terraform and a reattached provider that answers schema requests once.

Terraform asks a provider for its whole schema again and again: seven
``GetSchema`` calls in one ``terraform plan`` of one resource on aws 5.100.0
(terraform keeps no schema across the clients it opens to a reattached
provider), and the provider builds the answer anew each time (~0.9 CPU
seconds for the ~1,500 resource types of aws 5.x). The answer depends only on
the provider's build, so the relay forwards the first request of a build and
replays its answer to every later one, in every command and every Stack of
this process. Every other call, the plugin protocol's own streams included,
is forwarded byte for byte (``grpcio`` generic handlers, no decoding):
configure, plan, apply and read reach the provider as terraform sent them.

The schema answer the relay replays says the provider does not need to be asked
for it again (``get_provider_schema_optional``, a capability terraform >= 1.6
reads and newer provider SDKs declare themselves): one terraform command then
asks and decodes it once and keeps it for every client it opens, instead of once
per client (aws 3.39.0: a fault matrix of examples/network spends 15-20% less
CPU). A provider answers any call without a schema call before it, as it must
for a terraform that holds the schema.

    relay = SchemaRelay(upstream="/tmp/cvp-x/plugin123", listen="/tmp/cvp-x/relay.sock",
                        build=("/path/to/terraform-provider-aws", size, mtime_ns))
    relay.start()      # serves on ``listen``; point TF_REATTACH_PROVIDERS there
    relay.stop()

The whole schema is also the larger part of every terraform command's own work:
terraform decodes all of it (~2,100 resource and data source types on aws 5.100.0:
~0.6 s a command; ~950 on 3.39) to use the few a module declares. Given the
module's working directory (``names=``), the relay answers with the types its
configuration and state can name and no others (:func:`trimmed`,
:func:`names_in_use`): a word of a ``.tf`` or ``.tf.json`` file of the module or of
a module it calls, or of its state. A type's name is a literal label wherever
terraform reads one (a block, ``moved``, ``import``, ``removed``, a state entry), so
nothing terraform asks for is left out; a type no file names would be terraform's
own error ("does not support resource type"), never a changed plan.

With ``per_configuration`` (a module with more than one aws provider configuration:
an alias, a called module's own ``provider`` block) the relay listens on a loopback
TCP port instead, where each of terraform's clients is a connection of its own
(``context.peer()``): terraform configures one client per configuration, and a
provider process holds one configuration, so each client that configures gets a
provider process of its own (``per_configuration()`` starts it) for its calls from
then on. Calls of clients that configure nothing (schema, validation, state upgrades)
go to the Stack's provider. Those processes end with the command (:meth:`end_command`).
Without the relay such a module gets terraform's own processes, each asked for the
whole schema and validation again (aws 5.x: ~4 CPU s a process).

Without ``grpcio`` (:func:`available` is False) the provider is reattached
directly, as before.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Collection, Iterator
from concurrent import futures
from pathlib import Path
from typing import Any, Protocol

from .hcl import config_files, module_dirs

_log = logging.getLogger("pytest_converge")

#: Calls whose answer is a function of the provider's build, its environment and the
#: request's bytes alone (plugin protocols 5 and 6): the schema, and the provider
#: configuration's validation (the SDK's PrepareProviderConfig checks every
#: resource type's schema first: ~2.8 CPU s on aws 5.100.0, twice per plan).
SCHEMA_METHODS = frozenset(
    {
        "/tfplugin5.Provider/GetSchema",
        "/tfplugin5.Provider/PrepareProviderConfig",
        "/tfplugin6.Provider/GetProviderSchema",
        "/tfplugin6.Provider/ValidateProviderConfig",
    }
)
#: The plugin protocol's unary calls (protocols 5 and 6; the others, and go-plugin's own
#: broker and stdio streams, go through the streaming path): relayed as one message each
#: way, without the streaming path's thread per call to feed the request.
_UNARY = frozenset(
    f"/tfplugin{version}.Provider/{name}"
    for version in (5, 6)
    for name in (
        "GetMetadata", "GetSchema", "GetProviderSchema", "PrepareProviderConfig",
        "ValidateProviderConfig", "ValidateResourceTypeConfig", "ValidateResourceConfig",
        "ValidateDataSourceConfig", "ValidateDataResourceConfig", "UpgradeResourceState",
        "Configure", "ConfigureProvider", "ReadResource", "PlanResourceChange",
        "ApplyResourceChange", "ImportResourceState", "MoveResourceState", "ReadDataSource",
        "GetFunctions", "CallFunction", "Stop", "StopProvider",
    )
)  # fmt: skip
#: The calls that configure a provider process (one configuration a process).
CONFIGURE_METHODS = frozenset(
    {"/tfplugin5.Provider/Configure", "/tfplugin6.Provider/ConfigureProvider"}
)
#: The calls whose answer is the provider's whole schema.
SCHEMA_ANSWERS = frozenset(
    {"/tfplugin5.Provider/GetSchema", "/tfplugin6.Provider/GetProviderSchema"}
)
#: ``server_capabilities { get_provider_schema_optional: true }`` on the wire: field 6 of
#: the schema answer (``ServerCapabilities``, length 2) holding field 2 (a varint, 1).
#: Appended to an answer, it merges into the capabilities the provider sent (protobuf
#: merges a repeated embedded message), whatever else they say.
SCHEMA_OPTIONAL = b"\x32\x02\x10\x01"
#: Streams terraform keeps open per client (go-plugin's broker and stdio) hold a
#: worker each while a command runs; terraform opens several clients per command.
MAX_WORKERS = 64
#: Messages as large as a provider's schema (aws 5.x: megabytes), both ways; and a
#: unix socket is never reached through the user's ``http_proxy``/``grpc_proxy``.
# gRPC's fork handlers are for a child that goes on using gRPC; every child of this
# process execs at once (a provider, terraform, moto). Left on, a fork made while a
# relay thread is in a gRPC call (the provider's start, which forks to run its
# preexec_fn) can abort the child: the provider exits -6 with no reattach value.
# grpc's fork_support.md: set GRPC_ENABLE_FORK_SUPPORT=false when every fork execs.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

_UNLIMITED = [
    ("grpc.max_receive_message_length", -1),
    ("grpc.max_send_message_length", -1),
    ("grpc.enable_http_proxy", 0),
]

#: (provider build, method, request bytes) -> the answer's bytes, for this process.
_answers: dict[tuple[object, str, bytes], bytes] = {}
_answers_lock = threading.Lock()
#: (that key, the types kept) -> the trimmed answer (:func:`trimmed`), one per module.
_trims: dict[tuple[tuple[object, str, bytes], frozenset[str]], bytes] = {}
_TRIMS_KEPT = 64
#: That key -> the type names its answer holds (:func:`type_names`).
_types: dict[tuple[object, str, bytes], frozenset[str]] = {}


def available() -> bool:
    """``grpcio`` imports here."""
    try:
        import grpc  # noqa: F401
    except ImportError:
        return False
    return True


def import_soon() -> None:
    """Import ``grpcio`` in a thread, while the provider starts: the relay is made as
    soon as the provider says where it listens (an import in the way: ~60 ms)."""
    if "grpc" not in sys.modules:
        threading.Thread(target=available, name="converge-grpc-import", daemon=True).start()


def cached_builds() -> int:
    """How many answers this process holds (schemas per build, provider configs per
    Stack's configuration; for tests)."""
    with _answers_lock:
        return len(_answers)


class Upstream(Protocol):
    """A provider process of one configuration (:class:`SchemaRelay`'s ``per_configuration``)."""

    #: The unix socket it serves on (known once it started).
    address: str | None

    def kill(self) -> None: ...
    def stop(self) -> None: ...


class SchemaRelay:
    """Serves on ``listen`` (a unix socket path; with ``per_configuration``, a loopback
    port it picks, then ``host:port``) and relays to ``upstream``'s socket."""

    def __init__(
        self,
        upstream: str,
        listen: str,
        build: object,
        names: Callable[[], Collection[str] | None] | None = None,
        per_configuration: Callable[[], Upstream] | None = None,
    ) -> None:
        self.upstream = upstream
        self.listen = listen
        self.build = build
        #: Starts a provider process for a client that configures (see the module docstring).
        self.per_configuration = per_configuration
        #: terraform's client (its connection's peer) -> its process and channel.
        self._clients: dict[str, tuple[Upstream, Any]] = {}
        self._clients_lock = threading.Lock()
        #: Provider processes started for configurations, since start.
        self.configured = 0
        #: The type names the next command may need (:func:`names_in_use`), asked at
        #: each schema answer; None (or its None) answers the whole schema.
        self.names = names
        #: Schema answers given trimmed to the names in use.
        self.trimmed = 0
        #: Schema requests answered from memory / forwarded, since start.
        self.replayed = 0
        self.forwarded = 0
        #: Of those, the calls for the whole schema (:data:`SCHEMA_ANSWERS`).
        self.schema_calls = 0
        self._server: Any = None
        self._channel: Any = None

    def start(self) -> None:
        import grpc

        self._channel = grpc.insecure_channel(f"unix:{self.upstream}", options=_UNLIMITED)
        server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="tf-relay"),
            handlers=[_make_handler(self)],
            options=_UNLIMITED,
        )
        if self.per_configuration is not None:
            # One connection per client: a unix socket's peers all read "unix:".
            port = server.add_insecure_port("127.0.0.1:0")
            if port == 0:
                raise OSError("cannot listen on a loopback port")
            self.listen = f"127.0.0.1:{port}"
        elif server.add_insecure_port(f"unix:{self.listen}") == 0:
            raise OSError(f"cannot listen on unix:{self.listen}")
        server.start()
        self._server = server

    def stop(self) -> None:
        server, self._server = self._server, None
        channel, self._channel = self._channel, None
        if server is not None:
            server.stop(grace=None).wait(timeout=5)
        if channel is not None:
            channel.close()
        self.end_command()

    def end_command(self) -> None:
        """Stop the configurations' provider processes (terraform's clients end with
        its command; the next command's clients are new connections)."""
        with self._clients_lock:
            clients, self._clients = list(self._clients.values()), {}
        for upstream, channel in clients:
            channel.close()
            upstream.stop()

    def kill_configurations(self) -> None:
        """SIGKILL the configurations' provider processes now (what a crash does)."""
        with self._clients_lock:
            clients = list(self._clients.values())
        for upstream, _ in clients:
            upstream.kill()

    def _channel_for(self, method: str, context: Any) -> Any:
        """The channel ``context``'s client is served by: its own provider process once it
        has configured one (started at its configure call), else the Stack's."""
        if self.per_configuration is None:
            return self._channel
        peer = context.peer()
        with self._clients_lock:
            known = self._clients.get(peer)
            if known is not None:
                return known[1]
            if method not in CONFIGURE_METHODS:
                return self._channel
            # Started under the lock: terraform configures its clients one by one.
            import grpc

            try:
                upstream = self.per_configuration()
            except Exception as exc:
                context.abort(
                    grpc.StatusCode.UNAVAILABLE,
                    f"pytest-converge could not start a provider process for this "
                    f"configuration: {exc}",
                )
            channel = grpc.insecure_channel(f"unix:{upstream.address}", options=_UNLIMITED)
            self._clients[peer] = (upstream, channel)
            self.configured += 1
            return channel

    def relay_one(self, method: str, request: bytes, context: Any) -> bytes:
        """One unary call: the answer from memory (a schema call) or the provider's."""
        if method in SCHEMA_METHODS:
            return b"".join(self._schema(method, iter([request]), context))
        import grpc

        channel = self._channel_for(method, context)
        call = channel.unary_unary(method).future(request, metadata=_metadata(context))
        context.add_callback(call.cancel)  # terraform went away: so does the upstream call
        try:
            answer: bytes = call.result()
        except grpc.FutureCancelledError:
            context.abort(grpc.StatusCode.CANCELLED, "terraform cancelled the call")
        except grpc.RpcError as exc:
            _fail_as(exc, context)
        trailing = call.trailing_metadata()
        if trailing:
            context.set_trailing_metadata(trailing)
        return answer

    def relay(self, method: str, requests: Iterator[bytes], context: Any) -> Iterator[bytes]:
        """One call, any shape (unary or streaming: the wire is the same)."""
        if method in SCHEMA_METHODS:
            yield from self._schema(method, requests, context)
            return
        yield from self._forward(method, requests, context)

    def _schema(self, method: str, requests: Iterator[bytes], context: Any) -> Iterator[bytes]:
        request = b"".join(requests)
        key = (self.build, method, request)
        # Held while the first answer is fetched: terraform's clients ask at once.
        with _answers_lock:
            self.schema_calls += method in SCHEMA_ANSWERS
            answer = _answers.get(key)
            if answer is not None:
                self.replayed += 1
                answers = [answer]
            else:
                answers = list(self._forward(method, iter([request]), context))
                if len(answers) == 1:
                    if method in SCHEMA_ANSWERS:
                        answers[0] += SCHEMA_OPTIONAL
                    _answers[key] = answers[0]
                self.forwarded += 1
        if method in SCHEMA_ANSWERS and len(answers) == 1 and self.names is not None:
            answers = [self._trim(key, answers[0])]
        yield from answers

    def _trim(self, key: tuple[object, str, bytes], answer: bytes) -> bytes:
        """``answer`` with the types :attr:`names` gives, whole when it gives None or
        fails (a trim saves time, it never costs a run)."""
        assert self.names is not None
        try:
            found = self.names()
        except Exception as exc:
            _log.debug("schema answered whole: the names in use are unknown (%s)", exc)
            return answer
        if found is None:
            return answer
        with _answers_lock:
            types = _types.get(key)
        if types is None:
            types = type_names(answer)
            with _answers_lock:
                _types[key] = types
        # The types kept, not the words found: a state's words change with every apply.
        kept = types.intersection(found)
        with _answers_lock:
            done = _trims.get((key, kept))
        if done is None:
            done = trimmed(answer, kept)
            with _answers_lock:
                if len(_trims) >= _TRIMS_KEPT:
                    _trims.clear()
                _trims[(key, kept)] = done
        self.trimmed += done is not answer
        return done

    def _forward(self, method: str, requests: Iterator[bytes], context: Any) -> Iterator[bytes]:
        import grpc

        call = self._channel_for(method, context).stream_stream(method)(
            _until_cancelled(requests), metadata=_metadata(context)
        )
        context.add_callback(call.cancel)  # terraform went away: so does the upstream call
        try:
            yield from call
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.CANCELLED and not context.is_active():
                return
            _fail_as(exc, context)
        else:
            trailing = call.trailing_metadata()
            if trailing:
                context.set_trailing_metadata(trailing)


#: Fields of the schema answer (``GetProviderSchema.Response``, protocols 5 and 6)
#: that map a type's name to its schema: managed resources (2), data sources (3) and
#: ephemeral resources (8). Functions, the provider's own schema and every field a
#: later protocol adds pass whole.
_NAMED_SCHEMAS = frozenset({2, 3, 8})
_LENGTH_DELIMITED = 2


def trimmed(answer: bytes, wanted: Collection[str]) -> bytes:
    """``answer``, a schema answer's bytes, with only the entries of the
    :data:`_NAMED_SCHEMAS` fields whose name is in ``wanted``; every other field byte
    for byte, in order. An answer that does not parse as protobuf is returned whole::

        trimmed(answer, {"aws_vpc", "aws_subnet", "aws_iam_policy_document"})
    """
    kept: list[bytes] = []
    dropped = False
    try:
        for number, kind, start, end in _wire_fields(answer):
            field = answer[start:end]
            if number in _NAMED_SCHEMAS and kind == _LENGTH_DELIMITED:
                if _entry_name(field) not in wanted:
                    dropped = True
                    continue
            kept.append(field)
    except (IndexError, ValueError, UnicodeDecodeError):
        return answer
    return b"".join(kept) if dropped else answer


def type_names(answer: bytes) -> frozenset[str]:
    """The names of the types a schema answer holds (the :data:`_NAMED_SCHEMAS` fields);
    none for an answer that does not parse."""
    names: set[str] = set()
    try:
        for number, kind, start, end in _wire_fields(answer):
            if number in _NAMED_SCHEMAS and kind == _LENGTH_DELIMITED:
                name = _entry_name(answer[start:end])
                if name is not None:
                    names.add(name)
    except (IndexError, ValueError, UnicodeDecodeError):
        return frozenset()
    return frozenset(names)


def _varint(data: bytes, i: int) -> tuple[int, int]:
    """The varint at ``data[i:]`` and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def _wire_fields(data: bytes) -> Iterator[tuple[int, int, int, int]]:
    """``(field number, wire type, start, end)`` of each top-level field of a message;
    ``data[start:end]`` is the field with its tag. Raises ValueError on bad wire data."""
    i = 0
    while i < len(data):
        start = i
        tag, i = _varint(data, i)
        kind = tag & 7
        if kind == 0:
            _, i = _varint(data, i)
        elif kind == 1:
            i += 8
        elif kind == _LENGTH_DELIMITED:
            size, i = _varint(data, i)
            i += size
        elif kind == 5:
            i += 4
        else:
            raise ValueError(f"wire type {kind}")
        if i > len(data):
            raise ValueError("field runs past the message")
        yield tag >> 3, kind, start, i


def _entry_name(field: bytes) -> str | None:
    """The key (field 1, a string) of a map entry given with its tag and length."""
    _, i = _varint(field, 0)
    _, i = _varint(field, i)
    entry = field[i:]
    for number, kind, start, end in _wire_fields(entry):
        if number == 1 and kind == _LENGTH_DELIMITED:
            _, j = _varint(entry, start)
            _, j = _varint(entry, j)
            return entry[j:end].decode()
    return None


#: Words of a file: every name terraform could read as a type's (``aws_vpc``).
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_-]*")
#: A configuration file's path -> ((size, mtime_ns), its words): read again only when
#: it changes (a state changes with every apply: it is read each time, not kept).
_words: dict[Path, tuple[tuple[int, int], frozenset[str]]] = {}
_WORDS_KEPT = 4096
_words_lock = threading.Lock()


def names_in_use(workdir: Path) -> frozenset[str]:
    """Every word of the files that can name a type for a terraform command run in
    ``workdir``: the ``.tf``/``.tf.json`` files of the module, of the local modules it
    calls and of those ``.terraform/modules/modules.json`` lists, and its state
    (``terraform.tfstate``, the backup, and each workspace's under
    ``terraform.tfstate.d``). A superset of the type names in use: the schema
    answer keeps those of them that are types (:func:`trimmed`)."""
    workdir = Path(workdir)
    found: set[str] = set()
    for directory in module_dirs(workdir):
        for path in config_files(directory):
            found |= _config_words(path)
    states = [workdir / "terraform.tfstate", workdir / "terraform.tfstate.backup"]
    for path in [*states, *sorted(workdir.glob("terraform.tfstate.d/*/terraform.tfstate"))]:
        try:
            found.update(w.decode() for w in _WORD.findall(path.read_bytes()))
        except OSError:
            continue  # none yet
    return frozenset(found)


def _config_words(path: Path) -> frozenset[str]:
    try:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns)
        with _words_lock:
            known = _words.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        words = frozenset(w.decode() for w in _WORD.findall(path.read_bytes()))
    except OSError:
        return frozenset()
    with _words_lock:
        if len(_words) >= _WORDS_KEPT:
            _words.clear()
        _words[path] = (stamp, words)
    return words


def _fail_as(exc: Any, context: Any) -> None:
    """End terraform's call as the provider ended it (its status, details and trailing
    metadata): ``context.abort`` raises."""
    trailing = exc.trailing_metadata() if hasattr(exc, "trailing_metadata") else None
    if trailing:
        context.set_trailing_metadata(trailing)
    context.abort(exc.code(), exc.details() or "")


def _metadata(context: Any) -> list[tuple[str, Any]]:
    """The call's metadata to pass on: terraform's own, not the transport's."""
    return [
        (k, v)
        for k, v in context.invocation_metadata()
        if not k.startswith((":", "grpc-")) and k not in ("user-agent", "te", "content-type")
    ]


def _until_cancelled(requests: Iterator[bytes]) -> Iterator[bytes]:
    """terraform's messages of one call; ends quietly where terraform cancelled the call
    (grpc would log the error of the iterator with a traceback, as if it were ours)."""
    import grpc

    try:
        yield from requests
    except grpc.RpcError:
        return


def _make_handler(relay: SchemaRelay) -> Any:
    """The generic handler (grpc is imported on first use, not with the plugin)."""
    import grpc

    class Handler(grpc.GenericRpcHandler):
        def service(self, details: Any) -> Any:
            method = details.method
            if method in _UNARY:

                def one(request: bytes, context: Any) -> bytes:
                    return relay.relay_one(method, request, context)

                return grpc.unary_unary_rpc_method_handler(one)

            def call(requests: Iterator[bytes], context: Any) -> Iterator[bytes]:
                return relay.relay(method, requests, context)

            return grpc.stream_stream_rpc_method_handler(call)

    return Handler()
