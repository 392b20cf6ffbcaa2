"""CI cancellation: SIGTERM/SIGHUP mid-apply leaves no process, no workspace, and a report.

pytest runs in a subprocess on a real module; once terraform's provider is
running, the signal goes to pytest (or to the xdist worker running the test).
Afterwards no terraform, provider or emulator process is left, the Stack's
workspace is gone, the JSON report was written and the exit status is non-zero.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_converge.toolchain import cache_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CACHE = cache_dir()

INNER_TEST = """
import os
from pathlib import Path


def test_apply(converge, converge_emulator):
    Path("emulator.pid").write_text(str(converge_emulator.pid))
    Path("runner.pid").write_text(str(os.getpid()))  # pytest itself, or its xdist worker
    converge(r"{module}").assert_converged()
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
    pytest.param("moto", signal.SIGHUP, False, id="moto-SIGHUP"),
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
        while not _provider_running(basetemp):
            assert proc.poll() is None, (tmp_path / "output.txt").read_text()
            assert time.monotonic() < deadline, "terraform never started its provider"
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
    assert json.loads(report.read_text())["version"] == 1
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
         "from pytest_converge import cancel\n"
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
    from pytest_converge import stack as stack_module
    from pytest_converge.cancel import Cancelled
    from pytest_converge.workspace import Templates

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
