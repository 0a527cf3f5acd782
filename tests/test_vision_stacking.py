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


def test_an_icon_whose_top_falls_on_a_line_is_off_it_by_its_foot():
    """A toolbar's arrow half a digit tall whose top stands where a next number's top
    would (a 6x9 board under a ruled toolbar: read as a 4 in column 2). A group no taller
    than a number stands on a line by both edges."""
    icon_top = BOARD_TOP - 8 - DIGIT - 2 * STEP - 2  # 2 px above a third number's top
    strips = [_column(0, 1), _column(1, 2, [(icon_top, 5)]), _column(2, 2), _column(3, 2),
              _column(4, 1)]
    kept = drop_off_lines(strips, "top")
    assert [len(s.groups) for s in kept] == [1, 2, 2, 2, 1]


def test_two_columns_that_agree_on_the_step_are_enough_on_a_small_board():
    """A 5x5 board with only two columns of two numbers, a toolbar's icons above both,
    off their lines (read as a 4 in each)."""
    icon = (BOARD_TOP - 8 - DIGIT - STEP - 5 - 9, 9)  # 5 px beyond the second number
    strips = [_column(0, 1), _column(1, 2, [icon]), _column(2, 1), _column(3, 2, [icon]),
              _column(4, 1)]
    kept = drop_off_lines(strips, "top")
    assert [len(s.groups) for s in kept] == [1, 2, 1, 2, 1]
    # One column alone says nothing of the step: all is kept.
    one = [_column(0, 1), _column(1, 2, [icon]), _column(2, 1)]
    assert all(a is b for a, b in zip(drop_off_lines(one, "top"), one, strict=True))
