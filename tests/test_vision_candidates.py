"""Several ruled regions in view: the board is the one that reads as a nonogram.

A puzzle player may put a menu panel of ruled boxes above the board (File / Display /
Setting menus, a toolbar of square buttons). The panel is a lattice of square cells
too, and when it has more of them than the board it used to be taken for the board
(and refused: "no clue numbers line up"). The reader now ranks every candidate lattice
by how well clue numbers line up with it, reads the best that reads, and names the
others as passed over (drawn in the overlay). Pictures: headless Chromium screenshots
of the bundled page (cropped to the game), with a panel drawn above them here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.geometry import Rect
from autoplayer.vision.lattice import find_lattices
from autoplayer.vision.overlay import PASSED_OVER, draw_overlay

DATA = Path(__file__).resolve().parent / "data"

BOARDS = {
    # `autoplayer serve` page: size=5x5 seed=31 skin=sans cell=26.
    "sans-light-5x5-seed31.png": (
        ((5,), (2,), (2, 2), (1, 3), (2, 1)),
        ((1, 2), (1, 1, 1), (2, 2), (4,), (1, 3)),
    ),
    # size=8x8 seed=32 skin=pixel cell=22.
    "pixel-light-8x8-seed32.png": (
        ((3, 3), (3, 2), (2, 1), (1, 4), (2, 1, 1), (1, 1, 1, 1), (4, 2), (4, 1)),
        ((1, 1, 1), (2, 4), (4, 2), (1, 1, 3), (1, 2, 1), (4, 1), (1, 2, 2), (1, 1, 2)),
    ),
}


def with_panel(name: str, box: int, columns: int, rows: int = 3) -> tuple[np.ndarray, Rect]:
    """The capture below a menu panel: a bar of ruled menu boxes (File, Display,
    Setting), then `rows` x `columns` ruled square toolbar buttons of `box` px, some
    holding an icon; returns the picture and the toolbar's rectangle."""
    game = Image.open(DATA / name).convert("RGB")
    ground = game.getpixel((2, 2))
    width = max(game.width, 20 + columns * (box + 1) + 20)
    bar, gap = 26, 18
    top = 10 + bar + 8
    height = top + rows * (box + 1) + 1 + gap + game.height
    page = Image.new("RGB", (width, height), ground)
    draw = ImageDraw.Draw(page)
    line, panel = (90, 96, 104), (236, 238, 241)
    draw.rectangle((10, 6, width - 11, top + rows * (box + 1) + 6), fill=panel, outline=line)
    x = 20
    for label in ("File", "Display", "Setting"):
        w = 14 + 7 * len(label)
        draw.rectangle((x, 10, x + w, 10 + bar), fill=(250, 250, 250), outline=line)
        draw.text((x + 7, 16), label, fill=(20, 20, 20))
        x += w + 6
    for r in range(rows):
        for c in range(columns):
            x0, y0 = 20 + c * (box + 1), top + r * (box + 1)
            draw.rectangle((x0, y0, x0 + box + 1, y0 + box + 1), outline=line, fill=panel)
            k = (r * columns + c) % 5
            m = int(box * 0.38)
            if k == 1:  # an icon: a filled square, a circle, a cross
                draw.rectangle((x0 + m, y0 + m, x0 + box - m, y0 + box - m), fill=(60, 90, 160))
            elif k == 2:
                draw.ellipse((x0 + m, y0 + m, x0 + box - m, y0 + box - m), outline=(160, 60, 60),
                             width=2)
            elif k == 3:
                draw.line((x0 + m, y0 + m, x0 + box - m, y0 + box - m), fill=(30, 30, 30), width=2)
    page.paste(game, (0, height - game.height))
    toolbar = Rect(20, top, columns * (box + 1) + 1, rows * (box + 1) + 1)
    return np.asarray(page), toolbar


CASES = {
    # Toolbar buttons the size of the board's cells, more of them than the board has.
    "same-size-5x5": ("sans-light-5x5-seed31.png", 24, 12),
    "larger-5x5": ("sans-light-5x5-seed31.png", 32, 9),
    "smaller-8x8": ("pixel-light-8x8-seed32.png", 18, 24),
}


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


@pytest.mark.parametrize("case", CASES)
def test_the_panel_is_passed_over_for_the_board(case):
    name, box, columns = CASES[case]
    image, toolbar = with_panel(name, box, columns)
    rows, cols = BOARDS[name]
    # The toolbar has more cells than the board: by size alone it would be taken.
    assert _overlaps(find_lattices(image)[0].rect, toolbar)
    reading = read_nonogram(image)
    assert (reading.grid.width, reading.grid.height) == (len(cols), len(rows))
    assert reading.puzzle.rows == rows
    assert reading.puzzle.columns == cols
    assert not _overlaps(reading.board, toolbar)
    assert any(_overlaps(r, toolbar) for r in reading.passed_over)


def test_passed_over_regions_are_drawn():
    image, toolbar = with_panel(*CASES["same-size-5x5"])
    reading = read_nonogram(image)
    out = draw_overlay(image, reading.board, reading.cells, [], passed_over=reading.passed_over)
    drawn = np.all(out == PASSED_OVER, axis=2)
    assert drawn[toolbar.y - 4:toolbar.bottom + 4, toolbar.x - 4:toolbar.right + 4].any()
    board = reading.board
    assert not drawn[board.y:board.bottom, board.x:board.right].any()


@pytest.mark.parametrize("name", BOARDS)
def test_one_board_alone_has_nothing_passed_over(name):
    reading = read_nonogram(np.asarray(Image.open(DATA / name).convert("RGB")))
    assert reading.passed_over == ()
