"""Probing: try each value of each unknown cell and propagate.

A value that leads to a contradiction forces the other one; cells on which
both values agree are forced as well. Repeated until a whole pass decides
nothing; the pass also ranks the cells for the search to branch on (the
cell whose worse branch still decides the most cells).

A probe reads only its own row and column and the lines in which its
propagation changed a cell; when none of those lines has changed on the board
since, probing the cell again would give the same answer (no contradiction, no
new agreement, the same gains), so later passes skip it. That is exact: the
board probing ends with, and the cell it ranks best, are those of re-probing
every cell in every pass; most of the probes of a pass after the first are saved.
"""

from __future__ import annotations

from autoplayer.games.nonogram.solver.propagate import Board, Engine


class Branch:
    """A cell to guess on and the propagated board for each of its values."""

    __slots__ = ("column", "empty", "filled", "row")

    def __init__(self, row: int, column: int, filled: Board, empty: Board) -> None:
        self.row, self.column, self.filled, self.empty = row, column, filled, empty


def _changed(rows_f: list[int], rows_e: list[int], after: Board) -> tuple[int, int]:
    """(rows, columns) as bitmasks: the lines in which `after` differs from rows_f/rows_e."""
    rows = cols = 0
    bit = 1
    for f0, e0, f1, e1 in zip(rows_f, rows_e, after.rows_f, after.rows_e, strict=True):
        diff = (f0 ^ f1) | (e0 ^ e1)
        if diff:
            rows |= bit
            cols |= diff
        bit <<= 1
    return rows, cols


def _merge_agreements(
    engine: Engine, board: Board, a: Board, b: Board, rows_mask: int
) -> bool | None:
    """Sets on `board` the cells both boards decided alike (in the rows of `rows_mask`, the
    rows both changed); True if any, None on contradiction."""
    rows, cols = [], set()
    while rows_mask:
        low = rows_mask & -rows_mask
        r = low.bit_length() - 1
        rows_mask ^= low
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


def _branch(engine: Engine, board: Board, r: int, c: int, filled: bool) -> Board | None:
    """`board` with cell (r, c) set and propagated; None on a contradiction. The lines the
    propagation decided cells in are left in `engine.changed`."""
    out = board.copy()
    out.set_cell(r, c, filled)
    return None if engine.propagate(out, (r,), (c,)) is not None else out


def probe(engine: Engine, board: Board) -> Branch | None:
    """Probes `board` (updated in place) to a fixpoint.

    Returns None when the board has no solution, else the best cell to branch
    on; when the board is complete the branch is a dummy with row -1.
    """
    height, width = engine.height, engine.width
    width_mask = (1 << width) - 1
    # What each probed cell read and when: cell -> (changes so far, rows, columns, score).
    # since_rows[k] / since_cols[k]: the lines the board changed in from its k-th change on.
    seen: dict[int, tuple[int, int, int, tuple[int, int]]] = {}
    since_rows, since_cols = [0], [0]

    def record(rows_f: list[int], rows_e: list[int]) -> None:
        rows, cols = _changed(rows_f, rows_e, board)
        for k in range(len(since_rows)):
            since_rows[k] |= rows
            since_cols[k] |= cols
        since_rows.append(0)
        since_cols.append(0)

    while True:
        changed = False
        for r in range(height):
            c_bits = width_mask & ~(board.rows_f[r] | board.rows_e[r])
            while c_bits:
                low = c_bits & -c_bits
                c = low.bit_length() - 1
                c_bits ^= low
                if ((board.rows_f[r] | board.rows_e[r]) >> c) & 1:
                    continue  # decided earlier in this pass
                cell = r * width + c
                last = seen.get(cell)
                if last is not None and not (since_rows[last[0]] & last[1]
                                             or since_cols[last[0]] & last[2]):
                    continue  # nothing it reads has changed: same answer as last time
                engine.probes += 1
                on = _branch(engine, board, r, c, True)
                rows_on, cols_on = engine.changed
                off = _branch(engine, board, r, c, False)
                rows_off, cols_off = engine.changed
                if on is None and off is None:
                    return None
                if on is None or off is None:
                    before_f, before_e = board.rows_f, board.rows_e
                    board.assign(off if on is None else on)
                    record(before_f, before_e)
                    changed = True
                    if board.unknown == 0:
                        return Branch(-1, -1, board, board)
                    continue
                if on.unknown == 0 or off.unknown == 0:
                    return Branch(r, c, on, off)
                if rows_on & rows_off:
                    before_f, before_e = board.rows_f[:], board.rows_e[:]
                    merged = _merge_agreements(engine, board, on, off, rows_on & rows_off)
                    if merged is None:
                        return None
                    if merged:
                        record(before_f, before_e)
                        changed = True
                        if board.unknown == 0:
                            return Branch(-1, -1, board, board)
                        continue
                gain_on = board.unknown - on.unknown
                gain_off = board.unknown - off.unknown
                seen[cell] = (
                    len(since_rows) - 1, rows_on | rows_off | (1 << r),
                    cols_on | cols_off | (1 << c),
                    (min(gain_on, gain_off), max(gain_on, gain_off)),
                )
        if not changed:
            break
    # Every unknown cell's last probe still holds; rank them in scan order.
    best, best_score = -1, (-1, -1)
    for r in range(height):
        c_bits = width_mask & ~(board.rows_f[r] | board.rows_e[r])
        while c_bits:
            low = c_bits & -c_bits
            c = low.bit_length() - 1
            c_bits ^= low
            score = seen[r * width + c][3]
            if score > best_score:
                best_score, best = score, r * width + c
    if best < 0:  # every unknown cell was decided by the last pass
        return Branch(-1, -1, board, board)
    r, c = divmod(best, width)
    on = _branch(engine, board, r, c, True)
    off = _branch(engine, board, r, c, False)
    assert on is not None and off is not None  # as when it was last probed
    return Branch(r, c, on, off)
