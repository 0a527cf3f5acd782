"""What a board's cells and inner edges say about the kind of puzzle: a nonogram's cells
never hold numbers, and its lattice is never cut into rooms.

A nonogram cell shows a fill, a mark (a cross, a dot: one shape repeated) or
nothing. Cells holding glyphs the digit reader reads surely, several different
digits among them, are another puzzle's givens (a sudoku, a Ripple Effect). A
nonogram's lines are all alike, or thicker along whole lines (every fifth):
edges thicker than the rest of their own line, on several lines, are room
borders.
"""

from __future__ import annotations

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision import scanline
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import trim

SURE = 0.6
"""A glyph read with at least this confidence counts as a digit."""
DIGIT_CELLS = (3, 0.08)
"""Numbers in cells: at least this many digit cells and this share of the board's cells."""
ROOM_EDGES = 3
"""Room borders: at least this many edges thicker than their line, on two lines or more."""


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
    ground = np.median(patches.reshape(*patches.shape[:2], -1), axis=2)
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


def room_edges(lum: np.ndarray, grid: Grid) -> list[Rect]:
    """Inner edges drawn thicker than most edges of their own line (room borders)."""
    board = grid.rect
    pitch = grid.pitch
    reach = max(2, int(pitch / 4))
    out: list[Rect] = []
    for spans, across, vertical in ((grid.xs, grid.ys, True), (grid.ys, grid.xs, False)):
        # One profile per row (for vertical edges) or column: the middle half of each
        # cell's span, its median across, along the whole board.
        profiles = []
        for a0, a1 in across:
            q = (a1 - a0) // 4
            if vertical:
                block = lum[a0 + q:a1 - q, board.x:board.right]
                profiles.append(np.median(block, axis=0))
            else:
                block = lum[board.y:board.bottom, a0 + q:a1 - q]
                profiles.append(np.median(block, axis=1))
        start = board.x if vertical else board.y
        table = np.array(profiles, dtype=np.float32)
        for i in range(1, len(spans)):
            lo, hi = spans[i - 1][1], spans[i][0]
            widths = _line_widths(table, lo - start, hi - start, reach)
            usual = float(np.median(widths))
            thick = widths >= max(usual + 2, 1.6 * usual)
            if thick.all() or not thick.any():
                continue  # a whole line alike: a plain or a thick (every-5) line
            for k in np.flatnonzero(thick):
                a0, a1 = across[k]
                out.append(Rect(lo, a0, hi - lo, a1 - a0) if vertical
                           else Rect(a0, lo, a1 - a0, hi - lo))
    return out


def cut_into_rooms(lum: np.ndarray, grid: Grid) -> bool:
    """Whether thick borders run along parts of several lines (rooms), not whole lines."""
    edges = room_edges(lum, grid)
    lines = {(e.x if e.h > e.w else e.y) for e in edges}
    if len(edges) < ROOM_EDGES or len(lines) < 2:
        return False
    # Thick edges all round one cell are an outline (a hovered or selected cell), not
    # rooms: some cell must be left out by them.
    shared: set[tuple[int, int]] | None = None
    for e in edges:
        beside = set(_cells_beside(grid, e))
        shared = beside if shared is None else shared & beside
    return not shared


def _cells_beside(grid: Grid, edge: Rect) -> list[tuple[int, int]]:
    """The two cells (row, column) an inner edge lies between."""
    cx, cy = edge.x + edge.w / 2, edge.y + edge.h / 2
    col = next((i for i, (a, b) in enumerate(grid.xs) if a <= cx < b), None)
    row = next((i for i, (a, b) in enumerate(grid.ys) if a <= cy < b), None)
    if edge.h > edge.w and row is not None:  # vertical: cells left and right of it
        right = next((i for i, (a, _) in enumerate(grid.xs) if a >= cx), len(grid.xs))
        return [(row, right - 1), (row, right)]
    if col is not None:
        below = next((i for i, (a, _) in enumerate(grid.ys) if a >= cy), len(grid.ys))
        return [(below - 1, col), (below, col)]
    return []


def _line_widths(table: np.ndarray, lo: int, hi: int, reach: int) -> np.ndarray:
    """For each profile (row of `table`), how many pixels across the edge between cells
    ending at `lo` and starting at `hi` differ from both cells' own colour (by over half
    the largest such difference; 0 when that is faint or the cells differ)."""
    a = max(0, lo - reach)
    b = min(table.shape[1], hi + reach)
    if lo - a < 1 or b - hi < 1:
        return np.zeros(table.shape[0], int)
    left = np.median(table[:, a:lo], axis=1)[:, None]
    right = np.median(table[:, hi:b], axis=1)[:, None]
    window = table[:, a:b]
    apart = np.minimum(np.abs(window - left), np.abs(window - right))
    peak = apart.max(axis=1, keepdims=True)
    # Only between cells alike: beside a filled or tinted (hovered) cell the line's edge
    # blurs into the cell's colour and its width says nothing.
    alike = np.abs(left - right)[:, 0] < 25
    return np.where((peak[:, 0] >= 25) & alike, (apart > peak / 2).sum(axis=1), 0)
