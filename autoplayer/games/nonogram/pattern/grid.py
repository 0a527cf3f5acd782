"""The grid of a nonogram canvas from its lines, and what each cell shows.

No constant of the game is assumed: the background is the commonest colour,
grid lines are the rows and columns holding the longest straight runs of one
non-background colour (every line of the grid crosses the whole board, and
nothing else on the canvas is that long), the pitch comes from their spacing,
and cells are classified against colours sampled from the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.geometry import Rect

MAX_CELLS = 100
"""Lines per side we accept; more means we found a texture, not a board."""


@dataclass(frozen=True)
class Grid:
    """The board's geometry in frame pixels."""

    xs: tuple[int, ...]
    """Column boundaries: the first pixel of each grid line group, W+1 of them."""
    ys: tuple[int, ...]
    """Row boundaries, H+1 of them."""
    x_ends: tuple[int, ...]
    """The last pixel of each vertical line group."""
    y_ends: tuple[int, ...]
    background: tuple[int, int, int]
    line: tuple[int, int, int]
    """The grid-line colour."""

    @property
    def width(self) -> int:
        return len(self.xs) - 1

    @property
    def height(self) -> int:
        return len(self.ys) - 1

    @property
    def pitch(self) -> float:
        return (self.xs[-1] - self.xs[0]) / self.width

    @property
    def rect(self) -> Rect:
        """The cells, outer lines included."""
        return Rect(self.xs[0], self.ys[0], self.x_ends[-1] + 1 - self.xs[0],
                    self.y_ends[-1] + 1 - self.ys[0])

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of a cell's interior, exclusive ends."""
        return (self.x_ends[c] + 1, self.y_ends[r] + 1, self.xs[c + 1], self.ys[r + 1])

    def centres(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Cell centres (x per column, y per row): where input aims."""
        cx = tuple((self.x_ends[c] + 1 + self.xs[c + 1]) / 2 for c in range(self.width))
        cy = tuple((self.y_ends[r] + 1 + self.ys[r + 1]) / 2 for r in range(self.height))
        return cx, cy


def background_colour(pixels: np.ndarray) -> tuple[int, int, int]:
    """The commonest colour along the picture's edges: the canvas around the board.

    (Not the commonest overall: a big board's unknown cells outnumber it.)
    """
    edge = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]]).astype(np.int32)
    keys = (edge[:, 0] << 16) | (edge[:, 1] << 8) | edge[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    key = int(values[np.argmax(counts)])
    return (key >> 16) & 255, (key >> 8) & 255, key & 255


def longest_runs(pixels: np.ndarray, background: tuple[int, int, int]) -> tuple[np.ndarray, ...]:
    """Per row: length, start and colour key of its longest one-colour run.

    Background runs and runs touching the picture's edge do not count.
    """
    h, w, _ = pixels.shape
    p = pixels.astype(np.int32)
    keys = (p[:, :, 0] << 16) | (p[:, :, 1] << 8) | p[:, :, 2]
    bg = (background[0] << 16) | (background[1] << 8) | background[2]
    # A run starts where the colour changes; background pixels never belong to one.
    change = np.ones((h, w), dtype=bool)
    change[:, 1:] = keys[:, 1:] != keys[:, :-1]
    idx = np.flatnonzero(change.ravel())
    ends = np.append(idx[1:], h * w)
    rows = idx // w
    # Runs never continue across a row end.
    ends = np.minimum(ends, (rows + 1) * w)
    lengths = ends - idx
    lengths[keys.ravel()[idx] == bg] = 0
    # A board's line has canvas on both sides; a run touching the picture's edge
    # is something else (a menu bar, a window border).
    lengths[(idx == rows * w) | (ends == (rows + 1) * w)] = 0
    best = np.zeros(h, dtype=np.int64)
    start = np.zeros(h, dtype=np.int64)
    colour = np.zeros(h, dtype=np.int64)
    order = np.lexsort((lengths, rows))  # per row, the longest last
    last = np.append(rows[order][1:] != rows[order][:-1], True)
    sel = order[last]
    best[rows[sel]] = lengths[sel]
    start[rows[sel]] = idx[sel] - rows[sel] * w
    colour[rows[sel]] = keys.ravel()[idx[sel]]
    return best, start, colour


def _groups(flags: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive True indices as (first, last) pairs."""
    out: list[tuple[int, int]] = []
    for i in np.flatnonzero(flags):
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], int(i))
        else:
            out.append((int(i), int(i)))
    return out


def _line_groups(pixels: np.ndarray, background: tuple[int, int, int],
                 axis_name: str) -> tuple[list[tuple[int, int]], int, int, int]:
    """Grid lines along one axis: groups of rows whose longest run spans the board."""
    length, start, colour = longest_runs(pixels, background)
    top = int(length.max(initial=0))
    if top < 8:
        raise InputError(f"no grid found: no straight {axis_name} line on the canvas",
                         region=(0, 0, pixels.shape[1], pixels.shape[0]))
    # The board's lines all span it: same start, same length (within the thick
    # outer lines' pixel), same colour as the longest.
    ref = int(np.argmax(length))
    near = (length >= top - 3) & (np.abs(start - start[ref]) <= 3) & (colour == colour[ref])
    return _groups(near), int(start[ref]), top, int(colour[ref])


def find_grid(pixels: np.ndarray) -> Grid:
    """The board's grid; `InputError` naming the region when no plausible grid is there."""
    if pixels.ndim != 3 or pixels.shape[2] != 3 or min(pixels.shape[:2]) < 8:
        raise InputError("the picture is too small or not RGB")
    background = background_colour(pixels)
    whole = (0, 0, pixels.shape[1], pixels.shape[0])
    rows, x0, wlen, colour_h = _line_groups(pixels, background, "horizontal")
    cols, y0, hlen, colour_v = _line_groups(pixels.transpose(1, 0, 2), background, "vertical")
    if colour_h != colour_v:
        raise InputError("no grid found: the longest lines across and down differ in colour",
                         region=whole)
    region = (x0, y0, wlen, hlen)
    # Lines must bound the board: first and last groups sit on the longest runs' ends.
    for groups, first, span, what in ((rows, y0, hlen, "rows"), (cols, x0, wlen, "columns")):
        if len(groups) < 2 or len(groups) > MAX_CELLS + 1:
            raise InputError(f"no grid found: {len(groups) - 1} {what}", region=region)
        if abs(groups[0][0] - first) > 3 or abs(groups[-1][1] - (first + span - 1)) > 3:
            raise InputError(f"no grid found: the {what}' lines do not bound the board",
                             region=region)
    pitch_x = _pitch(cols, "columns", region)
    pitch_y = _pitch(rows, "rows", region)
    if abs(pitch_x - pitch_y) > 1.5:
        raise InputError(f"cells are not square ({pitch_x:.1f} x {pitch_y:.1f} px)",
                         region=region)
    if pitch_x < 6:
        raise InputError(f"cells of {pitch_x:.1f} px are too small to read", region=region)
    line = ((colour_h >> 16) & 255, (colour_h >> 8) & 255, colour_h & 255)
    # The outline drawn one pixel outside the cells belongs to the first and last groups.
    return Grid(
        xs=tuple(g[0] for g in cols), ys=tuple(g[0] for g in rows),
        x_ends=tuple(g[1] for g in cols), y_ends=tuple(g[1] for g in rows),
        background=background, line=line,
    )


def _pitch(groups: list[tuple[int, int]], what: str, region: tuple[int, int, int, int]) -> float:
    """The cell pitch; every gap between lines must agree with it (thick lines shift a pixel)."""
    starts = np.array([g[0] for g in groups])
    gaps = np.diff(starts)
    pitch = float(np.median(gaps))
    if (np.abs(gaps - pitch) > max(2.0, 0.1 * pitch)).any():
        raise InputError(f"no grid found: the {what} are not evenly spaced "
                         f"(gaps {sorted(set(gaps.tolist()))})", region=region)
    return pitch


def luminance(rgb: np.ndarray | tuple[int, int, int]) -> np.ndarray | float:
    a = np.asarray(rgb, dtype=np.float32)
    return a[..., 0] * 0.299 + a[..., 1] * 0.587 + a[..., 2] * 0.114


def cell_states(pixels: np.ndarray, grid: Grid, ink: float) -> tuple[np.ndarray, np.ndarray]:
    """What every cell shows, and how sure that is (0..1) per cell.

    A cell's colour is the median of its interior's middle half (a cursor
    outline or a pointer near the edge does not count). It is FILLED when
    nearer the clue ink than the grid lines, EMPTY when lighter than halfway
    from the lines to the background, UNKNOWN between: the game's own palette
    order (ink, lines, unknown, background, empty), sampled not assumed.
    """
    line = float(luminance(grid.line))
    bg = float(luminance(grid.background))
    filled_below = (ink + line) / 2
    empty_above = (line + bg) / 2
    # One equal-sized patch from the middle of every cell (cells differ by a
    # pixel where thick lines run), gathered at once.
    inner = min(min(b - a for a, b in zip(grid.x_ends, grid.xs[1:], strict=False)),
                min(b - a for a, b in zip(grid.y_ends, grid.ys[1:], strict=False))) - 1
    size = max(inner // 2, 1)
    cx, cy = grid.centres()
    x0 = np.round(np.array(cx) - size / 2).astype(int)
    y0 = np.round(np.array(cy) - size / 2).astype(int)
    xs = x0[:, None] + np.arange(size)[None, :]
    ys = y0[:, None] + np.arange(size)[None, :]
    patch = pixels[ys[:, None, :, None], xs[None, :, None, :]]  # H, W, size, size, 3
    lum = luminance(patch).reshape(grid.height, grid.width, -1)
    v = np.median(lum, axis=2)
    states = np.where(v < filled_below, FILLED,
                      np.where(v > empty_above, EMPTY, UNKNOWN)).astype(np.int8)
    sure = (np.abs(lum - v[:, :, None]) < 8).mean(axis=2).astype(np.float32)
    return states, sure
