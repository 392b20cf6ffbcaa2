"""Amazon Managed Grafana: a service moto 5.2 lacks, in moto's own shape.

``models.py``, ``responses.py`` and ``urls.py`` are laid out as a moto
service package (``moto/<service>/``) and are loaded under that name,
``moto.grafana``, as ``outposts`` is (:func:`..serve_package`). What the
service models, and after which document, is in ``models.py``.
"""

from __future__ import annotations

import os

from .. import Behaviour, behaviour, serve_package

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "grafana.service",
    does="the Amazon Managed Grafana API: workspaces (Create/Describe/Update/Delete/List; "
    "CREATING, UPDATING or DELETING, then ACTIVE or gone), their configuration and version, "
    "authentication (SAML), license, permissions, API keys, service accounts and their "
    "tokens, ListVersions, tags",
    reference="https://docs.aws.amazon.com/grafana/latest/APIReference/API_CreateWorkspace.html",
    test="tests/integration/test_fidelity_services.py::test_grafana_keeps_a_workspace",
)
def _grafana_service() -> None:
    serve_package(
        "grafana", os.path.dirname(os.path.abspath(__file__)),
        r"https?://grafana\.(.+)\.amazonaws\.com",
    )  # fmt: skip
