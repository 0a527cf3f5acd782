"""Simon Tatham's Pattern behind the play loop: clipped clues, its templates, its completion.

Reading (board, clues, cells) is the shared nonogram reader's, opted in to
clues clipped by the window's edge: Pattern never shrinks to fit, so a long
row clue runs off a small window's left edge. What is Pattern's own is how
such a puzzle is solved (from the visible tails, never a guess) and its default
digit templates. Its input rules and its completion (every cell decided, then
a flash) are learned on the board like any game's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Solved
from autoplayer.games.nonogram.game import SOLVE_TIMEOUT, NonogramGame, Reading
from autoplayer.games.nonogram.model import line_clue
from autoplayer.games.nonogram.pattern import completion
from autoplayer.vision.templates import BUNDLED

if TYPE_CHECKING:
    from autoplayer.games.nonogram.reader import NonogramReading

TEMPLATES_DIR = BUNDLED
DEFAULT_TEMPLATES = "pattern"
"""The set `tools/pattern-calibration` makes from screenshots Pattern renders itself."""
MIN_DIGIT_HEIGHT = 6
"""Shorter digits (Pattern's small font below 14 px tiles) are misread as often as not."""
ENUMERATE = 64
"""With clipped clues: solutions enumerated to find the one the visible numbers allow."""


class PatternGame(NonogramGame):
    """`Game` for Tatham's Pattern."""

    name = "pattern"
    reads_clipped = True
    min_digit_height = MIN_DIGIT_HEIGHT

    def _templates(self) -> Any:
        """The set named, or with none named Pattern's own when it is there (`none`: the
        state machines alone)."""
        if self.templates is None and self._loaded is None:
            from autoplayer.vision.templates import load_templates

            default = TEMPLATES_DIR / DEFAULT_TEMPLATES
            if (default / "index.json").is_file():
                self._loaded = load_templates(default)
        return super()._templates() if self.templates is not None else self._loaded

    def solve(self, reading: Reading) -> Solved[np.ndarray]:
        if getattr(reading.raw, "clipped", ()):
            return solve_clipped(reading.raw)
        return super().solve(reading)


def solve_clipped(read: NonogramReading) -> Solved[np.ndarray]:
    """Solve with clipped lines' clues unknown, keeping solutions their visible tails allow.

    Never guesses: when more than one solution is left (or the enumeration
    could not finish), it stops and names the clipped lines.
    """
    from autoplayer.games.nonogram.solver import Verdict, solve

    clipped = read.clipped
    names = ", ".join(line.name for line in clipped)
    board = read.grid.rect
    region = (board.x, board.y, board.w, board.h)
    result = solve(read.puzzle, max_solutions=ENUMERATE, timeout=SOLVE_TIMEOUT)
    if result.verdict is Verdict.TIMEOUT:
        raise UserError(f"{names}: clue clipped at the window's edge, and the solver found no "
                        f"solution from the other clues within {SOLVE_TIMEOUT:g} s")
    if result.verdict is Verdict.CONTRADICTION:
        raise InputError("the clues read have no solution even with the clipped clues of "
                         f"{names} left open; a clue was misread", region=region)

    def allowed(grid: np.ndarray) -> bool:
        return all(
            completion.tail_fits(line_clue(grid[line.index] if line.kind == "row"
                                           else grid[:, line.index]), read.tail(line),
                                 line.hidden)
            for line in clipped)

    left = [s for s in result.solutions if allowed(s)]
    complete = len(result.solutions) < ENUMERATE
    if complete and len(left) == 1:
        note = (f"{names}: clue clipped at the window's edge; solved from the numbers "
                "visible and the other clues")
        return Solved(left[0], note)
    if complete and not left:
        raise InputError(f"no solution agrees with the visible part of the clipped clues of "
                         f"{names}; a clue was misread", region=region)
    raise UserError(f"{names}: clue clipped at the window's left edge, and the clues that are "
                    "visible allow more than one solution; a number is missing, so the bot "
                    "will not guess (run Pattern with a larger PATTERN_TILESIZE or a smaller "
                    "puzzle)")
