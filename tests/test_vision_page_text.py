"""Page text in a clue band (vision/page_text.py): text beyond the clues left out, the band's
own drawing kept."""

from __future__ import annotations

import numpy as np

from autoplayer.vision.page_text import unaligned_text

PITCH = 20
SPANS = tuple((20 * k + 2, 20 * k + 18) for k in range(6))
"""Six columns 20 px apart, starting at x=0; boundaries at x=20, 40, ... 100."""


def _band(text: bool) -> np.ndarray:
    """A column band (the board below its last row): a digit in each column, and where
    bars meet, their shaded edges as slivers 3 px wide and 8 tall against the board, as
    KDE's Picmi draws them in a small window; a line of text across the columns above."""
    ink = np.zeros((60, 120), bool)
    for k in range(6):
        ink[40:50, 20 * k + 7:20 * k + 13] = True  # a digit, inside its column
    for b in range(20, 120, 20):
        ink[52:60, b - 1:b + 2] = True
    if text:
        for x in range(3, 115, 9):  # letters 7 px wide, 9 apart, crossing boundaries
            ink[10:20, x:x + 7] = True
    return ink


def test_the_bars_edges_against_the_board_are_no_page_text():
    depth, _ = unaligned_text(_band(text=False), SPANS, 0, PITCH)
    assert depth == 0


def test_text_beyond_the_clues_is_still_found_beside_the_bars_edges():
    depth, foreign = unaligned_text(_band(text=True), SPANS, 0, PITCH)
    assert depth == 20
    assert foreign[:20].all() and not foreign[40:].any()
