"""The ground clue ink stands on, and which way the ink runs (dark on light or light on dark).

Ink is measured against its local ground, not one background for the whole
picture: a band may fade into a dark page, stripes may run behind the numbers,
a bar's edges may shine. `paper_across` gives every strip its own paper along
it; `ink_is_dark` lets the clue cells beside the board vote on the ink's
polarity.
"""

from __future__ import annotations

import cv2
import numpy as np

from autoplayer.vision.grid import Grid

SOLID_INK = 0.15
"""Ink within this share of the way from the band's extreme to its median is solid ink."""


def paper_across(band: np.ndarray, spans: list[tuple[int, int]], offset: int, axis: int,
                 dark: bool, rule_width: int, pitch: float, tall: bool = False) -> np.ndarray:
    """Each strip's paper at each point along it: its brightest pixel across the strip
    there (darkest for light ink). A strip is taller than its digits, so paper shows
    above or below every stroke; outside every strip nothing is bounded.

    Paper is an area, not a line: a highlight no wider than a rule (a bar's bright
    edge, along or across) is not the paper, or the whole bar would look like a
    mid-tone seam. Where a number's strokes leave no such area across the strip (the
    feet of a wide "12"), the paper within half a cell along stands in (beyond the
    digit), no brighter than the brightest pixel there. With `tall` digits (taller than
    a strip: the stem of a 1 crosses it whole) that cap is looked for within half a cell
    across too where solid ink crosses the strip (the frame of a bar, solid too, would
    pass for ink: only digits known to be tall get this), and where it is solid there too
    (the stems of 1s stacked in three lines run on unbroken) the paper beside the stem
    along the strip stands in alone.
    """
    if not band.size:
        return band.copy()
    square = (rule_width + 1, rule_width + 1)
    reach = 2 * int(pitch / 2) + 1
    along = (reach, 1) if axis == 0 else (1, reach)
    thin_out, spread, lower = ((cv2.MORPH_ERODE, cv2.MORPH_DILATE, np.minimum) if dark
                               else (cv2.MORPH_DILATE, cv2.MORPH_ERODE, np.maximum))
    raw = _across(band, spans, offset, axis, dark)
    stacked = None
    if tall:
        # A strip crossed wholly by ink as dark as the band's darkest (light: as light)
        # is crossed by a stroke of a digit taller than the strip: its paper lies beyond.
        ink_level, middle = np.percentile(band, [0.5 if dark else 99.5, 50])
        limit = SOLID_INK * abs(middle - ink_level)
        solid = np.abs(raw - ink_level) < limit
        # A stroke is narrower along the strip than half a cell: solid further along is an
        # area of that tone (a dark page beside a short band), not a digit's stem.
        wide = _morph(solid.astype(np.uint8), cv2.MORPH_OPEN, _along_half(axis, pitch))
        solid &= wide == 0
        if solid.any():
            raw = np.where(solid, _across(band, spans, offset, axis, dark, reach // 2), raw)
            # Still solid half a cell beyond: the stems of one digit stacked in the next
            # lines too ("1" over "1" over "1") run on unbroken. Only the paper along the
            # strip, beside the stem, is left to measure it against.
            stacked = solid & (np.abs(raw - ink_level) < limit)
    # Beyond the band's edge is no paper: a highlight along its edge is not an area.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, square)
    thinned = cv2.morphologyEx(band, thin_out, kernel, borderType=cv2.BORDER_CONSTANT,
                               borderValue=0.0 if dark else 255.0)
    area = _across(thinned, spans, offset, axis, dark)
    beside = _morph(area, spread, along)
    nearby = lower(raw, beside)
    if stacked is not None and stacked.any():
        nearby = np.where(stacked, beside, nearby)
    return np.maximum(area, nearby) if dark else np.minimum(area, nearby)


def _along_half(axis: int, pitch: float) -> tuple[int, int]:
    """A cv2 kernel (w, h) just over half a cell long along the strips of a band whose lines
    run along `axis` (0: rows, the strips run along x)."""
    half = int(pitch / 2) + 1
    return (half, 1) if axis == 0 else (1, half)


def _across(band: np.ndarray, spans: list[tuple[int, int]], offset: int, axis: int,
            dark: bool, margin: int = 0) -> np.ndarray:
    """The brightest (dark ink; else darkest) pixel across each strip (widened by `margin`
    on either side), along it."""
    ground = np.full_like(band, 255.0 if dark else 0.0)
    pick = np.max if dark else np.min
    n = band.shape[axis]
    for a, b in spans:
        a, b = max(0, a - offset), min(n, b - offset)
        if b <= a:
            continue
        c, d = max(0, a - margin), min(n, b + margin)
        if axis == 0:
            ground[a:b, :] = pick(band[c:d, :], axis=0)
        else:
            ground[:, a:b] = pick(band[:, c:d], axis=1)[:, None]
    return ground


def _morph(a: np.ndarray, op: int, wh: tuple[int, int]) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, wh)
    return cv2.morphologyEx(a, op, kernel, borderType=cv2.BORDER_REPLICATE)


def ink_is_dark(col_band: np.ndarray, row_band: np.ndarray, grid: Grid) -> bool | None:
    """Whether clue ink is darker than its ground, voted by the clue cells next to the board.

    Each cell beside the board (where every line's last number sits) is mostly its
    own ground with a digit on it: the digit is the extreme further from the cell's
    ground. Cells judged one by one are not swayed by what lies beyond a short band
    (page text, a dark page a band fades into); each votes with its contrast, so
    cells holding no digit hardly count. A cell whose extremes are even (`EVEN`: a
    bevel's thin highlight as light as its digit is dark) votes by how much departs
    each way. The ground is taken locally and lines along
    the band left out (`_off_ground`): a gradient under faint ink spans more levels
    than the ink departs by, and a box's border or highlight along the board's edge
    more still; either would pass for the ink. None when no cell has room beside the
    board.
    """
    board = grid.rect
    side = round(grid.pitch)
    k = min(b - a for a, b in (*grid.xs, *grid.ys))
    cells = []
    if col_band.shape[0] >= side:
        spans = [(x0 - board.x, x0 - board.x + k) for x0, _ in grid.xs]
        near = _off_ground(col_band[-side:], grid.pitch, along=1, cells=spans)
        cells += [near[:, a:b].ravel() for a, b in spans]
    if row_band.shape[1] >= side:
        spans = [(y0 - board.y, y0 - board.y + k) for y0, _ in grid.ys]
        near = _off_ground(row_band[:, -side:], grid.pitch, along=0, cells=spans)
        cells += [near[a:b].ravel() for a, b in spans]
    cells = [c for c in cells if c.size == side * k]
    if not cells or k < 1:
        return None
    off = np.stack(cells)
    lo, hi = np.percentile(off, [0.5, 99.5], axis=1)
    reach = np.maximum(-lo, hi)
    votes = -lo - hi
    # Extremes about as far either way (a bevel's highlight as light as the digit is
    # dark): how much departs each way settles the cell.
    dark = np.where(off <= -GROUND_FLOOR, -off, 0.0).sum(axis=1)
    light = np.where(off >= GROUND_FLOOR, off, 0.0).sum(axis=1)
    even = np.abs(votes) < EVEN * reach
    share = (dark - light) / np.maximum(dark + light, 1.0)
    # A digit over its drop shadow of the other polarity (black digits, a pale shadow, on
    # a mid-grey page) departs strongly both ways, the shadow perhaps further: the side
    # that is the other's offset copy, less what the other hides of it, is the shadow.
    both = ~even & (np.minimum(-lo, hi) >= BOTH_WAYS * reach)
    if both.any():  # one font, one shadow: the cells are judged together
        cells3 = off[both].reshape(int(both.sum()), -1, k)
        darker = cells3 <= 0.5 * lo[both, None, None]
        lighter = cells3 >= 0.5 * hi[both, None, None]
        shift = max(1, round(SHADOW_SHIFT * grid.pitch))
        dark_casts = shadow_misfit(darker, lighter, shift)
        light_casts = shadow_misfit(lighter, darker, shift)
        if min(dark_casts, light_casts) <= SHADOW_FIT * max(dark_casts, light_casts):
            votes[both] = reach[both] if dark_casts < light_casts else -reach[both]
    votes = np.where(even, share * reach, votes)
    return bool(votes.sum() >= 0)


def shadow_misfit(digit: np.ndarray, shadow: np.ndarray, most: int) -> float:
    """How far `shadow` is from being `digit`'s drop shadow (masks of cells stacked on the
    first axis), 0 a perfect one: the share of it that the digits moved by at most `most`
    px (each way) leave uncovered, or of where the moved digits leave their own place
    that is not shadow, whichever is more, at the best move (1.0: no ink to judge)."""
    n = int(shadow.sum())
    if n < 4 or digit.sum() < 4:
        return 1.0
    _, h, w = digit.shape
    best = 1.0
    for dy in range(-most, most + 1):
        for dx in range(-most, most + 1):
            if (dy, dx) == (0, 0):
                continue
            moved = np.zeros_like(digit)
            moved[:, max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)] = \
                digit[:, max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)]
            uncovered = np.count_nonzero(shadow & ~moved) / n
            if uncovered >= best:
                continue
            cast = moved & ~digit
            if cast.any():
                best = min(best, max(uncovered, np.count_nonzero(cast & ~shadow) / cast.sum()))
    return best


GROUND_WINDOW = 0.6
"""The window (cell pitches) a cell's local ground is the median of: wider than a digit's
strokes are thick, so that they stay off it, and narrow enough to follow a gradient."""
RULE_LENGTH = 1.5
"""Departures running further than this many pitches along a band are a line (a box's
border, a highlight, a seam), not a digit: no digit is that long."""
EVEN = 0.25
"""A cell whose extremes depart within this share of each other either way votes by the
mass of its departures instead."""
BOTH_WAYS = 0.4
"""A cell whose weaker extreme departs at least this share of its stronger one departs both
ways: one side may be the other's drop shadow (`shadow_misfit`)."""
SHADOW_SHIFT = 0.15
"""A drop shadow lies at most this many cell pitches off its digit."""
SHADOW_FIT = 0.6
"""One side is the other's shadow when it fits as one (`shadow_misfit`) at most this share as
badly as the other way round."""
GROUND_FLOOR = 8.0
"""Departures under this many levels are the ground's own texture."""


def _off_ground(part: np.ndarray, pitch: float, along: int,
                cells: list[tuple[int, int]] | None = None) -> np.ndarray:
    """How far each pixel departs from its local ground (signed, lighter positive): the
    median of a window wider than a stroke (`GROUND_WINDOW`). A gradient or a shade
    across the cells departs from it by little; a stroke, thin, by its whole contrast.
    Lines running along the band (`along`: its axis; `RULE_LENGTH`) depart by nothing.
    Within `cells` (spans along `along`) whose ground differs from a neighbour's by more
    than `GROUND_FLOOR` (bars of two tones, one per line) each cell's ground is its own:
    the bar behind one line's clues ends at the cell's side, and a window reaching into
    the next bar, lighter or darker, would make this one's edge pass for ink."""
    levels = np.clip(part, 0, 255).astype(np.uint8)
    ground = _local_ground(levels, pitch)
    n = part.shape[along]
    spans = [(max(0, a), min(n, b)) for a, b in cells or ()]
    spans = [(a, b) for a, b in spans if b - a >= 3]
    pieces = [levels[:, a:b] if along == 1 else levels[a:b] for a, b in spans]
    levels_of = [float(np.median(p)) for p in pieces]
    for i, ((a, b), piece) in enumerate(zip(spans, pieces, strict=True)):
        # Only where the next cell's ground differs (a bar's edge): elsewhere the window
        # reaching past the cell sees more of the same ground around a large digit.
        near = [levels_of[j] for j in (i - 1, i + 1) if 0 <= j < len(spans)]
        if all(abs(m - levels_of[i]) <= GROUND_FLOOR for m in near):
            continue
        own = _local_ground(piece, pitch, own=True)
        if along == 1:
            ground[:, a:b] = own
        else:
            ground[a:b] = own
    off = levels.astype(np.float32) - ground.astype(np.float32)
    length = int(RULE_LENGTH * pitch) + 1
    if part.shape[along] > length:
        # cv2 sizes are (w, h); a line is broken where a box's border crosses it (a 1 px
        # border antialiased over three at small cells: the bridge closes three).
        kernel = (length, 1) if along == 1 else (1, length)
        step = max(4, int(0.12 * pitch) + 2)
        bridge = (step, 1) if along == 1 else (1, step)
        for sign in (1.0, -1.0):
            strong = (sign * off >= GROUND_FLOOR).astype(np.uint8)
            line = _morph(_morph(strong, cv2.MORPH_CLOSE, bridge), cv2.MORPH_OPEN, kernel)
            off[line.astype(bool)] = 0.0
    return off


def _local_ground(levels: np.ndarray, pitch: float, own: bool = False) -> np.ndarray:
    """The median of a `GROUND_WINDOW` window around each pixel (uint8 levels). With `own`
    (one cell alone) the cell's median stands past its ends: a digit leaves most of its
    cell to the ground, while mirrored, a digit as tall as the cell would be its own
    ground there."""
    size = max(3, int(GROUND_WINDOW * pitch) | 1)
    # Mirrored past the part's ends (the median filter would repeat the last line, and a
    # line along the board's edge would be its own ground there).
    half = size // 2
    if own:
        padded = cv2.copyMakeBorder(levels, half, half, half, half, cv2.BORDER_CONSTANT,
                                    value=int(np.median(levels)))
    else:
        padded = cv2.copyMakeBorder(levels, half, half, half, half, cv2.BORDER_REFLECT_101)
    return cv2.medianBlur(padded, size)[half:-half, half:-half]
