"""Checks a claimed solution and words every violation the way the spec's checker does.

Positions are (row,column), counted from 1. Violations come in three groups,
each in reading order: givens overwritten, rooms breaking the Room Rule, then
pairs of cells breaking the Cross Rule (equal values v at distance ≤ v).

The work is bounded by the board, not by the values in it: pairs are found by
walking from each cell to the next equal value in its row and column, and at
most `MAX_PAIRS` are listed (a grid of one value can have a million), the rest
counted in one closing line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.games.ripple.model import EMPTY, Puzzle

MAX_PAIRS = 10_000
"""Cross-rule pairs listed at most (30,000 lines); a wrong grid of a real puzzle has fewer."""


def _position(cell: int, cols: int) -> str:
    r, c = divmod(cell, cols)
    return f"({r + 1},{c + 1})"


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


@dataclass(frozen=True)
class GivenChanged:
    cell: int
    expected: int
    found: int

    def lines(self, cols: int) -> list[str]:
        return [f"Expected {self.expected} in position {_position(self.cell, cols)}, "
                f"found {self.found}"]


@dataclass(frozen=True)
class RoomRule:
    cells: tuple[int, ...]
    missing: tuple[int, ...]
    duplicate: tuple[int, ...]
    out_of_range: tuple[int, ...]

    def lines(self, cols: int) -> list[str]:
        where = ", ".join(_position(cell, cols) for cell in self.cells)
        out = [f"Room at positions {where} violates Room Rule:"]
        if self.missing:
            out.append(f"Missing values: {_numbers(self.missing)}")
        if self.duplicate:
            out.append(f"Duplicate values: {_numbers(self.duplicate)}")
        if self.out_of_range:
            out.append(f"Values out of range: {_numbers(self.out_of_range)}")
        return out


@dataclass(frozen=True)
class CrossRule:
    first: int
    second: int
    value: int
    distance: int

    def lines(self, cols: int) -> list[str]:
        return [
            f"Cells at positions {_position(self.first, cols)} and "
            f"{_position(self.second, cols)} violate cross rule:",
            f"Value in both cells: {self.value}",
            f"Distance between cells: {self.distance}",
        ]


@dataclass(frozen=True)
class MorePairs:
    """The cross-rule pairs past `MAX_PAIRS`, counted but not listed."""

    count: int

    def lines(self, cols: int) -> list[str]:
        return [f"... and {self.count} more pairs of cells violate cross rule "
                f"(the first {MAX_PAIRS} are listed)"]


Violation = GivenChanged | RoomRule | CrossRule | MorePairs


def violations(puzzle: Puzzle, values: Sequence[int]) -> list[Violation]:
    """Every rule the complete grid `values` (reading order) breaks, in report order."""
    found: list[Violation] = [
        GivenChanged(cell, given, values[cell])
        for cell, given in enumerate(puzzle.givens)
        if given != EMPTY and values[cell] != given
    ]
    for cells in puzzle.room_cells:
        counts = Counter(values[cell] for cell in cells)
        size = len(cells)
        missing = tuple(v for v in range(1, size + 1) if v not in counts)
        duplicate = tuple(sorted(v for v, n in counts.items() if n > 1 and 1 <= v <= size))
        wild = tuple(sorted(v for v in counts if not 1 <= v <= size))
        if missing or duplicate or wild:
            found.append(RoomRule(cells, missing, duplicate, wild))
    cross, total = _cross_pairs(puzzle, values)
    more = [MorePairs(total - len(cross))] if total > len(cross) else []
    return found + cross + more


def _cross_pairs(puzzle: Puzzle, values: Sequence[int]) -> tuple[list[CrossRule], int]:
    """The first `MAX_PAIRS` cross-rule pairs in report order, and how many there are."""
    rows, cols = puzzle.rows, puzzle.cols
    lines = [range(r * cols, (r + 1) * cols) for r in range(rows)]
    lines += [range(c, rows * cols, cols) for c in range(cols)]
    # The next cell along the row [0] and down the column [1] with the same value.
    after = [[-1] * (rows * cols), [-1] * (rows * cols)]
    total = 0
    for number, line in enumerate(lines):
        nexts, seen = after[number >= rows], {}
        for cell in reversed(line):
            nexts[cell] = seen.get(values[cell], -1)
            seen[values[cell]] = cell
        total += _close_pairs([values[cell] for cell in line])
    listed: list[CrossRule] = []
    for cell, value in enumerate(values):
        for nexts, step in ((after[0], 1), (after[1], cols)):
            other = nexts[cell]
            while other >= 0 and (other - cell) // step <= value and len(listed) < MAX_PAIRS:
                listed.append(CrossRule(cell, other, value, (other - cell) // step))
                other = nexts[other]
        if len(listed) >= MAX_PAIRS:
            break
    return listed, total


def _close_pairs(line: Sequence[int]) -> int:
    """Pairs of equal values v at most v apart along one row or column."""
    where: dict[int, list[int]] = {}
    for place, value in enumerate(line):
        where.setdefault(value, []).append(place)
    count = 0
    for value, places in where.items():
        first = 0
        for j, place in enumerate(places):
            while first < j and place - places[first] > value:
                first += 1
            count += j - first
    return count


def report(puzzle: Puzzle, values: Sequence[int]) -> tuple[bool, str]:
    """Whether `values` is correct, and the checker's text: the violations or `Solution correct`."""
    found = violations(puzzle, values)
    if not found:
        return True, "Solution correct\n"
    return False, "".join(line + "\n" for v in found for line in v.lines(puzzle.cols))
