"""Write the services an installed MiniStack serves to the shipped table.

Run by MiniStack's own interpreter (it is not importable beside the plugin: it pins
botocore exactly), with this file's path::

    ~/.cache/pytest-converge/ministack/1.5.33/bin/python scripts/ministack_services.py

It reads ``ministack.app.SERVICE_REGISTRY`` (every routable service and its aliases)
and writes ``pytest_converge/data/ministack_services.json`` under the installed
version. :mod:`pytest_converge.emulator.ministack` derives the services MiniStack cannot
serve from it: the aws provider's endpoint names (``aws_provider_blocks.json``) that
name none of these.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "pytest_converge" / "data" / "ministack_services.json"


def main() -> int:
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    from ministack.app import SERVICE_REGISTRY

    served = sorted(
        {name for name in SERVICE_REGISTRY}
        | {alias for config in SERVICE_REGISTRY.values() for alias in config.get("aliases", ())}
    )
    table = json.loads(TABLE.read_text()) if TABLE.exists() else {}
    table["about"] = (
        "The services MiniStack serves (its SERVICE_REGISTRY names and aliases), by "
        "MiniStack version, written by scripts/ministack_services.py."
    )
    table.setdefault("versions", {})[version("ministack")] = {"served": served}
    TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"{TABLE}: {len(served)} service names of ministack {version('ministack')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
