"""Reading a sliding puzzle whose tiles are pictures: the board, the tiles, which is which.

No numbers to read, so the board is found by its gap: one cell of a single flat
colour, square, in a lattice of cells of its size that hold pictures (not flat),
the whole lattice ringed by one flat colour (a frame, a panel, the page). The
tiles are cut from the first capture; the goal is where their edges continue
each other (`pictures.infer_picture_goal`), and each tile is labelled by its
home cell in that goal (home cell q: label q + 1, the gap 0), so the goal is
the labels ascending in reading order with the gap where the missing label
would stand, and the solvers and the input experiment work on labels as they
do on numbers.

After every move each cell is matched against the tiles cut at the start:
every cell must match one tile (or the gap) closely, tiles that look alike are
refused at the start, and a cell caught mid-slide matches nothing (an
InputError, as a misread numeral is).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.fifteen.goals import Unsure
from autoplayer.games.fifteen.model import MAX_SIDE, Board, check_size
from autoplayer.games.fifteen.pictures import PictureGoal, infer_picture_goal
from autoplayer.games.fifteen.reader import FifteenReading
from autoplayer.geometry import Rect
from autoplayer.vision.grid import Grid

MIN_PITCH = 16
"""The smallest tile side (px) taken for a picture puzzle's cell."""
FLAT_STD = 1.0
"""A patch whose colour varies by at most this (standard deviation, 0..255, the channels
averaged) is flat: a gap, a frame, a panel, drawn in one colour; a picture varies more,
even a gentle gradient over a strip of a few pixels."""
SAME_RING = 12.0
"""The four strips around the board must be one colour (mean colours this close)."""
SAMPLE = 12
"""Each cell is compared as its colours averaged down to SAMPLE x SAMPLE."""
MATCH = 2.0
"""A cell shows a tile when their samples differ by at most this (mean absolute, 0..255):
a still board redrawn at the same place differs by almost nothing, a tile caught half-way
through a slide by far more."""
APART = 3 * MATCH
"""Every two tiles (and the gap) must differ by this much, so no cell can match two."""


NO_BOARD = ("no board of picture tiles found (a lattice of picture cells with one flat gap, "
            "ringed by one flat colour)")


@dataclass(frozen=True, eq=False)
class PictureTiles:
    """A picture puzzle as first read: its lattice, the tiles cut from it and their goal."""

    grid: Grid
    cells: tuple[Rect, ...]
    tiles: tuple[np.ndarray, ...]
    """The tiles as first shown, in reading order of the cells they stood on (gap left out)."""
    goal: PictureGoal | Unsure
    labels: tuple[int, ...]
    """Each tile's label: its home cell + 1 in the goal (when the goal is certain; else its
    index + 1, which nothing may be planned from)."""
    samples: np.ndarray
    """(tiles + 1, SAMPLE*SAMPLE*3): each tile's sample, then the gap's."""
    gap_cell: int
    """Where the gap was at the start."""


def _region(r: Rect) -> tuple[int, int, int, int]:
    return (r.x, r.y, r.w, r.h)


def _std(patch: np.ndarray) -> float:
    return float(patch.reshape(-1, patch.shape[-1]).std(axis=0).mean()) if patch.size else 0.0


def _colour(patch: np.ndarray) -> np.ndarray:
    """A patch's mean colour."""
    return patch.reshape(-1, patch.shape[-1]).mean(axis=0)


def _gap_candidates(rgb: np.ndarray) -> list[Rect]:
    """Square patches of one colour at least MIN_PITCH across, biggest first."""
    img = np.ascontiguousarray(rgb)

    def step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = cv2.absdiff(a, b)
        return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) <= 1

    same_r = np.zeros(img.shape[:2], bool)
    same_d = np.zeros(img.shape[:2], bool)
    same_r[:, :-1] = step(img[:, 1:], img[:, :-1])
    same_d[:-1] = step(img[1:], img[:-1])
    flat = (same_r & same_d).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        w, h = w + 1, h + 1  # the last column and row of a flat patch differ from the next
        if min(w, h) < MIN_PITCH or abs(w - h) > max(2, 0.06 * max(w, h)):
            continue
        if area < 0.85 * w * h:
            continue
        rect = Rect(x, y, w, h)
        if _std(rgb[y:y + h, x:x + w]) <= FLAT_STD:
            out.append(rect)
    out.sort(key=lambda r: -r.w * r.h)
    return out


def _lattice_from_gap(rgb: np.ndarray, gap: Rect) -> tuple[Grid, int] | None:
    """The lattice of picture cells around `gap`, and the gap's cell; None when no lattice
    of its cells is ringed by one flat colour."""
    ih, iw = rgb.shape[:2]
    px, py = gap.w, gap.h

    t = max(2, min(px, py) // 8)

    def beyond(c: int, r: int, dc: int, dr: int) -> np.ndarray | None:
        """The strip `t` thick just outside cell (c, r) (relative to the gap's) on side
        (dc, dr), one pixel off it; None when it leaves the image."""
        x, y = gap.x + c * px, gap.y + r * py
        if dc:
            x = x + px + 1 if dc > 0 else x - t - 1
            box = (x, y, t, py)
        else:
            y = y + py + 1 if dr > 0 else y - t - 1
            box = (x, y, px, t)
        bx, by, bw, bh = box
        if bx < 0 or by < 0 or bx + bw > iw or by + bh > ih:
            return None
        return rgb[by:by + bh, bx:bx + bw]

    # Each way from the gap, every place the strip beyond a cell is flat: where the lattice
    # may end. A flat patch inside the picture (a shape, a gentle gradient) is one too; the
    # four ends taken must share one colour, and then the whole ring must be it.
    ends: dict[str, list[tuple[int, np.ndarray]]] = {}
    for name, (dc, dr) in {"left": (-1, 0), "right": (1, 0), "up": (0, -1),
                           "down": (0, 1)}.items():
        ends[name] = []
        for k in range(MAX_SIDE):
            strip = beyond(dc * k, dr * k, dc, dr)
            if strip is None:
                break
            if _std(strip) <= FLAT_STD:
                ends[name].append((k, _colour(strip)))
    for _, ring_colour in ends["left"]:
        reach = {}
        for name, found in ends.items():
            k = next((k for k, c in found
                      if float(np.abs(c - ring_colour).max()) <= SAME_RING), None)
            if k is None:
                break
            reach[name] = k
        if len(reach) == 4:
            made = _ringed(rgb, gap, reach, t)
            if made is not None:
                return made
    return None


def _ringed(rgb: np.ndarray, gap: Rect, reach: dict[str, int], t: int
            ) -> tuple[Grid, int] | None:
    """The lattice reaching so far each way from the gap, when a ring of one flat colour,
    `t` thick, surrounds it."""
    ih, iw = rgb.shape[:2]
    px, py = gap.w, gap.h
    width = reach["left"] + 1 + reach["right"]
    height = reach["up"] + 1 + reach["down"]
    if width < 2 or height < 2:
        return None
    x0, y0 = gap.x - reach["left"] * px, gap.y - reach["up"] * py
    x1, y1 = x0 + width * px, y0 + height * py
    if x0 - t - 1 < 0 or y0 - t - 1 < 0 or x1 + t + 1 > iw or y1 + t + 1 > ih:
        return None
    ring = [rgb[y0:y1, x0 - t - 1:x0 - 1], rgb[y0:y1, x1 + 1:x1 + t + 1],
            rgb[y0 - t - 1:y0 - 1, x0:x1], rgb[y1 + 1:y1 + t + 1, x0:x1]]
    if any(_std(s) > FLAT_STD for s in ring):
        return None
    means = np.array([_colour(s) for s in ring])
    if float(np.abs(means - means.mean(axis=0)).max()) > SAME_RING:
        return None
    xs = tuple((x0 + c * px, x0 + (c + 1) * px) for c in range(width))
    ys = tuple((y0 + r * py, y0 + (r + 1) * py) for r in range(height))
    return Grid(xs, ys), reach["up"] * width + reach["left"]


def find_picture_board(rgb: np.ndarray) -> tuple[Grid, int]:
    """The lattice of picture tiles and its gap's cell; InputError when there is none."""
    h, w = rgb.shape[:2]
    found = None
    for gap in _gap_candidates(rgb):
        found = _lattice_from_gap(rgb, gap)
        if found is not None:
            break
    if found is None:
        raise InputError(NO_BOARD, region=(0, 0, w, h))
    grid, _ = found  # the gap the lattice was grown from may be a flat tile: see below
    try:
        check_size(grid.width, grid.height)
    except InputError as err:
        raise InputError(f"the picture tiles found make a {grid.width}x{grid.height} board: "
                         f"{err.message}", region=_region(grid.rect)) from None
    cells = [grid.cell(r, c) for r in range(grid.height) for c in range(grid.width)]
    flat = [i for i, r in enumerate(cells) if _std(_crop(rgb, r)) <= FLAT_STD]
    if len(flat) > 1:
        # A tile of one flat colour (a plain part of the picture): its colour goes on in
        # the tiles it joins, while the gap shows what the tiles lie on, a colour of no
        # picture tile. The gap is the one flat cell whose colour no other tile shows, and
        # only when every other flat cell's colour is plainly in the picture.
        flat = _foreign(rgb, cells, flat)
    if len(flat) != 1:
        raise InputError(f"{len(flat)} cells of the {grid.width}x{grid.height} picture board "
                         "look flat and none is told apart as its gap (the one whose colour "
                         "no tile shows); a sliding puzzle has exactly one gap",
                         region=_region(grid.rect))
    return grid, flat[0]


SAME_COLOUR = 6
"""A pixel within this (0..255, every channel) of a flat cell's colour shows that colour."""
IN_PICTURE = 0.05
"""A flat cell's colour is plainly in the picture when pixels of it cover this share of one
cell in the other, unflat cells; the gap's colour must cover none of them."""


def _foreign(rgb: np.ndarray, cells: list[Rect], flat: list[int]) -> list[int]:
    """The flat cells that may be the gap: [the one whose colour no unflat cell shows] when
    every other flat cell's colour is plainly in the picture; else all of them."""
    pictured = np.concatenate([_crop(rgb, r).reshape(-1, 3) for i, r in enumerate(cells)
                               if i not in flat]).astype(np.int16)
    area = cells[0].w * cells[0].h
    shown = []
    for i in flat:
        colour = np.round(_colour(_crop(rgb, cells[i]))).astype(np.int16)
        shown.append(int((np.abs(pictured - colour).max(axis=1) <= SAME_COLOUR).sum()))
    foreign = [i for i, n in zip(flat, shown, strict=True) if n == 0]
    if len(foreign) == 1 and all(n >= IN_PICTURE * area for i, n in zip(flat, shown, strict=True)
                                 if i != foreign[0]):
        return foreign
    return flat


def _crop(rgb: np.ndarray, r: Rect) -> np.ndarray:
    return rgb[r.y:r.bottom, r.x:r.right]


def sample(rgb: np.ndarray, r: Rect) -> np.ndarray:
    """A cell's look for matching: its colours averaged down, one pixel in from its edges."""
    patch = rgb[r.y + 1:r.bottom - 1, r.x + 1:r.right - 1].astype(np.float32)
    return cv2.resize(patch, (SAMPLE, SAMPLE), interpolation=cv2.INTER_AREA).ravel()


def read_picture_tiles(rgb: np.ndarray) -> PictureTiles:
    """The picture puzzle first shown: board, tiles, goal (or why none is certain)."""
    grid, gap_cell = find_picture_board(rgb)
    cells = tuple(grid.cell(r, c) for r in range(grid.height) for c in range(grid.width))
    tiles = tuple(_crop(rgb, r).copy() for i, r in enumerate(cells) if i != gap_cell)
    samples = np.stack([sample(rgb, r) for i, r in enumerate(cells) if i != gap_cell]
                       + [sample(rgb, cells[gap_cell])])
    goal = infer_picture_goal(list(tiles), grid.width, grid.height)
    alike = _alike(samples)
    if alike is not None and not isinstance(goal, Unsure):
        where = [i for i in range(len(cells)) if i != gap_cell] + [gap_cell]
        a, b = (where[k] for k in alike)
        what = "the gap" if alike[1] == len(tiles) else _place(b, grid.width)
        goal = Unsure(f"the tile at {_place(a, grid.width)} and {what} look too much alike "
                      "to tell apart after a move")
    if isinstance(goal, Unsure):
        labels = tuple(range(1, len(tiles) + 1))
    else:
        labels = tuple(goal.cells.index(k) + 1 for k in range(len(tiles)))
    return PictureTiles(grid, cells, tiles, goal, labels, samples, gap_cell)


def _place(cell: int, width: int) -> str:
    return f"row {cell // width + 1} column {cell % width + 1}"


def _alike(samples: np.ndarray) -> tuple[int, int] | None:
    """Two samples (tiles or the gap, last) closer than APART; None when all are apart."""
    d = np.abs(samples[:, None, :] - samples[None, :, :]).mean(axis=2)
    np.fill_diagonal(d, np.inf)
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    return None if d[i, j] >= APART else (int(min(i, j)), int(max(i, j)))


def identify(rgb: np.ndarray, known: PictureTiles) -> FifteenReading:
    """The board now shown, each cell matched to the tile cut at the start that it shows;
    InputError (naming the cell) when a cell matches none closely (a slide caught half-way,
    the board gone) or the matches are not each tile once and one gap.

    Where the board was is tried first; when that fails the board is looked for again (a
    page may move it: a status line that grows when the puzzle is solved), and taken only
    with the same lattice and every cell matching."""
    try:
        return _match(rgb, known, known.grid, known.cells)
    except InputError as err:
        first = err
    try:
        grid, _ = find_picture_board(rgb)
    except InputError:
        raise first from None
    if (grid.width, grid.height) != (known.grid.width, known.grid.height) or any(
            (b - a) != (d - c) for (a, b), (c, d) in zip(grid.xs + grid.ys,
                                                        known.grid.xs + known.grid.ys,
                                                        strict=True)) or grid == known.grid:
        raise first
    cells = tuple(grid.cell(r, c) for r in range(grid.height) for c in range(grid.width))
    return _match(rgb, known, grid, cells)


def _match(rgb: np.ndarray, known: PictureTiles, grid: Grid, cells: tuple[Rect, ...]
           ) -> FifteenReading:
    """The board shown in `cells`, every cell matched to a tile first cut or the gap."""
    w = known.grid.width
    now = np.stack([sample(rgb, r) for r in cells])
    d = np.abs(now[:, None, :] - known.samples[None, :, :]).mean(axis=2)
    best = d.argmin(axis=1)
    gap_index = len(known.tiles)
    labels = []
    for p, k in enumerate(best):
        if d[p, k] > MATCH:
            raise InputError(f"the cell at {_place(p, w)} shows none of "
                             f"the tiles first seen (closest differs by {d[p, k]:.1f}; a tile "
                             "may still be sliding)", region=_region(cells[p]))
        labels.append(0 if k == gap_index else known.labels[int(k)])
    if sorted(labels) != sorted((0, *known.labels)):
        raise InputError("the cells do not show each tile first seen once and one gap",
                         region=_region(grid.rect))
    board = Board(w, grid.height, tuple(labels))
    return FifteenReading(board, grid, cells, (None,) * len(cells), 0.0)


def first_reading(rgb: np.ndarray) -> tuple[FifteenReading, PictureTiles]:
    """The first reading of a picture puzzle (each cell shows the tile cut from it) and what
    later readings match against."""
    known = read_picture_tiles(rgb)
    labels = iter(known.labels)
    gap = known.gap_cell
    cells = tuple(0 if p == gap else next(labels) for p in range(len(known.cells)))
    board = Board(known.grid.width, known.grid.height, cells)
    return FifteenReading(board, known.grid, known.cells, (None,) * len(cells), 0.0), known
