"""Is ``test_serve_workers_play_a_game`` stable on a loaded machine? (issue: 2 failures in 4)

Runs that test (two uvicorn workers on PostgreSQL and Redis, sockets opened anew on either
worker for every move) ``--runs`` times in a row while ``--load`` busy-loop processes keep every
core busy, and reports how many runs passed. The load is bounded: each busy loop stops by itself
after ``--seconds`` (and is ended by its pid when the runs are done first).

    LUDOTHEQUE_TEST_POSTGRES=postgresql://… python benchmarks/flaky_workers.py
    python benchmarks/flaky_workers.py --runs 5 --load 4 --json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TEST = "tests/distributed/test_serve_workers.py::test_serve_workers_play_a_game"
# One busy loop: spins until its deadline, then exits by itself.
BUSY = ("import sys, time\nend = time.monotonic() + float(sys.argv[1])\n"
        "while time.monotonic() < end:\n    pass\n")
# One run of the test: a run that hangs counts as a failure.
RUN_TIMEOUT_S = 300


def start_load(processes: int, seconds: float) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", BUSY, str(seconds)]) for _ in range(processes)]


def stop_load(load: list[subprocess.Popen[bytes]]) -> None:
    for process in load:
        if process.poll() is None:
            process.terminate()
    for process in load:
        process.wait(10)


def run_once() -> tuple[bool, float, str]:
    """One pytest run of the test: whether it passed, its seconds, its last failure line."""
    started = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - started, f"timed out after {RUN_TIMEOUT_S} s"
    lines = [line for line in done.stdout.splitlines() if line.startswith(("E ", "FAILED", "ERROR"))]
    skipped = " skipped" in done.stdout and " passed" not in done.stdout
    if skipped:
        raise SystemExit(f"the test was skipped (is LUDOTHEQUE_TEST_POSTGRES set?):\n{done.stdout[-500:]}")
    return done.returncode == 0, time.monotonic() - started, (lines[0] if lines else "")


def measure(runs: int, load: int, seconds: float) -> dict[str, Any]:
    busy = start_load(load, seconds)
    results: list[dict[str, Any]] = []
    verdicts: list[bool] = []
    try:
        for number in range(runs):
            passed, took, why = run_once()
            verdicts.append(passed)
            results.append({"run": number + 1, "passed": passed, "seconds": round(took, 1), "failure": why})
            print(f"run {number + 1:2}/{runs}: {'pass' if passed else 'FAIL'} in {took:5.1f} s {why}",
                  file=sys.stderr, flush=True)
    finally:
        stop_load(busy)
    passes = sum(verdicts)
    return {"test": TEST, "cores": os.cpu_count(), "load_processes": load, "runs": runs,
            "passed": passes, "failed": runs - passes, "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--load", type=int, default=2 * (os.cpu_count() or 1),
                        help="busy-loop processes (default: two per core)")
    parser.add_argument("--seconds", type=float, default=1800.0,
                        help="each busy loop stops by itself after this long")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    report = measure(arguments.runs, arguments.load, arguments.seconds)
    if arguments.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['passed']}/{report['runs']} passed, {report['failed']} failed, with "
              f"{report['load_processes']} busy loops on {report['cores']} cores")


if __name__ == "__main__":
    main()
