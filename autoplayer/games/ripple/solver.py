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

Memory is bounded by the board, whatever its rooms: a domain has at most
`MAX_ROOM` + 1 values (a room larger than `MAX_ROOM`, which only the largest may
be, is solved through its free values, see `_Board`), the cached elimination
lists stop growing at `PEER_CACHE`, and the search keeps one copy of the
domains per level of its path, at most one level per cell (a 100x100 board:
80 KB a level, under 1 GB in all; real searches stay a few levels deep).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from autoplayer.errors import InputError
from autoplayer.games.ripple.model import EMPTY, Puzzle

MAX_ROOM = 64
"""Every room but the largest has at most this many cells (the published puzzles in
../shared have rooms of at most 12, the generator 13), so a value that two rooms can
hold is at most 64 and a domain is a small bitmask. The largest room may be of any
size the board allows."""

MAX_LISTED = 1000
"""The most solutions a command may ask for (`--limit`): each is a whole grid in memory
(1,000 of a 100x100 board took 91 MB; 10,000 took 779 MB)."""

PEER_CACHE = 4_000_000
"""Cells kept in the cached elimination lists (32 MB of pointers); past it, lists
are built on each use instead, so a long search on a large board cannot grow them."""


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


def _where(puzzle: Puzzle, room: int) -> str:
    r, c = divmod(puzzle.room_cells[room][0], puzzle.cols)
    return f"({r + 1},{c + 1})"


class _Board:
    """What stays fixed during a search: rooms, neighbourhoods and elimination lists.

    A room larger than `MAX_ROOM` is the board's single largest room; the values
    above the second-largest room's size occur in it alone, so no rule ties them
    to any other cell and any order of them among its remaining cells is a
    solution. They are searched as one value, free (`self.free`), which ripples
    nowhere and may fill many cells; each solution of that search stands for
    every arrangement of the free values (`_Search.expand`).
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.rooms = list(puzzle.rooms)
        self.room_cells = [list(c) for c in puzzle.room_cells]
        sizes = [len(c) for c in self.room_cells]
        self.top = max(sizes, default=0)
        """The largest value that is not free."""
        self.big = -1
        """The room with free values, or -1."""
        if self.top <= MAX_ROOM:
            self.full = [(1 << (n + 1)) - 2 for n in sizes]
        else:
            largest = self.big = sizes.index(self.top)
            others = [n for room, n in enumerate(sizes) if room != largest]
            self.top = max(others, default=0)
            if self.top > MAX_ROOM:
                second = next(room for room, n in enumerate(sizes)
                              if n == self.top and room != largest)
                raise InputError(
                    f"the rooms at {_where(puzzle, largest)} and {_where(puzzle, second)} have "
                    f"{sizes[largest]} and {self.top} cells; the solver takes one room of any "
                    f"size and every other of at most {MAX_ROOM} cells")
            self.full = [(1 << (min(n, self.top + 1) + 1)) - 2 for n in sizes]
        self.free = self.top + 1 if self.big >= 0 else -1
        """The value standing for every free value (bit `top + 1`), or -1."""
        self.size = list(puzzle.room_size)
        self.stride = self.top + 2
        self._peers: list[list[int] | None] = [None] * (len(self.rooms) * self.stride)
        self._big_ripple: dict[int, list[int]] = {}
        """The big room's cells' lists without their room mates."""
        self._cached = 0
        self.conflict = -1
        """The room where propagation last ran into a contradiction."""

    def peers(self, cell: int, value: int) -> list[int]:
        """Cells that cannot hold `value` once `cell` does (built on first use).

        A big room's cell gets its room mates afresh every time (they are many,
        and it is asked at most `top` times a search level); the rest is kept.
        """
        key = cell * self.stride + value
        found = self._peers[key]
        if found is not None:
            return found
        rooms = self.rooms
        room = rooms[cell]
        in_big = room == self.big
        if in_big:
            if value == self.free:
                self._peers[key] = []
                return []
            out = self._big_ripple.get(key)
            if out is not None:
                return out + [j for j in self.room_cells[room] if j != cell]
            out = []
        else:
            out = [j for j in self.room_cells[room] if j != cell]
        puzzle, size = self.puzzle, self.size
        cols, rows = puzzle.cols, puzzle.rows
        r, c = divmod(cell, cols)
        for d in range(1, value + 1):
            for rr, cc in ((r - d, c), (r + d, c), (r, c - d), (r, c + d)):
                if 0 <= rr < rows and 0 <= cc < cols:
                    j = rr * cols + cc
                    if size[j] >= value and rooms[j] != room:
                        out.append(j)
        if self._cached < PEER_CACHE:
            self._cached += len(out) + 1
            (self._big_ripple if in_big else self._peers)[key] = out
        return out + [j for j in self.room_cells[room] if j != cell] if in_big else out

    def initial(self, givens: Sequence[int],
                allowed: Sequence[int] | None = None) -> list[int] | None:
        """Domains after propagating the givens, or None if they contradict each other.

        `givens` are as `_Search` passes them (free values as `self.free`).
        `allowed` (bitmasks per cell) narrows the domains first: the generator
        fills a band of rows under values already placed above it.
        """
        domains = [self.full[room] for room in self.rooms]
        if allowed is not None:
            domains = [d & a for d, a in zip(domains, allowed, strict=True)]
        queue = []
        for cell, value in enumerate(givens):
            if value != EMPTY:
                bit = 1 << value if 0 < value < self.stride else 0
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
        stride, cache, big = self.stride, self._peers, self.big
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
                    if room == big:
                        # Singles placed here may leave another value no cell; elsewhere a
                        # cell would empty, but the big room's cells can all turn free.
                        flagged[room] = 1
                        dirty.append(room)
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
    fill an empty grid at random); `max_nodes` bounds the search. A board with
    two rooms larger than `MAX_ROOM` is refused (`InputError`).
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
        return _Search(self._board, givens, rng, None).run(limit, max_nodes)


def fill_or_blame(
    puzzle: Puzzle, rng: random.Random, max_nodes: int, allowed: Sequence[int] | None = None,
) -> tuple[tuple[int, ...] | None, int]:
    """A random solution, or None and the room most often at fault while searching.

    `allowed` optionally limits each cell's values (bitmask, bit v = value v);
    every room must have at most `MAX_ROOM` cells.
    """
    board = _Board(puzzle)
    if board.big >= 0:
        raise ValueError(f"fill_or_blame takes rooms of at most {MAX_ROOM} cells")
    blame: dict[int, int] = {}
    found = _Search(board, puzzle.givens, rng, blame).run(1, max_nodes, allowed)
    if found.solutions:
        return found.solutions[0], -1
    return None, max(blame, key=lambda room: (blame[room], -room))


class _Search:
    """One depth-first search over a board's domains for one set of givens."""

    def __init__(self, board: _Board, givens: Sequence[int], rng: random.Random | None,
                 blame: dict[int, int] | None) -> None:
        self.board, self.rng, self.blame = board, rng, blame
        self.givens: Sequence[int] | None = givens
        """The givens as the board takes them (a free value as `board.free`); None when
        they already break the Room Rule."""
        self.fixed: dict[int, int] = {}
        """Cells of the big room given a free value, and that value."""
        self.pool: list[int] = []
        """The free values no cell is given, for the big room's other free cells."""
        if board.big >= 0:
            self._free_givens(givens)

    def _free_givens(self, givens: Sequence[int]) -> None:
        board = self.board
        size = len(board.room_cells[board.big])
        reduced, given = list(givens), set()
        for cell in board.room_cells[board.big]:
            value = givens[cell]
            if value > board.top:
                if value > size or value in given:
                    self.givens = None
                    return
                given.add(value)
                self.fixed[cell] = value
                reduced[cell] = board.free
        self.givens = reduced
        self.pool = [v for v in range(board.top + 1, size + 1) if v not in given]

    def run(self, limit: int, max_nodes: int | None,
            allowed: Sequence[int] | None = None) -> SolveResult:
        board, blame = self.board, self.blame
        dom = None if self.givens is None else board.initial(self.givens, allowed)
        if dom is None:
            if blame is not None and board.conflict >= 0:
                blame[board.conflict] = 1
            return SolveResult((), True, 1)
        solutions: list[tuple[int, ...]] = []
        # A frame is (domains, cell, bit): try `bit` in `cell` on a copy of the domains.
        stack: list[tuple[list[int], int, int]] = [(dom, -1, 0)]
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
                want = limit - len(solutions)
                found = [tuple(d.bit_length() - 1 for d in dom)] if board.big < 0 else \
                    list(itertools.islice(self.expand(dom), want + 1))
                solutions += found[:want]
                if len(solutions) >= limit:
                    return SolveResult(tuple(solutions), len(found) <= want and not stack, nodes)
                continue
            d = dom[best]
            bits = [1 << v for v in range(d.bit_length()) if d >> v & 1]
            if self.rng is not None:
                self.rng.shuffle(bits)
            stack.extend((dom, best, b) for b in reversed(bits))
        return SolveResult(tuple(solutions), True, nodes)

    def expand(self, dom: Sequence[int]) -> Iterator[tuple[int, ...]]:
        """The solutions a solved board with a big room stands for: every order of the
        free values in its cells left free."""
        values = [d.bit_length() - 1 for d in dom]
        free = self.board.free
        open_cells = [cell for cell in self.board.room_cells[self.board.big]
                      if values[cell] == free and cell not in self.fixed]
        for cell, value in self.fixed.items():
            values[cell] = value
        for order in itertools.permutations(self.pool):
            for cell, value in zip(open_cells, order, strict=True):
                values[cell] = value
            yield tuple(values)
