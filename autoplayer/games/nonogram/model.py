"""The nonogram model: clues per line and a grid of cell states.

Grids are H×W `numpy.int8` arrays holding `UNKNOWN`, `EMPTY` or `FILLED`, so
a goal string of 0s and 1s maps onto them directly and vision code can compare
them with what it reads without conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from autoplayer.errors import InputError

UNKNOWN: int = -1
EMPTY: int = 0
FILLED: int = 1

MAX_SIDE = 200

Clue = tuple[int, ...]
"""The run lengths of one line, in reading order; `()` is an empty line."""


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A black-and-white nonogram, with what a file may carry beside its clues."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str = ""
    author: str = ""
    copyright: str = ""
    grid: np.ndarray | None = field(default=None, repr=False)
    """A partial state (a saved game, what a screen shows); None when nothing is known."""
    solution: np.ndarray | None = field(default=None, repr=False)
    """The goal the file gives, when it gives one (not checked against the clues here)."""

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def height(self) -> int:
        return len(self.rows)

    def with_solution(self, solution: np.ndarray) -> Puzzle:
        return Puzzle(
            self.rows, self.columns, self.title, self.author, self.copyright,
            self.grid, np.asarray(solution, dtype=np.int8),
        )


def line_clue(line: Sequence[int] | np.ndarray) -> Clue:
    """The clue of a fully known line (cells EMPTY or FILLED)."""
    runs: list[int] = []
    run = 0
    for cell in line:
        if cell == FILLED:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return tuple(runs)


def clues_of(grid: np.ndarray) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a fully known grid."""
    g = np.asarray(grid)
    return tuple(line_clue(r) for r in g), tuple(line_clue(c) for c in g.T)


def puzzle_from_grid(grid: np.ndarray, **meta: str) -> Puzzle:
    rows, columns = clues_of(grid)
    return Puzzle(rows, columns, solution=np.asarray(grid, dtype=np.int8), **meta)


def satisfies(puzzle: Puzzle, grid: np.ndarray) -> bool:
    """Whether a fully known grid has exactly the puzzle's clues."""
    g = np.asarray(grid)
    if g.shape != (puzzle.height, puzzle.width) or (g == UNKNOWN).any():
        return False
    return clues_of(g) == (puzzle.rows, puzzle.columns)


def min_length(clue: Clue) -> int:
    """Cells a clue needs at least: its runs plus one gap between each two."""
    return sum(clue) + max(len(clue) - 1, 0)


def validate(puzzle: Puzzle) -> None:
    """Raise `InputError` (without a path; readers add it) when the puzzle is malformed."""
    w, h = puzzle.width, puzzle.height
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise InputError(f"size {w}x{h} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}")
    for kind, clues, length in (("row", puzzle.rows, w), ("column", puzzle.columns, h)):
        for i, clue in enumerate(clues, 1):
            if any(n < 1 for n in clue):
                raise InputError(f"{kind} {i}: clue {clue_text(clue)} has a number below 1")
            if min_length(clue) > length:
                raise InputError(
                    f"{kind} {i}: clue {clue_text(clue)} needs {min_length(clue)} cells "
                    f"but the {kind} has {length}"
                )
    row_total = sum(map(sum, puzzle.rows))
    column_total = sum(map(sum, puzzle.columns))
    if row_total != column_total:
        raise InputError(
            f"row clues fill {row_total} cells but column clues fill {column_total}"
        )
    for name, g in (("grid", puzzle.grid), ("solution", puzzle.solution)):
        if g is not None and g.shape != (h, w):
            raise InputError(f"{name} is {g.shape[1]}x{g.shape[0]} but the puzzle is {w}x{h}")


def clue_text(clue: Clue) -> str:
    return " ".join(map(str, clue)) if clue else "0"
