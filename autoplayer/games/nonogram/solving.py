"""The clues read off the screen, solved: refused with the pixel region when they cannot
be a puzzle, and with every solution up to SOLUTIONS, since a game may accept only its
own picture of several."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Solved
from autoplayer.games.nonogram.model import Puzzle, clue_text, validate
from autoplayer.geometry import Rect

SOLVE_TIMEOUT = 20.0
SOLUTIONS = 4
"""Solutions looked for: a puzzle with several gets each tried in turn until the game
answers (one that accepts only its own picture says nothing on the others)."""


def solve_read(puzzle: Puzzle, board: Rect, notes: Sequence[str] = ()) -> Solved[np.ndarray]:
    """The puzzle read from `board` solved, with `notes` and what the report should say of
    several solutions."""
    from autoplayer.games.nonogram.solver import Verdict, solve

    region = (board.x, board.y, board.w, board.h)
    if not any(n for clue in (*puzzle.rows, *puzzle.columns) for n in (clue or ())):
        # Nothing to fill anywhere: not a puzzle the bot may call solved.
        raise InputError("no nonogram here: every clue read is empty", region=region)
    try:
        validate(puzzle)
    except InputError as err:
        raise InputError(f"the clues read do not make a puzzle: {err.message}",
                         region=region) from None
    result = solve(puzzle, max_solutions=SOLUTIONS, timeout=SOLVE_TIMEOUT)
    if result.verdict is Verdict.CONTRADICTION:
        where = ""
        if result.contradiction is not None:
            kind, index = result.contradiction
            clues = puzzle.rows if kind == "row" else puzzle.columns
            where = f": {kind} {index + 1} (clue {clue_text(clues[index])}) cannot be placed"
        raise InputError(f"the clues read have no solution{where}; a clue was misread",
                         region=region)
    if result.verdict is Verdict.TIMEOUT:
        raise UserError(f"the solver found no solution within {SOLVE_TIMEOUT:g} s")
    out = list(notes)
    if result.verdict is Verdict.MULTIPLE:
        many = f"at least {SOLUTIONS}" if len(result.solutions) >= SOLUTIONS else str(
            len(result.solutions))
        out.append(f"the clues allow {many} solutions; playing one of them, and the others "
                   "in turn while the game gives no answer")
    return Solved(result.solutions[0], "; ".join(out), tuple(result.solutions[1:]))
