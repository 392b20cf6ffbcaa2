"""The Stack a zero-code item runs: built the way the ``converge`` fixture builds one."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ...analysis.defects import Defect
from ...emulator.ministack import ministack_missing, pinned_unsupported
from ...emulator.served import preflight_of
from ...run.backend_choice import BackendChoice, backend_for
from ...run.stack import Stack
from ...terraform.tfvars import copy_test_vars
from ...terraform.workspace import aws_addresses
from ..options import settings
from ..session import get_session, module_id

_log = logging.getLogger("pytest_converge")


def make_stack(
    config: pytest.Config, module: Path, reproduce: str, name: str | None = None
) -> Stack:
    """A Stack for ``module`` built the way the ``converge`` fixture builds one."""

    def on_defects(stack: Stack, defects: list[Defect]) -> None:
        # Lets conftest hooks drop or add findings; the item records the result.
        config.hook.pytest_converge_defects(config=config, stack=stack, defects=defects)

    choice = module_backend(config, module)
    if choice.why:  # the header and every report name the backend that served it
        _log.info("%s runs on %s: %s", module_id(config, module), choice.backend, choice.why)
    stack = get_session(config).stack(
        module, on_defects=on_defects, reproduce=reproduce, name=name, backend=choice.backend
    )
    copy_test_vars(module, stack.workspace.workdir)
    return stack


_choices_key = pytest.StashKey[dict[Path, BackendChoice]]()


def module_backend(config: pytest.Config, module: Path) -> BackendChoice:
    """The backend ``module`` runs on (:func:`..run.backend_choice.backend_for`), chosen once
    per session: every item of a module runs where its first did."""
    chosen = config.stash.setdefault(_choices_key, {})
    if module not in chosen:
        chosen[module] = _choose(config, module)
    return chosen[module]


def _choose(config: pytest.Config, module: Path) -> BackendChoice:
    found = settings(config)
    addresses = aws_addresses(module)
    # Before init: the provider's major is not known yet (the newest one stands in).
    moto = preflight_of(addresses, "moto") if found.backend == "moto" else None
    installed = moto is not None and not moto.ok and ministack_missing(found.ministack) is None
    return backend_for(
        module_id(config, module),
        addresses,
        found.backend,
        pins=found.module_backends,
        moto=moto,
        ministack=preflight_of(addresses, "ministack") if installed else None,
        ministack_unsupported=pinned_unsupported() if installed else None,
    )
