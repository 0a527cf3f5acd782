"""A periodic texture under the clues (a halftone of dots, a fine hatch), found and flattened.

A printed dot pattern departs from the paper as far as faint ink does: thresholds
take its dots for specks of ink, dots beside a stroke for part of the digit, and
rows of dots for rules. What tells it apart is its period: every dot has twins a
period away in each direction, while a stroke does not repeat at that spacing.
`flatten_texture` finds the period from the clue bands' own pixels (the smallest
shifts along and across at which nearly every pixel that differs from its
neighbours repeats), then sets each pixel that matches its twins (the same tone a
period away, most of them) back to the local paper, when the texture departs
there as the texture does elsewhere in the band. Ink drawn over the texture hides
it and keeps its tone; the board itself is left as it is.
"""

from __future__ import annotations

import cv2
import numpy as np

from autoplayer.geometry import Rect

VARYING = 8.0
"""A pixel differing from the next (right or below) by more than this many levels is part
of a pattern: a texture's dot, a glyph's edge."""
TEXTURED = 0.25
"""A band whose pixels vary at least this often may be textured (paper and glyphs vary far
less: only their edges do)."""
REPEATS = 0.4
"""A shift at which this share of the varying pixels repeat (within `SAME` levels) at
least (the glyphs' edges, many near the board, do not) ..."""
OVER = 1.4
"""... and this many times as many as at the usual shift is a period of the texture (the
paper beside an edge repeats at any shift)."""
SAME = 2.0
"""Levels within which a pixel and its twin a period away are the same tone."""
MAX_PERIOD = 1 / 3
"""A texture repeats within this share of a cell pitch (or `SEARCH` px): a digit spans
periods, so a stroke's pixel has twins off the stroke."""
SEARCH = 8
"""Periods up to this many pixels are looked for however small the cells: a halftone's."""
AMPLITUDE = 1.25
"""A pixel matching its twins is texture when it departs from the paper by no more than
this many times the texture's typical departure (the inside of a thick stroke matches its
twins too, further from the paper)."""
NEAR = 3.0
"""The period is looked for within this many cell pitches of the board, where clues stand."""
SAMPLE = 20000
"""Varying pixels the period is judged on (at most)."""


def flatten_texture(lum: np.ndarray, board: Rect, pitch: float) -> np.ndarray | None:
    """`lum` with a periodic texture in the clue bands beside `board` flattened to its paper
    (a copy), or None when the bands show none."""
    h, w = lum.shape
    bands = _bands(board, w, h)
    if not bands:
        return None
    reach = int(NEAR * pitch)
    near = [Rect(max(r.x, r.right - reach) if r.right <= board.x else r.x,
                 max(r.y, r.bottom - reach) if r.bottom <= board.y else r.y,
                 min(r.w, reach) if r.right <= board.x or r.x >= board.right else r.w,
                 min(r.h, reach) if r.bottom <= board.y or r.y >= board.bottom else r.h)
            for r in bands]
    period = _period(lum, near, max(SEARCH, int(MAX_PERIOD * pitch)))
    if period is None:
        return None
    px, py = period
    shifts = [(px, 0), (-px, 0), (0, py), (0, -py), (px, py), (-px, -py), (px, -py), (-px, py)]
    pad = max(px, py)
    levels = np.clip(lum, 0, 255).astype(np.uint8)
    padded = cv2.copyMakeBorder(levels, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    ksize = max(3, (max(px, py) - 1) | 1)
    found = []
    for r in bands:
        part = levels[r.y:r.bottom, r.x:r.right]
        # The paper without the texture: a median over a period (the texture's
        # tones are a minority of the paper's pixels, as the dots of a halftone are).
        wide = cv2.copyMakeBorder(part, ksize, ksize, ksize, ksize, cv2.BORDER_REFLECT_101)
        paper = cv2.medianBlur(wide, ksize)[ksize:-ksize, ksize:-ksize]
        signed = part.astype(np.int16) - paper
        # A pixel matches its twins when most of those the ink leaves free agree with
        # it: a twin further from the paper the same way is under a stroke (a dot
        # beside a digit has twins on it) and does not count.
        side = np.sign(signed)
        # A dot has twins in several directions; a stroke's pixel may have them along
        # the stroke only.
        agree = np.zeros(part.shape, np.uint8)
        free = np.zeros(part.shape, np.uint8)
        ways = np.zeros(part.shape, np.uint8)
        for pair in range(0, len(shifts), 2):
            both = np.zeros(part.shape, bool)
            for dx, dy in shifts[pair:pair + 2]:
                twin = padded[pad + r.y + dy:pad + r.bottom + dy,
                              pad + r.x + dx:pad + r.right + dx]
                step = (twin.astype(np.int16) - part) * side
                same = np.abs(step) <= SAME
                agree += same
                free += step <= SAME
                both |= same
            ways += both
        match = (2 * agree > free) & (ways >= 2) & (np.abs(signed) > VARYING)
        # A pixel between two further from the paper the same way (along or across) is
        # inside a glyph, whatever its twins.
        beyond = np.pad(signed * side, 1, mode="edge")
        deep = signed * side
        inside = ((beyond[1:-1, :-2] > deep + SAME) & (beyond[1:-1, 2:] > deep + SAME)) | \
            ((beyond[:-2, 1:-1] > deep + SAME) & (beyond[2:, 1:-1] > deep + SAME))
        found.append((r, match & ~inside, signed, paper))
    departs = np.concatenate([d[m] for _, m, d, _ in found])
    if departs.size == 0:
        return None
    # The texture departs one way (its dots are darker than the paper, or lighter), by
    # about as much everywhere: a pixel departing the other way, or much further, is a
    # glyph's or lies where the paper is not what the median took it for.
    way = 1 if np.median(departs) > 0 else -1
    typical = float(np.percentile(departs * way, 90))
    out = lum.copy()
    for r, match, signed, paper in found:
        texture = match & (signed * way > VARYING) & (signed * way <= AMPLITUDE * typical)
        view = out[r.y:r.bottom, r.x:r.right]
        view[texture] = paper[texture]
    return out


def _bands(board: Rect, w: int, h: int) -> list[Rect]:
    """The four clue bands' rectangles beside the board (those with room), within the
    picture."""
    x0, y0 = max(0, board.x), max(0, board.y)
    x1, y1 = min(w, board.right), min(h, board.bottom)
    out = [Rect(0, y0, x0, y1 - y0), Rect(x1, y0, w - x1, y1 - y0),
           Rect(x0, 0, x1 - x0, y0), Rect(x0, y1, x1 - x0, h - y1)]
    return [r for r in out if r.w > 0 and r.h > 0]


def _period(lum: np.ndarray, bands: list[Rect], most: int) -> tuple[int, int] | None:
    """The texture's period along x and y (px): the smallest shift each way at which
    nearly every varying pixel of the bands repeats; None when there is no such texture."""
    ys, xs = [], []
    for r in bands:
        part = lum[r.y:r.bottom, r.x:r.right]
        if part.shape[0] < 2 * most + 2 or part.shape[1] < 2 * most + 2:
            continue
        inner = part[:-most - 1, :-most - 1]
        varying = (np.abs(inner - part[1:-most, :-most - 1]) > VARYING) | \
            (np.abs(inner - part[:-most - 1, 1:-most]) > VARYING)
        if varying.mean() < TEXTURED:
            continue
        vy, vx = np.nonzero(varying)
        ys.append(vy + r.y)
        xs.append(vx + r.x)
    if not ys:
        return None
    y, x = np.concatenate(ys), np.concatenate(xs)
    if y.size > SAMPLE:
        step = y.size // SAMPLE + 1
        y, x = y[::step], x[::step]
    here = lum[y, x]

    def first(along: bool) -> int | None:
        shares = [float(np.mean(np.abs((lum[y, x + d] if along else lum[y + d, x]) - here)
                                <= SAME)) for d in range(2, most + 1)]
        best = int(np.argmax(shares))
        if shares[best] < REPEATS or shares[best] < OVER * float(np.median(shares)):
            return None
        return best + 2

    px, py = first(True), first(False)
    return None if px is None or py is None else (px, py)
