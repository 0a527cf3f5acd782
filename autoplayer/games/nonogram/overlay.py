"""A nonogram reading drawn over its capture: the dry run's and `read --overlay`'s picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from autoplayer.geometry import Rect


def draw_reading(pixels: np.ndarray, raw: Any, marks: Sequence[tuple[Rect, str]]
                 ) -> np.ndarray:
    """The board, every cell and every number read (low-confidence ones marked, a number
    cut by the picture's edge as '?'), the other ruled regions passed over for the board,
    and `marks` (a cell, a label) over the cells."""
    from autoplayer.games.nonogram.reader import LOW_CONFIDENCE
    from autoplayer.vision.overlay import draw_overlay

    cut = {(c.kind, c.index) for c in getattr(raw, "clipped", ()) if c.cut}
    numbers: list[tuple[int | str, float, Rect]] = [
        ("?", 0.0, n.box) if (kind, i) in cut and n is raw.row_or_column(kind, i)[0]
        else (n.value, n.confidence, n.box) for kind, i, n in raw.numbers()]
    ignored = raw.layout.ignored if getattr(raw, "layout", None) is not None else ()
    return draw_overlay(pixels, raw.board, raw.cells, numbers, low=LOW_CONFIDENCE,
                        cell_marks=list(marks), ignored=ignored,
                        passed_over=getattr(raw, "passed_over", ()))
