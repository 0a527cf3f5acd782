"""The dry run's picture for Ripple Effect: rooms, givens and the values the bot would enter.

Room borders as read are drawn thick, ruled regions passed over for the
board (a menu panel) framed grey, every given boxed with the value read
(low confidence in a warning colour), entered values the bot keeps in one
colour and the values it would enter in another, at each cell's centre.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from autoplayer.games.ripple.reader import MIN_CONFIDENCE, RippleReading

BOARD = (0, 160, 255)
BORDER = (255, 120, 0)
GIVEN = (30, 110, 255)
UNSURE = (255, 0, 200)
ENTER = (0, 190, 90)
WRONG = (230, 30, 30)
PASSED = (150, 150, 150)


def draw_ripple(image: np.ndarray, reading: RippleReading,
                solution: Sequence[int] | None) -> np.ndarray:
    """A copy of the RGB image with the reading (and the plan, given a solution) drawn on it."""
    out = np.ascontiguousarray(image[..., :3].copy())
    lat, rooms = reading.lattice, reading.rooms
    xs, ys = lat.xs, lat.ys
    for r in lat.passed:  # ruled regions that were no board (a menu panel)
        cv2.rectangle(out, (r.x, r.y), (r.right - 1, r.bottom - 1), PASSED, 1, cv2.LINE_4)
        _text(out, "passed over: not the board", r.x + 2, r.y - 3 if r.y >= 12 else
              r.bottom + 12, PASSED, 0.35)
    cv2.rectangle(out, (xs[0], ys[0]), (xs[-1], ys[-1]), BOARD, 2)
    for r in range(lat.rows):
        for c in range(lat.cols):
            if c + 1 < lat.cols and rooms.right[r, c]:
                cv2.line(out, (xs[c + 1], ys[r]), (xs[c + 1], ys[r + 1]), BORDER, 3)
            if r + 1 < lat.rows and rooms.down[r, c]:
                cv2.line(out, (xs[c], ys[r + 1]), (xs[c + 1], ys[r + 1]), BORDER, 3)
    scale = max(0.3, lat.pitch / 90)
    for i, cell in enumerate(reading.cells):
        box = lat.cell(i)
        if reading.given[i] and cell is not None:
            sure = cell.number.confidence >= MIN_CONFIDENCE
            b = cell.number.box
            cv2.rectangle(out, (b.x - 1, b.y - 1), (b.right, b.bottom), GIVEN if sure else UNSURE,
                          1 if sure else 2)
            _text(out, str(cell.number.value), box.x + 1, box.y + int(10 * scale) + 2,
                  GIVEN, scale)
            continue
        if solution is None:
            continue
        want, have = solution[i], reading.values[i]
        colour = ENTER if have in (0, want) else WRONG
        label = str(want) if have in (0, want) else f"{have}>{want}"
        _text(out, label, box.x + 1, box.bottom - 2, colour, scale)
    return out


def _text(img: np.ndarray, text: str, x: int, y: int, colour: tuple[int, int, int],
          scale: float) -> None:
    cv2.putText(img, text, (int(x), int(max(8, y))), cv2.FONT_HERSHEY_SIMPLEX, scale,
                colour, 1, cv2.LINE_AA)
