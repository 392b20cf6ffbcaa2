"""The fidelity layer for MiniStack: AWS's documented answers where MiniStack answers otherwise.

The moto layer's machinery (:mod:`..fidelity`): each :class:`~..fidelity.Behaviour`
models one documented behaviour of AWS over MiniStack's own functions, pinned by
the digests of the functions it replaces (:func:`~..fidelity.patch` refuses any
other), one module per service (``elasticache.py`` ...).

MiniStack runs in a Python of its own (it pins botocore exactly), where the plugin is
not installed: the plugin runs :func:`boot` there instead of ``-m ministack``
(:data:`..ministack.BOOT` loads this package, and the moto layer's, by path). It
installs the behaviours :data:`OFF_VARIABLE` does not turn off, writes :func:`status`
as JSON to the file :data:`STATUS_FILE_VARIABLE` names, then runs MiniStack's own
``main()``. A MiniStack other than :data:`MINISTACK_VERSIONS` gets none of them, a
behaviour whose MiniStack function changed is ``stale``, and the session names each
one left out, as for moto.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

try:  # part of pytest_converge: the plugin's process, its tests and type checks
    from .. import fidelity as core
except ImportError:  # loaded by path in MiniStack's own Python (see boot)
    import importlib.util

    def _load_core() -> Any:
        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fidelity", "__init__.py")
        spec = importlib.util.spec_from_file_location(
            "converge_fidelity", path, submodule_search_locations=[os.path.dirname(path)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
        return module

    core = _load_core()

#: The MiniStack releases the behaviours were written and digested against.
MINISTACK_VERSIONS = ("1.5.33",)
#: The per-service modules of this package, each with its ``BEHAVIOURS`` list.
SERVICES = ("elasticache", "efs", "ec2")
#: MiniStack's environment variable that leaves behaviours out (``all``, names, services).
OFF_VARIABLE = "CONVERGE_MINISTACK_FIDELITY_OFF"
#: MiniStack's environment variable naming the file :func:`boot` writes the status to.
STATUS_FILE_VARIABLE = "CONVERGE_MINISTACK_FIDELITY_STATUS"


def behaviours() -> list[core.Behaviour]:
    """Every behaviour of every service module, in :data:`SERVICES` order (importing
    them needs no MiniStack: each imports it when it installs)."""
    found: list[core.Behaviour] = []
    for service in SERVICES:
        found.extend(importlib.import_module(f"{__name__}.{service}").BEHAVIOURS)
    return found


def installed_ministack() -> str:
    from importlib.metadata import version

    return version("ministack")


def install() -> dict[str, str]:
    """Install every behaviour not turned off, in MiniStack's process; ``{name: state}``."""
    version = installed_ministack()
    pinned = ", ".join(MINISTACK_VERSIONS)
    unfit = (
        None
        if version in MINISTACK_VERSIONS
        else (f"not installed: MiniStack {version} is not {pinned}")
    )
    return core.install(os.environ.get(OFF_VARIABLE, ""), items=behaviours(), unfit=unfit)


def status(behaviours: dict[str, str]) -> dict[str, Any]:
    """``{"ministack": version, "versions": pinned, "behaviours": {name: state}}``."""
    pinned = ", ".join(MINISTACK_VERSIONS)
    return {"ministack": installed_ministack(), "versions": pinned, "behaviours": behaviours}


def boot() -> None:
    """MiniStack's main, with the behaviours installed and their status written first."""
    states = install()
    where = os.environ.get(STATUS_FILE_VARIABLE)
    if where:
        with open(where + ".part", "w") as out:
            json.dump(status(states), out)
        os.replace(where + ".part", where)  # whole or absent, for the reader
    from ministack.app import main

    sys.argv = ["ministack"]
    main()
