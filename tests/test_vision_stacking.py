"""Column clue numbers on their lines; ink beyond them off those lines (vision/stacking.py)."""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.stacking import drop_off_lines
from autoplayer.vision.strips import Strip

BOARD_TOP = 300
STEP = 28
DIGIT = 13


def _group(top: int, h: int = DIGIT) -> tuple[Blob, ...]:
    return (Blob(Rect(10, top, 8, h), np.ones((h, 8), bool)),)


def _column(index: int, count: int, extra: list[tuple[int, int]] = ()) -> Strip:
    """A top column strip with `count` numbers stacked from the board, 8 px above it,
    and `extra` groups (top, height) further out; groups in reading order (top first)."""
    numbers = [_group(BOARD_TOP - 8 - DIGIT - i * STEP) for i in range(count)]
    groups = [_group(t, h) for t, h in extra] + numbers[::-1]
    return Strip("column", index, Rect(28 * index, 0, 28, BOARD_TOP), tuple(groups))


def test_a_toolbar_above_the_clues_off_their_lines_is_dropped():
    """A toolbar's icons 29 px above the outermost numbers (a blank shorter than a cell,
    so the band did not end there; measured on a 5x5 board under a ruled menu panel),
    15 px tall, off the numbers' 28 px lines; a menu line beyond it happens to fall on a
    line, and goes with it."""
    outermost = BOARD_TOP - 8 - DIGIT - STEP
    toolbar, menu = (outermost - 29 - 15, 15), (BOARD_TOP - 8 - DIGIT - 4 * STEP, 12)
    strips = [_column(0, 1, [menu, toolbar]), _column(1, 2, [menu, toolbar]),
              _column(2, 2, [menu, toolbar]), _column(3, 2), _column(4, 1)]
    kept = drop_off_lines(strips, "top")
    for before, after in zip(strips, kept, strict=True):
        numbers = [g[0].box for g in before.groups if g[0].box.h == DIGIT]
        assert [g[0].box for g in after.groups] == numbers


def test_numbers_on_their_lines_are_all_kept():
    strips = [_column(i, 1 + i % 4) for i in range(8)]
    assert all(a is b for a, b in zip(drop_off_lines(strips, "top"), strips, strict=True))
