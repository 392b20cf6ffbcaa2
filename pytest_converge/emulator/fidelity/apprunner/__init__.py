"""AWS App Runner: a service moto 5.2 lacks, in moto's own shape.

``models.py``, ``responses.py`` and ``urls.py`` are laid out as a moto
service package (``moto/<service>/``) and are loaded under that name,
``moto.apprunner``, as ``outposts`` is (:func:`..serve_package`). What the
service models, and after which document, is in ``models.py``.
"""

from __future__ import annotations

import os

from .. import Behaviour, behaviour, serve_package

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "apprunner.service",
    does="the AWS App Runner API: auto scaling and observability configurations, VPC "
    "connectors, connections, services (OPERATION_IN_PROGRESS, then RUNNING, with AWS's "
    "defaults), VPC ingress connections and tags",
    reference="https://docs.aws.amazon.com/apprunner/latest/api/API_CreateService.html",
    test="tests/integration/test_fidelity_services.py::test_app_runner_keeps_a_service",
)
def _apprunner_service() -> None:
    serve_package(
        "apprunner", os.path.dirname(os.path.abspath(__file__)),
        r"https?://apprunner\.(.+)\.amazonaws\.com",
    )  # fmt: skip
