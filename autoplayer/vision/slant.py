"""Italic clue fonts: the board's slant, and glyphs set upright before they are read.

The digit readers (scanline state machines, templates) describe upright digits. An
italic "1" is a stroke leaning right, which scanline by scanline moves from the right
of its box to the left, as a 7's diagonal or a 2's does: on random looks of the bundled
game nearly every italic 1 was misread, and boards with many unsure shapes could not be
settled. One board draws its clues in one font, so the slant is measured once over all
its clue ink (the shear that stacks the ink into the fewest, fullest columns) and every
glyph is sheared back by it for the readers; the glyph's own bitmap is kept (the board's
shapes are compared as drawn).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from autoplayer.vision.image import bitmap_key

SHEARS = np.arange(0.0, 0.401, 0.025)
"""Slants tried (horizontal pixels per pixel of height): italic faces lean 0.1-0.25."""
UPRIGHT_BELOW = 0.05
"""A slant measured below this is an upright font (upright faces measure 0-0.025; a
few measured up to 0.15 on looks whose digits were read right either way)."""
MAX_SAMPLES = 80
"""At most this many distinct bitmaps are measured (a board repeats its numbers)."""


def board_slant(masks: Iterable[np.ndarray]) -> float:
    """The shear (in `SHEARS`) that best sets the board's clue ink upright: the one whose
    column sums, squared, add up to the most (ink stacked in fewest, fullest columns);
    0.0 when that is below `UPRIGHT_BELOW` or there is no ink."""
    distinct: dict[tuple, np.ndarray] = {}
    for m in masks:
        if m.shape[0] >= 5:
            distinct.setdefault(bitmap_key(m), m)
    if not distinct:
        return 0.0
    picked = list(distinct.values())
    if len(picked) > MAX_SAMPLES:
        picked = [picked[i] for i in np.linspace(0, len(picked) - 1, MAX_SAMPLES).astype(int)]
    score = np.zeros(len(SHEARS))
    for m in picked:
        ys, xs = np.nonzero(m)
        if not len(ys):
            continue
        h = m.shape[0]
        shift = np.rint(SHEARS[:, None] * (ys[None, :] - (h - 1) / 2)).astype(int)
        cols = xs[None, :] + shift - shift.min()
        span = int(cols.max()) + 1
        flat = (cols + span * np.arange(len(SHEARS))[:, None]).ravel()
        counts = np.bincount(flat, minlength=span * len(SHEARS)).reshape(len(SHEARS), span)
        score += (counts.astype(float) ** 2).sum(axis=1) / (len(ys) * h)
    best = float(SHEARS[int(np.argmax(score))])
    return best if best >= UPRIGHT_BELOW else 0.0


def upright(mask: np.ndarray, slant: float) -> np.ndarray:
    """The bitmap sheared back by `slant`: each row moved left by its height above the
    middle times the slant."""
    if not slant:
        return mask
    h, w = mask.shape
    shifts = np.rint(slant * (np.arange(h) - (h - 1) / 2)).astype(int)
    lo = int(shifts.min())
    out = np.zeros((h, w + int(shifts.max()) - lo), dtype=bool)
    for y in range(h):
        s = shifts[y] - lo
        out[y, s:s + w] = mask[y]
    return out
