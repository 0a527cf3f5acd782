"""Clue strips cut into blobs (vision/strips.py): what is dropped as not a digit."""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.strips import Strip, drop_specks


def _blob(x: int, h: int) -> Blob:
    return Blob(Rect(x, 0, 6, h), np.ones((h, 6), bool))


def test_a_strip_without_digits_keeps_no_speck_the_boards_digits_dwarf():
    """The corner of a bar's frame, 3 px tall, alone in the strip of a line with an empty
    clue, beside digits 14 px tall in the other strips: dropped. (Its own strip holds
    nothing taller to measure it by, so it used to stay, and read as a 7.)"""
    speck = Strip("row", 13, Rect(0, 0, 60, 29), ((_blob(50, 3),),))
    digits = Strip("row", 12, Rect(0, 0, 60, 29), ((_blob(30, 14), _blob(40, 14)),))
    kept = drop_specks([speck, digits], digit_height=14.0)
    assert kept[0].groups == ()
    assert kept[1].groups == digits.groups


def test_a_bars_shaded_edge_spreading_at_the_board_is_no_digit():
    """Against a column strip's side and running on to the board: a line a pixel wide
    whose last rows spread sideways where the bar's shading deepens (a random 30x20 Picmi
    level in an 1150x820 window, read as an extra 1). Measured by its typical row it is a
    line; by its widest row it looked as wide as tall and stayed."""
    from autoplayer.vision.strips import _drop_edge_slivers

    ink = np.zeros((40, 26), bool)
    ink[20:33, 8:17] = True  # a digit
    for row, picture in enumerate(("..#", "..#", "..#", "..#", ".##", "###")):
        ink[34 + row, 23:26] = [c == "#" for c in picture]
    kept = _drop_edge_slivers(ink, "column", 27.0)
    assert kept[20:33, 8:17].all()
    assert not kept[34:, 20:].any()
