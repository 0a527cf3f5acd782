"""One board's digits learnt from the board: glyphs of one shape are one digit.

A game draws every clue in one font, so on one board the same digit looks the
same each time (up to a pixel of antialiasing), while the generic readers may be
unsure of a shape in a font they never saw. Glyphs are compared by shape
(`shape_distance`); the readers' sure glyphs name the shapes, an unsure glyph
clearly nearer one named shape than any other takes its name, and the unsure
glyphs left are grouped by shape, so that the puzzle's constraints can settle
each group as one unknown digit (`autoplayer.games.nonogram.settle`) instead of
each glyph alone.

Small digits are a few pixels of ink, and there a bitmap cannot tell a digit drawn
at another pixel phase from another digit: a serif 3 and 5 five pixels tall differ
by one pixel, as two 2s do. Where glyphs' tones are known (`Glyph.tone`), the
pixels where their bitmaps differ decide (`strokes_differ`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.vision.image import bitmap_key

SURE = 0.25
"""A reader's confidence at or above this names a shape. Measured on 80 random looks of the
bundled game read exactly: 6.5 % of correctly read digits fall below (whole fonts' 1s or
4s at 0.15-0.2), while the misreads behind refusals (a heavy 1 read as 4, an italic 4 read
as 9) sit at 0.04-0.16."""
SAME_SHAPE = 0.1
"""Two glyphs at most this far apart (`shape_distance`) may be one digit drawn twice. On
those looks 99.9 % of glyphs have a same-digit neighbour within 0.12 and a median one at
0.0, while 1 % of nearest different digits are nearer than 0.11 (pixel fonts' 5 and 6)."""
CLEARLY_NEARER = 0.5
"""An unsure glyph takes a shape's name only when at most this share of its distance to
any other name (on those looks one glyph in 11,435 had a nearest neighbour of another
digit; 5 were within a factor of two)."""
SHAPE_SIZE = (12, 16)
"""Glyphs are compared as soft masks of this size (width, height)."""
CLASH = 0.2
"""Two shapes further apart than this are two digits (on 80 looks, 5 % of the nearest other
digits were nearer than 0.2, while 99.9 % of a digit's copies were within 0.12)."""
MAX_DOMAIN = 4
"""An unsure group is one of at most this many digits, its readers' favourites first."""
SOLID = 0.6
"""A pixel where two glyphs' bitmaps differ, inked in one by at least this share of the
ink's tone more than in the other, is a stroke one has and the other lacks: two digits.
Antialiased ink drawn at another phase leaves such a pixel partly inked in both."""
THIN_BELOW = 11
"""Glyphs shorter than this (px) have strokes about a pixel wide, where `SOLID` holds.
Measured on 1,024 random looks of the bundled game (tests/looks.py, 550 of them with
12-15 px cells, half on dotted cells): of 33,752 pairs of one digit's copies under 11 px
grouped as one shape with bitmaps that differ, none differed there by more than 0.57 of
the ink's tone, while 14 of the 96 such pairs of two digits (5 to 10 px: a 3 and a 5, a
6 and a 5, a 3 and a 6, a 6 and an 8) differed by 0.61 to 1.0 (the others by less: too
faint to tell). From 11 px on, bold and italic strokes move whole edge pixels with the
phase (348 of 8,506 pairs of one digit at 11-14 px differed by 0.6 or more): their
bitmaps are compared by shape alone."""


@dataclass(frozen=True)
class GlyphGroup:
    """Glyphs of one shape and what digit they are."""

    members: tuple[int, ...]
    """Indices into the readings grouped."""
    digits: tuple[int, ...]
    """The digit its leader is read as, then the others its members' readers rank next."""
    sure: bool
    """Named by a sure reading (else the puzzle must settle it)."""
    confidence: float
    """The leader's confidence."""
    leader: int = -1
    """The index of its surest member, whose reading names it."""
    clash: bool = False
    """Another group of a clearly different shape is named as this one is: one font draws a
    digit one way, so one of them is misread (a digit drawn twice a little differently,
    within `CLASH` of itself, is no clash)."""


def _shape(mask: np.ndarray) -> np.ndarray:
    w, h = SHAPE_SIZE
    return cv2.resize(mask.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA).ravel()


def shape_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two glyph bitmaps are: the ink that differs over the ink of either, on
    masks scaled to one size (0 same, 1 disjoint); inf when their sizes differ too much to
    be one digit (a narrow 1 and a wide 4 scale to similar blocks)."""
    return float(_distances(_shape(a), a.shape, _shape(b)[None], np.array([b.shape]))[0])


def _distances(shape: np.ndarray, size: tuple[int, ...], shapes: np.ndarray,
               sizes: np.ndarray) -> np.ndarray:
    """`shape_distance` from one glyph (scaled `shape`, bitmap `size`) to many."""
    if not len(shapes):
        return np.zeros(0)
    diff = np.abs(shapes - shape).sum(axis=1)
    union = np.maximum(shapes, shape).sum(axis=1)
    h, w = size[0], size[1]
    hs, ws = sizes[:, 0].astype(float), sizes[:, 1].astype(float)
    fits = ((np.abs(hs - h) <= np.maximum(1.0, 0.15 * np.maximum(hs, h)))
            & (np.abs(ws - w) <= np.maximum(1.0, 0.25 * np.maximum(ws, w))))
    return np.where(fits, diff / np.maximum(union, 1e-6), np.inf)


def strokes_differ(mask_a: np.ndarray, tone_a: np.ndarray | None, mask_b: np.ndarray,
                   tone_b: np.ndarray | None) -> bool:
    """Whether two small glyphs' bitmaps differ at a pixel that is solid ink in one and
    paper in the other (`SOLID`, `THIN_BELOW`): a stroke one has and the other lacks,
    whatever `shape_distance` says. False when a tone is unknown or the bitmaps' sizes
    differ (then `shape_distance` decides alone)."""
    if not (_thin(mask_a, tone_a) and _thin(mask_b, tone_b)) or mask_a.shape != mask_b.shape:
        return False
    differ = mask_a != mask_b
    return bool(differ.any()) and float(np.abs(tone_a - tone_b)[differ].max()) >= SOLID


def _thin(mask: np.ndarray, tone: np.ndarray | None) -> bool:
    """Whether a glyph is small enough for `strokes_differ`, with its tone known."""
    return tone is not None and tone.shape == mask.shape and mask.shape[0] < THIN_BELOW


def _strokes_apart(masks: Sequence[np.ndarray], tones: Sequence[np.ndarray | None]
                   ) -> np.ndarray:
    """N×N `strokes_differ` (only bitmaps of one size are compared)."""
    n = len(masks)
    out = np.zeros((n, n), dtype=bool)
    by_size: dict[tuple[int, ...], list[int]] = {}
    for k, (m, t) in enumerate(zip(masks, tones, strict=True)):
        if _thin(m, t):
            by_size.setdefault(m.shape, []).append(k)
    for same in by_size.values():
        if len(same) < 2:
            continue
        ms = np.array([masks[k] for k in same])
        ts = np.array([tones[k] for k in same])
        differ = ms[:, None] != ms[None, :]
        solid = (np.abs(ts[:, None] - ts[None, :]) >= SOLID) & differ
        hit = solid.reshape(len(same), len(same), -1).any(axis=2)
        out[np.ix_(same, same)] = hit
    return out


def group_glyphs(masks: Sequence[np.ndarray],
                 ranked: Sequence[Sequence[tuple[int, float]]],
                 tones: Sequence[np.ndarray | None] | None = None) -> list[GlyphGroup]:
    """Glyphs grouped by shape and named (see the module docstring).

    `ranked[i]`: the readers' digits for glyph i, best first with the first one's
    confidence. Every glyph lands in exactly one group, led by its most confident
    member, whose reading names it. Glyphs are taken surest first; each joins the
    group whose leader it is within `SAME_SHAPE` of, and `CLEARLY_NEARER` than to
    any leader of another digit, provided it is unsure or read as that digit (so
    a group never holds two sure readings that disagree), or within `CLASH` and
    read as that digit (the digit drawn at another pixel phase), and its strokes do not
    differ from the leader's (`strokes_differ`, with `tones[i]` each glyph's
    `Glyph.tone` when known); else it leads a group of its own. Compared with leaders
    only, a chain of small steps cannot carry one shape into another.
    """
    n = len(masks)
    if n == 0:
        return []
    tones = tones if tones is not None else [None] * n
    conf = [float(r[0][1]) for r in ranked]
    first = [int(r[0][0]) for r in ranked]
    # A board repeats the same few bitmaps: each distinct one is placed once.
    distinct: dict[tuple, list[int]] = {}
    for i in sorted(range(n), key=lambda i: -conf[i]):
        distinct.setdefault((bitmap_key(masks[i]), first[i]), []).append(i)
    leaders: list[int] = []
    shapes: list[np.ndarray] = []
    sizes: list[tuple[int, int]] = []
    members: list[list[int]] = []
    for same in distinct.values():
        i = same[0]  # the surest glyph of this bitmap speaks for it
        shape = _shape(masks[i])
        near = _distances(shape, masks[i].shape, np.array(shapes), np.array(sizes)) \
            if shapes else np.zeros(0)
        home = None
        if near.size:
            k = int(np.argmin(near))
            name = first[leaders[k]]
            others = [d for j, d in enumerate(near) if first[leaders[j]] != name]
            alike = near[k] <= SAME_SHAPE and (conf[i] < SURE or first[i] == name)
            # Read as the same digit and not clearly another shape: the digit drawn again
            # at another pixel phase.
            kin = near[k] <= CLASH and first[i] == name
            if (alike or kin) and near[k] <= CLEARLY_NEARER * min(others, default=np.inf) \
                    and not strokes_differ(masks[i], tones[i], masks[leaders[k]],
                                           tones[leaders[k]]):
                home = k
        if home is None:
            leaders.append(i)
            shapes.append(shape)
            sizes.append(masks[i].shape[:2])
            members.append([])
            home = len(leaders) - 1
        members[home].extend(same)
    apart = _apart(np.array(shapes), np.array(sizes)) \
        | _strokes_apart([masks[i] for i in leaders], [tones[i] for i in leaders])
    clash = [any(first[other] == first[leader] and apart[k, j] for j, other in enumerate(leaders))
             for k, leader in enumerate(leaders)]
    out = []
    for k, (leader, group) in enumerate(zip(leaders, members, strict=True)):
        votes: dict[int, float] = {first[leader]: np.inf}
        for i in group:
            for rank, (d, _) in enumerate(ranked[i][:MAX_DOMAIN]):
                votes[d] = votes.get(d, 0.0) + (1.0 + conf[i] if rank == 0 else 1.0 / (rank + 1))
        digits = tuple(sorted(votes, key=lambda d: -votes[d])[:MAX_DOMAIN])
        out.append(GlyphGroup(tuple(sorted(group)), digits, conf[leader] >= SURE, conf[leader],
                              leader, clash[k]))
    return out


def different_shapes(masks: Sequence[np.ndarray], groups: Sequence[GlyphGroup],
                     tones: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
    """G×G: whether two groups' leaders are clearly different shapes (further than `CLASH`,
    or small ones whose strokes differ: `strokes_differ`), so that one font cannot have
    drawn them as one digit."""
    leaders = [masks[g.leader] for g in groups]
    apart = _apart(np.array([_shape(m) for m in leaders]),
                   np.array([m.shape[:2] for m in leaders]))
    if tones is None:
        return apart
    return apart | _strokes_apart(leaders, [tones[g.leader] for g in groups])


def _apart(shapes: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """N×N: whether glyphs (scaled `shapes`, bitmap `sizes`) are further apart than `CLASH`."""
    n = len(shapes)
    return np.array([_distances(shapes[k], tuple(sizes[k]), shapes, sizes) > CLASH
                     for k in range(n)], dtype=bool).reshape(n, n)
