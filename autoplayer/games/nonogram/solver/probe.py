"""Probing: try each value of each unknown cell and propagate.

A value that leads to a contradiction forces the other one; cells on which
both values agree are forced as well. Repeated until a whole pass decides
nothing; the pass also ranks the cells for the search to branch on (the
cell whose worse branch still decides the most cells).
"""

from __future__ import annotations

from autoplayer.games.nonogram.solver.propagate import Board, Engine


class Branch:
    """A cell to guess on and the propagated board for each of its values."""

    __slots__ = ("column", "empty", "filled", "row")

    def __init__(self, row: int, column: int, filled: Board, empty: Board) -> None:
        self.row, self.column, self.filled, self.empty = row, column, filled, empty


def _merge_agreements(engine: Engine, board: Board, a: Board, b: Board) -> bool | None:
    """Sets on `board` the cells both boards decided alike; True if any, None on contradiction."""
    rows, cols = [], set()
    for r in range(engine.height):
        known = board.rows_f[r] | board.rows_e[r]
        new_f = a.rows_f[r] & b.rows_f[r] & ~known
        new_e = a.rows_e[r] & b.rows_e[r] & ~known
        if not (new_f | new_e):
            continue
        rows.append(r)
        for new, filled in ((new_f, True), (new_e, False)):
            while new:
                low = new & -new
                c = low.bit_length() - 1
                new ^= low
                board.set_cell(r, c, filled)
                cols.add(c)
    if not rows:
        return False
    if engine.propagate(board, rows, cols) is not None:
        return None
    return True


def probe(engine: Engine, board: Board) -> Branch | None:
    """Probes `board` (updated in place) to a fixpoint.

    Returns None when the board has no solution, else the best cell to branch
    on; when the board is complete the branch is a dummy with row -1.
    """
    width_mask = (1 << engine.width) - 1
    while True:
        changed = False
        best: Branch | None = None
        best_score = (-1, -1)
        for r in range(engine.height):
            c_bits = width_mask & ~(board.rows_f[r] | board.rows_e[r])
            while c_bits:
                low = c_bits & -c_bits
                c = low.bit_length() - 1
                c_bits ^= low
                if ((board.rows_f[r] | board.rows_e[r]) >> c) & 1:
                    continue  # decided earlier in this pass
                engine.probes += 1
                on = board.copy()
                on.set_cell(r, c, True)
                on_bad = engine.propagate(on, (r,), (c,)) is not None
                off = board.copy()
                off.set_cell(r, c, False)
                off_bad = engine.propagate(off, (r,), (c,)) is not None
                if on_bad and off_bad:
                    return None
                if on_bad or off_bad:
                    board.assign(off if on_bad else on)
                    changed = True
                    if board.unknown == 0:
                        return Branch(-1, -1, board, board)
                    continue
                if on.unknown == 0 or off.unknown == 0:
                    return Branch(r, c, on, off)
                merged = _merge_agreements(engine, board, on, off)
                if merged is None:
                    return None
                if merged:
                    changed = True
                    if board.unknown == 0:
                        return Branch(-1, -1, board, board)
                    continue
                gain_on = board.unknown - on.unknown
                gain_off = board.unknown - off.unknown
                score = (min(gain_on, gain_off), max(gain_on, gain_off))
                if score > best_score:
                    best_score, best = score, Branch(r, c, on, off)
        if not changed:
            if best is None:  # every unknown cell was decided by the last pass
                return Branch(-1, -1, board, board)
            return best
