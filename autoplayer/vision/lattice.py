"""Finding a board of square cells in a screenshot, with no per-game constants.

Cells are the flat patches between grid lines. An edge map (any colour step
between neighbouring pixels) cuts the picture into patches; near-square patches
of one size that line up in rows and columns form the board. Cell pitch, line
widths (thick every-5 lines included) and W×H are measured, and the result is
checked for plausibility before anyone clicks on it. Clue boxes drawn like cells
are dropped (`autoplayer.vision.clue_boxes`) and edge lines that show no patch
added (`autoplayer.vision.board_edges`).
"""

from __future__ import annotations

import numpy as np

from autoplayer.errors import InputError
from autoplayer.vision.board_edges import extend_full_lines, extend_open_edges
from autoplayer.vision.clue_boxes import (
    clue_box_corner,
    clue_box_corners,
    drop_clue_lines,
    flat_cells,
    leading_odd,
    occupancy,
)
from autoplayer.vision.grid import MIN_SIDE, MIN_TILE_SIDE, Grid
from autoplayer.vision.image import luminance
from autoplayer.vision.patches import square_patches


def _cluster_positions(lo: np.ndarray, hi: np.ndarray, tol: float) -> list[tuple[int, int, int]]:
    """Group patch ranges by centre; each group gives (median start, median end, count)."""
    order = np.argsort(lo + hi)
    groups: list[list[int]] = []
    last = None
    for i in order:
        c = (lo[i] + hi[i]) / 2
        if last is None or c - last > tol:
            groups.append([])
        groups[-1].append(i)
        last = c
    out = []
    for g in groups:
        out.append((int(np.median(lo[g])), int(np.median(hi[g])), len(g)))
    return out


def _regular_run(groups: list[tuple[int, int, int]], size: float) -> list[tuple[int, int]]:
    """The longest run of evenly spaced groups, filling single missing positions."""
    if not groups:
        return []
    centres = np.array([(a + b) / 2 for a, b, _ in groups])
    best: list[tuple[int, int]] = []
    current: list[tuple[int, int]] = [groups[0][:2]]
    pitch = None
    for i in range(1, len(groups)):
        step = centres[i] - centres[i - 1]
        if pitch is None and size * 1.02 < step < size * 1.9:
            pitch = step
        ok_pitch = pitch if pitch is not None else step
        if size * 1.02 < step < size * 1.9 and abs(step - ok_pitch) <= max(2.5, 0.2 * ok_pitch):
            current.append(groups[i][:2])
        elif pitch is not None and abs(step - 2 * pitch) <= max(3, 0.2 * pitch):
            a0, a1 = current[-1]
            b0, b1 = groups[i][:2]
            current.append(((a0 + b0) // 2, (a1 + b1) // 2))
            current.append((b0, b1))
        else:
            if len(current) > len(best):
                best = current
            current = [groups[i][:2]]
            pitch = None
    if len(current) > len(best):
        best = current
    return best


def find_grid(image: np.ndarray, *, tiles: bool = False) -> Grid:
    """Locate the board; raises InputError (naming the image region) when none is plausible.

    `tiles`: the board is a sliding puzzle's: cells hold big numbers, one
    lattice position is a gap, and there are no clue boxes to trim.
    """
    h_img, w_img = image.shape[:2]
    boxes = square_patches(image, content=tiles)
    lum: np.ndarray | None = None  # made once, when a lattice is first tried
    side = MIN_TILE_SIDE if tiles else MIN_SIDE
    least = side * side - (1 if tiles else 0)
    if len(boxes) < least:
        raise InputError("no grid of square cells found", region=(0, 0, w_img, h_img))
    sides = np.maximum(boxes[:, 2], boxes[:, 3])
    best: Grid | None = None
    best_score = 0
    values, counts = np.unique(sides, return_counts=True)
    tried: list[int] = []
    # Most common sizes first; a size near one already tried adds nothing.
    for size in values[np.argsort(-counts, kind="stable")]:
        if any(abs(size - t) <= max(2, t * 0.12) / 2 for t in tried):
            continue
        sel = boxes[np.abs(sides - size) <= max(2, size * 0.12)]
        if len(sel) < least:
            break  # every later size is rarer still
        tried.append(int(size))
        if lum is None:
            lum = luminance(image)
        grid = _lattice(sel, float(size), image, lum, clue_boxes=not tiles, min_side=side)
        if grid is None:
            continue
        score = grid.width * grid.height
        if score > best_score:
            best, best_score = grid, score
    if best is None:
        raise InputError("no plausible grid of square cells found", region=(0, 0, w_img, h_img))
    return best


def _lattice(sel: np.ndarray, size: float, image: np.ndarray, lum: np.ndarray,
             clue_boxes: bool = True,
             min_side: int = MIN_SIDE) -> Grid | None:
    x, y, w, h = sel.T
    tol = size * 0.5
    cols = _regular_run(_cluster_positions(x, x + w, tol), size)
    rows = _regular_run(_cluster_positions(y, y + h, tol), size)
    if len(cols) < min_side or len(rows) < min_side:
        return None
    # Keep only patches inside the lattice block; demand most of its cells be seen.
    x0, x1 = cols[0][0] - tol, cols[-1][1] + tol
    y0, y1 = rows[0][0] - tol, rows[-1][1] + tol
    inside = (x >= x0) & (x + w <= x1) & (y >= y0) & (y + h <= y1)
    if inside.sum() < 0.3 * len(cols) * len(rows):
        return None
    if not clue_boxes:
        return Grid(tuple(cols), tuple(rows))
    occupied = occupancy(sel[inside], cols, rows)
    top, left = clue_box_corner(occupied)
    bottom = right = 0
    if not (top or left):
        flat = flat_cells(lum, cols, rows)
        blank = flat & ~occupied
        top, bottom, left, right = clue_box_corners(~blank, blank)
    cols, rows = cols[left:len(cols) - right], rows[top:len(rows) - bottom]
    if not (top or left or bottom or right):
        cols, rows = drop_clue_lines(lum, cols, rows, flat)
    left = leading_odd(image, cols, rows, "x")
    top = leading_odd(image, cols, rows, "y")
    if len(cols) - left < MIN_SIDE or len(rows) - top < MIN_SIDE:
        return None
    cols, rows = extend_open_edges(lum, cols[left:], rows[top:])
    cols, rows = extend_full_lines(image, cols, rows)
    return Grid(tuple(cols), tuple(rows))
