"""The shortcuts issue #36 put on a run's path: each still gives what it shortens.

A server stops without waiting out its poll interval; the inventory taken beside a
plan lists what was known when it started and hands its error to the caller; moto's
dispatcher is asked about a host once, and whether an action is a response class's
method without listing the class; the relay's schema answer says it need not be
asked again.
"""

from __future__ import annotations

import socketserver
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_converge.emulator.moto_server import _FunctionNames, _Quiet, _remember_hosts
from pytest_converge.errors import EmulatorError
from pytest_converge.inventory import CloudObject
from pytest_converge.isolation.local_server import serve_in_thread, shut_down
from pytest_converge.run.touched import Touched
from pytest_converge.terraform.schema_proxy import SCHEMA_OPTIONAL, _varint, _wire_fields


class _Silent(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.request.recv(1)


def test_a_server_stops_without_waiting_out_its_poll_interval() -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Silent)
    thread = serve_in_thread(server, "test-server", poll_interval=30.0)
    time.sleep(0.05)  # the loop is in its select, for up to 30 s
    started = time.monotonic()
    shut_down(server)
    server.server_close()
    assert time.monotonic() - started < 10.0, "shutdown waited for the poll interval"
    thread.join(timeout=1.0)
    assert not thread.is_alive()


class _Emulator:
    name = "fake"
    region = "us-east-1"
    endpoint = "http://127.0.0.1:1"

    def is_alive(self) -> bool:
        return True


def test_the_inventory_beside_a_plan_lists_the_regions_known_when_it_started(
    tmp_path: Path,
) -> None:
    asked: list[list[str]] = []
    go = threading.Event()

    def listers(emulator: Any, regions: list[str], services: Any) -> list[CloudObject]:
        go.wait(timeout=5)
        asked.append(list(regions))
        return [CloudObject("aws_sqs_queue", f"q-{r}", region=r) for r in regions]

    touched = Touched(_Emulator(), tmp_path, (), listers=listers)  # type: ignore[arg-type]
    touched.regions.add("eu-west-1")
    listing = touched.inventory_soon()
    touched.regions.add("ap-south-1")  # what the plan meanwhile first called
    touched.services = None
    go.set()
    found = listing()
    assert asked == [["eu-west-1", "us-east-1"]]
    assert sorted(o.id for o in found.objects) == ["q-eu-west-1", "q-us-east-1"]


def test_the_inventory_beside_a_plan_raises_its_error_in_the_caller(tmp_path: Path) -> None:
    def listers(emulator: Any, regions: list[str], services: Any) -> list[CloudObject]:
        raise EmulatorError("the emulator stopped answering")

    touched = Touched(_Emulator(), tmp_path, (), listers=listers)  # type: ignore[arg-type]
    listing = touched.inventory_soon()
    with pytest.raises(EmulatorError, match="stopped answering"):
        listing()


def test_moto_is_asked_which_service_a_host_is_once_per_host() -> None:
    asked: list[str | None] = []

    class Dispatcher:
        def get_backend_for_host(self, host: str | None) -> str | None:
            asked.append(host)
            return None if host is None else host.split(".")[0]

    dispatcher = Dispatcher()
    _remember_hosts(dispatcher)
    answers = [
        dispatcher.get_backend_for_host(h)
        for h in ("ec2.us-east-1.amazonaws.com", None, "ec2.us-east-1.amazonaws.com", None)
    ]
    assert answers == ["ec2", None, "ec2", None]
    assert asked == ["ec2.us-east-1.amazonaws.com", None]


def test_an_action_is_a_method_of_its_response_class_as_moto_lists_them() -> None:
    """Every name of every response class of the services a run calls most (and names
    no class has, and values that are not functions), against moto's own list."""
    import importlib

    from moto.core.responses import BaseResponse
    from moto.core.utils import method_names_from_class

    for service in ("ec2", "iam", "s3", "sqs", "dynamodb", "rds", "awslambda", "sts"):
        importlib.import_module(f"moto.{service}.responses")
    classes = [BaseResponse, *_subclasses(BaseResponse)]
    assert len(classes) > 8
    for cls in classes:
        listed = method_names_from_class(cls)
        names = {*dir(cls), "describe_nothing_at_all", "__class__", "", "dispatch"}
        quick = _FunctionNames(cls)
        assert [n for n in names if (n in quick) != (n in listed)] == [], cls
        assert sorted(quick) == sorted(listed)
    assert "describe_vpcs" in _FunctionNames(
        importlib.import_module("moto.ec2.responses").EC2Response
    )


def _subclasses(cls: type) -> list[type]:
    found: list[type] = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _fields(message: bytes) -> list[tuple[int, int, bytes | int]]:
    """Top-level protobuf fields: (number, wire type, bytes or varint), read with the
    relay's own wire walk (tests/unit/test_schema_trim.py checks it on bytes made here)."""
    found: list[tuple[int, int, bytes | int]] = []
    for number, kind, start, _end in _wire_fields(message):
        _, at = _varint(message, start)  # past the tag
        if kind == 0:
            found.append((number, 0, _varint(message, at)[0]))
        else:
            size, at = _varint(message, at)
            found.append((number, 2, message[at : at + size]))
    return found


def test_the_schema_answer_says_get_provider_schema_optional() -> None:
    """Field 6 (server capabilities) holding field 2 (get_provider_schema_optional) true,
    after whatever the provider sent (here: a schema and plan_destroy)."""
    sent = b"\x0a\x00" + b"\x32\x02\x08\x01"  # provider {}, server_capabilities {plan_destroy}
    fields = _fields(sent + SCHEMA_OPTIONAL)
    capabilities = [value for number, _, value in fields if number == 6]
    assert all(isinstance(c, bytes) for c in capabilities)
    assert [_fields(c) for c in capabilities if isinstance(c, bytes)] == [[(1, 0, 1)], [(2, 0, 1)]]


def test_an_emptied_emulator_is_not_listed_by_the_built_in_listers(tmp_path: Path) -> None:
    """After a reset the built-in listers would find nothing (they leave out what an
    emulator makes on its own): a scenario's baseline asks only the other listers."""
    from pytest_converge.inventory import pytest_converge_inventory

    asked: list[bool] = []

    def hook(emulator: Any, regions: list[str], services: Any, builtin: bool = True) -> list[Any]:
        asked.append(builtin)
        return []

    touched = Touched(_Emulator(), tmp_path, (), listers=hook)  # type: ignore[arg-type]
    touched.inventory(emptied=True)
    touched.inventory()
    assert asked == [False, True]
    # A lister that knows nothing of ``builtin`` lists as it always did.
    plain: list[str] = []
    other = Touched(
        _Emulator(),  # type: ignore[arg-type]
        tmp_path,
        (),
        listers=lambda emulator, regions, services: plain.append("listed") or [],
    )
    other.inventory(emptied=True)
    assert plain == ["listed"]
    # With the built-in listers alone there is nothing to ask (the fake emulator has no
    # endpoint: listing it would raise).
    for builtin in (None, pytest_converge_inventory):
        alone = Touched(_Emulator(), tmp_path, (), listers=builtin)  # type: ignore[arg-type]
        assert len(alone.inventory(emptied=True)) == 0


def test_the_sessions_hook_leaves_only_the_built_in_listers_out() -> None:
    import pluggy

    from pytest_converge import inventory
    from pytest_converge.plugin import hookspecs
    from pytest_converge.plugin.session import ConvergeSession

    class UserLister:
        @inventory.hookimpl
        def pytest_converge_inventory(self, emulator: Any) -> list[CloudObject]:
            return [CloudObject("aws_custom_thing", "thing-1")]

    pm = pluggy.PluginManager("pytest")
    pm.add_hookspecs(hookspecs)
    pm.register(inventory, inventory.PLUGIN)
    pm.register(UserLister())
    session = SimpleNamespace(config=SimpleNamespace(hook=pm.hook, pluginmanager=pm))
    found = ConvergeSession._inventory(session, _Emulator(), builtin=False)  # type: ignore[arg-type]
    assert found == [[CloudObject("aws_custom_thing", "thing-1")]]


def test_the_rest_of_the_layer_waits_for_a_gap_between_calls() -> None:
    """moto installs the behaviours no call needed yet between calls, not under them."""
    quiet = _Quiet()
    quiet.began()  # a call being answered
    waited = threading.Thread(target=quiet.wait)
    waited.start()
    time.sleep(quiet.GAP * 4)
    assert waited.is_alive(), "installed while a call was being answered"
    quiet.ended()
    started = time.monotonic()
    waited.join(timeout=5)
    assert not waited.is_alive()
    assert time.monotonic() - started >= quiet.GAP * 0.9  # a gap after the last answer
    # A reset (or the status, the world) needs the whole layer: no gap is waited for.
    quiet.began()
    quiet.now.set()
    started = time.monotonic()
    quiet.wait()
    assert time.monotonic() - started < quiet.GAP


def test_a_warm_up_that_fails_leaves_the_servers_collector_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server turns the cyclic collector off before moto's imports; a fidelity layer
    that fails to install ends the warm-up, and the collector is back on all the same."""
    import gc

    from pytest_converge.emulator import moto_server

    def broken(lazy: bool = False) -> None:
        raise RuntimeError("the layer failed")

    monkeypatch.setattr(moto_server.fidelity, "install", broken)
    gc.disable()
    try:
        faithful, warmed = threading.Event(), threading.Event()
        with pytest.raises(RuntimeError, match="the layer failed"):
            moto_server._warm_up(SimpleNamespace(), warmed, faithful)
        assert gc.isenabled() and faithful.is_set()
    finally:
        gc.enable()
        gc.unfreeze()
