"""Clue numbers continuing past the ends of the board found: the grid was not found whole.

Clue strips are cut one per board line, so their count matches the board's by
construction. What shows that a lattice was found too short (its last columns'
lines too faint, or drawn without lines) is the clue band itself: past the
board's end, one pitch further on, ink shaped and placed like the clue numbers
of the lines found — a digit-sized glyph centred where the next line's clue
would be, standing as close to the board as the found lines' nearest numbers.
Page text beside a band is no such thing: it is not centred on the pitch, runs
across the next line's bounds or stands at another distance from the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.glyphs import Blob

CENTRED = 0.25
"""A glyph past the end is the next line's when its middle lies within this share of a
pitch of where that line's middle would be."""
SIZE = (0.75, 1.3)
"""... and its height is within these shares of the clue digits' height."""


@dataclass(frozen=True)
class Continuation:
    """Clue ink past one end of the board: which band, which end, where."""

    kind: str
    """'column' (numbers past the board's left or right end) or 'row' (past its top or
    bottom)."""
    end: str
    """'left', 'right', 'top' or 'bottom'."""
    region: Rect


def clues_past_ends(lum: np.ndarray, layout: ClueLayout) -> Continuation | None:
    """The first end of the board past which its clue numbers continue, if any."""
    if layout.ink_level is None or layout.paper_level is None:
        return None
    contrast = layout.ink_level - layout.paper_level
    if abs(contrast) < 30:
        return None
    board = layout.grid.rect
    pitch = layout.grid.pitch
    h_img, w_img = lum.shape

    def ink(part: np.ndarray) -> np.ndarray:
        return (part.astype(np.float32) - layout.paper_level) * np.sign(contrast) \
            > abs(contrast) / 2

    for kind, strips in (("column", layout.columns), ("row", layout.rows)):
        blobs = [b for s in strips for g in s.groups for b in g]
        if len(blobs) < 2:
            continue
        band = _band_extent(kind, blobs, board, layout)
        near = _nearest_distances(kind, strips, board, layout)
        if band is None or not near:
            continue
        lo, hi = band
        for end in (("left", "right") if kind == "column" else ("top", "bottom")):
            # The next line past this end, as wide as one pitch.
            if end in ("right", "bottom"):
                a = (board.right if end == "right" else board.bottom)
            else:
                a = (board.x if end == "left" else board.y) - round(pitch)
            b = a + round(pitch)
            limit = w_img if kind == "column" else h_img
            a, b = max(0, a), min(limit, b)
            if b - a < pitch * 0.6:
                continue
            if kind == "column":
                window, origin = ink(lum[lo:hi, a:b]), (a, lo)
            else:
                window, origin = ink(lum[a:b, lo:hi]).T, (lo, a)  # along the band first
            if _next_line_clue(window, kind, a, b, pitch, layout, near, board, origin):
                region = (Rect(a, lo, b - a, hi - lo) if kind == "column"
                          else Rect(lo, a, hi - lo, b - a))
                return Continuation(kind, end, region)
    return None


def _band_extent(kind: str, blobs: list[Blob], board: Rect, layout: ClueLayout
                 ) -> tuple[int, int] | None:
    """The band's span across its lines (y for columns, x for rows), from the board's edge
    to its farthest number."""
    if kind == "column":
        if layout.column_side == "top":
            return min(b.box.y for b in blobs), board.y
        return board.bottom, max(b.box.bottom for b in blobs)
    if layout.row_side == "left":
        return min(b.box.x for b in blobs), board.x
    return board.right, max(b.box.right for b in blobs)


def _distance(kind: str, box: Rect, board: Rect, layout: ClueLayout) -> int:
    """How far a glyph stands from the board's edge beside its band."""
    if kind == "column":
        return board.y - box.bottom if layout.column_side == "top" else box.y - board.bottom
    return board.x - box.right if layout.row_side == "left" else box.x - board.right


def _nearest_distances(kind: str, strips, board: Rect, layout: ClueLayout) -> list[int]:
    """Each line's nearest number's distance from the board."""
    out = []
    for s in strips:
        blobs = [b for g in s.groups for b in g]
        if blobs:
            out.append(min(_distance(kind, b.box, board, layout) for b in blobs))
    return out


def _next_line_clue(window: np.ndarray, kind: str, a: int, b: int, pitch: float,
                    layout: ClueLayout, near: list[int], board: Rect,
                    origin: tuple[int, int]) -> bool:
    """Whether the window (rows: across the band; columns: along it, for a column band;
    transposed for a row band) holds a glyph where the next line's nearest number
    would stand."""
    if not window.any():
        return False
    n, _, stats, _ = cv2.connectedComponentsWithStats(window.astype(np.uint8), 8)
    height = layout.digit_height
    middle = (b - a) / 2
    slack = max(2.0, height / 2)
    lo, hi = min(near) - slack, max(near) + slack
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        # Column band: x runs along the band (the lines), y across it; a row band's
        # window was transposed, so the same holds.
        tall = h if kind == "column" else w
        wide = w if kind == "column" else h
        if not SIZE[0] * height <= tall <= SIZE[1] * height or wide > 1.5 * height:
            continue
        if x == 0 or x + w >= window.shape[1]:
            continue  # runs across the next line's bounds: text, a frame, a rule
        if abs(x + w / 2 - middle) > CENTRED * pitch:
            continue
        ox, oy = origin
        box = (Rect(ox + x, oy + y, w, h) if kind == "column"
               else Rect(ox + y, oy + x, h, w))
        if lo <= _distance(kind, box, board, layout) <= hi:
            return True
    return False
