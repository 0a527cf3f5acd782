"""Dry-run pictures: what the reader saw, drawn over the screenshot.

The board box, every cell, and every number read drawn beside its glyphs;
numbers read with low confidence are boxed in a warning colour, so a glance
shows where a misread would come from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from autoplayer.geometry import Rect

BOARD = (0, 160, 255)
CELL = (0, 200, 120)
SURE = (30, 110, 255)
UNSURE = (255, 0, 200)
IGNORED = (150, 150, 150)
PASSED_OVER = (230, 120, 0)


def draw_overlay(image: np.ndarray, board: Rect, cells: Iterable[Iterable[Rect]],
                 numbers: Iterable[tuple[int | str, float, Rect]], *, low: float = 0.5,
                 cell_marks: Iterable[tuple[Rect, str]] = (),
                 ignored: Iterable[Rect] = (),
                 passed_over: Iterable[Rect] = ()) -> np.ndarray:
    """A copy of the RGB image with the reading drawn on it.

    `numbers` holds (value, confidence, box) for every clue number read.
    `cell_marks` optionally labels cells (e.g. '#' filled, 'x' marked).
    `ignored`: regions whose ink was left out as not lined up with the board (page
    text beside the clues), crossed out and labelled so.
    `passed_over`: other ruled regions that were candidates for the board (a menu panel
    of boxes) and were not taken, framed in dashes and labelled so.
    """
    out = np.ascontiguousarray(image[..., :3].copy())
    for r in passed_over:
        if r.w <= 0 or r.h <= 0:
            continue
        _dashed_rect(out, r, PASSED_OVER)
        _text(out, "passed over: not the board", r.x + 2, r.y - 3 if r.y >= 12 else r.bottom + 12,
              PASSED_OVER, 0.35)
    for r in ignored:
        if r.w <= 0 or r.h <= 0:
            continue
        cv2.rectangle(out, (r.x, r.y), (r.right - 1, r.bottom - 1), IGNORED, 1)
        cv2.line(out, (r.x, r.y), (r.right - 1, r.bottom - 1), IGNORED, 1)
        _text(out, "ignored: not lined up with the board", r.x + 2, r.y + 12, IGNORED, 0.35)
    cv2.rectangle(out, (board.x, board.y), (board.right - 1, board.bottom - 1), BOARD, 2)
    for row in cells:
        for c in row:
            cv2.rectangle(out, (c.x, c.y), (c.right - 1, c.bottom - 1), CELL, 1)
    for rect, label in cell_marks:
        _text(out, label, rect.x + 2, rect.bottom - 3, CELL, max(0.3, rect.h / 40))
    for value, conf, box in numbers:
        colour = SURE if conf >= low else UNSURE
        cv2.rectangle(out, (box.x - 1, box.y - 1), (box.right, box.bottom), colour,
                      1 if conf >= low else 2)
        scale = max(0.3, box.h / 30)
        _text(out, str(value), box.x, box.y - 2, colour, scale)
        if conf < low:
            _text(out, "?", box.right + 1, box.bottom, UNSURE, scale)
    return out


CAPTION_SCALE = 0.45
CAPTION_INK = (20, 20, 20)


def with_caption(image: np.ndarray, lines: Sequence[str]) -> np.ndarray:
    """The image with a white band below holding `lines`, each wrapped to the image's width
    (a puzz.link URL of a large board runs to hundreds of characters): the picture stays
    one file a person can share or paste from."""
    width = image.shape[1]
    (char_w, line_h), base = cv2.getTextSize("M", cv2.FONT_HERSHEY_SIMPLEX, CAPTION_SCALE, 1)
    per_line = max(8, (width - 8) // max(1, char_w))
    wrapped = [line[i : i + per_line] for line in lines for i in range(0, max(1, len(line)),
                                                                         per_line)]
    if not wrapped:
        return image
    step = line_h + base + 4
    band = np.full((step * len(wrapped) + 6, width, 3), 255, dtype=np.uint8)
    for k, text in enumerate(wrapped):
        _text(band, text, 4, step * (k + 1), CAPTION_INK, CAPTION_SCALE)
    return np.ascontiguousarray(np.vstack([image[..., :3], band]))


def _dashed_rect(img: np.ndarray, r: Rect, colour: tuple[int, int, int], dash: int = 6) -> None:
    """A rectangle drawn in dashes, 2 px wide: set apart from the solid board frame."""
    x0, y0, x1, y1 = r.x, r.y, r.right - 1, r.bottom - 1
    for a in range(x0, x1 + 1, 2 * dash):
        b = min(x1, a + dash - 1)
        cv2.line(img, (a, y0), (b, y0), colour, 2)
        cv2.line(img, (a, y1), (b, y1), colour, 2)
    for a in range(y0, y1 + 1, 2 * dash):
        b = min(y1, a + dash - 1)
        cv2.line(img, (x0, a), (x0, b), colour, 2)
        cv2.line(img, (x1, a), (x1, b), colour, 2)


def _text(img: np.ndarray, text: str, x: int, y: int, colour: tuple[int, int, int],
          scale: float) -> None:
    cv2.putText(img, text, (int(x), int(max(8, y))), cv2.FONT_HERSHEY_SIMPLEX, scale,
                colour, 1, cv2.LINE_AA)
