"""Page text in a clue band: ink that does not line up with the board's lines.

A heading or a status line beyond the clues crosses the boundaries between
lines, where no clue number reaches; it is told apart by that and left out of
the band.
"""

from __future__ import annotations

import cv2
import numpy as np

from autoplayer.vision.image import runs
from autoplayer.vision.strips import thickest_rule

CENTRED = 0.25
"""A glyph whose middle lies this close to a line's middle (in pitches) is that line's
clue number however far it reaches (digits as tall as the cells, or taller, cross the
boundaries between rows; a two-digit number wider than its column crosses those between
columns); page text runs on at its own spacing, its glyphs' middles anywhere."""


def unaligned_text(ink: np.ndarray, spans: tuple[tuple[int, int], ...], start: int,
                   pitch: float, well_across: bool = False) -> tuple[int, np.ndarray]:
    """How deep (from the band's far side, index 0) ink lies that does not line up with
    the lines: page text (a heading, a status line) whose glyphs cross the boundaries
    between lines, where no clue number reaches. 0 when there is none.

    `ink` is a column band as `clues._band` turns it (the board below its last row; a row
    band is passed transposed), `spans` the lines along it beginning at `start`.
    Everything from the far side down to the text's baseline (the median bottom of
    its crossing glyphs) goes, and with it any glyph reaching across that line (the
    tail of a "g" hanging down between the clue numbers). A glyph centred on a line
    is its clue number (`CENTRED`), whatever it crosses, and so is "text" with no ink
    left between it and the board. Returns that depth and
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
    centres = np.array([(a + b) / 2 - start for a, b in spans])
    # Text beyond the clues keeps clear of the board: ink reaching the board's side of
    # the band (the shaded edges of bars between the lines) is the band's own drawing.
    clear = y1 < ink.shape[0] - thickest_rule(pitch)

    def centred(i: int) -> bool:  # a clue number as wide (tall) as its line, on its middle
        return bool(np.abs(centres - (x0[i] + x1[i]) / 2).min() <= CENTRED * pitch)

    def across(i: int) -> bool:  # well across a boundary, not a shadow or tail just over it
        reach = np.minimum(edges - x0[i], x1[i] - edges)
        return bool((reach >= max(2.0, 0.2 * w[i])).any())

    # Glyph-shaped: not a piece of a rule (thin across), not a speck, not a box; clear of
    # the board.
    glyphs = [int(i) for i in crossing
              if i and clear[i] and 3 <= w[i] < 4 * pitch
              and max(4.0, 0.25 * pitch) <= h[i] < 2 * pitch
              and stats[i, cv2.CC_STAT_AREA] >= 8
              and w[i] >= 0.2 * h[i] and not holds_another(int(i))
              and (not well_across or (across(int(i)) and w[i] < 1.5 * pitch
                                       and not centred(int(i))))]
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
    # Page text stands beyond the clues: with no ink left between it and the board (no
    # more than a glyph's edge), what
    # crossed the boundaries was the clue numbers themselves (digits taller than the
    # cells, reaching into the next row's).
    if (ink & ~foreign).any(axis=1).sum() < max(3.0, text / 2):
        return none
    return line, foreign


OFF_CENTRE = 2 / 3
"""Share of a line's words standing off the lines' middles (by more than `CENTRED`) for
the line to be page furniture rather than clue numbers."""
WORD_GAP = 0.15
"""Ink closer than this (in pitches) across a line is one word: the digits of a number, the
strokes of an icon."""


def off_centre_line(ink: np.ndarray, spans: tuple[tuple[int, int], ...], start: int,
                    pitch: float) -> int:
    """How deep (from the band's far side, index 0) a line of ink lies whose words stand
    off the lines' middles: a toolbar's icons at a spacing of their own, page text whose
    glyphs happen not to cross a boundary. 0 when there is none.

    `ink` is a column band as `unaligned_text` takes it. Its lines of ink (runs of rows
    with ink, between blank rows) are looked at from the board outwards; clue numbers
    stand centred on their columns, so the first line most of whose words do not goes,
    with all beyond it, provided clue ink lies between it and the board (a band whose
    nearest numbers stand off the middles is not cut at all).
    """
    if ink.size == 0 or len(spans) < 2:
        return 0
    centres = np.array([(a + b) / 2 - start for a, b in spans])
    gap = max(1, round(WORD_GAP * pitch))
    nearest = True
    for a, b in reversed(runs(ink.any(axis=1))):
        words: list[list[int]] = []
        for x0, x1 in runs(ink[a:b].any(axis=0)):
            if words and x0 - words[-1][1] <= gap:
                words[-1][1] = x1
            else:
                words.append([x0, x1])
        if len(words) < 2:
            nearest = False
            continue
        off = sum(np.abs(centres - (x0 + x1) / 2).min() > CENTRED * pitch for x0, x1 in words)
        if off >= 2 and off >= OFF_CENTRE * len(words):
            return 0 if nearest else b
        nearest = False
    return 0
