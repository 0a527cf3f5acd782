"""How far apart the digits of one number stand, and how far apart numbers: learned per board.

Two measures of the space between neighbouring digits on a row: the ink gap
(blank columns between them) and the step from one digit's centre to the
next. Fonts that put a fixed blank between glyphs (bitmap fonts) keep the gap
constant. Fonts with tabular digits (most outline fonts: every digit has the
same advance) keep the step constant, while their gaps swing with the glyphs'
widths: with single-space separation "1 1" leaves more blank than "4 4", and
"11" nearly as much as "4 4". Each measure splits all the board's pairs into
two clusters (inside a number, between numbers); the step is used only when
its clusters stand clearly further apart for their spread than the gaps' do.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.glyphs import split_touching

STEP_PREFERENCE = 1.2
"""The step's clusters must be this many times better separated than the gaps' to be
used (the gap is the measure every game read so far was learned with)."""
TWO_CLUSTERS = 0.2
"""Two clusters of steps stand at least this share of the digit height apart (a space
is a third of a digit's advance or more); else every step is of one kind."""
INSIDE_GAP = 0.45
"""The blank between the digits of one number is on the whole no wider than this share of
the digit height (a tabular font's "11" leaves about half a height, most pairs far
less): a lower cluster wider than this is the gaps between numbers."""
INSIDE_STEP = 1.1
"""Likewise for centre-to-centre steps: a digit's advance is under a digit height."""


@dataclass(frozen=True)
class Spacing:
    """The measure used between neighbouring digits and its typical values."""

    centred: bool
    """Measured from centre to centre (tabular digits), else as the blank between inks."""
    inside: float
    """Typical value inside one number."""
    between: float
    """Typical value between two numbers."""

    def apart(self, left: Rect, right: Rect) -> float:
        """How far apart two neighbouring digits (or blobs' facing digits) stand."""
        if self.centred:
            return right.x + right.w / 2 - (left.x + left.w / 2)
        return right.x - left.right


def learn_spacing(layout: ClueLayout) -> Spacing:
    """This board's spacing, from every strip at once (see the module docstring)."""
    lo, hi = gap_threshold(layout)
    by_gap = Spacing(False, lo, hi)
    inside, mixed, gaps_inside, gaps_mixed = _pairs(layout)
    steps = np.array(inside + mixed, float)
    gaps = np.array(gaps_inside + gaps_mixed, float)
    step_split = _two_means(steps)
    gap_split = _two_means(gaps)
    if step_split is None or gap_split is None:
        return by_gap
    (s_lo, s_hi, s_score), (_, _, g_score) = step_split, gap_split
    if (s_hi - s_lo < TWO_CLUSTERS * layout.digit_height or s_score < STEP_PREFERENCE * g_score
            or s_lo > INSIDE_STEP * layout.digit_height):
        return by_gap
    if inside:
        s_lo = min(s_lo, float(np.median(inside)))
    return Spacing(True, s_lo, s_hi)


def _pairs(layout: ClueLayout) -> tuple[list[float], list[float], list[float], list[float]]:
    """Steps and gaps between neighbouring digits: in column groups (stacked numbers, so
    inside one number) and between a row's blobs (inside or between numbers)."""
    inside: list[float] = []
    mixed: list[float] = []
    gaps_inside: list[float] = []
    gaps_mixed: list[float] = []
    centred = Spacing(True, 0.0, 0.0)
    gap = Spacing(False, 0.0, 0.0)
    for strips, steps, gaps in ((layout.columns, inside, gaps_inside),
                                (layout.rows, mixed, gaps_mixed)):
        for strip in strips:
            for group in strip.groups:
                digits = [[g.box for g in split_touching(b, layout.digit_height,
                                                         layout.digit_width,
                                                         strip.kind == "column")]
                          for b in group]
                for a, b in itertools.pairwise(digits):
                    steps.append(centred.apart(a[-1], b[0]))
                    gaps.append(gap.apart(a[-1], b[0]))
    return inside, mixed, gaps_inside, gaps_mixed


def _two_means(values: np.ndarray) -> tuple[float, float, float] | None:
    """Two clusters' means and how well they stand apart for their spread; None when
    the values do not fall into two."""
    if values.size < 2:
        return None
    lo, hi = float(values.min()), float(values.max())
    a = b = values
    for _ in range(20):
        mid = (lo + hi) / 2
        a, b = values[values <= mid], values[values > mid]
        if a.size == 0 or b.size == 0:
            return None
        lo, hi = float(a.mean()), float(b.mean())
    return lo, hi, (hi - lo) / (float(a.std()) + float(b.std()) + 1.0)


def gap_threshold(layout: ClueLayout) -> tuple[float, float]:
    """The typical gap inside a number and between numbers, learned from every strip.

    Column strips give gaps inside numbers for free (their numbers are stacked,
    so every horizontal gap in a column group is inside one number); row strips
    mix both kinds. Two means on all gaps split them; when the data has only one
    kind, the digit height sets the scale.
    """
    inside: list[int] = []
    mixed: list[int] = []
    scale = layout.digit_height
    for strip in layout.columns:
        for g in strip.groups:
            inside += [g[i].box.x - g[i - 1].box.right for i in range(1, len(g))]
    for strip in layout.rows:
        for g in strip.groups:
            mixed += [g[i].box.x - g[i - 1].box.right for i in range(1, len(g))]
    gaps = np.array(inside + mixed, dtype=float)
    # Pieces of neighbouring columns' numbers (digits wider than a column) stand too far
    # apart to be one number's digits: no evidence of the gap inside one.
    inside = [g for g in inside if g <= INSIDE_GAP * scale]
    if gaps.size >= 2:
        lo, hi = float(gaps.min()), float(gaps.max())
        for _ in range(20):
            mid = (lo + hi) / 2
            a, b = gaps[gaps <= mid], gaps[gaps > mid]
            if a.size == 0 or b.size == 0:
                break
            lo, hi = float(a.mean()), float(b.mean())
        # Two real clusters sit far apart, the lower one narrow enough to be inside
        # numbers; otherwise every gap is of one kind.
        if hi - lo >= 0.25 * scale and hi >= 1.8 * max(lo, 1.0) and lo <= INSIDE_GAP * scale:
            if inside:
                lo = min(lo, float(np.median(inside)))
            return lo, hi
    typical = float(np.median(gaps)) if gaps.size else 0.0
    # Gaps of one kind, and a row with more digits side by side than a number of its
    # length has: they are all gaps between numbers, however narrow (a small font
    # spacing its numbers two pixels apart), as "2321431" is no clue of a 31-cell row.
    longest = len(str(layout.grid.width))
    crowded = any(len(g) > longest for strip in layout.rows for g in strip.groups)
    if inside or (gaps.size and typical < 0.3 * scale and not crowded):
        lo = min(typical, float(np.median(inside))) if inside else typical
        return lo, max(lo + 0.3 * scale, 0.5 * scale)
    hi = typical if gaps.size else 0.5 * scale
    return min(0.1 * scale, hi / 3), hi
