"""Ripple Effect: our solver against PyPI `puzzlekit` (OR-Tools CP-SAT), same puzzles, one run.

Puzzles: every `*.txt` in ../shared/ripple/puzzlekit-janko/ (31 janko.at puzzles,
6x6 to 25x40), plus one generated 30x45. Two comparisons, like with like:

- solve call: ours is `solve(puzzle)` with uniqueness proven (it searches on
  for a second solution); puzzlekit's is `puzzlekit.solve(text, "hakyuu")`,
  which parses, builds its CP-SAT model and stops at the first solution. Both
  after parsing the file into memory, both timed warm (median of repeats);
  puzzlekit's one-off import/warm-up is left out of its numbers.
- whole process: `ripple-effect IN OUT` against `python -c "import puzzlekit;
  puzzlekit.solve(...)"` on the same file, from exec to exit (Python start-up
  and imports included for both).

Run: `.venv/bin/pip install -r bench/requirements.txt && .venv/bin/python -m bench.bench_ripple`
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from autoplayer.games.ripple.formats import parse_puzzle, parse_solution
from autoplayer.games.ripple.generator import generate
from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.solver import solve
from bench.report import write_section

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "ripple" / "puzzlekit-janko"
REPEATS_OURS = 7
REPEATS_PEER = 3
BIN = Path(sys.executable).parent


def puzzlekit_text(puzzle: Puzzle) -> str:
    """puzzlekit's Hakyuu input: "R C", the givens with '-', then the region ids."""
    rows = [f"{puzzle.rows} {puzzle.cols}"]
    for grid, show in ((puzzle.givens, lambda v: str(v) if v != EMPTY else "-"),
                       (puzzle.rooms, lambda v: str(v + 1))):
        for r in range(puzzle.rows):
            rows.append(" ".join(show(v) for v in grid[r * puzzle.cols:(r + 1) * puzzle.cols]))
    return "\n".join(rows)


def timed(fn, repeats: int) -> tuple[float, object]:
    """Median wall time in ms over `repeats` calls, and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def peer_grid(result: Any, puzzle: Puzzle) -> tuple[int, ...] | None:
    grid = result.solution_data.get("solution_grid")
    if grid is None or not result.is_solved:
        return None
    return tuple(int(grid.value(r, c)) for r in range(puzzle.rows) for c in range(puzzle.cols))


def process_ms(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, timeout=300)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    import puzzlekit

    load = os.getloadavg()[0]
    files = sorted(SHARED.glob("*.txt"))
    puzzlekit.solve(puzzlekit_text(parse_puzzle(files[0].read_text())), "hakyuu")  # warm-up
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="bench_ripple_"))
    for path in files:
        puzzle = parse_puzzle(path.read_text(), path)
        expected = parse_solution(path.with_suffix(".sol").read_text(), puzzle)
        ours_ms, ours = timed(lambda p=puzzle: solve(p), REPEATS_OURS)
        assert ours.unique and ours.solutions[0] == expected, path.name
        text = puzzlekit_text(puzzle)
        peer_ms, peer = timed(lambda t=text: puzzlekit.solve(t, "hakyuu"), REPEATS_PEER)
        peer_ok = peer_grid(peer, puzzle) == expected
        (tmp / "in.txt").write_text(text)
        ours_proc = process_ms([str(BIN / "ripple-effect"), str(path), str(tmp / "out.txt")])
        assert parse_solution((tmp / "out.txt").read_text(), puzzle) == expected
        peer_proc = process_ms([sys.executable, "-c",
                                "import sys, puzzlekit; r = puzzlekit.solve(open(sys.argv[1])"
                                ".read(), 'hakyuu'); assert r.is_solved", str(tmp / "in.txt")])
        rows.append((path.stem, f"{puzzle.rows}x{puzzle.cols}", ours.nodes, ours_ms, peer_ms,
                     peer_ok, ours_proc, peer_proc))
        print(f"{path.stem:22} ours {ours_ms:8.2f} ms  puzzlekit {peer_ms:8.1f} ms  "
              f"process {ours_proc:6.0f} / {peer_proc:6.0f} ms", flush=True)

    start = time.perf_counter()
    big, big_solution = generate(30, 45, 1)
    gen_s = time.perf_counter() - start
    big_ms, big_result = timed(lambda: solve(big), REPEATS_OURS)
    assert big_result.unique and big_result.solutions[0] == big_solution
    big_peer_ms, big_peer = timed(lambda: puzzlekit.solve(puzzlekit_text(big), "hakyuu"), 1)
    big_peer_ok = peer_grid(big_peer, big) == big_solution
    givens = sum(1 for v in big.givens if v != EMPTY)
    print(f"generated 30x45 ({givens} givens): generate {gen_s:.1f} s, solve {big_ms:.1f} ms, "
          f"puzzlekit {big_peer_ms:.0f} ms", flush=True)

    ours_all = [r[3] for r in rows]
    faster = sum(1 for r in rows if r[3] < r[4])
    faster_proc = sum(1 for r in rows if r[6] < r[7])
    lines = [
        "Ripple Effect: all 31 puzzles of `../shared/ripple/puzzlekit-janko/`, ours (pure Python, "
        "uniqueness proven) against PyPI `puzzlekit` 0.3.4 (OR-Tools CP-SAT, first solution "
        "only, its default settings).",
        "",
        "- **solve call** = time of `solve(puzzle)` (ours, median of "
        f"{REPEATS_OURS}) vs `puzzlekit.solve(text, 'hakyuu')` (parse + model build + CP-SAT, "
        f"median of {REPEATS_PEER}, after one warm-up call), file already read into memory;",
        "- **process** = one run each of `ripple-effect IN OUT` vs `python -c 'import puzzlekit; "
        "puzzlekit.solve(...)'`, exec to exit, Python start-up and imports included.",
        "",
        f"Ours, solve call: **median {statistics.median(ours_all):.2f} ms, slowest "
        f"{max(ours_all):.2f} ms** (targets: 5 ms / 200 ms). Ours faster on **{faster}/"
        f"{len(rows)}** puzzles by solve call, **{faster_proc}/{len(rows)}** by whole process. "
        f"puzzlekit answers equal to the `.sol` files: {sum(r[5] for r in rows)}/{len(rows)}.",
        "",
        f"Generated 30x45 (`generate(30, 45, seed=1)`, {givens} givens, "
        f"{len(big.room_cells)} rooms): uniqueness proven in **{big_ms:.1f} ms** "
        f"({big_result.nodes} search nodes; target < 1 s); puzzlekit {big_peer_ms:.0f} ms "
        f"(answer {'equal' if big_peer_ok else 'DIFFERENT'}); generating it took {gen_s:.1f} s.",
        "",
        "| puzzle | size | our nodes | ours ms | puzzlekit ms | speed-up | ours process ms "
        "| puzzlekit process ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, size, nodes, ours_ms, peer_ms, ok, ours_proc, peer_proc in rows:
        lines.append(f"| {name} | {size} | {nodes} | {ours_ms:.2f} | {peer_ms:.1f}"
                     f"{'' if ok else ' (wrong)'} | {peer_ms / ours_ms:.0f}x | {ours_proc:.0f} | "
                     f"{peer_proc:.0f} |")
    lines += ["", f"Load average when the run started: {load:.2f} (2 cores shared with other "
              "work; times are wall clock)."]
    write_section("ripple", "\n".join(lines))


if __name__ == "__main__":
    main()
