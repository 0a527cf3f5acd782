"""Reading a sliding puzzle from a screenshot: the tile lattice, every tile's number, the gap.

No per-game pixel constants. The lattice is the vision package's grid finder
(tiles are flat near-square patches in rows and columns; the gap, drawn as
plain background in Tatham's Fifteen, is the one lattice position holding no
ink). Each tile's number is its ink — whatever departs from the tile's own
background towards the minority extreme — cut into digit glyphs and read by
the scanline state machines, plus templates learned from the first verified
reading of the same screen, each a check on the other.

A reading is verified before anyone acts on it: the numbers must be 1..N-1 (or 2..N),
each exactly once, with exactly one gap, and no glyph may be unreadable. A
board that fails is read again at other ink thresholds; a clash of one or two
tiles is settled when their next-best readings are exactly the missing numbers, or
when one way of giving the doubtful tiles the values nobody else shows fits their
glyphs clearly better than every other (`_settle`). Otherwise `InputError` names the
tiles' pixel region (a tile caught in the middle of its slide animation fails this
way too).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import permutations

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.fifteen.model import Board, check_size
from autoplayer.geometry import Rect
from autoplayer.vision import scanline
from autoplayer.vision.glyph_lattice import find_glyph_lattices
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import ascii_picture, dark_ink, luminance, trim
from autoplayer.vision.lattice import find_grid
from autoplayer.vision.numbers import ClueNumber, DigitReading, make_number, read_digit
from autoplayer.vision.slant import board_slant, upright
from autoplayer.vision.templates import TemplateSet

INK_SHARES = (0.5, 0.35, 0.65)
"""A pixel is ink when it departs from its tile's background by this share of the typical
tile's strongest departure (antialiasing halves stay out; the glyph's core stays in). A
board that does not validate is read again at the next share: a glyph's antialiased edge
that joins or breaks a stroke at one threshold (Sans Bold "6" at 80 px tiles reads as "8")
does not at another, and each attempt is validated in full."""
EMPTY_SHARE = 0.35
"""A cell whose strongest departure is below this share of the median tile's holds no number."""
SPECK = 0.5
"""Ink shorter than this share of the board's tallest glyph is a speck, not a digit."""
MIN_CONFIDENCE = 0.1
"""A digit read with less confidence than this is not trusted even on a board that adds up."""
TEMPLATE_SET = "fifteen-live"


@dataclass(frozen=True, eq=False)
class FifteenReading:
    """A sliding puzzle as the screen shows it, in frame pixels."""

    board: Board
    grid: Grid
    cells: tuple[Rect, ...]
    """Each cell's interior, row-major (the gap's included)."""
    numbers: tuple[ClueNumber | None, ...]
    """What was read in each cell (None: the gap)."""
    ink_share: float = INK_SHARES[0]
    """The ink threshold (see INK_SHARES) this reading validated at: later readings of the
    same screen start there, and its templates were cut there."""

    @property
    def rect(self) -> Rect:
        """The board: input never leaves it."""
        return self.grid.rect

    @property
    def gap_rect(self) -> Rect:
        return self.cells[self.board.gap]

    def centre(self, cell: int) -> tuple[int, int]:
        r = self.cells[cell]
        return r.x + r.w // 2, r.y + r.h // 2


def _region(r: Rect) -> tuple[int, int, int, int]:
    return (r.x, r.y, r.w, r.h)


def _strength(lum: np.ndarray, cell: Rect) -> tuple[np.ndarray, int, int]:
    """How far each pixel of the cell's interior departs from the cell's background."""
    m = max(1, min(cell.w, cell.h) // 16)
    x0, y0 = cell.x + m, cell.y + m
    patch = lum[y0:cell.bottom - m, x0:cell.right - m]
    if patch.size == 0:
        return np.zeros((0, 0), np.float32), x0, y0
    bg = float(np.median(patch))
    dark = dark_ink(patch)
    return ((bg - patch) if dark else (patch - bg)), x0, y0


def _glyphs(strength: np.ndarray, threshold: float, x0: int, y0: int) -> list[Glyph]:
    """The cell's ink, one glyph per connected component, left to right."""
    ink = (strength > threshold).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        mask = labels[y:y + h, x:x + w] == i
        out.append(Glyph(Rect(int(x0 + x), int(y0 + y), int(w), int(h)), mask))
    out.sort(key=lambda g: g.box.x)
    return out


def _merge_stacked(glyphs: list[Glyph]) -> list[Glyph]:
    """Pieces that overlap horizontally are one glyph (a digit broken by thin antialiasing)."""
    merged: list[Glyph] = []
    for g in glyphs:
        if merged and g.box.x < merged[-1].box.right - 1:
            a = merged[-1]
            x0, y0 = min(a.box.x, g.box.x), min(a.box.y, g.box.y)
            x1, y1 = max(a.box.right, g.box.right), max(a.box.bottom, g.box.bottom)
            mask = np.zeros((y1 - y0, x1 - x0), bool)
            for part in (a, g):
                px, py = part.box.x - x0, part.box.y - y0
                mask[py:py + part.box.h, px:px + part.box.w] |= part.mask
            merged[-1] = Glyph(Rect(x0, y0, x1 - x0, y1 - y0), mask)
        else:
            merged.append(g)
    return merged


def read_fifteen(image: np.ndarray, templates: TemplateSet | None = None,
                 ink_share: float | None = None, grid: Grid | None = None) -> FifteenReading:
    """The board the image shows; InputError (naming the pixel region) when it cannot be trusted.

    The board is a lattice of tiles (`find_grid`) or, when no tiling reads as a board,
    labels at a regular pitch on one flat panel (`find_glyph_lattices`). `grid`: where a
    previous reading found it (tried first; the board is looked for again when it fails).
    `ink_share`: the threshold to try first (a previous reading's, whose templates are given).
    """
    unfound: InputError | None = None
    first: InputError | None = None
    for found in _grids(image, grid):
        if isinstance(found, InputError):
            unfound = found
            continue
        try:
            return _read_grid(image, found, templates, ink_share)
        except InputError as err:
            first = first or err
    # A board found but not read says more than a search that found none.
    error = first or unfound
    assert error is not None
    raise error


def _grids(image: np.ndarray, known: Grid | None) -> Iterator[Grid | InputError]:
    """Where the board may be, most likely first (a failure to find one, as its error).
    Once a board is known, only a lattice of its size may stand for it (a flash or a
    slide caught half-way can leave a smaller lattice that reads as a puzzle)."""
    if known is not None:
        yield known
    try:
        grids = [find_grid(image, tiles=True)]
    except InputError as err:
        yield err
        grids = []
    grids += find_glyph_lattices(image)
    for grid in grids:
        if grid == known:
            continue
        if known is not None and (grid.width, grid.height) != (known.width, known.height):
            yield InputError(f"the board found is {grid.width}x{grid.height}, not the "
                             f"{known.width}x{known.height} board read before",
                             region=_region(grid.rect))
            continue
        yield grid


def _read_grid(image: np.ndarray, grid: Grid, templates: TemplateSet | None,
               ink_share: float | None) -> FifteenReading:
    try:
        check_size(grid.width, grid.height)
    except InputError as err:
        raise InputError(f"the tile lattice found is {grid.width}x{grid.height}: {err.message}",
                         region=_region(grid.rect)) from None
    lum = luminance(image)
    cells = tuple(grid.cell(r, c) for r in range(grid.height) for c in range(grid.width))
    strengths = [_strength(lum, cell) for cell in cells]
    peaks = np.array([float(s.max()) if s.size else 0.0 for s, _, _ in strengths])
    typical = float(np.median(peaks))
    if typical <= 0:
        raise InputError("no numbers found in the tiles", region=_region(grid.rect))
    empty = peaks < EMPTY_SHARE * typical
    gaps = np.flatnonzero(empty)
    if len(gaps) != 1:
        what = "no cell" if len(gaps) == 0 else f"{len(gaps)} cells"
        where = grid.rect if len(gaps) == 0 else _span(cells[i] for i in gaps)
        raise InputError(f"{what} of the {grid.width}x{grid.height} board look empty; "
                         "a sliding puzzle has exactly one gap", region=_region(where))
    ink = float(np.median(peaks[~empty]))
    first: InputError | None = None
    shares = INK_SHARES if ink_share is None else (ink_share, *(
        x for x in INK_SHARES if x != ink_share))
    for share in shares:
        try:
            numbers = _numbers(grid, cells, strengths, empty, share * ink, templates)
            board, numbers = _validate(grid, cells, numbers)
        except InputError as err:
            first = first or err
            continue
        return FifteenReading(board, grid, cells, tuple(numbers), share)
    assert first is not None
    raise first


def _numbers(grid: Grid, cells: tuple[Rect, ...],
             strengths: list[tuple[np.ndarray, int, int]], empty: np.ndarray, threshold: float,
             templates: TemplateSet | None) -> list[ClueNumber | None]:
    """Every cell's number at one ink threshold (None for the gap)."""
    per_cell = [
        [] if empty[i] else _merge_stacked(_glyphs(s, threshold, x0, y0))
        for i, (s, x0, y0) in enumerate(strengths)
    ]
    tallest = max((g.box.h for gl in per_cell for g in gl), default=0)
    per_cell = [[g for g in gl if g.box.h > SPECK * tallest] for gl in per_cell]
    # An italic board's glyphs are read upright (the readers know upright digits: an italic
    # serif 1 reads as a 2), its slant measured once over all its glyphs.
    slant = board_slant(g.mask for gl in per_cell for g in gl)
    if slant:
        per_cell = [[Glyph(g.box, trim(upright(g.mask, slant))[0]) for g in gl]
                    for gl in per_cell]
    numbers: list[ClueNumber | None] = []
    for i, glyphs in enumerate(per_cell):
        if empty[i]:
            numbers.append(None)
            continue
        if not glyphs or len(glyphs) > 2:
            raise InputError(f"tile at row {i // grid.width + 1} column {i % grid.width + 1} "
                             f"holds {len(glyphs)} glyphs, not a 1- or 2-digit number",
                             region=_region(cells[i]))
        numbers.append(make_number([read_digit(g, templates) for g in glyphs]))
    return numbers


def _span(rects: Iterable[Rect]) -> Rect:
    rs = list(rects)
    x0, y0 = min(r.x for r in rs), min(r.y for r in rs)
    x1, y1 = max(r.right for r in rs), max(r.bottom for r in rs)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _validate(grid: Grid, cells: tuple[Rect, ...], numbers: list[ClueNumber | None]
              ) -> tuple[Board, list[ClueNumber | None]]:
    """Each of 1..N-1 exactly once (or 2..N, when the tiles show N and no 1: a game whose
    gap stands first when solved); a glyph barely read fails even then, unless it is the
    only one and every other tile, read surely, leaves it the one number missing.

    When a few numbers clash (two tiles read alike, one out of range) and each
    doubtful one has a next-best reading that is exactly a number nobody shows,
    those readings complete the permutation and are taken: the other N-2 tiles
    vouch for them. Otherwise InputError names the tiles.
    """
    w, n = grid.width, grid.width * grid.height

    def where(i: int) -> str:
        return f"tile at row {i // w + 1} column {i % w + 1}"

    for lo in (1, 2):  # how many tiles have two digits tells the two apart
        numbers = _by_leading_shape(numbers, n, lo)
    shown = {num.value for num in numbers if num is not None}
    lo = 2 if n in shown and 1 not in shown else 1
    numbers = _complete_permutation(numbers, n, lo)
    numbers = _settle(numbers, n, lo)
    seen: dict[int, int] = {}
    for i, num in enumerate(numbers):
        if num is None:
            continue
        if not lo <= num.value < n + lo - 1:
            raise InputError(f"{where(i)} reads {num.value}, outside {lo}..{n + lo - 2}:\n"
                             + _pictures(num), region=_region(cells[i]))
        if num.value in seen:
            j = seen[num.value]
            raise InputError(f"{where(j)} and {where(i)} both read {num.value}; one is misread "
                             "(or a tile is still sliding)", region=_region(_span([cells[j],
                                                                                  cells[i]])))
        seen[num.value] = i
    weak = sorted((i for i, num in enumerate(numbers)
                   if num is not None and num.confidence < MIN_CONFIDENCE),
                  key=lambda i: numbers[i].confidence)  # type: ignore[union-attr]
    # One barely read tile on a board whose other tiles, each read surely, leave it the one
    # number nobody else shows is named by them; two, or a board short of tiles, are not.
    vouched = len(weak) == 1 and len(seen) == n - 1
    if weak and not vouched:
        weakest = weak[0]
        num = numbers[weakest]
        assert num is not None
        raise InputError(f"{where(weakest)} reads {num.value} with confidence "
                         f"{num.confidence:.2f} only:\n" + _pictures(num),
                         region=_region(cells[weakest]))
    board = Board(grid.width, grid.height, tuple(0 if v is None else v.value for v in numbers))
    return board, numbers


SAME_SHAPE = 0.6
"""Two glyphs whose trimmed masks overlap this much (intersection over union, at the best
shift) and whose sizes agree within SAME_SIZE are one digit drawn twice (measured on 56 px
serif italic: a 1 against another 1 at 0.69 and more, against any other digit 0.25 at most)."""
SAME_SIZE = 0.15


def same_shape(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two glyph masks are the same digit in the same font (one board's glyphs):
    sizes alike, and at the best shift of up to a pixel each way (a glyph drawn at another
    sub-pixel offset gains or loses a column) their ink overlaps by SAME_SHAPE."""
    return shape_overlap(a, b) >= SAME_SHAPE


def shape_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two glyph masks at their best shift of up to a pixel
    each way; 0 when their sizes differ by more than SAME_SIZE."""
    a, b = trim(a)[0], trim(b)[0]
    if a.size == 0 or b.size == 0:
        return 0.0
    (ha, wa), (hb, wb) = a.shape, b.shape
    if abs(ha - hb) > SAME_SIZE * max(ha, hb) + 1 or abs(wa - wb) > SAME_SIZE * max(wa, wb) + 1:
        return 0.0
    h, w = max(ha, hb) + 2, max(wa, wb) + 2
    big = np.zeros((h, w), bool)
    big[1:1 + ha, 1:1 + wa] = a
    best = 0.0
    for dy in range(3):
        for dx in range(3):
            if dy + hb > h or dx + wb > w:
                continue
            other = np.zeros((h, w), bool)
            other[dy:dy + hb, dx:dx + wb] = b
            union = int(np.logical_or(big, other).sum())
            best = max(best, int(np.logical_and(big, other).sum()) / union if union else 0.0)
    return best


def _by_leading_shape(numbers: list[ClueNumber | None], n: int, lo: int
                      ) -> list[ClueNumber | None]:
    """The numbers with the tens digit named by arithmetic, not by its look.

    The tiles show lo..lo+n-2, so how many two-digit tiles lead with each tens digit is
    known (a 4x4 board: six or seven tiles, all leading with 1). When the two-digit
    tiles' leading glyphs fall into shapes whose counts are those, each shape with a
    count no other tens digit has is that digit, wherever it stands (a serif italic "1"
    that reads like a "2" is still the glyph every two-digit tile starts with). Nothing
    changes unless every count fits. Away from the lead, where the counts vouch for
    nothing, a glyph takes the shape's digit only when it is more like that shape than
    like the other glyphs read as its own digit: a serif 3 can pass the shape test against
    a 2, but it is more like the board's other 3s ("13" must not become "12")."""
    hi = n + lo - 2
    counts: dict[int, int] = {}
    for v in range(max(lo, 10), hi + 1):
        counts[v // 10] = counts.get(v // 10, 0) + 1
    leading = [num.digits[0] for num in numbers if num is not None and len(num.digits) == 2]
    if not counts or len(leading) != sum(counts.values()):
        return numbers
    shapes: list[list[DigitReading]] = []
    for d in leading:
        home = next((s for s in shapes if same_shape(s[0].glyph.mask, d.glyph.mask)), None)
        if home is None:
            shapes.append([d])
        else:
            home.append(d)
    if sorted(len(s) for s in shapes) != sorted(counts.values()):
        return numbers
    named: dict[int, list[np.ndarray]] = {}
    for s in shapes:
        digits = [d for d, c in counts.items() if c == len(s)]
        if len(digits) == 1:
            named[digits[0]] = [d.glyph.mask for d in s]
    if not named:
        return numbers
    # The glyphs the counts do not name, to compare a glyph with.
    led = {id(d) for d in leading}
    everyone = [d for num in numbers if num is not None for d in num.digits if id(d) not in led]

    def more_like(d: DigitReading, k: int) -> bool:
        shape = float(np.median([shape_overlap(d.glyph.mask, m) for m in named[k]]))
        peers = [shape_overlap(d.glyph.mask, e.glyph.mask) for e in everyone
                 if e is not d and e.digit == d.digit]
        return not peers or shape > float(np.median(peers))
    out: list[ClueNumber | None] = []
    for num in numbers:
        if num is None:
            out.append(None)
            continue
        digits = []
        for place, d in enumerate(num.digits):
            match = [k for k, masks in named.items() if same_shape(masks[0], d.glyph.mask)]
            lead = place == 0 and len(num.digits) == 2
            if len(match) == 1 and match[0] != d.digit and (lead or more_like(d, match[0])):
                d = DigitReading(d.glyph, ((match[0], max(d.confidence, LEADING_CONFIDENCE)),
                                           *((x, sc) for x, sc in d.ranked if x != match[0])),
                                 "arithmetic")
            digits.append(d)
        out.append(make_number(digits))
    return out


LEADING_CONFIDENCE = 0.5
"""A digit named by `_by_leading_shape` is as sure as the count that named it."""

MAX_CORRECTIONS = 2


def _complete_permutation(numbers: list[ClueNumber | None], n: int, lo: int = 1
                          ) -> list[ClueNumber | None]:
    """The numbers with at most MAX_CORRECTIONS doubtful ones replaced by their alternatives,
    when that (and only that) makes lo..lo+n-2 each appear once; else unchanged."""
    hi = n + lo - 1
    values = [None if x is None else x.value for x in numbers]
    counts: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        if v is not None:
            counts.setdefault(v, []).append(i)
    missing = set(range(lo, hi)) - set(counts)
    doubtful = [i for v, idx in counts.items() if not lo <= v < hi for i in idx]
    for v, idx in counts.items():
        if lo <= v < hi and len(idx) > 1:
            # All but the most confident of the tiles sharing a value are in doubt.
            ranked = sorted(idx, key=lambda i: numbers[i].confidence)  # type: ignore[union-attr]
            doubtful += ranked[:-1]
    if not doubtful or len(doubtful) > MAX_CORRECTIONS or len(doubtful) != len(missing):
        return numbers
    out = list(numbers)
    for i in doubtful:
        num = numbers[i]
        assert num is not None
        alt = next((a for a in num.alternatives if a in missing), None)
        if alt is None or len(str(alt)) != len(num.digits):
            return numbers
        missing.discard(alt)
        out[i] = _relabelled(num, alt)
    return out


MAX_SETTLE = 4
"""Doubtful tiles `_settle` gives values to at most (4! ways to try)."""
SETTLE_MARGIN = scanline.MARGIN
"""How much better (summed scanline distance) the settled values must fit the doubtful
tiles' glyphs than any other way: a margin that makes one glyph's reading fully sure."""


def _settle(numbers: list[ClueNumber | None], n: int, lo: int) -> list[ClueNumber | None]:
    """The numbers with the doubtful tiles given the values the board lacks, as a person
    settles a misread ("two tiles say 2 and nobody shows 1: which one is the 1?").

    Doubtful: every tile of a value shown twice, every tile out of lo..hi, every tile read
    barely. Each way of giving them the values they hold between them plus the missing
    ones (each once) is scored by how far the glyphs are from those digits (the scanline
    machines' distances); a glyph may not take another digit than a glyph of its own
    shape. The best way is taken only when it beats every other by SETTLE_MARGIN; else
    the numbers are returned unchanged (and the board is refused, naming the clash)."""
    hi = n + lo - 1
    tiles = [(i, num) for i, num in enumerate(numbers) if num is not None]
    counts: dict[int, int] = {}
    for _, num in tiles:
        counts[num.value] = counts.get(num.value, 0) + 1
    doubtful = [i for i, num in tiles if counts[num.value] > 1 or not lo <= num.value < hi
                or num.confidence < MIN_CONFIDENCE]
    if not doubtful or len(doubtful) > MAX_SETTLE:
        return numbers
    sure = {num.value for i, num in tiles if i not in doubtful}
    values = [v for v in range(lo, hi) if v not in sure]
    if len(values) != len(doubtful) or len(tiles) != n - 1:
        return numbers
    sure_glyphs = [(d.glyph.mask, int(ch)) for i, num in tiles
                   if i not in doubtful and len(num.digits) == len(str(num.value))
                   for d, ch in zip(num.digits, str(num.value), strict=True)]

    def cost(i: int, value: int) -> float:
        num = numbers[i]
        assert num is not None
        text = str(value)
        if len(text) != len(num.digits):
            return float("inf")
        return sum(scanline.distances(d.glyph.mask)[int(ch)]
                   for d, ch in zip(num.digits, text, strict=True))

    def consistent(way: tuple[int, ...]) -> bool:
        named = list(sure_glyphs)
        for i, value in zip(doubtful, way, strict=True):
            num = numbers[i]
            assert num is not None
            if len(str(value)) != len(num.digits):
                return False
            for d, ch in zip(num.digits, str(value), strict=True):
                if any(digit != int(ch) and same_shape(mask, d.glyph.mask)
                       for mask, digit in named):
                    return False
                named.append((d.glyph.mask, int(ch)))
        return True

    scored = sorted((sum(cost(i, v) for i, v in zip(doubtful, way, strict=True)), way)
                    for way in permutations(values) if consistent(way))
    if not scored or (len(scored) > 1 and scored[1][0] - scored[0][0] < SETTLE_MARGIN):
        return numbers
    best, way = scored[0]
    gap = scored[1][0] - best if len(scored) > 1 else SETTLE_MARGIN
    out = list(numbers)
    for i, value in zip(doubtful, way, strict=True):
        num = numbers[i]
        assert num is not None
        settled = _relabelled(num, value)
        # As sure as the margin makes it (a full margin: as sure as a clear single read).
        out[i] = ClueNumber(settled.value, max(num.confidence, min(1.0, gap / SETTLE_MARGIN) / 2),
                            settled.digits, settled.alternatives)
    return out


def _relabelled(num: ClueNumber, value: int) -> ClueNumber:
    """The number read as `value` instead (its digits relabelled, so templates learn them
    right), with the confidence of the reading it replaces."""
    digits = tuple(
        DigitReading(d.glyph, ((int(ch), num.confidence),
                               *((x, s) for x, s in d.ranked if x != int(ch))), "corrected")
        for d, ch in zip(num.digits, str(value), strict=True)
    )
    return ClueNumber(value, num.confidence, digits, (num.value,))


def _pictures(num: ClueNumber) -> str:
    return "\n\n".join(ascii_picture(d.glyph.mask) for d in num.digits)


def learn_templates(reading: FifteenReading) -> TemplateSet:
    """Digit templates from a verified reading: the live font at the live size.

    Later readings of the same screen are read by these and by the scanline
    machines at once, so a misread needs both to fail the same way.
    """
    templates = TemplateSet(TEMPLATE_SET)
    for num in reading.numbers:
        if num is None:
            continue
        for d in num.digits:
            mask, _, _ = trim(d.glyph.mask)
            templates.add(d.digit, mask)
    return templates
