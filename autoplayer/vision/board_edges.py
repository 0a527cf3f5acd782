"""Lines of cells at a board's edges that show no cell patch, found and added.

Two looks hide a board's outermost lines from the patch finder: a board drawn
without an outer frame (its edge cells melt into the page) and a game drawing
filled cells without lines between them (a fully filled edge line melts into
the frame). Each is looked for one pitch beyond the lattice found.
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.patches import EDGE_STEP, MIN_CELL


def extend_open_edges(lum: np.ndarray, cols: list[tuple[int, int]],
                      rows: list[tuple[int, int]]
                      ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Add the rows and columns of a board drawn without an outer frame.

    Its outermost cells are closed by lines on three sides only and melt into
    the page, so no cell patch shows there. One pitch beyond an edge that is no
    thicker than an inner line, a line of cells is there when the inner grid
    lines run on across it and its cells are flat (a clue band beside the board
    holds a number in nearly every cell; the page holds no lines).
    """
    for _ in range(2):  # a frameless board gains at most one line per side
        grown = False
        for axis in ("y", "x"):
            spans, across = (rows, cols) if axis == "y" else (cols, rows)
            for end in (0, -1):
                new = _open_line(lum, spans, across, axis, end)
                if new is not None:
                    spans.insert(0, new) if end == 0 else spans.append(new)
                    grown = True
        if not grown:
            break
    return cols, rows


def _open_line(lum: np.ndarray, spans: list[tuple[int, int]], across: list[tuple[int, int]],
               axis: str, end: int) -> tuple[int, int] | None:
    """The span of a cell line beyond `spans[end]` (rows when axis is 'y'), or None."""
    if len(spans) < 2 or len(across) < 2:
        return None
    limit = lum.shape[0] if axis == "y" else lum.shape[1]
    pitch = round((spans[-1][0] - spans[0][0]) / (len(spans) - 1))
    gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
    usual = float(np.median(gaps))
    a, b = spans[end]
    new = (a - pitch, b - pitch) if end == 0 else (a + pitch, b + pitch)
    if new[0] < 0 or new[1] > limit or new[1] - new[0] < MIN_CELL:
        return None
    view = lum if axis == "y" else lum.T  # rows of `view` run along the line sought
    # The edge line between the board and the new line: no thicker than an inner one.
    mids = np.array([(p + q) // 2 for p, q in across])
    if end == 0:
        cell, beyond = view[a, mids], view[new[0]:a, mids][::-1]
    else:
        cell, beyond = view[b - 1, mids], view[b:new[1], mids]
    differs = np.abs(beyond - cell) > EDGE_STEP
    thickness = np.where(differs.all(axis=0), len(differs), np.argmin(differs, axis=0))
    if float(np.median(thickness)) > round(usual) + 1:
        return None
    # Inner lines across run through the new line's cells (its middle four fifths).
    inset = max(1, (new[1] - new[0]) // 10)
    part = view[new[0] + inset:new[1] - inset]
    inner = [((across[i - 1][1] + across[i][0]) // 2, across[i - 1][1] - 2, across[i][0] + 1)
             for i in range(1, len(across))]
    on = np.array([x for x, _, _ in inner])
    left = np.clip([p for _, p, _ in inner], 0, view.shape[1] - 1)
    right = np.clip([q for _, _, q in inner], 0, view.shape[1] - 1)
    line = part[:, on]
    step = np.minimum(np.abs(line - part[:, left]), np.abs(line - part[:, right]))
    if ((step > EDGE_STEP).mean(axis=0) >= 0.9).mean() < 0.8:
        return None
    # Its cells are flat: nothing drawn in them.
    flat = 0
    for p, q in across:
        k = max(1, (q - p) // 5)
        cell = part[:, p + k:q - k]
        if cell.size and float(cell.max() - cell.min()) <= 2 * EDGE_STEP:
            flat += 1
    return new if flat >= 0.8 * len(across) else None


def extend_full_lines(image: np.ndarray, cols: list[tuple[int, int]],
                      rows: list[tuple[int, int]]
                      ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Add rows and columns at the board's edges that are filled from end to end.

    Some games draw filled cells without grid lines between them, so a fully
    filled edge line melts into the board's frame and shows no cell patches.
    One pitch beyond the edge, a line whose every cell has the colour of filled
    cells seen inside the board is taken as part of it.
    """
    h_img, w_img = image.shape[:2]
    # Sample each cell a fifth of the way down its middle: clear of centred marks (a
    # cross, a dot) that would otherwise pass for a colour of their own.
    cx = np.array([(a + b) // 2 for a, b in cols])
    ty = np.array([a + (b - a) // 5 for a, b in rows])
    samples = image[ty[:, None], cx[None, :], :3].astype(int).reshape(-1, 3)
    colours, counts = np.unique(samples, axis=0, return_counts=True)
    empty = colours[np.argmax(counts)]
    filled = [c for c in colours if np.abs(c - empty).max() > 60]
    if not filled:
        return cols, rows

    def is_filled(pixels: np.ndarray) -> bool:
        return all(any(np.abs(p - f).max() <= 10 for f in filled) for p in pixels.astype(int))

    def line_at(axis: str, mid: int) -> np.ndarray:
        if axis == "y":
            return image[mid, [(a + b) // 2 for a, b in cols], :3]
        return image[[(a + b) // 2 for a, b in rows], mid, :3]

    for axis in ("y", "x"):
        spans = rows if axis == "y" else cols
        limit = h_img if axis == "y" else w_img
        p = round((spans[-1][0] - spans[0][0]) / max(1, len(spans) - 1))
        for end in (0, -1):
            a, b = spans[end]
            d = -p if end == 0 else p
            mid, beyond = (a + b) // 2 + d, (a + b) // 2 + 2 * d
            if not 0 <= mid < limit:
                continue
            line = line_at(axis, mid)
            if not is_filled(line):
                continue
            # Beyond a melted line lies the clue area, not more of the same colour.
            if 0 <= beyond < limit and (np.abs(line_at(axis, beyond).astype(int)
                                               - line.astype(int)).max(axis=1) <= 10).mean() > 0.5:
                continue
            if end == 0:
                spans.insert(0, (a - p, b - p))
            else:
                spans.append((a + p, b + p))
    return cols, rows
