"""Runs one PyPI nonogram solver on one puzzle, in its own process: `PEER CLUES.json`.

The bench (bench_nonogram_solve.py) writes the clues as JSON
{"rows": [[...], ...], "columns": [[...], ...]} so that a peer's process
pays only for its own imports and solving, and prints the grid it found
as lines of 0/1 (nothing when it found none) for the bench to check.
Each peer's API was read from its installed source:
- nonogram 3.1.1: `nonogram.src.core.solveurs.dynamic_optimized_programming.solve`
  (what its CLI runs for `--solving_method dynamic_optimized`; cells -1 white,
  0 unknown, 1 black; falls back to its linear programme after 100 calls);
- picross-solver 1.1.2: `picross_solver.solve(rows, cols, grid)` on -1/0/1 cells;
- puzzlekit 0.3.4: `puzzlekit.solve(text, "nonogram")`, text = "H W", then the
  W column clues, then the H row clues (its parser reads columns first); CP-SAT.
"""

from __future__ import annotations

import json
import sys


def solve_nonogram(rows: list[list[int]], columns: list[list[int]]) -> list[list[int]] | None:
    import numpy as np
    from nonogram.src.core.solveurs import dynamic_optimized_programming as dop

    grid = np.zeros((len(rows), len(columns)), dtype=int)
    solved, _, _ = dop.solve(
        [list(r) for r in rows], [list(c) for c in columns], grid=grid, max_call=100,
        weight_len=0, weight_colored=1,
    )
    return [[1 if v == 1 else 0 for v in row] for row in solved.tolist()]


def solve_picross(rows: list[list[int]], columns: list[list[int]]) -> list[list[int]] | None:
    import numpy as np
    from picross_solver.picross_solver import solve

    grid = np.full((len(rows), len(columns)), -1)
    if not solve([r or [0] for r in rows], [c or [0] for c in columns], grid):
        return None
    return grid.tolist()


def solve_puzzlekit(rows: list[list[int]], columns: list[list[int]]) -> list[list[int]] | None:
    import puzzlekit

    lines = [f"{len(rows)} {len(columns)}"]
    lines += [" ".join(map(str, c or [0])) for c in columns]
    lines += [" ".join(map(str, r or [0])) for r in rows]
    result = puzzlekit.solve("\n".join(lines), "nonogram")
    grid = result.solution_data.get("solution_grid")
    if not grid or not getattr(grid, "matrix", None):
        return None
    return [[1 if v in ("x", "o") else 0 for v in row] for row in grid.matrix]


PEERS = {"nonogram": solve_nonogram, "picross-solver": solve_picross, "puzzlekit": solve_puzzlekit}


def main() -> int:
    peer, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        clues = json.load(f)
    grid = PEERS[peer](clues["rows"], clues["columns"])
    if grid:
        print("\n".join("".join(str(v) for v in row) for row in grid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
