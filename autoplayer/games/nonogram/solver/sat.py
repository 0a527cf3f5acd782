"""The last resort for puzzles that search cannot finish: a CDCL SAT solver (python-sat).

Backtracking over cells re-proves the same contradictions in every branch of
an unrelated region; clause learning does not, which is why SAT solvers finish
the hardest survey puzzles (see docs/notes). Encoding, per line: one variable
per feasible start of each block (feasible given what logic already decided,
so the encoding is small), exactly one start per block, each start implies
the next block starts after its gap, a start fills the cells it covers, and a
filled cell is covered by some start.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from autoplayer.games.nonogram.solver.line import Clue, block_starts
from autoplayer.games.nonogram.solver.propagate import Board

_CONFLICT_SLICE = 2000
"""Conflicts per solver call between two looks at the clock (a few ms to ~0.1 s)."""


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Holds Ctrl-C while pysat's native code runs, and lets it through right after.

    pysat's solver and encoders catch SIGINT themselves by jumping out of the native
    code mid-step: the solver is left corrupt (deleting it aborts the process now and
    then, "double free") and the error they raise instead is theirs, not a
    `KeyboardInterrupt`. Held, the signal reaches Python's own handler once the call
    returns (a solver slice is at most ~0.1 s), and the command stops as on any Ctrl-C.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def encode(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board
) -> tuple[list[list[int]], int] | None:
    """CNF over cell variables r*W + c + 1 (then start variables); None if a line cannot fit."""
    from pysat.card import CardEnc, EncType

    height, width = len(rows), len(columns)
    top = height * width
    clauses: list[list[int]] = []
    lines = [("row", r, rows[r], width, board.rows_f[r], board.rows_e[r]) for r in range(height)]
    lines += [
        ("column", c, columns[c], height, board.cols_f[c], board.cols_e[c]) for c in range(width)
    ]
    for kind, i, clue, n, f, e in lines:
        def cell(k: int, kind: str = kind, i: int = i) -> int:
            return i * width + k + 1 if kind == "row" else k * width + i + 1

        for k in range(n):
            if (f >> k) & 1:
                clauses.append([cell(k)])
            elif (e >> k) & 1:
                clauses.append([-cell(k)])
        if clue is None:
            continue
        starts = block_starts(clue, n, f, e)
        if starts is None:
            return None
        variables: list[dict[int, int]] = []
        for mask in starts:
            block = {}
            for p in _bits(mask):
                top += 1
                block[p] = top
            variables.append(block)
        covering: list[list[int]] = [[] for _ in range(n)]
        for j, (length, block) in enumerate(zip(clue, variables, strict=True)):
            lits = list(block.values())
            clauses.append(lits)
            if len(lits) > 1:
                amo = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
                top = max(top, amo.nv)
                clauses.extend(amo.clauses)
            following = variables[j + 1] if j + 1 < len(variables) else None
            for p, var in block.items():
                for k in range(p, p + length):
                    clauses.append([-var, cell(k)])
                    covering[k].append(var)
                if following is not None:
                    clauses.append(
                        [-var, *(v for q, v in following.items() if q > p + length)]
                    )
        # Every filled cell lies in a block, known filled cells included: block_starts
        # only says where each block may start on its own, so without this clause a
        # choice of starts can leave a known cell uncovered, and the line then has a
        # block more than its clue (issue 12).
        for k in range(n):
            if not (e >> k) & 1:  # a known empty cell is no start's (its unit clause is above)
                clauses.append([-cell(k), *covering[k]])
    return clauses, top


def sat_solutions(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board,
    wanted: int, exclude: Sequence[Board], seconds: float | None,
) -> tuple[list[Board], bool]:
    """Up to `wanted` solutions extending `board` other than `exclude`; (them, exhausted).

    `exhausted` is False when the time ran out before the answer was proven.
    """
    from pysat.solvers import Solver

    height, width = len(rows), len(columns)
    with _sigint_held():
        encoded = encode(rows, columns, board)
    if encoded is None:
        return [], True
    clauses, _ = encoded
    unknown = [
        r * width + c + 1
        for r in range(height)
        for c in _bits(((1 << width) - 1) & ~(board.rows_f[r] | board.rows_e[r]))
    ]
    deadline = None if seconds is None else time.monotonic() + seconds
    found: list[Board] = []
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for other in exclude:
            solver.add_clause([-v if other.value(*divmod(v - 1, width)) else v for v in unknown])
        while len(found) < wanted:
            # CaDiCaL cannot be interrupted from another thread, so it runs in slices
            # of conflicts (keeping what it learned) and the clock is read in between
            status = None
            while status is None:
                if deadline is not None and time.monotonic() > deadline:
                    return found, False
                solver.conf_budget(_CONFLICT_SLICE)
                with _sigint_held():
                    status = solver.solve_limited()
            if not status:
                return found, True
            model = solver.get_model()
            true = {v for v in model[: height * width] if v > 0}
            solution = Board.blank(height, width)
            for r in range(height):
                for c in range(width):
                    solution.set_cell(r, c, r * width + c + 1 in true)
            found.append(solution)
            solver.add_clause([-v if v in true else v for v in unknown])
    return found, False

