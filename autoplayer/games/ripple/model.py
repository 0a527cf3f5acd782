"""The Ripple Effect (Hakyuu) model: a grid cut into rooms, with some cells given.

Cells are numbered in reading order (`r * cols + c`), so the solver works on flat
lists of bitmasks. Room ids are renumbered 0..k-1 by the order of each room's
first cell: files may use any integers, and nothing downstream should care.

Rules (Nikoli): a room of n cells holds 1..n once each; two equal values v in
one row or column must be more than v cells apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

EMPTY = 0
"""A cell with no given value."""

MAX_SIDE = 100
"""A board has at most this many rows and columns: published puzzles reach 30x45 and
`generate` makes at most 60x60, and so the solver's memory (a copy of the board per
search level, at most one level per cell) stays under 1 GB."""

MAX_VALUE = MAX_SIDE * MAX_SIDE
"""No room, so no value, is larger than the largest board."""

Grid = tuple[tuple[int, ...], ...]
"""Values row by row, `EMPTY` where unknown."""


@dataclass(frozen=True)
class Puzzle:
    """Rooms and givens of an R×C puzzle; build with `Puzzle.build` to renumber rooms."""

    rows: int
    cols: int
    rooms: tuple[int, ...]
    """Room index of every cell, in reading order, numbered 0..k-1 by first cell."""
    givens: tuple[int, ...]
    """Given value of every cell in reading order, `EMPTY` where none."""

    @staticmethod
    def build(room_ids: Sequence[Sequence[int]], values: Sequence[Sequence[int]]) -> Puzzle:
        """A puzzle from row-by-row room ids (any integers) and values (0 = empty)."""
        rows, cols = len(room_ids), len(room_ids[0]) if room_ids else 0
        index: dict[int, int] = {}
        rooms = tuple(index.setdefault(rid, len(index)) for row in room_ids for rid in row)
        givens = tuple(v for row in values for v in row)
        if len(rooms) != rows * cols or len(givens) != rows * cols:
            raise ValueError("rooms and values must both be rows × cols")
        return Puzzle(rows, cols, rooms, givens)

    @cached_property
    def room_cells(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every room, each in reading order."""
        cells: list[list[int]] = [[] for _ in range(max(self.rooms, default=-1) + 1)]
        for cell, room in enumerate(self.rooms):
            cells[room].append(cell)
        return tuple(tuple(c) for c in cells)

    @cached_property
    def room_size(self) -> tuple[int, ...]:
        """Size of the room of each cell (the largest value it may hold)."""
        sizes = [len(c) for c in self.room_cells]
        return tuple(sizes[room] for room in self.rooms)

    @property
    def max_value(self) -> int:
        return max(self.room_size, default=0)

    def grid(self, values: Sequence[int] | None = None) -> Grid:
        """Flat values (the givens by default) as rows."""
        flat = self.givens if values is None else values
        return tuple(tuple(flat[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows))

    def with_givens(self, givens: Sequence[int]) -> Puzzle:
        return Puzzle(self.rows, self.cols, self.rooms, tuple(givens))


def room_parts(rows: int, cols: int, rooms: Sequence[int]) -> dict[int, list[list[int]]]:
    """Connected parts of every room (orthogonal adjacency); a proper room has one."""
    seen = [False] * (rows * cols)
    parts: dict[int, list[list[int]]] = {}
    for start in range(rows * cols):
        if seen[start]:
            continue
        seen[start] = True
        part, stack = [], [start]
        while stack:
            cell = stack.pop()
            part.append(cell)
            r, c = divmod(cell, cols)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = nr * cols + nc
                if 0 <= nr < rows and 0 <= nc < cols and not seen[other] \
                        and rooms[other] == rooms[cell]:
                    seen[other] = True
                    stack.append(other)
        parts.setdefault(rooms[start], []).append(sorted(part))
    return parts
