"""Glyphs read again as a person looks again: an italic font set upright, a narrow 1 seen
in the width its font's other digits take.

The bitmaps are the bundled game's (tests/looks.py): a 7 px roboto-slab 1 on dotted clue
cells (looks seed 4242 draw 116, whose 1s the state machines read surely as 3), and an
italic liberation-serif 1 whose stem leans as a 7's diagonal does (seed 9090 draw 79).
The end-to-end checks are the looks bench (bench/bench_nonogram_looks.py) and
tests/test_nonogram_hard_looks.py.
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision import scanline
from autoplayer.vision.slant import board_slant, upright


def _mask(picture: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in picture.split()], bool)


SLAB_ONE = _mask("###. ..#. ..#. .##. .##. ..#. .###")
"""Flag, stem and foot, 4 px wide where the board's other digits take 5."""

ITALIC_ONE = _mask("""
....###
.######
##..###
....##.
....##.
...###.
...###.
...###.
...###.
...##..
..###..
..###..
..###..
..###..
..###..
..##...
.###...
.###...
.###...
.###...
""")


def test_a_narrow_one_judged_in_its_fonts_digit_width_is_a_one():
    assert scanline.recognise(SLAB_ONE)[0][0] != 1  # alone, its flag is a bar across it
    assert scanline.recognise(SLAB_ONE, width=5)[0][0] == 1
    # A glyph as wide as the board's digits reads as it did.
    assert scanline.recognise(SLAB_ONE, width=4) == scanline.recognise(SLAB_ONE)


def test_the_slant_of_italic_ink_is_measured_and_taken_out():
    slant = board_slant([ITALIC_ONE] * 3)
    assert 0.1 <= slant <= 0.3
    straight = upright(ITALIC_ONE, slant)
    assert straight.shape[0] == ITALIC_ONE.shape[0]
    assert straight.sum() == ITALIC_ONE.sum()
    # Set upright, its stem stands in fewer columns.
    def stem_columns(mask: np.ndarray) -> int:
        return int(mask[5:].any(axis=0).sum())
    assert stem_columns(straight) < stem_columns(ITALIC_ONE)


def test_upright_ink_measures_no_slant():
    upright_one = _mask(".##. ###. .##. .##. .##. .##. .##. ####")
    four = _mask("...##. ..###. .#.##. #..##. ###### ...##. ...##.")
    assert board_slant([upright_one, four]) == 0.0
    assert upright(four, 0.0) is four


def test_a_foot_of_the_number_above_is_not_part_of_the_glyph():
    # A slab 1 whose box, in clues as tall as their cells, caught the foot of the 1 above
    # (looks seed 4242 draw 141, read as 4, 5 and 7).
    from autoplayer.geometry import Rect
    from autoplayer.vision.glyphs import Glyph
    from autoplayer.vision.numbers import without_strays

    one = _mask("""
    ########.....
    ..##.........
    .........###.
    ......######.
    .....#######.
    .........###.
    .........###.
    .........###.
    .........###.
    .........###.
    .........###.
    .........###.
    .........###.
    .........###.
    .......######
    .......######
    """)
    glyph = Glyph(Rect(10, 20, one.shape[1], one.shape[0]), one)
    kept = without_strays(glyph, digit_height=16.0)
    assert kept.box == Rect(15, 22, 8, 14)
    assert kept.mask.sum() == one[2:].sum()  # all of the 1, none of the foot above
    # A glyph whose parts all belong to it is left as it is.
    assert without_strays(Glyph(glyph.box, one[2:]), digit_height=14.0).mask.shape == (14, 13)
