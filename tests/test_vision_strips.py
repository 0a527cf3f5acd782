"""Clue strips cut into blobs (vision/strips.py): what is dropped as not a digit."""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.strips import BAND_END_GAP, Strip, band_end_gap, cut_strip, drop_specks


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


ELEVEN_AT_THE_BOARD = """
............
....#...##..
...##...##..
...##..###..
....#....#..
....#....#..
....#....#..
....#....#..
....#....#..
....#....#..
............
"""


def test_the_second_digit_of_a_number_beside_the_board_against_the_strip_side_stays():
    """An 11 squeezed into a column's clue cell, the nearest number to the board (a 34x30
    board at 12 px cells): its second 1 stands against the strip's side and runs to within
    a pixel of the board, as a piece of line between strips would; but it stands level
    with the 1 beside it, top and foot, as a line does not. It was dropped, the clue read
    as 4 2 2 1 1 for 4 2 2 1 11."""
    from autoplayer.vision.strips import _drop_edge_slivers

    ink = np.array([[c == "#" for c in row] for row in ELEVEN_AT_THE_BOARD.split()], bool)
    assert np.array_equal(_drop_edge_slivers(ink, "column", 12.0), ink)
    # A line as long beside it, running on to the board past the digit, still goes.
    line = np.pad(ink, ((0, 4), (0, 0)))
    line[1:, 10] = True
    kept = _drop_edge_slivers(line, "column", 12.0)
    assert not kept[:, 6:].any() and kept[:, :6].sum() == ink[:, :6].sum()


def _tall_strip() -> np.ndarray:
    """A row strip widened by 4 px each side for digits 28 px tall in 24 px rows (its own
    span 4..28, its core 9..23): its digit, the foot of the row above's digit reaching
    into it apart from it, and the row below's digit touching its own."""
    ink = np.zeros((32, 40), bool)
    ink[2:30, 2:8] = True  # this row's digit, whole: taller than its span
    ink[0:3, 14:20] = True  # the foot of the digit above, clear of this row's
    ink[4:30, 26:30] = True  # this row's 1 ...
    ink[29:32, 26:34] = True  # ... touching the top of the 1 below
    return ink


def test_a_row_strip_widened_for_tall_digits_keeps_its_own_digits_whole():
    from autoplayer.vision.strips import TallRow, _own_digits

    kept = _own_digits(_tall_strip(), TallRow((4, 28), (9, 23)))
    assert kept[2:30, 2:8].all()  # whole, over its span's edges
    assert not kept[:, 14:20].any()  # the row above's foot reaches no core of this row's
    # Touching the next row's digit (it runs on past the strip): cut at the row's span.
    assert kept[4:28, 26:30].all()
    assert not kept[28:, 26:34].any()


def test_a_drop_shadow_in_a_tone_of_its_own_is_no_ink():
    """A pixel font's digits at full ink, their shadow at 0.6 of it, nothing between:
    the digits stand above the blank between the tones. Antialiased edges spread over
    every tone between, and there is no shadow to find."""
    from autoplayer.vision.strips import shadow_tone

    shadowed = np.concatenate([np.full(300, 1.0), np.full(150, 0.62)])
    tone = shadow_tone(shadowed, 0.55)
    assert tone is not None and 0.62 < tone < 1.0
    antialiased = np.concatenate([np.full(300, 1.0), np.linspace(0.3, 1.0, 150)])
    assert shadow_tone(antialiased, 0.55) is None
    # A strip whose strongest ink is something else (a panel's white box) holds its
    # digits in the middle tone: too few above the blank for it to be the digits'.
    panel = np.concatenate([np.full(80, 1.0), np.full(300, 0.57)])
    assert shadow_tone(panel, 0.55) is None


def test_a_line_left_out_of_the_ink_sets_no_bar_for_the_numbers():
    """A row strip ending at the board's dark frame: the frame departs from the clue ground
    the most (scale 255) but the ground measure leaves it out of the ink (strength 0).
    Measured against it, pale blue digits at 110 fell under the strip's share and every
    other row lost numbers (BENCH_SEED=9090 draw 108 of bench/bench_nonogram_looks.py)."""
    h, w = 27, 60
    strength = np.zeros((h, w), np.float32)
    strength[7:20, 40:48] = 110
    scale = strength.copy()
    scale[:, w - 1] = 255
    strip = cut_strip("row", 0, Rect(0, 0, w, h), strength, scale, 89.0, 27.0)
    assert [[b.box for b in g] for g in strip.groups] == [[Rect(40, 7, 8, 13)]]


def _profile(parts: list[tuple[int, int]], size: int = 120) -> np.ndarray:
    out = np.zeros(size, bool)
    for a, b in parts:
        out[a:b] = True
    return out


def test_two_numbers_standing_a_cell_apart_in_most_strips_do_not_end_the_band():
    """Digits as tall as the 34 px cells, clues of one or two numbers 33 px apart (more
    than `BAND_END_GAP` pitches): the far numbers are the band's own, not a label beyond
    it (BENCH_SEED=9090 draw 110 of bench/bench_nonogram_looks.py lost every far number).
    A far part in a few strips only stays a label's, beside numbers that stand close."""
    pitch = 34.0
    pairs = [_profile([(2, 27), (60, 85)]) for _ in range(8)]
    singles = [_profile([(2, 27)]) for _ in range(10)]
    assert band_end_gap(pairs + singles, pitch) >= 33 + 2
    labelled = [_profile([(2, 27), (60, 85)]) for _ in range(2)] + \
        [_profile([(2, 27), (32, 57)]) for _ in range(6)]
    assert band_end_gap(labelled + singles, pitch) == BAND_END_GAP * pitch


def test_the_first_rows_tall_digits_keep_their_tops_at_the_bands_edge():
    """The first row's digits, taller than the row, reach the band's first scanline (its
    tops stand above the board); the 1 among them touches the 1 below at its foot. No row
    lies above, so reaching the strip's top is no sign of a shared shape: the 1 keeps
    its flag (BENCH_SEED=9090 draw 102 of bench/bench_nonogram_looks.py: cut at the row's
    span, a flagless italic 1 read as 7). Its foot, joined to the row below, is still cut
    at the row's span."""
    from autoplayer.vision.clues import _tall_row
    from autoplayer.vision.strips import _own_digits

    w0, w1, tall = _tall_row(1, 25, 30.0, 0, 200, first=True, last=False)
    assert tall is not None and (w0, w1) == (0, 29)
    ink = np.zeros((w1 - w0, 30), bool)
    ink[0:26, 4:9] = True  # the 1's stem, its flag at the band's edge ...
    ink[0:3, 1:9] = True
    ink[24:29, 2:12] = True  # ... its foot joined to the top of the 1 below
    ink[2:27, 18:24] = True  # a digit of its own
    kept = _own_digits(ink, tall)
    assert kept[0:3, 1:9].all()  # the flag stays
    assert kept[2:27, 18:24].all()
    assert not kept[25:, :12].any()
