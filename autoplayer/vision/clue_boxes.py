"""Clue boxes drawn like the board's cells, told apart from the board and dropped.

Some games draw each clue number in a box at the cell pitch, so the boxes join
the board's lattice. They give themselves away by a blank corner between the
two bands, a colour of their own down a whole line of boxes, or numbers (not
one repeated mark) in nearly every box of the line next to the board.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autoplayer.vision.grid import MIN_SIDE
from autoplayer.vision.patches import EDGE_STEP


def leading_odd(image: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]],
                axis: str) -> int:
    """How many leading columns (or rows) are clue boxes rather than board cells.

    Clue boxes drawn at the cell pitch line up with the board, but are filled
    with a colour of their own, the same down a whole column of boxes; board
    columns share the cell colour (filled cells aside: the median is taken).
    """
    cx = np.array([(a + b) // 2 for a, b in cols])
    cy = np.array([(a + b) // 2 for a, b in rows])
    centres = image[cy[:, None], cx[None, :], :3].astype(int)  # rows × cols × 3
    lines = centres.transpose(1, 0, 2) if axis == "x" else centres
    medians = np.median(lines, axis=1)  # one colour per column (or row)
    board = np.median(medians[len(medians) // 2:], axis=0)
    # Dark themes tint clue boxes only slightly: any steady difference counts, as the
    # board's frame must then set the boxes apart (below).
    k = 0
    while k < len(medians) // 2 and np.abs(medians[k] - board).max() > 2:
        k += 1
    if k == 0:
        return 0
    # A row (column) of filled cells is odd-coloured too, but its colour shows up
    # in cells further in, and it sits behind an ordinary grid line where the
    # board's frame sets clue boxes apart.
    # (Only the far half across is looked at: the near half may hold the other
    # band's clue boxes.)
    inner = (centres[centres.shape[0] // 2:, k:] if axis == "x"
             else centres[k:, centres.shape[1] // 2:]).reshape(-1, 3)
    if any((np.abs(inner - medians[i]).max(axis=1) <= 2).any() for i in range(k)):
        return 0
    spans = cols if axis == "x" else rows
    gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
    usual = float(np.median(gaps))
    return k if gaps[k - 1] > usual + 0.5 else 0


def occupancy(sel: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]]
              ) -> np.ndarray:
    """Which lattice positions hold a patch (rows × columns)."""
    cx = np.array([(a + b) / 2 for a, b in cols])
    cy = np.array([(a + b) / 2 for a, b in rows])
    occ = np.zeros((len(rows), len(cols)), bool)
    x, y, w, h = sel.T
    r = np.searchsorted((cy[1:] + cy[:-1]) / 2, y + h / 2)
    c = np.searchsorted((cx[1:] + cx[:-1]) / 2, x + w / 2)
    occ[r, c] = True
    return occ


def flat_cells(lum: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]]
               ) -> np.ndarray:
    """Which lattice positions (rows × columns) have a flat middle: nothing drawn there."""
    side = min(min(b - a for a, b in cols), min(b - a for a, b in rows))
    inset = max(1, side // 5)
    k = max(1, side - 2 * inset)
    ys = np.array([a + inset for a, _ in rows])[:, None] + np.arange(k)
    xs = np.array([a + inset for a, _ in cols])[:, None] + np.arange(k)
    ys, xs = np.clip(ys, 0, lum.shape[0] - 1), np.clip(xs, 0, lum.shape[1] - 1)
    patches = lum[ys[:, None, :, None], xs[None, :, None, :]]
    return (patches.max(axis=(2, 3)) - patches.min(axis=(2, 3))) <= EDGE_STEP


CLUE_LINE = 0.6
"""Share of its boxes holding something for a line at the lattice's edge to be clue boxes."""


def drop_clue_lines(lum: np.ndarray, cols: list[tuple[int, int]],
                    rows: list[tuple[int, int]], flat: np.ndarray
                    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Drop clue boxes drawn like grid cells beside a board, told apart by what they hold.

    With no blank corner to go by (the other band's clues stand free), the boxes
    of one band join the board's lattice. Every line's clue has a number next to
    the board, so the box line there holds something in nearly every box, and so
    may the lines beyond it, while a fresh board's cells hold nothing. Marks on a
    board in play are all one shape; numbers are not. `flat`: `flat_cells` of the lattice.
    """
    if len(cols) < 2 * MIN_SIDE and len(rows) < 2 * MIN_SIDE:
        return cols, rows
    held = ~flat
    for axis in ("x", "y"):
        spans = cols if axis == "x" else rows
        share = held.mean(axis=0) if axis == "x" else held.mean(axis=1)
        dense = np.flatnonzero(share >= CLUE_LINE)
        if dense.size == 0:
            continue
        n = len(spans)
        first, last = int(dense.min()), int(dense.max())
        # The dense line nearest the board; every line beyond it to the edge holds some.
        cut = None
        some, sparse = share > 0, share < CLUE_LINE
        if last < n - MIN_SIDE and some[:last + 1].all() and sparse[last + 1:].all():
            cut = ("lead", last + 1)
        elif first >= MIN_SIDE and some[first:].all() and sparse[:first].all():
            cut = ("trail", first)
        if cut is None:
            continue
        # What the lines to be dropped hold: numbers differ (a line of clues may be all
        # ones, the next one out not), a board's marks are one shape.
        dropped = range(0, cut[1]) if cut[0] == "lead" else range(cut[1], n)
        holding = [_cell(lum, cols[line], rows[k]) if axis == "x"
                   else _cell(lum, cols[k], rows[line]) for line in dropped
                   for k in np.flatnonzero(held[:, line] if axis == "x" else held[line])]
        if _one_shape(holding):
            continue
        if axis == "x":
            cols = cols[cut[1]:] if cut[0] == "lead" else cols[:cut[1]]
            held = held[:, cut[1]:] if cut[0] == "lead" else held[:, :cut[1]]
        else:
            rows = rows[cut[1]:] if cut[0] == "lead" else rows[:cut[1]]
            held = held[cut[1]:] if cut[0] == "lead" else held[:cut[1]]
    return cols, rows


def _cell(lum: np.ndarray, xs: tuple[int, int], ys: tuple[int, int]) -> np.ndarray:
    return lum[ys[0]:ys[1], xs[0]:xs[1]]


def _one_shape(cells: list[np.ndarray]) -> bool:
    """Whether most of these cell pictures show the same thing (a mark, not numbers)."""
    if len(cells) < 2:
        return True
    h = min(c.shape[0] for c in cells)
    w = min(c.shape[1] for c in cells)
    shapes = [c[:h, :w] < (float(c.max()) + float(c.min())) / 2 for c in cells]
    same = sum(float((s == shapes[0]).mean()) >= 0.95 for s in shapes[1:])
    return same >= 0.7 * (len(shapes) - 1)


def clue_box_corners(boxed: np.ndarray, blank: np.ndarray,
                     ruled: Callable[[slice, slice], bool] | None = None
                     ) -> tuple[int, int, int, int]:
    """Lines of clue boxes to drop at the (top, bottom, left, right) of the lattice.

    Clue boxes drawn like grid cells extend the lattice on the clue sides, leaving
    the corner between the two bands `blank` (nothing drawn: no box, no mark),
    while every other position is `boxed` (a cell, or a box holding a digit). The
    corner may lie at any of the lattice's four corners; the board lies across
    from it. Its own far edges may be open (no frame), so they are not counted.
    `ruled(rows, columns)`: whether grid lines run through that block of the lattice. A
    frameless board's open edge line is blank beside the clue boxes as a corner is, but
    the board's lines run on through it, and through no corner between two bands.
    """
    for flip_rows, flip_cols in ((False, False), (False, True), (True, False), (True, True)):
        rs = slice(None, None, -1 if flip_rows else 1)
        cs = slice(None, None, -1 if flip_cols else 1)
        top, left = _blank_corner(boxed[rs, cs], blank[rs, cs])
        n, m = boxed.shape
        block = (slice(n - top, n) if flip_rows else slice(0, top),
                 slice(m - left, m) if flip_cols else slice(0, left))
        if (top or left) and ruled is not None and ruled(*block):
            continue
        if top or left:
            return (0, top, 0, left) if flip_rows and flip_cols else (
                (0, top, left, 0) if flip_rows else (top, 0, 0, left) if flip_cols
                else (top, 0, left, 0))
    return 0, 0, 0, 0


def ruled_block(lum: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]],
                rs: slice, cs: slice) -> bool:
    """Whether lattice lines run through the block (rows `rs`, columns `cs`) of the lattice:
    most of the lines between its own rows (columns) step off the cells on both sides
    along nearly their whole length."""
    ruled = total = 0
    for spans, across, inner, view in ((rows, cols, rs, lum), (cols, rows, cs, lum.T)):
        block = range(len(spans))[inner]
        outer = [across[i] for i in range(len(across))[cs if view is lum else rs]]
        if not outer:
            continue
        ks = np.concatenate([np.arange(a + (b - a) // 5, b - (b - a) // 5) for a, b in outer])
        for i in block[:-1]:
            (_, end), (start, _) = spans[i], spans[i + 1]
            mid = (end + start) // 2
            line = view[mid, ks].astype(np.float32)
            step = np.minimum(np.abs(line - view[max(0, end - 2), ks]),
                              np.abs(line - view[min(view.shape[0] - 1, start + 1), ks]))
            ruled += int((step > EDGE_STEP).mean() >= 0.9)
            total += 1
    return total > 0 and ruled > total / 2


def _blank_corner(boxed: np.ndarray, blank: np.ndarray) -> tuple[int, int]:
    """(rows, columns) of a blank block at the top left with boxes right of and below it
    and the board across from it (see `clue_box_corners`); (0, 0) when there is none."""
    first_in_row0 = np.flatnonzero(boxed[0])
    first_in_col0 = np.flatnonzero(boxed[:, 0])
    if first_in_row0.size == 0 or first_in_col0.size == 0:
        return 0, 0
    left, top = int(first_in_row0[0]), int(first_in_col0[0])
    if left < 1 or top < 1 or not blank[:top, :left].all():
        return 0, 0
    # The board across from it has lines enough: a frameless board's open edge line (its
    # cells melt into the page) is blank beside the boxes too, but leaves too little.
    if boxed.shape[0] - top < MIN_SIDE or boxed.shape[1] - left < MIN_SIDE:
        return 0, 0
    board = boxed[top:-1, left:-1] if boxed.shape[0] - top > 1 and boxed.shape[1] - left > 1 \
        else boxed[top:, left:]
    if board.size == 0 or board.mean() < 0.9 or not boxed[top:, :left].all() \
            or not boxed[:top, left:].all():
        return 0, 0
    return top, left


def clue_box_corner(occupied: np.ndarray) -> tuple[int, int]:
    """Rows and columns of clue boxes to drop when clues are drawn in boxes at the cell pitch.

    Boxed clues extend the lattice up and left of the board, leaving its
    top-left corner empty: an empty block of at least 2×2 there, with the rest
    nearly full, marks where the board starts.
    """
    first_in_row0 = np.flatnonzero(occupied[0])
    first_in_col0 = np.flatnonzero(occupied[:, 0])
    if first_in_row0.size == 0 or first_in_col0.size == 0:
        return 0, 0
    left, top = int(first_in_row0[0]), int(first_in_col0[0])
    if left < 2 or top < 2:
        return 0, 0
    if occupied[:top, :left].mean() > 0.05 or occupied[top:, left:].mean() < 0.9:
        return 0, 0
    # A clue box holding a digit is no flat patch: when the first board rows' clues
    # fill every box of the row band, column 0 starts lower than the board does. Board
    # lines above it show every cell, while the clue line next to the board holds a
    # digit in every column that has a clue, so the board extends up (left) to it.
    while top > 2 and occupied[top - 1, left:].all():
        top -= 1
    while left > 2 and occupied[top:, left - 1].all():
        left -= 1
    return top, left
