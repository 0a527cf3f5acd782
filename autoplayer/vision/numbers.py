"""Clue strips to numbers: digit readings combined, whole-strip segmentation scored.

Each digit glyph is read by the scanline state machines and, when a template
set is given, by template correlation; the two are checks on each other. A
number's confidence is its weakest digit's, and every number keeps its
next-best readings so a validator can try them when the puzzle does not add up.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from autoplayer.geometry import Rect
from autoplayer.vision import scanline
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.digit_classes import THIN_BELOW
from autoplayer.vision.glyphs import Blob, Glyph, split_touching
from autoplayer.vision.image import bitmap_key, trim
from autoplayer.vision.slant import board_slant, upright
from autoplayer.vision.spacing import Spacing, learn_spacing
from autoplayer.vision.strips import Strip
from autoplayer.vision.templates import TemplateSet
from autoplayer.vision.templates import confidence_over as templates_confidence

MAX_AMBIGUOUS_GAPS = 10
TEMPLATE_TRUST = 0.2
"""When the readers disagree, the templates win unless the state machines' confidence
exceeds theirs by more than this."""
TEMPLATE_TIE = 0.01
"""Template similarities this close name digits the templates cannot tell apart."""


@dataclass(frozen=True)
class DigitReading:
    glyph: Glyph
    ranked: tuple[tuple[int, float], ...]
    """Digits best first with a score in 0..1 (the first one's is the confidence)."""
    sources: str
    """Which readers agreed on the best digit: 'scanline', 'template' or 'both'."""

    @property
    def digit(self) -> int:
        return self.ranked[0][0]

    @property
    def confidence(self) -> float:
        return self.ranked[0][1]


@dataclass(frozen=True)
class ClueNumber:
    value: int
    confidence: float
    digits: tuple[DigitReading, ...]
    alternatives: tuple[int, ...]
    """Next-best values, most likely first (one digit swapped for its runner-up)."""

    @cached_property
    def box(self) -> Rect:  # asked for again and again where numbers are laid out
        if len(self.digits) == 1:
            return self.digits[0].glyph.box
        boxes = [d.glyph.box for d in self.digits]
        x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
        x1, y1 = max(b.right for b in boxes), max(b.bottom for b in boxes)
        return Rect(x0, y0, x1 - x0, y1 - y0)


def read_digit(glyph: Glyph, templates: TemplateSet | None = None, slant: float = 0.0,
               width: int = 0) -> DigitReading:
    """The glyph read by the state machines and, when given, the templates; `slant`: the
    board's italic slant (`autoplayer.vision.slant`), taken out before either reads;
    `width`: the board's digit width, for the state machines (`scanline.recognise`)."""
    mask = upright(glyph.mask, slant)
    machine = scanline.recognise(mask, width)
    if templates is None or not templates.digits:
        return DigitReading(glyph, _spread(machine), "scanline")
    similar = templates.scores(mask)
    by_machine = [d for d, _ in machine]
    # Digits the templates cannot tell apart (one bitmap seen as both): the machines'
    # order decides between them.
    top = max(similar.values())
    t_best = min((d for d, s in similar.items() if s >= top - TEMPLATE_TIE),
                 key=by_machine.index)
    matched = sorted(similar, key=lambda d: (d != t_best, -similar[d]))
    t_conf = templates_confidence(top, max((s for d, s in similar.items() if d != t_best),
                                           default=-1.0))
    m_best, m_conf = machine[0]
    if m_best == t_best:
        conf = 1 - (1 - m_conf) * (1 - t_conf)
        tied = [d for d in matched[1:] if similar[d] >= top - TEMPLATE_TIE]
        if tied:
            # This very bitmap was calibrated as another digit too: only the machines
            # tell them apart, so the reading is no surer than a disagreement.
            distances = scanline.distances(mask, width)
            conf = 0.5 * scanline.confidence_over(distances[t_best], distances[tied[0]])
        return DigitReading(glyph, _spread([(t_best, conf)] + [(d, 0.0) for d in matched[1:]]),
                            "both")
    # They disagree. Each reader's case is how sure it is of its digit against the other
    # reader's (not against its own runner-up). Trust the calibrated templates (the
    # game's own glyphs) unless the generic machines are clearly surer, but say so
    # through a low confidence, and keep the other opinion as the first alternative.
    distances = scanline.distances(mask, width)
    t_case = templates_confidence(top, similar.get(m_best, -1.0))
    m_case = scanline.confidence_over(distances[m_best], distances[t_best])
    if t_case + TEMPLATE_TRUST >= m_case:
        first, second, conf, src = t_best, m_best, max(0.0, t_case - m_case) * 0.5, "template"
    else:
        first, second, conf, src = m_best, t_best, max(0.0, m_case - t_case) * 0.5, "scanline"
    rest = [d for d in matched if d not in (first, second)]
    return DigitReading(glyph, _spread([(first, conf), (second, 0.0)] + [(d, 0.0) for d in rest]),
                        src)


def _spread(ranked: list[tuple[int, float]]) -> tuple[tuple[int, float], ...]:
    """Keep the best digit's confidence; give the runners-up decreasing small scores."""
    scores = _RUNNERS_UP if len(ranked) <= len(_RUNNERS_UP) else [
        1.0 / (10 * i) for i in range(1, len(ranked))]
    return (ranked[0], *zip([d for d, _ in ranked[1:]], scores, strict=False))


_RUNNERS_UP = tuple(1.0 / (10 * i) for i in range(1, 11))
"""`_spread`'s scores (a digit has nine runners-up), made once: it runs for every glyph."""


def make_number(digits: list[DigitReading]) -> ClueNumber:
    shown = [str(d.digit) for d in digits]
    value = int("".join(shown))
    conf = min(d.confidence for d in digits)
    alts: list[tuple[float, int]] = []
    for i, d in enumerate(digits):
        if len(d.ranked) < 2:
            continue
        before, after = "".join(shown[:i]), "".join(shown[i + 1:])
        doubt = 1.0 - d.confidence
        for alt, score in d.ranked[1:4]:
            v = int(before + str(alt) + after)
            if v != value:
                alts.append((-score - doubt, v))
    alts.sort()
    return ClueNumber(value, conf, tuple(digits), tuple(dict.fromkeys(v for _, v in alts)))


def read_lines(layout: ClueLayout, templates: TemplateSet | None = None,
               lum: np.ndarray | None = None, slant: float = 0.0, board_width: bool = False
               ) -> tuple[list[list[ClueNumber]], list[list[ClueNumber]]]:
    """Numbers of every row and column, in reading order; with the picture's luminance
    `lum`, each small glyph keeps its tone (`Glyph.tone`: only glyphs shorter than
    `THIN_BELOW` are compared by it); `slant`: an italic slant to take out of every glyph
    before it is read (`autoplayer.vision.slant`, `clue_slant`); `board_width`: the state
    machines judge each glyph against the board's digit width (`ClueLayout.digit_width`)
    rather than its own."""
    spacing = learn_spacing(layout)
    h, w = layout.grid.height, layout.grid.width
    width = round(layout.digit_width) if board_width and layout.digit_width else 0
    rows = [_read_strip(s, layout, templates, spacing, w, lum, slant, width)
            for s in layout.rows]
    columns = [_read_strip(s, layout, templates, spacing, h, lum, slant, width)
               for s in layout.columns]
    return rows, columns


def clue_slant(layout: ClueLayout) -> float:
    """The italic slant of the board's clue ink (0.0: upright; `board_slant`)."""
    return board_slant(b.mask for s in (*layout.rows, *layout.columns)
                       for g in s.groups for b in g)


def glyph_tone(lum: np.ndarray, box: Rect, ink: float, paper: float) -> np.ndarray:
    """The ink's strength over `box`: 0 at the paper's level, 1 at the ink's."""
    tone = (lum[box.y:box.bottom, box.x:box.right] - np.float32(paper)) \
        * np.float32(1.0 / (ink - paper))
    np.maximum(tone, 0.0, out=tone)
    return np.minimum(tone, 1.0, out=tone)


STRAY = 0.15
"""Ink rows at a glyph's top or bottom, this share of the band's digit height or fewer and
cut off from the rest by a blank row, are another number's: digits as tall as their clue
cells leave a foot or a bar of the number above or below in the glyph's box."""


def without_strays(glyph: Glyph, digit_height: float) -> Glyph:
    """The glyph without ink at its top or bottom that is not joined to the rest and lies
    within `STRAY` of the band's digit height from that edge, when what is left is as
    tall as the band's digits."""
    mask = glyph.mask
    h = mask.shape[0]
    most = STRAY * digit_height
    if h < 0.8 * digit_height + 1 or most < 1:
        return glyph
    key = (bitmap_key(mask), int(most), int(0.8 * digit_height))
    kept = _KEPT.get(key)
    if kept is None:
        if len(_KEPT) >= 4096:
            _KEPT.clear()
        kept = _KEPT[key] = _kept_part(mask, most, 0.8 * digit_height)
    if kept is None:
        return glyph
    part, dy, dx = kept
    box = glyph.box
    return Glyph(Rect(box.x + dx, box.y + dy, part.shape[1], part.shape[0]), part)


_KEPT: dict[tuple, tuple[np.ndarray, int, int] | None] = {}
"""`_kept_part` memoised by bitmap: a board repeats the same few."""


def _kept_part(mask: np.ndarray, most: float, least_height: float
               ) -> tuple[np.ndarray, int, int] | None:
    """`without_strays`'s cut of a bitmap, as (part, dy, dx); None to keep it whole."""
    h = mask.shape[0]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 2:
        return None
    keep = np.ones(n, dtype=bool)
    keep[0] = False
    for k in range(1, n):
        top, height = stats[k, cv2.CC_STAT_TOP], stats[k, cv2.CC_STAT_HEIGHT]
        if (top == 0 and height <= most) or (top + height == h and height <= most):
            keep[k] = False
    if keep[1:].all() or not keep.any():
        return None
    part, dy, dx = trim(keep[labels])
    return None if part.shape[0] < least_height else (part, dy, dx)


def _digits_of(blob: Blob, layout: ClueLayout, templates: TemplateSet | None,
               lum: np.ndarray | None = None, slant: float = 0.0, width: int = 0,
               stacked: bool = False) -> list[DigitReading]:
    glyphs = [without_strays(g, layout.digit_height)
              for g in split_touching(blob, layout.digit_height, layout.digit_width, stacked)]
    ink, paper = layout.ink_level, layout.paper_level
    if lum is not None and ink is not None and paper is not None and ink != paper:
        glyphs = [Glyph(g.box, g.mask, glyph_tone(lum, g.box, ink, paper))
                  if g.box.h < THIN_BELOW else g for g in glyphs]
    return [read_digit(g, templates, slant, width) for g in glyphs]


def _read_strip(strip: Strip, layout: ClueLayout, templates: TemplateSet | None,
                spacing: Spacing, length: int, lum: np.ndarray | None = None,
                slant: float = 0.0, width: int = 0) -> list[ClueNumber]:
    numbers: list[ClueNumber] = []
    for group in strip.groups:
        units = [_digits_of(b, layout, templates, lum, slant, width, strip.kind == "column")
                 for b in group]
        if strip.kind == "column":
            numbers.append(make_number([d for u in units for d in u]))
        else:
            gaps = [spacing.apart(a[-1].glyph.box, b[0].glyph.box)
                    for a, b in itertools.pairwise(units)]
            numbers.extend(split_numbers(units, gaps, spacing.inside, spacing.between,
                                         length))
    return numbers


def split_numbers(units: list[list[DigitReading]], gaps: list[float], lo: float, hi: float,
                  length: int) -> list[ClueNumber]:
    """The most plausible split of a row strip's ink into numbers, scored as a whole.

    A gap costs by how far it sits from the typical gap inside a number (`lo`)
    or between numbers (`hi`); a split whose numbers could not be a clue of this
    line (a number longer than the line, a leading zero, runs that do not fit)
    costs more than any gap. Gaps near either typical value are decided at
    once; only the ambiguous ones are enumerated.
    """
    span = max(hi - lo, 1e-6)
    max_digits = len(str(length))
    decided: list[bool | None] = []  # True: numbers split here
    for g in gaps:
        if g <= lo + 0.2 * span:
            decided.append(False)
        elif g >= hi - 0.2 * span:
            decided.append(True)
        else:
            decided.append(None)
    # A gap decided inside a number with more digits than the line's length has is open
    # after all: a space can be as narrow as the gaps inside numbers ("10 1" in a font
    # whose 1 sits at the right of its advance). (A number merely too large keeps its
    # gaps: a misread digit explains it too, and the validator tries its alternatives.)
    bounds = list(itertools.accumulate(len(u) for u in units))[:-1]  # digits before gap i
    start = 0
    plain = [d is not False for d in decided]
    first = _group(units, plain)
    for n in first:
        end = start + len(n.digits)
        if len(n.digits) > max_digits:
            for i, at in enumerate(bounds):
                if start < at < end and decided[i] is False:
                    decided[i] = None
        start = end
    open_ = [i for i, d in enumerate(decided) if d is None]
    if len(open_) > MAX_AMBIGUOUS_GAPS:  # too many to enumerate: nearest typical gap wins
        for i in open_:
            decided[i] = gaps[i] - lo > hi - gaps[i]
        open_ = []
    if not open_ and [bool(d) for d in decided] == plain:
        return first  # one split left, and grouped already
    best: tuple[float, list[ClueNumber]] | None = None
    for choice in itertools.product((False, True), repeat=len(open_)):
        splits = list(decided)
        for i, c in zip(open_, choice, strict=True):
            splits[i] = c
        cost = 0.0
        for i in open_:
            g = gaps[i]
            cost += max(0.0, hi - g) / span if splits[i] else max(0.0, g - lo) / span
        numbers = _group(units, splits)
        cost += 5.0 * sum(_impossible(n, length, max_digits) for n in numbers)
        if sum(n.value for n in numbers) + len(numbers) - 1 > length:
            cost += 5.0
        if best is None or cost < best[0]:
            best = (cost, numbers)
    return best[1] if best else []


def _impossible(number: ClueNumber, length: int, max_digits: int) -> bool:
    """Whether a number could not be one of a line's clue numbers as read."""
    return (len(number.digits) > max_digits or number.value > length or number.value == 0
            or (len(number.digits) > 1 and number.digits[0].digit == 0))


def _group(units: list[list[DigitReading]], splits: list[bool | None]) -> list[ClueNumber]:
    numbers: list[ClueNumber] = []
    current = list(units[0]) if units else []
    for unit, split in zip(units[1:], splits, strict=True):
        if split:
            numbers.append(make_number(current))
            current = list(unit)
        else:
            current += unit
    if current:
        numbers.append(make_number(current))
    return numbers
