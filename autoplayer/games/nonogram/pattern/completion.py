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


def finished(shown: np.ndarray, rows: list[tuple[tuple[int, ...], bool]],
             columns: list[tuple[tuple[int, ...], bool]]) -> bool:
    """Whether the game counts this board finished.

    Each line is (clue, clipped): a clipped clue is only the tail we can see,
    so its line must end with that tail and have more runs before it.
    """
    if (shown == UNKNOWN).any():
        return False
    for lines, cells in ((rows, shown), (columns, shown.T)):
        for (clue, clipped), line in zip(lines, cells, strict=True):
            got = line_clue(line)
            if clipped:
                if len(got) <= len(clue) or (clue and got[-len(clue):] != clue):
                    return False
            elif got != clue:
                return False
    return True


def flashing(shown: np.ndarray, solution: np.ndarray) -> bool:
    """A frame of the completion flash: every cell shows the opposite of the solution."""
    if (shown == UNKNOWN).any():
        return False
    inverse = np.where(solution == FILLED, EMPTY, FILLED)
    return bool((shown == inverse).all())
