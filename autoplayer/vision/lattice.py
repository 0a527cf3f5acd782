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

from collections.abc import Callable, Iterator

import cv2
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
    ruled_block,
)
from autoplayer.vision.grid import MIN_SIDE, MIN_TILE_SIDE, Grid
from autoplayer.vision.image import luminance
from autoplayer.vision.patches import square_patches


def _cluster_positions(lo: np.ndarray, hi: np.ndarray, tol: float) -> list[tuple[int, int, int]]:
    """Group patch ranges by centre; each group gives (median start, median end, count)."""
    order = np.argsort(lo + hi)
    if not order.size:
        return []
    centres = (lo[order] + hi[order]) / 2
    starts = np.concatenate(([0], np.flatnonzero(np.diff(centres) > tol) + 1))
    counts = np.diff(np.append(starts, order.size))
    group = np.repeat(np.arange(starts.size), counts)
    # Each group's medians at once: its values sorted within it, the middle one (or the
    # mean of the middle two) picked as np.median would.
    def medians(values: np.ndarray) -> list[int]:
        v = values[order]
        v = v[np.lexsort((v, group))].astype(np.float64)
        low, high = v[starts + (counts - 1) // 2], v[starts + counts // 2]
        return [int(m) for m in (low + high) / 2]
    return list(zip(medians(lo), medians(hi), counts.tolist(), strict=True))


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
            # A new run starts at the group before: a stray group just before a board
            # (a toolbar's row) must not take the board's first line with it.
            if size * 1.02 < step < size * 1.9:
                current, pitch = [groups[i - 1][:2], groups[i][:2]], step
            else:
                current, pitch = [groups[i][:2]], None
    if len(current) > len(best):
        best = current
    return best


def find_grid(image: np.ndarray, *, tiles: bool = False) -> Grid:
    """Locate the board; raises InputError (naming the image region) when none is plausible.

    `tiles`: the board is a sliding puzzle's: cells hold big numbers, one
    lattice position is a gap, and there are no clue boxes to trim.
    The board is the lattice with the most cells; `find_lattices` gives every
    candidate, for a reader that can tell its puzzle by what lies around it.
    """
    best: Grid | None = None
    for _, sel, make in _size_classes(image, tiles):
        grid = make(sel)
        if grid is not None and (best is None or _cells(grid) > _cells(best)):
            best = grid
    if best is None:
        h_img, w_img = image.shape[:2]
        raise InputError("no plausible grid of square cells found", region=(0, 0, w_img, h_img))
    return best


def find_lattices(image: np.ndarray, *, tiles: bool = False) -> list[Grid]:
    """Every plausible lattice of square cells in view, most cells first (the first is
    `find_grid`'s board); raises InputError as `find_grid` does when there is none.

    Several ruled regions may be in view (a menu panel of boxes above the board, a
    toolbar, a preview): each group of cell patches standing apart from the rest
    gives a lattice of its own, besides the one all patches of a size give together.
    A lattice lying along the lines of a larger one, inside it, is part of it and
    not listed. Which lattice is the puzzle is the reader's to say, by what lies
    around each (clue numbers lined up with its lines, numbers in its cells).
    """
    found: list[Grid] = []
    for size, sel, make in _size_classes(image, tiles):
        grids = [make(sel)]
        groups = _apart(sel, size)
        if len(groups) > 1:
            least = _least(tiles)
            grids += [make(sel[g]) for g in groups if len(g) >= least]
        for grid in grids:
            if grid is not None and grid not in found:
                found.append(grid)
    if not found:
        h_img, w_img = image.shape[:2]
        raise InputError("no plausible grid of square cells found", region=(0, 0, w_img, h_img))
    found.sort(key=lambda g: -_cells(g))
    return [g for i, g in enumerate(found) if not any(_part_of(g, big) for big in found[:i])]


def _cells(grid: Grid) -> int:
    return grid.width * grid.height


def _least(tiles: bool) -> int:
    side = MIN_TILE_SIDE if tiles else MIN_SIDE
    return side * side - (1 if tiles else 0)


def _size_classes(image: np.ndarray, tiles: bool
                  ) -> Iterator[tuple[float, np.ndarray, Callable[[np.ndarray], Grid | None]]]:
    """(cell size, its patches, the lattice maker) for each size the patches come in, most
    common first; raises InputError when there are too few patches for any board."""
    h_img, w_img = image.shape[:2]
    boxes = square_patches(image, content=tiles)
    side = MIN_TILE_SIDE if tiles else MIN_SIDE
    least = _least(tiles)
    if len(boxes) < least:
        raise InputError("no grid of square cells found", region=(0, 0, w_img, h_img))
    sides = np.maximum(boxes[:, 2], boxes[:, 3])
    lum: np.ndarray | None = None  # made once, when a lattice is first tried
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

        def make(part: np.ndarray, size: float = float(size), lum: np.ndarray = lum
                 ) -> Grid | None:
            return _lattice(part, size, image, lum, clue_boxes=not tiles, min_side=side)

        yield float(size), sel, make


APART = 2.5
"""Cell patches further apart than this many cell sizes (centre to centre, along both
axes) with none between belong to separate lattices; a missing cell (a filled one drawn
without lines) leaves a gap of two pitches, which stays bridged."""


def _apart(sel: np.ndarray, size: float) -> list[np.ndarray]:
    """Indices of `sel` in groups standing apart from each other (see APART)."""
    q = max(1.0, size / 2)
    cx = ((sel[:, 0] + sel[:, 2] / 2) / q).astype(int)
    cy = ((sel[:, 1] + sel[:, 3] / 2) / q).astype(int)
    # Squares of k units round each centre touch when centres are k units apart or less.
    k = max(1, round(APART * size / q))
    mask = np.zeros((int(cy.max()) + 2 * k + 2, int(cx.max()) + 2 * k + 2), np.uint8)
    mask[cy + k, cx + k] = 1
    mask = cv2.dilate(mask, np.ones((k, k), np.uint8))
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    ids = labels[cy + k, cx + k]
    return [np.flatnonzero(ids == i) for i in np.unique(ids)]


def _part_of(small: Grid, big: Grid) -> bool:
    """Whether `small` lies inside `big` along its lines (a piece of the same lattice)."""
    def along(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
        starts = np.array([s for s, _ in b])
        tol = max(2.0, 0.2 * (b[1][0] - b[0][0] if len(b) > 1 else b[0][1] - b[0][0]))
        return all(np.abs(starts - s).min() <= tol for s, _ in a)
    return along(small.xs, big.xs) and along(small.ys, big.ys)


def _lattice(sel: np.ndarray, size: float, image: np.ndarray, lum: np.ndarray,
             clue_boxes: bool = True,
             min_side: int = MIN_SIDE) -> Grid | None:
    x, y, w, h = sel.T
    tol = size * 0.5
    cols = _regular_run(_cluster_positions(x, x + w, tol), size)
    rows = _regular_run(_cluster_positions(y, y + h, tol), size)
    if len(cols) < min_side or len(rows) < min_side:
        return None
    # Patches of a near size off the lattice's rows (a toolbar's buttons above the board)
    # fall between its columns and break their run: columns are counted again among the
    # patches on its rows alone, and rows among those on its columns.
    on_rows = (y + h / 2 >= rows[0][0]) & (y + h / 2 <= rows[-1][1])
    on_cols = (x + w / 2 >= cols[0][0]) & (x + w / 2 <= cols[-1][1])
    if not on_rows.all() or not on_cols.all():
        again = (_regular_run(_cluster_positions(x[on_rows], (x + w)[on_rows], tol), size),
                 _regular_run(_cluster_positions(y[on_cols], (y + h)[on_cols], tol), size))
        if min(len(again[0]), len(again[1])) >= min_side:
            cols, rows = again
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
        top, bottom, left, right = clue_box_corners(
            ~blank, blank, lambda rs, cs: ruled_block(lum, cols, rows, rs, cs))
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
