"""Where a fault scenario's time goes: each step of ``Stack.recover``, measured.

Runs the same fault scenarios with the provider reattached and without, one
after the other (interleaved per scenario), and prints per step (Stack set-up,
emulator reset, inventory, apply, plan, close) the count, total and mean
seconds of each side::

    python bench/steps.py                                   # examples/network, 4 scenarios
    python bench/steps.py --module tests/modules/vpc_and_subnet \\
        --faults crash@CreateVpc#1,crash@CreateSubnet#1
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FAULTS = (
    "crash@CreateVpc#1,crash@CreateSubnet#1,lost-response@CreateVpc#1,crash@CreateSecurityGroup#1"
)

Times = dict[str, list[float]]


def timed(owner: Any, name: str, label: str, sink: Callable[[], Times]) -> None:
    """Wrap ``owner.name`` so each call's seconds land in ``sink()[label]``."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            sink()[label].append(time.perf_counter() - started)

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", type=Path, default=REPO / "examples" / "network")
    parser.add_argument("--faults", default=FAULTS, help="comma list of kind@Op#n")
    options = parser.parse_args()

    import pluggy

    import pytest_converge.inventory as inventory
    from pytest_converge.emulator.moto import MotoEmulator
    from pytest_converge.faults import parse_fault
    from pytest_converge.plugin import hookspecs
    from pytest_converge.run.stack import Stack
    from pytest_converge.terraform.toolchain import resolve_toolchain
    from pytest_converge.terraform.workspace import Templates

    sides: dict[bool, Times] = {
        True: collections.defaultdict(list),
        False: collections.defaultdict(list),
    }
    current: list[bool] = [True]

    def sink() -> Times:
        return sides[current[0]]

    timed(MotoEmulator, "reset", "emulator reset", sink)
    timed(inventory, "take_inventory", "inventory", sink)
    timed(Stack, "apply", "terraform apply", sink)
    timed(Stack, "plan", "terraform plan", sink)
    timed(Stack, "__init__", "Stack set-up", sink)
    timed(Stack, "close", "Stack close", sink)
    hooks = pluggy.PluginManager("pytest")
    hooks.add_hookspecs(hookspecs)
    hooks.register(inventory)

    scratch = Path(tempfile.mkdtemp(prefix="converge-steps-"))
    emulator = MotoEmulator()
    emulator.start()
    try:
        templates = Templates(resolve_toolchain(None), scratch / "templates")
        templates.get(options.module)
        emulator.reset()  # waits for moto's warm-up: not a scenario's cost
        for side in sides.values():
            side.clear()
        faults = [parse_fault(f) for f in options.faults.split(",")]
        for i, fault in enumerate(faults):
            # Alternate which side goes first, so both see the same load.
            for reattach in (True, False) if i % 2 == 0 else (False, True):
                current[0] = reattach
                started = time.perf_counter()
                stack = Stack(
                    options.module,
                    emulator=emulator,
                    templates=templates,
                    workdir=scratch,
                    reattach=reattach,
                    replay=False,
                    inventory=lambda e: hooks.hook.pytest_converge_inventory(emulator=e),
                )
                try:
                    report = stack.recover(fault)
                finally:
                    stack.close()
                sink()["whole scenario"].append(time.perf_counter() - started)
                kinds = ", ".join(sorted({d.kind for d in report.errors})) or "no defect"
                print(f"{fault.label:32s} reattach={reattach!s:5s} {kinds}")
    finally:
        emulator.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    print(
        f"\n{len(faults)} scenarios of {os.path.relpath(options.module, REPO)}, "
        f"load average {os.getloadavg()[0]:.1f}; seconds (count, total, mean)"
    )
    print(f"{'step':18s} {'reattached':>24s} {'provider per command':>24s}")
    for step in sides[True]:
        cells = []
        for reattach in (True, False):
            values = sides[reattach][step]
            mean = sum(values) / len(values) if values else 0.0
            cells.append(f"{len(values):3d} {sum(values):8.2f} {mean:7.2f}")
        print(f"{step:18s} {cells[0]:>24s} {cells[1]:>24s}")


if __name__ == "__main__":
    main()
