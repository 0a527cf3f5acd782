"""15-puzzle: pattern-database build, Korf's 100 solved optimally, and the fast solver
side by side with PyPI `fifteen-puzzle-solvers` (greedy best-first, ~121 moves).

Run: `.venv/bin/pip install -r bench/requirements.txt && .venv/bin/python -m bench.bench_fifteen`
(or `python -m bench.run_all fifteen`). Writes section `fifteen` of docs/benchmarks.md.
`python -m bench.bench_fifteen --partitions` compares 6-6-3 shapes (prints a table; minutes).

Every timing is the median of REPEATS runs of the same instance; the build is
timed in a fresh process with empty numba and table caches, as on a new machine.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.report import write_section

REPO = Path(__file__).resolve().parent.parent
KORF = REPO.parent / "shared" / "fifteen" / "korf100.txt"
REPEATS = 3

_BUILD_PROBE = """
import json, time
import numpy as np
t0 = time.perf_counter()
from autoplayer.games.fifteen import pdb
from autoplayer.games.fifteen.partitions import partition
t1 = time.perf_counter()
pdb.tables(4, 4, progress=lambda label, fraction: None)  # all groups, side by side
t2 = time.perf_counter()
groups = []
for g in partition(4, 4):
    path = pdb.cache_path(4, 4, g)
    table = np.load(path)
    groups.append({"tiles": list(g), "entries": pdb.falling(16, len(g)),
                   "max": int(table[table != pdb.UNSEEN].max()), "bytes": path.stat().st_size})
print(json.dumps({"import": t1 - t0, "groups": groups, "build": t2 - t1, "total": t2 - t0}))
"""

_LOAD_PROBE = """
import json, time
t0 = time.perf_counter()
from autoplayer.games.fifteen.optimal import solve_optimal
from autoplayer.games.fifteen.model import goal
solve_optimal(goal().move("D"))
print(json.dumps({"load": time.perf_counter() - t0}))
"""


def _probe(code: str, env: dict[str, str]) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def _korf() -> list[tuple[int, list[int], int]]:
    rows = [list(map(int, line.split())) for line in KORF.read_text().splitlines() if line.strip()]
    return [(i + 1, r[:16], r[16]) for i, r in enumerate(rows)]


def _median_time(fn, repeats: int = REPEATS):
    times, result = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def _peer(board) -> int | None:
    """Moves found by fifteen-puzzle-solvers' default AStar (validated), None if invalid."""
    from fifteen_puzzle_solvers.domain import Puzzle
    from fifteen_puzzle_solvers.services.algorithms import AStar
    from fifteen_puzzle_solvers.services.solver import PuzzleSolver

    solver = PuzzleSolver(AStar(Puzzle([list(r) for r in board.rows()])))
    solver.run()
    states = [tuple(x for row in s.position for x in row) for s in solver.get_solution()]
    if states[0] != board.cells:
        states.insert(0, board.cells)
    b = board
    for nxt in states[1:]:
        step = next((m for m in b.legal_moves() if b.move(m).cells == nxt), None)
        if step is None:
            return None
        b = b.move(step)
    return len(states) - 1 if b.is_solved() else None


def _fast_row(name: str, results: list[tuple[int | None, float]]) -> str:
    moves = [m for m, _ in results if m is not None]
    times = [s for _, s in results]
    return (
        f"| {name} | {len(moves)}/{len(results)} | {statistics.mean(moves):.1f} | {min(moves)} "
        f"| {max(moves)} | {1000 * statistics.mean(times):.1f} ms | {1000 * max(times):.1f} ms |"
    )


def _markdown(build: dict, loaded: dict, rows: list[tuple], ours: list, peer: list,
              load: float) -> str:
    matches = sum(r[1] == r[2] for r in rows)
    total = sum(r[5] for r in rows)
    nodes = [r[4] for r in rows]
    worst = max(rows, key=lambda r: r[5])
    groups = "\n".join(
        f"| {', '.join(map(str, g['tiles']))} | {g['entries']:,} | {g['bytes'] / 2**20:.1f} MiB "
        f"| {g['max']} |"
        for g in build["groups"]
    )
    per_instance = "\n".join(
        f"| {n} | {file_len} | {found} | {h} | {nd:,} | {1000 * s:.0f} |"
        for n, file_len, found, h, nd, s in rows
    )
    fast = "\n".join([
        _fast_row("autoplayer human-style (rows, then the last two rows; exact BFS per step)",
                  ours),
        _fast_row("`fifteen-puzzle-solvers` 2.0.3, default AStar (greedy best-first)", peer),
    ])
    return f"""
### Pattern databases (4x4, additive 6-6-3, gap-last goal)

Built in a fresh process with empty numba and table caches (what CI pays once):
**{build['total']:.1f} s** in all ({build['import']:.1f} s importing numba,
{build['build']:.1f} s compiling and building the three tables side by side, one thread a
core). Later runs load the cached tables: **{loaded['load']:.1f} s** from process start to a
first solution. Cached in `$XDG_CACHE_HOME/autoplayer/fifteen/`
(default `~/.cache/autoplayer/fifteen/`).

| tiles | placements | on disk | max value |
| --- | --- | --- | --- |
{groups}

Tables are stored as they are used, indexed by Σ cell·16^slot (16 MiB for a 6-tile group,
34 MiB in all), so loading is one read and a move updates an index by one addition.

### Korf's 100, optimal (IDA*, 6-6-3 + the lookup mirrored in the main diagonal, numba)

- Lengths equal to `korf100.txt` on **{matches}/100** instances.
- **Total {total:.1f} s** for all 100 (median of {REPEATS} runs per instance);
  mean {total / 100:.3f} s, median {statistics.median(r[5] for r in rows):.3f} s,
  worst #{worst[0]} {worst[5]:.2f} s.
- Nodes generated: {sum(nodes):,} in all, **mean {statistics.mean(nodes):,.0f} per
  instance** (median {statistics.median(nodes):,.0f}, max {max(nodes):,});
  **{sum(nodes) / total / 1e6:.1f} M nodes/s**.
- For scale (notes §2, same machine): a C IDA* with Manhattan distance needs about 298 s,
  363 M nodes per instance.

<details><summary>Per instance</summary>

| # | file | found | h(start) | nodes | ms |
| --- | --- | --- | --- | --- | --- |
{per_instance}

</details>

### Fast solvers on the same 100 boards (median of {REPEATS} runs each)

| solver | valid | mean moves | min | max | mean time | max time |
| --- | --- | --- | --- | --- | --- | --- |
{fast}

Optimal mean for reference: {statistics.mean(r[1] for r in rows):.2f} moves.
Load average when the run started: {load:.2f} (2 cores, shared with other work).
"""


CANDIDATES = (
    ((1, 2, 3, 5, 6, 7), (4, 8, 11, 12, 14, 15), (9, 10, 13)),
    ((1, 2, 3, 5, 6, 7), (4, 8, 10, 11, 12, 15), (9, 13, 14)),
    ((1, 2, 3, 4, 5, 6), (7, 8, 11, 12, 14, 15), (9, 10, 13)),
    ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15)),
    ((1, 2, 3, 4, 5, 9), (6, 7, 8, 10, 11, 12), (13, 14, 15)),
)


def compare_partitions(count: int = 30) -> None:
    """Prints nodes and time on the `count` longest Korf instances for each candidate 6-6-3
    shape, with and without the mirrored lookup (builds 2 tables per shape: minutes)."""
    import dataclasses

    from autoplayer.games.fifteen import partitions, pdb
    from autoplayer.games.fifteen.model import from_blank_first
    from autoplayer.games.fifteen.optimal import solve_optimal

    hardest = sorted(_korf(), key=lambda item: -item[2])[:count]
    print(f"| tiles | mirrored lookup | nodes on the {count} longest | seconds |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        for groups in CANDIDATES:
            partitions.PARTITIONS[(4, 4)] = groups
            pdb._LOADED.clear()
            full = pdb.tables(4, 4)
            for mirrored in (True, False):
                pdb._LOADED[(4, 4)] = dataclasses.replace(full, reflected=mirrored)
                nodes, seconds = 0, 0.0
                for _, cells, length in hardest:
                    t = time.perf_counter()
                    result = solve_optimal(from_blank_first(cells))
                    seconds += time.perf_counter() - t
                    assert len(result.moves) == length
                    nodes += result.nodes
                shape = " / ".join(",".join(map(str, g)) for g in groups)
                print(f"| {shape} | {'yes' if mirrored else 'no'} | {nodes:,} | {seconds:.1f} |",
                      flush=True)


def main() -> None:
    from autoplayer.games.fifteen.model import from_blank_first

    korf = _korf()
    boards = [(n, from_blank_first(cells), length) for n, cells, length in korf]
    load = os.getloadavg()[0]

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=tmp, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"),
                   PYTHONPATH=str(REPO))
        print("building the 4x4 pattern databases in a fresh process…", flush=True)
        build = _probe(_BUILD_PROBE, env)
        _probe(_LOAD_PROBE, env)  # the first search also compiles the search code
        loaded = _probe(_LOAD_PROBE, env)  # caches warm: what every later run pays
        os.environ["XDG_CACHE_HOME"] = tmp
        from autoplayer.games.fifteen import pdb
        from autoplayer.games.fifteen.optimal import solve_optimal

        pdb.tables(4, 4)
        solve_optimal(boards[0][1])  # compile / load compiled code before timing

        print("Korf's 100, optimal…", flush=True)
        rows = []
        for n, board, length in boards:
            seconds, result = _median_time(lambda b=board: solve_optimal(b))
            assert board.play(result.moves).is_solved()
            rows.append((n, length, len(result.moves), result.start_h, result.nodes, seconds))
            print(f"  #{n}: {len(result.moves)} moves, {result.nodes:,} nodes, {seconds:.3f} s",
                  flush=True)

    from autoplayer.games.fifteen.human import solve_fast

    print("fast solvers…", flush=True)
    ours, peer = [], []
    for _, board, _ in boards:
        seconds, moves = _median_time(lambda b=board: solve_fast(b))
        assert board.play(moves).is_solved()
        ours.append((len(moves), seconds))
        seconds, count = _median_time(lambda b=board: _peer(b))
        peer.append((count, seconds))

    md = _markdown(build, loaded, rows, ours, peer, load)
    write_section("fifteen", md)
    print(md)


if __name__ == "__main__":
    if "--partitions" in sys.argv[1:]:
        compare_partitions()
    else:
        main()
