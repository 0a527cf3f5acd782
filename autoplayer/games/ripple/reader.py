"""Reading a Ripple Effect board from a screenshot: rooms, given digits, entered digits.

The lattice and rooms come from `board`. In each cell, ink is what departs
from the cell colour by half the cell's strongest departure; its pieces are
sorted out by size and place: the cursor's outline spans the cell, pencil
marks are small and sit in corners, a value's one or two digits are tall and
near the middle. Digits are read by the scanline state machines, with
templates as a second opinion when a set is given (`numbers.read_digit`).

Givens and entered values differ by look only (ink colour, or stroke weight):
the digits are split into two looks when they clearly differ, the heavier,
higher-contrast look being the givens'. Weight is told by stroke width between
glyphs of one digit only (digit shapes alone differ in stroke as much as weights
do). Later readings keep the first one's givens and re-read only the other cells.

Before anyone acts, a reading is checked: every value is 1..12 and no larger
than its room, no glyph is barely legible, no cell holds three digits.
Otherwise `UnreadableDigits` (an `InputError`) names the cell's pixel region.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.ripple.board import (
    Lattice,
    Rooms,
    departure,
    find_lattice,
    read_rooms,
)
from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.geometry import Rect, astuple
from autoplayer.vision import scanline
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.numbers import ClueNumber, DigitReading, read_digit
from autoplayer.vision.templates import TemplateSet

INK_SHARE = 0.5
"""Ink departs from the cell colour by at least this share of the cell's strongest departure."""
MIN_INK = 40
"""A cell whose strongest departure is below this (0..255) holds nothing."""
VALUE_HEIGHT = 0.26
"""A value's digits are at least this share of the pitch tall (pencil marks are smaller)."""
SPAN = 0.72
"""Ink spanning this share of a cell is an outline (the cursor), not a digit."""
MIN_CONFIDENCE = 0.08
"""A digit read with less confidence is refused rather than guessed (the solver checks the
rest: a misread given almost never leaves a puzzle with exactly one solution)."""
MAX_VALUE = 12
LOOK_COLOUR = 45.0
"""Two looks whose inks' chroma (largest minus smallest channel) differ this much are told
apart by colour."""
DIGIT_WEIGHT = 1.2
"""One digit drawn in two weights: its strokes differ by this factor at least (bold against
regular: 1.28 or more on the bundled page's three fonts at 32-56 px cells); drawn twice in
one weight, by a few per cent at most."""
SHAPE_SPREAD = 1.45
"""Digits of one weight differ in stroke among themselves by up to this factor (a serif 1 is
all stem, its 5 mostly hairline: up to 1.40 on the bundled page's fonts, more than one
digit's bold and regular differ), so stroke tells weight surely only between glyphs of one
digit; a digit drawn one way only is placed by the others' strokes only when it lies
further than this from a glyph of one weight and within it of every glyph of the other."""


@dataclass(frozen=True)
class CellValue:
    """A value read in a cell, and how its ink looks."""

    number: ClueNumber
    colour: tuple[float, float, float]
    """Mean colour of the ink's core."""
    stroke: float
    """Stroke width relative to the glyph height (weight)."""


@dataclass(frozen=True, eq=False)
class RippleReading:
    """A Ripple Effect board as the screen shows it, in frame pixels."""

    lattice: Lattice
    rooms: Rooms
    values: tuple[int, ...]
    """What every cell shows (EMPTY when nothing), givens included."""
    given: tuple[bool, ...]
    """Which cells hold givens (told by look on the first reading, kept after)."""
    cells: tuple[CellValue | None, ...]
    template_set: str | None = None
    """The calibrated digit templates the reading needed, if any."""

    @property
    def rows(self) -> int:
        return self.lattice.rows

    @property
    def cols(self) -> int:
        return self.lattice.cols

    @property
    def puzzle(self) -> Puzzle:
        """The rooms and the givens, as the solver takes them."""
        givens = tuple(v if g else EMPTY for v, g in zip(self.values, self.given, strict=True))
        return Puzzle.build([self.rooms.rooms[r * self.cols:(r + 1) * self.cols]
                             for r in range(self.rows)],
                            [givens[r * self.cols:(r + 1) * self.cols] for r in range(self.rows)])

    @property
    def entered(self) -> tuple[int, ...]:
        """Values the player entered (EMPTY elsewhere)."""
        return tuple(EMPTY if g else v for v, g in zip(self.values, self.given, strict=True))


class UnreadableDigits(InputError):
    """Ink shaped like a number sits in a cell but cannot be read surely (too little
    confidence, three glyphs, a value its room cannot hold): the picture is a Ripple board
    the bot will not play, unlike a picture with no board (plain `InputError`)."""


class NoUniqueSolution(InputError):
    """The board read has no solution or several: no input follows."""


def read_ripple(rgb: np.ndarray, templates: TemplateSet | None = None,
                previous: RippleReading | None = None,
                fallbacks: Iterable[TemplateSet] = (),
                accept: Callable[[RippleReading], object] | None = None) -> RippleReading:
    """The board the image shows; InputError naming the pixel region when it cannot be trusted.

    The digits are read by the state machines (with `templates` as a second
    opinion when given); when that reading does not check out, again with each
    of `fallbacks` in turn (the calibrated sets), and the first that checks out
    is taken. A fallback only settles the cells the first reading was unsure of:
    one that reads any surely read cell otherwise (a value read at least
    `LEARN_CONFIDENCE` surely that its room can hold) is refused, since a misread
    that turns a board of several solutions into one would make the bot play a
    guess. `accept` may check a reading further (the bot solves it: a misread
    given leaves no solution or several) by raising InputError. With
    `previous`, the board is where it was and its rooms and givens stand; only
    the other cells are read again.
    """
    rgb = np.ascontiguousarray(rgb[..., :3])
    if previous is None:
        lattice = find_lattice(rgb)
        rooms = read_rooms(rgb, lattice)
        skip: tuple[bool, ...] = (False,) * (lattice.rows * lattice.cols)
    else:
        lattice, rooms, skip = previous.lattice, previous.rooms, previous.given
    cells = _cells(rgb, lattice, skip, templates, previous)
    try:
        return _checked(_assemble(lattice, rooms, cells, templates, previous), accept)
    except InputError as err:
        first = err
    sizes = rooms_sizes(rooms)
    sure = [c is not None and c.number.confidence >= LEARN_CONFIDENCE
            and _problem(c, sizes[i]) is None for i, c in enumerate(cells)]
    if all(sure[i] or cells[i] is None for i in range(len(cells))):
        raise first  # nothing unsure for a fallback to settle
    for fallback in fallbacks:
        other = _cells(rgb, lattice, skip, fallback, previous)
        if any(s and _value(o) != _value(c) for s, c, o in zip(sure, cells, other, strict=True)):
            continue  # it contradicts the state machines where they were sure
        try:
            return _checked(_assemble(lattice, rooms, other, fallback, previous), accept)
        except InputError:
            continue
    raise first


def _value(cell: CellValue | None) -> int:
    return EMPTY if cell is None else cell.number.value


def _checked(reading: RippleReading, accept: Callable[[RippleReading], object] | None
             ) -> RippleReading:
    _validate(reading)
    if accept is not None:
        accept(reading)
    return reading


def _cells(rgb: np.ndarray, lattice: Lattice, skip: tuple[bool, ...],
           templates: TemplateSet | None, previous: RippleReading | None
           ) -> list[CellValue | None]:
    """Every cell's value (an earlier reading's where `skip`), second opinions given."""
    known = () if previous is None else previous.cells
    cells = _second_opinion(_read_cells(rgb, lattice, templates, skip), templates, known)
    if previous is not None:
        cells = [old if g else new for old, new, g in zip(previous.cells, cells, previous.given,
                                                          strict=True)]
    return cells


def _assemble(lattice: Lattice, rooms: Rooms, cells: list[CellValue | None],
              templates: TemplateSet | None, previous: RippleReading | None) -> RippleReading:
    given = _givens(cells, lattice) if previous is None else previous.given
    values = tuple(_value(c) for c in cells)
    return RippleReading(lattice, rooms, values, given, tuple(cells),
                         None if templates is None else templates.name)


def _read_cells(rgb: np.ndarray, lattice: Lattice, templates: TemplateSet | None,
                skip: tuple[bool, ...]) -> list[CellValue | None]:
    f = lattice.frame
    patch = rgb[f.y:f.bottom, f.x:f.right]
    dep = departure(patch, np.array(lattice.background))  # once for the whole board
    out: list[CellValue | None] = []
    for i in range(lattice.rows * lattice.cols):
        out.append(None if skip[i] else _read_cell(patch, dep, lattice, i, templates))
    return out


def _read_cell(frame_rgb: np.ndarray, frame_dep: np.ndarray, lattice: Lattice, index: int,
               templates: TemplateSet | None) -> CellValue | None:
    box = lattice.cell(index)
    x0, y0 = box.x - lattice.frame.x, box.y - lattice.frame.y
    patch = frame_rgb[y0:y0 + box.h, x0:x0 + box.w]
    dep = frame_dep[y0:y0 + box.h, x0:x0 + box.w]
    peak = int(dep.max()) if dep.size else 0
    if peak < MIN_INK:
        return None
    ink = (dep >= max(MIN_INK, INK_SHARE * peak)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    pitch = lattice.pitch
    parts = []
    for k in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[k])
        if w >= SPAN * box.w or h >= SPAN * box.h:
            continue  # the cursor's outline
        if h < VALUE_HEIGHT * pitch:
            continue  # a pencil mark, a speck
        parts.append((x, y, w, h, k))
    if not parts:
        return None
    parts.sort()
    glyphs: list[tuple[int, int, int, int, np.ndarray]] = []
    for x, y, w, h, k in parts:
        mask = labels[y:y + h, x:x + w] == k
        if glyphs and x < glyphs[-1][0] + glyphs[-1][2] - 1:
            glyphs[-1] = _merge(glyphs[-1], (x, y, w, h, mask))
        else:
            glyphs.append((x, y, w, h, mask))
    if len(glyphs) > 2:
        raise UnreadableDigits(f"the cell at row {index // lattice.cols + 1} column "
                         f"{index % lattice.cols + 1} holds {len(glyphs)} glyphs, not a number "
                         f"of 1 or 2 digits", region=astuple(box))
    digits = [read_digit(Glyph(Rect(box.x + x, box.y + y, w, h), mask), templates)
              for x, y, w, h, mask in glyphs]
    number = _number(digits)
    # The digits' own ink only (not the cursor's or a note's), its strongest part.
    mine = np.isin(labels, [k for *_, k in parts])
    strong = int(dep[mine].max())
    core = mine & (dep >= 0.9 * strong)
    colour = np.median(patch[core], axis=0)
    # Ink as a share of the way from the cell's own colour (a highlighted cell departs from
    # the board's) to the digits' strongest.
    base = float(np.median(dep))
    strokes = [_stroke(mask, (_around(dep, x, y, w, h) - base) / max(strong - base, 1.0))
               for x, y, w, h, mask in glyphs]
    height = max(h for _, _, _, h, _ in glyphs)
    return CellValue(number, (float(colour[0]), float(colour[1]), float(colour[2])),
                     float(np.mean(strokes)) / height)


ALLOWED = {1: (frozenset(range(1, 10)),), 2: (frozenset({1}), frozenset({0, 1, 2}))}
"""The digits a cell may show, by position: a value is 1..12, so a two-digit one is 10..12."""
RESTRICTED_SLACK = 1.0
"""A digit the state machines rank below an impossible one is taken only when its distance is
within this of the best (a serif 1 read as 7, say); further off, the glyph is refused."""


def _number(digits: list[DigitReading]) -> ClueNumber:
    """The value the digits spell, each the best reading its position allows."""
    chosen = [_allowed(d, allowed) for d, allowed in zip(digits, ALLOWED[len(digits)],
                                                         strict=True)]
    value = int("".join(str(d) for d, _ in chosen))
    return ClueNumber(value, min(c for _, c in chosen), tuple(digits), ())


def _allowed(reading: DigitReading, allowed: frozenset[int]) -> tuple[int, float]:
    if reading.digit in allowed:
        return reading.digit, reading.confidence
    dist = scanline.distances(reading.glyph.mask)
    best = min(allowed, key=lambda d: dist[d])
    if dist[best] - min(dist.values()) > RESTRICTED_SLACK:
        return best, 0.0
    rival = min((dist[d] for d in allowed if d != best), default=dist[best] + scanline.MARGIN)
    return best, scanline.confidence_over(dist[best], rival)


LEARN_CONFIDENCE = 0.3
"""Digits read at least this surely teach the board's own templates, and no fallback set may
read them otherwise (below it, a state machine's reading may still be a near miss: a 6 read
as 8 at 0.15)."""


def _second_opinion(cells: list[CellValue | None], templates: TemplateSet | None,
                    known: Sequence[CellValue | None] = ()) -> list[CellValue | None]:
    """Digits the state machines read unsurely, read again with templates cut from the
    digits on the same board they read surely (the live font at the live size), when no
    calibrated set was given (and from `known`, an earlier reading's). Both readers must
    then agree for a confident reading."""
    if templates is not None or all(c is None or c.number.confidence >= MIN_CONFIDENCE
                                    for c in cells):
        return cells
    learned = TemplateSet("this board")
    for c in (*known, *cells):
        if c is not None and c.number.confidence >= LEARN_CONFIDENCE:
            for d in c.number.digits:
                learned.add(d.digit, d.glyph.mask)
    out = []
    for c in cells:
        if c is not None and c.number.confidence < MIN_CONFIDENCE and all(
                _rivals(d, allowed) <= learned.digits
                for d, allowed in zip(c.number.digits, ALLOWED[len(c.number.digits)],
                                      strict=True)):
            digits = [read_digit(d.glyph, learned) for d in c.number.digits]
            c = replace(c, number=_number(digits))
        out.append(c)
    return out


def _rivals(reading: DigitReading, allowed: frozenset[int]) -> set[int]:
    """The digits the state machines cannot rule out for a glyph (within their margin of the
    best): templates learned on the board can only arbitrate when they hold every one, or
    a glyph of a digit not yet learned would be matched to the nearest learned one."""
    dist = scanline.distances(reading.glyph.mask)
    best = min(dist[d] for d in allowed)
    return {d for d in allowed if dist[d] - best < scanline.MARGIN}


def _merge(a: tuple[int, int, int, int, np.ndarray], b: tuple[int, int, int, int, np.ndarray]
           ) -> tuple[int, int, int, int, np.ndarray]:
    """Two pieces overlapping across are one glyph (a stroke broken by antialiasing)."""
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    mask = np.zeros((y1 - y0, x1 - x0), bool)
    for x, y, w, h, m in (a, b):
        mask[y - y0:y - y0 + h, x - x0:x - x0 + w] |= m
    return x0, y0, x1 - x0, y1 - y0, mask


def _around(dep: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
    """The departure over a glyph's box and one pixel around it (zero past the cell)."""
    out = np.zeros((h + 2, w + 2), np.float32)
    y0, x0 = max(y - 1, 0), max(x - 1, 0)
    part = dep[y0:y + h + 1, x0:x + w + 1]
    out[y0 - y + 1:y0 - y + 1 + part.shape[0], x0 - x + 1:x0 - x + 1 + part.shape[1]] = part
    return out


def _stroke(mask: np.ndarray, ink: np.ndarray) -> float:
    """A glyph's mean stroke width: twice its ink over its outline's length (a stroke of
    length L and width w has ink Lw and outline 2L).

    `ink` (the glyph's box and a pixel around it, 1 for full ink) counts the
    antialiased pixels on a stroke's edges by their share: at 12-20 px digits a
    pixel is a sizeable part of a stroke, and a threshold's mask makes one
    digit's bold and regular strokes differ by as little as a tenth.
    """
    padded = np.pad(mask, 1).astype(np.uint8)
    near = cv2.dilate(padded, np.ones((3, 3), np.uint8)).astype(bool)
    contours, _ = cv2.findContours(padded, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * float(np.clip(ink[near], 0.0, 1.0).sum()) / max(outline, 1.0)


def _givens(cells: list[CellValue | None], lattice: Lattice) -> tuple[bool, ...]:
    """Which values are givens: all of them unless the digits show two clearly different
    looks: the more colourful one (chroma, so antialiasing's greys do not count) is the
    entered values', else the lighter weight (`_heavy`). UnreadableDigits for a cell
    whose look cannot be told.
    """
    found = [i for i, c in enumerate(cells) if c is not None]
    given = [c is not None for c in cells]
    if len(found) < 2:
        return tuple(given)
    colours = np.array([cells[i].colour for i in found])  # type: ignore[union-attr]
    chroma = colours.max(axis=1) - colours.min(axis=1)
    cut = _gap_cut(chroma) if np.ptp(chroma) >= LOOK_COLOUR else None
    if cut is not None:
        for i, c in zip(found, chroma, strict=True):
            given[i] = bool(c < cut)
        return tuple(given)
    heavy = _heavy({i: cells[i] for i in found}, lattice)  # type: ignore[misc]
    for i, h in heavy.items():
        given[i] = h
    return tuple(given)


def _heavy(cells: dict[int, CellValue], lattice: Lattice) -> dict[int, bool]:
    """Which cells' values are drawn in the heavier of two weights (all, for one weight).

    A glyph's stroke width depends on its shape as much as on its weight (a
    serif 5 in bold is as thin as a serif 1 in regular), so two weights are
    seen only in one digit drawn both ways, and each such digit's glyphs are
    placed by its own two strokes. A digit drawn one way only is placed by
    `SHAPE_SPREAD`; one that fits both weights or neither is refused
    (UnreadableDigits), never guessed. Without a digit drawn both ways the
    board shows one weight: on a started board whose entered and given digits
    are all different, the entered ones are then taken for givens, which only
    binds the solver more (on a puzzle of one solution a right entry leaves
    that solution, a wrong one none).
    """
    logs = {i: float(np.log(c.stroke)) for i, c in cells.items()}
    by_value: dict[int, list[int]] = {}
    for i, c in cells.items():
        by_value.setdefault(c.number.value, []).append(i)
    heavy: dict[int, bool] = {}
    for members in by_value.values():
        strokes = np.array([logs[i] for i in members])
        cut = _gap_cut(strokes)
        if cut is not None and strokes[strokes >= cut].min() - strokes[strokes < cut].max() \
                >= np.log(DIGIT_WEIGHT):
            heavy.update({i: logs[i] >= cut for i in members})
    if not heavy:
        return {i: True for i in cells}
    light = [logs[i] for i, h in heavy.items() if not h]
    bold = [logs[i] for i, h in heavy.items() if h]
    spread = np.log(SHAPE_SPREAD)
    for i in sorted(set(cells) - set(heavy)):
        s = logs[i]
        not_light = s > min(light) + spread or s < max(light) - spread
        not_heavy = s > min(bold) + spread or s < max(bold) - spread
        if not_light == not_heavy:
            r, c = divmod(i, lattice.cols)
            raise UnreadableDigits(
                f"the {cells[i].number.value} at row {r + 1} column {c + 1} is drawn in one "
                "weight only, not surely a given's or an entered value's (other digits show "
                "both weights)", region=astuple(lattice.cell(i)))
        heavy[i] = not_light
    return heavy


def _gap_cut(values: np.ndarray) -> float | None:
    """The middle of the widest gap in the sorted values, if it is wider than either side's
    spread (two clear groups), else None."""
    v = np.sort(values)
    gaps = np.diff(v)
    if not len(gaps):
        return None
    k = int(np.argmax(gaps))
    widest = gaps[k]
    lo, hi = v[:k + 1], v[k + 1:]
    if widest <= max(np.ptp(lo), np.ptp(hi), 1e-6):
        return None
    return float((v[k] + v[k + 1]) / 2)


def _validate(reading: RippleReading) -> None:
    sizes = reading.puzzle.room_size
    for i, cell in enumerate(reading.cells):
        problem = None if cell is None else _problem(cell, sizes[i])
        if problem is not None:
            where = f"the cell at row {i // reading.cols + 1} column {i % reading.cols + 1}"
            raise UnreadableDigits(f"{where} {problem}", region=astuple(reading.lattice.cell(i)))


def _problem(cell: CellValue, room: int) -> str | None:
    """Why a cell's reading cannot be trusted (read unsurely, or a value its room of `room`
    cells cannot hold), or None: a surely read value that fits its room."""
    value = cell.number.value
    if cell.number.confidence < MIN_CONFIDENCE:
        return (f"holds a number read as {value} with too little confidence "
                f"({cell.number.confidence:.2f})")
    if not 1 <= value <= min(MAX_VALUE, room):
        return f"reads {value}, but its room has {room} cells"
    return None


def rooms_sizes(rooms: Rooms) -> tuple[int, ...]:
    """Each cell's room size."""
    count: dict[int, int] = {}
    for r in rooms.rooms:
        count[r] = count.get(r, 0) + 1
    return tuple(count[r] for r in rooms.rooms)


def with_values(reading: RippleReading, values: tuple[int, ...]) -> RippleReading:
    """The reading with other values (tests and overlays)."""
    return replace(reading, values=values)


def unique_solution(reading: RippleReading) -> tuple[int, ...]:
    """The one solution of the board read; InputError (the board's region) for none or several.

    A misread room or given almost never leaves exactly one solution, so this
    is the strongest check a reading gets before anyone acts on it.
    """
    from autoplayer.games.ripple.solver import solve

    where = astuple(reading.lattice.rect)
    size = f"{reading.cols}x{reading.rows}"
    result = solve(reading.puzzle, limit=2)
    if not result.solutions:
        raise NoUniqueSolution(f"the {size} board read (rooms and givens) has no solution; "
                         "a room or a digit was misread", region=where)
    if len(result.solutions) > 1:
        raise NoUniqueSolution(f"the {size} board read has several solutions; the bot plays "
                         "only a board whose solution is certain", region=where)
    return tuple(result.solutions[0])
