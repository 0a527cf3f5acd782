"""Checking a nonogram reading before anyone acts on it, and correcting what it can.

Every clue must fit its line, row and column totals must agree, clipped
lines' visible tails must fit, and the solver must find a solution. When the
reading fails, the least confident numbers are tried with their next-best
readings; a fix is taken only when it is the one change of its size that
works. Otherwise the error names the line and shows the glyph.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from autoplayer.errors import InputError
from autoplayer.games.nonogram.clipped import ClippedLine
from autoplayer.games.nonogram.model import Puzzle, min_length
from autoplayer.games.nonogram.settle import digit_slots, settle
from autoplayer.vision.digit_classes import group_glyphs
from autoplayer.vision.image import ascii_picture
from autoplayer.vision.numbers import ClueNumber

if TYPE_CHECKING:
    from autoplayer.games.nonogram.reader import NonogramReading


RETRY_NUMBERS = 8
"""How many of the least confident numbers the validator tries alternatives for."""
SOLVE_SECONDS = 3.0


def puzzle_of(rows: list[list[ClueNumber]], columns: list[list[ClueNumber]],
              clipped: Iterable[ClippedLine] = ()) -> Puzzle:
    """The clues read; a clipped line's is None (unknown).

    A lone 0 is how many games draw an empty line's clue (others leave it
    blank): both are the empty clue. A 0 beside other numbers is left as read,
    for the validator to refuse or correct.
    """
    unknown = {(c.kind, c.index) for c in clipped}

    def clue(kind: str, i: int, line: list[ClueNumber]) -> tuple[int, ...] | None:
        if (kind, i) in unknown:
            return None
        values = tuple(n.value for n in line)
        return () if values == (0,) else values

    return Puzzle(tuple(clue("row", i, r) for i, r in enumerate(rows)),  # type: ignore[misc]
                  tuple(clue("column", j, c) for j, c in enumerate(columns)))  # type: ignore[misc]


def problems(puzzle: Puzzle) -> list[tuple[str, int, str]]:
    """What makes the clues impossible, cheapest checks first: (kind, line, message).

    Unknown (None) clues are skipped, and then the totals cannot be compared."""
    out = []
    for kind, clues, length in (("row", puzzle.rows, puzzle.width),
                                ("column", puzzle.columns, puzzle.height)):
        for i, clue in enumerate(clues):
            if clue is None:
                continue
            if any(n < 1 for n in clue):
                out.append((kind, i, "has a number below 1"))
            elif min_length(clue) > length:
                out.append((kind, i, f"needs {min_length(clue)} cells but has {length}"))
    if all(c is not None for c in (*puzzle.rows, *puzzle.columns)):
        rt, ct = sum(map(sum, puzzle.rows)), sum(map(sum, puzzle.columns))
        if rt != ct:
            out.append(("totals", -1, f"row clues fill {rt} cells but column clues fill {ct}"))
    return out


def tail_problems(reading: NonogramReading) -> list[tuple[str, int, str]]:
    """Clipped lines whose visible numbers cannot be the end of a clue of their line."""
    out = []
    for line in reading.clipped:
        tail = reading.tail(line)
        length = reading.puzzle.width if line.kind == "row" else reading.puzzle.height
        needed = min_length((1,) * line.hidden + tail)
        if any(n < 1 for n in tail):
            out.append((line.kind, line.index, "has a number below 1"))
        elif needed > length:
            out.append((line.kind, line.index, f"needs {needed} cells but has {length}"))
    return out


def _solvable(puzzle: Puzzle, seconds: float = SOLVE_SECONDS
              ) -> tuple[bool, tuple[str, int] | None]:
    from autoplayer.games.nonogram.solver import Verdict, solve

    result = solve(puzzle, max_solutions=1, timeout=min(seconds, SOLVE_SECONDS))
    if result.verdict is Verdict.CONTRADICTION:
        return False, result.contradiction
    return True, None


def validate_reading(reading: NonogramReading, *, correct: bool = True) -> NonogramReading:
    """The reading, possibly with unsure digits settled by the puzzle and low-confidence
    numbers replaced (unless not `correct`), once it checks out."""
    if not correct:
        first_problem = _check(reading)
        if first_problem is None:
            return reading
        raise _give_up(reading, first_problem)
    settled = settle(reading, lambda puzzle, seconds: _solvable(puzzle, seconds)[0])
    if settled is not None:
        return replace(settled.reading, corrections=settled.changed)
    first_problem = _check(reading)
    if first_problem is None:
        return reading  # as read, though not as the board's own shapes name its glyphs
    candidates = sorted(reading.numbers(), key=lambda t: t[2].confidence)[:RETRY_NUMBERS]
    rows = [list(r) for r in reading.row_numbers]
    columns = [list(c) for c in reading.column_numbers]
    # One substitution first, then pairs among the least confident numbers. A fix is
    # taken only when it is the one change of its size that makes the clues consistent:
    # when two different changes both work, the picture does not say which is right.
    vouched, twinned = _vouched_glyphs(reading)
    options = [(c, alt) for c in candidates for alt in c[2].alternatives[:3]
               if not _changes_vouched(c[2], alt, vouched)]
    for attempts in ([(o,) for o in options], list(itertools.combinations(options[:12], 2))):
        fixes = []
        for attempt in attempts:
            fixed = _substitute(reading, rows, columns, attempt)
            if fixed is not None and _check(fixed) is None:
                fixes.append((attempt, fixed))
                if len(fixes) > 1:
                    break
        if len(fixes) == 1:
            attempt, fixed = fixes[0]
            # Nor is a glyph read unlike its twins, named surely or not: were their shape
            # misread, every copy would be (the puzzle would settle them as one).
            if any(_changes_vouched(number, alt, twinned) for (_, _, number), alt in attempt):
                break
            return fixed
        if fixes:
            break
    raise _give_up(reading, first_problem)


def _vouched_glyphs(reading: NonogramReading) -> tuple[set[int], set[int]]:
    """The glyphs (by id) whose reading the board's own shapes vouch for: members of a
    shape group a reader named surely, seen more than once. One font draws a digit one
    way, so one such glyph is not another digit while its twins stand as read. Then
    every glyph whose shape is seen more than once, named surely or not."""
    slots = digit_slots(reading)
    groups = group_glyphs([s.reading.glyph.mask for s in slots],
                          [s.reading.ranked for s in slots],
                          [s.reading.glyph.tone for s in slots])
    twinned = [g for g in groups if len(g.members) > 1]
    return ({id(slots[i].reading) for g in twinned if g.sure for i in g.members},
            {id(slots[i].reading) for g in twinned for i in g.members})


def _changes_vouched(number: ClueNumber, alt: int, vouched: set[int]) -> bool:
    """Whether reading `number` as `alt` reads a vouched glyph as another digit than its
    own reading (or as part of a number of another length)."""
    old, new = str(number.value), str(alt)
    if len(old) != len(new) or len(number.digits) != len(old):
        return any(id(d) in vouched for d in number.digits)
    return any(a != b and b != str(d.digit) and id(d) in vouched
               for a, b, d in zip(old, new, number.digits, strict=True))


def _substitute(reading: NonogramReading, rows: list[list[ClueNumber]],
                columns: list[list[ClueNumber]], attempt) -> NonogramReading | None:
    """The reading with some numbers replaced by alternatives (None if two hit one number)."""
    keys = [(k, i, id(n)) for (k, i, n), _ in attempt]
    if len(set(keys)) < len(keys):
        return None
    new_rows = [list(r) for r in rows]
    new_cols = [list(c) for c in columns]
    notes = []
    for (kind, line, number), alt in attempt:
        target = new_rows[line] if kind == "row" else new_cols[line]
        k = next(j for j, n in enumerate(target) if n is number)
        target[k] = ClueNumber(alt, 0.0, number.digits, ())
        notes.append(f"{kind} {line + 1}: {number.value} -> {alt}")
    if problems(puzzle_of(new_rows, new_cols, reading.clipped)):
        return None
    return replace(reading, puzzle=puzzle_of(new_rows, new_cols, reading.clipped),
                   row_numbers=tuple(tuple(r) for r in new_rows),
                   column_numbers=tuple(tuple(c) for c in new_cols), corrections=tuple(notes))


def _check(reading: NonogramReading) -> tuple[str, int, str] | None:
    found = problems(reading.puzzle) + tail_problems(reading)
    if found:
        return found[0]
    ok, bad = _solvable(reading.puzzle)
    if ok:
        return None
    if bad is None:
        return ("totals", -1, "the clues have no solution")
    kind, index = bad
    kind = "row" if str(kind).lower().startswith("r") else "column"
    return (kind, index, "contradicts the other clues (no solution)")


def _give_up(reading: NonogramReading, problem: tuple[str, int, str]) -> InputError:
    kind, line, message = problem
    if kind == "totals":
        suspects = sorted(reading.numbers(), key=lambda t: t[2].confidence)
        kind, line, number = suspects[0] if suspects else ("row", 0, None)
        where = f"{message}; least sure of {kind} {line + 1}"
    else:
        numbers = (reading.row_numbers if kind == "row" else reading.column_numbers)[line]
        number = min(numbers, key=lambda n: n.confidence) if numbers else None
        clue = " ".join(str(n.value) for n in numbers) or "(empty)"
        where = f"{kind} {line + 1} read as {clue} {message}"
    if number is None:
        box = reading.board
        return InputError(f"cannot read the clues: {where}", region=(box.x, box.y, box.w, box.h))
    box = number.box
    glyph = number.digits[0].glyph if len(number.digits) == 1 else min(
        number.digits, key=lambda d: d.confidence).glyph
    picture = ascii_picture(glyph.mask).replace("\n", " / ")
    return InputError(
        f"cannot read the clues: {where}; the number read as {number.value} "
        f"(confidence {number.confidence:.2f}) looks like: {picture}",
        region=(box.x, box.y, box.w, box.h))
