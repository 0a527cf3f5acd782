"""Digit glyphs: the ink of one digit, and blobs of touching digits cut into glyphs.

Strips of clue ink are cut into blobs (runs of ink along the strip); a blob may
hold several digits that touch (a bold font, a small one), which
`split_touching` cuts apart where the ink is least connected. Every reader of
digits (nonogram clues, a sliding puzzle's tiles, Ripple Effect's givens) passes
`Glyph`s to the digit recognisers.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.image import trim

WIDE = 1.35
SQUARE = 0.95
"""A column strip's blob more than `WIDE` times as wide as the board's digits and nearly as
wide as a digit is tall (`SQUARE` of the height) holds two digits touching, though no wider
than a digit is tall: an italic 12 whose feet run together (digits a third narrower than
tall)."""
SHORT_PART = 0.7
"""... when no shape in it, and no piece cut from it, has ink in fewer rows than this share
of a digit's height: one that has is a stray (the foot of the digit above reaching into its
box, joined to it or not), and the blob one digit."""


@dataclass(frozen=True)
class Glyph:
    """One digit's ink: its box in the image and its trimmed bitmap."""

    box: Rect
    mask: np.ndarray
    tone: np.ndarray | None = None
    """How strongly each pixel of the box is inked (0 paper, 1 the ink's own tone), when
    known: where two bitmaps differ by a pixel, whether it is a stroke in one and paper in
    the other, or an edge both ink in part."""


@dataclass(frozen=True)
class Blob:
    """A run of ink along a strip: one digit, or several that touch."""

    box: Rect
    mask: np.ndarray


def split_touching(blob: Blob, digit_height: float, digit_width: float | None = None,
                   stacked: bool = False) -> list[Glyph]:
    """Cut a blob into digits where it is too wide for one.

    It is cut into as many digits as the band's typical digit width (when known) says, each
    cut where the ink on either side is least connected: between two columns whose
    ink does not touch (even diagonally) if there is such a place near where the cut
    should fall, else at the thinnest columns. `stacked`: the blob is one of a column
    strip's, where no digit of a neighbouring line reaches into it (a row's digits taller
    than the row may: a 2 with the foot of the 1 above joined to it is as wide as two).
    """
    mask = blob.mask
    h, w = mask.shape
    widest_digit = 1.1 * max(h, digit_height)
    if w < 4:
        return [Glyph(blob.box, mask)]
    if w <= widest_digit:
        # Narrower than a digit is tall, but wider than the board's digits and falling
        # into shapes side by side, each as tall as a digit: two digits squeezed into
        # one clue cell, a narrow 1 beside a 0 (a digit's own pieces overlap, or are
        # short, or together are no wider than a digit).
        if digit_width is None or w <= digit_width + max(1.0, 0.15 * digit_width):
            return [Glyph(blob.box, mask)]
        apart = _apart_columns(mask)
        if not _side_by_side(mask, apart, SHORT_PART * max(h, digit_height)):
            apart = []
        if not apart and not (stacked and w > WIDE * digit_width
                              and w > SQUARE * max(h, digit_height)
                              and _shortest_shape(mask) >= SHORT_PART * max(h, digit_height)):
            return [Glyph(blob.box, mask)]
    else:
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
                glyphs += split_touching(piece, digit_height, digit_width, stacked)
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
    tall = SHORT_PART * max(h, digit_height)
    if w <= widest_digit and any(g.mask.any(axis=1).sum() < tall for g in glyphs):
        return [Glyph(blob.box, mask)]  # one digit and a stray joined to it
    return glyphs


def _shortest_shape(mask: np.ndarray) -> int:
    """The height of the mask's shortest 8-connected shape (of two pixels or more)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return min((int(s[cv2.CC_STAT_HEIGHT]) for s in stats[1:n] if s[cv2.CC_STAT_AREA] >= 2),
               default=0)


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


def _side_by_side(mask: np.ndarray, apart: list[int], tall: float) -> bool:
    """Whether the parts of `mask` between the columns `apart` are digits side by side:
    each inked in `tall` of its rows at least (drawn from top to foot), and touching the
    next at one corner at most. A thin digit whose joints the threshold broke (an 8's
    bars meeting its sides only corner to corner) parts at its columns too, but touches
    at several corners, or leaves a part with few rows."""
    if not apart:
        return False
    edges = [0, *apart, mask.shape[1]]
    if any(mask[:, a:b].any(axis=1).sum() < tall for a, b in itertools.pairwise(edges)):
        return False
    for a in apart:
        left, right = mask[:, a - 1], mask[:, a]
        near = right | np.r_[right[1:], False] | np.r_[False, right[:-1]]
        if int((left & near).sum()) > 1:
            return False
    return True
