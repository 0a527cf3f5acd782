"""Clue bands beside the grid, cut into numbers and digit glyphs; clipping detected.

Ink is how far a pixel is from the background colour (any hue: black text,
red error text, grey cursor-guide text all count), normalised per band so a
greyed or reddened line reads like a black one. Every threshold is relative:
to the band's own strongest ink, or to the digit size measured over the
whole picture. A row's clue is one right-aligned string: digits of a number
sit a pixel or two apart, numbers a couple of spaces apart, so a gap wider
than half a digit's height separates numbers. A column's numbers are stacked
one per line.

Clipping: a clue whose ink touches the canvas edge (the window's or the
picture's) may go on beyond it. The glyphs touching the edge and the number
they belong to are unknown, and so is how many numbers lie beyond; the
numbers fully inside are certain.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from autoplayer.games.nonogram.pattern.grid import Grid

INK_LEVEL = 0.4
"""A pixel belongs to a glyph when its ink reaches this share of its band's strongest."""
FAINT = 0.12
"""A band whose strongest ink is below this share of the picture's strongest is blank."""


@dataclass(frozen=True, eq=False)
class Glyph:
    """One digit: its tight `box` and the `ink` inside it (0..1, its strongest pixel 1)."""

    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 in frame pixels (exclusive ends)."""
    ink: np.ndarray = field(repr=False)

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]


@dataclass(frozen=True, eq=False)
class NumberBox:
    glyphs: tuple[Glyph, ...]
    clipped: bool = False
    """Touches the canvas edge: part of it may be cut off, its value is unknown."""

    @property
    def box(self) -> tuple[int, int, int, int]:
        b = [g.box for g in self.glyphs]
        return (min(x[0] for x in b), min(x[1] for x in b), max(x[2] for x in b),
                max(x[3] for x in b))


@dataclass(frozen=True, eq=False)
class ClueLine:
    kind: str
    """'row' or 'column'."""
    index: int
    band: tuple[int, int, int, int]
    numbers: tuple[NumberBox, ...]
    open: bool = False
    """More numbers may lie beyond the canvas edge, before the visible ones."""

    @property
    def clipped(self) -> bool:
        return self.open or any(n.clipped for n in self.numbers)


@dataclass(frozen=True, eq=False)
class Canvas:
    """Where the game draws: the clue bands end at its edges."""

    left: int
    top: int


def ink_map(pixels: np.ndarray, background: tuple[int, int, int]) -> np.ndarray:
    """Per pixel: the largest channel difference from the background (0..255)."""
    diff = np.abs(pixels.astype(np.int16) - np.array(background, dtype=np.int16))
    return diff.max(axis=2).astype(np.float32)


def find_canvas(pixels: np.ndarray, grid: Grid) -> Canvas:
    """The canvas edges left of and above the board.

    Going out from the board, a line still belongs to the canvas while a good
    share of it is exactly the background colour (clue text never covers most
    of a line); a menu bar or a window border is not.
    """
    r = grid.rect
    colour = np.array(grid.background, dtype=pixels.dtype)
    cols = (pixels[r.y:r.bottom, :r.x] == colour).all(axis=2).mean(axis=0)
    rows = (pixels[:r.y, r.x:r.right] == colour).all(axis=2).mean(axis=1)
    left = r.x
    while left > 0 and cols[left - 1] >= 0.2:
        left -= 1
    top = r.y
    while top > 0 and rows[top - 1] >= 0.2:
        top -= 1
    return Canvas(left, top)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True as (start, end) with exclusive ends."""
    padded = np.concatenate([[False], flags.astype(bool), [False]])
    d = np.diff(padded.astype(np.int8))
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(),
                    strict=True))


@dataclass(frozen=True)
class RawBand:
    kind: str
    index: int
    box: tuple[int, int, int, int]
    ink: np.ndarray
    mask: np.ndarray
    pieces: tuple[tuple[int, int, int, int], ...]
    """Ink pieces (x0, y0, x1, y1 band-relative): row bands cut at blank columns,
    column bands at blank rows first."""


def bands(pixels: np.ndarray, grid: Grid, canvas: Canvas) -> list[RawBand]:
    """Every row's and column's clue band with its ink pieces, rows first."""
    r = grid.rect
    out: list[RawBand] = []
    # Ink only where clues can be: left of the board and above it.
    ink = np.zeros(pixels.shape[:2], dtype=np.float32)
    ink[r.y:r.bottom, :r.x] = ink_map(pixels[r.y:r.bottom, :r.x], grid.background)
    ink[:r.y, r.x:r.right] = ink_map(pixels[:r.y, r.x:r.right], grid.background)
    # Stop short of the board's outline: two pixels of canvas lie between.
    right = max(r.x - 2, canvas.left)
    bottom = max(r.y - 2, canvas.top)
    strongest = 0.0
    raw: list[tuple[str, int, tuple[int, int, int, int], np.ndarray]] = []
    for i in range(grid.height):
        box = (canvas.left, grid.y_ends[i] + 1, right, grid.ys[i + 1])
        raw.append(("row", i, box, ink[box[1]:box[3], box[0]:box[2]]))
    for i in range(grid.width):
        box = (grid.x_ends[i] + 1, canvas.top, grid.xs[i + 1], bottom)
        raw.append(("column", i, box, ink[box[1]:box[3], box[0]:box[2]]))
    for *_, a in raw:
        if a.size:
            strongest = max(strongest, float(a.max()))
    for kind, i, box, a in raw:
        top = float(a.max()) if a.size else 0.0
        if top < FAINT * strongest or top == 0:
            mask = np.zeros(a.shape, dtype=bool)
        else:
            mask = a >= INK_LEVEL * top
        pieces: list[tuple[int, int, int, int]] = []
        if kind == "row":
            for x0, x1 in _runs(mask.any(axis=0)):
                ys = np.flatnonzero(mask[:, x0:x1].any(axis=1))
                pieces.append((x0, int(ys[0]), x1, int(ys[-1]) + 1))
        else:
            for y0, y1 in _runs(mask.any(axis=1)):
                xs = np.flatnonzero(mask[y0:y1].any(axis=0))
                pieces.append((int(xs[0]), y0, int(xs[-1]) + 1, y1))
        out.append(RawBand(kind, i, box, a, mask, tuple(pieces)))
    return out


def digit_size(raw: list[RawBand]) -> tuple[float, float]:
    """The typical digit's (height, width) over the picture: medians of row-band pieces.

    Row pieces are single glyphs (or two touching ones); column pieces may be
    whole numbers side by side, so their heights only.
    """
    heights = [p[3] - p[1] for b in raw for p in b.pieces]
    widths = [p[2] - p[0] for b in raw if b.kind == "row" for p in b.pieces]
    if not heights:
        return 0.0, 0.0
    h = float(np.median(heights))
    w = float(np.median(widths)) if widths else h * 0.7
    return h, w


def _split_wide(mask: np.ndarray, x0: int, x1: int, width: float) -> list[tuple[int, int]]:
    """Cut a run of columns wider than a digit into digits.

    Digits a pixel apart often touch only corner to corner (the foot of a 1
    and the bowl of a 0): separate 4-connected shapes whose columns do not
    overlap are separate digits. Digits that truly touch are cut at the
    faintest column near where the even split would fall.
    """
    import cv2

    if x1 - x0 <= 1.6 * width:
        return [(x0, x1)]
    sub = mask[:, x0:x1].astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(sub, connectivity=4)
    spans = sorted((int(st[cv2.CC_STAT_LEFT]), int(st[cv2.CC_STAT_LEFT] + st[cv2.CC_STAT_WIDTH]))
                   for st in stats[1:n] if st[cv2.CC_STAT_AREA] >= 2)
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    if len(merged) >= 2:
        cuts = [x0] + [x0 + m[0] for m in merged[1:]] + [x1]
        pieces = list(itertools.pairwise(cuts))
        # A piece still holding two digits is cut further.
        return [p for a, b in pieces for p in _split_wide(mask, a, b, width)
                if (a, b) != (x0, x1)] if len(pieces) > 1 else pieces
    parts = max(2, round((x1 - x0) / width))
    profile = mask[:, x0:x1].sum(axis=0)
    cuts = [x0]
    for k in range(1, parts):
        centre = (x1 - x0) * k / parts
        lo = max(int(centre - width / 3), 1)
        hi = min(int(centre + width / 3) + 1, x1 - x0 - 1)
        if hi <= lo:
            cuts.append(x0 + round(centre))
            continue
        # The faintest column, the one nearest the even split among equals.
        best = min(range(lo, hi), key=lambda i: (profile[i], abs(i - centre)))
        cuts.append(x0 + best)
    cuts.append(x1)
    return list(itertools.pairwise(cuts))


def _glyph(band: RawBand, x0: int, x1: int, y0: int, y1: int) -> Glyph | None:
    """The glyph whose ink lies in band columns x0..x1 and rows y0..y1, tightly boxed."""
    sub = band.mask[y0:y1, x0:x1]
    if not sub.any():
        return None
    ys = np.flatnonzero(sub.any(axis=1))
    xs = np.flatnonzero(sub.any(axis=0))
    gy0, gy1 = y0 + int(ys[0]), y0 + int(ys[-1]) + 1
    gx0, gx1 = x0 + int(xs[0]), x0 + int(xs[-1]) + 1
    crop = band.ink[gy0:gy1, gx0:gx1]
    top = float(crop.max())
    ink = crop / top if top > 0 else crop
    bx, by = band.box[0], band.box[1]
    return Glyph((bx + gx0, by + gy0, bx + gx1, by + gy1),
                 np.ascontiguousarray(ink, dtype=np.float32))


def segment(raw: list[RawBand], canvas: Canvas) -> list[ClueLine]:
    """Every band as numbers of glyphs, with clipping marked.

    A row clue is right-aligned and may run past the canvas's left edge. Ink
    on the edge column cuts a number: its value is unknown. A clue whose first
    ink starts closer to the edge than numbers are spaced apart may have whole
    numbers beyond it: the line is open (its visible numbers are a tail).
    """
    height, width = digit_size(raw)
    gap = 0.5 * height
    rows: list[tuple[RawBand, list[list[Glyph]]]] = []
    separations: list[int] = []
    for band in raw:
        if band.kind != "row":
            continue
        glyphs: list[Glyph] = []
        for x0, _, x1, _ in band.pieces:
            for a, b in _split_wide(band.mask, x0, x1, width):
                g = _glyph(band, a, b, 0, band.mask.shape[0])
                if g is not None:
                    glyphs.append(g)
        groups: list[list[Glyph]] = []
        for g in glyphs:
            space = g.box[0] - groups[-1][-1].box[2] if groups else 0
            if groups and space <= gap:
                groups[-1].append(g)
            else:
                if groups:
                    separations.append(space)
                groups.append([g])
        rows.append((band, groups))
    # The narrowest space seen between two numbers; without one, a generous guess.
    separation = min(separations) if separations else 2 * gap
    lines = []
    for band, groups in rows:
        numbers = [NumberBox(tuple(grp)) for grp in groups]
        opened = False
        if numbers and band.box[0] == canvas.left:
            margin = numbers[0].box[0] - canvas.left
            if margin <= gap:
                # Touching the edge, or close enough to be the tail of a cut number.
                numbers[0] = NumberBox(numbers[0].glyphs, clipped=True)
            opened = margin < separation
        lines.append(ClueLine("row", band.index, band.box, tuple(numbers), opened))
    for band in raw:
        if band.kind != "column":
            continue
        numbers = []
        for x0, y0, x1, y1 in band.pieces:
            glyphs = []
            for a, b in _runs(band.mask[y0:y1, x0:x1].any(axis=0)):
                for c, d in _split_wide(band.mask[y0:y1], x0 + a, x0 + b, width):
                    g = _glyph(band, c, d, y0, y1)
                    if g is not None:
                        glyphs.append(g)
            if glyphs:
                numbers.append(NumberBox(tuple(glyphs)))
        # Pattern squeezes a long column clue instead of clipping it; ink on the
        # canvas's top edge would still mean a cut number.
        cut = bool(numbers) and band.mask[0].any() and band.box[1] == canvas.top
        if cut:
            numbers[0] = NumberBox(numbers[0].glyphs, clipped=True)
        lines.append(ClueLine("column", band.index, band.box, tuple(numbers), cut))
    return lines
