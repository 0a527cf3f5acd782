"""Digits 5 px tall: touching digits cut apart, and bitmaps a calibrated set holds as two digits.

The bitmaps are those of the bundled game's mono skin at 12 px cells (dark theme),
as the hairline binarisation leaves them; the end-to-end check is
tests/test_vision_webgame.py.
"""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision import scanline
from autoplayer.vision.glyphs import Blob, Glyph, split_touching
from autoplayer.vision.numbers import read_digit
from autoplayer.vision.templates import TemplateSet


def _mask(picture: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in picture.split()], bool)


TEN = _mask("""
.##..###
###..#.#
..#.####
..#..#.#
########
""")
"""A 1 whose foot runs into a dotted 0: one shape, no blank column between them."""

DOTTED_ZERO = _mask(".### .#.# #### .#.# .###")


def test_touching_digits_are_cut_where_their_ink_does_not_connect():
    blob = Blob(Rect(100, 50, TEN.shape[1], TEN.shape[0]), TEN)
    glyphs = split_touching(blob, digit_height=5.0, digit_width=4.0)
    assert [g.box.w for g in glyphs] == [4, 4]
    one, zero = glyphs
    assert (one.box.x, zero.box.x) == (100, 104)
    assert np.array_equal(zero.mask, TEN[:, 4:])
    # Without the band's digit width, digits are taken to be 0.62 of their height wide
    # and the blob falls into three pieces.
    assert len(split_touching(blob, digit_height=5.0)) == 3


def test_a_bitmap_calibrated_as_two_digits_is_read_as_one_of_them_and_unsure():
    eight = _mask(".### .#.# .### ##.# .###")
    templates = TemplateSet("t", {0: [DOTTED_ZERO], 6: [DOTTED_ZERO], 8: [eight]})
    reading = read_digit(Glyph(Rect(0, 0, 4, 5), DOTTED_ZERO), templates)
    by_machine = [d for d, _ in scanline.recognise(DOTTED_ZERO)]
    assert by_machine[0] == 8  # the state machines alone read this dotted 0 as 8 ...
    assert by_machine.index(0) < by_machine.index(6)  # ... and rank 0 above 6
    # The templates rule out 8 and cannot tell 0 from 6; the machines' order decides.
    assert reading.digit == 0
    assert reading.confidence <= 0.5
    assert {d for d, _ in reading.ranked[:3]} == {0, 6, 8}
