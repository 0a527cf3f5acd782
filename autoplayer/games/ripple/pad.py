"""A number pad beside the board, found by its glyphs: digit buttons 1..N read with the
same digit reader as the board's cells.

Pages that take digits by click show buttons labelled 1, 2, 3, ... next to the
board (left, right or below). The pad is looked for in the board's band
(beside it, a few cells above and below) and under it: ink that stands out
from its surroundings is cut into glyphs of one height, each read as a digit;
glyphs a digit's width apart on one line are one number (10, 11, 12). A pad
is a set of one height holding every value 1..N exactly once; a value found
twice, or a gap, is no pad (None: the bot then does not click there).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.image import luminance
from autoplayer.vision.numbers import read_digit

INKS = (30, 20, 45)
"""A pixel this far (0..255 luminance) from its neighbourhood's mean is ink: tried in turn
(thin anti-aliased labels break apart at one and merge with their button at another); the
first that shows a whole pad is taken (and the experiment's press checks it)."""
SURE = 0.1
"""A label's digits must read at least this surely."""
HEIGHT = (0.18, 0.9)
"""A label's digits are this share of the board's pitch tall."""
NARROW = 0.2
"""A digit is at least this share of its height wide (a one's flag or foot): a narrower
bar is a line (a button's side)."""
SAME = 0.2
"""Labels of one pad differ in height by at most this share."""


@dataclass(frozen=True)
class Pad:
    """Where each value's button is (its label's box, frame pixels)."""

    keys: dict[int, Rect]

    @property
    def rect(self) -> Rect:
        """The labels' bounding box, grown by half a label around: clicks stay inside."""
        boxes = list(self.keys.values())
        x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
        x1, y1 = max(b.right for b in boxes), max(b.bottom for b in boxes)
        m = max(b.h for b in boxes) // 2
        return Rect(x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m)

    def centre(self, value: int) -> tuple[int, int]:
        b = self.keys[value]
        return b.x + b.w // 2, b.y + b.h // 2


def find_pad(rgb: np.ndarray, board: Rect, pitch: float, values: int,
             avoid: tuple[Rect, ...] = ()) -> Pad | None:
    """The pad with buttons for 1..`values` (at least) beside `board`, or None."""
    h_img = rgb.shape[0]
    reach = int(4 * pitch)
    # The board's rows and a cell above them (page text above a board holds digits too),
    # and room for a pad under it.
    y0, y1 = max(0, int(board.y - pitch)), min(h_img, board.bottom + reach)
    lum = luminance(np.ascontiguousarray(rgb[y0:y1, :, :3])).astype(np.float32)
    size = max(9, int(pitch) | 1)
    away = np.abs(lum - cv2.blur(lum, (size, size)))
    for level in INKS:
        pad = _pad_at((away > level).astype(np.uint8), y0, board, pitch, values, avoid)
        if pad is not None:
            return pad
    return None


def _pad_at(ink: np.ndarray, y0: int, board: Rect, pitch: float, values: int,
            avoid: tuple[Rect, ...]) -> Pad | None:
    """The pad in one binarisation of the band from row `y0`."""
    # Not the board (nor a ruled panel passed over for it).
    for r in (board, *avoid):
        ink[max(0, r.y - 4 - y0):max(0, r.bottom + 4 - y0), max(0, r.x - 4):r.right + 4] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs: list[tuple[Rect, int, float]] = []
    lo, hi = HEIGHT[0] * pitch, HEIGHT[1] * pitch
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k])
        if not lo <= h <= hi or w > h or w < NARROW * h or area < 6:
            continue  # not a digit's size, or a bar (a button's side) and no one
        box = Rect(x, y + y0, w, h)
        reading = read_digit(Glyph(box, labels[y:y + h, x:x + w] == k))
        if reading.confidence >= SURE:
            glyphs.append((box, reading.digit, reading.confidence))
    return _pad(_numbers(glyphs), values)


def _numbers(glyphs: list[tuple[Rect, int, float]]) -> list[tuple[Rect, int]]:
    """Digits side by side on one line (a gap under half their height) joined into numbers."""
    glyphs = sorted(glyphs, key=lambda g: (g[0].y // max(1, g[0].h), g[0].x))
    out: list[tuple[Rect, int]] = []
    used = [False] * len(glyphs)
    for i, (box, value, _) in enumerate(glyphs):
        if used[i]:
            continue
        for j in range(len(glyphs)):
            other, second, _ = glyphs[j]
            if j == i or used[j] or value != 1:
                continue
            gap = other.x - box.right
            if 0 <= gap < box.h / 2 and abs(other.y - box.y) <= 2 and abs(other.h - box.h) <= 2:
                used[j] = True
                x1, y1 = max(box.right, other.right), max(box.bottom, other.bottom)
                box = Rect(box.x, min(box.y, other.y), x1 - box.x, y1 - min(box.y, other.y))
                value = 10 + second
                break
        used[i] = True
        out.append((box, value))
    return out


def _pad(numbers: list[tuple[Rect, int]], values: int) -> Pad | None:
    """The one set of labels of one height that holds 1..`values`, each once."""
    best: Pad | None = None
    for box, _ in numbers:
        same = [(b, v) for b, v in numbers if abs(b.h - box.h) <= SAME * box.h]
        keys: dict[int, Rect] = {}
        for b, v in same:
            keys.setdefault(v, b)
        if len(keys) < len(same):
            continue  # a value twice (page text): no telling which is the button
        if all(v in keys for v in range(1, values + 1)):
            if best is not None and set(best.keys) != set(keys):
                return None
            best = Pad({v: keys[v] for v in sorted(keys)})
    return best
