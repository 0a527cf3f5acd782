"""Digit recognition by black-pixel groups, scanline by scanline, with no per-font data.

The idea is PixeloSolver's: scan a glyph top to bottom and watch the groups of
ink each row holds. Here every row becomes one token:

- ``F`` one group spanning most of the width (a bar),
- ``L`` / ``C`` / ``R`` one narrower group, left / centre / right,
- ``D`` two groups (the two sides of a bowl or hole), ``T`` three or more.

Runs of equal tokens collapse into segments weighted by the share of the
height they cover. Each digit is described by a few token sequences that hold
for ordinary fonts (boxy pixel fonts, antialiased sans, serif, monospace); a
glyph is read as the digit whose description is nearest in a weighted edit
distance, and the gap to the runner-up is the confidence. Short segments cost
little to drop, so serifs and antialiasing specks do not derail the reading.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.vision.image import bitmap_key, runs, trim

HOLES: dict[int, tuple[int, ...]] = {
    0: (1, 2), 1: (0,), 2: (0,), 3: (0,), 4: (0, 1), 5: (0,), 6: (1,), 7: (0,), 8: (2, 1), 9: (1,),
}
"""How many enclosed holes each digit may show (a slashed zero has two, an open 4 none)."""

PROTOTYPES: dict[int, tuple[str, ...]] = {
    0: ("CDC", "FDF", "CDTDC", "FDTDF", "CFDC", "CDFC"),
    1: ("F", "CF", "LCF", "CCF", "C", "CLDCF", "CDCF", "LDCF", "FCF", "CFDCF",
        "CFCF", "RDR", "CDR"),
    2: ("CDRCLF", "CDRLF", "FRFLF", "CRCLF", "CDRCF", "FRLF", "CRLF", "CDRCLDF"),
    3: ("CDRCRDC", "FRFRF", "CRCRC", "CDRCRC", "CRCDC", "FRCRF", "CDRFRDC", "FDRDF", "CDRDC",
        "FCRCF"),
    4: ("DFR", "DFC", "RDFR", "CDFC", "RDFC", "CDFR", "LDFR"),
    5: ("FLFRDC", "FLCRC", "FLFRF", "FLCRDC", "FLDRC", "FLFRC", "FLFCRCF"),
    6: ("CLCDC", "FLFDF", "CLDC", "CDLCDC", "FLDF", "CDLDC", "CDLFDC"),
    7: ("FRCL", "FRC", "FR", "FRCC", "FDRC", "FDRCL", "FLRC"),
    8: ("CDCDC", "FDFDF", "CDFDC", "CFDCFDFC"),
    9: ("CDCRC", "FDFRF", "CDRC", "CDCRDC", "FDRF", "CDRDC", "CDFRDC", "FDFR"),
}

_ORDER = "LCRFDT"
_SUB = np.array([
    # L    C    R    F    D    T
    [0.0, 0.5, 1.0, 0.7, 0.9, 1.0],  # L
    [0.5, 0.0, 0.5, 0.35, 0.8, 1.0],  # C
    [1.0, 0.5, 0.0, 0.7, 0.9, 1.0],  # R
    [0.7, 0.35, 0.7, 0.0, 0.7, 0.9],  # F
    [0.9, 0.8, 0.9, 0.7, 0.0, 0.5],  # D
    [1.0, 1.0, 1.0, 0.9, 0.5, 0.0],  # T
])
ONE_WIDEST = 0.68
"""A "1" is at most this wide for its height (a sans "1" with a foot as wide as its flag
reaches 0.65); wider, it is something else."""
PINHOLE = 0.3
"""A weak hole shorter than this share of the tallest strong hole is not a bowl."""
_MISSING = 0.6
"""Cost of a prototype token the glyph lacks altogether."""
_FULL_WEIGHT = 0.12
"""A segment covering this share of the height (or more) counts fully."""


@dataclass(frozen=True)
class Segment:
    token: str
    share: float
    """The share of the glyph's height this run of equal tokens covers."""


def row_token(row: np.ndarray, width: int) -> str | None:
    return _token(runs(row), width)


def _token(groups: list[tuple[int, int]], width: int) -> str | None:
    if not groups:
        return None
    if len(groups) >= 3:
        return "T"
    if len(groups) == 2:
        return "D"
    s, e = groups[0]
    if e - s >= 0.7 * width:
        return "F"
    return _side((s + e) / 2 / width)


def _side(centre: float) -> str:
    """L, C or R for a narrow group centred at `centre` (a share of the width)."""
    if centre < 0.4:
        return "L"
    if centre > 0.6:
        return "R"
    return "C"


def _stems(spans: list[list[tuple[int, int]]], tokens: list[str | None], w: int
           ) -> list[str | None]:
    """One token for each upright stroke: rows of one narrow group sharing a column.

    A stroke about a pixel wide that falls between two pixel columns is drawn a
    pixel to one side in some rows and the other in the rest; near the boundary
    between two sides its rows flip between C and R, and a 1 reads as a 3. The
    stroke's token is that of its mean position.
    """
    thin = 0.25 * w

    def stem(k: int) -> bool:
        return tokens[k] in ("L", "C", "R") and spans[k][0][1] - spans[k][0][0] <= thin

    out = list(tokens)
    i, n = 0, len(tokens)
    while i < n:
        if not stem(i):
            i += 1
            continue
        lo, hi = spans[i][0]
        j = i
        while j + 1 < n and stem(j + 1):
            s, e = spans[j + 1][0]
            if max(lo, s) >= min(hi, e):
                break
            lo, hi, j = max(lo, s), min(hi, e), j + 1
        if len(set(tokens[i:j + 1])) > 1:
            centre = sum(a + b for a, b in (spans[k][0] for k in range(i, j + 1))) / 2
            out[i:j + 1] = [_side(centre / (j + 1 - i) / w)] * (j + 1 - i)
        i = j + 1
    return out


def _middle_bars(spans: list[list[tuple[int, int]]], tokens: list[str | None], w: int
                 ) -> list[str | None]:
    """Side tokens that are bars across the glyph's middle, made "C" (after `_stems`).

    At small sizes a middle bar can fall short of the width and off centre: a 3's
    middle arm is a right-side group reaching well left of the strokes above and
    below it, a 5's middle bar (half the width or more) joins its left stroke to the
    right one below. Taken for side strokes, they leave a 3 or a 5 that reads as 7.
    """
    reach = max(2.0, 0.2 * w)
    out = _stems(spans, tokens, w)
    sides = ("L", "R")
    for i in range(1, len(tokens) - 1):
        above, tok, below = tokens[i - 1:i + 2]
        if tok not in sides or above not in sides or below not in sides:
            continue
        (s0, e0), (s, e), (s1, e1) = spans[i - 1][0], spans[i][0], spans[i + 1][0]
        if above != below:  # touching (8-connected) a stroke on either side of the middle
            left_end, right_start = (e0, s1) if above == "L" else (e1, s0)
            bar = (left_end <= w / 2 <= right_start and s <= left_end and right_start <= e
                   and 2 * (e - s) >= w)
        elif tok == above == "R":
            bar = s <= min(s0, s1) - reach
        else:
            bar = tok == above and e >= max(e0, e1) + reach
        if bar:
            out[i] = "C"
    return out


def segments(glyph: np.ndarray, width: int = 0) -> list[Segment]:
    """The glyph's scanline tokens, runs of equal tokens collapsed; with a `width` wider
    than the glyph, as it stands centred in that width (see `recognise`)."""
    g, _, _ = trim(np.asarray(glyph, dtype=bool))
    h, w = g.shape
    if width > w:
        left = (width - w) // 2
        g = np.pad(g, ((0, 0), (left, width - w - left)))
        w = width
    out: list[list] = []
    spans = [runs(row) for row in g]
    for tok in _middle_bars(spans, [_token(s, w) for s in spans], w):
        if tok is None:
            continue
        if out and out[-1][0] == tok:
            out[-1][1] += 1
        else:
            out.append([tok, 1])
    return [Segment(t, n / h) for t, n in out]


def _weight(share: float) -> float:
    return min(1.0, share / _FULL_WEIGHT)


_SUB_COST = {(a, b): float(_SUB[i, j]) for i, a in enumerate(_ORDER) for j, b in enumerate(_ORDER)}


def distance(segs: list[Segment], prototype: str) -> float:
    """Weighted edit distance between a glyph's segments and a prototype sequence."""
    m = len(prototype)
    missing, half = _MISSING, _MISSING * 0.5
    sub = _SUB_COST
    prev = [j * missing for j in range(m + 1)]
    for seg in segs:
        wi = _weight(seg.share)
        tok = seg.token
        cur = [prev[0] + wi] + [0.0] * m
        for j in range(1, m + 1):
            pj = prototype[j - 1]
            # Comparisons written out: this loop runs for every prototype of every new glyph.
            best = prev[j] + wi
            step = cur[j - 1] + missing
            if step < best:
                best = step
            step = prev[j - 1] + sub[tok, pj] * wi
            if step < best:
                best = step
            # one glyph segment may stand for two equal prototype tokens
            if j > 1 and prototype[j - 2] == pj == tok:
                step = prev[j - 1] + half
                if step < best:
                    best = step
            cur[j] = best
        prev = cur
    return prev[m]


@dataclass(frozen=True)
class Hole:
    top: float
    bottom: float
    """Vertical extent as shares of the glyph height."""
    weak: bool = False
    """So small it may be a speck of antialiasing rather than a bowl."""


def holes(glyph: np.ndarray) -> list[Hole]:
    """Background regions the ink encloses (4-connected, so a diagonal gap still closes)."""
    h = glyph.shape[0]
    bg = np.pad(~glyph, 1, constant_values=True).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(bg, connectivity=4)
    out = []
    outer = labels[0, 0]
    ink_area = int(glyph.sum())
    for i in range(1, n):
        if i == outer:
            continue
        y = stats[i, cv2.CC_STAT_TOP] - 1
        weak = stats[i, cv2.CC_STAT_AREA] < max(2, 0.03 * ink_area)
        out.append(Hole(y / h, (y + stats[i, cv2.CC_STAT_HEIGHT]) / h, bool(weak)))
    return out


def _hole_penalty(digit: int, found: list[Hole]) -> float:
    """Penalty for the holes seen; a weak hole may be counted or not, whichever fits.

    A weak hole far shorter than a strong one beside it is a pinhole where two strokes
    of an antialiased glyph nearly meet (a 9's bowl closing on its stem), not a bowl.
    """
    strong = [h for h in found if not h.weak]
    if len(strong) == len(found):
        return _holes_fit(digit, found)
    tallest = max((h.bottom - h.top for h in strong), default=0.0)
    plausible = [h for h in found if not h.weak or h.bottom - h.top >= PINHOLE * tallest]
    return min(_holes_fit(digit, strong), _holes_fit(digit, plausible))


def _holes_fit(digit: int, found: list[Hole]) -> float:
    n = len(found)
    if n not in HOLES[digit]:
        return 1.5
    if n != 1:
        return 0.0
    hole = found[0]
    centre = (hole.top + hole.bottom) / 2
    tall = hole.bottom - hole.top
    if digit == 6:
        return 0.0 if centre > 0.53 else 1.0
    if digit in (9, 4):
        return 0.0 if centre < 0.47 else 1.0
    if digit == 0:
        return 0.0 if tall > 0.45 and abs(centre - 0.5) < 0.12 else 1.0
    if digit == 8:  # one bowl closed up at a small size
        return 1.2
    return 0.0


def scores(glyph: np.ndarray, width: int = 0) -> dict[int, float]:
    """Distance of the glyph to each digit (lower is better)."""
    g, _, _ = trim(np.asarray(glyph, dtype=bool))
    if g.size == 0:
        return {d: np.inf for d in PROTOTYPES}
    h, w = g.shape
    found = holes(g)
    nearest = _nearest(tuple((seg.token, seg.share) for seg in segments(g, width)))
    out = {d: nearest[d] + _hole_penalty(d, found) for d in PROTOTYPES}
    aspect = w / h
    if aspect < 0.34:  # only a bare stem is this narrow
        for d in out:
            if d != 1:
                out[d] += 1.0
    else:
        out[1] += 0.5 if aspect > ONE_WIDEST else 0.0
    return out


_SHAPES: dict[tuple[tuple[str, float], ...], dict[int, float]] = {}


def _nearest(shape: tuple[tuple[str, float], ...]) -> dict[int, float]:
    """Each digit's nearest prototype distance for a token sequence. Glyphs on a textured
    ground differ pixel by pixel but mostly share their sequence: memoised by it."""
    hit = _SHAPES.get(shape)
    if hit is None:
        if len(_SHAPES) >= _CACHE_LIMIT:
            _SHAPES.clear()
        ends = _distances_to_all(shape)
        hit = _SHAPES[shape] = {d: float(ends[rows].min()) for d, rows in _TABLE.digit_rows}
    return hit


@dataclass(frozen=True)
class _Table:
    """Every prototype as rows of one array, so that `distance` runs for all at once."""
    lengths: np.ndarray
    """(P,) each prototype's length."""
    sub: dict[str, np.ndarray]
    """A glyph token's substitution cost against each prototype position (P, M)."""
    double: dict[str, np.ndarray]
    """Where a glyph token may stand for two equal prototype tokens ending at a
    position (P, M; the position's token and the one before both equal it)."""
    digit_rows: tuple[tuple[int, np.ndarray], ...]
    """Each digit's prototype rows."""


def _table() -> _Table:
    protos = [(d, p) for d, ps in PROTOTYPES.items() for p in ps]
    m = max(len(p) for _, p in protos)
    sub = {t: np.zeros((len(protos), m)) for t in _ORDER}
    double = {t: np.zeros((len(protos), m), bool) for t in _ORDER}
    for i, (_, p) in enumerate(protos):
        for j, pj in enumerate(p):
            for t in _ORDER:
                sub[t][i, j] = _SUB_COST[t, pj]
            if j >= 1 and p[j - 1] == pj:
                double[pj][i, j] = True
    rows = tuple((d, np.array([i for i, (e, _) in enumerate(protos) if e == d]))
                 for d in PROTOTYPES)
    return _Table(np.array([len(p) for _, p in protos]), sub, double, rows)


_TABLE = _table()


def _distances_to_all(shape: tuple[tuple[str, float], ...]) -> np.ndarray:
    """`distance` from a glyph's segments to every prototype (P,): the same sums and
    minima in the same order, each step over all prototypes at once."""
    table = _TABLE
    p, m = table.sub["F"].shape
    missing, half = _MISSING, _MISSING * 0.5
    prev = np.tile(np.arange(m + 1) * missing, (p, 1))
    for tok, share in shape:
        wi = _weight(share)
        # Everything but the step along the prototype (a token it has, the glyph lacks),
        # which depends on the position before and is taken position by position.
        best = np.minimum(prev[:, 1:] + wi, prev[:, :-1] + table.sub[tok] * wi)
        np.minimum(best, np.where(table.double[tok], prev[:, :-1] + half, np.inf), out=best)
        cur = np.empty_like(prev)
        cur[:, 0] = prev[:, 0] + wi
        for j in range(1, m + 1):
            cur[:, j] = np.minimum(best[:, j - 1], cur[:, j - 1] + missing)
        prev = cur
    return prev[np.arange(p), table.lengths]


_CACHE: dict[tuple[tuple[tuple[int, ...], bytes], int],
             tuple[list[tuple[int, float]], dict[int, float]]] = {}
_CACHE_LIMIT = 4096


def recognise(glyph: np.ndarray, width: int = 0) -> list[tuple[int, float]]:
    """Digits best first, each with a confidence in 0..1 (its margin over the next).

    `width`: the font's digit width on this board, when known. A glyph alone is judged
    against its own width, where a narrow 1's flag or foot spans "most of the width" as a
    7's or a 3's bars do; centred in the width its font's other digits take, they are
    short strokes beside a stem. Screens repeat the same glyph bitmap many times, so
    results are memoised by the exact bitmap (and width).
    """
    return _memo(glyph, width)[0]


def distances(glyph: np.ndarray, width: int = 0) -> dict[int, float]:
    """`scores` of the glyph, memoised with `recognise`."""
    return _memo(glyph, width)[1]


def _memo(glyph: np.ndarray, width: int = 0
          ) -> tuple[list[tuple[int, float]], dict[int, float]]:
    key = (bitmap_key(glyph), width)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    s = scores(np.asarray(glyph, dtype=bool), width)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    hit = _CACHE[key] = (_rank(s), s)
    return hit


def clear_cache() -> None:
    """Forget memoised readings (benchmarks use it to time cold reads)."""
    _CACHE.clear()
    _SHAPES.clear()


MARGIN = 0.4
"""A best distance this much below the next digit's is fully confident."""


def confidence_over(dist: float, other: float) -> float:
    """How sure a reading at distance `dist` is against a rival digit at distance `other`."""
    return min(1.0, max(0.0, other - dist) / MARGIN) / (1.0 + dist)


def _rank(s: dict[int, float]) -> list[tuple[int, float]]:
    ranked = sorted(s.items(), key=lambda kv: kv[1])
    out = []
    for i, (digit, dist) in enumerate(ranked):
        nxt = ranked[i + 1][1] if i + 1 < len(ranked) else dist + 1.0
        out.append((digit, confidence_over(dist, nxt) if i == 0 else 0.0))
    return out
