"""Clue strips whose ground the clue ink would not show on: their emptiness says nothing.

A strip with no ink reads as an empty clue. That holds only where ink would show:
a game may draw its clues in one colour over grounds of several shades (bars of
two shades, a gradient under the numbers), and where a ground is as light as
the ink (or nearly, in luminance, the ink told apart by its hue alone) a
number on it leaves no trace. Such a strip is unread, not empty.
"""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.strips import Strip

UNSEEN = 0.4
"""An empty strip whose ground lies nearer the ink than this share of the usual distance
between the ink and the grounds numbers were found on could hide numbers."""


def unseen_strips(lum: np.ndarray, layout: ClueLayout) -> list[Strip]:
    """The strips with no ink whose ground (beside the board, a pitch deep) is too near
    the clue ink's level for a number to show on it (`UNSEEN`)."""
    inked = [s for s in (*layout.rows, *layout.columns) if s.groups]
    empty = [s for s in (*layout.rows, *layout.columns) if not s.groups]
    if not inked or not empty:
        return []
    pixels = [lum[b.box.y:b.box.bottom, b.box.x:b.box.right][b.mask]
              for s in inked for g in s.groups for b in g]
    ink = float(np.median(np.concatenate(pixels)))
    usual = float(np.nanmedian([abs(_ground(lum, s, layout) - ink) for s in inked]))
    return [s for s in empty if abs(_ground(lum, s, layout) - ink) < UNSEEN * usual]


def _ground(lum: np.ndarray, strip: Strip, layout: ClueLayout) -> float:
    """The median level of a strip's ground beside the board: a pitch deep, its middle
    two thirds across (clear of the lines between strips)."""
    board, pitch = layout.grid.rect, layout.grid.pitch
    deep = max(1, round(pitch))
    box = strip.box
    if strip.kind == "row":
        cut = max(1, box.h // 6)
        x0 = board.x - deep if layout.row_side == "left" else board.right
        area = Rect(x0, box.y + cut, deep, box.h - 2 * cut)
    else:
        cut = max(1, box.w // 6)
        y0 = board.y - deep if layout.column_side == "top" else board.bottom
        area = Rect(box.x + cut, y0, box.w - 2 * cut, deep)
    h, w = lum.shape
    part = lum[max(0, area.y):min(h, area.bottom), max(0, area.x):min(w, area.right)]
    return float(np.median(part)) if part.size else float("nan")
