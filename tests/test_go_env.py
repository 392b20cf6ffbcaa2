"""The Go runtime settings for terraform and its providers: GOGC, and GOMAXPROCS under xdist."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

from pytest_converge.plugin.session import GO_GC, go_env


def _worker(count: int) -> SimpleNamespace:
    return SimpleNamespace(workerinput={"workerid": "gw0", "workercount": count})


def test_each_worker_gets_its_share_of_the_cores():
    cores = os.cpu_count() or 1
    assert go_env(_worker(2), environ={})["GOMAXPROCS"] == str(max(1, cores // 2))
    assert go_env(_worker(cores * 4), environ={})["GOMAXPROCS"] == "1"


def test_a_serial_run_keeps_gos_core_count_and_the_users_own_setting_is_left_alone():
    assert go_env(SimpleNamespace(), environ={}) == {"GOGC": GO_GC}  # not an xdist worker
    assert go_env(_worker(1), environ={}) == {"GOGC": GO_GC}
    assert "GOMAXPROCS" not in go_env(_worker(2), environ={"GOMAXPROCS": "3"})


def test_the_collector_target_is_raised_unless_the_user_tuned_the_collector():
    assert go_env(SimpleNamespace(), environ={})["GOGC"] == GO_GC != "100"
    assert "GOGC" not in go_env(SimpleNamespace(), environ={"GOGC": "50"})
    assert "GOGC" not in go_env(SimpleNamespace(), environ={"GOMEMLIMIT": "512MiB"})


def test_under_xdist_the_provider_process_gets_them(pytester, monkeypatch):
    """The reattached provider (a Go process) really runs with the worker's share and GOGC."""
    monkeypatch.delenv("GOMAXPROCS", raising=False)
    monkeypatch.delenv("GOGC", raising=False)
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    module = Path(__file__).resolve().parent / "modules" / "two_queues"
    pytester.makepyfile(
        test_go=f"""
        from pathlib import Path

        def test_env(converge):
            stack = converge(r"{module}")
            pid = stack.workspace.runner.provider.pid
            environ = Path(f"/proc/{{pid}}/environ").read_bytes().split(b"\\0")
            assert stack.workspace.runner.env["GOMAXPROCS"] == "1"
            assert b"GOMAXPROCS=1" in environ
            assert stack.workspace.runner.env["GOGC"] == "{GO_GC}"
            assert b"GOGC={GO_GC}" in environ
        """
    )
    pytester.runpytest_subprocess(
        "-n", str((os.cpu_count() or 1) * 2), "-p", "no:randomly"
    ).assert_outcomes(passed=1)
