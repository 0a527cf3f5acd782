"""What a board's cells say about the kind of puzzle: a nonogram's cells never hold numbers.

A nonogram cell shows a fill, a mark (a cross, a dot: one shape repeated) or
nothing. Cells holding glyphs the digit reader reads surely, several different
digits among them, are another puzzle's givens (a sudoku, a Ripple Effect).
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision import scanline
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import byte_median, trim, whole_levels

SURE = 0.6
"""A glyph read with at least this confidence counts as a digit."""
DIGIT_CELLS = (3, 0.08)
"""Numbers in cells: at least this many digit cells and this share of the board's cells."""


def numbered_cells(lum: np.ndarray, grid: Grid) -> list[tuple[int, int, int]]:
    """(row, column, digit) of each cell whose ink the digit reader reads surely as a digit.

    Only glyph-shaped ink counts: taller than wide, a third of the cell tall or more,
    not reaching the cell's sides, and not point-symmetric like a cross or a dot.
    """
    # Every cell's inside (a tenth in from each side) as one (h, w, k, k) block, to pass
    # over blank, filled and flat cells at once; only the rest are looked at singly.
    side = min(min(b - a for a, b in grid.xs), min(b - a for a, b in grid.ys))
    inset = max(1, side // 10)
    k = side - 2 * inset
    if k < 4:
        return []
    ys = np.array([a + inset for a, _ in grid.ys])[:, None] + np.arange(k)
    xs = np.array([a + inset for a, _ in grid.xs])[:, None] + np.arange(k)
    patches = lum[ys[:, None, :, None], xs[None, :, None, :]].astype(np.float32)
    flat = patches.reshape(*patches.shape[:2], -1)
    levels = whole_levels(flat)
    ground = np.median(flat, axis=2) if levels is None else byte_median(levels)
    departure = np.abs(patches - ground[:, :, None, None])
    peak = departure.max(axis=(2, 3))
    share = (departure > peak[:, :, None, None] / 2).mean(axis=(2, 3))
    out = []
    for r, c in np.argwhere((peak >= 40) & (share >= 0.03) & (share <= 0.5)):
        ink = departure[r, c] > peak[r, c] / 2
        mask, _, _ = trim(ink)
        h, w = mask.shape
        if h < side / 3 or w >= h or h >= k - 1:
            continue
        if (mask == mask[::-1, ::-1]).mean() > 0.9:
            continue  # a cross, a dot, a plus: marks look the same turned round
        ranked = scanline.recognise(mask)
        if ranked and ranked[0][1] >= SURE:
            out.append((int(r), int(c), ranked[0][0]))
    return out


def numbers_in_cells(lum: np.ndarray, grid: Grid) -> bool:
    """Whether a good share of the board's cells hold numbers (two digits at least)."""
    found = numbered_cells(lum, grid)
    least, share = DIGIT_CELLS
    return (len(found) >= max(least, share * grid.width * grid.height)
            and len({d for _, _, d in found}) >= 2)
