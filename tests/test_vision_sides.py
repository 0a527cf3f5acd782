"""Clue sides found when the clue band is narrower than the reach the sides are judged over.

The bundled page's pixel skin draws row clues right of the board in bands only as wide
as the longest clue, fading into the page: within 2.5 pitches of the board a row's strip
holds the band's paper, its fade and the page beyond in like shares. Judged against one
median for the whole strip, paper and digits alike departed from it and were dropped as
one long run; the rows showed no clues and the reader refused ("no clue numbers line up
with the board's rows"). Pictures: headless Chromium screenshots of the page (cropped to
the game), committed so the test needs no browser.

Page text beside a small board (the page's "How to play" panel left of it, its footer
below) lines up with most of its lines too. The side picker told it apart as text, but
the all-four-sides refusal counted it as numbers and refused a plain 5x5 board with row
clues right and column clues on top (an e2e draw, AUTOPLAYER_SEED=477780426 draw 3).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from shot_fixtures import read_exactly

from autoplayer.errors import InputError
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.vision.image import luminance
from autoplayer.vision.lattice import find_grid
from autoplayer.vision.sides import clue_sides

DATA = Path(__file__).resolve().parent / "data"

CASES = {
    # `autoplayer serve` page: size=10x10 seed=224646 skin=pixel theme=dark cell=20
    # rows=right columns=bottom fives=0 (an e2e draw that exited 2).
    "pixel-dark-right-bottom-10x10-seed224646.png": (
        ((3, 5), (7,), (4, 2), (1, 1, 5), (1, 2, 1), (1, 1, 2), (2, 3), (4, 1), (2, 2), (5, 1)),
        ((1, 3, 1, 1), (3, 2, 1), (3, 4), (5, 3), (3, 1, 1), (2, 1, 1), (2, 1, 1, 1),
         (4, 2, 1), (1, 2, 1, 1), (2, 1)),
    ),
    # size=5x5 seed=745462 skin=pixel theme=light cell=32 rows=right columns=bottom.
    "pixel-light-right-bottom-5x5-seed745462.png": (
        ((2, 1), (1, 1), (2, 1), (5,), (2, 1)),
        ((3,), (1, 3), (2, 1), (2,), (2, 2)),
    ),
}


def _picture(name: str) -> np.ndarray:
    return np.asarray(Image.open(DATA / name).convert("RGB"))


@pytest.mark.parametrize("name", CASES)
def test_a_band_ending_inside_the_reach_holds_the_row_clues(name):
    image = _picture(name)
    sides = clue_sides(luminance(image), find_grid(image))
    assert (sides.row, sides.column) == ("right", "bottom")
    assert sides.score("right") == 1.0
    assert sides.score("left") < 0.5


@pytest.mark.parametrize("name", CASES)
def test_pixel_bands_right_and_below_read_exactly(name):
    rows, columns = CASES[name]
    reading = read_nonogram(_picture(name))
    assert (reading.grid.width, reading.grid.height) == (len(columns), len(rows))
    assert reading.puzzle.rows == rows
    assert reading.puzzle.columns == columns


# `autoplayer serve` page: size=5x5 seed=232307 skin=serif theme=light cell=32 rows=right
# columns=top fives=1 (buttons=lock drag=line sign=alert), its panel and footer in view.
PANEL_AND_FOOTER = "serif-light-panel-footer-right-5x5-seed232307"


def test_page_text_beside_a_small_board_is_no_clue_side():
    reading = read_exactly(PANEL_AND_FOOTER)
    sides = clue_sides(luminance(_picture(f"{PANEL_AND_FOOTER}.png")), reading.grid)
    assert (sides.row, sides.column) == ("right", "top")
    assert sorted(sides.text) == ["bottom", "left"]
    assert not sides.both("row") and not sides.both("column")


def test_numbers_on_all_four_sides_beside_page_text_are_still_refused():
    """The same page with its row clues copied left of the board and its column clues
    below it: numbers on every side, whatever page text stands near them."""
    image = _picture(f"{PANEL_AND_FOOTER}.png").copy()
    b = find_grid(image).rect
    w, h = 56, 64  # the row clue band's width, the column clue band's height
    image[b.y:b.bottom + 1, b.x - w:b.x - 1] = image[b.y:b.bottom + 1,
                                                     b.right + 2:b.right + 1 + w]
    image[b.bottom + 2:b.bottom + 1 + h, b.x:b.right + 1] = image[b.y - h:b.y - 1,
                                                                  b.x:b.right + 1]
    with pytest.raises(InputError, match="numbers stand on all four sides"):
        read_nonogram(image)


def test_a_toolbar_above_a_small_board_is_no_clue_side_when_the_clues_are_below():
    """A 5x5 board, column clues below it and a ruled toolbar above it across a gap, one
    icon over each column (random looks draw 24 of seed 9090, cropped): both sides line up
    with every column and neither is spread like text. The toolbar was taken for the
    clues (the first side wins a tie) and its icons read as 1, 4, 41, 17; the clues are the
    ink nearer the board."""
    name = "serif-dark-black-italic-toolbar-above-bottom-5x5-seed921437"
    image = _picture(f"{name}.png")
    sides = clue_sides(luminance(image), find_grid(image))
    assert sides.score("top") == sides.score("bottom") == 1.0
    assert (sides.row, sides.column) == ("right", "bottom")
    read_exactly(name)
