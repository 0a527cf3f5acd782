"""Checks a claimed solution and words every violation the way the spec's checker does.

Positions are (row,column), counted from 1. Violations come in three groups,
each in reading order: givens overwritten, rooms breaking the Room Rule, then
pairs of cells breaking the Cross Rule (equal values v at distance ≤ v).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.games.ripple.model import EMPTY, Puzzle


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


Violation = GivenChanged | RoomRule | CrossRule


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
    cross: list[CrossRule] = []
    rows, cols = puzzle.rows, puzzle.cols
    for cell, value in enumerate(values):
        r, c = divmod(cell, cols)
        for d in range(1, value + 1):
            if c + d < cols and values[cell + d] == value:
                cross.append(CrossRule(cell, cell + d, value, d))
            if r + d < rows and values[cell + d * cols] == value:
                cross.append(CrossRule(cell, cell + d * cols, value, d))
    cross.sort(key=lambda v: (v.first, v.second))
    return found + cross


def report(puzzle: Puzzle, values: Sequence[int]) -> tuple[bool, str]:
    """Whether `values` is correct, and the checker's text: the violations or `Solution correct`."""
    found = violations(puzzle, values)
    if not found:
        return True, "Solution correct\n"
    return False, "".join(line + "\n" for v in found for line in v.lines(puzzle.cols))
