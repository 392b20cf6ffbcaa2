"""Terraform state, flattened to one record per resource instance.

Reads the JSON of ``terraform show -json`` (the form every engine prints the
same way)::

    {"values": {"root_module": {
        "resources": [{"address": "aws_vpc.main", "mode": "managed",
                       "type": "aws_vpc", "values": {"id": "vpc-1", ...}}],
        "child_modules": [{"address": "module.net", "resources": [...],
                           "child_modules": [...]}]}}}

A raw state file (``terraform.tfstate``, format version 4) is read too, so a
state left by a killed terraform can be inspected without running terraform.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["StateResource", "state_resources"]


@dataclass(frozen=True)
class StateResource:
    """One resource instance in state.

    ``mode`` is ``"managed"`` or ``"data"``; ``id`` is ``values["id"]`` (None
    when the resource has none); ``values`` holds every attribute as
    ``terraform show -json`` prints it.
    """

    address: str
    type: str
    mode: str
    id: str | None
    values: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    #: The provider configuration that manages it, as a raw state file names it
    #: (``provider["registry.terraform.io/hashicorp/aws"].west``); None when unknown.
    provider: str | None = field(default=None, compare=False, hash=False, repr=False)
    #: The resources (``module.net.aws_vpc.main``, no instance keys) it depends on.
    dependencies: tuple[str, ...] = field(default=(), compare=False, hash=False, repr=False)

    @property
    def is_managed(self) -> bool:
        return self.mode == "managed"


def state_resources(state_json: dict[str, Any] | None) -> list[StateResource]:
    """Every resource instance in a state, child modules included.

    Accepts ``terraform show -json`` output (``{"values": {"root_module": ...}}``)
    or a raw v4 state file (``{"version": 4, "resources": [...]}``). An empty
    state (``{}``, no ``values``, ``null``) gives ``[]``.

    >>> state_resources({"values": {"root_module": {"resources": [
    ...     {"address": "aws_vpc.a", "mode": "managed", "type": "aws_vpc",
    ...      "values": {"id": "vpc-1"}}]}}})
    [StateResource(address='aws_vpc.a', type='aws_vpc', mode='managed', id='vpc-1')]
    """
    if not state_json:
        return []
    if isinstance(state_json, (str, bytes)):
        state_json = json.loads(state_json)
    values = state_json.get("values")
    if isinstance(values, dict):
        root = values.get("root_module") or {}
        return list(_walk_module(root))
    if isinstance(state_json.get("resources"), list):
        return _raw_state(state_json)
    return []


def _walk_module(module: dict[str, Any]) -> list[StateResource]:
    found: list[StateResource] = []
    for r in module.get("resources") or []:
        found.append(_resource(r.get("address", ""), r))
    for child in module.get("child_modules") or []:
        found.extend(_walk_module(child))
    return found


def _resource(address: str, r: dict[str, Any]) -> StateResource:
    values = r.get("values") or {}
    rid = values.get("id")
    return StateResource(
        address=address or _address("", r.get("mode", "managed"), r["type"], r["name"]),
        type=r.get("type", ""),
        mode=r.get("mode", "managed"),
        id=str(rid) if rid not in (None, "") else None,
        values=values,
        provider=r.get("provider"),
        dependencies=tuple(r.get("depends_on") or ()),
    )


def _raw_state(state: dict[str, Any]) -> list[StateResource]:
    """The ``resources`` list of a v4 state file, one record per instance."""
    found: list[StateResource] = []
    for r in state["resources"]:
        base = _address(r.get("module", ""), r.get("mode", "managed"), r["type"], r["name"])
        for inst in r.get("instances") or []:
            key = inst.get("index_key")
            suffix = "" if key is None else f"[{json.dumps(key)}]"
            found.append(
                _resource(
                    base + suffix,
                    {
                        "type": r["type"],
                        "mode": r.get("mode", "managed"),
                        "values": inst.get("attributes") or {},
                        "provider": r.get("provider"),
                        "depends_on": inst.get("dependencies") or (),
                    },
                )
            )
    return found


def _address(module: str, mode: str, type_: str, name: str) -> str:
    local = f"{type_}.{name}" if mode == "managed" else f"data.{type_}.{name}"
    return f"{module}.{local}" if module else local
