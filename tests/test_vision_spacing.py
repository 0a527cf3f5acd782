"""Numbers told apart by the spacing measured on the board, single spaces in outline fonts.

Row clues are drawn with Pillow in real fonts, one space between numbers, and cut
into blobs as the clue finder cuts them; `read_lines` must split every row exactly.
In Liberation Sans a "1" is narrow in a wide advance, so the blank inside "11" is
as wide as the blank between the numbers of "4 4": only the step from digit centre
to digit centre (every digit has the same advance) tells them apart.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from autoplayer.geometry import Rect
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import trim
from autoplayer.vision.numbers import read_lines
from autoplayer.vision.spacing import learn_spacing
from autoplayer.vision.strips import Strip, _blobs_across

FONTS = {
    "liberation-sans": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "dejavu-sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
}
ROWS = [(1, 1, 1), (7, 3), (11, 4), (4, 4, 4), (14, 1), (1, 11), (4, 4), (10, 1, 1),
        (1, 4, 1, 4), (11,), (2, 2, 1), (1, 1, 11), (3, 7, 1), (4, 14), (12, 1, 1), (44,),
        (4, 44), (1, 4), (41, 1), (14, 4)]
"""On a 50-wide board, so that "44" and "4 4" are both clues a line could have."""
LENGTH = 50
COLUMNS = [(1, 2), (3,), (11,), (4, 1)]
"""Stacked column numbers, two-digit ones among them (inside-number steps for free)."""


def _line_blobs(text: str, font: ImageFont.FreeTypeFont, x0: int, y0: int) -> list[Blob]:
    left, top, right, bottom = font.getbbox(text)
    im = Image.new("L", (right - left + 4, bottom - top + 4), 255)
    ImageDraw.Draw(im).text((2 - left, 2 - top), text, font=font, fill=0)
    ink = np.asarray(im) < 128
    return _blobs_across(ink, x0, y0)


def _layout(font_path: str, size: int) -> tuple[ClueLayout, list[tuple[int, ...]]]:
    font = ImageFont.truetype(font_path, size)
    pitch = 2 * size
    grid = Grid(tuple((400 + k * pitch, 400 + (k + 1) * pitch - 1) for k in range(LENGTH)),
                tuple((400 + k * pitch, 400 + (k + 1) * pitch - 1) for k in range(len(ROWS))))
    rows = []
    for k, clue in enumerate(ROWS):
        blobs = _line_blobs(" ".join(map(str, clue)), font, 20, 400 + k * pitch)
        rows.append(Strip("row", k, Rect(0, 400 + k * pitch, 400, pitch), (tuple(blobs),)))
    columns = []
    for k, clue in enumerate(COLUMNS):
        groups = tuple(tuple(_line_blobs(str(n), font, 400 + k * pitch, 40 + j * pitch))
                       for j, n in enumerate(clue))
        columns.append(Strip("column", k, Rect(400 + k * pitch, 0, pitch, 400), groups))
    columns += [Strip("column", k, Rect(400 + k * pitch, 0, pitch, 400), ())
                for k in range(len(COLUMNS), LENGTH)]
    heights = [b.box.h for s in rows for g in s.groups for b in g]
    widths = [b.box.w for s in rows for g in s.groups for b in g if b.box.w <= b.box.h]
    layout = ClueLayout(grid, tuple(rows), tuple(columns), True, float(np.median(heights)),
                        (), digit_width=float(np.percentile(widths, 75)))
    return layout, ROWS


@pytest.mark.parametrize("font", FONTS)
@pytest.mark.parametrize("size", [14, 18, 26, 40])
def test_single_spaced_numbers_split_exactly(font: str, size: int) -> None:
    if not Path(FONTS[font]).exists():
        pytest.skip(f"{FONTS[font]} is not installed")
    layout, truth = _layout(FONTS[font], size)
    rows, _ = read_lines(layout)
    assert [tuple(n.value for n in line) for line in rows] == truth


def test_the_step_is_chosen_where_gaps_do_not_separate() -> None:
    if not Path(FONTS["liberation-sans"]).exists():
        pytest.skip("Liberation Sans is not installed")
    layout, _ = _layout(FONTS["liberation-sans"], 26)
    spacing = learn_spacing(layout)
    assert spacing.centred
    assert spacing.between > 1.3 * spacing.inside


def test_a_fixed_blank_between_glyphs_keeps_the_gap() -> None:
    """A bitmap font puts the same blank after every glyph, so its steps swing with the
    glyphs' widths ("1" is narrow): the gap is kept."""
    one = np.ones((9, 2), bool)
    wide = np.ones((9, 5), bool)
    wide[2:7, 2] = False

    def blobs(widths: list[int], gaps: list[int], y: int) -> tuple[Blob, ...]:
        out, x = [], 10
        for w, g in zip(widths, [*gaps, 0], strict=True):
            mask = one if w == 2 else wide
            part, _, _ = trim(mask)
            out.append(Blob(Rect(x, y, w, 9), part))
            x += w + g
        return tuple(out)

    rows = [Strip("row", 0, Rect(0, 0, 100, 12), (blobs([2, 2, 5, 5], [1, 5, 1], 0),)),
            Strip("row", 1, Rect(0, 12, 100, 12), (blobs([5, 2, 2, 5], [5, 1, 5], 12),)),
            Strip("row", 2, Rect(0, 24, 100, 12), (blobs([2, 5, 5, 2], [5, 1, 5], 24),))]
    grid = Grid(tuple((100 + 12 * k, 111 + 12 * k) for k in range(20)),
                tuple((12 * k, 11 + 12 * k) for k in range(3)))
    layout = ClueLayout(grid, tuple(rows), (), True, 9.0, (), digit_width=5.0)
    spacing = learn_spacing(layout)
    assert not spacing.centred
    assert spacing.inside < 2 < spacing.between


def test_gaps_of_one_kind_in_rows_of_more_digits_than_a_number_has_are_between_numbers():
    """A 7 px font spacing its numbers 2 or 3 px apart on a 31-wide board with no number
    over 9 (row 1 read as 12 4 19 22 for 1 2 4 1 9 2 2): the gaps fall into no two kinds,
    and they are too narrow for spaces by the digit height; but seven digits side by side
    are no number of a 31-cell row, so the gaps are between numbers."""
    digit = np.ones((7, 5), bool)

    def row(k: int, gaps: list[int]) -> Strip:
        blobs, x = [], 10
        for g in [*gaps, 0]:
            blobs.append(Blob(Rect(x, 12 * k, 5, 7), digit))
            x += 5 + g
        return Strip("row", k, Rect(0, 12 * k, 100, 12), (tuple(blobs),))

    rows = [row(0, [2, 3, 3, 2, 3, 3]), row(1, [3, 2]), row(2, [2, 2, 3])]
    grid = Grid(tuple((100 + 12 * k, 111 + 12 * k) for k in range(31)),
                tuple((12 * k, 11 + 12 * k) for k in range(3)))
    layout = ClueLayout(grid, tuple(rows), (), True, 7.0, (), digit_width=5.0)
    lines, _ = read_lines(layout)
    assert [len(line) for line in lines] == [7, 3, 4]
    # On a 999-wide board a number may have three digits: no telling, as before.
    wide = ClueLayout(Grid(tuple((100 + k, 100 + k) for k in range(999)), grid.ys),
                      (row(0, [2, 2]), row(1, [2, 3])), (), True, 7.0, (), digit_width=5.0)
    assert learn_spacing(wide).inside >= 2
