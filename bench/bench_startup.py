"""Start-up: whole-process CPU of short commands against `python -c pass` (issue 26).

A 5x5 puzzle is solved in well under a millisecond, so what a user waits for is the
interpreter and the imports. Every command runs as the user runs it, through the
console script beside this interpreter, from compiled bytecode (as after `pip
install`), with PYTHONDONTWRITEBYTECODE unset so that bytecode is used as it would
be. Runs are interleaved (one of each command in turn) so a burst of load on the
shared machine hits all of them alike; CPU is user + system of the child.

Command: `.venv/bin/python -m bench.run_all startup`.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.report import write_section

REPO = Path(__file__).resolve().parent.parent
ROUNDS = 25
TARGET = 1.6
"""`autoplayer solve` on a 5x5: at most this many times the CPU of `python -c pass`."""

FIVE = """width 5
height 5
rows
2 1
2 1
3
1 1 1
5
columns
2 2
3 1
3
1 1 1
1 2
"""
"""A 5x5 puzzle with one solution, solved by line logic."""


def _cpu(argv: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, capture_output=True, env=env, check=True, cwd=REPO)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _script() -> list[str]:
    """`autoplayer` as installed beside this interpreter, else `python -m autoplayer`."""
    script = Path(sys.executable).with_name("autoplayer")
    return [str(script)] if script.exists() else [sys.executable, "-m", "autoplayer"]


def main() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "autoplayer")],
                   check=True, env=env)
    ours = _script()
    with tempfile.TemporaryDirectory() as tmp:
        five = Path(tmp) / "five.non"
        five.write_text(FIVE)
        big = REPO / "examples" / "data091.nin"
        cases = {
            "`python -c pass`": [sys.executable, "-c", "pass"],
            "`autoplayer --version`": [*ours, "--version"],
            "`autoplayer --help`": [*ours, "--help"],
            "`autoplayer solve five.non` (5x5)": [*ours, "solve", str(five)],
            "`autoplayer solve data091.nin` (25x25)": [*ours, "solve", str(big)],
        }
        for argv in cases.values():  # warm the page cache and the bytecode
            _cpu(argv, env)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(ROUNDS):
            for name, argv in cases.items():
                times[name].append(_cpu(argv, env))
    base = statistics.median(times["`python -c pass`"])
    rows = ["| command | CPU, median | fastest | × `python -c pass` |", "|---|---|---|---|"]
    for name, runs in times.items():
        median = statistics.median(runs)
        rows.append(f"| {name} | {median * 1000:.1f} ms | {min(runs) * 1000:.1f} ms | "
                    f"{median / base:.2f} |")
    five_ratio = statistics.median(times["`autoplayer solve five.non` (5x5)"]) / base
    verdict = "met" if five_ratio <= TARGET else "**not met**"
    text = "\n".join(rows)
    print(text)
    print(f"5x5 solve: {five_ratio:.2f}x python -c pass (target {TARGET}x: {verdict})")
    write_section("startup", f"""Written by `bench/bench_startup.py`; command:
`.venv/bin/python -m bench.run_all startup`. Whole-process CPU (user + system) of
{ROUNDS} interleaved rounds, each command through the console script `{Path(ours[0]).name}`
from compiled bytecode; the interpreter is the project's venv (`python -c pass`
there includes the editable install's import hook, as every command does).

{text}

- `autoplayer solve` on a 5x5: {five_ratio:.2f}x `python -c pass`; target
  {TARGET}x: {verdict}.
""")


if __name__ == "__main__":
    main()
