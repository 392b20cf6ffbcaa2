"""(Re)build ``pytest_converge/data/resource_operations.json``: per AWS provider major and
resource type, the operations its create, read, update and delete make.

Two sources, the first winning per (major, type, phase):

* **learned**, from a directory of recordings (``--recordings DIR``, every
  ``*.json`` file in it, recursively). A recording is a JSON list of calls a
  run saw, one object per call::

      [{"resource_type": "aws_vpc", "operation": "CreateVpc",
        "phase": "create", "provider_major": "5"}, ...]

  ``phase`` is one of create, read, update, delete; ``service`` (botocore's
  name) may be given, else the type's own (``awsapi.service_of``). A zero-code
  fault-points cache file (``{"points": ["CreateVpc#1@aws_vpc.main", ...]}``,
  the clean apply's mutating calls, see ``collect/points.py``) is read too,
  as create calls, when it says its ``provider_major``.
* **inferred**, from botocore's model by the resource's noun
  (``awsapi.infer_operations``), for every type of the provider schemas given
  (``--schema 5=schema.json``: ``terraform providers schema -json`` of a root
  that requires that provider version) and every type the file already has.

Every botocore service's signing name is kept too (``signing_names``: a
lookup then reads no model). Types no rule infers are kept under
``unresolved`` (so a run without schemas keeps them). A learned entry
already in the file is kept until ``--recordings`` gives the type again.
``tests/unit/test_resource_operations.py`` fails when an operation in the file
is gone from botocore's model::

    python scripts/learn_resource_operations.py --schema 5=s5.json --schema 3=s3.json
    python scripts/learn_resource_operations.py --recordings recordings/
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_converge.awsapi.operations import (  # noqa: E402
    DATA,
    PHASES,
    botocore_services,
    infer_operations,
    service_of,
    signing_name,
)

FORMAT = 1
_POINT = re.compile(r"(?P<op>[A-Za-z0-9]+)#\d+@(?P<address>.+)")


def _type_of(address: str) -> str | None:
    """``module.a.aws_vpc.this[0]`` -> ``aws_vpc`` (None: a data source)."""
    parts = re.sub(r"\[[^\]]*\]", "", address).split(".")
    while parts[:1] == ["module"]:
        parts = parts[2:]
    if not parts or parts[0] == "data" or len(parts) < 2:
        return None
    return parts[0]


def recorded_calls(directory: Path) -> Iterator[dict[str, str]]:
    """The calls of every recording under ``directory`` (see the module's docstring)."""
    for path in sorted(directory.rglob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and isinstance(data.get("points"), list):
            major = str(data.get("provider_major", ""))
            for point in data["points"] if major else ():
                match = _POINT.fullmatch(point)
                kind = _type_of(match["address"]) if match else None
                if match and kind:
                    yield {
                        "resource_type": kind,
                        "operation": match["op"],
                        "phase": "create",
                        "provider_major": major,
                    }
            continue
        for call in data if isinstance(data, list) else ():
            if call.get("phase") not in PHASES:
                raise SystemExit(f"{path}: phase {call.get('phase')!r} is none of {PHASES}")
            yield {k: str(v) for k, v in call.items()}


def learned(calls: Iterable[dict[str, str]]) -> dict[str, dict[str, dict[str, Any]]]:
    """major -> type -> entry, the operations in the order first seen."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for call in calls:
        kind = call["resource_type"]
        service = call.get("service") or getattr(service_of(kind), "name", None)
        if service is None:
            continue
        entry = found.setdefault(call["provider_major"], {}).setdefault(
            kind, {"service": service, "source": "learned", **{p: [] for p in PHASES}}
        )
        if call["operation"] not in entry[call["phase"]]:
            entry[call["phase"]].append(call["operation"])
    return found


def inferred(kind: str) -> dict[str, Any] | None:
    found = infer_operations(kind)
    if found is None:
        return None
    return {"service": found.service, "source": "inferred"} | {p: list(found.of(p)) for p in PHASES}


def build(
    schemas: dict[str, Path], recordings: Path | None, current: dict[str, Any]
) -> dict[str, Any]:
    majors: dict[str, set[str]] = {}
    for major, entry in current.get("providers", {}).items():
        majors.setdefault(major, set()).update(entry.get("types", {}), entry.get("unresolved", ()))
    for major, path in schemas.items():
        schema = json.loads(path.read_text())
        for provider, found in schema.get("provider_schemas", {}).items():
            if provider.endswith("hashicorp/aws"):
                majors.setdefault(major, set()).update(found.get("resource_schemas", {}))
    learnt = learned(recorded_calls(recordings)) if recordings else {}
    # Learned entries already in the file stay unless a recording of the type replaces them.
    for major, entry in current.get("providers", {}).items():
        for kind, old in entry.get("types", {}).items():
            if old.get("source") == "learned":
                learnt.setdefault(major, {}).setdefault(kind, old)
    providers: dict[str, Any] = {}
    for major in sorted(majors | learnt.keys()):
        types: dict[str, Any] = {}
        unresolved: list[str] = []
        for kind in sorted(majors.get(major, set()) | set(learnt.get(major, {}))):
            entry = inferred(kind)
            seen = learnt.get(major, {}).get(kind)
            if seen is not None:
                # A phase a recording saw nothing of (reads are not recorded) keeps the inference.
                base = entry or {"service": seen["service"], **{p: [] for p in PHASES}}
                entry = {"service": seen["service"], "source": "learned"} | {
                    p: _in_order(seen[p], base[p]) for p in PHASES
                }
            if entry is None:
                unresolved.append(kind)
            else:
                types[kind] = entry
        providers[major] = {"types": types, "unresolved": unresolved}
    return {
        "format": FORMAT,
        "botocore": version("botocore"),
        "providers": providers,
        "signing_names": {s: signing_name(s) for s in sorted(botocore_services())},
    }


def _in_order(seen: list[str], inferred: list[str]) -> list[str]:
    """What a phase was seen to call, the inferred operations it called first (a
    recording's order is not the call order: the create itself leads); the
    inference when nothing was seen."""
    if not seen:
        return inferred
    return [op for op in inferred if op in seen] + [op for op in seen if op not in inferred]


def _major(text: str) -> tuple[str, Path]:
    major, _, path = text.partition("=")
    if not major.isdigit() or not path:
        raise argparse.ArgumentTypeError(f"{text!r}: give MAJOR=FILE, e.g. 5=schema.json")
    return major, Path(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", type=_major, action="append", default=[])
    parser.add_argument("--recordings", type=Path)
    parser.add_argument("--output", type=Path, default=DATA)
    args = parser.parse_args(argv)
    current = json.loads(args.output.read_text()) if args.output.exists() else {}
    data = build(dict(args.schema), args.recordings, current)
    args.output.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for major, entry in data["providers"].items():
        learnt = sum(1 for e in entry["types"].values() if e["source"] == "learned")
        print(
            f"aws {major}.x: {len(entry['types'])} types ({learnt} learned), "
            f"{len(entry['unresolved'])} unresolved"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
