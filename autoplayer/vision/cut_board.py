"""A board cut by the picture's edge: which edge it runs on past, if any.

A reader must refuse a board it cannot see whole rather than read the lines
that show against clues meant for more (a game window too small, a screenshot
cropped).
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.grid import Grid
from autoplayer.vision.image import luminance
from autoplayer.vision.patches import EDGE_STEP


def continues_past(image: np.ndarray, grid: Grid) -> str | None:
    """The picture edge ('top', 'bottom', 'left', 'right') the board runs on past, if any.

    Cells cut by the edge show as a strip of less than a cell beyond the last
    line of cells in which the board's inner lines still run on, up to the edge
    (or cells reaching the edge itself).
    """
    lum = luminance(image)
    h_img, w_img = lum.shape
    for side in ("bottom", "right", "top", "left"):
        axis = "y" if side in ("top", "bottom") else "x"
        spans, across = (grid.ys, grid.xs) if axis == "y" else (grid.xs, grid.ys)
        limit = h_img if axis == "y" else w_img
        view = lum if axis == "y" else lum.T
        gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
        usual = round(float(np.median(gaps))) if gaps else 1
        pitch = (spans[-1][0] - spans[0][0]) / max(1, len(spans) - 1)
        if side in ("bottom", "right"):
            room = (spans[-1][1] + usual, limit)
        else:
            room = (0, spans[0][0] - usual)
        if room[1] - room[0] <= 0:
            if (spans[-1][1] >= limit) if side in ("bottom", "right") else spans[0][0] <= 0:
                return side
            if _line_at_edge(view, spans, across, side in ("bottom", "right"), gaps):
                return side
            continue
        if room[1] - room[0] <= max(gaps, default=1) and _line_at_edge(
                view, spans, across, side in ("bottom", "right"), gaps):
            return side
        if room[1] - room[0] >= pitch - usual:
            continue  # a whole cell would fit: the board ended before the edge
        part = view[room[0]:room[1]]
        inner = [((across[i - 1][1] + across[i][0]) // 2,
                  (across[i - 1][0] + across[i - 1][1]) // 2) for i in range(1, len(across))]
        on = np.array([x for x, _ in inner])
        beside = np.array([c for _, c in inner])
        step = np.abs(part[:, on] - part[:, beside])
        # Near the board first: a scroll bar may lie between the cut cells and the edge.
        rows_with_lines = (step > EDGE_STEP).mean(axis=1) >= 0.8
        near = rows_with_lines if side in ("bottom", "right") else rows_with_lines[::-1]
        if near.size and near[:max(1, near.size // 2)].all():
            return side
    return None


def _line_at_edge(view: np.ndarray, spans: tuple[tuple[int, int], ...],
                  across: tuple[tuple[int, int], ...], far: bool, gaps: list[int]) -> bool:
    """Whether the board's last line lies on the picture's edge, with no margin beyond.

    `view` has the board's lines along axis 0 (transposed for left and right). A
    person seeing a grid pressed against the edge while its other sides stand clear
    of theirs takes it as cut on a grid line: the picture's edge row is in the
    board's line colour, not the page's, within a line's width of the last cells.
    A board that truly ends there cannot be told from one cut on a line, and a
    refusal is better than reading part of a board as the whole.
    """
    limit = view.shape[0]
    beyond = limit - spans[-1][1] if far else spans[0][0]
    thickest = max(gaps, default=1)
    if beyond > thickest + 1:
        return False
    lo, hi = across[0][0], across[-1][1]
    edge = view[limit - 1 if far else 0, lo:hi]
    if not gaps:
        return False
    # An inner line's colour (the gap before the last cells), and the page beyond the
    # opposite end of the board.
    k = len(spans) - 1 if far else 1
    line = view[(spans[k - 1][1] + spans[k][0]) // 2, lo:hi]
    outside = spans[0][0] - thickest - 2 if far else spans[-1][1] + thickest + 1
    if not 0 <= outside < limit:
        return True  # no page on either side: nothing says the board ends here
    page = view[outside, lo:hi]
    level = float(np.median(edge))
    if abs(level - float(np.median(line))) < abs(level - float(np.median(page))):
        return True
    # A frame drawn round the other end but not this one: the last line here is an
    # inner line (thinner or fainter than that frame), and the board goes on.
    cells = float(np.median(view[spans[-1][0]:spans[-1][1], lo:hi]))
    if far:
        frame = view[max(0, spans[0][0] - thickest - 1):spans[0][0], lo:hi]
        last = view[spans[-1][1]:limit, lo:hi]
    else:
        frame = view[spans[-1][1]:spans[-1][1] + thickest + 1, lo:hi][::-1]
        last = view[:spans[0][0], lo:hi]
    frame_width, frame_strength = _line_profile(frame, cells)
    width, strength = _line_profile(last, cells)
    return frame_strength > 20 and (width < frame_width or strength < 0.75 * frame_strength)


def _line_profile(rows: np.ndarray, cells: float) -> tuple[int, float]:
    """How many rows of a line run stand out from the cells' colour, and how far."""
    if not rows.size:
        return 0, 0.0
    departure = np.abs(np.median(rows, axis=1) - cells)
    strength = float(departure.max())
    return int((departure > strength / 2).sum()), strength
