"""Clue fonts drawn in two tones (a digit over its own drop shadow), and the ink
threshold that keeps only the digit.

A shadow is a solid copy of the digit a little off it, in a tone between the paper
and the ink; the usual threshold, a share of the strongest ink, takes it for ink
and each digit becomes a blob. Antialiased edges, the other source of mid tones,
stand between ink and paper: each has paper beside it. A shadow is a tone of its
own, with a clear gap below the ink, and much of it lies inside the glyph's outline
(ink or shadow on all four sides).
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.clue_ground import SHADOW_FIT, SHADOW_SHIFT, shadow_misfit
from autoplayer.vision.strips import Strip

BINS = 32
"""Glyph ink strengths are judged in this many steps from the threshold to the top."""
SECOND_TONE = 0.15
"""A second tone holds at least this share of the glyphs' pixels ..."""
GAP = 0.1
"""... the strengths between it and the ink are at most this share as common as its
peak (over the emptiest three steps between them) ..."""
INSIDE = 0.4
"""... and at least this share of it lies inside the glyphs. Measured on 200 random
looks of the bundled game: shadowed pixel digits on dark paper 0.44-0.67, pale
shadows on light paper 0.23-0.36, antialiased fonts 0.00-0.22."""

BOTH_TONES = 0.2
"""A glyph is drawn in both tones when each holds at least this share of its pixels ...
"""
SHADOWED = 0.6
"""... and a font is when this share of its glyphs are (numbers of solved lines drawn
paler are two tones over the board, one in each glyph)."""


def two_tone_threshold(strips: list[Strip], strength: np.ndarray | None, x0: int, y0: int,
                       floor: float, pitch: float | None = None) -> float | None:
    """A threshold between the glyphs' shadow tone and their ink, or None when the
    glyphs are of one tone. `strips` of one band were cut from its `strength` (which
    starts at x0, y0) at threshold `floor`; `pitch`: the board's cell pitch (a drop
    shadow lies at most `SHADOW_SHIFT` of it off its digit; None: the tallest glyph's
    height stands in).

    The stronger tone is kept as the digits; when it is the weaker tone's offset copy
    less what the weaker hides of it (grey digits over a darker shadow), the stronger is
    the shadow, and no threshold above the weaker keeps the digits: None."""
    if strength is None:
        return None
    patches = [(strength[b.box.y - y0:b.box.bottom - y0, b.box.x - x0:b.box.right - x0], b.mask)
               for s in strips for g in s.groups for b in g]
    if not patches:
        return None
    ink = np.concatenate([p[m] for p, m in patches])
    threshold = _gap_below_ink(ink, floor)
    if threshold is None:
        return None
    low = inside = both = 0
    for p, m in patches:
        around = np.pad(m, 1)
        enclosed = around[:-2, 1:-1] & around[2:, 1:-1] & around[1:-1, :-2] & around[1:-1, 2:]
        second = m & (p < threshold)
        n = int(second.sum())
        low += n
        inside += int((second & enclosed).sum())
        both += BOTH_TONES <= n / max(int(m.sum()), 1) <= 1 - BOTH_TONES
    if low < SECOND_TONE * ink.size or inside < INSIDE * low or both < SHADOWED * len(patches):
        return None
    if _stronger_is_shadow(patches, threshold, pitch):
        return None
    return threshold


def _stronger_is_shadow(patches: list[tuple[np.ndarray, np.ndarray]], threshold: float,
                        pitch: float | None) -> bool:
    """Whether the stronger tone of the glyphs fits as the weaker one's drop shadow
    clearly better than the other way round (`shadow_misfit`, all glyphs judged together: one
    font, one shadow)."""
    h = max(m.shape[0] for _, m in patches)
    w = max(m.shape[1] for _, m in patches)
    strong = np.zeros((len(patches), h, w), bool)
    weak = np.zeros_like(strong)
    for i, (p, m) in enumerate(patches):
        strong[i, :m.shape[0], :m.shape[1]] = m & (p >= threshold)
        weak[i, :m.shape[0], :m.shape[1]] = m & (p < threshold)
    shift = max(1, round(SHADOW_SHIFT * (pitch if pitch is not None else h)))
    strong_casts = shadow_misfit(strong, weak, shift)
    weak_casts = shadow_misfit(weak, strong, shift)
    return weak_casts <= SHADOW_FIT * strong_casts


def _gap_below_ink(ink: np.ndarray, floor: float) -> float | None:
    """The middle of a nearly empty stretch of strengths between a second tone and the
    ink, or None."""
    if ink.size < 50:
        return None
    top = float(np.percentile(ink, 95))
    if top <= floor:
        return None
    counts, edges = np.histogram(ink, bins=BINS, range=(floor, top))
    # The ink: the strongest steps holding half the top quarter's pixels and more.
    held = np.cumsum(counts[::-1]) >= 0.5 * counts[-BINS // 4:].sum()
    ink_start = BINS - 1 - int(np.argmax(held))
    best = None
    for lo in range(ink_start - 3):
        peak = counts[lo]
        if peak < SECOND_TONE * ink.size / 3:
            continue
        between = counts[lo + 1:ink_start]
        if np.sort(between)[:3].mean() <= GAP * peak:
            gap_at = lo + 1 + int(np.argmin(between))
            best = float(edges[gap_at] + edges[gap_at + 1]) / 2
    return best
