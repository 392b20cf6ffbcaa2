"""GOMAXPROCS for terraform and its providers under xdist: the cores per worker."""

from __future__ import annotations

import os
from types import SimpleNamespace

from pytest_converge.session import go_procs


def _worker(count: int) -> SimpleNamespace:
    return SimpleNamespace(workerinput={"workerid": "gw0", "workercount": count})


def test_each_worker_gets_its_share_of_the_cores():
    cores = os.cpu_count() or 1
    assert go_procs(_worker(2), environ={}) == {"GOMAXPROCS": str(max(1, cores // 2))}
    assert go_procs(_worker(cores * 4), environ={}) == {"GOMAXPROCS": "1"}


def test_a_serial_run_and_the_users_own_setting_are_left_alone():
    assert go_procs(SimpleNamespace(), environ={}) == {}  # not an xdist worker
    assert go_procs(_worker(1), environ={}) == {}
    assert go_procs(_worker(2), environ={"GOMAXPROCS": "3"}) == {}


def test_under_xdist_the_provider_process_gets_it(pytester, monkeypatch):
    """The reattached provider (a Go process) really runs with the worker's share."""
    from pathlib import Path

    monkeypatch.delenv("GOMAXPROCS", raising=False)
    module = Path(__file__).resolve().parent / "modules" / "two_queues"
    pytester.makepyfile(
        test_go=f"""
        from pathlib import Path

        def test_env(converge):
            stack = converge(r"{module}")
            pid = stack.runner.provider.pid
            environ = Path(f"/proc/{{pid}}/environ").read_bytes().split(b"\\0")
            assert stack.runner.env["GOMAXPROCS"] == "1"
            assert b"GOMAXPROCS=1" in environ
        """
    )
    pytester.runpytest_subprocess(
        "-n", str((os.cpu_count() or 1) * 2), "-p", "no:randomly"
    ).assert_outcomes(passed=1)
