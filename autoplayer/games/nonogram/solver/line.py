"""The complete line solver: every cell that is the same in all placements of a clue.

A line of n cells is two bitmasks, `filled` and `empty` (bit i = cell i is known
filled / known empty). The solver is the O(n·k) dynamic programme over
(position, blocks placed), run bit-parallel: for each block count j, the set
of positions reachable from the left (and, on the reversed line, from the
right) is one Python integer, so each of the k steps is a handful of
big-integer operations instead of an inner loop over positions.

The line is padded with one known-empty cell at index n, so every block is
"block, then one empty cell". Advancing over a stretch of cells that may be
empty from a set of seed positions is one addition: carries ripple through
each run of allowed positions (see `_fill`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

Clue = tuple[int, ...]


def _fill(allowed: int, seeds: int) -> int:
    """Positions reached from `seeds` (a subset of `allowed`) by stepping right within `allowed`."""
    return (((allowed + seeds) ^ allowed) | seeds) & allowed


def _runs(can_fill: int, length: int) -> int:
    """Start positions s whose cells s..s+length-1 may all be filled."""
    runs, have = can_fill, 1
    while have < length:
        step = have if have <= length - have else length - have
        runs &= runs >> step
        have += step
    return runs


def _reverse(x: int, width: int) -> int:
    return int(format(x, f"0{width}b")[::-1], 2) if x else 0


def _forward(clue: Clue, can_empty: int, runs: dict[int, int]) -> list[int]:
    """reach[j]: positions p where cells [0, p) can hold the first j blocks, each then a gap.

    Cells are those of the padded line; `can_empty` has the pad's bit set and
    `runs[length]` is `_runs(can_fill, length)`.
    """
    allowed = can_empty << 1  # position q follows position q-1 over an empty cell
    seeds = 2 & allowed
    reach = 1 | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
    out = [reach]
    for length in clue:
        # each block ends on its gap cell, so the landing positions lie in `allowed`
        seeds = (reach & runs[length] & (can_empty >> length)) << (length + 1)
        if not seeds:
            return []
        reach = (((allowed + seeds) ^ allowed) | seeds) & allowed
        out.append(reach)
    return out


def _backward(clue: Clue, can_empty: int, can_fill: int, width: int) -> list[int]:
    """back[j]: positions p from which cells [p, n+1) can hold blocks j+1..k, each then a gap.

    Computed as the forward reach of the reversed line, where each block is
    "a gap, then the block": the reversed line starts with the pad cell.
    """
    rev_empty = _reverse(can_empty, width)
    rev_fill = _reverse(can_fill, width)
    allowed = rev_empty << 1
    seeds = 2 & allowed
    reach = 1 | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
    rev = [reach]
    runs: dict[int, int] = {}
    for length in reversed(clue):
        r = runs.get(length)
        if r is None:
            r = runs[length] = _runs(rev_fill, length) >> 1
        landed = (reach & rev_empty & r) << (length + 1)
        if not landed:
            return []
        seeds = (landed << 1) & allowed  # `landed` follows a filled cell: not in `allowed`
        reach = landed | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
        rev.append(reach)
    # positions 0..width of the reversed line map to width..0 of ours
    fmt = f"0{width + 1}b"
    return [int(format(r, fmt)[::-1], 2) for r in reversed(rev)]


def _plan(clue: Clue, n: int, filled: int, empty: int):
    """The forward and backward reach sets, or None when no placement fits."""
    full = (1 << n) - 1
    width = n + 1  # with the pad cell
    can_empty = (full & ~filled) | (1 << n)
    can_fill = full & ~empty
    runs = {length: _runs(can_fill, length) for length in set(clue)}
    fwd = _forward(clue, can_empty, runs)
    if not fwd or not (fwd[-1] >> width) & 1:
        return None
    back = _backward(clue, can_empty, can_fill, width)
    return can_empty, runs, fwd, back


def _block_lengths(filled: int) -> list[int]:
    """The run lengths of a mask of filled cells, lowest cells first."""
    out = []
    while filled:
        low = (filled & -filled).bit_length() - 1
        run = filled >> low
        length = (~run & (run + 1)).bit_length() - 1
        out.append(length)
        filled = (run >> length) << (low + length)
    return out


def solve_masks(clue: Clue, n: int, filled: int, empty: int) -> tuple[int, int] | None:
    """(filled, empty) of a line after complete line logic, or None if no placement fits.

    A known stretch at either end that closes with an empty cell holds whole
    blocks: they are matched against the clue and cut off, and the dynamic
    programme runs on what is left (late in a solve, most of the line).
    """
    full = (1 << n) - 1
    known = filled | empty
    if known == full:
        return (filled, empty) if tuple(_block_lengths(filled)) == clue else None
    lead = (~known & (known + 1)).bit_length() - 1  # known cells at the start
    edge = empty & ((1 << lead) - 1)
    start = edge.bit_length()  # cells [0, start) are known and cell start-1 is empty
    top = (full & ~known).bit_length()  # cells [top, n) are known
    edge = empty >> top
    stop = top + (edge & -edge).bit_length() - 1 if edge else n  # cell stop is empty
    if start == 0 and stop == n:
        return _solve_dp(clue, n, filled, empty)
    head = _block_lengths(filled & ((1 << start) - 1))
    tail = _block_lengths(filled >> stop) if stop < n else []
    k = len(clue)
    if len(head) + len(tail) > k or tuple(head) != clue[: len(head)]:
        return None
    if tail and tuple(tail) != clue[k - len(tail):]:
        return None
    width = stop - start
    window = (1 << width) - 1
    inner = _solve_dp(
        clue[len(head): k - len(tail)], width, (filled >> start) & window,
        (empty >> start) & window,
    )
    if inner is None:
        return None
    outside = full & ~(window << start)
    return (filled & outside) | (inner[0] << start), (empty & outside) | (inner[1] << start)


def _solve_dp(clue: Clue, n: int, filled: int, empty: int) -> tuple[int, int] | None:
    """`solve_masks` by the dynamic programme over the whole line.

    The hot path of the whole solver, so `_plan`'s steps are inlined here, and the
    k+1 backward reach sets are reversed in one go: packed side by side into one
    integer, whose reversal reverses each set and their order.
    """
    full = (1 << n) - 1
    if not clue:
        return None if filled else (0, full)
    width = n + 1
    can_empty = (full & ~filled) | (1 << n)
    can_fill = full & ~empty
    # fits[length]: starts where a block of that length and its gap cell fit
    fits: dict[int, int] = {}
    for length in clue:
        if length not in fits:
            r, have = can_fill, 1
            while have < length:
                step = have if have <= length - have else length - have
                r &= r >> step
                have += step
            fits[length] = r & (can_empty >> length)
    allowed = can_empty << 1
    seeds = 2 & allowed
    reach = 1 | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
    fwd = [reach]
    for length in clue:
        seeds = (reach & fits[length]) << (length + 1)
        if not seeds:
            return None
        reach = (((allowed + seeds) ^ allowed) | seeds) & allowed
        fwd.append(reach)
    if not (reach >> width) & 1:
        return None
    # backward: forward over the reversed line, where each block is "a gap, then the block"
    fmt = f"0{width}b"
    rev_empty = int(format(can_empty, fmt)[::-1], 2)
    rev_fill = int(format(can_fill, fmt)[::-1], 2) if can_fill else 0
    allowed = rev_empty << 1
    seeds = 2 & allowed
    reach = 1 | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
    stride = width + 1
    packed = reach
    shift = 0
    rev_fits: dict[int, int] = {}
    for length in reversed(clue):
        r = rev_fits.get(length)
        if r is None:
            r, have = rev_fill, 1
            while have < length:
                step = have if have <= length - have else length - have
                r &= r >> step
                have += step
            r = rev_fits[length] = rev_empty & (r >> 1)
        landed = (reach & r) << (length + 1)
        seeds = (landed << 1) & allowed
        reach = landed | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
        shift += stride
        packed |= reach << shift
    # reversing the packed string reverses each set and their order: back[j] sits at j*stride
    back = int(format(packed, f"0{stride * (len(clue) + 1)}b")[::-1], 2)
    mask = (1 << stride) - 1
    may_fill = 0
    may_empty = 0
    back_j = back & mask
    for j, length in enumerate(clue):
        back >>= stride
        back_next = back & mask
        fj = fwd[j]
        starts = fj & fits[length] & (back_next >> (length + 1))
        cover, have = starts, 1
        while have < length:
            step = have if have <= length - have else length - have
            cover |= cover << step
            have += step
        may_fill |= cover
        may_empty |= (starts << length) | (fj & (back_j >> 1))
        back_j = back_next
    may_empty |= fwd[-1] & (back_j >> 1)
    may_empty &= can_empty
    return full & ~may_empty, full & ~may_fill


def masks_of(cells: Sequence[int]) -> tuple[int, int]:
    filled = empty = 0
    for i, cell in enumerate(cells):
        if cell == 1:
            filled |= 1 << i
        elif cell == 0:
            empty |= 1 << i
    return filled, empty


def line_solve(clue: Clue | None, cells: Sequence[int] | np.ndarray) -> np.ndarray | None:
    """Complete line logic on one line of UNKNOWN/EMPTY/FILLED (-1/0/1) cells.

    Returns a new int8 array in which every cell that has the same value in all
    placements of `clue` consistent with the known cells is set, or None when
    no placement exists. `clue=None` means the clue is unknown: nothing follows.
    """
    import numpy as np

    out = np.array(cells, dtype=np.int8)
    if clue is None:
        return out
    filled, empty = masks_of(out.tolist())
    solved = solve_masks(tuple(clue), len(out), filled, empty)
    if solved is None:
        return None
    new_filled, new_empty = solved
    for i in range(len(out)):
        if (new_filled >> i) & 1:
            out[i] = 1
        elif (new_empty >> i) & 1:
            out[i] = 0
    return out


def block_starts(clue: Clue, n: int, filled: int, empty: int) -> list[int] | None:
    """Per block, the mask of start cells it can take in some placement; None if none fits."""
    plan = _plan(clue, n, filled, empty)
    if plan is None:
        return None
    can_empty, runs, fwd, back = plan
    return [
        fwd[j] & runs[length] & (can_empty >> length) & (back[j + 1] >> (length + 1))
        for j, length in enumerate(clue)
    ]
