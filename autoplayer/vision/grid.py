"""Finding a board of square cells in a screenshot, with no per-game constants.

Cells are the flat patches between grid lines. An edge map (any colour step
between neighbouring pixels) cuts the picture into patches; near-square patches
of one size that line up in rows and columns form the board. Cell pitch, line
widths (thick every-5 lines included) and W×H are measured, and the result is
checked for plausibility before anyone clicks on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.geometry import Rect
from autoplayer.vision.image import luminance

EDGE_STEP = 12
"""A colour step (0..255, any channel) that separates two patches; flat fills and gradients
step by far less, grid lines by far more."""
MIN_CELL = 7
MAX_CELL = 160
MIN_SIDE = 3
MIN_TILE_SIDE = 2
"""Sliding puzzles come as small as 2×2 (three tiles and the gap)."""


@dataclass(frozen=True)
class Grid:
    """A located board: cell interiors as column x-ranges and row y-ranges."""

    xs: tuple[tuple[int, int], ...]
    """Half-open x-range of each column's cell interior, left to right."""
    ys: tuple[tuple[int, int], ...]
    """Half-open y-range of each row's cell interior, top to bottom."""

    @property
    def width(self) -> int:
        return len(self.xs)

    @property
    def height(self) -> int:
        return len(self.ys)

    @property
    def pitch(self) -> float:
        """Mean distance between neighbouring cells, in pixels."""
        spans = [(self.xs[-1][0] - self.xs[0][0]) / max(1, self.width - 1),
                 (self.ys[-1][0] - self.ys[0][0]) / max(1, self.height - 1)]
        return float(np.mean([s for s in spans if s > 0] or [self.xs[0][1] - self.xs[0][0]]))

    @property
    def rect(self) -> Rect:
        """The board: every cell plus half of the outer line around it."""
        gx = _half_gap(self.xs)
        gy = _half_gap(self.ys)
        x0, x1 = self.xs[0][0] - gx, self.xs[-1][1] + gx
        y0, y1 = self.ys[0][0] - gy, self.ys[-1][1] + gy
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def cell(self, row: int, col: int) -> Rect:
        (x0, x1), (y0, y1) = self.xs[col], self.ys[row]
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def thick_lines(self, axis: str = "x") -> tuple[int, ...]:
        """Indices i where the line before cell i is thicker than the usual inner line."""
        spans = self.xs if axis == "x" else self.ys
        gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
        if not gaps:
            return ()
        usual = float(np.median(gaps))
        return tuple(i for i, g in enumerate(gaps, 1) if g > usual + 0.5 and g >= usual * 1.3)


def _half_gap(spans: tuple[tuple[int, int], ...]) -> int:
    gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
    return max(1, round(float(np.median(gaps)) / 2)) if gaps else 1


def edge_map(image: np.ndarray) -> np.ndarray:
    """255 where a pixel differs from a 4-neighbour by more than EDGE_STEP in some channel."""
    img = np.ascontiguousarray(image if image.ndim == 3 else image[..., None])
    channels = cv2.split(img[..., :3] if img.shape[2] > 3 else img)
    h, w = img.shape[:2]
    dx = np.zeros((h, w - 1), np.uint8)
    dy = np.zeros((h - 1, w), np.uint8)
    for c in channels:
        cv2.max(dx, cv2.absdiff(c[:, 1:], c[:, :-1]), dst=dx)
        cv2.max(dy, cv2.absdiff(c[1:, :], c[:-1, :]), dst=dy)
    _, dx = cv2.threshold(dx, EDGE_STEP, 255, cv2.THRESH_BINARY)
    _, dy = cv2.threshold(dy, EDGE_STEP, 255, cv2.THRESH_BINARY)
    edges = np.zeros((h, w), np.uint8)
    cv2.bitwise_or(edges[:, :-1], dx, dst=edges[:, :-1])
    cv2.bitwise_or(edges[:, 1:], dx, dst=edges[:, 1:])
    cv2.bitwise_or(edges[:-1, :], dy, dst=edges[:-1, :])
    cv2.bitwise_or(edges[1:, :], dy, dst=edges[1:, :])
    return edges


def _square_patches(image: np.ndarray, content: bool = False) -> np.ndarray:
    """Bounding boxes (x, y, w, h) of flat, filled, near-square patches.

    With `content`, a patch may hold big glyphs (a sliding puzzle's tile
    numbers take a quarter of it): it counts when its outline is closed.
    """
    flat = cv2.bitwise_not(edge_map(image))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
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


CLOSED_OUTLINE = 0.75
"""Share of its bounding box's border a patch with content must cover (rounded corners lose
some; an L-shaped or open region far more)."""


def _outline_share(labels: np.ndarray, i: int, stat: np.ndarray) -> float:
    x, y, w, h = (int(v) for v in stat[:4])
    box = labels[y:y + h, x:x + w] == i
    border = np.concatenate([box[0], box[-1], box[1:-1, 0], box[1:-1, -1]])
    return float(border.mean()) if border.size else 0.0


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
    boxes = _square_patches(image, content=tiles)
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
    occupied = _occupancy(sel[inside], cols, rows)
    top, left = _clue_box_corner(occupied)
    bottom = right = 0
    if not (top or left):
        flat = _flat(lum, cols, rows)
        blank = flat & ~occupied
        top, bottom, left, right = _clue_box_corners(~blank, blank)
    cols, rows = cols[left:len(cols) - right], rows[top:len(rows) - bottom]
    if not (top or left or bottom or right):
        cols, rows = _drop_clue_lines(lum, cols, rows, flat)
    left = _leading_odd(image, cols, rows, "x")
    top = _leading_odd(image, cols, rows, "y")
    if len(cols) - left < MIN_SIDE or len(rows) - top < MIN_SIDE:
        return None
    cols, rows = _extend_open_edges(lum, cols[left:], rows[top:])
    cols, rows = _extend_full_lines(image, cols, rows)
    return Grid(tuple(cols), tuple(rows))


def _extend_open_edges(lum: np.ndarray, cols: list[tuple[int, int]],
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


def _extend_full_lines(image: np.ndarray, cols: list[tuple[int, int]],
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


def _leading_odd(image: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]],
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


def _occupancy(sel: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]]
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


def _flat(lum: np.ndarray, cols: list[tuple[int, int]], rows: list[tuple[int, int]]
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


def _drop_clue_lines(lum: np.ndarray, cols: list[tuple[int, int]],
                     rows: list[tuple[int, int]], flat: np.ndarray
                     ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Drop clue boxes drawn like grid cells beside a board, told apart by what they hold.

    With no blank corner to go by (the other band's clues stand free), the boxes
    of one band join the board's lattice. Every line's clue has a number next to
    the board, so the box line there holds something in nearly every box, and so
    may the lines beyond it, while a fresh board's cells hold nothing. Marks on a
    board in play are all one shape; numbers are not. `flat`: `_flat` of the lattice.
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
        line = last if cut[0] == "lead" else first
        cells = [_cell(lum, cols[line], r) if axis == "x" else _cell(lum, c, rows[line])
                 for r, c in zip(rows if axis == "x" else [rows[line]] * len(cols),
                                 [cols[line]] * len(rows) if axis == "x" else cols, strict=True)]
        holding = [c for c, h in zip(cells, held[:, line] if axis == "x" else held[line],
                                     strict=True) if h]
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


def _clue_box_corners(boxed: np.ndarray, blank: np.ndarray) -> tuple[int, int, int, int]:
    """Lines of clue boxes to drop at the (top, bottom, left, right) of the lattice.

    Clue boxes drawn like grid cells extend the lattice on the clue sides, leaving
    the corner between the two bands `blank` (nothing drawn: no box, no mark),
    while every other position is `boxed` (a cell, or a box holding a digit). The
    corner may lie at any of the lattice's four corners; the board lies across
    from it. Its own far edges may be open (no frame), so they are not counted.
    """
    for flip_rows, flip_cols in ((False, False), (False, True), (True, False), (True, True)):
        rs = slice(None, None, -1 if flip_rows else 1)
        cs = slice(None, None, -1 if flip_cols else 1)
        top, left = _blank_corner(boxed[rs, cs], blank[rs, cs])
        if top or left:
            return (0, top, 0, left) if flip_rows and flip_cols else (
                (0, top, left, 0) if flip_rows else (top, 0, 0, left) if flip_cols
                else (top, 0, left, 0))
    return 0, 0, 0, 0


def _blank_corner(boxed: np.ndarray, blank: np.ndarray) -> tuple[int, int]:
    """(rows, columns) of a blank block at the top left with boxes right of and below it
    and the board across from it (see `_clue_box_corners`); (0, 0) when there is none."""
    first_in_row0 = np.flatnonzero(boxed[0])
    first_in_col0 = np.flatnonzero(boxed[:, 0])
    if first_in_row0.size == 0 or first_in_col0.size == 0:
        return 0, 0
    left, top = int(first_in_row0[0]), int(first_in_col0[0])
    if left < 1 or top < 1 or not blank[:top, :left].all():
        return 0, 0
    board = boxed[top:-1, left:-1] if boxed.shape[0] - top > 1 and boxed.shape[1] - left > 1 \
        else boxed[top:, left:]
    if board.size == 0 or board.mean() < 0.9 or not boxed[top:, :left].all() \
            or not boxed[:top, left:].all():
        return 0, 0
    return top, left


def _clue_box_corner(occupied: np.ndarray) -> tuple[int, int]:
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
