"""Add the aws provider block of the provider versions in DIRS to the shipped table.

Each DIR is an initialised terraform working directory (``terraform init`` has
installed ``hashicorp/aws``); its ``terraform providers schema -json`` gives the
block's attribute and endpoint names, stored under the version its lock file
names in ``pytest_converge/data/aws_provider_blocks.json``::

    python scripts/aws_provider_blocks.py path/to/initialised/root [...]

The table only spares a fresh cache one command per version; a version not in it
is read from the provider at run time. ``tests/integration/test_provider_blocks.py``
checks every entry of a version installed on the machine against the provider.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from packaging.version import Version

from pytest_converge.terraform.toolchain import resolve_toolchain
from pytest_converge.terraform.workspace import SHIPPED_BLOCKS, _locked_version, provider_block


def main(dirs: list[str]) -> int:
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    table = json.loads(SHIPPED_BLOCKS.read_text()) if SHIPPED_BLOCKS.exists() else {}
    versions = table.setdefault("versions", {})
    terraform = list(resolve_toolchain(None).command)  # the engine the plugin runs
    for directory in map(Path, dirs):
        version = _locked_version(directory / ".terraform.lock.hcl")
        if version is None:
            print(f"{directory}: no hashicorp/aws in its lock file (run terraform init)")
            return 1
        shown = subprocess.run(
            [*terraform, "providers", "schema", "-json"],
            cwd=directory,
            check=True,
            capture_output=True,
            text=True,
        )
        versions[version] = provider_block(json.loads(shown.stdout))
        print(f"aws {version}: {len(versions[version]['endpoints'])} endpoints")
    table["versions"] = dict(sorted(versions.items(), key=lambda kv: Version(kv[0])))
    SHIPPED_BLOCKS.write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
