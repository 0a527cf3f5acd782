"""A hint drawn over the screenshot it came from: the line framed, its new cells marked."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from autoplayer.games.nonogram.hint import STEP, Hint
from autoplayer.games.nonogram.model import FILLED
from autoplayer.geometry import Rect

LINE_COLOUR = (255, 140, 0)
FILL_COLOUR = (0, 170, 255)
EMPTY_COLOUR = (230, 0, 60)
BROKEN_COLOUR = (230, 0, 60)


def draw_hint(image: np.ndarray, cells: Sequence[Sequence[Rect]], hint: Hint) -> np.ndarray:
    """A copy of the RGB image: the hinted line framed (red for a contradiction), each
    cell to fill half covered in blue, each cell to empty crossed, and the headline below
    the board (at the picture's top when there is no room). A solved or stalled hint
    leaves the picture as it was, with its headline."""
    out = np.ascontiguousarray(image[..., :3].copy())
    top = cells[0][0]
    if hint.kind is not None and hint.index is not None:
        line = cells[hint.index] if hint.kind == "row" else [row[hint.index] for row in cells]
        x0, y0 = line[0].x, line[0].y
        x1, y1 = line[-1].right, line[-1].bottom
        colour = LINE_COLOUR if hint.status == STEP else BROKEN_COLOUR
        cv2.rectangle(out, (x0 - 3, y0 - 3), (x1 + 2, y1 + 2), colour, 3)
        for r, c, value in hint.cells:
            rect = cells[r][c]
            if value == FILLED:
                patch = out[rect.y:rect.bottom, rect.x:rect.right]
                patch[:] = (patch * 0.4 + np.array(FILL_COLOUR) * 0.6).astype(np.uint8)
            else:
                pad = max(2, rect.w // 5)
                for a, b in (((rect.x + pad, rect.y + pad), (rect.right - pad, rect.bottom - pad)),
                             ((rect.x + pad, rect.bottom - pad), (rect.right - pad, rect.y + pad))):
                    cv2.line(out, a, b, EMPTY_COLOUR, max(2, rect.w // 10), cv2.LINE_AA)
    scale = max(0.5, top.h / 30)
    below = cells[-1][0].bottom + int(30 * scale)
    y = below if below < out.shape[0] else int(30 * scale)
    text, x = hint.headline[:100], max(0, top.x)
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.rectangle(out, (x - 3, y - th - 4), (x + tw + 3, y + base + 2), (0, 0, 0), -1)
    cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out
