"""Settling unsure clue digits by the puzzle, as a person does ("that must be a 1, or the
row does not fit").

The board's glyphs are grouped by shape and named by the readers' sure readings
(`autoplayer.vision.digit_classes`); a group no reader is sure of is one unknown
digit, which its members' readers rank. Every combination of the unknowns' digits
is tried against the puzzle: each clue must fit its line, row and column totals
must agree, no shape may be settled as a digit a clearly different shape is
firmly read as (one font draws a digit one way), and the solver must find a
solution. A reading is taken only when exactly one combination passes; when
several pass, the picture does not say which is right and the reading is
refused, naming the glyphs. The one-shape-per-digit rule gives way only when
nothing else can: a combination that breaks it is taken when it is the only
one that solves even with every digit open to the doubted shapes (small
glyphs of one digit drawn at different pixel phases differ). When none passes,
the unknowns widen step by step (see `settle`), and otherwise the caller goes on
as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import Puzzle, min_length
from autoplayer.vision.digit_classes import GlyphGroup, different_shapes, group_glyphs
from autoplayer.vision.numbers import ClueNumber, DigitReading, make_number

if TYPE_CHECKING:
    from autoplayer.games.nonogram.reader import NonogramReading

MAX_UNKNOWNS = 8
"""At most this many groups are settled at once (the least sure first)."""
WIDEN = 3
"""When no combination of the suspect groups works, this many of the other named groups
are doubted as well, one more at a time (those in lines that cannot fit first)."""
MAX_COMBINATIONS = 20_000
"""Combinations tried (lines checked as they fill); more is refused as unsettled."""
MAX_SOLVES = 40
"""Combinations that fit every line and the totals, handed to the solver at most."""
FIRM = 0.5
"""A shape read at least this surely stands for its digit: no other shape is settled as it
(a shape read less surely may be a damaged copy of another)."""
LINES_PER_OPEN = 7
"""Lines the board needs per shape opened to every digit before a surely read (clashing)
shape is opened too: a digit is 3.3 bits, and a line's fit about one, twice over."""
SOLVE_BUDGET = 3.0
"""Seconds of solving for all of one search's combinations (a combination the solver has
not refuted in time counts as solving, as it does for a first reading)."""


@dataclass(frozen=True)
class Slot:
    """One digit of one clue number: where it is and which group its glyph is in."""

    kind: str
    line: int
    number: int
    place: int
    reading: DigitReading


class Ambiguous(InputError):
    """Several combinations of the unsure digits make a puzzle that solves."""


class Unsettled(InputError):
    """Too many combinations to try: the unsure digits were not settled."""


@dataclass(frozen=True)
class Settled:
    reading: NonogramReading
    changed: tuple[str, ...]
    """What differs from the first reading, one note per shape, e.g. 'row 3: digit 9 -> 4
    (and 12 more of that shape)'."""


def digit_slots(reading: NonogramReading) -> list[Slot]:
    """Every digit that counts: a clipped line's number cut by the picture's edge is in no
    clue (its line keeps the numbers after it as a known tail)."""
    cut = {(c.kind, c.index): int(c.cut) for c in reading.clipped}
    return [Slot(kind, line, k, p, d)
            for kind, lines in (("row", reading.row_numbers), ("column", reading.column_numbers))
            for line, numbers in enumerate(lines)
            for k, number in enumerate(numbers) if k >= cut.get((kind, line), 0)
            for p, d in enumerate(number.digits)]


def settle(reading: NonogramReading, solvable: Callable[[Puzzle, float], bool]
           ) -> Settled | None:
    """The one reading the puzzle allows among the unsure digits' alternatives (see the
    module docstring); None when no combination works. Raises `Ambiguous` when several
    do and `Unsettled` when there are too many to try. `solvable(puzzle, seconds)`:
    whether a puzzle whose clues fit has a solution (the solver; True when it finds
    no contradiction in that time)."""
    slots = digit_slots(reading)
    if not slots:
        return None
    tones = [s.reading.glyph.tone for s in slots]
    groups = group_glyphs([s.reading.glyph.mask for s in slots],
                          [s.reading.ranked for s in slots], tones)
    # The unknowns, in widening steps: the shapes no reader is sure of; then also shapes
    # read as a digit a clearly different shape is read as too (one font draws a digit
    # one way, so one of them is misread); each first with the readers' favourite
    # digits, then with any digit (a font unlike any the readers know ranks its digits
    # badly); last the least sure of the other shapes, one at a time. The first step
    # that some combination passes decides. A first reading that fits is so taken when
    # no other digit of its unsure shapes fits too; clashing shapes are doubted only
    # when it does not fit.
    apart = different_shapes([s.reading.glyph.mask for s in slots], groups, tones) \
        & _share_a_band(slots, groups)
    by_doubt = sorted(range(len(groups)), key=lambda k: (groups[k].sure, groups[k].confidence))
    unsure = [k for k in by_doubt if not groups[k].sure]
    clashing = [k for k in by_doubt if groups[k].sure and groups[k].clash]
    others = [k for k in by_doubt if groups[k].sure and not groups[k].clash]
    # Of the other shapes, those in lines whose clue cannot fit are doubted first (one of
    # that line's digits is misread, however surely), the most often seen there first.
    blame = _misfit_counts(reading, slots, groups)
    others.sort(key=lambda k: (-blame.get(k, 0), groups[k].confidence))
    steps: list[tuple[list[int], bool]] = [(unsure, False), (unsure + clashing, False),
                                           (unsure, True), (unsure + clashing, True)]
    steps += [(unsure + clashing + others[:extra], False) for extra in range(1, WIDEN + 1)]
    tried: list[tuple[list[int], bool]] = []
    # A combination that fits and solves but reads two clearly different shapes as one
    # digit is not taken; but it is another way the picture could be read (the firmly
    # read shape may be the misread one), so a later step's answer is not the only one.
    nearly: tuple[int, ...] | None = None
    suspects = set(unsure) | set(clashing)
    lines = len(reading.puzzle.rows) + len(reading.puzzle.columns)
    for chosen, every_digit in steps:
        # When there are more than can be tried at once, those in lines that cannot fit
        # come first (one of each such line's digits is misread).
        unknowns = sorted(chosen, key=lambda k: (-blame.get(k, 0), groups[k].sure,
                                                 groups[k].confidence))[:MAX_UNKNOWNS]
        # A clashing shape read surely is opened to every digit only where the board has
        # lines enough to tell: each line is about one check of a combination, and every
        # shape opened to any digit makes ten times as many (on a 5x5 board, a shape read
        # surely as 5 and two unsure ones, all open, let a board whose faint clues were
        # half lost be "settled" into a puzzle that fits and solves but is not the one
        # shown: AUTOPLAYER_SEED=754242525 of the looks test).
        opened = [k for k in unknowns if k in suspects]
        doubted = suspects if lines >= LINES_PER_OPEN * len(opened) else set(unsure)
        if (unknowns, every_digit) in tried or (every_digit and not unknowns):
            continue
        if tried and not every_digit and not unknowns:
            continue
        tried.append((unknowns, every_digit))
        domains = [_domain(groups[k], every_digit and k in doubted) for k in unknowns]
        found, near = _search(reading, slots, groups, unknowns, domains, solvable, apart,
                              explore_blocked=not every_digit)
        if found:
            if nearly is not None or near:
                raise _two_ways(slots, groups, found, nearly or near[0][0])
            return found
        if len(near) == 1 and (nearly is None or nearly == near[0][0]) \
                and _only_way(reading, slots, groups, unknowns, solvable, apart, *near[0]):
            # Only a combination that reads clearly different shapes as one digit solves,
            # even with every digit open to these shapes: the font draws that digit more
            # than one way (small glyphs at different pixel phases).
            return near[0][1]
        if near:
            nearly = nearly or near[0][0]
    return None


def _only_way(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup],
              unknowns: list[int], solvable: Callable[[Puzzle, float], bool],
              apart: np.ndarray, changed: tuple[int, ...], candidate: Settled) -> bool:
    """Whether `candidate` (which changes the groups `changed`) is still the one
    combination that solves when each of the unknowns may be any digit, shapes read alike
    or not. When that is too many combinations to try (many unknowns: a small font on a
    textured ground splits one digit into several shapes), the groups it changes may be
    any digit and the other unknowns their readers' favourites: a candidate the puzzle
    allows only by renaming shapes must still be the one way to rename them."""
    for opened in (set(unknowns), set(changed)):
        domains = [_domain(groups[k], k in opened) for k in unknowns]
        try:
            found, near = _search(reading, slots, groups, unknowns, domains, solvable, apart,
                                  explore_blocked=True)
        except Unsettled:  # too many to try: open only the renamed groups
            continue
        except InputError:  # several: not the only way
            return False
        return found is None and len(near) == 1 and near[0][1].changed == candidate.changed
    return False


def _share_a_band(slots: list[Slot], groups: list[GlyphGroup]) -> np.ndarray:
    """G×G: whether two groups have glyphs in one clue band (the rows' or the columns').
    A band's glyphs are cut from one ground at one threshold; the other band's may sit on
    another ground (a texture, a gradient, a different skin), where the same digit's
    strokes come out thicker or thinner: a shape compared across bands says little."""
    bands = np.array([[any(slots[i].kind == kind for i in g.members) for kind in ("row", "column")]
                      for g in groups])
    return (bands[:, None, :] & bands[None, :, :]).any(axis=2)


def _misfit_counts(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup]
                   ) -> dict[int, int]:
    """For each group, in how many lines whose clue as first read cannot fit it (a number
    below 1 beside others, or too long) its glyphs stand."""
    group_of = {i: k for k, g in enumerate(groups) for i in g.members}
    cut = {(c.kind, c.index) for c in reading.clipped}
    counts: dict[int, int] = {}
    for kind, clues, length in (("row", reading.puzzle.rows, reading.puzzle.width),
                                ("column", reading.puzzle.columns, reading.puzzle.height)):
        for line, clue in enumerate(clues):
            if clue is None or (kind, line) in cut:
                continue
            if all(n >= 1 for n in clue) and min_length(clue) <= length:
                continue
            for k in {group_of[i] for i, s in enumerate(slots)
                      if s.kind == kind and s.line == line}:
                counts[k] = counts.get(k, 0) + 1
    return counts


def _domain(group: GlyphGroup, every_digit: bool) -> tuple[int, ...]:
    if not every_digit:
        return group.digits
    return group.digits + tuple(d for d in range(10) if d not in group.digits)


def _search(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup],
            unknowns: list[int], domains: list[tuple[int, ...]],
            solvable: Callable[[Puzzle, float], bool], apart: np.ndarray, *,
            explore_blocked: bool = False
            ) -> tuple[Settled | None, list[tuple[tuple[int, ...], Settled]]]:
    """The one combination of the unknowns' digits that passes (None: none), and up to two
    combinations that pass but for reading two clearly different shapes as one digit
    (only looked for with `explore_blocked`), each as the groups it changes and the
    reading it makes."""
    group_of = {}
    for k, g in enumerate(groups):
        for i in g.members:
            group_of[i] = k
    # Each line as its numbers, each number as its slots.
    by_number: dict[tuple[str, int], dict[int, list[int]]] = {}
    for i, s in enumerate(slots):
        by_number.setdefault((s.kind, s.line), {}).setdefault(s.number, []).append(i)
    lines = {key: [numbers[k] for k in sorted(numbers)] for key, numbers in by_number.items()}
    unknown_lines: dict[int, set[tuple[str, int]]] = {k: set() for k in unknowns}
    for key, numbers in lines.items():
        for i in (i for n in numbers for i in n):
            if group_of[i] in unknown_lines:
                unknown_lines[group_of[i]].add(key)
    # Unknowns in an order that completes lines early (a complete line is checked).
    order = sorted(range(len(unknowns)), key=lambda d: len(unknown_lines[unknowns[d]]))
    unknowns = [unknowns[d] for d in order]
    domains = [domains[d] for d in order]
    # A line is checked once the last of its unknowns has a digit.
    done_at: list[list[tuple[str, int]]] = [[] for _ in unknowns]
    for key in lines:
        depth = max((d for d, k in enumerate(unknowns) if key in unknown_lines[k]), default=-1)
        if depth >= 0:
            done_at[depth].append(key)
    clipped = {(c.kind, c.index): c.hidden for c in reading.clipped}
    width, height = reading.puzzle.width, reading.puzzle.height
    value = [g.digits[0] for g in groups]

    def clue(key: tuple[str, int]) -> tuple[int, ...] | None:
        """The line's clue with today's digits; None when no clue could be this."""
        numbers = []
        for n in lines[key]:
            digits = [value[group_of[i]] for i in n]
            if len(digits) > 1 and digits[0] == 0:
                return None
            number = 0
            for d in digits:
                number = 10 * number + d
            numbers.append(number)
        if numbers == [0]:
            return ()
        return tuple(numbers) if all(numbers) else None

    line_unknowns = {key: tuple(k for k in unknowns if key in unknown_lines[k]) for key in lines}
    known: dict[tuple, bool] = {}

    def fits(key: tuple[str, int]) -> bool:
        """Whether the line's clue with today's digits fits it (remembered by its digits)."""
        memo = (key, *(value[k] for k in line_unknowns[key]))
        hit = known.get(memo)
        if hit is None:
            hit = known[memo] = _fits(key)
        return hit

    def _fits(key: tuple[str, int]) -> bool:
        c = clue(key)
        if c is None:
            return False
        if key in clipped:  # a visible tail: it must fit with room for what is cut
            c = (1,) * clipped[key] + c
        return min_length(c) <= (width if key[0] == "row" else height)

    # A line some of whose unknowns are still open is checked with each open digit at its
    # least: if even that does not fit, no choice of the rest will.
    done_by = {key: d for d, keys in enumerate(done_at) for key in keys}
    open_at: list[list[tuple[str, int]]] = [
        [key for key in unknown_lines[k] if done_by[key] > d and key not in clipped]
        for d, k in enumerate(unknowns)]
    least = {k: min(domains[d]) for d, k in enumerate(unknowns)}
    depth_of = {k: d for d, k in enumerate(unknowns)}
    places = {key: [[(group_of[i], 10 ** (len(n) - 1 - p)) for p, i in enumerate(n)]
                    for n in numbers] for key, numbers in lines.items()}
    bounds: dict[tuple, bool] = {}

    def could_fit(key: tuple[str, int], depth: int) -> bool:
        memo = (key, depth, *(value[k] for k in line_unknowns[key] if depth_of[k] <= depth))
        hit = bounds.get(memo)
        if hit is None:
            total = 0
            for n in places[key]:
                total += sum((value[g] if depth_of.get(g, -1) <= depth else least[g]) * w
                             for g, w in n)
            numbers = len(places[key])
            if numbers > 1:
                total = max(total, numbers) + numbers - 1
            hit = bounds[memo] = total <= (width if key[0] == "row" else height)
        return hit

    fixed = [key for key in lines
             if not any(key in unknown_lines[k] for k in unknowns)]
    if not all(fits(key) for key in fixed):
        return None, []
    tried = 0
    solved: list[tuple[int, ...]] = []
    solves = 0

    # A shape cannot be settled as a digit that a clearly different shape is firmly read
    # as (nor as one that a different shape is settled as).
    firm = np.array([g.confidence >= FIRM or k in depth_of for k, g in enumerate(groups)])
    blocks = apart & firm[None, :]
    # Groups whose digit is known when the unknown at each depth is chosen.
    fixed_groups = [j for j in range(len(groups)) if j not in depth_of]
    settled_at = [fixed_groups + unknowns[:d] for d in range(len(unknowns))]

    def one_shape_per_digit() -> bool:
        """No shape is read as another digit than it was if a clearly different shape is
        read as that digit too: one font draws a digit one way. (Shapes the readers named
        alike stand as read: a digit drawn twice a little differently.)"""
        for k in unknowns:
            if value[k] != groups[k].digits[0]:
                for j in range(len(groups)):
                    if j != k and value[j] == value[k] and blocks[k, j]:
                        return False
        return True

    # Rows' total minus columns' is linear in the digits (each counts by its place in its
    # number): a partial combination whose rest cannot bring it to zero goes no further.
    weight = [0] * len(groups)
    for key, numbers in lines.items():
        sign = 1 if key[0] == "row" else -1
        for n in numbers:
            for place, i in enumerate(n):
                weight[group_of[i]] += sign * 10 ** (len(n) - 1 - place)
    offset = sum(weight[k] * value[k] for k in range(len(groups)) if k not in depth_of)
    low, high = [0] * (len(unknowns) + 1), [0] * (len(unknowns) + 1)
    for d in range(len(unknowns) - 1, -1, -1):
        terms = [weight[unknowns[d]] * v for v in domains[d]]
        low[d], high[d] = low[d + 1] + min(terms), high[d + 1] + max(terms)
    deadline = time.monotonic() + SOLVE_BUDGET

    near: list[tuple[int, ...]] = []
    near_values: list[tuple[int, ...]] = []

    def solves_now() -> bool:
        """Whether today's digits make a puzzle that solves (within the search's budget)."""
        nonlocal solves
        solves += 1
        left = deadline - time.monotonic()
        if solves > MAX_SOLVES or left <= 0:
            raise _too_many(slots, groups, unknowns)
        return solvable(_with(reading, slots, groups, value).puzzle, left)

    def walk(depth: int, partial: int, blocked: bool) -> None:
        nonlocal tried
        if len(solved) > 1:
            return
        # At the last depth this is the totals check itself: rows' total equals columns'.
        if not clipped and not partial + low[depth] <= 0 <= partial + high[depth]:
            return
        if depth == len(unknowns):
            if blocked or not one_shape_per_digit():
                if explore_blocked and len(near) < 2 and solves_now():
                    near.append(tuple(k for k in unknowns if value[k] != groups[k].digits[0]))
                    near_values.append(tuple(value[k] for k in unknowns))
                return
            if solves_now():
                solved.append(tuple(value[k] for k in unknowns))
            return
        k = unknowns[depth]
        for digit in domains[depth]:
            tried += 1
            if tried > MAX_COMBINATIONS:
                raise _too_many(slots, groups, unknowns)
            value[k] = digit
            clash = digit != groups[k].digits[0] and any(
                value[j] == digit and blocks[k, j] for j in settled_at[depth])
            if clash and not explore_blocked:
                continue  # a clearly different shape already stands for this digit
            if all(fits(key) for key in done_at[depth]) \
                    and all(could_fit(key, depth) for key in open_at[depth]):
                walk(depth + 1, partial + weight[k] * digit, blocked or clash)
            if len(solved) > 1:
                break
        value[k] = groups[k].digits[0]

    walk(0, offset, False)
    nears = [(changed, _settled(reading, slots, groups, unknowns, values))
             for changed, values in zip(near, near_values, strict=True)]
    if not solved:
        return None, nears
    if len(solved) > 1:
        raise _ambiguous(reading, slots, groups, unknowns, solved)
    found = _settled(reading, slots, groups, unknowns, solved[0])
    if nears:
        raise _two_ways(slots, groups, found, nears[0][0])
    return found, []


def _settled(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup],
             unknowns: list[int], digits: tuple[int, ...]) -> Settled:
    """The reading with the unknowns read as `digits`, and one note per changed shape:
    where its first changed glyph is, and how many more there are."""
    value = [g.digits[0] for g in groups]
    for k, digit in zip(unknowns, digits, strict=True):
        value[k] = digit
    changed = []
    for k, g in enumerate(groups):
        moved = [slots[i] for i in g.members if slots[i].reading.digit != value[k]]
        if moved:
            first = min(moved, key=lambda s: (s.kind != "row", s.line, s.number, s.place))
            more = f" (and {len(moved) - 1} more of that shape)" if len(moved) > 1 else ""
            changed.append(f"{first.kind} {first.line + 1}: digit {first.reading.digit} -> "
                           f"{value[k]}{more}")
    changed.sort(key=lambda c: (not c.startswith("row"), int(c.split()[1].rstrip(":"))))
    return Settled(_with(reading, slots, groups, value), tuple(changed))


def _with(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup],
          value: list[int]) -> NonogramReading:
    """The reading with each glyph read as its group's digit in `value`."""
    from autoplayer.games.nonogram.validation import puzzle_of

    digit = {}
    for k, g in enumerate(groups):
        for i in g.members:
            digit[i] = value[k]
    new: dict[tuple[str, int, int], list[DigitReading]] = {}
    for i, s in enumerate(slots):
        d = s.reading
        if digit[i] != d.digit:
            rest = tuple((x, c) for x, c in d.ranked if x != digit[i])
            d = DigitReading(d.glyph, ((digit[i], 0.0), *rest), "puzzle")
        new.setdefault((s.kind, s.line, s.number), []).append(d)

    def numbers(kind: str, lines: tuple[tuple[ClueNumber, ...], ...]
                ) -> tuple[tuple[ClueNumber, ...], ...]:
        out = []
        for line, old in enumerate(lines):
            out.append(tuple(
                n if all(a is b for a, b in zip(new.get((kind, line, k), n.digits), n.digits,
                                                strict=True))
                else make_number(new[(kind, line, k)]) for k, n in enumerate(old)))
        return tuple(out)

    rows = numbers("row", reading.row_numbers)
    columns = numbers("column", reading.column_numbers)
    puzzle = puzzle_of([list(r) for r in rows], [list(c) for c in columns], reading.clipped)
    return replace(reading, puzzle=puzzle, row_numbers=rows, column_numbers=columns)


def _where(slot: Slot) -> str:
    return f"{slot.kind} {slot.line + 1}"


def _region(slots: list[Slot], group: GlyphGroup) -> tuple[int, int, int, int]:
    box = slots[group.members[0]].reading.glyph.box
    return (box.x, box.y, box.w, box.h)


def _ambiguous(reading: NonogramReading, slots: list[Slot], groups: list[GlyphGroup],
               unknowns: list[int], solved: list[tuple[int, ...]]) -> Ambiguous:
    differ = [(k, a, b) for k, a, b in zip(unknowns, *solved[:2], strict=True) if a != b]
    parts = [f"the {len(groups[k].members)} glyph(s) first at "
             f"{_where(slots[groups[k].members[0]])} "
             f"could be {a} or {b}" for k, a, b in differ]
    return Ambiguous("cannot read the clues: unsure digits fit the puzzle two ways: "
                     + "; ".join(parts), region=_region(slots, groups[differ[0][0]]))


def _two_ways(slots: list[Slot], groups: list[GlyphGroup], found: Settled,
              other: tuple[int, ...]) -> Ambiguous:
    first = slots[groups[other[0]].members[0]] if other else None
    where = f" (or a shape first at {_where(first)} is misread)" if first else ""
    return Ambiguous("cannot read the clues: unsure digits fit the puzzle two ways: as "
                     f"{'; '.join(found.changed) or 'read'}{where}",
                     region=_region(slots, groups[other[0]]) if other else None)


def _too_many(slots: list[Slot], groups: list[GlyphGroup], unknowns: list[int]) -> Unsettled:
    places = ", ".join(_where(slots[groups[k].members[0]]) for k in unknowns[:4])
    return Unsettled(f"cannot read the clues: {len(unknowns)} unsure digit shapes (first at "
                     f"{places}) fit the lines in too many ways to settle",
                     region=_region(slots, groups[unknowns[0]]))
