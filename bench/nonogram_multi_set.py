"""Makes the bench set of large random nonograms with several solutions (issue 26).

Random grids, 40 to 60 cells a side, each cell filled with a probability drawn per
grid from DENSITY: below about 0.5 most grids are out of reach of every solver, above
0.6 most are line-solvable; in between, most have several solutions and take a
solver from tenths of a second to seconds. A grid joins the set when it is proven to
have at least two solutions: two different grids are found and both are checked
against the clues (`satisfies`), so the set does not depend on the solver being
right. Grids whose check runs past CHECK_LIMIT are left out and counted.

The set is written to bench/data/nonogram-multi/ as .non files (goal = the random
grid) so that the bench always runs the same puzzles, whatever the solver does.

Run: `.venv/bin/python -m bench.nonogram_multi_set [SEED [COUNT]]`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "nonogram-multi"
SEED = 2026
COUNT = 16
SIDES = (40, 60)
DENSITY = (0.5, 0.58)
CHECK_LIMIT = 120.0


def draw(rng: random.Random) -> tuple[list[list[int]], float]:
    """One random grid and the density it was drawn with."""
    height, width = rng.randint(*SIDES), rng.randint(*SIDES)
    density = round(rng.uniform(*DENSITY), 3)
    return [[int(rng.random() < density) for _ in range(width)] for _ in range(height)], density


def several_solutions(grid: list[list[int]]) -> bool | None:
    """True when the grid's clues have two checked solutions, False when they have one
    (or logic alone decides them), None when the check ran out of time."""
    from autoplayer.games.nonogram.model import puzzle_from_grid, satisfies
    from autoplayer.games.nonogram.solver import Verdict, solve

    puzzle = puzzle_from_grid(grid)
    result = solve(puzzle, timeout=CHECK_LIMIT)
    if result.verdict is Verdict.TIMEOUT:
        return None
    if result.verdict is not Verdict.MULTIPLE:
        return False
    first, second = result.solutions
    return bool(satisfies(puzzle, first) and satisfies(puzzle, second)
                and (first != second).any())


def main(seed: int = SEED, count: int = COUNT) -> None:
    from autoplayer.games.nonogram.formats import save_puzzle
    from autoplayer.games.nonogram.model import puzzle_from_grid

    rng = random.Random(seed)
    DATA.mkdir(parents=True, exist_ok=True)
    for old in DATA.glob("*.non"):
        old.unlink()
    kept = drawn = unproven = 0
    while kept < count:
        grid, density = draw(rng)
        drawn += 1
        verdict = several_solutions(grid)
        if verdict is None:
            unproven += 1
        if not verdict:
            continue
        kept += 1
        height, width = len(grid), len(grid[0])
        name = f"multi-{seed}-{drawn:03d}-{width}x{height}-d{round(density * 100)}"
        save_puzzle(
            puzzle_from_grid(grid, title=name, author="bench/nonogram_multi_set.py"),
            DATA / f"{name}.non",
        )
        print(name, flush=True)
    print(f"{kept} kept of {drawn} drawn ({unproven} not proven within {CHECK_LIMIT:g} s)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
