"""AWS Outposts: a service moto 5.2 lacks, in moto's own shape.

``models.py``, ``responses.py`` and ``urls.py`` are laid out as a moto
service package (``moto/<service>/``) and are loaded under that name,
``moto.outposts``, so that moto's dispatch finds the service as it finds its
own: its backends through ``moto.backends.get_backend``, its requests through
the URL pattern added to ``moto.backend_index``. What the service models, and
after which document, is in ``models.py``.
"""

from __future__ import annotations

import os

from .. import Behaviour, behaviour, serve_package

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "outposts.service",
    does="the AWS Outposts API: sites and outposts of an account (Create/Get/List/DeleteSite, "
    "Create/Get/List/DeleteOutpost with their filters, tags)",
    reference="https://docs.aws.amazon.com/outposts/latest/APIReference/API_ListOutposts.html",
    test="tests/integration/test_fidelity_services.py::test_outposts_lists_an_accounts_outposts",
)
def _outposts_service() -> None:
    serve_package(
        "outposts", os.path.dirname(os.path.abspath(__file__)),
        r"https?://outposts\.(.+)\.amazonaws\.com",
    )  # fmt: skip
