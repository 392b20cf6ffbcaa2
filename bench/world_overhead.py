"""What the recovered-world check adds to a fault scenario.

Runs ``stack.recover(LostResponse("PutObject"))`` (a scenario that recovers
correctly, so no replay) on ``tests/modules/world/bucket_object`` several
times on one Stack, timing the two parts of the check inside each scenario:

- the per-scenario part: reading what moto holds (``GET /converge-api/world``),
  matching it to state and comparing (``Stack._world_defects``);
- the once-per-Stack part: the clean apply whose world the scenarios are
  compared with (``CleanWorlds.clean``; zero-code mode gets it for free from
  the apply that records the fault points, so only the first part counts there).

    python bench/world_overhead.py              # 5 scenarios
    python bench/world_overhead.py --scenarios 8

Prints each scenario's seconds and the check's, and the medians.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

TEST = """
import statistics, time
from pathlib import Path
from pytest_converge import LostResponse

import pytest

MODULE = Path({module!r})


@pytest.mark.converge(allow_defects=True)
def test_world_overhead(converge):
    stack = converge(MODULE)
    spent = {{"check": 0.0, "clean": 0.0}}

    def timed(name, fn):
        def run(*args, **kwargs):
            started = time.monotonic()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.monotonic() - started
        return run

    stack._world_defects = timed("check", stack._world_defects)
    stack.worlds.clean = timed("clean", stack.worlds.clean)
    rows = []
    for i in range({scenarios}):
        spent["check"] = spent["clean"] = 0.0
        report = stack.recover(LostResponse("PutObject"), replay=False)
        assert report.errors == []
        rows.append((report.seconds, spent["check"], spent["clean"]))
    print()
    for i, (total, check, clean) in enumerate(rows, 1):
        print(f"scenario {{i}}: {{total:6.2f}} s, world check {{check * 1000:6.1f}} ms, "
              f"clean world {{clean:5.2f}} s")
    steady = [r for r in rows[1:]]
    med_total = statistics.median(r[0] for r in steady)
    med_check = statistics.median(r[1] for r in steady)
    print(f"median scenario (2nd on) {{med_total:.2f}} s; world check {{med_check * 1000:.1f}} ms "
          f"= {{100 * med_check / med_total:.2f}} % of a scenario")
    first_clean = rows[0][2]
    print(f"once per Stack (fixture mode): clean apply {{first_clean:.2f}} s "
          f"= {{100 * first_clean / med_total:.0f}} % of one scenario")
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenarios", type=int, default=5)
    args = parser.parse_args()
    module = REPO / "tests" / "modules" / "world" / "bucket_object"
    with tempfile.TemporaryDirectory(prefix="world-bench-") as tmp:
        test = Path(tmp) / "test_world_bench.py"
        test.write_text(TEST.format(module=str(module), scenarios=args.scenarios))
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        }
        return subprocess.call(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-s",
                "-n",
                "0",
                "-p",
                "no:cacheprovider",
                str(test),
            ],
            cwd=tmp,
            env=env,
        )


if __name__ == "__main__":
    sys.exit(main())
