"""`autoplayer count`: 5×5 under 10 s, --unique on 5×5 and 4×5, ns per grid, 6×6 planned.

Whole-process wall time of the real command (median of REPEATS runs with a
warm numba cache, plus one cold run that compiles the kernel into an empty
cache), each checked against the known answer. The 6×6 time is projected from
the kernel's single-thread CPU time on random runs of row-clue groups.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from bench.report import write_section

REPEATS = 3
CASES: list[tuple[list[str], dict[str, int]]] = [
    (["5"], {"line-solvable": 24976511}),
    (["5", "--unique"], {"line-solvable": 24976511, "unique": 25309575}),
    (["4", "5", "--unique"], {"line-solvable": 801832, "unique": 814632}),
]
SIX = {"line-solvable": 48625108931, "unique": 49745060669}
RECTANGLES = {(6, 4): 12560410, (7, 3): 1457710, (8, 3): 11284750, (6, 5): 781005372}
"""Line-solvable counts from the notes' table (olligobber/LocalNonogram), beyond the tests."""


def run_count(
    args: list[str], env: dict[str, str] | None = None
) -> tuple[float, float, dict[str, str]]:
    """Wall and CPU seconds (user + system, all threads) of one run, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "autoplayer", "count", *args],
        capture_output=True, text=True, check=True, env=env,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, dict(line.split(" ", 1) for line in done.stdout.splitlines())


def check(args: list[str], out: dict[str, str], expected: dict[str, int]) -> None:
    for key, value in expected.items():
        if int(out[key]) != value:
            raise SystemExit(f"count {' '.join(args)}: {key} {out[key]}, expected {value}")


def main() -> None:
    from autoplayer.games.nonogram.count import count_grids, default_jobs, sample_count

    jobs = default_jobs()
    lines = [
        f"Whole-process wall time of `autoplayer count ...` ({jobs} threads, the default), "
        f"median of {REPEATS} runs with the compiled kernel cached; every run's output "
        "checked against the known count. CPU is user + system time of the process (all "
        "threads), which the load of other work on this shared machine inflates less than "
        "wall time. \"Cold\" is one run with an empty numba cache (JIT compilation included, "
        "as on a fresh machine). \"count s\" is the command's own `seconds` line (the count "
        "without process start).",
        "",
        "| command | result | wall s (median) | CPU s (median) | cold wall s | count s "
        "| ns/grid (wall) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for args, expected in CASES:
        with tempfile.TemporaryDirectory() as cache:
            cold, _, out = run_count(args, env={**os.environ, "NUMBA_CACHE_DIR": cache})
        check(args, out, expected)
        runs = []
        for _ in range(REPEATS):
            wall, cpu, out = run_count(args)
            check(args, out, expected)
            runs.append((wall, cpu, float(out["seconds"])))
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        inner = statistics.median(s for _, _, s in runs)
        result = ", ".join(f"{k} {out[k]}" for k in expected)
        ns = wall * 1e9 / int(out["grids"])
        lines.append(
            f"| `count {' '.join(args)}` | {result} | {wall:.2f} | {cpu:.2f} | {cold:.2f} "
            f"| {inner:.2f} | {ns:.0f} |"
        )
        print(lines[-1], flush=True)

    lines += [
        "",
        "More rectangles, in process, checked against the notes' table:",
        "",
        "| size | grids | line-solvable | count s | ns/grid |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for (rows, columns), known in RECTANGLES.items():
        res = count_grids(rows, columns, jobs=jobs)
        if res.line_solvable != known:
            raise SystemExit(f"count {rows} {columns}: {res.line_solvable}, expected {known}")
        lines.append(
            f"| {rows}x{columns} | {res.grids} | {res.line_solvable} | {res.seconds:.2f} "
            f"| {res.seconds * 1e9 / res.grids:.1f} |"
        )
        print(lines[-1], flush=True)

    scaling = []
    for threads in (1, jobs):
        times = [count_grids(5, 5, jobs=threads).seconds for _ in range(REPEATS)]
        scaling.append((threads, statistics.median(times)))
    lines += [
        "",
        "In-process 5×5 count by threads (median of "
        f"{REPEATS}): "
        + ", ".join(f"{t} thread{'s' if t > 1 else ''} {s:.2f} s" for t, s in scaling)
        + " (the speed-up is bounded by the other work on this shared machine).",
        "",
        "6×6 (2^36 = 68.7 billion grids) projected from 100,000 random row-clue groups "
        "(1,000 runs of 100), kernel CPU time on one thread (the kernel compiled for the "
        "size, as every count of 30 cells or more runs; the first kernel, side by side on "
        "one machine, in docs/counting.md):",
        "",
        "| count | sampled CPU s | projected CPU s (1 thread) | projected wall on 2 cores "
        "| ns/grid (1 thread) | estimated count | known |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for unique in (False, True):
        est = sample_count(6, 6, runs=1000, run_groups=100, unique=unique)
        cpu = est.projected_cpu_seconds
        key = "unique" if unique else "line-solvable"
        estimate = est.unique if unique else est.line_solvable
        lines.append(
            f"| {'--unique (both counts)' if unique else 'line-solvable'} "
            f"| {est.cpu_seconds:.2f} | {cpu:.0f} | {cpu / 2 / 60:.0f} min "
            f"| {cpu * 1e9 / 2**36:.0f} | {estimate:.3g} | {SIX[key]:,} |"
        )
        print(lines[-1], flush=True)
    write_section("nonogram-count", "\n".join(lines))


if __name__ == "__main__":
    main()
