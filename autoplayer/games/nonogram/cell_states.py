"""What each cell of a nonogram board shows: filled, marked empty, or undecided.

Read from the middle of every cell against the clue ink and its ground
(whichever way the theme runs), robust to hover tints and a pointer over a
few cells.
"""

from __future__ import annotations

import numpy as np

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import luminance


def read_cells(image: np.ndarray, grid: Grid, layout: ClueLayout) -> np.ndarray:
    """What each cell shows, robust to hover tints and a pointer over a few cells.

    FILLED: the cell's middle is nearer the clue ink than the clue ground. EMPTY (marked): a small
    point-symmetric mark (a cross, a dot) in the middle, or, when the board
    shows two flat non-ink colours far apart, the one further from the ink.
    Everything else is UNKNOWN.
    """
    lum = luminance(image)
    h, w = grid.height, grid.width
    # Every cell's middle (a fifth of the cell in from each side) as one (h, w, k, k) block.
    side = min(min(b - a for a, b in grid.xs), min(b - a for a, b in grid.ys))
    inset = max(1, side // 5)
    k = max(1, side - 2 * inset)
    ys = np.array([a + inset for a, _ in grid.ys])[:, None] + np.arange(k)
    xs = np.array([a + inset for a, _ in grid.xs])[:, None] + np.arange(k)
    patches = lum[ys[:, None, :, None], xs[None, :, None, :]]
    flat_patches = patches.reshape(h, w, k * k)
    medians = np.median(flat_patches, axis=2)
    contrast = (abs(layout.paper_level - layout.ink_level)
                if layout.ink_level is not None and layout.paper_level is not None else 240.0)
    # A mark departs from its cell by a good share of the theme's contrast (dim marks
    # on a dark board included).
    off = np.abs(patches - medians[:, :, None, None]) > max(20.0, 0.18 * contrast)
    share = off.mean(axis=(2, 3))
    candidates = (share >= 0.03) & (share <= 0.6)
    symmetric = np.zeros((h, w))
    for r, c in np.argwhere(candidates):
        symmetric[r, c] = _point_symmetry(off[r, c])
    marked = candidates & (symmetric > 0.6)
    ink_level = layout.ink_level if layout.ink_level is not None else (
        0.0 if layout.dark else 255.0)
    paper = layout.paper_level if layout.paper_level is not None else (
        255.0 - ink_level)
    if abs(paper - ink_level) < 40:  # no usable clue contrast: fall back to the extremes
        ink_level, paper = (0.0, 255.0) if layout.dark else (255.0, 0.0)
    # Filled cells take a colour of their own, nearer the clue ink than the clue ground
    # is: darker than empty cells in a light theme, often lighter in a dark one.
    filled = np.abs(medians - ink_level) < np.abs(medians - paper)
    state = np.full((h, w), UNKNOWN, np.int8)
    state[filled] = FILLED
    flat = ~filled & ~marked
    if flat.any():
        levels = medians[flat]
        far = levels.max() if layout.dark else levels.min()
        near = levels.min() if layout.dark else levels.max()
        if abs(far - near) > 80:
            mid = (far + near) / 2
            away = (medians > mid) if layout.dark else (medians < mid)
            state[flat & away] = EMPTY
    state[marked & ~filled] = EMPTY
    return state


def _point_symmetry(off: np.ndarray) -> float:
    """Share of a mark's pixels that have a partner turned half a turn about the mark's
    own centre: a cross or a dot sits near the middle of
    the sampled patch, not always exactly on it. Ink centred well away from the
    middle (a pointer's tip) is no mark."""
    ys, xs = np.nonzero(off)
    if ys.size == 0:
        return 0.0
    if (abs(ys.mean() - (off.shape[0] - 1) / 2) > 0.2 * off.shape[0]
            or abs(xs.mean() - (off.shape[1] - 1) / 2) > 0.2 * off.shape[1]):
        return 0.0
    ty = np.rint(2 * ys.mean() - ys).astype(int)
    tx = np.rint(2 * xs.mean() - xs).astype(int)
    inside = (ty >= 0) & (ty < off.shape[0]) & (tx >= 0) & (tx < off.shape[1])
    hit = np.zeros(ys.size, bool)
    hit[inside] = off[ty[inside], tx[inside]]
    return float(hit.mean())
