"""A module's variables: which are declared, which files set them, and the test-only file.

Variables come from what terraform reads anyway (``terraform.tfvars``,
``*.auto.tfvars``, their ``.json`` forms) plus a ``converge.tfvars`` (or
``converge.tfvars.json``) beside the module, meant for the test only: a
workspace gets it as ``zz-converge.auto.tfvars`` (:func:`copy_test_vars`), so
terraform loads it last, with every value form HCL allows.

>>> missing_variables(Path("modules/app"))        # doctest: +SKIP
['name']
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import ConvergeError
from .hcl import HclError, module_blocks, parse_attributes

#: Beside the module, the variables meant for the convergence test only.
CONVERGE_TFVARS = ("converge.tfvars", "converge.tfvars.json")
#: The name the converge.tfvars copy gets in the workspace: terraform loads
#: ``*.auto.tfvars`` in lexical order, so this one wins over the module's own.
AUTO_COPY = {
    "converge.tfvars": "zz-converge.auto.tfvars",
    "converge.tfvars.json": "zz-converge.auto.tfvars.json",
}


def declared_variables(module: Path) -> dict[str, bool]:
    """The module's variables: name -> has a default."""
    return {
        block.labels[0]: "default" in block.attributes
        for block in module_blocks(module, "variable")
        if block.labels
    }


def tfvars_files(module: Path) -> list[Path]:
    """The variable files terraform loads by itself, then the converge.tfvars ones."""
    own = [
        p
        for p in sorted(module.iterdir())
        if p.is_file()
        and (
            p.name in ("terraform.tfvars", "terraform.tfvars.json")
            or p.name.endswith((".auto.tfvars", ".auto.tfvars.json"))
        )
    ]
    return own + [module / n for n in CONVERGE_TFVARS if (module / n).is_file()]


def assigned_variables(path: Path) -> set[str]:
    """The variable names a ``.tfvars`` / ``.tfvars.json`` file assigns (values not evaluated)."""
    try:
        return set(parse_attributes(path.read_text(errors="replace"), path))
    except HclError as exc:
        raise ConvergeError(str(exc)) from None


def missing_variables(module: Path) -> list[str]:
    """Variables without a default that no variable file beside the module sets."""
    required = {name for name, has_default in declared_variables(module).items() if not has_default}
    if not required:
        return []
    given: set[str] = set()
    for path in tfvars_files(module):
        given |= assigned_variables(path)
    return sorted(required - given)


def copy_test_vars(module: Path, workdir: Path) -> bool:
    """Copy ``module``'s converge.tfvars (if any) into ``workdir``; True when there was one.

    Terraform does not load converge.tfvars by itself; as ``*.auto.tfvars`` it
    does, with every value form HCL allows (nothing is parsed here).
    """
    copied = False
    for name in CONVERGE_TFVARS:
        if (module / name).is_file():
            shutil.copyfile(module / name, workdir / AUTO_COPY[name])
            copied = True
    return copied
