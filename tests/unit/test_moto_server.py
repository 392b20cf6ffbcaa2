"""The moto server's gate: which requests wait for the fidelity layer's install."""

from __future__ import annotations

import threading

import pytest

from pytest_converge.emulator import fidelity
from pytest_converge.emulator.moto_server import (
    EARLY_SERVICES,
    _ResetAfterWarmUp,
    signing_service,
)


def _signed(service: str) -> dict[str, str]:
    return {
        "PATH_INFO": "/",
        "HTTP_AUTHORIZATION": "AWS4-HMAC-SHA256 Credential=testing/20200101/us-east-1/"
        f"{service}/aws4_request, SignedHeaders=host, Signature=0",
    }


@pytest.mark.parametrize(
    ("environ", "service"),
    [
        (_signed("sts"), "sts"),
        (_signed("elasticfilesystem"), "elasticfilesystem"),
        ({"HTTP_AUTHORIZATION": "AWS testing:signature"}, None),  # SigV2: no scope
        ({}, None),
    ],
)
def test_a_requests_service_is_read_from_its_credential_scope(environ, service):
    assert signing_service(environ) == service


def test_no_behaviour_of_the_layer_touches_a_service_served_before_it_is_installed():
    """An early request runs while the layer installs: no behaviour may be of its
    service or replace code of its moto package."""
    for item in fidelity.behaviours():
        assert item.service not in EARLY_SERVICES, item.name
        packages = {target.split(":")[0].split(".")[1] for target in item.replaces}
        assert not packages & EARLY_SERVICES, item.name


def test_early_services_are_served_while_the_layer_installs_and_the_rest_wait():
    served: list[str] = []

    def app(environ, start_response):
        served.append(signing_service(environ) or "")
        return [b""]

    faithful = threading.Event()
    gate = _ResetAfterWarmUp(app, threading.Event(), faithful)
    gate(_signed("sts"), None)
    assert served == ["sts"]

    waiting = threading.Thread(target=gate, args=(_signed("ec2"), None))
    waiting.start()
    waiting.join(timeout=0.2)
    assert waiting.is_alive() and served == ["sts"]  # EC2 waits for the install
    faithful.set()
    waiting.join(timeout=5)
    assert served == ["sts", "ec2"]
