"""Ripple Effect solver: bitmask domains, propagation, MRV search that proves uniqueness.

Every cell holds a bitmask of the values still possible (bit v = value v).
Propagation repeats three rules until nothing changes:

- a decided cell removes its value from its room mates and from every cell of
  its row and column within that value's distance (ripple elimination);
- a cell left with one value is decided (naked single);
- a value with one place left in its room goes there (hidden single).

When propagation stalls, the search branches on an undecided cell with the
fewest values (MRV) and keeps going after the first solution until it finds a
second one or runs out, which proves the answer unique. Published puzzles are
built for deduction, so most need no branching at all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.games.ripple.model import EMPTY, Puzzle


@dataclass(frozen=True)
class SolveResult:
    """Solutions found (reading order), whether the search ran to the end, and its cost."""

    solutions: tuple[tuple[int, ...], ...]
    complete: bool
    """True when every branch was explored: `solutions` are then all there are."""
    nodes: int
    """Search nodes visited; 1 means propagation alone solved it."""

    @property
    def unique(self) -> bool:
        return self.complete and len(self.solutions) == 1


class _Board:
    """What stays fixed during a search: rooms, neighbourhoods and elimination lists."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.rooms = list(puzzle.rooms)
        self.room_cells = [list(c) for c in puzzle.room_cells]
        self.full = [(1 << (len(c) + 1)) - 2 for c in self.room_cells]
        self.size = list(puzzle.room_size)
        self.stride = puzzle.max_value + 1
        self._peers: list[list[int] | None] = [None] * (len(self.rooms) * self.stride)
        self.conflict = -1
        """The room where propagation last ran into a contradiction."""

    def peers(self, cell: int, value: int) -> list[int]:
        """Cells that cannot hold `value` once `cell` does (built on first use)."""
        key = cell * self.stride + value
        found = self._peers[key]
        if found is not None:
            return found
        puzzle, size = self.puzzle, self.size
        cols, rows = puzzle.cols, puzzle.rows
        r, c = divmod(cell, cols)
        out = [j for j in self.room_cells[self.rooms[cell]] if j != cell]
        for d in range(1, value + 1):
            for rr, cc in ((r - d, c), (r + d, c), (r, c - d), (r, c + d)):
                if 0 <= rr < rows and 0 <= cc < cols:
                    j = rr * cols + cc
                    if size[j] >= value and self.rooms[j] != self.rooms[cell]:
                        out.append(j)
        self._peers[key] = out
        return out

    def initial(self, givens: Sequence[int],
                allowed: Sequence[int] | None = None) -> list[int] | None:
        """Domains after propagating the givens, or None if they contradict each other.

        `allowed` (bitmasks per cell) narrows the domains first: the generator
        fills a band of rows under values already placed above it.
        """
        domains = [self.full[room] for room in self.rooms]
        if allowed is not None:
            domains = [d & a for d, a in zip(domains, allowed, strict=True)]
        queue = []
        for cell, value in enumerate(givens):
            if value != EMPTY:
                bit = 1 << value
                if not domains[cell] & bit:
                    self.conflict = self.rooms[cell]
                    return None
                domains[cell] = bit
        for cell, d in enumerate(domains):
            if not d:
                self.conflict = self.rooms[cell]
                return None
            if not d & (d - 1):
                queue.append(cell)
        dirty = list(range(len(self.room_cells)))
        return domains if self.propagate(domains, queue, dirty) else None

    def propagate(self, dom: list[int], queue: list[int], dirty: list[int]) -> bool:
        """Applies the three rules in place until a fixpoint; False on a contradiction."""
        rooms, room_cells, full, peers = self.rooms, self.room_cells, self.full, self.peers
        stride, cache = self.stride, self._peers
        flagged = bytearray(len(room_cells))
        for room in dirty:
            flagged[room] = 1
        while True:
            while queue:
                cell = queue.pop()
                d = dom[cell]
                keep = ~d
                found = cache[cell * stride + d.bit_length() - 1]
                for j in found if found is not None else peers(cell, d.bit_length() - 1):
                    dj = dom[j]
                    if dj & d:
                        dj &= keep
                        if not dj:
                            self.conflict = rooms[j]
                            return False
                        dom[j] = dj
                        if not dj & (dj - 1):
                            queue.append(j)
                        room = rooms[j]
                        if not flagged[room]:
                            flagged[room] = 1
                            dirty.append(room)
            if not dirty:
                return True
            while dirty:
                room = dirty.pop()
                flagged[room] = 0
                cells = room_cells[room]
                once = twice = 0
                for j in cells:
                    dj = dom[j]
                    twice |= once & dj
                    once |= dj
                if once != full[room]:
                    self.conflict = room
                    return False
                alone = once & ~twice
                if alone:
                    for j in cells:
                        dj = dom[j]
                        hit = dj & alone
                        if hit and hit != dj:
                            if hit & (hit - 1):
                                self.conflict = room
                                return False
                            dom[j] = hit
                            queue.append(j)
                        elif hit & (hit - 1):
                            self.conflict = room
                            return False
                if queue:
                    break


def solve(
    puzzle: Puzzle,
    limit: int = 2,
    *,
    rng: random.Random | None = None,
    max_nodes: int | None = None,
) -> SolveResult:
    """Up to `limit` solutions; with the default 2, `unique` tells whether there is one.

    `rng` shuffles the order values are tried in (the generator uses it to
    fill an empty grid at random); `max_nodes` bounds the search.
    """
    return RoomSolver(puzzle).solve(puzzle.givens, limit, rng=rng, max_nodes=max_nodes)


class RoomSolver:
    """`solve` for one set of rooms and many sets of givens (the generator asks often).

    What depends on the rooms alone (which cells a value rules out) is worked
    out once and kept between calls.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self._board = _Board(puzzle)

    def solve(self, givens: Sequence[int], limit: int = 2, *,
              rng: random.Random | None = None, max_nodes: int | None = None) -> SolveResult:
        return _search(self._board, givens, limit, rng, max_nodes, None, None)


def fill_or_blame(
    puzzle: Puzzle, rng: random.Random, max_nodes: int, allowed: Sequence[int] | None = None,
) -> tuple[tuple[int, ...] | None, int]:
    """A random solution, or None and the room most often at fault while searching.

    `allowed` optionally limits each cell's values (bitmask, bit v = value v).
    """
    board = _Board(puzzle)
    blame: dict[int, int] = {}
    found = _search(board, puzzle.givens, 1, rng, max_nodes, blame, allowed)
    if found.solutions:
        return found.solutions[0], -1
    return None, max(blame, key=lambda room: (blame[room], -room))


def _search(
    board: _Board,
    givens: Sequence[int],
    limit: int,
    rng: random.Random | None,
    max_nodes: int | None,
    blame: dict[int, int] | None,
    allowed: Sequence[int] | None,
) -> SolveResult:
    start = board.initial(givens, allowed)
    if start is None:
        if blame is not None:
            blame[board.conflict] = 1
        return SolveResult((), True, 1)
    solutions: list[tuple[int, ...]] = []
    # A frame is (domains, cell, bit): try `bit` in `cell` on a copy of the domains.
    stack: list[tuple[list[int], int, int]] = [(start, -1, 0)]
    nodes = 0
    while stack:
        if max_nodes is not None and nodes >= max_nodes:
            return SolveResult(tuple(solutions), False, nodes)
        parent, cell, bit = stack.pop()
        nodes += 1
        if cell < 0:
            dom = parent
        else:
            dom = parent.copy()
            dom[cell] = bit
            if not board.propagate(dom, [cell], [board.rooms[cell]]):
                if blame is not None:
                    blame[board.conflict] = blame.get(board.conflict, 0) + 1
                continue
        best, fewest = -1, 1 << 30
        for i, d in enumerate(dom):
            if d & (d - 1):
                count = d.bit_count()
                if count < fewest:
                    best, fewest = i, count
                    if count == 2:
                        break
        if best < 0:
            solutions.append(tuple(d.bit_length() - 1 for d in dom))
            if len(solutions) >= limit:
                return SolveResult(tuple(solutions), not stack, nodes)
            continue
        d = dom[best]
        bits = [1 << v for v in range(d.bit_length()) if d >> v & 1]
        if rng is not None:
            rng.shuffle(bits)
        stack.extend((dom, best, b) for b in reversed(bits))
    return SolveResult(tuple(solutions), True, nodes)
