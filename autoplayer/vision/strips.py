"""One line's clue strip cut into ink blobs: rules, frame pieces, seams and specks dropped.

A strip runs from the far side of its clue band to the board, over one line's
span (see `autoplayer.vision.clues`). Ink is kept only where it reaches the
board without a long blank gap (the band's far side may hold labels and
buttons), thresholded against the strip's own strongest ink, and cleared of
what is not a digit: lines across the whole strip (box borders, separators),
pieces of the line between two strips, the seam between bands, the board's
frame, and dust far smaller than the digits.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.image import runs

STRIP_CONTRAST = {True: 0.45, False: 0.55}
"""Ink departs from its background by this share of its own strip's strongest ink (as well
as by the band's share, `clues.BAND_CONTRAST`): more for light ink on a dark ground, whose
antialiased edges spread wider in luminance (keyed by `dark` ink)."""
BAND_END_GAP = 0.95
"""A band ends after this many cell pitches without ink (stacked column numbers leave
less than a pitch between them; the page above a band, a status line, may leave just
more), unless its own numbers stand further apart (`band_end_gap`)."""
SPACED_GAP = 1.2
"""A band whose numbers stand further apart than `BAND_END_GAP` (clue cells wider than the
board's, digits as tall as a cell) ends after this many times its usual wide gap."""

LINE_BAR = 0.8
"""A strip's threshold set by a line left out of its ink stands only under this share of the
numbers' own strongest ink (`cut_strip`)."""
LAST_GAPS = 0.8
"""Share of the strips holding more than one part whose last gap is within two pitches for
those gaps to count as the band's spacing (`band_end_gap`)."""


SHADOW_GAP = 0.2
"""Tones of ink this far apart (as shares of a strip's strongest ink) with none between
are two inks: the digits and their drop shadow (`shadow_tone`)."""
SHADOW_SHARE = 0.05
"""A drop shadow holds at least this share of the ink above the strip threshold; the
digits casting it hold more than it (a shadow shows no more than the digits, partly hidden
behind them): else the stronger tone is something else, a rule, a panel's box."""


def shadow_tone(ink: np.ndarray, floor: float) -> float | None:
    """The share of a strip's strongest ink that its digits stand above and their drop
    shadow below, when its ink above `floor` falls into two tones with none between (a
    shadow in a tone of its own, as pixel fonts draw it: antialiased glyphs spread their
    edges over every tone between); None when it does not. `ink`: the strip's ink as
    shares of its strongest. This is the strip's own look, where the band's (`two_tone`)
    found no shadow: a pale one on light paper lies too little inside the glyphs for it."""
    ink = np.minimum(ink[ink > floor], 1.0)
    if ink.size < 50:
        return None
    step = 0.02
    counts, edges = np.histogram(ink, bins=int(np.ceil((1.0 - floor) / step)), range=(floor, 1.0))
    need = round(SHADOW_GAP / step)
    # The first blank wide enough below the top tone, from the top down.
    for a, b in reversed(runs(counts == 0)):
        if b - a < need or b >= counts.size:
            continue
        above, below = counts[b:].sum(), counts[:a].sum()
        if above > below >= SHADOW_SHARE * ink.size:
            return float((edges[a] + edges[b]) / 2)
        break
    return None


RULE_FLANK = 0.6
"""A line across a strip has less ink than this share of the strip beside it (`_drop_rules`)."""


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


def ink_extent(profile: np.ndarray, pitch: float, gap: float | None = None) -> int:
    """How far from the board (index 0) the band's ink reaches before a long blank gap
    (`gap` px, when the band's own spacing is known: `band_end_gap`)."""
    limit = max(3, int(gap if gap is not None else BAND_END_GAP * pitch))
    inked = np.flatnonzero(profile)
    if not inked.size or inked[0] > limit:  # blank from the board on
        return 0
    far = np.flatnonzero(np.diff(inked) > limit + 1)  # more than `limit` blanks between
    return int(inked[far[0] if far.size else -1]) + 1


def band_end_gap(profiles: list[np.ndarray], pitch: float) -> float:
    """How long a blank ends a band (px), from its strips' ink profiles (index 0 at the
    board): `BAND_END_GAP` pitches, or more when the band's numbers stand further apart.

    Clue cells wider than the board's, or digits as tall as a cell, put numbers more
    than a pitch apart, and the band would end after its first number. Gaps followed by
    more ink further out are the band's own (a label beyond the clues is at most a
    strip's last), up to two pitches (no layout spaces its numbers wider): when most
    strips show them wide, the widest usual one sets the end.
    """
    usual = BAND_END_GAP * pitch
    inner, last, several = [], [], 0
    for profile in profiles:
        parts = runs(profile)
        gaps = [parts[i + 1][0] - parts[i][1] for i in range(len(parts) - 1)]
        inner += [g for g in gaps[:-1] if g <= 2 * pitch]
        several += bool(gaps)
        if gaps and gaps[-1] <= 2 * pitch:
            last.append(gaps[-1])
    if len(inner) < 5 and len(last) >= 5 and len(last) > LAST_GAPS * several:
        # Clues of two numbers at most: a strip's last gap is the band's own spacing when
        # nearly every strip with more than one part shows one (a label does in a few),
        # the usual one of them (not the widest: that may be a label's).
        return max(usual, SPACED_GAP * float(np.median(last)))
    if len(inner) < 5:
        return usual
    return max(usual, SPACED_GAP * float(np.percentile(inner, 90)))


def cut_strip(kind: str, index: int, box: Rect, strength: np.ndarray, scale: np.ndarray,
              band_threshold: float, pitch: float, dark: bool = True,
              hairline: float | None = None, end_gap: float | None = None,
              tall: TallRow | None = None) -> Strip:
    """The strip of one line (`box`, its ink `strength` and `scale` cut from the band),
    its ink cut into blobs; `hairline`: the threshold for a hairline font; `end_gap`: the
    blank that ends the band (`band_end_gap`); `tall`: the scanlines of a row strip
    widened for digits taller than the row (`TallRow`)."""
    if strength.size == 0:
        return Strip(kind, index, box, ())
    # Keep only what reaches the board without a long blank gap (the band's far side
    # may hold unrelated labels and buttons), then threshold against this strip's ink.
    along = (strength > band_threshold).any(axis=0 if kind == "row" else 1)
    reach = ink_extent(along[::-1], pitch, end_gap)
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
    top = float(scale.max())
    share = STRIP_CONTRAST[dark]
    # A line the ground measure left out of the ink (the board's frame at the strip's end)
    # may be the strip's strongest: it sets no bar that would cut into the numbers' own
    # strongest ink (`LINE_BAR`); then their strongest sets it.
    inked = strength > 0
    own = float(scale[inked].max()) if inked.any() else 0.0
    if share * top > LINE_BAR * own:
        top = own
    if hairline is None and top > 0:
        share = max(share, shadow_tone(strength[strength > band_threshold] / top, share) or 0.0)
    threshold = hairline if hairline is not None else max(band_threshold, share * top)
    ink = strength > threshold
    if tall is not None:
        ink = _own_digits(ink, tall)
    ink = _main_line(_drop_edge_slivers(_drop_rules(ink, kind, pitch), kind, pitch), kind)
    if not ink.any():
        return Strip(kind, index, box, ())
    if kind == "column":
        groups = []
        for y0, y1 in _joined_pieces(ink, runs(ink.any(axis=1))):
            blobs = _blobs_across(ink[y0:y1], x_off, y_off + y0)
            if blobs:
                groups.append(tuple(blobs))
    else:
        blobs = _blobs_across(ink, x_off, y_off)
        groups = [tuple(blobs)] if blobs else []
    groups = _drop_specks([tuple(b for b in g if not _is_rule(b, box, kind, pitch))
                           for g in groups])
    return Strip(kind, index, box, tuple(g for g in groups if g))


def _joined_pieces(ink: np.ndarray, parts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A column strip's runs of ink rows, with a sliver a glyph's own thin joint left apart
    (an italic 5's bar) joined to the digit it overhangs: far shorter than the digits, a
    pixel or two from one, over its ink, and the two no taller than a digit together.
    Alone it would be dropped as a speck, and the digit misread without it."""
    if len(parts) < 2:
        return parts
    tallest = max(b - a for a, b in parts)
    gap = max(2, round(0.15 * tallest))
    out = list(parts)
    changed = True
    while changed:
        changed = False
        for i, (a, b) in enumerate(out):
            if b - a >= 0.45 * tallest:
                continue
            cols = ink[a:b].any(axis=0)
            for j in (i - 1, i + 1):
                if not 0 <= j < len(out):
                    continue
                c, d = out[j]
                apart = c - b if j > i else a - d
                if (0 < apart <= gap and max(b, d) - min(a, c) <= 1.25 * tallest
                        and (ink[c:d].any(axis=0) & cols).any()):
                    out[min(i, j):max(i, j) + 1] = [(min(a, c), max(b, d))]
                    changed = True
                    break
            if changed:
                break
    return out


@dataclass(frozen=True)
class TallRow:
    """A row strip widened to hold digits taller than the row whole (`clues._tall_row`),
    their tops and feet reaching into the next rows' strips: scanlines from its start."""

    span: tuple[int, int]
    """The row's own span."""
    core: tuple[int, int]
    """Where no digit of the rows beside reaches."""


def _own_digits(ink: np.ndarray, tall: TallRow) -> np.ndarray:
    """The row's own digits in a widened strip: the shapes reaching its core, whole. A
    shape reaching the strip's outer scanline too (the next row's core) is shared, a
    digit touching the next row's (a 1's foot on the 1 below): it keeps only the row's
    own span, as an unwidened strip would."""
    (s0, s1), (c0, c1) = tall.span, tall.core
    if not ink[c0:c1].any():
        return np.zeros_like(ink)
    _, labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    own = np.unique(labels[c0:c1][ink[c0:c1]])
    ends = [labels[i][ink[i]] for i, beyond in ((0, s0 > 0), (-1, s1 < ink.shape[0]))
            if beyond]
    shared = np.intersect1d(own, np.concatenate(ends)) if ends else np.array([], int)
    out = np.isin(labels, own) & ink
    if shared.size:
        outside = np.ones(ink.shape[0], bool)
        outside[s0:s1] = False
        out[outside] &= ~np.isin(labels[outside], shared)
    return out


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
    inside. A number squeezed into a clue cell may stand within a pixel of the board:
    its digit against the side stands level with the one beside it, top and foot.)"""
    # Work with the sides left and right (a column strip's sides run down it).
    m = ink if kind == "column" else ink.T
    rule = thickest_rule(pitch)
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
        own = labels[y0:y0 + h] == i
        # How thick the shape runs along the side: its typical row, not its widest (the
        # shading at a bar's end spreads a line's last rows sideways).
        thick = float(np.median(own.sum(axis=1)))
        if 2 * min(thick, rule) >= h:
            continue
        cols = own.sum(axis=0)
        side = np.arange(w)
        near = (side <= 2 * rule) if left else (side >= w - 1 - 2 * rule)
        if cols[~near].sum() > 0.1 * cols.sum():
            continue
        inside = slice(x1, x1 + rule + 2) if left else slice(max(0, x0 - rule - 2), x0)
        beside = [j for j in np.unique(labels[y0:y0 + h, inside]) if j not in (0, i)]
        if y0 + h < m.shape[0] - 2 and any(stats[j, cv2.CC_STAT_HEIGHT] * 2 >= h
                                           for j in beside):
            continue  # the next digit of a number wide enough to reach the side
        if any(_same_span(stats[j], y0, h) for j in beside):
            continue  # the same, in the number nearest the board: the two stand level
        bad.append(i)
    if not bad:
        return ink
    out = m & ~np.isin(labels, bad)
    return out if kind == "column" else out.T


def _same_span(stats: np.ndarray, y0: int, h: int) -> bool:
    """Whether a shape (its connected-component `stats`) starts and ends along the strip's
    sides within a pixel of the span y0..y0+h: digits of one number stand level, while a
    piece of line runs on past the digit beside it (to the board, or from beyond it)."""
    top, height = int(stats[cv2.CC_STAT_TOP]), int(stats[cv2.CC_STAT_HEIGHT])
    return abs(top - y0) <= 1 and abs(top + height - y0 - h) <= 1


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
    spans = runs(ink.any(axis=0))
    if not spans:
        return []
    # Each run's rows with ink, all runs at once (every column of a run holds ink, so
    # only its rows need trimming).
    inked = np.logical_or.reduceat(ink, [x0 for x0, _ in spans], axis=1)
    tops = inked.argmax(axis=0).tolist()
    bottoms = (ink.shape[0] - inked[::-1].argmax(axis=0)).tolist()
    return [Blob(Rect(x_off + x0, y_off + y0, x1 - x0, y1 - y0), ink[y0:y1, x0:x1])
            for (x0, x1), y0, y1 in zip(spans, tops, bottoms, strict=True)]


def thickest_rule(pitch: float) -> int:
    """The thickest line taken for a rule (a box border, a seam, the frame), not a stroke."""
    return max(2, int(pitch * 0.12))


def _drop_rules(ink: np.ndarray, kind: str, pitch: float) -> np.ndarray:
    """Remove box borders, separators and the board's frame: thin lines across the whole
    strip, and anything longer along the strip than three cells. A thin run across the
    strip flanked by ink over most of the strip is no line but part of a wider shape: a
    slanted stroke of a digit taller than the strip."""
    across_axis = 0 if kind == "row" else 1
    across = ink.shape[across_axis]
    thin = thickest_rule(pitch)
    cover = ink.sum(axis=across_axis)
    full = cover >= across
    if full.any():
        ink = ink.copy()
        for a, b in runs(full):
            flank = max(cover[a - 1] if a > 0 else 0, cover[b] if b < cover.size else 0)
            if b - a <= thin and flank < RULE_FLANK * across:
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
    # A stroke a glyph's own thin joint left apart (an italic 5's bar, cut off where its
    # stem thins out) stays: it lies a pixel or two from the main band, clear of the
    # strip's edges, over the band's own ink. A neighbour's tails cross the edge.
    gap = max(2, round(0.15 * (b - a)))
    cols = ink[a:b].any(axis=0)
    for p0, p1 in sorted(parts, key=lambda p: abs(p[0] - a)):
        if (p0, p1) == (a, b) or p0 == 0 or p1 == ink.shape[0]:
            continue
        near = 0 < a - p1 <= gap or 0 < p0 - b <= gap
        if near and (ink[p0:p1].any(axis=0) & cols).any() and p1 - p0 < 0.5 * (b - a):
            a, b = min(a, p0), max(b, p1)
    out = np.zeros_like(ink)
    out[a:b] = ink[a:b]
    return out


SPECK = 0.45
"""Ink shorter than this share of the digits beside it is not a digit."""


def _drop_specks(groups: list[tuple[Blob, ...]], tallest: float = 0.0
                 ) -> list[tuple[Blob, ...]]:
    """Forget ink far smaller than the strip's digits (antialiasing dust, pointer edges),
    or than `tallest` when that is taller."""
    heights = [b.box.h for g in groups for b in g]
    if not heights:
        return groups
    tallest = max(tallest, *heights)
    out = []
    for g in groups:
        kept = tuple(b for b in g if b.box.h >= SPECK * tallest)
        if kept:
            out.append(kept)
    return out


def drop_specks(strips: list[Strip], digit_height: float) -> list[Strip]:
    """Forget ink far shorter than the board's digits. A strip's own tallest ink is no
    yardstick when it holds no digit: the strip of a line with an empty clue may keep
    a corner of its box or bar, a few pixels tall, that would read as a number."""
    return [Strip(s.kind, s.index, s.box, tuple(_drop_specks(list(s.groups), digit_height)))
            for s in strips]
