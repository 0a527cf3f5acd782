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
