"""A plan a pipeline saved, read for the no-op plan gate, and explained.

The JSON of ``terraform show -json tfplan`` is read as it is. A binary plan
file (what ``terraform plan -out tfplan`` writes, a zip) is shown with the
user's own terraform (``--converge-terraform``, else ``terraform`` or ``tofu``
on the PATH), run where the plan was made: the source directory, else the
plan file's directory. Only the terraform that made a plan can show it, so
the bundled engine is never used for this. Nothing here starts an emulator or
reaches a network; :mod:`.analysis.gate` says what the plan changes::

    defects = explain_plan("plan.json", source="infra/")
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..analysis.defects import Defect
from ..analysis.gate import SCENARIO, gate_defects, read_plan_text
from ..errors import ModuleError, PlanFileError, ToolchainError
from .hcl import config_files
from .toolchain import find_engine

#: How a zip archive (a binary plan file) starts.
ZIP_MAGIC = b"PK\x03\x04"

#: Seconds ``terraform show -json`` of a binary plan may take (it loads provider schemas).
SHOW_TIMEOUT = 300.0

#: Said with every error about a binary plan: the form that needs no terraform at all.
SAVE_JSON = "or save the JSON in the pipeline: `terraform show -json tfplan > plan.json`"


def read_plan(
    path: str | os.PathLike[str],
    *,
    source: str | os.PathLike[str] | None = None,
    terraform: str | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """The JSON of the plan in ``path``: ``terraform show -json`` output, or a binary plan
    file shown with the user's terraform in ``source`` (default: the file's directory).
    ``name`` is the file in messages (default: ``path``).

    Raises :class:`~pytest_converge.errors.PlanFileError` saying what is wrong and
    what to give instead.
    """
    file = Path(path)
    name = name or str(file)
    if not file.exists():
        raise PlanFileError(f"{name}: no such file")
    if file.is_dir():
        raise PlanFileError(
            f"{name} is a directory: give the plan file (`terraform show -json tfplan > "
            "plan.json`, or `tfplan` itself)"
        )
    content = file.read_bytes()
    if content.startswith(ZIP_MAGIC):
        text = show_binary_plan(file, Path(source) if source else file.parent, terraform, name)
    elif content.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Windows PowerShell's `>` writes UTF-16.
        text = content.decode("utf-16", errors="replace")
    else:
        text = content.decode("utf-8-sig", errors="replace")
    return read_plan_text(text, name)


def show_binary_plan(
    file: Path, where: Path, terraform: str | None = None, name: str | None = None
) -> str:
    """``terraform show -json FILE`` run in ``where`` with the user's own terraform."""
    name = name or str(file)
    if terraform:
        try:
            command, _ = find_engine(terraform)
        except ToolchainError as exc:
            raise PlanFileError(f"{name} is a binary plan file: {exc}; {SAVE_JSON}") from None
    else:
        # Not the bundled engine: a plan file is read only by the version that wrote it.
        found = shutil.which("terraform") or shutil.which("tofu")
        if found is None:
            raise PlanFileError(
                f"{name} is a binary plan file: only the terraform (or tofu) that made it can "
                "read it (`terraform show -json`), and none is on the PATH: put it there or "
                f"name it with --converge-terraform PATH, {SAVE_JSON}"
            )
        command = (found,)
    argv = [*command, "show", "-json", "-no-color", str(file.resolve())]
    shown = " ".join([os.path.basename(command[0]), "show", "-json", name])
    try:
        done = subprocess.run(
            argv,
            cwd=where,
            capture_output=True,
            text=True,
            timeout=SHOW_TIMEOUT,
            start_new_session=True,  # its provider plugins go with it
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PlanFileError(f"`{shown}` in {where} could not run: {exc}; {SAVE_JSON}") from None
    if done.returncode != 0:
        said = " ".join((done.stderr or done.stdout).split())
        # Its errors, not the warnings before them (a CLI config file it cannot open ...).
        said = said[said.find("Error:") :] if "Error:" in said else said
        raise PlanFileError(
            f"{name} is a binary plan file, and `{shown}` in {where} failed (exit "
            f"{done.returncode}): {said[:800]}. It must run in the directory the plan was made in, "
            "after `terraform init` (name it with --converge-plan-source DIR), with the "
            f"terraform version that made the plan; {SAVE_JSON}"
        )
    return done.stdout


def explain_plan(
    plan: str | os.PathLike[str] | Mapping[str, Any],
    source: str | os.PathLike[str] | None = None,
    *,
    terraform: str | None = None,
    module: str | None = None,
    classify: Callable[[str, str, Any, Any], str | None] | None = None,
) -> list[Defect]:
    """Every reason a plan saved after an apply is not empty, as :class:`Defect` records.

    ``plan`` is a plan file (``terraform show -json`` output, or a binary plan file,
    shown with your terraform) or its JSON already loaded. An empty list means the
    plan changes nothing: the gate passes. ``source`` is the plan's configuration
    (default: the plan file's directory when it holds ``.tf`` files): findings then
    carry the file and line of their resource block. ``module`` names the plan in
    the defects (default: the file's path). ``classify`` is ``(address, attribute,
    declared, observed) -> class | None`` (default: the built-in rules). Nothing
    is applied, and no emulator, provider or network is used (a binary plan file
    runs ``terraform show``, which loads the providers' schemas only).

    In a test::

        def test_the_pipeline_plan_is_empty():
            errors = [d for d in explain_plan("plan.json", source="infra") if d.is_error]
            assert not errors, "\\n".join(d.message for d in errors)

    Raises :class:`PlanFileError` when the file cannot be read as a plan.
    """
    if isinstance(plan, Mapping):
        data, name, folder = dict(plan), module or "plan", None
    else:
        name, folder = module or os.fspath(plan), Path(plan).parent
        data = read_plan(plan, source=source, terraform=terraform, name=name)
    return gate_defects(
        data,
        module=name,
        scenario=SCENARIO,
        classify=classify,
        module_dir=plan_source(source, folder),
    )


def plan_source(source: str | os.PathLike[str] | None, folder: Path | None) -> Path | None:
    """The plan's configuration: ``source`` (checked), else ``folder`` when it holds
    ``.tf`` files (a pipeline saves its plan where it planned), else None."""
    if source is not None:
        directory = Path(source)
        if not directory.is_dir():
            raise ModuleError(f"the plan's source {directory} is not a directory")
        return directory.resolve()
    if folder is not None and folder.is_dir() and config_files(folder):
        return folder.resolve()
    return None
