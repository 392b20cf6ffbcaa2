"""The cost of one steady-state loop cycle against what it stands for.

A loop over ``examples/network`` with no other writer: every cycle after the
first finds nothing to do. Its median cycle (writers, ``plan -out`` with
refresh, the audit of the proxy's calls, reading state) is compared with the
bare commands a cron job would run, ``terraform plan`` + a no-op ``terraform
apply -auto-approve``, in a copy of the same initialised workspace pointed
straight at the same moto (no proxy), with the same environment. Cycles and
bare rounds are interleaved one by one so both see the same load. Target
ratio: <= 1.2.

    python bench/loop_cycle.py                 # 10 cycles, 10 bare rounds
    python bench/loop_cycle.py --cycles 20
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODULE = REPO / "examples" / "network"


def measure(cycles: int) -> dict[str, object]:
    from pytest_converge.emulator.moto import MotoEmulator
    from pytest_converge.run.stack import Stack
    from pytest_converge.terraform.toolchain import resolve_toolchain
    from pytest_converge.terraform.workspace import Templates

    scratch = Path(tempfile.mkdtemp(prefix="converge-loop-bench-"))
    emulator = MotoEmulator()
    emulator.start()
    try:
        (scratch / "templates").mkdir()
        templates = Templates(resolve_toolchain(None), scratch / "templates")
        template = templates.get(MODULE)
        bare_dir = template.instantiate(scratch / "bare", emulator.endpoint, None)
        env = templates.env(scratch / "bare")
        command = list(templates.toolchain.command)
        quiet = {"cwd": bare_dir, "env": env, "stdout": subprocess.DEVNULL}

        stack = Stack(MODULE, emulator=emulator, templates=templates, workdir=scratch)
        try:
            loop = stack.loop()  # the apply and the baseline refresh are not cycles
            # The bare side owns other objects (names collide): give it its own state and
            # objects by applying it with another name prefix.
            (bare_dir / "converge.auto.tfvars.json").write_text(json.dumps({"name": "bare"}))
            subprocess.run(
                [*command, "apply", "-auto-approve", "-input=false"], check=True, **quiet
            )

            def bare_round() -> float:
                started = time.perf_counter()
                subprocess.run([*command, "plan", "-input=false"], check=True, **quiet)
                subprocess.run(
                    [*command, "apply", "-auto-approve", "-input=false"], check=True, **quiet
                )
                return time.perf_counter() - started

            loop.run(cycles=1)
            bare_round()  # warm-up of both sides
            bare: list[float] = []
            seconds: list[float] = []
            writes: list[int] = []
            for i in range(cycles):
                order = ("loop", "bare") if i % 2 == 0 else ("bare", "loop")
                for side in order:
                    if side == "bare":
                        bare.append(bare_round())
                    else:
                        [cycle] = loop.run(cycles=1).cycles
                        seconds.append(cycle.seconds)
                        writes.append(cycle.writes)
            report = loop.report
        finally:
            stack.close()
        return {
            "cycles": len(seconds),
            "loop_median": statistics.median(seconds),
            "bare_median": statistics.median(bare),
            "ratio": statistics.median(seconds) / statistics.median(bare),
            "writes_after_first": sum(writes),
            "reads_per_cycle": report.cycles[-1].reads,
            "reads_per_resource": report.cycles[-1].reads_per_resource,
            "loop_all": [round(s, 3) for s in seconds],
            "bare_all": [round(s, 3) for s in bare],
        }
    finally:
        emulator.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=10)
    args = parser.parse_args()
    found = measure(args.cycles)
    print(json.dumps(found, indent=2))
    print(
        f"median loop cycle {found['loop_median']:.2f} s vs bare plan + no-op apply "
        f"{found['bare_median']:.2f} s: ratio {found['ratio']:.2f} (target <= 1.2); "
        f"writes after the first cycle: {found['writes_after_first']}"
    )


if __name__ == "__main__":
    main()
