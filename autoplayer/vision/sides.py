"""Which sides of a located board hold its clues: ink lined up with the rows and columns.

Games put row clues left or right of the board and column clues above or below
it. The clue side is the one where, close to the board, nearly every row (column)
has ink inside its own span: a number sits beside every line. Page text, a
heading or a button lines up with a few lines at most. Ink beside the lines on
both opposite sides is the mark of another kind of puzzle (numbers seen from
each side of the grid), not of a nonogram.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplayer.vision.grid import Grid
from autoplayer.vision.image import byte_median, runs, whole_levels

REACH = 2.5
"""How far from the board (cell pitches) the nearest clue number is looked for."""
LINED_UP = 0.5
"""Share of the lines that must have ink beside them for a side to hold clues."""
MIN_STEP = 40.0
"""Luminance steps (0..255) a stroke departs from its strip's ground by, at least."""
FAINT_STEP = 20.0
"""Looking again for faint ink (no side of a direction lined up at `MIN_STEP`): the least
step on a smooth ground. Faint clue ink (2.5:1 on a dark page is some 35 levels) stands
out of a flat or gently shaded ground by less than `MIN_STEP`."""
ROUGH = 4.0
"""Looking again for faint ink: a stroke departs from its ground by this many times the
ground's own spread (the median departure of a strip's pixels, textures and noise) at
least, and by `MIN_STEP` at most."""
FAINT_INK = 0.3
"""Faint ink is looked for unless the clues found beside the other direction depart from
their ground by so much that this share of it is `MIN_STEP` (one ink draws all clues;
a page's faint decorations beside a board of black numbers are no clues)."""


@dataclass(frozen=True)
class ClueSides:
    row: str = "left"
    """'left' or 'right': where the row clues are."""
    column: str = "top"
    """'top' or 'bottom': where the column clues are."""
    scores: tuple[tuple[str, float], ...] = ()
    """Share of the lines with ink beside them, by side."""
    text: tuple[str, ...] = ()
    """Sides whose ink lines up but is spread like page text's, opposite a side whose ink
    is not (`_pick`): a panel or footer beside the board, no numbers."""

    def score(self, side: str) -> float:
        return dict(self.scores).get(side, 0.0)

    def both(self, kind: str) -> bool:
        """Numbers stand beside the lines on both opposite sides (ink lined up on both,
        neither side's taken for page text)."""
        a, b = ("left", "right") if kind == "row" else ("top", "bottom")
        return all(self.score(side) >= LINED_UP and side not in self.text for side in (a, b))


def clue_sides(lum: np.ndarray, grid: Grid) -> ClueSides:
    """The side holding each direction's clues (left and top when neither shows any)."""
    board = grid.rect
    h_img, w_img = lum.shape
    reach = max(4, int(REACH * grid.pitch))
    margin = max(2, round(grid.pitch * 0.08))
    where = {
        "left": (grid.ys, max(0, board.x - reach), board.x - margin, 0, True),
        "right": (grid.ys, board.right + margin, min(w_img, board.right + reach), 0, False),
        "top": (grid.xs, max(0, board.y - reach), board.y - margin, 1, True),
        "bottom": (grid.xs, board.bottom + margin, min(h_img, board.bottom + reach), 1, False),
    }
    scores = {side: _lined_up(lum, *args)[0] for side, args in where.items()}
    faint: set[str] = set()
    for first, second, other in (("left", "right", ("top", "bottom")),
                                 ("top", "bottom", ("left", "right"))):
        if max(scores[first], scores[second]) >= LINED_UP:
            continue
        # Neither side lines up: look again for faint ink, unless the other direction's
        # clues show the ink is not faint (then faint marks here are not numbers).
        seen = [_contrast(lum, *where[side]) for side in other if scores[side] >= LINED_UP]
        if seen and FAINT_INK * max(seen) >= MIN_STEP:
            continue
        faint |= {first, second}
        for side in (first, second):
            scores[side] = _lined_up(lum, *where[side], faint=True)[0]

    text: list[str] = []

    def pick(first: str, second: str) -> str:
        if scores[first] >= LINED_UP and scores[second] >= LINED_UP:  # rare: weigh spreads
            side, texty = _pick({side: _lined_up(lum, *where[side], spread=True,
                                                 faint=side in faint)
                                 for side in (first, second)}, first, second)
            text.extend(texty)
            if not texty and scores[first] == scores[second]:
                # Lined up alike, neither like text: the clues are the ink beside the
                # board, not a toolbar of as many icons across a gap from it.
                gap = {s: _lined_up(lum, *where[s], faint=s in faint, near=True)[1]
                       for s in (first, second)}
                if abs(gap[first] - gap[second]) >= NEARER * (grid.pitch):
                    return min((first, second), key=gap.__getitem__)
            return side
        return _pick({side: (scores[side], 0.0) for side in (first, second)}, first, second)[0]

    row, column = pick("left", "right"), pick("top", "bottom")
    return ClueSides(row, column, tuple(scores.items()), tuple(text))


NEARER = 0.5
"""Of two opposite sides lined up alike, the clues' is the one whose ink stands nearer the
board by this many cell pitches at least (a toolbar above a small board, its icons one per
column, stands beyond a gap)."""
TEXT_SPREAD = 0.5
"""Ink as dense in the cells' outer sixths as in their middles, by this share at least, is
page text's (a heading, a footer) rather than numbers centred on their lines."""


def _pick(found: dict[str, tuple[float, float]], first: str, second: str
          ) -> tuple[str, tuple[str, ...]]:
    """Which of two opposite sides holds the clues, by (score, spread) (`_lined_up`): the
    better lined up; when both line up, the one whose ink is not spread like text's
    (a heading above the board lines up with every column of a small one). With it, the
    other side when that was told apart as text (its lined-up ink is then no numbers)."""
    (a, spread_a), (b, spread_b) = found[first], found[second]
    if a >= LINED_UP and b >= LINED_UP:
        if spread_b >= TEXT_SPREAD and spread_a <= spread_b / 2:
            return first, (second,)
        if spread_a >= TEXT_SPREAD and spread_b <= spread_a / 2:
            return second, (first,)
    return (second if b > a and b >= LINED_UP else first), ()


def _lined_up(lum: np.ndarray, spans: tuple[tuple[int, int], ...], lo: int, hi: int,
              axis: int, board_at_hi: bool, spread: bool = False, faint: bool = False,
              near: bool = False) -> tuple[float, float]:
    """Share of the lines (`spans` along them) with ink in [lo, hi) across them, and (with
    `spread`, else 0) how spread that ink is: its density in the cells' outer sixths over
    that in their middles; or (with `near`) how far from the board (px from the region's
    board end) the lines' nearest ink stands, the median over the lines with ink.
    `faint`: the least step follows the ground (`ROUGH`).

    axis 0: rows (spans are y-ranges, lo..hi an x-range); axis 1: columns.
    Each line's strip is its cell span less a sixth at each end, clear of the
    grid lines. Ink that runs on across the gap between two lines, where clue
    numbers stop short, is a rule (a box border), and so is a thin line in the same
    place across most strips with nothing beside it (a dashed frame). Above or below
    the board, ink crossing some of the gaps themselves is page text running across
    the columns: from the nearest such text outwards nothing counts.
    """
    if hi - lo < 3 or len(spans) < 2:
        return 0.0, 0.0
    region = lum[:, lo:hi] if axis == 0 else lum[lo:hi, :].T
    cuts = [max(1, (b - a) // 6) for a, b in spans]
    height = min(b - a - 2 * c for (a, b), c in zip(spans, cuts, strict=True))
    if height < 3:
        return 0.0, 0.0
    pitch = int(np.median([b - a for a, b in spans])) + 1
    inks = _stacked_ink(region, np.array([a + c for (a, _), c in zip(spans, cuts, strict=True)]
                                         )[:, None] + np.arange(height), pitch, faint)
    ends = np.array([spans[k - 1][1] for k in range(1, len(spans))])
    starts = np.array([spans[k][0] for k in range(1, len(spans))])
    mids = (ends + starts) // 2
    # A rule crosses the gap between two lines (ink on the rows just before and after
    # it); a number stops short of it.
    around = _stacked_ink(region, np.stack([ends - 1, mids, starts], axis=1), pitch, faint)
    rules = (around[:, 0] & around[:, -1]).sum(axis=0)
    # Through the line itself and a row on either side: a drop shadow reaching the
    # line is no text running across it.
    through = _stacked_ink(region, np.stack([mids - 1, mids, mids + 1], axis=1), pitch, faint)
    cross = (through.sum(axis=1) >= 2).sum(axis=0)
    # Text crosses some of the gaps (a rule along the board, or the drop shadows of
    # numbers stacked in every line, nearly all of them).
    crossed = (cross >= max(2.0, 0.1 * len(spans))) & (cross < 0.8 * len(spans))
    # A line of text is a few pixels deep at least; the end of a thick line is not.
    lines = [(a, b) for a, b in runs(crossed) if b - a >= 3]
    # (Beside the rows, tall digits' drop shadows cross the gaps as text does: there
    # only the long gap before the band's far side keeps page text out.)
    if lines and axis == 1:
        # From the nearest text line outwards, its descenders (a third of it) included.
        a, b = max(lines) if board_at_hi else min(lines)
        tail = (b - a) // 3 + 1
        beyond = slice(None, b + tail) if board_at_hi else slice(max(0, a - tail), None)
        inks[:, :, beyond] = False
    # A thin line at one place in every strip, nothing beside it: a rule broken up (dashed).
    cover = inks.mean(axis=(0, 1))
    padded = np.pad(cover, 4)
    beside = np.maximum(padded[1:-7], padded[2:-6])  # 3 and 2 columns before
    beside = np.maximum(beside, np.maximum(padded[6:-2], padded[7:-1]))  # 2 and 3 after
    ruled = (rules >= 0.25 * len(ends)) | ((cover >= 0.3) & (beside < 0.05))
    inks[:, :, ruled] = False
    hits = inks.sum(axis=(1, 2)) >= max(3, 0.3 * height)
    score = float(hits.sum()) / len(spans)
    if near:
        across = inks[hits].any(axis=1)
        if not across.size:
            return score, float(hi - lo)
        first = across.shape[1] - 1 - np.argmax(across[:, ::-1], axis=1) if board_at_hi \
            else np.argmax(across, axis=1)
        gaps = (across.shape[1] - 1 - first) if board_at_hi else first
        return score, float(np.median(gaps))
    if not spread:
        return score, 0.0
    # Ink in the cells' outer sixths, where numbers centred on their line leave little and
    # page text has as much as anywhere: how text-like the side's ink is. (Each cell is
    # taken whole, so that its outer parts are held to its numbers' contrast.)
    cut, span = min(cuts), min(b - a for a, b in spans)
    whole = _stacked_ink(region, np.array([a for a, _ in spans])[:, None] + np.arange(span),
                         pitch, faint)
    whole[:, :, ruled] = False
    if lines and axis == 1:
        whole[:, :, beyond] = False
    inner = float(whole[:, cut:span - cut].mean())
    outer = float(np.concatenate([whole[:, :cut], whole[:, span - cut:]], axis=1).mean())
    return score, outer / inner if inner > 0 else 0.0


def _stacked_ink(region: np.ndarray, rows: np.ndarray, pitch: int, faint: bool = False
                 ) -> np.ndarray:
    """For each row of `rows` (indices into `region`, one part per row): what departs
    from that part's local ground (`_local_ground`) by a stroke's contrast, less runs
    along the band longer than `pitch` (a grid line, the seam or edge of a band).
    A run is measured within the region only: a digit as tall as the cell that reaches
    the region's end (drawn up to the board's edge) is no longer than it is.
    (n, h, width)."""
    parts = region[rows].astype(np.float32)
    n, h, w = parts.shape
    diff = np.abs(parts - _local_ground(parts, pitch)[:, None, :])
    least = np.clip(ROUGH * np.median(diff.reshape(n, -1), axis=1), FAINT_STEP, MIN_STEP) \
        if faint else MIN_STEP
    step = np.maximum(least, 0.3 * diff.max(axis=(1, 2)))
    ink = (diff > step[:, None, None]).astype(np.uint8).reshape(n * h, w)
    if w > pitch:
        ink &= 1 - cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, pitch), np.uint8),
                                    borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return ink.reshape(n, h, w).astype(bool)


def _contrast(lum: np.ndarray, spans: tuple[tuple[int, int], ...], lo: int, hi: int,
              axis: int, board_at_hi: bool) -> float:
    """How far the ink beside the lines (as `_lined_up` takes them) departs from its ground:
    the median over the lines of each one's strongest departure."""
    if hi - lo < 3 or len(spans) < 2:
        return 0.0
    region = lum[:, lo:hi] if axis == 0 else lum[lo:hi, :].T
    cuts = [max(1, (b - a) // 6) for a, b in spans]
    height = min(b - a - 2 * c for (a, b), c in zip(spans, cuts, strict=True))
    if height < 3:
        return 0.0
    pitch = int(np.median([b - a for a, b in spans])) + 1
    rows = np.array([a + c for (a, _), c in zip(spans, cuts, strict=True)])[:, None] \
        + np.arange(height)
    parts = region[rows].astype(np.float32)
    diff = np.abs(parts - _local_ground(parts, pitch)[:, None, :])
    return float(np.median(diff.max(axis=(1, 2))))


def _local_ground(parts: np.ndarray, pitch: int) -> np.ndarray:
    """Each part's ground at each place across the lines: the median of the part's
    pixels within half a pitch of it. (n, width).

    A band narrower than the reach ends within a part, and its paper (fading into the
    page or not) and the page beyond both fill much of the part: one median for the
    whole part falls between the two, and paper, page and numbers alike depart from
    it. A running median keeps the step at the band's edge and follows a fade, while
    numbers, covering well under half of a pitch-wide window, stay off it.
    """
    n, _, w = parts.shape
    half = max(1, pitch // 2)
    levels = whole_levels(parts)  # a quarter of the memory to shuffle as bytes
    padded = np.pad(parts if levels is None else levels, ((0, 0), (0, 0), (half, half)),
                    mode="reflect")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1, axis=2)
    flat = windows.transpose(0, 2, 1, 3).reshape(n, w, -1)
    return np.median(flat, axis=2) if levels is None else byte_median(flat)
