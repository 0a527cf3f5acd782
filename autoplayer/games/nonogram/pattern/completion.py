"""When Pattern counts a puzzle finished, and the flash it shows then.

Pattern (`pattern.c`, `execute_move`) marks a game complete only when every
line's filled runs equal its clue *and no cell is unknown*, so a board with
the right black cells and grey elsewhere is not finished. On completion it
flashes once for 0.13 s, drawing every cell inverted (black for white), and
shows nothing afterwards. So completion is read two ways: every cell read
again and checked against the clues, or a frame caught mid-flash.
"""

from __future__ import annotations

import numpy as np

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, line_clue

Line = tuple[tuple[int, ...], bool, int]
"""(clue, open, hidden): an open clue is only the tail we can see, with at least
`hidden` numbers before it."""


def tail_fits(got: tuple[int, ...], tail: tuple[int, ...], hidden: int) -> bool:
    """Whether a line's runs can be a clue seen only from `tail` on (cut by the edge)."""
    if len(got) < len(tail) + hidden:
        return False
    return not tail or got[-len(tail):] == tail


def finished(shown: np.ndarray, rows: list[Line], columns: list[Line]) -> bool:
    """Whether the game counts this board finished (see `Line` for clipped clues)."""
    if (shown == UNKNOWN).any():
        return False
    for lines, cells in ((rows, shown), (columns, shown.T)):
        for (clue, is_open, hidden), line in zip(lines, cells, strict=True):
            got = line_clue(line)
            if not (tail_fits(got, clue, hidden) if is_open else got == clue):
                return False
    return True


def flashing(shown: np.ndarray, solution: np.ndarray) -> bool:
    """A frame of the completion flash: every cell shows the opposite of the solution."""
    if (shown == UNKNOWN).any():
        return False
    inverse = np.where(solution == FILLED, EMPTY, FILLED)
    return bool((shown == inverse).all())
