"""The moto server makes EC2's default AMIs when a call first looks at them.

moto makes ~1,300 default AMIs (each with a snapshot) with every EC2 backend, at its first
call and after every reset; the server (``moto_server._quick_default_amis``) makes them
when ``amis`` or ``snapshots`` is first read. What a call sees must be what moto's own
eager load gives it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest

from pytest_converge.emulator import moto_server

ACCOUNT = "123456789012"


@dataclass(frozen=True)
class Made:
    """An EC2 backend's default AMIs (ids) and snapshots (their AMI, description, owner)."""

    amis: list[str]
    snapshots: list[tuple[str, str, str]]


def _snapshots(backend) -> list[tuple[str, str, str]]:
    return sorted((s.from_ami, s.description, s.owner_id) for s in backend.snapshots.values())


@pytest.fixture
def ec2(monkeypatch: pytest.MonkeyPatch):
    """moto's EC2 models with the server's deferred AMIs; moto's own restored after.
    Returns (models, what moto's own eager load makes: :class:`Made`)."""
    monkeypatch.setenv("MOTO_EC2_LOAD_DEFAULT_AMIS", "true")
    from moto.ec2 import models
    from moto.ec2.models import amis, elastic_block_store

    eager = models.EC2Backend("eu-west-1", ACCOUNT)
    own = Made(sorted(eager.amis), _snapshots(eager))
    monkeypatch.setattr(amis.AmiBackend, "_load_amis", amis.AmiBackend._load_amis)
    monkeypatch.setattr(amis.AmiBackend, "amis", None, raising=False)
    monkeypatch.setattr(elastic_block_store.EBSBackend, "snapshots", None, raising=False)
    monkeypatch.setattr(amis, "load_resource", amis.load_resource)
    monkeypatch.delattr(amis.AmiBackend, "amis")
    monkeypatch.delattr(elastic_block_store.EBSBackend, "snapshots")
    moto_server._defer_default_amis(amis)
    return models, own


def test_an_ec2_backend_makes_no_default_ami_until_one_is_looked_up(ec2, monkeypatch) -> None:
    models, own = ec2
    from moto.ec2.models import amis

    made: list[str] = []
    original = amis.Ami.__init__

    def counted(self, backend, ami_id, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(ami_id)
        original(self, backend, ami_id, *args, **kwargs)

    monkeypatch.setattr(amis.Ami, "__init__", counted)
    backend = models.EC2Backend("eu-west-1", ACCOUNT)
    assert made == []
    assert len(own.amis) > 1000
    assert sorted(backend.amis) == own.amis
    assert len(made) == len(own.amis)
    assert _snapshots(backend) == own.snapshots
    assert backend.describe_images(ami_ids=[own.amis[0]])[0].owner_alias == "amazon"


def test_reading_the_snapshots_first_makes_the_amis_and_theirs(ec2) -> None:
    models, own = ec2
    backend = models.EC2Backend("eu-west-1", ACCOUNT)
    assert _snapshots(backend) == own.snapshots
    assert sorted(backend.amis) == own.amis
    volume = backend.create_volume(size=8, zone_name="eu-west-1a")
    mine = backend.create_snapshot(volume.id, "mine", ACCOUNT)
    assert mine.id in backend.snapshots and len(backend.snapshots) == len(own.snapshots) + 1


def test_a_reset_makes_them_due_again(ec2) -> None:
    models, own = ec2
    backend = models.EC2Backend("eu-west-1", ACCOUNT)
    first = own.amis[0]
    backend.deregister_image(first)
    assert first not in backend.amis
    backend.reset()
    assert moto_server._AMIS_DUE in vars(backend)
    assert first in backend.amis and len(backend.amis) == len(own.amis)


def test_a_call_beside_the_load_waits_for_all_of_them(ec2) -> None:
    models, own = ec2
    backend = models.EC2Backend("eu-west-1", ACCOUNT)
    seen: list[int] = []
    start = threading.Barrier(4)

    def look() -> None:
        start.wait()
        seen.append(len(backend.amis))

    threads = [threading.Thread(target=look) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [len(own.amis)] * 4
