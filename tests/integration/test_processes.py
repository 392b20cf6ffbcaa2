"""After a whole pytest session, with crashes and interrupts in it, nothing is left running."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODULES = Path(__file__).resolve().parents[1] / "modules"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def leftovers(marker: str) -> list[str]:
    """Processes whose command line or working directory mentions ``marker``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if marker in cmd or marker in cwd:
            found.append(f"{pid} {cmd[:200]}")
    return found


def test_no_terraform_provider_or_emulator_outlives_the_session(tmp_path):
    # A private cache dir: the provider binaries run from under it, so any
    # provider left behind by this session is recognisable by its path.
    cache = tmp_path / "cache"
    (tmp_path / "test_scenarios.py").write_text(
        "import pytest\n"
        "from pytest_converge import Crash, Interrupt\n"
        "@pytest.mark.converge(allow_defects=True)\n"
        "def test_crash(converge):\n"
        f"    converge(r'{MODULES / 'table_then_queue'}').recover(Crash('CreateTable'))\n"
        "def test_interrupt(converge):\n"
        f"    converge(r'{MODULES / 'vpc_and_subnet'}').recover(Interrupt('CreateVpc'))\n"
        "def test_two_run(converge):\n"
        f"    converge(r'{EXAMPLES / 'network'}').assert_converged()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path,
        env={**os.environ, "CONVERGE_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout
    assert leftovers(str(tmp_path)) == []
    assert any(cache.glob("plugins/**/terraform-provider-aws*")), "providers ran from the cache"
