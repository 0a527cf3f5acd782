"""The last resort for puzzles that search cannot finish: a CDCL SAT solver (python-sat).

Backtracking over cells re-proves the same contradictions in every branch of
an unrelated region; clause learning does not, which is why SAT solvers finish
the hardest survey puzzles (see docs/notes).

Encoding, per line: the automaton that reads the line's cells, one symbol of
the clue's pattern (its blocks with one empty cell between each two) per step,
or an empty cell read while waiting before a block or after the last; in
order-encoded form (variable (i, s) = "after cell i the automaton has read at
least s symbols"), so every clause has two or three literals. Only the states
reachable from both ends given what logic already decided get a variable (the
rest are constants), so the encoding is small once logic has done its part.
Against the earlier one (a variable per feasible start of each block, exactly
one per block, each start implying a later start for the next block and the
cells it covers) it has no long clauses and no cardinality encoding, and CaDiCaL
needs about half the time on the residues of random 40x40-60x60 puzzles with
several solutions (bench/bench_nonogram_multi.py).
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress

from autoplayer.games.nonogram.solver.line import Clue, solve_masks
from autoplayer.games.nonogram.solver.propagate import Board

_OPTIONS = {"probe": 0}
"""CaDiCaL without its failed-literal probing: the board it gets is already probed to a
fixpoint (probe.py), and with it on the SAT back end took 1.5-1.6 s on webpbn-02712
(Lion) against 1.0 s without, and 15.9 s against 14.5 s on six puzzles of the
multi-solution set (CPU, same boards)."""
_LOAD_CHUNK = 50_000
"""Clauses handed to the solver between two looks at the clock."""
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


def _pattern(clue: Clue) -> tuple[list[int], int]:
    """The clue's symbols (1 filled, 0 the gap between two blocks) and, as a bitmask
    over states 0..len, the states that may also read an empty cell and stay: the
    start, the end, and each state just after a gap."""
    pattern: list[int] = []
    for j, length in enumerate(clue):
        if j:
            pattern.append(0)
        pattern += [1] * length
    stay = 1 | (1 << len(pattern))
    for s, symbol in enumerate(pattern):
        if not symbol:
            stay |= 1 << (s + 1)
    return pattern, stay


def _alive(clue: Clue, n: int, f: int, e: int) -> tuple[list[int], int, list[int]] | None:
    """(pattern, stay, alive): alive[i] the states (bitmask) the automaton can be in after
    i cells on some path that reads the whole line; None if there is none."""
    pattern, stay = _pattern(clue)
    ones = zeros = 0
    for s, symbol in enumerate(pattern):
        if symbol:
            ones |= 1 << s
        else:
            zeros |= 1 << s
    size = len(pattern)
    fwd = [1]
    cur = 1
    for i in range(n):
        nxt = 0
        if not (e >> i) & 1:
            nxt |= (cur & ones) << 1
        if not (f >> i) & 1:
            nxt |= ((cur & zeros) << 1) | (cur & stay)
        cur = nxt
        fwd.append(cur)
    if not (cur >> size) & 1:
        return None
    alive = [0] * (n + 1)
    cur = alive[n] = 1 << size
    for i in range(n - 1, -1, -1):
        back = 0
        if not (e >> i) & 1:
            back |= (cur >> 1) & ones
        if not (f >> i) & 1:
            back |= ((cur >> 1) & zeros) | (cur & stay)
        cur = alive[i] = back & fwd[i]
    return pattern, stay, alive


def _line_clauses(
    clue: Clue, n: int, f: int, e: int, cells: list[int], top: int, true: int,
    out: list[list[int]],
) -> int | None:
    """Adds one line's clauses to `out`; returns the new top variable, None if no
    placement fits. `cells[k]` is cell k's variable; `true` a variable that is true."""
    if not clue:
        if f:
            return None
        out.extend([-cells[k]] for k in range(n) if not (e >> k) & 1)
        return top
    got = _alive(clue, n, f, e)
    if got is None:
        return None
    pattern, stay, alive = got
    size = len(pattern)
    false = -true
    # at[i][s]: the literal "after i cells, at least s symbols read", s = 0..size+1
    at: list[list[int]] = []
    window: list[tuple[int, int]] = []
    for i in range(n + 1):
        states = alive[i]
        lo, hi = (states & -states).bit_length() - 1, states.bit_length() - 1
        window.append((lo, hi))
        layer = [true] * (lo + 1)
        layer += range(top + 1, top + 1 + hi - lo)
        top += hi - lo
        layer += [false] * (size + 1 - hi)
        at.append(layer)
        for s in range(lo + 1, hi + 1):
            if s > lo + 1:
                out.append([-layer[s], layer[s - 1]])
            if not (states >> s) & 1:  # a dead state inside the window: not exactly s
                out.append([-layer[s], layer[s + 1]])
    clauses: list[list[int]] = []
    add = clauses.append
    for i in range(n):
        x = cells[i]
        here, there = at[i], at[i + 1]
        lo, hi = window[i]
        lo_next, hi_next = window[i + 1]
        may_fill, may_empty = not (e >> i) & 1, not (f >> i) & 1
        free = may_fill and may_empty
        # never fewer symbols later: here[s] -> there[s], open for lo_next < s <= hi
        for s in range(lo_next + 1, hi + 1):
            add([-here[s], there[s]])
        # at most one symbol a cell: there[s + 1] -> here[s], open for lo < s < hi_next
        for s in range(lo + 1, hi_next):
            add([-there[s + 1], here[s]])
        states = alive[i]
        for s in range(lo, hi + 1):
            if not (states >> s) & 1:
                continue
            now, above, next_above = here[s], here[s + 1], there[s + 1]
            waits = (stay >> s) & 1
            # staying at s reads an empty cell, and only where s may stay
            if waits and may_empty:
                if may_fill:
                    add([-now, next_above, -x])
            else:
                add([-now, next_above])
            if s < size:
                symbol = pattern[s]
                # moving on from s reads the symbol
                if may_fill if symbol else may_empty:
                    if free:
                        add([-next_above, above, x if symbol else -x])
                else:
                    add([-next_above, above])
                if free and not (waits and symbol):
                    # one way out of s: being at s decides the cell
                    add([-now, above, x if symbol else -x])
            elif free:
                add([-now, above, -x])
        if free:
            states = alive[i + 1]
            for s in range(max(lo_next, 1), hi_next + 1):
                if (states >> s) & 1 and not ((stay >> s) & 1 and pattern[s - 1]):
                    # every way into s read the same value
                    add([-there[s], there[s + 1], x if pattern[s - 1] else -x])
    for clause in clauses:
        if true in clause:
            continue
        if false in clause:
            clause = [lit for lit in clause if lit != false]
        out.append(clause)
    return top


class _OutOfTime(Exception):
    """The deadline passed while the clauses were being made or loaded."""


def encode(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board,
    deadline: float | None = None,
) -> tuple[list[list[int]], int] | None:
    """CNF over cell variables r*W + c + 1 (then the lines' own); None if a line cannot fit.

    Raises _OutOfTime when `deadline` (time.monotonic) passes: a big residue is a
    million clauses, seconds of work."""
    height, width = len(rows), len(columns)
    true = top = height * width + 1
    clauses: list[list[int]] = [[true]]
    lines = [(rows[r], width, board.rows_f[r], board.rows_e[r],
              [r * width + c + 1 for c in range(width)]) for r in range(height)]
    lines += [(columns[c], height, board.cols_f[c], board.cols_e[c],
               [k * width + c + 1 for k in range(height)]) for c in range(width)]
    for _, n, f, e, cells in lines[:height]:
        clauses.extend([cells[k]] for k in range(n) if (f >> k) & 1)
        clauses.extend([-cells[k]] for k in range(n) if (e >> k) & 1)
    for clue, n, f, e, cells in lines:
        if deadline is not None and time.monotonic() > deadline:
            raise _OutOfTime
        if clue is None:
            continue
        if (f | e) == (1 << n) - 1:
            if solve_masks(clue, n, f, e) is None:
                return None
            continue
        got = _line_clauses(clue, n, f, e, cells, top, true, clauses)
        if got is None:
            return None
        top = got
    return clauses, top


def _lex_leader(perm: list[int], cells: list[int], top: int) -> tuple[list[list[int]], int]:
    """Clauses for "the grid is not above its image under perm" in the order of `cells`
    (variables; cells perm fixes are skipped): e_i says the first i cells equal their
    images, and while they do, the next may not be filled where its image is empty."""
    clauses: list[list[int]] = []
    equal = None  # the literal "all earlier cells equal their images"; None: true
    for x in cells:
        y = perm[x - 1] + 1
        if y == x:
            continue
        before = [] if equal is None else [-equal]
        clauses.append([*before, -x, y])
        top += 1
        clauses.append([*before, -x, -y, top])
        clauses.append([*before, x, y, top])
        equal = top
    return clauses, top


def sat_solutions(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board,
    wanted: int, exclude: Sequence[Board], seconds: float | None,
) -> tuple[list[Board], bool]:
    """Up to `wanted` solutions extending `board` other than `exclude`; (them, exhausted).

    `exhausted` is False when the time ran out before the answer was proven.

    When flips or turns of the grid map the clues (and `board`) onto themselves
    (`symmetry.symmetries`), solutions those maps leave unchanged are looked for
    first, in a space that many times smaller; every solution found brings its
    images, which are solutions too; and the proof that no other solution exists
    then needs only grids that are the least of their images (lex-leader
    constraints), since the solutions found are closed under the maps.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        with _sigint_held():
            encoded = encode(rows, columns, board, deadline)
    except _OutOfTime:
        return [], False
    if encoded is None:
        return [], True
    if deadline is None or not hasattr(os, "fork"):
        found: list[Board] = []
        exhausted = _search(rows, columns, board, wanted, exclude, encoded, deadline,
                            found.append)
        return found, exhausted
    return _search_in_child(rows, columns, board, wanted, exclude, encoded, deadline)


def _search_in_child(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board,
    wanted: int, exclude: Sequence[Board], encoded: tuple[list[list[int]], int],
    deadline: float,
) -> tuple[list[Board], bool]:
    """`_search` in a forked child that is killed at the deadline.

    CaDiCaL cannot be interrupted, and a budget of conflicts does not bound its time: on
    a million-clause residue one slice of a few hundred conflicts took 5-7 s (its
    inprocessing), so `--timeout 10` on faase ended at 14 s, and at up to 17 s with
    smaller slices. The child sends each
    solution as it finds it and then its verdict; the parent waits for them until the
    deadline and no longer. Ctrl-C reaches the parent, which kills the child."""
    import pysat.solvers  # noqa: F401  (imported once here, not in every child)

    height, width = len(rows), len(columns)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: solve, report, and leave without running the parent's exits
        code = 0
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                def send(grid: Board) -> None:
                    out.write(b"G" + b"".join(row.to_bytes(_row_bytes(width), "little")
                                              for row in grid.rows_f))
                    out.flush()

                exhausted = _search(rows, columns, board, wanted, exclude, encoded, None, send)
                out.write(b"E" if exhausted else b"T")
        except BaseException:
            code = 1
        os._exit(code)
    os.close(write_end)
    found: list[Board] = []
    size = 1 + height * _row_bytes(width)
    buffer = b""
    try:
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([pipe], [], [], left)[0]:
                    return found, False
                chunk = pipe.read(1 << 16)
                if not chunk:  # the child ended without a verdict (it failed)
                    raise RuntimeError("the SAT solver's process ended without an answer")
                buffer += chunk
                while buffer:
                    if buffer[:1] in (b"E", b"T"):
                        return found, buffer[:1] == b"E"
                    if len(buffer) < size:
                        break
                    found.append(_unpacked(buffer[1:size], height, width))
                    buffer = buffer[size:]
    finally:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)  # its CPU time joins this process's children's (cpu.py)


def _row_bytes(width: int) -> int:
    return (width + 7) // 8


def _unpacked(data: bytes, height: int, width: int) -> Board:
    n = _row_bytes(width)
    rows = [int.from_bytes(data[r * n:(r + 1) * n], "little") for r in range(height)]
    return _full_board(height, width, lambda r, c: bool(rows[r] >> c & 1))


def _full_board(height: int, width: int, filled: Callable[[int, int], bool]) -> Board:
    """A grid with every cell decided: (r, c) filled where `filled` says so."""
    grid = Board.blank(height, width)
    for r in range(height):
        for c in range(width):
            grid.set_cell(r, c, filled(r, c))
    return grid


def _search(
    rows: Sequence[Clue | None], columns: Sequence[Clue | None], board: Board,
    wanted: int, exclude: Sequence[Board], encoded: tuple[list[list[int]], int],
    deadline: float | None, emit: Callable[[Board], None],
) -> bool:
    """The solver's part of `sat_solutions`: each solution found is given to `emit` (at
    most `wanted`); True when no other solution is left, False when the deadline came."""
    from pysat.solvers import Solver

    from autoplayer.games.nonogram.solver.symmetry import invariant, symmetries

    height, width = len(rows), len(columns)
    clauses, top = encoded
    found: list[Board] = []

    def keep(grid: Board) -> None:
        found.append(grid)
        emit(grid)
    unknown = [
        r * width + c + 1
        for r in range(height)
        for c in _bits(((1 << width) - 1) & ~(board.rows_f[r] | board.rows_e[r]))
    ]
    perms = [p for p in symmetries(rows, columns)
             if invariant(board.rows_f, board.rows_e, width, p)] if unknown else []
    seen: set[tuple[int, ...]] = set()

    def key(grid: Board) -> tuple[int, ...]:
        return tuple(grid.rows_f)

    def block(solver: Solver, grid: Board) -> None:
        solver.add_clause([-v if grid.value(*divmod(v - 1, width)) else v for v in unknown])

    def images(grid: Board) -> list[Board]:
        """The grid's images under the maps that differ from it (solutions as well)."""
        out = []
        for perm in perms:
            image = Board.blank(height, width)
            for cell, to in enumerate(perm):
                image.set_cell(*divmod(to, width), grid.value(*divmod(cell, width)) == 1)
            out.append(image)
        return out

    with Solver(name="cadical195") as solver:
        solver.configure(_OPTIONS)
        for at in range(0, len(clauses), _LOAD_CHUNK):
            if deadline is not None and time.monotonic() > deadline:
                return False
            with _sigint_held():
                solver.append_formula(clauses[at: at + _LOAD_CHUNK])
        for other in exclude:
            seen.add(key(other))
            block(solver, other)
        for other in exclude:
            for image in images(other):
                if key(image) not in seen and len(found) < wanted:
                    seen.add(key(image))
                    keep(image)
                    block(solver, image)
        assume: list[int] = []
        if perms:
            top += 1
            assume = [top]  # while assumed: only grids every map leaves unchanged
            for perm in perms:
                for x in unknown:
                    y = perm[x - 1] + 1
                    if y > x:
                        solver.add_clause([-top, -x, y])
                        solver.add_clause([-top, x, -y])
        while len(found) < wanted:
            # CaDiCaL cannot be interrupted from another thread, so it runs in slices
            # of conflicts (keeping what it learned), and Ctrl-C and the clock are
            # looked at in between (a slice can still run long: see _search_in_child)
            status = None
            while status is None:
                if deadline is not None and time.monotonic() > deadline:
                    return False
                solver.conf_budget(_CONFLICT_SLICE)
                with _sigint_held():
                    status = solver.solve_limited(assumptions=assume)
            if not status:
                if not assume:
                    return True
                # no unchanged grid is left: on to all grids, the least of each orbit
                assume = []
                for perm in perms:
                    more, top = _lex_leader(perm, unknown, top)
                    for clause in more:
                        solver.add_clause(clause)
                continue
            model = solver.get_model()
            true = {v for v in model[: height * width] if v > 0}
            solution = _full_board(height, width,
                                   lambda r, c, true=true: r * width + c + 1 in true)
            for grid in (solution, *images(solution)):
                if key(grid) not in seen and len(found) < wanted:
                    seen.add(key(grid))
                    keep(grid)
                    block(solver, grid)
    return False
