"""The whole solve: line propagation, probing, backtracking guided by probes, then SAT."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from functools import cached_property

from autoplayer.games.nonogram.solver.cpu import cpu_seconds
from autoplayer.games.nonogram.solver.line import masks_of
from autoplayer.games.nonogram.solver.probe import probe
from autoplayer.games.nonogram.solver.propagate import Board, Engine, Line, Timeout

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np

    from autoplayer.games.nonogram.model import Puzzle

    Backend = Literal["auto", "probe", "search", "sat"]
else:
    Backend = str


NODE_BUDGET = 4
"""Probing the search may do before the SAT back end takes over, in nodes the size of the
root: after the root, each node costs the unknown cells it starts with, and the search
may spend NODE_BUDGET - 1 times what probing left unknown at the root. A node deep in a
subtree that logic has nearly finished costs almost nothing, so a search that is
closing in on solutions goes on to find them (on random puzzles with several solutions,
often both) instead of handing SAT the whole root after four nodes."""

BACKENDS: tuple[str, ...] = ("auto", "probe", "search", "sat")
"""What `solve` runs once line logic stalls. "auto" is the pipeline; the others force
one path each, so that tests (and anyone chasing a wrong answer) can check every
path, not only the one a puzzle happens to take:

- "auto": probe-guided search for a budget of NODE_BUDGET root-sized nodes, then SAT on
  the root (excluding the solutions the search found)
  (search to the end when python-sat is missing);
- "probe": probing only, no guess: UNIQUE when it decides every cell, else STALLED;
- "search": probe-guided search to the end, never SAT;
- "sat": SAT straight after line logic, no probing.
(`Backend` is the type of one of them.)
"""


def _sat_back_end() -> Callable[..., tuple[list[Board], bool]] | None:
    """`sat_solutions` when python-sat is installed, else None (search alone then).

    Only looked up, not imported, here: most searches end within the budget.
    """
    from importlib.util import find_spec

    if find_spec("pysat") is None:
        return None

    def sat_solutions(*args: Any, **kwargs: Any) -> tuple[list[Board], bool]:
        from autoplayer.games.nonogram.solver.sat import sat_solutions

        return sat_solutions(*args, **kwargs)

    return sat_solutions


class Verdict(enum.Enum):
    """What the solver proved; the values are the words the CLI prints."""

    LINE_SOLVABLE = "line-solvable"
    """Line logic alone decides every cell (so the solution is unique)."""
    UNIQUE = "unique"
    """Exactly one solution, but finding it needed probing or search."""
    MULTIPLE = "multiple"
    """At least two solutions (the first two found are given)."""
    SOLVED = "solved"
    """A solution, with uniqueness not checked (max_solutions=1)."""
    CONTRADICTION = "contradiction"
    """No grid satisfies the clues (and the starting grid)."""
    TIMEOUT = "timeout"
    """The time budget ran out before a verdict."""
    STALLED = "stalled"
    """Logic-only (or probe-only) run: logic stopped with cells still unknown."""


class SolveStats:
    """What a solve did. `lines_solved`: line-solver runs (cache misses); `nodes`: search
    nodes (the root counts as one once probing starts); `sat`: whether the search ran out
    of its node budget and the SAT back end finished; `seconds`: wall time; `cpu`: CPU
    time of this process over the solve, and `sat_seconds` the part of it in the SAT
    back end (encoding included). (Not a dataclass: see `Puzzle`.)"""

    __slots__ = ("cache_hits", "cpu", "lines_solved", "nodes", "probes", "sat", "sat_seconds",
                 "seconds")

    def __init__(self, lines_solved: int = 0, cache_hits: int = 0, probes: int = 0,
                 nodes: int = 0, sat: bool = False, seconds: float = 0.0, cpu: float = 0.0,
                 sat_seconds: float = 0.0) -> None:
        self.lines_solved, self.cache_hits, self.probes = lines_solved, cache_hits, probes
        self.nodes, self.sat, self.seconds = nodes, sat, seconds
        self.cpu, self.sat_seconds = cpu, sat_seconds

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in ("lines_solved", "cache_hits",
                                                                "probes", "nodes", "sat",
                                                                "seconds", "cpu",
                                                                "sat_seconds"))
        return f"SolveStats({shown})"


class SolveResult:
    """The verdict and the grids, kept as boards of masks until someone asks for arrays.

    `grid` and `solutions` are numpy arrays, built on first read; `grid_rows`
    and `solution_rows` give the same cells as lists without importing numpy,
    which is what lets `autoplayer solve` start fast.
    """

    def __init__(
        self, verdict: Verdict, board: Board, width: int, solutions: Sequence[Board] = (),
        contradiction: Line | None = None, stats: SolveStats | None = None,
    ) -> None:
        self.verdict = verdict
        self.contradiction = contradiction
        """The first line found with no placement (0-based index), when there is one."""
        self.stats = stats if stats is not None else SolveStats()
        self._board, self._width = board, width
        self._solutions = list(solutions)

    @cached_property
    def grid(self) -> np.ndarray:
        """H×W int8: what logic decided before any guess (UNKNOWN where it did not)."""
        return _to_grid(self._board, self._width)

    @cached_property
    def solutions(self) -> list[np.ndarray]:
        """Solutions found, at most max_solutions (with TIMEOUT: those found in time)."""
        return [_to_grid(s, self._width) for s in self._solutions]

    @property
    def grid_rows(self) -> list[list[int]]:
        """`grid` as row lists."""
        return _to_rows(self._board, self._width)

    @property
    def solution_rows(self) -> list[list[list[int]]]:
        """`solutions` as row lists."""
        return [_to_rows(s, self._width) for s in self._solutions]

    @property
    def decided(self) -> int:
        board = self._board
        return sum((f | e).bit_count() for f, e in zip(board.rows_f, board.rows_e, strict=True))

    def __repr__(self) -> str:
        return (f"SolveResult(verdict={self.verdict}, solutions={len(self._solutions)}, "
                f"contradiction={self.contradiction}, stats={self.stats})")


def _to_rows(board: Board, width: int) -> list[list[int]]:
    return [
        [1 if (f >> c) & 1 else 0 if (e >> c) & 1 else -1 for c in range(width)]
        for f, e in zip(board.rows_f, board.rows_e, strict=True)
    ]


def _to_grid(board: Board, width: int) -> np.ndarray:
    import numpy as np

    height = len(board.rows_f)
    nbytes = (width + 7) // 8 or 1

    def unpack(masks: list[int]) -> np.ndarray:
        raw = b"".join(m.to_bytes(nbytes, "little") for m in masks)
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        return bits.reshape(height, nbytes * 8)[:, :width].astype(bool)

    grid = np.full((height, width), -1, dtype=np.int8)
    if height:
        grid[unpack(board.rows_e)] = 0
        grid[unpack(board.rows_f)] = 1
    return grid


def _start_board(height: int, width: int, grid: np.ndarray | None) -> Board:
    board = Board.blank(height, width)
    if grid is None:
        return board
    for r, row in enumerate(grid.tolist()):
        f, e = masks_of(row)
        board.rows_f[r], board.rows_e[r] = f, e
        board.unknown -= (f | e).bit_count()
        for c in range(width):
            if (f >> c) & 1:
                board.cols_f[c] |= 1 << r
            elif (e >> c) & 1:
                board.cols_e[c] |= 1 << r
    return board


class _OverBudget(Exception):
    """The search used its node budget; the SAT back end takes over."""


def _search(
    engine: Engine, root: Board, max_solutions: int, solutions: list[Board],
    budget: int | None,
) -> bool:
    """Depth-first search from `root` (probed in place), adding to `solutions`.

    `budget`: in nodes the size of the probed root (see NODE_BUDGET), before _OverBudget;
    None: no limit. Returns whether the search space was exhausted (False: stopped at
    max_solutions).
    """
    stack = [root]
    spent = 0
    allowance = None  # in cells, once the root is probed
    while stack:
        if budget == 0 or (allowance is not None and spent >= allowance):
            raise _OverBudget
        board = stack.pop()
        if allowance is not None:
            spent += board.unknown
        engine.nodes += 1
        engine.check_time()
        branch = probe(engine, board)
        if allowance is None and budget is not None:
            allowance = (budget - 1) * board.unknown
        if branch is None:
            continue
        if branch.row < 0:
            solutions.append(board)
        else:
            # the branch that decided more is explored first (popped last pushed)
            first, second = branch.filled, branch.empty
            if second.unknown < first.unknown:
                first, second = second, first
            stack.append(second)
            stack.append(first)
            continue
        if len(solutions) >= max_solutions:
            return False
    return True


def solve(
    puzzle: Puzzle,
    *,
    logic_only: bool = False,
    max_solutions: int = 2,
    timeout: float | None = None,
    grid: np.ndarray | None = None,
    backend: Backend = "auto",
) -> SolveResult:
    """Solves a puzzle whose clues may include None (a line with unknown clue).

    `grid` is a starting state whose known cells are taken as given. With
    `logic_only`, only line logic runs (verdict LINE_SOLVABLE, STALLED or
    CONTRADICTION). Search stops after `max_solutions` solutions (at least 1).
    `backend` picks what runs after line logic (see `Backend`); every path
    returns only grids that satisfy every clue.
    """
    if max_solutions < 1:
        raise ValueError("max_solutions must be at least 1")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    start, cpu_start = time.monotonic(), cpu_seconds()
    deadline = None if timeout is None else start + timeout
    height, width = len(puzzle.rows), len(puzzle.columns)
    engine = Engine(puzzle.rows, puzzle.columns, deadline)
    board = _start_board(height, width, grid)

    sat_used = False
    sat_cpu = 0.0
    solutions: list[Board] = []

    def result(
        verdict: Verdict, solutions: Sequence[Board] = (), bad: Line | None = None
    ) -> SolveResult:
        stats = SolveStats(
            engine.lines_solved, engine.cache_hits, engine.probes, engine.nodes, sat_used,
            time.monotonic() - start, cpu_seconds() - cpu_start, sat_cpu,
        )
        return SolveResult(verdict, board, width, solutions, bad, stats)

    try:
        bad = engine.propagate_all(board)
        if bad is not None:
            return result(Verdict.CONTRADICTION, bad=bad)
        if board.unknown == 0:
            return result(Verdict.LINE_SOLVABLE, [board])
        if logic_only:
            return result(Verdict.STALLED)
        if backend == "probe":
            if probe(engine, board) is None:
                return result(Verdict.CONTRADICTION)
            if board.unknown:
                return result(Verdict.STALLED)
            return result(Verdict.UNIQUE, [board])  # probing only draws forced conclusions
        sat = _sat_back_end() if backend in ("auto", "sat") else None
        if backend == "sat" and sat is None:
            raise RuntimeError("backend 'sat' needs python-sat, which is not installed")
        try:
            budget = 0 if backend == "sat" else None if sat is None else NODE_BUDGET
            exhausted = _search(engine, board, max_solutions, solutions, budget)
        except _OverBudget:
            assert sat is not None
            sat_used = True
            remaining = None if deadline is None else deadline - time.monotonic()
            sat_start = cpu_seconds()
            try:
                more, exhausted = sat(
                    puzzle.rows, puzzle.columns, board, max_solutions - len(solutions),
                    solutions, remaining,
                )
            finally:
                sat_cpu = cpu_seconds() - sat_start
            solutions += more
            if not exhausted and len(solutions) < max_solutions:
                raise Timeout from None
    except Timeout:
        # any solution found so far is real; a player that accepts any grid can use it
        return result(Verdict.TIMEOUT, solutions)
    if len(solutions) >= 2:
        return result(Verdict.MULTIPLE, solutions)
    if len(solutions) == 1:
        return result(Verdict.UNIQUE if exhausted else Verdict.SOLVED, solutions)
    return result(Verdict.CONTRADICTION)
