"""End-to-end figures of pytest-converge against the bare terraform commands, in one run.

Every figure is a ratio of runs measured side by side (interleaved, same
machine, same moment), so the load of the machine cancels out as far as it can:

(1) two-run: the whole ``pytest --converge MODULE --converge-faults=none``
    process (interpreter start, imports, its own moto, init or its cached
    copy, apply, plan) / bare ``terraform init`` + ``apply`` +
    ``plan -detailed-exitcode`` in a fresh copy of the module pointed at an
    emulator that is already running and warm (the bare side pays no
    emulator start: the harder comparison). Target <= 0.75 (caches warm; issue #36).
    The same pair on an empty cache (a fresh CI runner): the plugin with a
    new ``CONVERGE_CACHE_DIR``, the bare side with a new plugin cache; both
    install the provider from the same sources. Target <= 1.0.
(2) one fault scenario: the whole ``pytest --converge MODULE "MODULE::<FAULT>"``
    process (reset, inventory, apply through the fault, clean re-apply,
    plan, inventory) / bare init + apply + apply + plan. The scenario finds
    no defect (one that does is replayed once). Target <= 1.0.
(3) ``-n 2`` speed-up over ``-n 0`` on a 12-scenario fault matrix of the
    module, one run per scenario (``--converge-matrix per-point``; both whole pytest
    processes). Target >= 1.7 on 2 cores.
(4) peak RSS of each pytest process (controller, workers: each with its
    moto) and the start-up time from process start to the first
    ``terraform apply``.
(5) ``--matrix``: the default fault matrix, the whole
    ``pytest --converge MODULE --converge-faults=lost-response,crash -n 2`` process
    (grouped runs, :mod:`pytest_converge.run.matrix`) / the whole two-run process of (1),
    interleaved; with where the matrix's time went (its runs per fault kind, from
    its JSON report). ``--per-point`` adds one ``--converge-matrix per-point`` run
    (one scenario per point) beside them and compares every point's verdict (its
    outcome and error findings, kind and address) with the last grouped run's.
    Target <= 3 (issue #36; <= 5 was issue #29's).

Caches are warm for the plugin (a second run of a module reuses its
initialised copy and its recorded fault points); the bare side uses the same
provider plugin cache, so its init costs what it costs a user with a cache.

    python bench/bench.py                 # all figures, 3 interleaved pairs each
    python bench/bench.py --repeats 5
    python bench/bench.py --smoke         # CI: one pair of (1), no targets checked
    python bench/bench.py --two-run-only --module tests/corpus5/vpc-v5.21.0/examples/simple
    python bench/bench.py --matrix --per-point --repeats 1   # (5) on examples/network

``--module`` measures (1) on any module (``--two-run-only``: (2) and (3) use a
fault point of ``examples/network``); the bare side copies the tree of local
modules it calls (a public module's ``source = "../../"``).

The provider is whatever the user's Terraform would install (``TF_CLI_CONFIG_FILE``
or ``~/.terraformrc``, then the bundled 3.39.0); the header names it. For aws 5.x,
point a CLI config at a mirror that holds it (``examples/network`` accepts < 6.0)::

    printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' \
        /opt/tf-plugins > aws5.tfrc
    TF_CLI_CONFIG_FILE=$PWD/aws5.tfrc python bench/bench.py --skip-matrix
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MODULE = REPO / "examples" / "network"
#: A scenario without defects: one that finds some is replayed once, doubling its cost.
FAULT = "lost-response@CreateQueue#1@aws_sqs_queue.jobs"

#: A pytest plugin each measured pytest process loads: it records its peak
#: RSS and when its first ``terraform apply`` started (seconds since the
#: process started, from /proc).
PROBE = """
import json, os, resource, time

_first_apply = []

def _since_start():
    # /proc/uptime, not btime: btime has whole-second resolution.
    with open("/proc/self/stat") as f:
        ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return uptime - ticks / os.sysconf("SC_CLK_TCK")

def pytest_configure(config):
    from pytest_converge.terraform import runner as terraform
    original = terraform.Runner.run
    def run(self, cmd, *args, **kwargs):
        if cmd == "apply" and not _first_apply:
            _first_apply.append(_since_start())
        return original(self, cmd, *args, **kwargs)
    terraform.Runner.run = run

def pytest_unconfigure(config):
    worker = getattr(config, "workerinput", {}).get("workerid", "controller")
    out = os.environ["CONVERGE_BENCH_PROBE"]
    with open(os.path.join(out, f"{worker}-{os.getpid()}.json"), "w") as f:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        json.dump({"process": worker, "maxrss_kb": peak,
                   "first_apply": _first_apply[0] if _first_apply else None}, f)
"""


class Bench:
    """The bare side's emulator and scratch space, and the probe for pytest runs."""

    def __init__(self) -> None:
        from pytest_converge.emulator.moto import MotoEmulator
        from pytest_converge.terraform.toolchain import resolve_toolchain

        self.scratch = Path(tempfile.mkdtemp(prefix="converge-bench-"))
        self.probe = self.scratch / "probe"
        self.probe.mkdir()
        (self.probe / "converge_bench_probe.py").write_text(PROBE)
        self.toolchain = resolve_toolchain(None)
        self.emulator = MotoEmulator()
        self.emulator.start()
        self.runs = 0
        #: CPU seconds of each run, in order (see pairs()).
        self.cpu: list[float] = []
        self._schemas: dict[Path, Any] = {}

    def close(self) -> None:
        self.emulator.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)

    # -- the bare commands ---------------------------------------------
    def bare(self, module: Path, applies: int, cold: bool = False) -> float:
        """Fresh copy, override, init, ``applies`` x apply, plan -detailed-exitcode.

        ``cold``: an empty plugin cache of its own, as on a fresh CI runner.
        """
        from pytest_converge.isolation.safety import terraform_env
        from pytest_converge.terraform.workspace import (
            OVERRIDE_FILE,
            PROVIDER_FILE,
            aws_provider_configs,
            local_module_root,
            provider_override,
        )

        self.runs += 1
        tree = local_module_root(module.resolve())  # a public example's source = "../../"
        copy = self.scratch / f"bare-{self.runs}"
        shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*"))
        work = copy / module.relative_to(tree)
        schema = self._schema(module)
        override, extra = provider_override(
            self.emulator.endpoint, aws_provider_configs(work), schema
        )
        (work / OVERRIDE_FILE).write_text(override)
        if extra:
            (work / PROVIDER_FILE).write_text(extra)
        cli_config = self.toolchain.cli_config
        if cold:
            cli_config = self._cold_config(work)
        env = terraform_env(cli_config, work)
        tf = list(self.toolchain.command)
        self.emulator.reset()
        quiet = {"cwd": work, "env": env, "stdout": subprocess.DEVNULL, "check": True}
        cpu = _cpu_seconds()
        started = time.perf_counter()
        subprocess.run([*tf, "init", "-input=false"], **quiet)
        for _ in range(applies):
            subprocess.run([*tf, "apply", "-auto-approve", "-input=false"], **quiet)
        plan = subprocess.run(
            [*tf, "plan", "-detailed-exitcode", "-input=false"],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - started
        # terraform and its providers, and the emulator (in this process).
        self.cpu.append(_cpu_seconds() - cpu)
        shutil.rmtree(copy, ignore_errors=True)
        if plan.returncode != 0:
            raise SystemExit(f"bare plan of {module} is not empty (exit {plan.returncode})")
        return seconds

    def providers(self, module: Path) -> str:
        """``hashicorp/aws 5.100.0``: what init selected for ``module`` (its lock file)."""
        from pytest_converge.terraform.workspace import Templates

        found = Templates(self.toolchain, self.scratch / "templates").get(module).providers
        return ", ".join(f"{a.split('/', 1)[-1]} {v}" for a, v in sorted(found.items()))

    def _cold_config(self, work: Path) -> Path:
        """The run's CLI config with a new, empty plugin cache (same provider sources)."""
        cache = work.parent / f"{work.name}-plugins"
        cache.mkdir()
        text = self.toolchain.cli_config.read_text()
        lines = [
            f'plugin_cache_dir = "{cache}"' if ln.startswith("plugin_cache_dir") else ln
            for ln in text.splitlines()
        ]
        config = work.parent / f"{work.name}.rc"
        config.write_text("\n".join(lines) + "\n")
        return config

    def _schema(self, module: Path) -> Any:
        """The provider's schema (the override names only attributes it knows)."""
        if module not in self._schemas:
            from pytest_converge.terraform.workspace import Templates

            templates = Templates(self.toolchain, self.scratch / "templates")
            self._schemas[module] = templates.get(module).schema
        return self._schemas[module]

    # -- pytest processes ----------------------------------------------
    def pytest(self, args: list[str], cold: bool = False) -> tuple[float, str, list[dict]]:
        """Run pytest in a subprocess: (seconds, summary line, per-process probe records).

        ``cold``: with an empty cache of its own (no initialised copy, no unpacked
        provider, no recorded fault points), as on a fresh CI runner.
        """
        for old in self.probe.glob("*.json"):
            old.unlink()
        cache: dict[str, str] = {}
        if cold:
            self.runs += 1
            cache["CONVERGE_CACHE_DIR"] = str(self.scratch / f"cold-cache-{self.runs}")
        env = {
            **os.environ,
            **cache,
            "CONVERGE_BENCH_PROBE": str(self.probe),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(self.probe), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        command = [sys.executable, "-m", "pytest", *args, "-p", "converge_bench_probe"]
        command += ["-p", "no:cacheprovider", "-o", "addopts=", "-q"]
        cpu = _cpu_seconds()
        started = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        # pytest, its emulator, terraform and the provider (all waited for).
        self.cpu.append(_cpu_seconds() - cpu)
        if done.returncode not in (0, 1):  # 1: defects found, which fault matrices do find
            raise SystemExit(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
            )
        records = [json.loads(p.read_text()) for p in sorted(self.probe.glob("*.json"))]
        tail = done.stdout.strip().splitlines()[-1].strip("= ") if done.stdout.strip() else ""
        return seconds, tail, records


@dataclass
class Pair:
    """Wall and CPU seconds of interleaved runs of two sides."""

    wall: tuple[list[float], list[float]]
    cpu: tuple[list[float], list[float]]

    def ratio(self, of: str = "wall") -> float:
        a, b = getattr(self, of)
        return statistics.median(a) / statistics.median(b)

    def medians(self, of: str = "wall") -> str:
        a, b = getattr(self, of)
        return f"{statistics.median(a):.1f} s / {statistics.median(b):.1f} s"


def pairs(
    bench: Bench, repeats: int, plugin: Callable[[], float], bare: Callable[[], float]
) -> Pair:
    """Interleaved runs, alternating which goes first, so both see the same load."""
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for i in range(repeats):
        order = ((plugin, 0), (bare, 1)) if i % 2 == 0 else ((bare, 1), (plugin, 0))
        for run, side in order:
            wall[side].append(run())
            cpu[side].append(bench.cpu[-1])
    return Pair(wall, cpu)


def _cpu_seconds() -> float:
    """User + system seconds of this process and of its waited-for children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="interleaved pairs per ratio")
    parser.add_argument("--smoke", action="store_true", help="one pair of (1) only (CI)")
    parser.add_argument("--module", type=Path, default=MODULE, help="module to measure")
    parser.add_argument(
        "--skip-matrix", action="store_true", help="leave out (3), the longest figure"
    )
    parser.add_argument(
        "--two-run-only",
        action="store_true",
        help="figure (1) warm and on an empty cache only (any module: (2) needs examples/network)",
    )
    parser.add_argument(
        "--matrix-scenarios",
        type=int,
        default=12,
        metavar="N",
        help="fault scenarios in (3) (default 12; fewer on aws 5.x, where one costs ~50 s)",
    )
    parser.add_argument(
        "--matrix",
        action="store_true",
        help="only (5): the grouped default fault matrix (-n 2) / the two-run, interleaved",
    )
    parser.add_argument(
        "--per-point",
        action="store_true",
        help="with --matrix: one --converge-matrix per-point run beside them",
    )
    options = parser.parse_args()
    module = options.module.resolve()
    rel = os.path.relpath(module, REPO)
    repeats = 1 if options.smoke else options.repeats
    # A user's install has the package's bytecode: pip compiles a wheel, and an editable
    # install writes it on first import unless PYTHONDONTWRITEBYTECODE is set (as on this
    # machine and in CI), when every pytest process would compile the modules changed since.
    compileall.compile_dir(REPO / "pytest_converge", quiet=1)

    bench = Bench()
    rows: list[tuple[str, str, str]] = []
    first_apply: list[float] = []
    rss: list[dict] = []
    load_before = os.getloadavg()[0]
    providers = "provider n/a"
    try:
        base = ["--converge", rel]

        def plugin_two_run(*extra: str) -> float:
            seconds, _, records = bench.pytest([*base, "--converge-faults=none", *extra])
            if not extra:
                first_apply.extend(r["first_apply"] for r in records if r["first_apply"])
                rss.extend(records)
            return seconds

        # Warm-up, not measured: fills the caches a second CI run would have.
        plugin_two_run()
        if options.matrix:
            rows.extend(matrix_figures(bench, base, plugin_two_run, repeats, options.per_point))
            return _print(bench, rows, rss, load_before, "n/a", rel, repeats)
        providers = bench.providers(module)
        bench.bare(module, 1)
        first_apply.clear()
        two_run = pairs(bench, repeats, plugin_two_run, lambda: bench.bare(module, 1))
        target = "" if options.smoke else f"; target <= 0.75 {_met(two_run.ratio() <= 0.75)}"
        rows.append(
            (
                "(1) pytest --converge MODULE --converge-faults=none / bare init+apply+plan",
                f"{two_run.ratio():.2f}",
                two_run.medians() + target,
            )
        )
        rows.append(
            ("    CPU seconds, same runs", f"{two_run.ratio('cpu'):.2f}", two_run.medians("cpu"))
        )
        rows.append(
            (
                "(4) start-up: process start to first terraform apply (median)",
                f"{statistics.median(first_apply):.1f} s" if first_apply else "n/a",
                "interpreter, imports, emulator start, cached init, proxy, provider start",
            )
        )
        if not options.smoke:
            cold = pairs(
                bench,
                repeats,
                lambda: bench.pytest([*base, "--converge-faults=none"], cold=True)[0],
                lambda: bench.bare(module, 1, cold=True),
            )
            rows.append(
                (
                    "    (1) on an empty cache (a fresh CI runner), both sides",
                    f"{cold.ratio():.2f}",
                    cold.medians()
                    + f"; CPU {cold.ratio('cpu'):.2f}; target <= 1.0 "
                    + _met(cold.ratio() <= 1.0),
                )
            )
        if not options.smoke and not options.two_run_only:
            plain = pairs(
                bench,
                repeats,
                lambda: plugin_two_run("--converge-no-reattach"),
                lambda: bench.bare(module, 1),
            )
            rows.append(
                (
                    "    (1) with --converge-no-reattach (a provider per command)",
                    f"{plain.ratio():.2f}",
                    plain.medians() + f"; CPU {plain.ratio('cpu'):.2f}",
                )
            )
            rows.extend(
                fault_and_matrix(
                    bench,
                    base,
                    rel,
                    module,
                    repeats,
                    rss,
                    None if options.skip_matrix else options.matrix_scenarios,
                )
            )
    finally:
        bench.close()
    _print(bench, rows, rss, load_before, providers, rel, repeats)


def _print(
    bench: Bench,
    rows: list[tuple[str, str, str]],
    rss: list[dict],
    load_before: float,
    providers: str,
    rel: str,
    repeats: int,
) -> None:
    peak: dict[str, int] = {}
    for record in rss:
        what = record["process"]
        peak[what] = max(peak.get(what, 0), record["maxrss_kb"])
    for what, kb in sorted(peak.items()):
        label = "pytest -n 0 / xdist controller" if what == "controller" else f"xdist worker {what}"
        rows.append(
            (f"(4) peak RSS, {label}", f"{kb / 1024:.0f} MB", "moto's own process not counted")
        )

    print(
        f"pytest-converge bench, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
        f"UTC, {platform.machine()} {os.cpu_count()} CPUs, load average {load_before:.1f} "
        f"before / {os.getloadavg()[0]:.1f} after, {bench.toolchain.description}, "
        f"{providers}, module {rel}, "
        f"medians of {repeats}"
    )
    width = max(len(r[0]) for r in rows)
    print(f"{'figure'.ljust(width)}  {'value':>8}  note")
    print("-" * (width + 60))
    for name, value, note in rows:
        print(f"{name.ljust(width)}  {value:>8}  {note}")


def matrix_figures(
    bench: Bench,
    base: list[str],
    two_run: Any,
    repeats: int,
    per_point: bool,
) -> list[tuple[str, str, str]]:
    """Figure (5): the grouped default matrix (-n 2) / the two-run, and where its time goes."""
    report = bench.scratch / "matrix-report.json"
    matrix = [*base, "--converge-faults=lost-response,crash", "-n", "2",
              f"--converge-report={report}"]  # fmt: skip
    bench.pytest(matrix)  # warm-up: records the fault points once, as a second CI run has them
    pair = pairs(bench, repeats, lambda: bench.pytest(matrix)[0], two_run)
    rows = [
        (
            "(5) default fault matrix, -n 2, grouped / two-run (whole pytest processes)",
            f"{pair.ratio():.2f}",
            pair.medians() + f"; target <= 3 {_met(pair.ratio() <= 3)}",
        ),
        ("    CPU seconds, same runs", f"{pair.ratio('cpu'):.2f}", pair.medians("cpu")),
    ]
    data = json.loads(report.read_text())
    points = [s for s in data["scenarios"] if s.get("scenario") not in ("two-run",)]
    runs: dict[tuple[str, int], tuple[int, float]] = {}
    for s in points:
        decided = s.get("decided_by")
        if decided:
            kind = s["scenario"].split("@", 1)[0]
            runs[(kind, decided["run"])] = (decided["points"], decided["seconds"])
    failed = sum(s["outcome"] in ("failed", "flaky") for s in points)
    for kind in sorted({k for k, _ in runs}):
        mine = sorted((n, p, sec) for (k, n), (p, sec) in runs.items() if k == kind)
        shown = ", ".join(f"{p} points {sec:.0f} s" for _, p, sec in mine)
        rows.append(
            (
                f"    {kind}: {len(mine)} runs decided its points",
                f"{sum(sec for *_, sec in mine):.0f} s",
                shown,
            )
        )
    rows.append(
        (
            "    points, failing points (last grouped run)",
            f"{len(points)}",
            f"{failed} failing; the two-run item ran beside them",
        )
    )
    if per_point:
        alone = bench.scratch / "per-point-report.json"
        single = [*matrix[:-1], "--converge-matrix=per-point", f"--converge-report={alone}"]
        seconds = bench.pytest(single)[0]
        rows.append(
            (
                "    the same matrix, --converge-matrix per-point (one run, same sitting)",
                f"{seconds:.0f} s",
                f"grouped / per-point {statistics.median(pair.wall[0]) / seconds:.2f}",
            )
        )
        grouped, own = _verdicts(data), _verdicts(json.loads(alone.read_text()))
        differ = sorted(k for k in {*grouped, *own} if grouped.get(k) != own.get(k))
        shown = "; ".join(f"{k}: {grouped.get(k)} / {own.get(k)}" for k in differ)
        shared = sum(bool((s.get("decided_by") or {}).get("shares")) for s in points)
        rows.append(
            (
                "    verdicts, grouped (last run) against per-point, point by point",
                f"{len(own) - len(differ)} of {len(own)}",
                f"identical ({shared} shared a create's crash verdict)"
                if not differ
                else f"DIFFER (grouped / per-point): {shown}",
            )
        )
    return rows


def _verdicts(report: dict[str, Any]) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Each fault point's outcome and error findings (kind, address), as
    tests/integration/test_matrix.py compares them (a flaky point is a failed one)."""
    found: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for s in report["scenarios"]:
        if s["scenario"] in ("two-run", "fault-points"):
            continue
        errors = {
            (d["kind"], str(d.get("address")))
            for d in report["defects"]
            if d["scenario"] == s["scenario"] and d["severity"] == "error"
        }
        outcome = "failed" if s["outcome"] == "flaky" else s["outcome"]
        found[s["scenario"]] = (outcome, sorted(errors))
    return found


def fault_and_matrix(
    bench: Bench,
    base: list[str],
    rel: str,
    module: Path,
    repeats: int,
    rss: list[dict],
    scenarios_wanted: int | None = 12,
) -> list[tuple[str, str, str]]:
    """Figures (2) and (3) (on ``scenarios_wanted`` fault scenarios; None leaves (3) out)."""
    rows = []
    one = [*base, "--converge-faults=lost-response", f"{rel}::{FAULT}"]
    bench.pytest(one)  # warm-up: records the fault points once
    fault = pairs(bench, repeats, lambda: bench.pytest(one)[0], lambda: bench.bare(module, 2))
    rows.append(
        (
            f"(2) one fault scenario ({FAULT}) / bare init+apply+apply+plan",
            f"{fault.ratio():.2f}",
            fault.medians() + f"; target <= 1.0 {_met(fault.ratio() <= 1.0)}",
        )
    )
    rows.append(("    CPU seconds, same runs", f"{fault.ratio('cpu'):.2f}", fault.medians("cpu")))
    if scenarios_wanted is None:
        return rows
    # One run per scenario: (3) measures xdist's spread of scenarios ((5) the grouped matrix).
    matrix = [*base, "--converge-faults=crash,lost-response", "--converge-matrix=per-point"]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", *matrix, "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=REPO,
        capture_output=True,
        text=True,
    ).stdout
    scenarios = [
        line.strip() for line in collected.splitlines() if "::" in line and "two-run" not in line
    ][:scenarios_wanted]
    if len(scenarios) < scenarios_wanted:
        rows.append(("(3) -n 2 speed-up", "n/a", f"{rel} has only {len(scenarios)} scenarios"))
        return rows
    selected = [*matrix, *scenarios]
    serial: list[float] = []
    xdist: list[float] = []
    cpu: dict[int, list[float]] = {id(serial): [], id(xdist): []}
    for i in range(max(1, repeats - 1)):
        order = [(serial, []), (xdist, ["-n", "2"])]
        for out, extra in order if i % 2 == 0 else reversed(order):
            seconds, _, records = bench.pytest([*selected, *extra])
            out.append(seconds)
            cpu[id(out)].append(bench.cpu[-1])
            if extra:
                rss.extend(records)
    speedup = statistics.median(serial) / statistics.median(xdist)
    busy = [statistics.median(cpu[id(side)]) / statistics.median(side) for side in (serial, xdist)]
    ceiling = statistics.median(serial) / (statistics.median(cpu[id(xdist)]) / 2)
    rows.append(
        (
            f"(3) -n 2 speed-up over -n 0, {len(scenarios)} fault scenarios",
            f"{speedup:.2f}x",
            f"{statistics.median(serial):.0f} s / {statistics.median(xdist):.0f} s; "
            f"target >= 1.7 {_met(speedup >= 1.7)}",
        )
    )
    rows.append(
        (
            "    cores busy, -n 0 / -n 2 (CPU seconds / wall seconds)",
            f"{busy[0]:.2f}",
            f"{busy[1]:.2f} with -n 2; CPU-bound ceiling on 2 cores {ceiling:.2f}x",
        )
    )
    return rows


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


if __name__ == "__main__":
    main()
