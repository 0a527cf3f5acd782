"""Flat, near-square patches of a picture: the candidates for a board's cells.

An edge map (any colour step between neighbouring pixels) cuts the picture
into patches; those of cell size and near-square shape are what a lattice of
cells is looked for among (`autoplayer.vision.lattice`).
"""

from __future__ import annotations

import cv2
import numpy as np

EDGE_STEP = 12
"""A colour step (0..255, any channel) that marks something drawn: flat fills and gradients
step by far less, grid lines and glyphs by far more."""
CELL_STEP = 10
"""The least colour step that separates two cell patches, a little under EDGE_STEP. A dark
theme's grid lines at 1.15:1 (and a frameless board's edge cells against such a page) step
by 11 levels; KDE Picmi's shaded cells hold steps that split them at 8 (its boards were
not found), so the margin is narrow either way."""

MIN_CELL = 7
MAX_CELL = 160


def edge_map(image: np.ndarray, step: int = EDGE_STEP) -> np.ndarray:
    """255 where a pixel differs from a 4-neighbour by more than `step` in some channel."""
    img = np.ascontiguousarray(image if image.ndim == 3 else image[..., None])
    h, w = img.shape[:2]
    if h < 2 or w < 2:  # no neighbours on one axis (and OpenCV refuses empty arrays)
        return np.zeros((h, w), np.uint8)
    channels = cv2.split(img[..., :3] if img.shape[2] > 3 else img)
    dx = np.zeros((h, w - 1), np.uint8)
    dy = np.zeros((h - 1, w), np.uint8)
    for c in channels:
        cv2.max(dx, cv2.absdiff(c[:, 1:], c[:, :-1]), dst=dx)
        cv2.max(dy, cv2.absdiff(c[1:, :], c[:-1, :]), dst=dy)
    _, dx = cv2.threshold(dx, step, 255, cv2.THRESH_BINARY)
    _, dy = cv2.threshold(dy, step, 255, cv2.THRESH_BINARY)
    edges = np.zeros((h, w), np.uint8)
    cv2.bitwise_or(edges[:, :-1], dx, dst=edges[:, :-1])
    cv2.bitwise_or(edges[:, 1:], dx, dst=edges[:, 1:])
    cv2.bitwise_or(edges[:-1, :], dy, dst=edges[:-1, :])
    cv2.bitwise_or(edges[1:, :], dy, dst=edges[1:, :])
    return edges


def square_patches(image: np.ndarray, content: bool = False) -> np.ndarray:
    """Bounding boxes (x, y, w, h) of flat, filled, near-square patches.

    With `content`, a patch may hold big glyphs (a sliding puzzle's tile
    numbers take a quarter of it): it counts when its outline is closed.
    """
    if min(image.shape[:2]) < MIN_CELL:  # no room for a cell
        return np.zeros((0, 4), np.int32)
    edges = edge_map(image, CELL_STEP)
    if content:  # a patch with content is judged by its labels too
        _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges),
                                                               connectivity=4)
    else:
        stats = flat_stats(edges)
    _, _, w, h, area = stats.T
    side = np.maximum(w, h)
    shaped = (
        (w >= MIN_CELL) & (h >= MIN_CELL) & (side <= MAX_CELL)
        & (np.abs(w - h) <= np.maximum(2, side * 0.15))
    )
    keep = shaped & (area >= 0.8 * w * h)
    if content:
        for i in np.flatnonzero(shaped & ~keep & (area >= 0.5 * w * h)):
            keep[i] = _outline_share(labels, i, stats[i]) >= CLOSED_OUTLINE
    return stats[keep, :4]


def flat_stats(edges: np.ndarray) -> np.ndarray:
    """The stats `cv2.connectedComponentsWithStats` gives the flat parts of a picture
    (4-connected; row 0 the edge pixels), labelled only over the edges' bounding box and
    a pixel round it.

    A screenshot often holds the game in a blank frame. Beyond the edges' bounding box
    all is flat and joins the region holding the line of pixels just inside it, so only
    that region's area and box change; the regions and their order (by first pixel, row
    by row) are the whole picture's. Labelling the whole picture is the read's dearest
    step (15 ms for a 1920x1080 frame)."""
    h, w = edges.shape
    flat = cv2.bitwise_not(edges)
    ex, ey, ew, eh = cv2.boundingRect(edges)
    if not ew:  # no edge at all
        return cv2.connectedComponentsWithStats(flat, connectivity=4)[2]
    y0, y1 = max(0, ey - 1), min(h, ey + eh + 1)
    x0, x1 = max(0, ex - 1), min(w, ex + ew + 1)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(flat[y0:y1, x0:x1], connectivity=4)
    stats[:, 0] += x0
    stats[:, 1] += y0
    # The flat strips beyond the box, each beside one line of the box's rim (flat whole,
    # so one region): (label of that line, the strip as x0, y0, x1, y1).
    beyond = [(labels[0, 0], (0, 0, w, y0)), (labels[-1, 0], (0, y1, w, h)),
              (labels[0, 0], (0, y0, x0, y1)), (labels[0, -1], (x1, y0, w, y1))]
    for label, (a0, b0, a1, b1) in beyond:
        if a1 <= a0 or b1 <= b0:
            continue
        s = stats[label]
        left, top = min(s[0], a0), min(s[1], b0)
        right, bottom = max(s[0] + s[2], a1), max(s[1] + s[3], b1)
        s[:] = left, top, right - left, bottom - top, s[4] + (a1 - a0) * (b1 - b0)
    return stats


CLOSED_OUTLINE = 0.75
"""Share of its bounding box's border a patch with content must cover (rounded corners lose
some; an L-shaped or open region far more)."""


def _outline_share(labels: np.ndarray, i: int, stat: np.ndarray) -> float:
    x, y, w, h = (int(v) for v in stat[:4])
    box = labels[y:y + h, x:x + w] == i
    border = np.concatenate([box[0], box[-1], box[1:-1, 0], box[1:-1, -1]])
    return float(border.mean()) if border.size else 0.0
