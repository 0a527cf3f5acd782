"""Clue bands beside a located grid, found and cut into one strip per line.

Column clues sit above or below the grid, row clues left or right of it (see
`autoplayer.vision.sides`). A band on the far side is turned round so that the
board is always at its end, cut into strips as one above or left would be, and
each strip turned back (see `_turned_back`). Ink is whatever departs
from the local background towards the minority extreme (dark text on light or
light on dark, as the clue cells beside the board vote), at a contrast learned
from the band itself, so drop shadows, grey "0" boxes and pale stripes stay
background. The background is local both along a strip and across it (the
strip's own paper, `autoplayer.vision.clue_ground`), so a band fading into a
dark page, the page beside it and the seams between bands stay background too;
page text beyond the clues is left out (`autoplayer.vision.page_text`). A font
drawn in antialiased strokes a pixel wide or less is cut again against its
glyphs' own ink (`autoplayer.vision.hairline`), as no pixel of a hairline
reaches full ink. Each strip is cut into ink blobs (`autoplayer.vision.strips`);
a menu or toolbar above the column numbers, off the lines they stack on, is left out
(`autoplayer.vision.stacking`), and digits taller than the rows are cut whole from
widened row strips (`_tall_row`);
numbers are told apart from the digits inside them by the gaps between ink
columns, learned from all strips at once (`autoplayer.vision.spacing`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.clue_ground import ink_is_dark, paper_across
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.grid import Grid
from autoplayer.vision.hairline import (
    HAIRLINE_SAMPLE,
    glyph_ink,
    hairline_threshold,
    is_hairline,
)
from autoplayer.vision.image import dark_ink, grounded_ink, ink_colour, luminance
from autoplayer.vision.page_text import off_centre_line, unaligned_text
from autoplayer.vision.stacking import drop_off_lines
from autoplayer.vision.strips import (
    STRIP_CONTRAST,
    Strip,
    TallRow,
    band_end_gap,
    cut_strip,
    drop_frame,
    drop_specks,
    ink_extent,
    thickest_rule,
)
from autoplayer.vision.two_tone import two_tone_threshold

if TYPE_CHECKING:
    from autoplayer.vision.sides import ClueSides


BAND_CONTRAST = 0.35
"""Ink departs from its background by at least this share of the band's strongest ink."""


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


def _inside(rect: Rect, width: int, height: int) -> Rect:
    """The board's rectangle cut to the picture: its half of an outer line may lie beyond
    the edge, and a negative start would slice a band from the far end (or to nothing)."""
    x0, y0 = max(0, rect.x), max(0, rect.y)
    return Rect(x0, y0, min(width, rect.right) - x0, min(height, rect.bottom) - y0)


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


TALL_DIGITS = 0.9
"""Digits taller than this share of a row's strip may cross it whole (`paper_across`)."""


def find_clues(image: np.ndarray, grid: Grid, sides: ClueSides | None = None) -> ClueLayout:
    """The clue bands on the sides `sides` names (left and top when not given); cut again
    knowing it when the digits prove taller than a row's strip."""
    layout = _find_clues(image, grid, sides, None)
    heights = [b.box.h for s in layout.columns for g in s.groups for b in g]
    spans = [b - a for a, b in _boundaries(grid.ys, 0, image.shape[0])]
    if heights and spans and float(np.median(heights)) > TALL_DIGITS * float(np.median(spans)):
        return _find_clues(image, grid, sides, float(np.median(heights)))
    return layout


def _find_clues(image: np.ndarray, grid: Grid, sides: ClueSides | None, tall: float | None
                ) -> ClueLayout:
    """`find_clues`, told how tall the digits are when taller than a row's strip (the
    column strips' own digits, which nothing crosses)."""
    lum = luminance(image)
    h_img, w_img = lum.shape
    board = _inside(grid.rect, w_img, h_img)
    pitch = grid.pitch
    long = int(2 * pitch) + 1
    row_side, column_side = (sides.row, sides.column) if sides is not None else ("left", "top")
    col_band = _band(lum, board, column_side)
    row_band = _band(lum, board, row_side)
    reach = int(3 * pitch)
    near = np.concatenate([col_band[max(0, col_band.shape[0] - reach):].ravel(),
                           row_band[:, max(0, row_band.shape[1] - reach):].ravel()])
    dark = ink_is_dark(col_band, row_band, grid)
    if dark is None:
        dark = dark_ink(near) if near.size else True
    col_spans = _boundaries(grid.xs, 0, w_img)
    row_spans = _boundaries(grid.ys, 0, h_img)
    col_strength = row_strength = col_scale = row_scale = None
    rule_width = thickest_rule(pitch)
    if col_band.shape[0]:
        col_scale, col_strength = _grounded(
            col_band, False, (1, long), dark,
            paper_across(col_band, col_spans, board.x, 1, dark, rule_width, pitch,
                         tall is not None),
            rule_width, reach, grid.xs, board.x)
    if row_band.shape[1]:
        row_scale, row_strength = _grounded(
            row_band, True, (long, 1), dark,
            paper_across(row_band, row_spans, board.y, 0, dark, rule_width, pitch,
                         tall is not None),
            rule_width, reach, grid.ys, board.y)
    # A strip whose ink a line along the band outshines (a box's border along the board's
    # edge, where no frame stands) is measured without the line (`_lines_dropped`; found
    # when a strip first needs it).
    free: dict[bool, np.ndarray] = {}

    def line_free(column: bool) -> np.ndarray:
        if column not in free:
            scale = col_scale if column else row_scale
            assert scale is not None
            free[column] = _lines_dropped(scale, long, not column, rule_width)
        return free[column]

    peaks = [np.percentile(s[::2, ::2], 99.9) for s in (col_scale, row_scale)
             if s is not None and s.size]
    peak = max(peaks) if peaks else 0.0
    band_threshold = max(BAND_CONTRAST * peak, 8.0)

    ignored: list[Rect] = []
    if col_strength is not None and col_strength.size:
        col_ink = col_strength > band_threshold
        col_cut, foreign = unaligned_text(col_ink, grid.xs, board.x, pitch)
        furniture = off_centre_line(col_ink & ~foreign, grid.xs, board.x, pitch)
        if furniture > col_cut:
            col_cut, foreign = furniture, foreign.copy()
            foreign[:furniture] = True
        if col_cut:
            col_strength = np.where(foreign, 0, col_strength).astype(col_strength.dtype)
            far = column_side == "bottom"
            ignored.append(Rect(board.x, board.bottom + col_band.shape[0] - col_cut if far else 0,
                                board.w, col_cut))
    if row_strength is not None and row_strength.size:
        row_cut, foreign = unaligned_text((row_strength > band_threshold).T, grid.ys, board.y,
                                          pitch, well_across=True)
        if row_cut:
            row_strength = np.where(foreign.T, 0, row_strength).astype(row_strength.dtype)
            far = row_side == "right"
            ignored.append(Rect(board.right + row_band.shape[1] - row_cut if far else 0,
                                board.y, row_cut, board.h))
    col_depth = row_depth = 0
    col_gap = row_gap = None
    if col_strength is not None and col_strength.size:
        col_ink = col_strength > band_threshold
        col_gap = band_end_gap([col_ink[::-1, a0 - board.x:a1 - board.x].any(axis=1)
                                for a0, a1 in col_spans], pitch)
        col_depth = ink_extent(col_ink.any(axis=1)[::-1], pitch, col_gap)
    if row_strength is not None and row_strength.size:
        row_ink = row_strength > band_threshold
        row_gap = band_end_gap([row_ink[a0 - board.y:a1 - board.y, ::-1].any(axis=0)
                                for a0, a1 in row_spans], pitch)
        row_depth = ink_extent(row_ink.any(axis=0)[::-1], pitch, row_gap)

    def cut(kind: str, indices: Iterable[int], hair: float | None
            ) -> dict[int, tuple[Strip, bool]]:
        """The strips at `indices`, each with whether its ink runs off the picture.

        A strip runs along its band (x for a column, y for a row) over one line's
        span, and across it from the band's depth to the board's edge.
        """
        column = kind == "column"
        spans, strength, scale, depth, gap = (
            (col_spans, col_strength, col_scale, col_depth, col_gap) if column
            else (row_spans, row_strength, row_scale, row_depth, row_gap)
        )
        start, edge = (board.x, col_band.shape[0]) if column else (board.y, row_band.shape[1])
        out: dict[int, tuple[Strip, bool]] = {}
        for k in indices:
            a0, a1 = spans[k]
            if strength is None or not strength.size:
                box = Rect(a0, 0, a1 - a0, 0) if column else Rect(0, a0, 0, a1 - a0)
                out[k] = (Strip(kind, k, box, ()), False)
                continue
            rows = None
            if not column and tall is not None:
                a0, a1, rows = _tall_row(a0, a1, tall, start, start + strength.shape[0],
                                         k == 0, k == len(spans) - 1)
            across, along = slice(edge - depth, None), slice(a0 - start, a1 - start)
            if column:
                box, part = Rect(a0, edge - depth, a1 - a0, depth), (across, along)
            else:
                box, part = Rect(edge - depth, a0, depth, a1 - a0), (along, across)
            st, sc = strength[part], scale[part]
            # Judged on the ink reaching the board, as the strip will be: a heading beyond
            # the band's end passes where the numbers do not.
            near = _reached(st, column, band_threshold, pitch, gap)
            if near.size and float(near.max()) <= max(
                    band_threshold, STRIP_CONTRAST[dark] * float(sc.max())):
                sc = line_free(column)[part]  # nothing would pass: is its strongest a line?
            out[k] = (cut_strip(kind, k, box, st, sc, band_threshold, pitch, dark, hair, gap,
                                rows),
                      edge == depth and _touches_far_edge(st, band_threshold, pitch, kind, gap))
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
        return [glyph_ink(sample_cols, col_strength, board.x, 0),
                glyph_ink(sample_rows, row_strength, 0, board.y)]

    if is_hairline(sample_rows, sample_cols, inks):
        col_hair, row_hair = map(hairline_threshold, inks())
        col_cut = cut("column", range(n_col), col_hair)
        row_cut = cut("row", range(n_row), row_hair)
    else:
        # Digits over their own shadow are cut again between the two tones (each band
        # against its own ink: the bands' paper differs).
        col_shadow = two_tone_threshold(sample_cols, col_strength, board.x, 0, band_threshold,
                                        pitch)
        row_shadow = two_tone_threshold(sample_rows, row_strength, 0, board.y, band_threshold,
                                        pitch)
        col_cut = cut("column", range(n_col), col_shadow) if col_shadow is not None else \
            col_cut | cut("column", [k for k in range(n_col) if k not in col_cut], None)
        row_cut = cut("row", range(n_row), row_shadow) if row_shadow is not None else \
            row_cut | cut("row", [k for k in range(n_row) if k not in row_cut], None)
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
    # Lines whose ink runs off the picture keep what shows of a cut digit.
    rows = [s if s.index in clipped else drop_specks([s], digit_height)[0] for s in rows]
    columns = [s if s.index in clipped_columns else drop_specks([s], digit_height)[0]
               for s in columns]
    columns = drop_off_lines(columns, column_side)
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


def _reached(strength: np.ndarray, column: bool, threshold: float, pitch: float,
             gap: float | None) -> np.ndarray:
    """A strip's ink strength (the board at its end: bottom or right) cut to what reaches the
    board without a blank of the band's end gap, as `cut_strip` keeps it."""
    along = (strength > threshold).any(axis=1 if column else 0)
    reach = ink_extent(along[::-1], pitch, gap)
    return strength[strength.shape[0] - reach:] if column else \
        strength[:, strength.shape[1] - reach:]


def _tall_row(a0: int, a1: int, height: float, lo: int, hi: int, first: bool = False,
              last: bool = False) -> tuple[int, int, TallRow | None]:
    """A row's strip for digits `height` tall, taller than the row's span a0..a1 (within
    lo..hi): widened to hold its digits whole, their tops and feet reaching into the next
    rows' (`TallRow`). Returns the widened span and its scanlines (None: digits no more
    than a pixel taller than the span keep it as it is). The `first` row owns all above
    its span, the `last` all below: no row there shares a digit with it, and a digit
    reaching the strip's end there is cut by the band, not joined to another's."""
    over = round((height - (a1 - a0)) / 2)
    if over < 1:
        return a0, a1, None
    w0, w1 = max(lo, a0 - over - 1), min(hi, a1 + over + 1)
    c0, c1 = a0 + over + 1, a1 - over - 1
    if c1 <= c0:
        return a0, a1, None
    s0, s1 = w0 if first else a0, w1 if last else a1
    return w0, w1, TallRow((s0 - w0, s1 - w0), (c0 - w0, c1 - w0))


FURNITURE = 0.5
"""Clue numbers near the board reaching less than this share of the way to their band's
extreme ink: that extreme is page furniture (a toolbar's black icons above pale digits),
and the numbers' own ink is measured towards instead."""


def _grounded(band: np.ndarray, turned: bool, kernel_wh: tuple[int, int], dark: bool,
              ground: np.ndarray, rule_width: int, reach: int,
              spans: tuple[tuple[int, int], ...], start: int) -> tuple[np.ndarray, np.ndarray]:
    """`grounded_ink` of a clue band (`turned`: a row band, its lines down its rows), its
    ink measured towards the clue numbers' own colour when page furniture is far stronger
    (see FURNITURE)."""
    def across(a: np.ndarray) -> np.ndarray:
        return a.T if turned else a

    # The numbers' own ink sets what is a mid-tone (a seam's, `grounded_ink`): a stroke as
    # dark as the digits is no seam, though page furniture be darker still.
    numbers = _near_numbers(across(band), reach, spans, start, rule_width)
    tone = ink_colour(numbers, dark) if numbers.size else None
    scale, strength = grounded_ink(band, kernel_wh, dark, ground, rule_width, numbers=tone)
    if tone is not None and scale.size and \
            _peak(across(scale), reach, spans, start) < FURNITURE * 255:
        scale, strength = grounded_ink(band, kernel_wh, dark, ground, rule_width, colour=tone,
                                       numbers=tone)
    return scale, strength


def _lines_dropped(scale: np.ndarray, long: int, turned: bool, rule_width: int
                   ) -> np.ndarray:
    """A band's ink contrast (`scale`) less lines running along the band (across its
    strips) longer than `long`: a column strip is a pitch wide and a row strip a pitch
    tall, so no number runs that far across them. A box's border or a bar's edge along
    the board (no frame standing there) can be far stronger than faint clue ink, and
    would set a strip's threshold (a share of its strongest ink) above all of it.
    Breaks where a box's side crosses are bridged."""
    if not scale.size or scale.shape[0 if turned else 1] <= long:
        return scale
    # cv2 sizes are (w, h): a column band's lines run along its rows, a row band's down.
    kernel, bridge = ((1, long), (1, rule_width + 1)) if turned else \
        ((long, 1), (rule_width + 1, 1))
    # Strong as ink is (`BAND_CONTRAST` of the band's peak): a textured ground's weak
    # departures, bridged, would run on as far as any line.
    peak = float(np.percentile(scale[::2, ::2], 99.9))
    seen = (scale > max(BAND_CONTRAST * peak, 8.0)).view(np.uint8)
    line = cv2.morphologyEx(cv2.morphologyEx(seen, cv2.MORPH_CLOSE, np.ones(bridge[::-1],
                                                                             np.uint8)),
                            cv2.MORPH_OPEN, np.ones(kernel[::-1], np.uint8))
    if not line.any():
        return scale
    return np.where(line.astype(bool), 0.0, scale).astype(scale.dtype)


def _near_numbers(band: np.ndarray, reach: int, spans: tuple[tuple[int, int], ...],
                  start: int, skip: int = 0) -> np.ndarray:
    """Where the first clue numbers stand in a band (rows across it, the board below the
    last; its columns from `start` along the board's lines `spans`): near the board (within
    `reach`, less the `skip` rows next to it, where the board's frame may lie), in the
    lines' middles, clear of the lines between them and of the band's sides. Page
    furniture further out (a toolbar's black icons, a side panel's text) may be far
    stronger than pale clue digits."""
    end = band.shape[0] - skip
    near = band[max(0, end - reach):max(0, end)]
    middles = np.concatenate([np.arange(a + (b - a) // 6, b - (b - a) // 6) for a, b in spans])
    middles = middles[(middles >= start) & (middles < start + band.shape[1])] - start
    return near[:, middles]


def _peak(scale: np.ndarray, reach: int, spans: tuple[tuple[int, int], ...],
          start: int) -> float:
    """The clue ink's strongest contrast (`scale` as `_near_numbers` takes a band), where
    the first numbers stand, less what lines across the whole band (the board's frame,
    where the board found stops just short of it): no line of clue numbers covers half."""
    sample = _near_numbers(scale, reach, spans, start)[::2, ::2]
    if not sample.size:
        return 0.0
    across = np.median(sample, axis=1) <= 0.5 * sample.max(axis=1)
    return float(np.percentile(sample[across], 99.9)) if across.any() else 0.0


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


def _touches_far_edge(strength: np.ndarray, threshold: float, pitch: float, kind: str,
                      gap: float | None = None) -> bool:
    """Whether a strip's clue ink runs on to the picture's edge (numbers may be cut off)."""
    ink = strength > threshold
    along = ink.any(axis=0 if kind == "row" else 1)
    if ink_extent(along[::-1], pitch, gap) < along.size:
        return False
    edge = ink[:, 0] if kind == "row" else ink[0, :]
    return bool(edge.any())
