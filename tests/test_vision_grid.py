"""Where the board starts inside a lattice of boxed clues (`grid.clue_box_corner`)."""

from __future__ import annotations

import numpy as np

from autoplayer.vision.clue_boxes import clue_box_corner


def lattice(first_rows_full: bool) -> np.ndarray:
    """Which lattice positions show a flat box: 4 rows of column clues over 10 board rows,
    3 columns of row clues left of 10 board columns. A box holding a digit shows none."""
    occupied = np.zeros((14, 13), bool)
    occupied[4:, 3:] = True  # the board
    occupied[:3, 3:] = True  # column clue boxes above the last clue row...
    occupied[:3, 4::4] = False  # ...some holding a digit
    # the clue row next to the board has a digit in every column: no box shows
    occupied[4:, :2] = True  # row clue boxes, the third (next to the board) with digits
    if first_rows_full:
        occupied[4:6, :3] = False  # the first two rows' clues fill every box of the band
    return occupied


def test_the_board_starts_after_the_clue_boxes() -> None:
    assert clue_box_corner(lattice(first_rows_full=False)) == (4, 3)


def test_first_rows_whose_clues_fill_every_box_stay_on_the_board() -> None:
    """Column 0 then starts two rows lower than the board (seen at 18 px, sans skin)."""
    assert clue_box_corner(lattice(first_rows_full=True)) == (4, 3)


def test_first_columns_whose_clues_fill_every_box_stay_on_the_board() -> None:
    assert clue_box_corner(lattice(first_rows_full=True).T.copy()) == (3, 4)
