"""Line propagation to a fixpoint over a board of row and column bitmasks.

The board keeps every line twice, as row masks (bit c = column c) and column
masks (bit r = row r), so a line solve reads its line without gathering cells;
each cell the solver decides is written to the crossing line too, which is
then queued (a dirty-line queue: a line is re-solved only after one of its
cells changed). Line results are cached per (clue, length) on the pair of masks.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence

from autoplayer.games.nonogram.solver.line import Clue, solve_masks

Line = tuple[str, int]
"""("row" | "column", 0-based index)."""

_CACHE_LIMIT = 400_000
_CHECK_EVERY = 512


class Timeout(Exception):
    """The caller's time budget ran out; the board holds everything decided so far."""


class Board:
    """Known cells as masks: rows_f[r] bit c = cell (r, c) filled; rows_e likewise empty."""

    __slots__ = ("cols_e", "cols_f", "rows_e", "rows_f", "unknown")

    def __init__(
        self, rows_f: list[int], rows_e: list[int], cols_f: list[int], cols_e: list[int],
        unknown: int,
    ) -> None:
        self.rows_f, self.rows_e, self.cols_f, self.cols_e = rows_f, rows_e, cols_f, cols_e
        self.unknown = unknown

    @classmethod
    def blank(cls, height: int, width: int) -> Board:
        return cls([0] * height, [0] * height, [0] * width, [0] * width, height * width)

    def copy(self) -> Board:
        return Board(
            self.rows_f[:], self.rows_e[:], self.cols_f[:], self.cols_e[:], self.unknown
        )

    def assign(self, other: Board) -> None:
        self.rows_f, self.rows_e = other.rows_f, other.rows_e
        self.cols_f, self.cols_e = other.cols_f, other.cols_e
        self.unknown = other.unknown

    def value(self, r: int, c: int) -> int:
        if (self.rows_f[r] >> c) & 1:
            return 1
        if (self.rows_e[r] >> c) & 1:
            return 0
        return -1

    def set_cell(self, r: int, c: int, filled: bool) -> None:
        """Sets an unknown cell (the caller then propagates row r and column c)."""
        if filled:
            self.rows_f[r] |= 1 << c
            self.cols_f[c] |= 1 << r
        else:
            self.rows_e[r] |= 1 << c
            self.cols_e[c] |= 1 << r
        self.unknown -= 1


class Engine:
    """The static side of a solve: clues, line caches, statistics, deadline."""

    def __init__(
        self, rows: Sequence[Clue | None], columns: Sequence[Clue | None],
        deadline: float | None = None,
    ) -> None:
        self.rows, self.columns = tuple(rows), tuple(columns)
        self.height, self.width = len(rows), len(columns)
        self.deadline = deadline
        caches: dict[tuple[Clue, int], dict[int, tuple[int, int] | None]] = {}
        self._row_cache = [
            None if clue is None else caches.setdefault((clue, self.width), {})
            for clue in self.rows
        ]
        self._col_cache = [
            None if clue is None else caches.setdefault((clue, self.height), {})
            for clue in self.columns
        ]
        self._caches = caches
        self._no_clue = bytes(
            [cache is None for cache in self._row_cache]
            + [cache is None for cache in self._col_cache]
        )
        """Per line id, 1 when its clue is unknown (it is never queued)."""
        self.lines_solved = 0
        self.cache_hits = 0
        self.probes = 0
        self.nodes = 0
        self.changed = (0, 0)
        """(rows, columns) as bitmasks: the lines with a cell the last propagation decided."""
        self._until_check = _CHECK_EVERY

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Timeout

    def _tick(self) -> None:
        """Every _CHECK_EVERY line solves: the deadline, and the caches' size."""
        self.check_time()
        if sum(map(len, self._caches.values())) > _CACHE_LIMIT:
            for cache in self._caches.values():
                cache.clear()

    def _line_result(self, line: int, board: Board) -> tuple[int, int] | None:
        """The (cached) line-solver result for line id `line` (rows, then columns)."""
        if line < self.height:
            clue, n, cache = self.rows[line], self.width, self._row_cache[line]
            f, e = board.rows_f[line], board.rows_e[line]
        else:
            i = line - self.height
            clue, n, cache = self.columns[i], self.height, self._col_cache[i]
            f, e = board.cols_f[i], board.cols_e[i]
        key = (f << n) | e
        if key not in cache:
            cache[key] = solve_masks(clue, n, f, e)
            self.lines_solved += 1
        return cache[key]

    def propagate_all(self, board: Board) -> Line | None:
        """Line logic to a fixpoint from every line; the failing line, or None.

        The most constrained lines (least slack) are solved first, which saves
        line solves. On a contradiction, a line that has no placement even on the
        starting board is named first (rows before columns), so the line named
        does not depend on that order.
        """
        ids = [r for r, clue in enumerate(self.rows) if clue is not None]
        ids += [self.height + c for c, clue in enumerate(self.columns) if clue is not None]

        def slack(line: int) -> int:
            if line < self.height:
                clue, n = self.rows[line], self.width
            else:
                clue, n = self.columns[line - self.height], self.height
            return n - sum(clue) - len(clue)

        start = board.copy()
        bad = self._run(board, sorted(ids, key=slack))
        if bad is not None:
            for line in ids:
                if self._line_result(line, start) is None:
                    return self._name(line)
        return bad

    def _name(self, line: int) -> Line:
        return ("row", line) if line < self.height else ("column", line - self.height)

    def propagate(
        self, board: Board, rows: Iterable[int], columns: Iterable[int]
    ) -> Line | None:
        """Line logic to a fixpoint from the given dirty lines; the failing line, or None."""
        height = self.height
        return self._run(board, [*rows, *(height + c for c in columns)])

    def _run(self, board: Board, dirty: list[int]) -> Line | None:
        """Propagation over a FIFO queue of line ids, starting with `dirty` in that order."""
        height = self.height
        row_clues, col_clues = self.rows, self.columns
        row_cache, col_cache = self._row_cache, self._col_cache
        rows_f, rows_e, cols_f, cols_e = board.rows_f, board.rows_e, board.cols_f, board.cols_e
        width = self.width
        queued = bytearray(self._no_clue)  # a line without a clue counts as queued for good
        queue: deque[int] = deque()
        for line in dirty:
            if not queued[line]:
                queued[line] = 1
                queue.append(line)
        solved = hits = 0
        changed_rows = changed_cols = 0
        unknown = board.unknown
        until_check = self._until_check
        try:
            while queue:
                line = queue.popleft()
                queued[line] = 0
                is_row = line < height
                if is_row:
                    i = line
                    f, e = rows_f[i], rows_e[i]
                    cache = row_cache[i]
                    n = width
                else:
                    i = line - height
                    f, e = cols_f[i], cols_e[i]
                    cache = col_cache[i]
                    n = height
                key = (f << n) | e
                if key in cache:
                    result = cache[key]
                    hits += 1
                else:
                    result = solve_masks(row_clues[i] if is_row else col_clues[i], n, f, e)
                    cache[key] = result
                    solved += 1
                    until_check -= 1
                    if until_check <= 0:
                        until_check = _CHECK_EVERY
                        self._tick()
                if result is None:
                    return ("row" if is_row else "column", i)
                nf, ne = result
                new_f, new_e = nf ^ f, ne ^ e
                if not (new_f | new_e):
                    continue
                unknown -= (new_f | new_e).bit_count()
                if is_row:
                    rows_f[i], rows_e[i] = nf, ne
                    cross_f, cross_e, base = cols_f, cols_e, height
                    changed_rows |= 1 << i
                    changed_cols |= new_f | new_e
                else:
                    cols_f[i], cols_e[i] = nf, ne
                    cross_f, cross_e, base = rows_f, rows_e, 0
                    changed_cols |= 1 << i
                    changed_rows |= new_f | new_e
                bit = 1 << i
                for changed, cross in ((new_f, cross_f), (new_e, cross_e)):
                    while changed:
                        low = changed & -changed
                        j = low.bit_length() - 1
                        changed ^= low
                        cross[j] |= bit
                        if not queued[base + j]:
                            queued[base + j] = 1
                            queue.append(base + j)
            return None
        finally:
            self.changed = (changed_rows, changed_cols)
            board.unknown = unknown
            self._until_check = until_check
            self.lines_solved += solved
            self.cache_hits += hits
