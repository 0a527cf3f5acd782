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
