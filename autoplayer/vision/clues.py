"""Clue bands beside a located grid, cut into per-line strips, numbers and digit glyphs.

Column clues sit above or below the grid, row clues left or right of it (see
`autoplayer.vision.sides`). A band on the far side is turned round so that the
board is always at its end, cut into strips as one above or left would be, and
each strip turned back (see `_turned_back`). Ink is whatever departs
from the local background towards the minority extreme (dark text on light or
light on dark, as the clue cells beside the board vote), at a contrast learned
from the band itself, so drop shadows, grey "0" boxes and pale stripes stay
background. The background is local both along a strip and across it (the
strip's own paper), so a band fading into a dark page, the page beside it and
the seams between bands stay background too. A font drawn in antialiased strokes
a pixel wide or less is cut again against its glyphs' own ink (see `_hairline`), as
no pixel of a hairline reaches full ink. Numbers are told apart from
the digits inside them by the gaps between ink columns: the gap threshold is
learned from all strips at once, and each row strip's split into numbers is
scored as a whole (see `split_numbers`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import dark_ink, grounded_ink, luminance, runs, trim

if TYPE_CHECKING:
    from autoplayer.vision.sides import ClueSides

BAND_CONTRAST = 0.35
"""Ink departs from its background by at least this share of the band's strongest ink."""
STRIP_CONTRAST = {True: 0.45, False: 0.55}
"""... and by this share of its own strip's strongest ink: more for light ink on a dark
ground, whose antialiased edges spread wider in luminance (keyed by `dark` ink)."""
HAIRLINE_WIDTH = 1.0
"""Glyph strokes this many pixels wide (median ink run along a scanline) or less are
hairlines: see `_hairline`."""
HAIRLINE_SOLID = 0.8
"""... and antialiased: under this share of their ink pixels reach 90% of the strongest."""
HAIRLINE_SAMPLE = 10
"""Strips of each band (about) the hairline judgement looks at."""
HAIRLINE_CONTRAST = 0.35
"""A hairline font's ink departs from its background by this share of its glyphs'
typical (90th percentile) ink."""
BAND_END_GAP = 0.95
"""A band ends after this many cell pitches without ink (stacked column numbers leave
less than a pitch between them; the page above a band, a status line, may leave just
more)."""


@dataclass(frozen=True)
class Glyph:
    """One digit's ink: its box in the image and its trimmed bitmap."""

    box: Rect
    mask: np.ndarray


@dataclass(frozen=True)
class Blob:
    """A run of ink along a strip: one digit, or several that touch."""

    box: Rect
    mask: np.ndarray


@dataclass(frozen=True)
class Strip:
    """One line's clue area and the ink blobs found in it, in reading order."""

    kind: str
    """'row' or 'column'."""
    index: int
    box: Rect
    groups: tuple[tuple[Blob, ...], ...]
    """Ink blobs grouped by what cannot be one number apart (column strips: separated
    vertically; row strips: one group holding every blob, split later)."""


@dataclass(frozen=True)
class ClueLayout:
    grid: Grid
    rows: tuple[Strip, ...]
    columns: tuple[Strip, ...]
    dark: bool
    digit_height: float
    clipped_rows: tuple[int, ...]
    """Rows whose clue ink touches the image's left edge: numbers may be missing."""
    clipped_columns: tuple[int, ...] = ()
    """Columns whose clue ink touches the image's top edge."""
    ink_level: float | None = None
    """Luminance of the clue ink, and of the ground it stands on near the board: cells
    whose colour is nearer the ink are filled, whichever way the theme runs."""
    paper_level: float | None = None
    digit_width: float | None = None
    """Typical width of one digit (the widest common one), from blobs no wider than a digit
    is tall; None when there are none."""
    row_side: str = "left"
    """Where the row clues are: 'left' or 'right' of the board."""
    column_side: str = "top"
    """Where the column clues are: 'top' or 'bottom'."""
    image_size: tuple[int, int] = (0, 0)
    """(width, height) of the picture read, for distances to its far edges."""
    ignored: tuple[Rect, ...] = ()
    """Parts of the clue bands left out: ink not lined up with the board's lines (page
    text beyond the clues), for the overlay to show."""


def _boundaries(spans: tuple[tuple[int, int], ...], lo: int, hi: int) -> list[tuple[int, int]]:
    """Per-line strip extents: from the middle of one grid line to the middle of the next."""
    mids = [(spans[i - 1][1] + spans[i][0]) // 2 for i in range(1, len(spans))]
    first = max(lo, spans[0][0] - (spans[1][0] - spans[0][1]) // 2 if len(spans) > 1 else lo)
    last = min(hi, spans[-1][1] + (spans[1][0] - spans[0][1]) // 2 if len(spans) > 1 else hi)
    edges = [first, *mids, last]
    return [(edges[i], edges[i + 1]) for i in range(len(spans))]


def _extent(profile: np.ndarray, pitch: float) -> int:
    """How far from the board (index 0) the band's ink reaches before a long blank gap."""
    limit = max(3, int(BAND_END_GAP * pitch))
    last_ink = -1
    for i, has_ink in enumerate(profile):
        if has_ink:
            last_ink = i
        elif i - last_ink > limit:
            break
    return last_ink + 1


def _band(lum: np.ndarray, board: Rect, side: str) -> np.ndarray:
    """The clue band on `side` of the board, turned so that the board is at its end: a
    column band's last row and a row band's last column touch the board."""
    if side == "top":
        return lum[:max(0, board.y), board.x:board.right]
    if side == "bottom":
        return np.ascontiguousarray(lum[board.bottom:, board.x:board.right][::-1])
    if side == "left":
        return lum[board.y:board.bottom, :max(0, board.x)]
    return np.ascontiguousarray(lum[board.y:board.bottom, board.right:][:, ::-1])


def find_clues(image: np.ndarray, grid: Grid, sides: ClueSides | None = None) -> ClueLayout:
    """The clue bands on the sides `sides` names (left and top when not given)."""
    lum = luminance(image)
    h_img, w_img = lum.shape
    board = grid.rect
    pitch = grid.pitch
    long = int(2 * pitch) + 1
    row_side, column_side = (sides.row, sides.column) if sides is not None else ("left", "top")
    col_band = _band(lum, board, column_side)
    row_band = _band(lum, board, row_side)
    reach = int(3 * pitch)
    near = np.concatenate([col_band[max(0, col_band.shape[0] - reach):].ravel(),
                           row_band[:, max(0, row_band.shape[1] - reach):].ravel()])
    dark = _ink_is_dark(col_band, row_band, grid)
    if dark is None:
        dark = dark_ink(near) if near.size else True
    col_spans = _boundaries(grid.xs, 0, w_img)
    row_spans = _boundaries(grid.ys, 0, h_img)
    col_strength = row_strength = col_scale = row_scale = None
    rule_width = _rule_width(pitch)
    if col_band.shape[0]:
        band = col_band
        col_scale, col_strength = grounded_ink(
            band, (1, long), dark,
            _paper_across(band, col_spans, board.x, 1, dark, rule_width, pitch), rule_width)
    if row_band.shape[1]:
        band = row_band
        row_scale, row_strength = grounded_ink(
            band, (long, 1), dark,
            _paper_across(band, row_spans, board.y, 0, dark, rule_width, pitch), rule_width)
    peaks = [np.percentile(s[::2, ::2], 99.9) for s in (col_scale, row_scale)
             if s is not None and s.size]
    peak = max(peaks) if peaks else 0.0
    band_threshold = max(BAND_CONTRAST * peak, 8.0)

    ignored: list[Rect] = []
    if col_strength is not None and col_strength.size:
        col_cut, foreign = _unaligned(col_strength > band_threshold, grid.xs, board.x, pitch)
        if col_cut:
            col_strength = np.where(foreign, 0, col_strength).astype(col_strength.dtype)
            far = column_side == "bottom"
            ignored.append(Rect(board.x, board.bottom + col_band.shape[0] - col_cut if far else 0,
                                board.w, col_cut))
    if row_strength is not None and row_strength.size:
        row_cut, foreign = _unaligned((row_strength > band_threshold).T, grid.ys, board.y, pitch,
                                      well_across=True)
        if row_cut:
            row_strength = np.where(foreign.T, 0, row_strength).astype(row_strength.dtype)
            far = row_side == "right"
            ignored.append(Rect(board.right + row_band.shape[1] - row_cut if far else 0,
                                board.y, row_cut, board.h))
    col_depth = row_depth = 0
    if col_strength is not None and col_strength.size:
        col_depth = _extent((col_strength > band_threshold).any(axis=1)[::-1], pitch)
    if row_strength is not None and row_strength.size:
        row_depth = _extent((row_strength > band_threshold).any(axis=0)[::-1], pitch)

    def cut(kind: str, indices: Iterable[int], hair: float | None
            ) -> dict[int, tuple[Strip, bool]]:
        """The strips at `indices`, each with whether its ink runs off the picture.

        A strip runs along its band (x for a column, y for a row) over one line's
        span, and across it from the band's depth to the board's edge.
        """
        column = kind == "column"
        spans, strength, scale, depth = (
            (col_spans, col_strength, col_scale, col_depth) if column
            else (row_spans, row_strength, row_scale, row_depth)
        )
        start, edge = (board.x, col_band.shape[0]) if column else (board.y, row_band.shape[1])
        out: dict[int, tuple[Strip, bool]] = {}
        for k in indices:
            a0, a1 = spans[k]
            if strength is None or not strength.size:
                box = Rect(a0, 0, a1 - a0, 0) if column else Rect(0, a0, 0, a1 - a0)
                out[k] = (Strip(kind, k, box, ()), False)
                continue
            across, along = slice(edge - depth, None), slice(a0 - start, a1 - start)
            if column:
                box, part = Rect(a0, edge - depth, a1 - a0, depth), (across, along)
            else:
                box, part = Rect(edge - depth, a0, depth, a1 - a0), (along, across)
            st, sc = strength[part], scale[part]
            out[k] = (_strip(kind, k, box, st, sc, band_threshold, pitch, dark, hair),
                      edge == depth and _touches_far_edge(st, band_threshold, pitch, kind))
        return out

    # Whether the font is a hairline one is judged on a sample of the strips (one font
    # serves the whole band); the sample is kept when the usual threshold stands.
    n_col, n_row = len(col_spans), len(row_spans)
    col_step, row_step = max(1, n_col // HAIRLINE_SAMPLE), max(1, n_row // HAIRLINE_SAMPLE)
    col_cut = cut("column", range(0, n_col, col_step), None)
    row_cut = cut("row", range(0, n_row, row_step), None)
    sample_cols = drop_frame([st for st, _ in col_cut.values()], pitch)
    sample_rows = drop_frame([st for st, _ in row_cut.values()], pitch)

    def inks() -> list[np.ndarray]:
        return [_glyph_ink(sample_cols, col_strength, board.x, 0),
                _glyph_ink(sample_rows, row_strength, 0, board.y)]

    if _hairline(sample_rows, sample_cols, inks):
        col_hair, row_hair = map(_hairline_threshold, inks())
        col_cut = cut("column", range(n_col), col_hair)
        row_cut = cut("row", range(n_row), row_hair)
    else:
        col_cut |= cut("column", [k for k in range(n_col) if k not in col_cut], None)
        row_cut |= cut("row", [k for k in range(n_row) if k not in row_cut], None)
    columns = drop_frame([col_cut[k][0] for k in range(n_col)], pitch)
    rows = drop_frame([row_cut[k][0] for k in range(n_row)], pitch)
    if column_side == "bottom":
        columns = [_turned_back(st, board.bottom, col_band.shape[0]) for st in columns]
    if row_side == "right":
        rows = [_turned_back(st, board.right, row_band.shape[1]) for st in rows]
    clipped_columns = [k for k in range(n_col) if col_cut[k][1]]
    clipped = [k for k in range(n_row) if row_cut[k][1]]
    heights = [b.box.h for s in (*rows, *columns) for g in s.groups for b in g]
    digit_height = float(np.median(heights)) if heights else pitch * 0.6
    widths = [b.box.w for s in (*rows, *columns) for g in s.groups for b in g
              if b.box.w <= 1.1 * digit_height]
    digit_width = float(np.percentile(widths, 75)) if widths else None
    ink_level = paper_level = None
    if near.size:
        ink_level = float(np.percentile(near, 0.5 if dark else 99.5))
        paper_level = float(np.median(near))
    return ClueLayout(grid, tuple(rows), tuple(columns), dark, digit_height, tuple(clipped),
                      tuple(clipped_columns), ink_level, paper_level, digit_width,
                      row_side, column_side, (w_img, h_img), tuple(ignored))


def _unaligned(ink: np.ndarray, spans: tuple[tuple[int, int], ...], start: int,
               pitch: float, well_across: bool = False) -> tuple[int, np.ndarray]:
    """How deep (from the band's far side, index 0) ink lies that does not line up with
    the lines: page text (a heading, a status line) whose glyphs cross the boundaries
    between lines, where no clue number reaches. 0 when there is none.

    `ink` is a column band as `_band` turns it (the board below its last row; a row
    band is passed transposed), `spans` the lines along it beginning at `start`.
    Everything from the far side down to the text's baseline (the median bottom of
    its crossing glyphs) goes, and with it any glyph reaching across that line (the
    tail of a "g" hanging down between the clue numbers). Returns that depth and
    the pixels that go. `well_across`: only glyphs reaching well over a boundary and
    less than one and a half lines long count (row bands, whose tall digits' drop
    shadows may reach the next row's digits).
    """
    none = (0, np.zeros(ink.shape, bool))
    if ink.size == 0 or len(spans) < 2:
        return none
    bounds = [(spans[i - 1][1] + spans[i][0]) // 2 - start for i in range(1, len(spans))]
    bounds = [b for b in bounds if 0 <= b < ink.shape[1]]
    if not bounds or not ink[:, bounds].any():
        return none
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    crossing = np.unique(labels[:, bounds])
    x0, y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1, y1 = x0 + stats[:, cv2.CC_STAT_WIDTH], y0 + stats[:, cv2.CC_STAT_HEIGHT]

    def holds_another(i: int) -> bool:  # a box drawn round a clue number, not a glyph
        inside = (x0 > x0[i]) & (x1 < x1[i]) & (y0 > y0[i]) & (y1 < y1[i])
        inside[0] = False
        return bool(inside.any())

    w, h = x1 - x0, y1 - y0
    edges = np.array(bounds)

    def across(i: int) -> bool:  # well across a boundary, not a shadow or tail just over it
        reach = np.minimum(edges - x0[i], x1[i] - edges)
        return bool((reach >= max(2.0, 0.2 * w[i])).any())

    # Glyph-shaped: not a piece of a rule (thin across), not a speck, not a box.
    glyphs = [int(i) for i in crossing
              if i and 3 <= w[i] < 4 * pitch and max(4.0, 0.25 * pitch) <= h[i] < 2 * pitch
              and stats[i, cv2.CC_STAT_AREA] >= 8
              and w[i] >= 0.2 * h[i] and not holds_another(int(i))
              and (not well_across or (across(int(i)) and w[i] < 1.5 * pitch))]
    if len(glyphs) < 2:
        return none
    text = float(np.median(h[glyphs]))
    # The text line nearest the board (others beyond it go with it): glyph bottoms
    # grouped by baseline, the nearest group of two or more.
    bottoms = np.sort(y1[glyphs])
    groups = np.split(bottoms, np.flatnonzero(np.diff(bottoms) > max(2.0, text / 2)) + 1)
    lines = [g for g in groups if g.size >= 2]
    if not lines:
        return none
    line = int(np.median(lines[-1]))
    # Hanging below the baseline: glyphs reaching across it, and small marks of the text
    # line crossing a boundary just under it (an underscore, the end of a descender).
    hanging = np.flatnonzero((y0 < line) & (y1 > line) & (h < 2 * pitch))
    marks = np.array([i for i in crossing if i and y0[i] < line + text and h[i] < 0.5 * text],
                     int)
    foreign = np.isin(labels, np.concatenate([hanging[hanging > 0], marks]))
    foreign[:line] = True
    return line, foreign


def _turned_back(strip: Strip, start: int, size: int) -> Strip:
    """A strip cut from a turned band (`_band`) in the picture's own coordinates and
    reading order; the band began at `start` (the board's far edge) and is `size` deep."""
    row = strip.kind == "row"

    def back(r: Rect) -> Rect:
        if row:
            return Rect(start + size - r.right, r.y, r.w, r.h)
        return Rect(r.x, start + size - r.bottom, r.w, r.h)

    def blob(b: Blob) -> Blob:
        return Blob(back(b.box), np.ascontiguousarray(b.mask[:, ::-1] if row else b.mask[::-1]))

    if row:  # one group, its blobs right to left as cut: reverse them
        groups = tuple(tuple(blob(b) for b in reversed(g)) for g in strip.groups)
    else:  # stacked groups bottom to top as cut: reverse the stack
        groups = tuple(tuple(blob(b) for b in g) for g in reversed(strip.groups))
    return Strip(strip.kind, strip.index, back(strip.box), groups)


def _glyph_ink(strips: list[Strip], strength: np.ndarray | None, x0: int, y0: int
               ) -> np.ndarray:
    """The ink strength of every glyph pixel of a band (`strength` starts at x0, y0)."""
    if strength is None:
        return np.zeros(0, np.float32)
    values = [strength[b.box.y - y0:b.box.bottom - y0, b.box.x - x0:b.box.right - x0][b.mask]
              for s in strips for g in s.groups for b in g]
    return np.concatenate(values) if values else np.zeros(0, np.float32)


def _hairline(rows: list[Strip], columns: list[Strip], inks: Callable[[], list[np.ndarray]]
              ) -> bool:
    """Whether the clue font is drawn in antialiased strokes a pixel wide or less.

    Antialiasing spreads such a stroke over two pixels at well under full ink, so the
    usual threshold keeps only parts of it and small digits fall apart. A font drawn
    without antialiasing has nothing fainter to recover: nearly all its ink (`inks`,
    asked for only when the strokes are thin) is at full strength.
    """
    masks = [b.mask for s in (*rows, *columns) for g in s.groups for b in g]
    if not masks:
        return False
    # Every mask's rows end to end, a blank after each row, so runs never join across.
    rowwise = []
    for m in masks:
        padded = np.zeros((m.shape[0], m.shape[1] + 1), bool)
        padded[:, :-1] = m
        rowwise.append(padded.ravel())
    widths = np.diff(np.flatnonzero(np.diff(np.concatenate(([False], *rowwise)).astype(np.int8))))
    if float(np.median(widths[::2])) > HAIRLINE_WIDTH:
        return False
    ink = np.concatenate(inks())
    return bool(ink.size) and float(np.mean(ink >= 0.9 * ink.max())) < HAIRLINE_SOLID


def _hairline_threshold(ink: np.ndarray) -> float | None:
    """An ink threshold for hairline glyphs: a share of the glyphs' own typical ink (their
    strongest pixels stay under the band's extreme), so what is left of a hairline counts."""
    if not ink.size:
        return None
    return max(8.0, HAIRLINE_CONTRAST * float(np.percentile(ink, 90)))


def _paper_across(band: np.ndarray, spans: list[tuple[int, int]], offset: int, axis: int,
                  dark: bool, rule_width: int, pitch: float) -> np.ndarray:
    """Each strip's paper at each point along it: its brightest pixel across the strip
    there (darkest for light ink). A strip is taller than its digits, so paper shows
    above or below every stroke; outside every strip nothing is bounded.

    Paper is an area, not a line: a highlight no wider than a rule (a bar's bright
    edge, along or across) is not the paper, or the whole bar would look like a
    mid-tone seam. Where a number's strokes leave no such area across the strip (the
    feet of a wide "12"), the paper within half a cell along stands in (beyond the
    digit), no brighter than the brightest pixel there.
    """
    if not band.size:
        return band.copy()
    square = (rule_width + 1, rule_width + 1)
    reach = 2 * int(pitch / 2) + 1
    along = (reach, 1) if axis == 0 else (1, reach)
    thin_out, spread, lower = ((cv2.MORPH_ERODE, cv2.MORPH_DILATE, np.minimum) if dark
                               else (cv2.MORPH_DILATE, cv2.MORPH_ERODE, np.maximum))
    raw = _across(band, spans, offset, axis, dark)
    # Beyond the band's edge is no paper: a highlight along its edge is not an area.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, square)
    thinned = cv2.morphologyEx(band, thin_out, kernel, borderType=cv2.BORDER_CONSTANT,
                               borderValue=0.0 if dark else 255.0)
    area = _across(thinned, spans, offset, axis, dark)
    nearby = lower(raw, _morph(area, spread, along))
    return np.maximum(area, nearby) if dark else np.minimum(area, nearby)


def _across(band: np.ndarray, spans: list[tuple[int, int]], offset: int, axis: int,
            dark: bool) -> np.ndarray:
    """The brightest (dark ink; else darkest) pixel across each strip, along it."""
    ground = np.full_like(band, 255.0 if dark else 0.0)
    pick = np.max if dark else np.min
    for a, b in spans:
        a, b = max(0, a - offset), min(band.shape[axis], b - offset)
        if b <= a:
            continue
        if axis == 0:
            ground[a:b, :] = pick(band[a:b, :], axis=0)
        else:
            ground[:, a:b] = pick(band[:, a:b], axis=1)[:, None]
    return ground


def _ink_is_dark(col_band: np.ndarray, row_band: np.ndarray, grid: Grid) -> bool | None:
    """Whether clue ink is darker than its ground, voted by the clue cells next to the board.

    Each cell beside the board (where every line's last number sits) is mostly its
    own ground with a digit on it: the digit is the extreme further from the cell's
    median. Cells judged one by one are not swayed by what lies beyond a short band
    (page text, a dark page a band fades into); each votes with its contrast, so
    cells holding no digit hardly count. None when no cell has room beside the board.
    """
    board = grid.rect
    side = round(grid.pitch)
    k = min(b - a for a, b in (*grid.xs, *grid.ys))
    cells = []
    if col_band.shape[0] >= side:
        cells += [col_band[-side:, x0 - board.x:x0 - board.x + k].ravel() for x0, _ in grid.xs]
    if row_band.shape[1] >= side:
        cells += [row_band[y0 - board.y:y0 - board.y + k, -side:].ravel() for y0, _ in grid.ys]
    cells = [c for c in cells if c.size == side * k]
    if not cells or k < 1:
        return None
    lo, med, hi = np.percentile(np.stack(cells), [0.5, 50, 99.5], axis=1)
    return bool(((med - lo) - (hi - med)).sum() >= 0)


def _touches_far_edge(strength: np.ndarray, threshold: float, pitch: float, kind: str) -> bool:
    """Whether a strip's clue ink runs on to the picture's edge (numbers may be cut off)."""
    ink = strength > threshold
    along = ink.any(axis=0 if kind == "row" else 1)
    if _extent(along[::-1], pitch) < along.size:
        return False
    edge = ink[:, 0] if kind == "row" else ink[0, :]
    return bool(edge.any())


def _morph(a: np.ndarray, op: int, wh: tuple[int, int]) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, wh)
    return cv2.morphologyEx(a, op, kernel, borderType=cv2.BORDER_REPLICATE)


def _strip(kind: str, index: int, box: Rect, strength: np.ndarray, scale: np.ndarray,
           band_threshold: float, pitch: float, dark: bool = True,
           hairline: float | None = None) -> Strip:
    if strength.size == 0:
        return Strip(kind, index, box, ())
    # Keep only what reaches the board without a long blank gap (the band's far side
    # may hold unrelated labels and buttons), then threshold against this strip's ink.
    along = (strength > band_threshold).any(axis=0 if kind == "row" else 1)
    reach = _extent(along[::-1], pitch)
    if kind == "row":
        x_off, y_off = box.x + strength.shape[1] - reach, box.y
        strength = strength[:, strength.shape[1] - reach:]
        scale = scale[:, scale.shape[1] - reach:]
    else:
        x_off, y_off = box.x, box.y + strength.shape[0] - reach
        strength = strength[strength.shape[0] - reach:, :]
        scale = scale[scale.shape[0] - reach:, :]
    if strength.size == 0:
        return Strip(kind, index, box, ())
    threshold = hairline if hairline is not None else max(
        band_threshold, STRIP_CONTRAST[dark] * float(scale.max()))
    ink = _main_line(_drop_edge_slivers(_drop_rules(strength > threshold, kind, pitch), kind,
                                        pitch), kind)
    if not ink.any():
        return Strip(kind, index, box, ())
    if kind == "column":
        groups = []
        for y0, y1 in runs(ink.any(axis=1)):
            blobs = _blobs_across(ink[y0:y1], x_off, y_off + y0)
            if blobs:
                groups.append(tuple(blobs))
    else:
        blobs = _blobs_across(ink, x_off, y_off)
        groups = [tuple(blobs)] if blobs else []
    groups = _drop_specks([tuple(b for b in g if not _is_rule(b, box, kind, pitch))
                           for g in groups])
    return Strip(kind, index, box, tuple(g for g in groups if g))


def _is_rule(blob: Blob, strip: Rect, kind: str, pitch: float) -> bool:
    """A piece of a line, not a digit: hair-thin across the text."""
    w, h = blob.box.w, blob.box.h
    thin, long = (w, h) if kind == "row" else (h, w)
    return thin < 0.15 * long


def _drop_edge_slivers(ink: np.ndarray, kind: str, pitch: float) -> np.ndarray:
    """Remove pieces of the line between two strips: shapes against a side of the strip
    (within a rule's width of it), longer than wide, with nearly all their ink within
    two rules' width of the side, and either running on to the strip's end at the
    board or with no digit just inside them. (A bar's dark edge shows as ink only where
    its shading deepens, so it is too short to be dropped as a line. Digits keep clear
    of the board; one against the side is part of a number wide enough to reach it,
    whose next digit stands close beside it; one touching the shading reaches well
    inside.)"""
    # Work with the sides left and right (a column strip's sides run down it).
    m = ink if kind == "column" else ink.T
    rule = _rule_width(pitch)
    w = m.shape[1]
    if w <= 4 * rule + 2 or not (m[:, :rule + 1].any() or m[:, w - rule - 1:].any()):
        return ink
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m.astype(np.uint8), connectivity=8)
    bad = []
    for i in range(1, n):
        x0 = int(stats[i, cv2.CC_STAT_LEFT])
        x1 = x0 + int(stats[i, cv2.CC_STAT_WIDTH])
        left = x0 <= rule
        if not left and x1 < w - rule:
            continue
        y0, h = int(stats[i, cv2.CC_STAT_TOP]), int(stats[i, cv2.CC_STAT_HEIGHT])
        if stats[i, cv2.CC_STAT_AREA] <= rule and (x1 <= rule + 1 if left else x0 >= w - rule - 1):
            bad.append(i)  # a speck of shading (broken up by a texture) in the side's margin
            continue
        if 2 * min(x1 - x0, rule) >= h:
            continue
        cols = (labels[y0:y0 + h] == i).sum(axis=0)
        side = np.arange(w)
        near = (side <= 2 * rule) if left else (side >= w - 1 - 2 * rule)
        if cols[~near].sum() > 0.1 * cols.sum():
            continue
        inside = slice(x1, x1 + rule + 2) if left else slice(max(0, x0 - rule - 2), x0)
        beside = np.unique(labels[y0:y0 + h, inside])
        if y0 + h < m.shape[0] - 2 and any(j not in (0, i) and stats[j, cv2.CC_STAT_HEIGHT] * 2
                                           >= h for j in beside):
            continue  # the next digit of a number wide enough to reach the side
        bad.append(i)
    if not bad:
        return ink
    out = m & ~np.isin(labels, bad)
    return out if kind == "column" else out.T


def _near(blob: Blob, strip: Strip) -> int:
    """Distance from the blob to the board side of its strip."""
    if strip.kind == "row":
        return strip.box.right - blob.box.right
    return strip.box.bottom - blob.box.bottom


def _thin(blob: Blob, kind: str) -> int:
    return blob.box.w if kind == "row" else blob.box.h


def drop_frame(strips: list[Strip], pitch: float) -> list[Strip]:
    """Remove pieces of the board's frame: thin ink closer to the board than clues ever sit.

    Clue numbers keep one distance from the board in every strip; a frame line
    (possibly broken up by stripes behind it) sits clearly closer.
    """
    lasts = [s.groups[-1][-1] for s in strips if s.groups]
    solid = [_near(b, s) for s, b in zip([s for s in strips if s.groups], lasts, strict=True)
             if _thin(b, s.kind) > max(3, 0.15 * pitch)]
    if not solid:
        return strips
    usual = float(np.median(solid))
    out = []
    for s in strips:
        groups = []
        for g in s.groups:
            kept = tuple(b for b in g if not (_thin(b, s.kind) <= max(3, 0.15 * pitch)
                                              and _near(b, s) < usual - 0.15 * pitch))
            if kept:
                groups.append(kept)
        out.append(Strip(s.kind, s.index, s.box, tuple(groups)))
    return out


def _blobs_across(ink: np.ndarray, x_off: int, y_off: int) -> list[Blob]:
    out = []
    for x0, x1 in runs(ink.any(axis=0)):
        part, dy, _ = trim(ink[:, x0:x1])
        out.append(Blob(Rect(x_off + x0, y_off + dy, x1 - x0, part.shape[0]), part))
    return out


def _rule_width(pitch: float) -> int:
    """The thickest line taken for a rule (a box border, a seam, the frame), not a stroke."""
    return max(2, int(pitch * 0.12))


def _drop_rules(ink: np.ndarray, kind: str, pitch: float) -> np.ndarray:
    """Remove box borders, separators and the board's frame: thin lines across the whole
    strip, and anything longer along the strip than three cells."""
    across_axis = 0 if kind == "row" else 1
    across = ink.shape[across_axis]
    thin = _rule_width(pitch)
    full = ink.sum(axis=across_axis) >= across
    if full.any():
        ink = ink.copy()
        for a, b in runs(full):
            if b - a <= thin:
                if kind == "row":
                    ink[:, a:b] = False
                else:
                    ink[a:b, :] = False
    along_extent = max((b - a for a, b in runs(ink.any(axis=across_axis))), default=0)
    if along_extent <= 3 * pitch:
        return ink
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    bad = [i for i in range(1, n)
           if max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) > 3 * pitch]
    return ink & ~np.isin(labels, bad) if bad else ink


def _main_line(ink: np.ndarray, kind: str) -> np.ndarray:
    """Keep only the band of ink a row's numbers share across its strip.

    A row's numbers all sit at one height, so their ink forms one unbroken run
    of scanlines. Ink separated from it by a blank scanline is something else:
    the seam between two clue bands, the tails of the neighbouring row's
    digits. (Column strips are left alone: a two-digit number there leaves a
    blank column between its digits.)
    """
    if kind != "row":
        return ink
    # Lines at its ends running the strip's whole height (the board's frame) would
    # join everything up: they do not count here, and stay for `drop_frame`.
    tall = ink.mean(axis=0) >= 0.9
    tall[3:-3] = False
    counts = ink[:, ~tall].sum(axis=1)
    parts = runs(counts > 0)
    if len(parts) < 2:
        return ink
    a, b = max(parts, key=lambda p: int(counts[p[0]:p[1]].sum()))
    out = np.zeros_like(ink)
    out[a:b] = ink[a:b]
    return out


def _drop_specks(groups: list[tuple[Blob, ...]]) -> list[tuple[Blob, ...]]:
    """Forget ink far smaller than the strip's digits (antialiasing dust, pointer edges)."""
    heights = [b.box.h for g in groups for b in g]
    if not heights:
        return groups
    tallest = max(heights)
    out = []
    for g in groups:
        kept = tuple(b for b in g if b.box.h >= 0.45 * tallest)
        if kept:
            out.append(kept)
    return out


def split_touching(blob: Blob, digit_height: float, digit_width: float | None = None
                   ) -> list[Glyph]:
    """Cut a blob into digits where it is too wide for one.

    It is cut into as many digits as the band's typical digit width (when known) says, each
    cut where the ink on either side is least connected: between two columns whose
    ink does not touch (even diagonally) if there is such a place near where the cut
    should fall, else at the thinnest columns.
    """
    mask = blob.mask
    h, w = mask.shape
    widest_digit = 1.1 * max(h, digit_height)
    if w <= widest_digit or w < 4:
        return [Glyph(blob.box, mask)]
    apart = _apart_columns(mask)
    if apart:
        # Digits a pixel apart touching only corner to corner (a 1's foot and a 0's bowl
        # in a bold font): shapes whose columns do not overlap are digits of their own.
        glyphs = []
        for a, b in itertools.pairwise([0, *apart, w]):
            part, dy, dx = trim(mask[:, a:b])
            if part.size:
                piece = Blob(Rect(blob.box.x + a + dx, blob.box.y + dy, part.shape[1],
                                  part.shape[0]), part)
                glyphs += split_touching(piece, digit_height, digit_width)
        return glyphs
    typical = digit_width if digit_width else 0.62 * max(h, digit_height)
    parts = min(3, max(2, int(w / typical + 0.5)))
    column_ink = mask.sum(axis=0).astype(float)
    # links[b]: ink pixels of column b - 1 touching ink of column b (8-connected).
    padded = np.pad(mask, ((1, 1), (0, 0)))
    near = padded[:-2, 1:] | padded[1:-1, 1:] | padded[2:, 1:]
    links = np.concatenate(([0], (mask[:, :-1] & near).sum(axis=0)))
    cuts = []
    for k in range(1, parts):
        centre = w * k / parts
        lo, hi = int(centre - w / (3 * parts)), int(centre + w / (3 * parts)) + 1
        lo, hi = max(1, lo), min(w - 1, hi)
        if hi <= lo:
            return [Glyph(blob.box, mask)]
        cuts.append(min(range(lo, hi), key=lambda b: (links[b], column_ink[b - 1] + column_ink[b],
                                                      abs(b - centre))))
    glyphs = []
    edges = [0, *cuts, w]
    for a, b in itertools.pairwise(edges):
        part, dy, dx = trim(mask[:, a:b])
        if part.size == 0:
            continue
        glyphs.append(Glyph(Rect(blob.box.x + a + dx, blob.box.y + dy, part.shape[1],
                                 part.shape[0]), part))
    return glyphs


def _apart_columns(mask: np.ndarray) -> list[int]:
    """Columns where the mask's 4-connected shapes part without sharing a column."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    spans = sorted((int(s[cv2.CC_STAT_LEFT]), int(s[cv2.CC_STAT_LEFT] + s[cv2.CC_STAT_WIDTH]))
                   for s in stats[1:n] if s[cv2.CC_STAT_AREA] >= 2)
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [m[0] for m in merged[1:]]


def gap_threshold(layout: ClueLayout) -> tuple[float, float]:
    """The typical gap inside a number and between numbers, learned from every strip.

    Column strips give gaps inside numbers for free (their numbers are stacked,
    so every horizontal gap in a column group is inside one number); row strips
    mix both kinds. Two means on all gaps split them; when the data has only one
    kind, the digit height sets the scale.
    """
    inside: list[int] = []
    mixed: list[int] = []
    for strip in layout.columns:
        for g in strip.groups:
            inside += [g[i].box.x - g[i - 1].box.right for i in range(1, len(g))]
    for strip in layout.rows:
        for g in strip.groups:
            mixed += [g[i].box.x - g[i - 1].box.right for i in range(1, len(g))]
    gaps = np.array(inside + mixed, dtype=float)
    scale = layout.digit_height
    if gaps.size >= 2:
        lo, hi = float(gaps.min()), float(gaps.max())
        for _ in range(20):
            mid = (lo + hi) / 2
            a, b = gaps[gaps <= mid], gaps[gaps > mid]
            if a.size == 0 or b.size == 0:
                break
            lo, hi = float(a.mean()), float(b.mean())
        # Two real clusters sit far apart; otherwise every gap is of one kind.
        if hi - lo >= 0.25 * scale and hi >= 1.8 * max(lo, 1.0):
            if inside:
                lo = min(lo, float(np.median(inside)))
            return lo, hi
    typical = float(np.median(gaps)) if gaps.size else 0.0
    if inside or (gaps.size and typical < 0.3 * scale):
        lo = min(typical, float(np.median(inside))) if inside else typical
        return lo, max(lo + 0.3 * scale, 0.5 * scale)
    hi = typical if gaps.size else 0.5 * scale
    return min(0.1 * scale, hi / 3), hi
