"""Finding a board drawn without cell edges: glyphs at a regular pitch on one flat panel.

Some games draw no tiles at all: numerals float on a single flat panel, so
there are no square patches for `lattice.find_grid` to line up. Such a board
is still found from its content: the panel is a flat region of one colour, its
holes are the glyphs, glyphs side by side make one label, and the labels stand
on a lattice of rows and columns at one pitch, both ways, with at most one
label per lattice position. A lattice is only returned when every row and
column is evenly spaced and at most `missing` positions are empty (a sliding
puzzle's gap); anything else is no board. The cells are the squares of one
pitch round each position, clipped to the panel.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.vision.grid import MIN_TILE_SIDE, Grid

EDGE = 10.0
"""A step between neighbouring pixels at least this large (any channel) is an edge."""
MIN_PANEL = 48
"""A panel is at least this many pixels across and down."""
MAX_PANELS = 8
"""The largest flat regions tried as panels, largest first."""
HEIGHT_SPREAD = 0.25
"""Labels of one board are one size: heights within this share of the median."""
PITCH_TOLERANCE = 0.12
"""Neighbouring rows (columns) this close to one pitch count as evenly spaced."""
MAX_SIDE = 8


@dataclass(frozen=True)
class Label:
    """Glyphs side by side: one number's box."""

    x: int
    y: int
    w: int
    h: int

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


def find_glyph_lattices(image: np.ndarray, *, missing: int = 1) -> list[Grid]:
    """Every board of glyphs on a flat panel in view (see the module docstring), largest
    first; an empty list when there is none."""
    flat = _flat(image)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(flat.astype(np.uint8), connectivity=4)
    order = [i for i in np.argsort(-stats[:, cv2.CC_STAT_AREA]) if i != 0
             and stats[i, cv2.CC_STAT_WIDTH] >= MIN_PANEL
             and stats[i, cv2.CC_STAT_HEIGHT] >= MIN_PANEL][:MAX_PANELS]
    found: list[Grid] = []
    for i in order:
        x, y, w, h = (int(v) for v in stats[i, :4])
        panel = labels[y:y + h, x:x + w] == i
        grid = _lattice(_labels(panel, x, y), missing, (x, y, w, h))
        if grid is not None:
            found.append(grid)
    found.sort(key=lambda g: -g.width * g.height)
    return found


def _flat(image: np.ndarray) -> np.ndarray:
    """Pixels with no edge to their right or below neighbour (any channel)."""
    img = image.astype(np.int16)
    edge = np.zeros(img.shape[:2], bool)
    dx = np.abs(np.diff(img, axis=1)).max(axis=-1) >= EDGE if img.ndim == 3 else \
        np.abs(np.diff(img, axis=1)) >= EDGE
    dy = np.abs(np.diff(img, axis=0)).max(axis=-1) >= EDGE if img.ndim == 3 else \
        np.abs(np.diff(img, axis=0)) >= EDGE
    edge[:, :-1] |= dx
    edge[:, 1:] |= dx
    edge[:-1, :] |= dy
    edge[1:, :] |= dy
    return ~edge


def _labels(panel: np.ndarray, x0: int, y0: int) -> list[Label]:
    """The panel's holes (glyphs), side by side ones joined into labels."""
    holes = (~panel).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=8)
    h_img, w_img = panel.shape
    pieces = []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + w == w_img or y + h == h_img:
            continue  # open to the panel's outside: not a hole
        pieces.append((x, y, w, h))
    if not pieces:
        return []
    tall = float(np.median([h for _, _, _, h in pieces]))
    # Specks (antialiasing crumbs, a dot) are not glyphs; tall pieces are.
    pieces = sorted((p for p in pieces if p[3] >= 0.4 * tall), key=lambda p: p[0])
    out: list[list[int]] = []
    for x, y, w, h in pieces:
        for box in out:
            bx, by, bw, bh = box
            overlap = min(by + bh, y + h) - max(by, y)
            near = x - (bx + bw) <= 0.6 * max(bh, h) and bx - (x + w) <= 0.6 * max(bh, h)
            if overlap >= 0.5 * min(bh, h) and near:
                nx, ny = min(bx, x), min(by, y)
                box[:] = [nx, ny, max(bx + bw, x + w) - nx, max(by + bh, y + h) - ny]
                break
        else:
            out.append([x, y, w, h])
    return [Label(x0 + x, y0 + y, w, h) for x, y, w, h in out]


def _lines(centres: np.ndarray, tol: float) -> list[float]:
    """Centres grouped into lines (members closer than `tol`), each line's mean."""
    order = np.sort(centres)
    groups: list[list[float]] = [[float(order[0])]]
    for c in order[1:]:
        if c - groups[-1][-1] <= tol:
            groups[-1].append(float(c))
        else:
            groups.append([float(c)])
    return [float(np.mean(g)) for g in groups]


def _even(lines: list[float]) -> float | None:
    """The pitch of evenly spaced lines (None: not evenly spaced)."""
    steps = np.diff(lines)
    if steps.size == 0:
        return None
    pitch = float(np.median(steps))
    if pitch <= 0 or np.abs(steps - pitch).max() > PITCH_TOLERANCE * pitch:
        return None
    return pitch


def _lattice(labels: list[Label], missing: int, panel: tuple[int, int, int, int]
             ) -> Grid | None:
    if len(labels) < MIN_TILE_SIDE * MIN_TILE_SIDE - missing:
        return None
    height = float(np.median([lb.h for lb in labels]))
    labels = [lb for lb in labels if abs(lb.h - height) <= HEIGHT_SPREAD * height]
    if len(labels) < MIN_TILE_SIDE * MIN_TILE_SIDE - missing:
        return None
    cols = _lines(np.array([lb.cx for lb in labels]), 0.6 * height)
    rows = _lines(np.array([lb.cy for lb in labels]), 0.6 * height)
    if not (MIN_TILE_SIDE <= len(cols) <= MAX_SIDE and MIN_TILE_SIDE <= len(rows) <= MAX_SIDE):
        return None
    px, py = _even(cols), _even(rows)
    if px is None or py is None or abs(px - py) > PITCH_TOLERANCE * max(px, py):
        return None
    pitch = (px + py) / 2
    if pitch < 1.2 * height:
        return None  # labels touching each other: lines of text, not a board
    taken: set[tuple[int, int]] = set()
    for lb in labels:
        c = int(np.argmin([abs(lb.cx - x) for x in cols]))
        r = int(np.argmin([abs(lb.cy - y) for y in rows]))
        if abs(lb.cx - cols[c]) > 0.25 * pitch or abs(lb.cy - rows[r]) > 0.25 * pitch or \
                (r, c) in taken:
            return None
        taken.add((r, c))
    if len(cols) * len(rows) - len(taken) > missing:
        return None
    x0, y0, w, h = panel
    half = pitch / 2

    def spans(centres: list[float], lo: int, hi: int) -> tuple[tuple[int, int], ...]:
        return tuple((max(lo, round(c - half)), min(hi, round(c + half))) for c in centres)

    return Grid(spans(cols, x0, x0 + w), spans(rows, y0, y0 + h))
