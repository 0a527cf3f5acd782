"""Which of several ruled regions in view is the nonogram: the one that reads as one.

A page may show more than one lattice of square cells (a menu panel of ruled
boxes above the board, a toolbar, a preview). A nonogram's board has clue
numbers lined up with its rows on one side and with its columns on one side,
and nothing numbered in its cells; a panel of boxes has neither. The
candidates (`autoplayer.vision.lattice.find_lattices`) are ranked by that, the
reader reads the best that reads, and says which others it passed over.
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.grid import Grid
from autoplayer.vision.sides import LINED_UP, clue_sides


def board_score(lum: np.ndarray, grid: Grid) -> float:
    """How well clue numbers line up with `grid`, 0..1: the share of its rows with ink
    beside them on the better side, or of its columns, whichever is less. Ink on both
    sides of both (a puzzle seen from every edge) scores nothing."""
    sides = clue_sides(lum, grid)
    if sides.both("row") and sides.both("column"):
        return 0.0
    rows = max(sides.score("left"), sides.score("right"))
    columns = max(sides.score("top"), sides.score("bottom"))
    return min(rows, columns)


def rank_boards(lum: np.ndarray, candidates: list[Grid]) -> list[Grid]:
    """The candidates in the order to try them: those with clues lined up on both axes
    (`LINED_UP`) first, the better lined up (to a tenth) and then the larger first; the
    rest after them, the larger first (as when there is only one to go by)."""
    def key(scored: tuple[float, Grid]) -> tuple[bool, float, int]:
        score, grid = scored
        plausible = score >= LINED_UP
        return (not plausible, -round(score, 1) if plausible else 0.0,
                -grid.width * grid.height)

    return [g for _, g in sorted(((board_score(lum, g), g) for g in candidates), key=key)]
