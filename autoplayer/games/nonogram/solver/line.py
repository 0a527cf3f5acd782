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


def _spread(starts: int, length: int) -> int:
    """Cells covered by a block of `length` at any of `starts`."""
    cover, have = starts, 1
    while have < length:
        step = have if have <= length - have else length - have
        cover |= cover << step
        have += step
    return cover


def _reverse(x: int, width: int) -> int:
    return int(format(x, f"0{width}b")[::-1], 2) if x else 0


def _forward(clue: Clue, can_empty: int, can_fill: int) -> list[int]:
    """reach[j]: positions p where cells [0, p) can hold the first j blocks, each then a gap.

    Cells are those of the padded line; `can_empty` has the pad's bit set.
    """
    allowed = can_empty << 1  # position q follows position q-1 over an empty cell
    reach = 1 | _fill(allowed, 2 & allowed)
    out = [reach]
    for length in clue:
        starts = reach & _runs(can_fill, length) & (can_empty >> length)
        if not starts:
            out.extend(0 for _ in range(len(clue) + 1 - len(out)))
            return out
        # each block ends on its gap cell, so the landing positions lie in `allowed`
        reach = _fill(allowed, starts << (length + 1))
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
    reach = 1 | _fill(allowed, 2 & allowed)
    rev = [reach]
    for length in reversed(clue):
        starts = reach & rev_empty & (_runs(rev_fill, length) >> 1)
        if not starts:
            return []
        landed = starts << (length + 1)  # after a filled cell: not in `allowed`
        reach = landed | _fill(allowed, (landed << 1) & allowed)
        rev.append(reach)
    # positions 0..width of the reversed line map to width..0 of ours
    return [_reverse(r, width + 1) for r in reversed(rev)]


def solve_masks(clue: Clue, n: int, filled: int, empty: int) -> tuple[int, int] | None:
    """(filled, empty) of a line after complete line logic, or None if no placement fits."""
    full = (1 << n) - 1
    if not clue:
        return None if filled else (0, full)
    width = n + 1  # with the pad cell
    can_empty = (full & ~filled) | (1 << n)
    can_fill = full & ~empty
    fwd = _forward(clue, can_empty, can_fill)
    if not (fwd[-1] >> width) & 1:
        return None
    back = _backward(clue, can_empty, can_fill, width)
    may_fill = 0
    may_empty = 0
    for j, length in enumerate(clue):
        starts = fwd[j] & _runs(can_fill, length) & (can_empty >> length) & (
            back[j + 1] >> (length + 1)
        )
        may_fill |= _spread(starts, length)
        may_empty |= starts << length
    for j in range(len(clue) + 1):
        may_empty |= fwd[j] & (back[j] >> 1) & can_empty
    return full & ~may_empty, full & ~may_fill


def masks_of(cells: Sequence[int]) -> tuple[int, int]:
    filled = empty = 0
    for i, cell in enumerate(cells):
        if cell == 1:
            filled |= 1 << i
        elif cell == 0:
            empty |= 1 << i
    return filled, empty


def line_solve(clue: Clue | None, cells: Sequence[int]):
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
