"""Pictures the nonogram reader refuses before reading a clue, each with the reason.

A grid of square cells is not yet a nonogram: its cells may hold numbers,
numbers may stand on all four sides, no clues may line up with it, or the
board may run past the picture's edge or be found short. Each refusal names
the region it is about, so the bot never solves a puzzle it did not see.
"""

from __future__ import annotations

import numpy as np

from autoplayer.errors import InputError
from autoplayer.vision.cells import numbers_in_cells
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.cut_board import continues_past
from autoplayer.vision.ends import clues_past_ends
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import luminance
from autoplayer.vision.sides import ClueSides
from autoplayer.vision.unseen import unseen_strips

NOT_A_NONOGRAM = "no nonogram here"
"""How every refusal of a picture that shows no nonogram begins."""


def refuse_if_not_a_nonogram(layout: ClueLayout) -> None:
    """Raise unless clue ink lines up with both the rows and the columns of the board.

    A nonogram with any filled cell has clues in both directions; a grid without
    them (a sudoku, a cage puzzle, a plain table) gives nothing to solve, and reading
    it as a puzzle of empty clues would "solve" it without a single click.
    """
    board = layout.grid.rect
    missing = [kind for kind, strips in (("rows", layout.rows), ("columns", layout.columns))
               if not any(s.groups for s in strips)]
    if missing:
        raise InputError(f"{NOT_A_NONOGRAM}: no clue numbers line up with the board's "
                         f"{' or '.join(missing)}",
                         region=(board.x, board.y, board.w, board.h))


def refuse_unseen_clues(image: np.ndarray, layout: ClueLayout) -> None:
    """Raise when some strips show no ink but their ground is as light (dark) as the clue
    ink: a number there would not show, so they are not known to be empty
    (`autoplayer.vision.unseen`)."""
    unseen = unseen_strips(luminance(image), layout)
    if not unseen:
        return
    names = ", ".join(f"{s.kind} {s.index + 1}" for s in unseen[:4])
    more = f" and {len(unseen) - 4} more" if len(unseen) > 4 else ""
    box = unseen[0].box
    raise InputError(f"cannot read the clues: the clue ink hardly stands out from the ground "
                     f"of {names}{more} (no number there could be seen)",
                     region=(box.x, box.y, box.w, box.h))


def refuse_other_puzzles(lum: np.ndarray, grid: Grid) -> None:
    """A board whose cells hold numbers is another kind of puzzle: say so before any
    clue is looked for."""
    board = grid.rect
    region = (board.x, board.y, board.w, board.h)
    if numbers_in_cells(lum, grid):
        raise InputError(f"{NOT_A_NONOGRAM}: the board's cells hold numbers", region=region)


def refuse_short_board(image: np.ndarray, layout: ClueLayout) -> None:
    """Clue numbers lined up past an end of the board: the lattice was found short (its
    last lines too faint to see), and its strips would count fewer lines than the game
    has. Refuse rather than read a part of the board as the whole."""
    found = clues_past_ends(luminance(image), layout)
    if found is None:
        return
    r = found.region
    raise InputError(f"clue numbers continue past the board's {found.end} end: the grid was "
                     "not found whole", region=(r.x, r.y, r.w, r.h))


def refuse_cut_board(image: np.ndarray, grid: Grid, source: str = "picture") -> None:
    """A board running on past the picture's edge cannot be read whole: say which edge
    (of the `source`: 'picture' or 'window'), rather than read the lines that show
    against clues meant for more."""
    side = continues_past(image, grid)
    if side is None:
        return
    board = grid.rect
    h_img, w_img = image.shape[:2]
    region = {"bottom": (board.x, max(0, h_img - 1), board.w, 1),
              "top": (board.x, 0, board.w, 1),
              "right": (max(0, w_img - 1), board.y, 1, board.h),
              "left": (0, board.y, 1, board.h)}[side]
    bigger = "taller" if side in ("top", "bottom") else "wider"
    raise InputError(f"the board continues past the {source}'s {side} edge: make the window "
                     f"{bigger} or zoom out", region=region)


def refuse_numbers_on_every_side(sides: ClueSides, grid: Grid) -> None:
    """Numbers beside the rows on both sides and beside the columns on both: a puzzle
    whose clues are seen from each edge of the grid, not a nonogram."""
    if sides.both("row") and sides.both("column"):
        board = grid.rect
        raise InputError(f"{NOT_A_NONOGRAM}: numbers stand on all four sides of the grid "
                         "(a nonogram has clues on one side of the rows and one of the columns)",
                         region=(board.x, board.y, board.w, board.h))
