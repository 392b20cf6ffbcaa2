"""Scale figures of zero-code mode, in one run.

(a) Per-scenario overhead: a two-run scenario on ``examples/network`` as the
    plugin runs it (a fresh Stack: workspace copy, recording proxy, ``apply``
    and ``plan`` with JSON streaming, cleanup) against the bare commands it
    stands for (``terraform apply -auto-approve`` + ``terraform plan
    -detailed-exitcode``) in a copy of the same initialised workspace pointed
    straight at the same moto, with the same environment. Interleaved
    repeats, median of each; target ratio <= 1.10.
(b) Speed-up of ``-n 2`` over ``-n 0`` for ``pytest --converge examples/network``
    with a matrix of >= 16 scenarios, both as subprocesses; target >= 1.7 on
    2 cores. Also the ``--collect-only`` time (it records the fault points).
(c) Peak RSS: of this process while (a) runs (moto runs in it), of each
    pytest process in (b) (controller and workers; moto runs in each one that
    runs scenarios), and ``ru_maxrss`` of all children (terraform and the
    provider plugin included).

    PYTHONPATH=. /tmp/venv/bin/python bench/bench.py
    PYTHONPATH=. /tmp/venv/bin/python bench/bench.py --repeats 7 --faults all -k CreateVpc
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODULE = REPO / "examples" / "network"

#: A pytest plugin each measured pytest process loads: it writes its own
#: peak RSS (moto included: it runs in-process) when it ends.
PROBE = """
import json, os, resource

def pytest_unconfigure(config):
    worker = getattr(config, "workerinput", {}).get("workerid", "controller")
    out = os.environ["CONVERGE_BENCH_RSS"]
    with open(os.path.join(out, f"{worker}-{os.getpid()}.json"), "w") as f:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        json.dump({"process": worker, "maxrss_kb": peak}, f)
"""


def overhead(repeats: int) -> dict[str, float]:
    """(a): median seconds of the plugin's two-run and of the bare commands."""
    from pytest_converge.emulator.moto import MotoEmulator
    from pytest_converge.stack import Stack
    from pytest_converge.terraform import IsFlagged
    from pytest_converge.toolchain import resolve_toolchain
    from pytest_converge.workspace import Templates

    scratch = Path(tempfile.mkdtemp(prefix="converge-bench-"))
    emulator = MotoEmulator()
    emulator.start()
    try:
        templates = Templates(resolve_toolchain(None), scratch / "templates")
        (scratch / "templates").mkdir()
        template = templates.get(MODULE)
        # The bare side: the same initialised copy, its override pointing
        # straight at moto (no proxy), the same environment and engine.
        bare_dir = template.instantiate(scratch / "bare", emulator.endpoint, None)
        env = templates.env(scratch / "bare")
        command = list(templates.toolchain.command)

        show: list[float] = []

        def plugin_run() -> float:
            started = time.perf_counter()
            emulator.reset()
            stack = Stack(MODULE, emulator=emulator, templates=templates, workdir=scratch)
            try:
                stack.assert_converged()
                seconds = time.perf_counter() - started
                # Where the time goes: when refresh reports drift, Stack.plan also
                # runs `terraform show -json` on the plan (attribute detail for the
                # drift analysis); time one such show, outside the measurement.
                if (stack.workdir / "converge.tfplan").exists():
                    before = time.perf_counter()
                    stack.runner.run("show", "converge.tfplan", json=IsFlagged, check=True)
                    show.append(time.perf_counter() - before)
            finally:
                stack.close()
            return seconds

        def bare_run() -> float:
            started = time.perf_counter()
            emulator.reset()
            for name in ("terraform.tfstate", "terraform.tfstate.backup"):
                (bare_dir / name).unlink(missing_ok=True)
            quiet = {"cwd": bare_dir, "env": env, "stdout": subprocess.DEVNULL}
            subprocess.run(
                [*command, "apply", "-auto-approve", "-input=false"], check=True, **quiet
            )
            plan = subprocess.run([*command, "plan", "-detailed-exitcode", "-input=false"], **quiet)
            if plan.returncode != 0:
                raise SystemExit(f"bare plan is not empty (exit {plan.returncode})")
            return time.perf_counter() - started

        plugin_run(), bare_run()  # warm-up: moto's lazy imports, page cache
        plugin: list[float] = []
        bare: list[float] = []
        for i in range(repeats):
            # Interleaved, alternating which goes first, so both see the same load.
            order = (plugin_run, bare_run) if i % 2 == 0 else (bare_run, plugin_run)
            for run in order:
                (plugin if run is plugin_run else bare).append(run())
        return {
            "plugin": statistics.median(plugin),
            "bare": statistics.median(bare),
            "show": statistics.median(show) if show else 0.0,
            "plugin_all": plugin,  # type: ignore[dict-item]
            "bare_all": bare,  # type: ignore[dict-item]
            "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        }
    finally:
        emulator.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def pytest_run(args: list[str], probe_dir: Path) -> tuple[float, str, list[dict]]:
    """Run pytest in a subprocess; return (seconds, output tail, per-process peak RSS)."""
    for old in probe_dir.glob("*.json"):
        old.unlink()
    env = {
        **os.environ,
        "CONVERGE_BENCH_RSS": str(probe_dir),
        "PYTHONPATH": os.pathsep.join(
            [str(probe_dir), str(REPO), os.environ.get("PYTHONPATH", "")]
        ),
    }
    command = [sys.executable, "-m", "pytest", *args, "-p", "converge_bench_probe"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds of pytest, moto, terraform and the provider, all together.
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode not in (0, 1):  # 1: defects found, which the matrix does find
        raise SystemExit(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    rss = [json.loads(p.read_text()) for p in sorted(probe_dir.glob("*.json"))]
    tail = done.stdout.strip().splitlines()[-1].strip("= ")
    return seconds, f"{tail}; {cpu / seconds:.2f} CPUs busy", rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats for (a)")
    parser.add_argument("--faults", default="lost-response,crash", help="--converge-faults for (b)")
    parser.add_argument("-k", default="", help="-k expression for (b)")
    options = parser.parse_args()

    print(
        f"pytest-converge scale bench on {os.cpu_count()} CPUs, module {MODULE.relative_to(REPO)}"
    )
    a = overhead(options.repeats)
    ratio = a["plugin"] / a["bare"]

    probe_dir = Path(tempfile.mkdtemp(prefix="converge-probe-"))
    (probe_dir / "converge_bench_probe.py").write_text(PROBE)
    base = ["--converge", str(MODULE.relative_to(REPO)), f"--converge-faults={options.faults}"]
    base += ["-p", "no:cacheprovider", "-o", "addopts="]
    if options.k:
        base += ["-k", options.k]
    load = os.getloadavg()[0]
    collect_s, collect_tail, _ = pytest_run([*base, "--collect-only", "-q"], probe_dir)
    counted = re.search(r"(\d+) (?:tests?|items?) (?:collected|selected)", collect_tail)
    scenarios = int(counted.group(1)) if counted else -1
    serial_s, serial_tail, serial_rss = pytest_run([*base, "-q"], probe_dir)
    xdist_s, xdist_tail, xdist_rss = pytest_run([*base, "-q", "-n", "2"], probe_dir)
    children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    shutil.rmtree(probe_dir, ignore_errors=True)
    speedup = serial_s / xdist_s

    def mb(kb: float) -> str:
        return f"{kb / 1024:.0f} MB"

    rows = [
        ("(a) two-run, plugin (Stack: copy, proxy, apply+plan, close)", f"{a['plugin']:.2f} s", ""),
        ("(a) two-run, bare terraform apply + plan, same moto/env", f"{a['bare']:.2f} s", ""),
        (
            "(a) overhead ratio plugin / bare (median)",
            f"{ratio:.3f}",
            "<= 1.10 " + ("met" if ratio <= 1.10 else "MISSED"),
        ),
        (
            "(a) of which: one `terraform show -json` (drift detail)",
            f"{a['show']:.2f} s",
            f"ratio without it {(a['plugin'] - a['show']) / a['bare']:.3f}" if a["show"] else "",
        ),
        (
            f"(b) --collect-only ({scenarios} scenarios; records fault points)",
            f"{collect_s:.1f} s",
            "",
        ),
        ("(b) -n 0 wall time", f"{serial_s:.1f} s", serial_tail),
        (
            "(b) load average (1 min) before the runs",
            f"{load:.2f}",
            "other processes share the CPUs",
        ),
        ("(b) -n 2 wall time", f"{xdist_s:.1f} s", xdist_tail),
        (
            "(b) speed-up -n 2 over -n 0",
            f"{speedup:.2f}x",
            ">= 1.7 " + ("met" if speedup >= 1.7 else "MISSED"),
        ),
        ("(c) peak RSS, bench process during (a) (moto in-process)", mb(a["rss_kb"]), ""),
    ]
    for rss in serial_rss:
        rows.append(
            (
                f"(c) peak RSS, -n 0 pytest {rss['process']} (with its moto)",
                mb(rss["maxrss_kb"]),
                "",
            )
        )
    for rss in xdist_rss:
        what = "(no moto)" if rss["process"] == "controller" else "(with its moto)"
        rows.append((f"(c) peak RSS, -n 2 {rss['process']} {what}", mb(rss["maxrss_kb"]), ""))
    rows.append(
        ("(c) ru_maxrss of children (largest: terraform/provider/pytest)", mb(children_kb), "")
    )

    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'figure'.ljust(width)}  {'value':>10}  note")
    print("-" * (width + 40))
    for name, value, note in rows:
        print(f"{name.ljust(width)}  {value:>10}  {note}")
    print()
    print(
        "(a) runs, plugin:",
        ", ".join(f"{s:.2f}" for s in a["plugin_all"]),
        "| bare:",
        ", ".join(f"{s:.2f}" for s in a["bare_all"]),
    )
    print("(b) command:", "pytest", " ".join(base), "-q [-n 2]")


if __name__ == "__main__":
    main()
