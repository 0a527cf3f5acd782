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


SQUEEZED_TEN = _mask("""
.#...###.
##...###.
.#..##.##
.#..##.##
.#..##.##
.#..##.##
.#..##.##
.##..###.
####.###.
""")
"""A 10 squeezed into one clue cell (bold sans, 9 px digits 7 px wide): no wider than a
digit is tall, but wider than the board's digits, and a 1 and a 0 side by side."""


def test_two_digits_squeezed_into_a_digits_height_are_two_when_wider_than_the_boards():
    blob = Blob(Rect(10, 0, 9, 9), SQUEEZED_TEN)
    one, zero = split_touching(blob, digit_height=9.0, digit_width=7.0)
    assert (one.box.x, one.box.w, zero.box.x, zero.box.w) == (10, 4, 14, 5)
    # As wide as the board's digits, or without their width known: one glyph.
    assert len(split_touching(blob, digit_height=9.0, digit_width=8.0)) == 1
    assert len(split_touching(blob, digit_height=9.0)) == 1
    # Two shapes side by side, one far shorter than a digit (a 7 and a speck): one glyph.
    short = SQUEEZED_TEN.copy()
    short[:5, :4] = False
    assert len(split_touching(Blob(Rect(10, 0, 9, 9), short), 9.0, 7.0)) == 1


BROKEN_EIGHT = _mask("""
.####..
.#...#.
.#...#.
..###..
.#...#.
##...##
.#...#.
..###..
""")
"""A thin 8 (8 px, digits 5 px wide) whose right side meets its bars only corner to corner:
its 4-connected shapes part at a column, as a squeezed 10's do."""


def test_a_thin_digit_broken_at_its_corners_is_not_cut_in_two():
    glyphs = split_touching(Blob(Rect(0, 0, 7, 8), BROKEN_EIGHT), digit_height=8.0,
                            digit_width=5.0)
    assert len(glyphs) == 1


ITALIC_TWELVE = _mask("""
...#...###.
..##...####
.#.#...#.##
...#.....##
...#.....#.
..##....##.
..##...##..
..##..##...
#####.####.
##########.
""")
"""An italic bold 12 in a column's clue cell (10 px digits 8 px wide), the feet run together:
no wider than 1.1 digit heights, but half as wide again as the board's digits."""


def test_a_column_numbers_two_digits_run_together_are_cut_when_as_wide_as_two():
    blob = Blob(Rect(0, 0, 11, 10), ITALIC_TWELVE)
    one, two = split_touching(blob, digit_height=10.0, digit_width=8.0, stacked=True)
    assert one.box.right <= two.box.x and one.box.w >= 3 and two.box.w >= 5
    # In a row strip (where a taller digit's foot from the row above may join a digit and
    # widen it as much) it stays whole.
    assert len(split_touching(blob, digit_height=10.0, digit_width=8.0)) == 1
    # A digit with a stray of another line's digit in its box: one glyph.
    stray = ITALIC_TWELVE.copy()
    stray[:, :5] = False
    stray[0, :5] = True
    assert len(split_touching(Blob(Rect(0, 0, 11, 10), stray), 10.0, 8.0, stacked=True)) == 1


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


SMALL_SANS = {
    # A 3 at 9 px: its middle arm stops short of the width, right of centre (was 7).
    3: ".####. .....# .....# ..#### ....## .....# .....# ....## #####.",
    # A 5 at 9 px: its middle bar joins the left stroke to the bowl below (was 7).
    5: "#####. #..... #..... ####.. ....## ....## ....## ....## #####.",
    # A 3 at 13 px, the same arm (was 7).
    33: (".######.. .#######. .......## .......## ......##. ...#####. .....###. "
         ".......## .......## .......## .......## ########. .######.."),
    # 1s at 13 px whose one-pixel stem falls between two pixel columns: drawn in one
    # column here, the next there (were 3 and 5).
    1: (".####... #####... ....#... ....#... ....#... ....##.. ....##.. ....#... "
        "....#... ....#... ....#... .####### .#######"),
    11: (".####... ######.. ....##.. ....#... ....#... ....#... ....#... ....#... "
         "....#... ....#... ....#... .####### .#######"),
    # A 0 at 13 px whose second row spans the width (was 6).
    0: ("..####.. .######. .#....## ##....## ##.....# ##.....# ##.....# ##.....# "
        "##.....# ##....## ##....## .###.##. ..####.."),
}
"""Digits of a DejaVu-like sans 9-13 px tall as KDE's Picmi draws them in a small window
(binarised by the clue reader), with what the state machines read them as before."""


def test_small_sans_digits_read_by_the_state_machines():
    for key, picture in SMALL_SANS.items():
        digit = key % 10
        ranked = scanline.recognise(_mask(picture))
        assert ranked[0][0] == digit, (key, ranked[:3])


def test_a_wavering_stem_is_one_stroke_and_a_7s_top_stays_a_7():
    """A 1's stem drawn in one pixel column, then two, then one is one stroke (it was
    C, R, C); the middle-bar rule leaves a 7's thick top alone (a bar only between two
    strokes down one side, or joining strokes on either side)."""
    assert "".join(s.token for s in scanline.segments(_mask(SMALL_SANS[1]))) == "LCF"
    seven = _mask("######### ...#####. ......##. ......##. .....##.. .....##.. ....###.. "
                  "....##... ....##... ...##.... ...##.... ...##.... ..##.....")
    assert scanline.recognise(seven)[0] == (7, 1.0)
