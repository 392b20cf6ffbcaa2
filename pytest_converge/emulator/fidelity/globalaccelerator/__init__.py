"""AWS Global Accelerator: a service moto 5.2 lacks, in moto's own shape.

``models.py``, ``responses.py`` and ``urls.py`` are laid out as a moto
service package (``moto/<service>/``) and are loaded under that name,
``moto.globalaccelerator``, as ``outposts`` is (:func:`..serve_package`). What
the service models, and after which document, is in ``models.py``.
"""

from __future__ import annotations

import os

from .. import Behaviour, behaviour, serve_package

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "globalaccelerator.service",
    does="the AWS Global Accelerator API: accelerators (Create/Describe/Update/Delete/List, "
    "IN_PROGRESS until described, then DEPLOYED; a DNS name and two static IPv4 addresses; "
    "deleted only when disabled and without listeners), their flow log attributes, listeners, "
    "endpoint groups, the custom routing equivalents (Add/RemoveCustomRoutingEndpoints), tags",
    reference="https://docs.aws.amazon.com/global-accelerator/latest/api/API_CreateAccelerator.html",
    test="tests/integration/test_fidelity_services.py::test_global_accelerator_keeps_an_accelerator",
)
def _globalaccelerator_service() -> None:
    serve_package(
        "globalaccelerator", os.path.dirname(os.path.abspath(__file__)),
        r"https?://globalaccelerator\.(.+)\.amazonaws\.com",
    )  # fmt: skip
