"""Boards in looks that hid them from the board finder, from real captures of the bundled page.

- Clue boxes drawn exactly like grid cells round a frameless 5x5 board in a dark theme:
  the board's outer cells and the outer clue boxes differ from the page by ten levels
  (1.15:1), less than the colour step that used to close a cell patch, so the right
  column and bottom row showed no cells, the clue boxes were not told apart, and the
  reader refused: "no nonogram here: the board's cells hold numbers".
- Grey clue numbers taller than the cells right of and below a board of pale yellow
  1-px lines with no frame: the digits reach across the boundaries between rows (into
  the next row's), so the whole row band was taken for page text and left out ("no
  clue numbers line up with the board's rows").

Pictures: headless Chromium screenshots of `autoplayer serve` pages, cropped to the game.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from autoplayer.errors import InputError
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.games.nonogram.refusals import NOT_A_NONOGRAM
from autoplayer.vision.clues import find_clues
from autoplayer.vision.image import luminance
from autoplayer.vision.lattice import find_grid
from autoplayer.vision.sides import clue_sides

DATA = Path(__file__).resolve().parent / "data"


def _picture(name: str) -> np.ndarray:
    return np.asarray(Image.open(DATA / name).convert("RGB"))


# size=5x5 seed=113 skin=serif theme=dark cell=20 clue_cells=grid frame=0 heading=Puzzle.
BOXED = "serif-dark-gridboxes-frameless-5x5-seed113.png"
BOXED_CLUES = (((1, 1, 1), (1, 3), (3,), (1,), (2, 1)), ((2, 1), (3,), (3,), (2,), (2, 1)))


def test_frameless_boxed_5x5_is_found_whole():
    grid = find_grid(_picture(BOXED))
    # The page drew the board at x=78 y=112, 101 px square (its own account), with three
    # columns of row-clue boxes left of it and two rows of column-clue boxes above.
    assert (grid.width, grid.height) == (5, 5)
    board = grid.rect
    assert abs(board.x - 78) <= 2 and abs(board.y - 112) <= 2
    assert abs(board.w - 101) <= 2 and abs(board.h - 101) <= 2


def test_frameless_boxed_5x5_reads_exactly():
    rows, columns = BOXED_CLUES
    reading = read_nonogram(_picture(BOXED))
    assert reading.puzzle.rows == rows
    assert reading.puzzle.columns == columns


# size=10x10 seed=304 rows=right columns=bottom frame=0 fives=0 cell=31, a skin drawing
# grey DejaVu Sans clues at 1.4 times the cell pitch, pale yellow (#faf0aa) lines on white.
TALL = "tall-grey-pale-lines-right-bottom-10x10-seed304.png"


def test_clues_taller_than_the_cells_are_not_page_text():
    image = _picture(TALL)
    grid = find_grid(image)
    assert (grid.width, grid.height) == (10, 10)
    sides = clue_sides(luminance(image), grid)
    assert (sides.row, sides.column) == ("right", "bottom")
    layout = find_clues(image, grid, sides)
    assert layout.ignored == ()
    assert sum(bool(s.groups) for s in layout.rows) >= len(layout.rows) // 2
    assert all(s.groups for s in layout.columns)


def test_clues_taller_than_the_cells_are_refused_not_misread():
    """What is left: digits overlapping the next row's are not cut apart yet. The
    reading is refused on its clues (never wrong), no longer as 'no nonogram here'."""
    with pytest.raises(InputError) as err:
        read_nonogram(_picture(TALL))
    assert not str(err.value.message).startswith(NOT_A_NONOGRAM)
