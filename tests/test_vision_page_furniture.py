"""Boards beside page furniture and open edges that hid them or their clues, from real
captures of the bundled page (each was refused before, before a digit was read).

- A heading right above a 5x5 board whose column clues stand below it: the heading lines
  up with every column as well as the clues do, and was taken for them ("clue numbers
  continue past the board's right end"). Text spreads its ink into the cells' outer
  sixths as much as into their middles; numbers centred on their lines do not.
- Footer text below a 5x5 board of pixel digits as tall as their boxes: the digits reach
  the board's edge, were measured as running on past it (a grid line) and dropped, and
  the footer won ("no clue numbers line up with the board's columns").
- A frameless board whose cells melt into the page on two sides, its clues boxed like
  cells: the open edge line, blank beside the clue boxes, was taken for the blank
  corner between the two clue bands ("no plausible grid of square cells found"). The
  board's lines run on through an open edge line, through no corner.
- A toolbar of boxes a little smaller than the cells above a board: its boxes fell
  between the board's columns and broke their run, and its row took the board's first
  row with it when the run restarted.
- Pale grey clue numbers below a toolbar of black icons: the band's ink was measured
  towards the icons' black, and the digits fell under the threshold.
- A dashed frame and a greeting above a board whose column clues are below it.
- (Synthetic) a toolbar's icons above the column clues, standing off the columns'
  middles, were read as clue numbers: a line of ink most of whose words stand off the
  middles, beyond clue ink, is page furniture.

Pictures: headless Chromium screenshots of `autoplayer serve` pages, cropped to the game.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.vision.image import luminance
from autoplayer.vision.lattice import find_grid
from autoplayer.vision.page_text import off_centre_line
from autoplayer.vision.sides import clue_sides
from autoplayer.vision.templates import every_template_set

DATA = Path(__file__).resolve().parent / "data"

# name: (rows side, columns side)
PICTURES = {
    "sans-light-heading-bottom-5x5-seed25479": ("left", "bottom"),
    "pixel-light-boxed-footer-5x5-seed139154": ("left", "top"),
    "mono-dark-boxed-frameless-bottom-5x5-seed473433": ("left", "bottom"),
    "sans-dark-boxed-frameless-toolbar-5x5-seed910185": ("left", "bottom"),
    "mono-dark-dashed-right-bottom-5x11-seed714579": ("right", "bottom"),
    "sans-light-pale-toolbar-8x9-seed5658": ("left", "top"),
    "sans-light-toolbar-bottom-8x8-seed392357": ("left", "bottom"),
}


def _picture(name: str) -> np.ndarray:
    return np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_board_and_clue_sides_are_found(name: str):
    image = _picture(name)
    puzzle = load_puzzle(DATA / f"{name}.non")
    grid = find_grid(image)
    assert (grid.width, grid.height) == (puzzle.width, puzzle.height)
    sides = clue_sides(luminance(image), grid)
    assert (sides.row, sides.column) == PICTURES[name]


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_reads_exactly(name: str):
    """Read as `play` reads: every calibrated template set a fallback."""
    puzzle = load_puzzle(DATA / f"{name}.non")
    reading = read_nonogram(_picture(name), fallbacks=every_template_set())
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


def _band_with(lines: list[tuple[int, list[float]]], width: int = 300) -> np.ndarray:
    """A column band's ink (the board below its last row): 8x10 px marks with their
    middles at the given x, on rows starting at the given y."""
    ink = np.zeros((120, width), bool)
    for y, xs in lines:
        for x in xs:
            ink[y:y + 10, int(x) - 4:int(x) + 4] = True
    return ink


SPANS = tuple((30 * k + 1, 30 * k + 29) for k in range(10))  # 10 columns, pitch 30
MIDDLES = [30 * k + 15 for k in range(10)]


def test_a_line_of_icons_off_the_columns_beyond_the_clues_is_furniture():
    icons = [30 + 30 * k for k in range(0, 8, 2)] + [32 + 30 * k for k in range(1, 8, 2)]
    # (a toolbar's icons standing between the columns, as a spacing of their own puts most)
    ink = _band_with([(20, icons), (60, MIDDLES[::2]), (90, MIDDLES)])
    assert off_centre_line(ink, SPANS, 0, 30.0) == 30  # everything from the icons out


def test_centred_clue_numbers_are_not_furniture():
    ink = _band_with([(20, MIDDLES[1::3]), (60, MIDDLES[::2]), (90, MIDDLES)])
    assert off_centre_line(ink, SPANS, 0, 30.0) == 0


def test_a_band_whose_nearest_numbers_stand_off_the_middles_is_not_cut():
    """Numbers drawn off their columns' middles throughout (left-aligned, say): the line
    next to the board is as far off as any, and nothing is taken for furniture."""
    off = [m - 10 for m in MIDDLES]
    ink = _band_with([(60, off[::2]), (90, off)])
    assert off_centre_line(ink, SPANS, 0, 30.0) == 0
