"""Finding a Ripple Effect board in a screenshot: its frame, its cell lattice and its rooms.

Nothing about the look is assumed; everything is measured on the image:

- the board is a lattice of long straight lines (colour steps that run on for
  several cells; dotted lines are bridged first), and its outer frame is that
  lattice's bounding box. Every closed frame in view is a candidate, the one
  with the most line first; a ruled region that is no board of rooms (a
  puzzle player's menu panel of boxes, a toolbar) is passed over for the next
  (`find_board`), and the reading says which were;
- the cell background is the commonest colour inside the frame; a cell line is
  a column (row) whose ink, bridged over dots, runs down (across) most of the
  board; the lines must be evenly spaced;
- a room border is an edge between two cells drawn like the frame (thicker,
  or in another colour) rather than like a plain cell line: the ink across
  each edge, summed over the edge's width, is compared with the frame's and
  with the faintest edges'. An edge between the two is refused, not guessed.

Rooms are the cells joined by plain edges; a border that ends inside a room
(the two sides in the same room) means a misread and is refused.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.geometry import Rect, astuple
from autoplayer.vision.image import runs

STEP = 20
"""A colour step (0..255, any channel) between neighbouring pixels that can be a line's edge."""
INK = 24
"""A pixel departing this much from the cell background (any channel) is ink."""
BRIDGE = 5
"""Dotted lines' gaps shorter than this are closed before lines are measured."""
MIN_LINE = 60
"""Board lines run at least this long (4 cells of the smallest legible size)."""
LINE_COVER = 0.7
"""A cell line's ink covers this share of the board's length (a digit column never does)."""
JOIN = 7
"""Edges this close are one network: the two edges of a line up to 6 px thick, a line and
the one crossing it."""
MIN_PITCH, MAX_PITCH = 14, 200
MIN_SIDE, MAX_SIDE = 2, 40
BORDER_GAP = 1.8
"""The frame's ink must exceed the faintest edges' by this factor: borders are visible."""
SURE = 1.3
"""An edge whose ink is within this factor of the border threshold is ambiguous."""


class NoLattice(InputError):
    """A closed frame of lines that is no lattice of cells cut into rooms (lines unevenly
    spaced, or all drawn alike): a ruled panel, passed over for another frame."""


@dataclass(frozen=True)
class Lattice:
    """A located board: line centres, the frame and what the cells look like."""

    xs: tuple[int, ...]
    """x of each vertical line's centre, frame lines included (cols + 1)."""
    ys: tuple[int, ...]
    """y of each horizontal line's centre (rows + 1)."""
    frame: Rect
    """The frame's outer edge."""
    line: int
    """The frame's width in pixels (room borders are drawn alike)."""
    background: tuple[int, int, int]
    """The cells' colour."""
    passed: tuple[Rect, ...] = ()
    """Ruled regions in view taken for no board of rooms (a menu panel), for the overlay."""

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def pitch(self) -> float:
        return ((self.xs[-1] - self.xs[0]) / self.cols + (self.ys[-1] - self.ys[0]) / self.rows) / 2

    def cell(self, index: int) -> Rect:
        """The interior of a cell (row-major index), clear of the lines around it."""
        r, c = divmod(index, self.cols)
        half = self.line // 2 + 1
        x0, x1 = self.xs[c] + half, self.xs[c + 1] - half + (1 - self.line % 2)
        y0, y1 = self.ys[r] + half, self.ys[r + 1] - half + (1 - self.line % 2)
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def centre(self, index: int) -> tuple[int, int]:
        r, c = divmod(index, self.cols)
        return (self.xs[c] + self.xs[c + 1]) // 2, (self.ys[r] + self.ys[r + 1]) // 2

    @property
    def rect(self) -> Rect:
        """The cells: input never leaves it."""
        return Rect(self.xs[0], self.ys[0], self.xs[-1] - self.xs[0], self.ys[-1] - self.ys[0])


@dataclass(frozen=True)
class Rooms:
    """Each cell's room, and the ink of every edge (for overlays and reports)."""

    rooms: tuple[int, ...]
    """Room index per cell, row-major, numbered by first cell."""
    right: np.ndarray
    """rows × (cols-1): the edge right of each cell is a border."""
    down: np.ndarray
    """(rows-1) × cols: the edge below each cell is a border."""


def _long_runs(step: np.ndarray, axis: int) -> np.ndarray:
    """Edge pixels that are part of a straight run of MIN_LINE along `axis` (1: rows)."""
    k = (BRIDGE, 1) if axis == 1 else (1, BRIDGE)
    closed = cv2.morphologyEx(step, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, k))
    k = (MIN_LINE, 1) if axis == 1 else (1, MIN_LINE)
    return cv2.morphologyEx(closed, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, k))


def _steps(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colour steps between vertical neighbours (horizontal edges) and horizontal ones."""
    h, w = rgb.shape[:2]
    dy = np.zeros((h, w), np.uint8)
    dx = np.zeros((h, w), np.uint8)
    for ch in cv2.split(rgb):
        cv2.max(dy[:-1], cv2.absdiff(ch[1:], ch[:-1]), dst=dy[:-1])
        cv2.max(dx[:, :-1], cv2.absdiff(ch[:, 1:], ch[:, :-1]), dst=dx[:, :-1])
    return (dy > STEP).astype(np.uint8), (dx > STEP).astype(np.uint8)


def find_frame(rgb: np.ndarray) -> Rect:
    """The outer edge of the board's frame: the first of `find_frames`."""
    return find_frames(rgb)[0]


def find_frames(rgb: np.ndarray) -> list[Rect]:
    """The outer edges of every closed frame in view, the one holding the most line first.

    Long straight edges (dots bridged) are joined with their neighbours into
    networks; a candidate is a network whose outline is a closed rectangle,
    and the board usually holds the most line (room borders hang off the
    frame; a panel or button around the board is an outline only), but a
    ruled menu panel may hold more.
    """
    h_img, w_img = rgb.shape[:2]
    dy, dx = _steps(rgb)
    horiz, vert = _long_runs(dy, 1), _long_runs(dx, 0)
    reach = JOIN // 2
    joined = cv2.dilate(horiz | vert, np.ones((JOIN, JOIN), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    found: list[tuple[int, tuple[int, int, int, int]]] = []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        if w < MIN_LINE or h < MIN_LINE:
            continue
        mine = labels[y:y + h, x:x + w] == i
        hz, vt = horiz[y:y + h, x:x + w] & mine, vert[y:y + h, x:x + w] & mine
        band = reach + 2
        closed = (hz[:band].sum(axis=1).max() >= 0.9 * (w - 2 * reach)
                  and hz[-band:].sum(axis=1).max() >= 0.9 * (w - 2 * reach)
                  and vt[:, :band].sum(axis=0).max() >= 0.9 * (h - 2 * reach)
                  and vt[:, -band:].sum(axis=0).max() >= 0.9 * (h - 2 * reach))
        score = int(hz.sum() + vt.sum())
        if closed:
            found.append((score, (x, y, w, h)))
    if not found:
        raise InputError("no board of rooms found: no closed frame of long lines",
                         region=(0, 0, w_img, h_img))
    found.sort(key=lambda f: -f[0])
    # The step into the frame is marked on the pixel before it, and the joining spread
    # every edge by `reach` on each side.
    return [Rect(x + reach + 1, y + reach + 1, w - 2 * reach - 1, h - 2 * reach - 1)
            for _, (x, y, w, h) in found]


def _background(rgb: np.ndarray) -> np.ndarray:
    """The commonest colour of a patch (quantised to 4 levels a channel step)."""
    flat = rgb.reshape(-1, 3)[:: max(1, rgb.shape[0] * rgb.shape[1] // 20000)]
    q = (flat // 4).astype(np.int32)
    keys = (q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    top = values[np.argmax(counts)]
    return np.median(flat[keys == top], axis=0)


def departure(rgb: np.ndarray, background: np.ndarray) -> np.ndarray:
    """How far each pixel is from the background colour: the largest channel difference
    (uint8)."""
    diff = cv2.absdiff(np.ascontiguousarray(rgb), np.full_like(rgb, 0) + background.astype(
        np.uint8).reshape(1, 1, 3))
    r, g, b = cv2.split(diff)
    return cv2.max(cv2.max(r, g), b)


def _line_centres(ink: np.ndarray, axis: int) -> list[tuple[int, int]]:
    """Runs [start, end) of columns (axis 0) or rows (axis 1) covered by ink most of the way."""
    k = (1, BRIDGE) if axis == 0 else (BRIDGE, 1)
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, k))
    return runs(closed.mean(axis=axis) >= LINE_COVER)


def _even(centres: list[float], frame: Rect, what: str) -> tuple[int, ...]:
    """Centres of evenly spaced lines; a missing line where a gap is a whole number of pitches."""
    gaps = np.diff(centres)
    if len(gaps) == 0:
        raise NoLattice(f"no {what} lines inside the board's frame", region=astuple(frame))
    pitch = float(np.min(gaps[gaps >= MIN_PITCH])) if (gaps >= MIN_PITCH).any() else 0.0
    if not MIN_PITCH <= pitch <= MAX_PITCH:
        raise NoLattice(f"the board's {what} lines are not a lattice of cells",
                         region=astuple(frame))
    # Near-equal gaps refine the pitch; each gap must be a whole number of it.
    out = [centres[0]]
    for a, b in itertools.pairwise(centres):
        k = round((b - a) / pitch)
        if k < 1 or abs((b - a) - k * pitch) > max(2.0, 0.08 * pitch):
            raise NoLattice(f"the board's {what} lines are unevenly spaced "
                             f"({b - a:.0f} px after {a - centres[0]:.0f} px)",
                             region=astuple(frame))
        out += [a + (b - a) * j / k for j in range(1, k + 1)]
    return tuple(round(c) for c in out)


def find_board(rgb: np.ndarray) -> tuple[Lattice, Rooms]:
    """The board and its rooms: the first closed frame (most line first) that is a lattice
    of cells cut into two or more rooms; the ones before it are passed over (a ruled menu
    panel of boxes is a frame of lines, but not evenly spaced ones, or not cut into rooms).
    None is: the first one's InputError."""
    passed: list[Rect] = []
    first: InputError | None = None
    for frame in find_frames(rgb):
        try:
            lattice = lattice_in(rgb, frame)
            rooms = read_rooms(rgb, lattice)
        except NoLattice as err:
            first = first or err
            passed.append(frame)
            continue
        # A lattice cut into rooms whose edges cannot all be told is a board the bot will
        # not read (its refusal stands); one with no room at all is a ruled panel.
        if len(set(rooms.rooms)) < 2:
            first = first or NoLattice("a lattice of cells with no room borders is no "
                                       "Ripple board", region=astuple(frame))
            passed.append(frame)
            continue
        return replace(lattice, passed=tuple(passed)), rooms
    assert first is not None
    raise first


def find_lattice(rgb: np.ndarray) -> Lattice:
    """The board's lattice (`find_board`: ruled regions that are no board passed over)."""
    return find_board(rgb)[0]


def lattice_in(rgb: np.ndarray, frame: Rect) -> Lattice:
    """The board in `frame`: evenly spaced cell lines, cell colour; InputError when
    implausible."""
    patch = rgb[frame.y:frame.bottom, frame.x:frame.right]
    bg = _background(patch)
    ink = (departure(patch, bg) > INK).astype(np.uint8)
    cols = _line_centres(ink, 0)
    rows = _line_centres(ink, 1)
    if len(cols) < 2 or len(rows) < 2 or cols[0][0] > 2 or rows[0][0] > 2:
        raise NoLattice("the board's frame is not a closed rectangle of lines",
                         region=astuple(frame))
    line = int(np.median([cols[0][1] - cols[0][0], cols[-1][1] - cols[-1][0],
                          rows[0][1] - rows[0][0], rows[-1][1] - rows[-1][0]]))
    xs = _even([frame.x + (a + b - 1) / 2 for a, b in cols], frame, "vertical")
    ys = _even([frame.y + (a + b - 1) / 2 for a, b in rows], frame, "horizontal")
    lattice = Lattice(xs, ys, frame, max(1, line), (int(bg[0]), int(bg[1]), int(bg[2])))
    if not (MIN_SIDE <= lattice.rows <= MAX_SIDE and MIN_SIDE <= lattice.cols <= MAX_SIDE) \
            or abs((xs[-1] - xs[0]) / lattice.cols - (ys[-1] - ys[0]) / lattice.rows) > 2:
        raise NoLattice(f"a {lattice.cols}x{lattice.rows} lattice of "
                         f"{(xs[-1] - xs[0]) / lattice.cols:.0f}x"
                         f"{(ys[-1] - ys[0]) / lattice.rows:.0f} px cells is no board",
                         region=astuple(frame))
    return lattice


def _edge_ink(dep: np.ndarray, lattice: Lattice) -> tuple[np.ndarray, np.ndarray, float]:
    """Ink across every inner edge (summed over the line's width, averaged along the middle
    of the edge, clear of corners and notes), and the frame's, measured alike.

    `dep` is the departure from the cell colour inside the frame (frame coordinates).
    """
    half = lattice.line // 2 + 1
    f = lattice.frame
    xs = [x - f.x for x in lattice.xs]
    ys = [y - f.y for y in lattice.ys]
    rows, cols = lattice.rows, lattice.cols
    d = dep.astype(np.float32) / 255.0
    # Summed across a line's width once per line, then averaged along each cell's middle.
    cum_x = np.cumsum(np.pad(d, ((0, 0), (1, 0))), axis=1)
    cum_y = np.cumsum(np.pad(d, ((1, 0), (0, 0))), axis=0)
    h, w = d.shape

    def across_x(x: int) -> np.ndarray:
        lo, hi = max(x - half, 0), min(x + half + 1, w)
        return cum_x[:, hi] - cum_x[:, lo]

    def across_y(y: int) -> np.ndarray:
        lo, hi = max(y - half, 0), min(y + half + 1, h)
        return cum_y[hi] - cum_y[lo]

    def middles(profile: np.ndarray, edges: list[int]) -> list[float]:
        out = []
        for a, b in itertools.pairwise(edges):
            m = max(1, round((b - a) * 0.3))
            out.append(float(profile[a + m:b - m].mean()))
        return out

    vertical = [middles(across_x(x), ys) for x in xs]   # (cols+1) × rows
    horizontal = [middles(across_y(y), xs) for y in ys]  # (rows+1) × cols
    right = np.array(vertical[1:-1]).T.reshape(rows, cols - 1)
    down = np.array(horizontal[1:-1]).reshape(rows - 1, cols)
    frame = vertical[0] + vertical[-1] + horizontal[0] + horizontal[-1]
    return right, down, float(np.median(frame))


def read_rooms(rgb: np.ndarray, lattice: Lattice) -> Rooms:
    """Every edge a border or a plain line, and the rooms they make; InputError when unsure."""
    f = lattice.frame
    dep = departure(rgb[f.y:f.bottom, f.x:f.right], np.array(lattice.background))
    right, down, framed = _edge_ink(dep, lattice)
    inner = np.concatenate([right.ravel(), down.ravel()])
    faint = float(np.percentile(inner, 10)) if inner.size else framed
    if framed < BORDER_GAP * max(faint, 1e-3):
        raise NoLattice("room borders cannot be told from cell lines (the frame is drawn "
                         "like the plainest edges)", region=astuple(f))
    threshold = float(np.sqrt(framed * max(faint, 1e-3)))
    for kind, values in (("right", right), ("down", down)):
        unsure = np.argwhere((values > threshold / SURE) & (values < threshold * SURE))
        if len(unsure):
            r, c = (int(v) for v in unsure[0])
            where = _edge_rect(lattice, r, c, kind)
            side = "right of" if kind == "right" else "below"
            raise InputError(f"cannot tell whether the edge {side} row {r + 1} column {c + 1} "
                             "is a room border", region=astuple(where))
    is_right, is_down = right > threshold, down > threshold
    rooms = _label(lattice.rows, lattice.cols, is_right, is_down)
    for kind, borders in (("right", is_right), ("down", is_down)):
        for r, c in np.argwhere(borders):
            a = r * lattice.cols + c
            b = a + 1 if kind == "right" else a + lattice.cols
            if rooms[a] == rooms[b]:
                raise InputError(f"a room border ends inside a room (row {r + 1} column {c + 1})",
                                 region=astuple(_edge_rect(lattice, int(r), int(c), kind)))
    return Rooms(tuple(rooms), is_right, is_down)


def _edge_rect(lattice: Lattice, r: int, c: int, kind: str) -> Rect:
    half = lattice.line // 2 + 1
    if kind == "right":
        x = lattice.xs[c + 1]
        return Rect(x - half, lattice.ys[r], 2 * half + 1, lattice.ys[r + 1] - lattice.ys[r])
    y = lattice.ys[r + 1]
    return Rect(lattice.xs[c], y - half, lattice.xs[c + 1] - lattice.xs[c], 2 * half + 1)


def _label(rows: int, cols: int, right: np.ndarray, down: np.ndarray) -> list[int]:
    """Room index per cell: cells joined by plain edges, numbered by first cell."""
    room = [-1] * (rows * cols)
    label = 0
    for start in range(rows * cols):
        if room[start] >= 0:
            continue
        room[start] = label
        stack = [start]
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, cols)
            steps = []
            if c + 1 < cols and not right[r, c]:
                steps.append(cell + 1)
            if c > 0 and not right[r, c - 1]:
                steps.append(cell - 1)
            if r + 1 < rows and not down[r, c]:
                steps.append(cell + cols)
            if r > 0 and not down[r - 1, c]:
                steps.append(cell - cols)
            for n in steps:
                if room[n] < 0:
                    room[n] = label
                    stack.append(n)
        label += 1
    return room
