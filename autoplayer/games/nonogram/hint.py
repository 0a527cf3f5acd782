"""The next logical step on a partly solved nonogram, worded so a person can follow it.

`next_hint(puzzle, grid)` is pure: clues and the cells known so far in, a `Hint` out.
Steps come simplest first: one line's own logic (which block must cover which cells
wherever it goes, which cells no block can reach) before a probe (assume one cell, let
line logic run, meet a contradiction). Among lines, the one that decides the most cells
is taken, so a person is told the biggest easy step.

Positions in a `Hint` are 0-based; the words it carries (`reasons`, `headline`) count
from 1, as the puzzle's clues are read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle, clue_text
from autoplayer.games.nonogram.solver.line import block_starts, masks_of, solve_masks

Grid = list[list[int]]

STEP = "step"
SOLVED = "solved"
CONTRADICTION = "contradiction"
STALLED = "stalled"

LINE = "line"
PROBE = "probe"

MAX_PROBE_CHAIN = 8
"""A probe's chain shown line by line up to this many steps; longer ones are cut short."""

_SYMBOL = {FILLED: "#", EMPTY: "x", UNKNOWN: "?"}


@dataclass(frozen=True)
class Deduction:
    """One line's logic applied: the cells it set along the line (0-based positions)."""

    kind: str
    index: int
    filled: tuple[int, ...]
    emptied: tuple[int, ...]


@dataclass(frozen=True)
class Probe:
    """A cell assumed, the line steps that followed, and the line left with no placement."""

    row: int
    column: int
    assumed: int
    """FILLED or EMPTY: the value that led to the contradiction (the cell gets the other)."""
    chain: tuple[Deduction, ...]
    broken: tuple[str, int]
    """(kind, index) of the line that then has no placement of its clue."""


@dataclass(frozen=True)
class Hint:
    status: str
    """STEP, SOLVED, CONTRADICTION (the known cells break a clue) or STALLED (no line and
    no single-cell probe decides anything: the puzzle needs a guess or has several
    solutions)."""
    method: str | None = None
    """LINE or PROBE for a step; for a contradiction, LINE when one line alone shows it."""
    kind: str | None = None
    """'row' or 'column': the line the step (or the contradiction) is on."""
    index: int | None = None
    clue: Clue | None = None
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()
    filled: tuple[int, ...] = ()
    """Positions along the line that become filled."""
    emptied: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()
    probe: Probe | None = field(default=None)

    @property
    def cells(self) -> list[tuple[int, int, int]]:
        """(row, column, value) of every cell the step decides."""
        out = []
        for value, spots in ((FILLED, self.filled), (EMPTY, self.emptied)):
            for p in spots:
                out.append((self.index, p, value) if self.kind == "row" else (p, self.index, value))
        return out

    @property
    def headline(self) -> str:
        if self.status == SOLVED:
            return "solved: every cell is known and every clue is met"
        if self.status == STALLED:
            return ("stalled: no line's logic and no single-cell probe decides a cell; "
                    "the puzzle needs a guess or has more than one solution")
        where = f"{self.kind} {self.index + 1}, clue {clue_text(self.clue or ())}"
        if self.status == CONTRADICTION:
            return f"contradiction: {where}: no placement fits the known cells"
        other = "column" if self.kind == "row" else "row"
        parts = []
        if self.filled:
            parts.append(f"fill {spans(self.filled, other)}")
        if self.emptied:
            parts.append(f"empty {spans(self.emptied, other)}")
        return f"{where}: {', '.join(parts)}"


def next_hint(puzzle: Puzzle, grid: Sequence[Sequence[int]] | None = None) -> Hint:
    """The simplest next step from the known cells (`grid`: H rows of -1/0/1; None: blank)."""
    h, w = puzzle.height, puzzle.width
    cells: Grid = [[int(v) for v in row] for row in grid] if grid is not None \
        else [[UNKNOWN] * w for _ in range(h)]
    best: tuple[int, Hint] | None = None
    for kind, index, clue, line in _lines(puzzle, cells):
        if clue is None:
            continue
        filled, empty = masks_of(line)
        solved = solve_masks(clue, len(line), filled, empty)
        if solved is None:
            return _contradiction(kind, index, clue, line)
        new_f, new_e = solved[0] & ~filled, solved[1] & ~empty
        gain = (new_f | new_e).bit_count()
        if gain and (best is None or gain > best[0]):
            best = gain, _line_step(kind, index, clue, line, new_f, new_e)
    if best is not None:
        return best[1]
    if all(v != UNKNOWN for row in cells for v in row):
        return Hint(SOLVED)
    return _probe_step(puzzle, cells)


def _lines(puzzle: Puzzle, cells: Grid):
    for r, clue in enumerate(puzzle.rows):
        yield "row", r, clue, cells[r]
    for c, clue in enumerate(puzzle.columns):
        yield "column", c, clue, [row[c] for row in cells]


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def spans(positions: Sequence[int], noun: str) -> str:
    """0-based positions as 1-based runs: 'columns 4-6 and 9', 'row 2'."""
    runs: list[list[int]] = []
    for p in sorted(positions):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    words = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in runs]
    plural = len(positions) > 1
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"{noun}{'s' if plural else ''} {text}"


def line_text(cells: Sequence[int]) -> str:
    """A line as `#` filled, `x` empty, `?` unknown, one character a cell."""
    return "".join(_SYMBOL[int(v)] for v in cells)


def _ordinal(j: int, clue: Clue) -> str:
    """'the 7', or 'the 2nd 1' when the clue holds that number more than once."""
    n = clue[j]
    if clue.count(n) == 1:
        return f"the {n}"
    k = clue[:j].count(n) + 1
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(k if k < 20 else k % 10, "th")
    return f"the {k}{suffix} {n}"


def _line_step(kind: str, index: int, clue: Clue, line: list[int], new_f: int,
               new_e: int) -> Hint:
    n = len(line)
    other = "column" if kind == "row" else "row"
    filled, empty = masks_of(line)
    after = list(line)
    for p in _bits(new_f):
        after[p] = FILLED
    for p in _bits(new_e):
        after[p] = EMPTY
    reasons = []
    given = " given the known cells" if filled | empty else ""
    if not clue:
        reasons.append("the clue is 0: no cell of this line is filled")
    else:
        starts = block_starts(clue, n, filled, empty) or []
        left = new_f
        for j, mask in enumerate(starts):
            first, last = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
            cover = ((1 << (first + clue[j])) - 1) >> last << last  # cells [last, first+len)
            mine = left & cover
            if not mine:
                continue
            left &= ~mine
            where = f"(it has one place only{given})" if first == last else \
                f"wherever it goes (it can start at {other}s {_start_words(mask)}{given})"
            reasons.append(f"{_ordinal(j, clue)} must cover {spans(_bits(mine), other)} {where}")
        if left:
            reasons.append(f"every placement of {clue_text(clue)} that fits the known cells "
                           f"fills {spans(_bits(left), other)}, whichever block covers it")
        rest = new_e
        if rest and filled.bit_count() == sum(clue):
            reasons.append(f"the filled cells already make {clue_text(clue)}, so "
                           f"{spans(_bits(rest), other)} cannot be filled")
            rest = 0
        for a, b in _runs(filled):
            beside = rest & (((1 << (a - 1)) if a > 0 else 0) | (1 << (b + 1)))
            lengths = {clue[j] for j, mask in enumerate(starts)
                       if any(s <= a and s + clue[j] - 1 >= b for s in _bits(mask))}
            if beside and lengths == {b - a + 1}:
                reasons.append(f"the filled {spans(range(a, b + 1), other)} can only be a "
                               f"whole {b - a + 1}, so {spans(_bits(beside), other)} beside it "
                               f"{'are' if beside.bit_count() > 1 else 'is'} empty")
                rest &= ~beside
        if rest:
            reasons.append(f"no block can reach {spans(_bits(rest), other)}{given}")
    return Hint(STEP, LINE, kind, index, clue, tuple(line), tuple(after), _bits(new_f),
                _bits(new_e), tuple(reasons))


def _runs(mask: int) -> list[tuple[int, int]]:
    """The runs of set bits as (first, last) positions."""
    out: list[tuple[int, int]] = []
    for p in _bits(mask):
        if out and p == out[-1][1] + 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def _start_words(mask: int) -> str:
    """A block's possible start cells, 1-based: '1..4', or '1..2 or 6..7' when split."""
    runs: list[list[int]] = []
    for p in _bits(mask):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    words = [f"{a + 1}" if a == b else f"{a + 1}..{b + 1}" for a, b in runs]
    return " or ".join(words)


def _contradiction(kind: str, index: int, clue: Clue, line: list[int]) -> Hint:
    return Hint(CONTRADICTION, LINE, kind, index, clue, tuple(line), tuple(line), reasons=(
        f"the known cells {line_text(line)} leave no place for {clue_text(clue)}",))


def _propagate(puzzle: Puzzle, cells: Grid, start: Sequence[tuple[str, int]]
               ) -> tuple[list[Deduction], tuple[str, int] | None]:
    """Line logic from the lines in `start` to a fixpoint, on `cells` (changed in place).

    Returns the deductions in order and the line found with no placement (None if none).
    """
    queue = deque(start)
    queued = set(start)
    steps: list[Deduction] = []
    while queue:
        kind, i = queue.popleft()
        queued.discard((kind, i))
        clue = (puzzle.rows if kind == "row" else puzzle.columns)[i]
        if clue is None:
            continue
        line = cells[i] if kind == "row" else [row[i] for row in cells]
        filled, empty = masks_of(line)
        solved = solve_masks(clue, len(line), filled, empty)
        if solved is None:
            return steps, (kind, i)
        new_f, new_e = _bits(solved[0] & ~filled), _bits(solved[1] & ~empty)
        if not (new_f or new_e):
            continue
        steps.append(Deduction(kind, i, new_f, new_e))
        cross = "column" if kind == "row" else "row"
        for value, spots in ((FILLED, new_f), (EMPTY, new_e)):
            for p in spots:
                if kind == "row":
                    cells[i][p] = value
                else:
                    cells[p][i] = value
                if (cross, p) not in queued:
                    queue.append((cross, p))
                    queued.add((cross, p))
    return steps, None


def _relevant(steps: list[Deduction], broken: tuple[str, int]) -> tuple[Deduction, ...]:
    """The steps the contradiction rests on: those that set a cell of the broken line, and
    what those rested on in turn (a step rests on every earlier step that set a cell of
    its line)."""
    need = {broken}
    keep = []
    for k in range(len(steps) - 1, -1, -1):
        step = steps[k]
        cross = "column" if step.kind == "row" else "row"
        touched = {(cross, p) for p in step.filled + step.emptied}
        if touched & need:
            keep.append(step)
            need.add((step.kind, step.index))
    return tuple(reversed(keep))


def _probe_step(puzzle: Puzzle, cells: Grid) -> Hint:
    """Each unknown cell, each value: the probe whose contradiction has the shortest chain."""
    best: Probe | None = None
    for r, row in enumerate(cells):
        for c, v in enumerate(row):
            if v != UNKNOWN:
                continue
            for value in (FILLED, EMPTY):
                trial = [list(line) for line in cells]
                trial[r][c] = value
                steps, broken = _propagate(puzzle, trial, [("row", r), ("column", c)])
                if broken is None:
                    continue
                chain = _relevant(steps, broken)
                if best is None or len(chain) < len(best.chain):
                    best = Probe(r, c, value, chain, broken)
                    if len(chain) <= 1:
                        return _probe_hint(puzzle, cells, best)
    if best is None:
        return Hint(STALLED)
    return _probe_hint(puzzle, cells, best)


def _probe_hint(puzzle: Puzzle, cells: Grid, probe: Probe) -> Hint:
    r, c = probe.row, probe.column
    result = EMPTY if probe.assumed == FILLED else FILLED
    trial = [list(line) for line in cells]
    other_value = [list(line) for line in cells]
    other_value[r][c] = result
    _, broken_too = _propagate(puzzle, other_value, [("row", r), ("column", c)])
    if broken_too is not None:  # both values fail: the known cells contradict the clues
        kind, i = broken_too
        clue = (puzzle.rows if kind == "row" else puzzle.columns)[i]
        line = trial[i] if kind == "row" else [row[i] for row in trial]
        return Hint(CONTRADICTION, PROBE, kind, i, clue, tuple(line), tuple(line),
                    reasons=(f"row {r + 1} column {c + 1} can be neither filled nor empty: "
                             "either value leaves some line with no placement of its clue",),
                    probe=probe)
    assumed = "filled" if probe.assumed == FILLED else "empty"
    reasons = [f"suppose row {r + 1} column {c + 1} were {assumed}"]
    for step in probe.chain[:MAX_PROBE_CHAIN]:
        other = "column" if step.kind == "row" else "row"
        clue = (puzzle.rows if step.kind == "row" else puzzle.columns)[step.index]
        got = []
        if step.filled:
            got.append(f"fills {spans(step.filled, other)}")
        if step.emptied:
            got.append(f"empties {spans(step.emptied, other)}")
        reasons.append(f"then {step.kind} {step.index + 1} ({clue_text(clue or ())}) "
                       + " and ".join(got))
    if len(probe.chain) > MAX_PROBE_CHAIN:
        reasons.append(f"... and {len(probe.chain) - MAX_PROBE_CHAIN} more line steps")
    kind, i = probe.broken
    clue = (puzzle.rows if kind == "row" else puzzle.columns)[i]
    reasons.append(f"then {kind} {i + 1} has no place for {clue_text(clue or ())}")
    reasons.append(f"so row {r + 1} column {c + 1} is "
                   f"{'empty' if result == EMPTY else 'filled'}")
    line = cells[r]
    after = list(line)
    after[c] = result
    return Hint(STEP, PROBE, "row", r, puzzle.rows[r], tuple(line), tuple(after),
                (c,) if result == FILLED else (), (c,) if result == EMPTY else (),
                tuple(reasons), probe)


def apply(grid: Sequence[Sequence[int]], hint: Hint) -> Grid:
    """A copy of `grid` with the hint's cells set."""
    out = [[int(v) for v in row] for row in grid]
    for r, c, value in hint.cells:
        out[r][c] = value
    return out


def as_dict(hint: Hint) -> dict:
    """The hint as JSON-ready data; the keys are documented in docs/hint.md."""
    line = None
    if hint.kind is not None:
        line = {"kind": hint.kind, "index": hint.index + 1,
                "clue": list(hint.clue) if hint.clue is not None else None}
    probe = None
    if hint.probe is not None:
        p = hint.probe
        probe = {"row": p.row + 1, "column": p.column + 1,
                 "assumed": "filled" if p.assumed == FILLED else "empty",
                 "chain": [{"kind": d.kind, "index": d.index + 1,
                            "filled": [x + 1 for x in d.filled],
                            "emptied": [x + 1 for x in d.emptied]} for d in p.chain],
                 "broken": {"kind": p.broken[0], "index": p.broken[1] + 1}}
    return {
        "status": hint.status,
        "method": hint.method,
        "line": line,
        "filled": [p + 1 for p in hint.filled],
        "emptied": [p + 1 for p in hint.emptied],
        "cells": [{"row": r + 1, "column": c + 1,
                   "value": "filled" if v == FILLED else "empty"} for r, c, v in hint.cells],
        "before": line_text(hint.before) if hint.before else None,
        "after": line_text(hint.after) if hint.after else None,
        "summary": hint.headline,
        "reason": list(hint.reasons),
        "probe": probe,
    }


def describe(hint: Hint) -> str:
    """The hint as a few lines of plain text: headline, reasons, the line before and after."""
    out = [hint.headline]
    out += [f"  {reason}" for reason in hint.reasons]
    if hint.before:
        out.append(f"  before: {line_text(hint.before)}")
        if hint.status == STEP:
            out.append(f"  after:  {line_text(hint.after)}")
            marks = "".join("^" if a != b else " " for a, b in zip(hint.before, hint.after,
                                                                     strict=True))
            out.append(f"          {marks}".rstrip())
    return "\n".join(out)
