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


def _doubling_steps(length: int) -> tuple[int, ...]:
    """Shifts that take a run of 1 to a run of `length` by doubling (1, 2, 4, ... then the rest)."""
    steps, have = [], 1
    while have < length:
        step = have if have <= length - have else length - have
        steps.append(step)
        have += step
    return tuple(steps)


class _StepTable(dict[int, tuple[int, ...]]):
    def __missing__(self, length: int) -> tuple[int, ...]:
        steps = self[length] = _doubling_steps(length)
        return steps


_STEPS = _StepTable()
"""_STEPS[length]: the doubling shifts for a block of that length, made on first use."""


def _runs(can_fill: int, length: int) -> int:
    """Start positions s whose cells s..s+length-1 may all be filled."""
    runs, have = can_fill, 1
    while have < length:
        step = have if have <= length - have else length - have
        runs &= runs >> step
        have += step
    return runs


_REVERSED_BYTE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
"""Each byte with its bits in reverse order: a bytes.translate table."""


def _reverse(x: int, width: int) -> int:
    """The low `width` bits of x in reverse order: a byte-table lookup, not a string."""
    size = (width + 7) >> 3
    flipped = int.from_bytes(x.to_bytes(size, "little").translate(_REVERSED_BYTE), "big")
    return flipped >> ((size << 3) - width)


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
    return [_reverse(r, width + 1) for r in reversed(rev)]


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
    programme runs on what is left (late in a solve, most of the line). On a
    blank line whose blocks are all no longer than its slack, every cell can be
    filled and every cell empty, so nothing follows (most lines of a big puzzle
    at the start).
    """
    known = filled | empty
    if n and not (known & 1 or known >> (n - 1)):  # both ends unknown: nothing to cut off
        if not known and clue and n - sum(clue) - len(clue) + 1 >= max(clue):
            return 0, 0
        return _solve_dp(clue, n, filled, empty)
    full = (1 << n) - 1
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


def _solve_one(length: int, full: int, filled: int, empty: int) -> tuple[int, int] | None:
    """`_solve_dp` for a single block, in closed form.

    Its starts are where `length` cells may be filled and every filled cell lies
    inside; it is filled where all placements overlap, empty where none reaches.
    """
    starts = full & ~empty
    steps = _STEPS[length]
    for step in steps:
        starts &= starts >> step
    if filled:
        low = (filled & -filled).bit_length()  # one past the lowest filled cell
        starts &= (1 << low) - 1
        starts = (starts >> (filled.bit_length() - length)) << (filled.bit_length() - length) \
            if filled.bit_length() > length else starts
    if not starts:
        return None
    first = (starts & -starts).bit_length() - 1
    must = ((1 << (first + length)) - 1) >> (starts.bit_length() - 1) << (starts.bit_length() - 1)
    cover = starts
    for step in steps:
        cover |= cover << step
    return must, full & ~cover


def _solve_dp(clue: Clue, n: int, filled: int, empty: int) -> tuple[int, int] | None:
    """`solve_masks` by the dynamic programme over the whole line.

    The hot path of the whole solver, so `_plan`'s steps are inlined here, and the
    k+1 backward reach sets are reversed in one go: packed side by side into one
    integer, whose reversal reverses each set and their order.
    """
    full = (1 << n) - 1
    if not clue:
        return None if filled else (0, full)
    if len(clue) == 1:
        return _solve_one(clue[0], full, filled, empty)
    width = n + 1
    can_empty = (full & ~filled) | (1 << n)
    can_fill = full & ~empty
    # fits[length]: starts where a block of that length and its gap cell fit
    fits: dict[int, int] = {}
    steps = _STEPS
    for length in clue:
        if length not in fits:
            r = can_fill
            for step in steps[length]:
                r &= r >> step
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
    # can_empty and every fits[length] are reversed in one go, side by side a whole number
    # of bytes each; a block's fits reversed is where its far end may be, so less `length`
    size = (width + 7) >> 3
    bits = size << 3
    table = _REVERSED_BYTE
    packed = can_empty
    for r in fits.values():
        packed = (packed << bits) | r
    rev = int.from_bytes(packed.to_bytes(size * (len(fits) + 1), "little").translate(table), "big")
    unused = bits - width
    wide = (1 << bits) - 1
    rev_empty = (rev & wide) >> unused
    rev_fits: dict[int, int] = {}
    for length in fits:
        rev >>= bits
        rev_fits[length] = (rev & wide) >> (unused + length)
    allowed = rev_empty << 1
    seeds = 2 & allowed
    reach = 1 | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
    # the reach sets go side by side into one integer, a whole number of bytes each, the
    # first set highest; reversing it in one go then reverses each set and their order
    slot = (width + 8) >> 3  # bytes for one reach set (positions 0..width)
    stride = slot << 3
    packed = reach
    for length in reversed(clue):
        r = rev_fits[length]
        landed = (reach & r) << (length + 1)
        seeds = (landed << 1) & allowed
        reach = landed | ((((allowed + seeds) ^ allowed) | seeds) & allowed)
        packed = (packed << stride) | reach
    k = len(clue)
    packed = packed.to_bytes(slot * (k + 1), "little").translate(table)
    # now back[k] sits lowest and back[0] highest: the blocks are taken last to first
    back = int.from_bytes(packed, "big") >> (stride - 1 - width)
    mask = (1 << stride) - 1
    may_fill = 0
    back_next = back & mask
    may_empty = fwd[k] & (back_next >> 1)
    for j in range(k - 1, -1, -1):
        back >>= stride
        back_j = back & mask
        length = clue[j]
        fj = fwd[j]
        starts = fj & fits[length] & (back_next >> (length + 1))
        cover = starts
        for step in steps[length]:
            cover |= cover << step
        may_fill |= cover
        may_empty |= (starts << length) | (fj & (back_j >> 1))
        back_next = back_j
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
