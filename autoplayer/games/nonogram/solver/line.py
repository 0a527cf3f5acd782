"""The complete line solver: every cell that is the same in all placements of a clue.

A line of n cells is two bitmasks, `filled` and `empty` (bit i = cell i is known
filled / known empty). The solver is the O(n·k) dynamic programme over
(position, blocks placed), run bit-parallel: for each block count j, the set
of positions reachable from the left (and, on the mirrored line, from the
right) is one Python integer, so each of the k steps is a handful of
big-integer operations instead of an inner loop over positions. The k+1 sets
of each pass are packed side by side into one integer, so that what follows
from them (which cells some placement fills, which it leaves empty) is a few
operations on the packed integers, not a loop over blocks.

The line is padded with one known-empty cell at index n, so every block is
"block, then one empty cell". Advancing over a stretch of cells that may be
empty from a set of seed positions is one addition: carries ripple through
each run of allowed positions.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    import numpy as np

Clue = tuple[int, ...]


_REVERSED_BYTE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
"""Each byte with its bits in reverse order: a bytes.translate table."""


def _doubling_steps(length: int, have: int = 1) -> tuple[int, ...]:
    """Shifts that take runs of `have` to runs of `length`, each at most doubling (1, 2, 4,
    ... then the rest): a run of b is two runs of a <= b overlapping by b - a."""
    steps = []
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


_Runs = tuple[tuple[int, int], ...]
"""(shift, length): the steps that narrow a mask of fillable cells to the starts of
runs of each length in turn, shortest first; length 0 for a step between two."""


_Layout = namedtuple("_Layout", "runs blocks doubling shifts fold_empty fold_fill")
_Layout.__doc__ = """Constants for working on a clue's packed sets, one block per slot (a
plain namedtuple: typing.NamedTuple would import typing, a cost at every start-up).

- runs (_Runs): how to narrow fillable cells to each of the clue's block lengths' starts;
- blocks: per block, (length + 1, index of its length among the clue's, shortest first);
- doubling: (slots, shift), the doubling steps that grow each block's run to a power of two;
- shifts: (slots, shift), moves by the rest of each block's length, bit by bit;
- fold_empty: shifts that OR k+1 slots into the lowest;
- fold_fill: shifts that OR k slots into the lowest.
"""


def _fold(slots: int, stride: int) -> tuple[int, ...]:
    """Shifts that OR `slots` packed slots into the lowest: the upper half onto the
    lower, then again, log2(slots) times rather than once per slot."""
    out = []
    while slots > 1:
        half = (slots + 1) >> 1
        out.append(half * stride)
        slots = half
    return tuple(out)


def _layout(clue: Clue, stride: int) -> _Layout:
    """Block j's cover is grown in slot k-1-j, down from its last cells: a run of the
    largest power of two not above its length, then that run again moved down by
    the rest of the length."""
    k = len(clue)
    one = (1 << stride) - 1
    slot = [one << ((k - 1 - j) * stride) for j in range(k)]
    doubling = []
    power = 1
    while any(length >= 2 * power for length in clue):
        doubling.append(
            (sum(s for s, length in zip(slot, clue, strict=True) if length >= 2 * power), power)
        )
        power <<= 1
    rest = [length - (1 << (length.bit_length() - 1)) for length in clue]
    shifts = []
    for bit in range(max(rest, default=0).bit_length()):
        mask = sum(s for s, r in zip(slot, rest, strict=True) if (r >> bit) & 1)
        if mask:
            shifts.append((mask, 1 << bit))
    lengths = sorted(set(clue))
    blocks = tuple((length + 1, lengths.index(length)) for length in clue)
    return _Layout(
        _runs(clue), blocks, tuple(doubling), tuple(shifts), _fold(k + 1, stride), _fold(k, stride)
    )


def _runs(clue: Clue) -> _Runs:
    """Each block length's run grown from the one before it (a length of 1 needs no step)."""
    out: list[tuple[int, int]] = []
    have = 1
    for length in sorted(set(clue)):
        steps = _doubling_steps(length, have) or (0,)
        out += [(step, 0) for step in steps[:-1]]
        out.append((steps[-1], length))
        have = length
    return tuple(out)


class _LayoutTable(dict[tuple[Clue, int], _Layout]):
    def __missing__(self, key: tuple[Clue, int]) -> _Layout:
        if len(self) > _LAYOUT_LIMIT:
            self.clear()
        layout = self[key] = _layout(*key)
        return layout


_LAYOUT_LIMIT = 100_000
_LAYOUTS = _LayoutTable()
"""_LAYOUTS[clue, stride], made on first use."""


def _passes(
    n: int, filled: int, empty: int, layout: _Layout, stride: int
) -> tuple[int, int, int] | None:
    """The forward and backward reach sets, packed; None when no placement fits.

    Returns (fwd, gaps, back), integers of k+1 slots of `stride` bits (at least
    n + 2), set j of the programme in slot k-j (so set k is lowest):
    - fwd[j]: positions p where cells [0, p) hold the first j blocks, each then a gap;
    - back[j]: positions p where cells [p, n) hold the last k-j blocks, each after a gap;
    - gaps[j], j >= 1: the gap cell after block j (1-based) in every placement of
      the whole clue, that is start + length.
    """
    runs, blocks = layout.runs, layout.blocks
    full = (1 << n) - 1
    width = n + 1  # with the pad cell
    can_empty = (full & ~filled) | (1 << n)
    can_fill = full & ~empty
    # The backward pass is the forward pass over the mirrored line (cells in reverse
    # order, the pad still last) and the reversed clue. Both masks are mirrored in one
    # go, and each block length's `fits` (starts where the block and then its gap may
    # go) is computed for both lines at once: the mirrored line's sit at bit `off`.
    size = (n + 7) >> 3
    bits = size << 3
    rev = int.from_bytes(
        (((full & ~filled) << bits) | can_fill).to_bytes(size << 1, "little")
        .translate(_REVERSED_BYTE), "big",
    )
    rev_empty = ((rev & ((1 << bits) - 1)) >> (bits - n)) | (1 << n)
    off = width << 1  # far enough up that no shift below brings the halves together
    both_fill = can_fill | ((rev >> (bits + bits - n)) << off)
    both_empty = can_empty | (rev_empty << off)
    fits = []  # per distinct block length, shortest first: ours low, the mirror's at `off`
    run = both_fill
    for shift, length in runs:
        run &= run >> shift
        if length:
            fits.append(run & (both_empty >> length))
    # Advancing over cells that may be empty is one addition: carries ripple through
    # each run of allowed positions. A block lands just past its gap.
    allowed = can_empty << 1  # position q follows position q-1 over an empty cell
    reach = allowed | 1
    reach &= ~(reach + 1)  # no block yet: position 0 and the empty cells after it
    fwd, ends = reach, 0
    for span, i in blocks:
        seeds = (reach & fits[i]) << span
        if not seeds:
            return None
        reach = (((allowed + seeds) ^ allowed) | seeds) & allowed
        fwd = (fwd << stride) | reach
        ends = (ends << stride) | seeds
    if not (reach >> width) & 1:
        return None
    # the mirror's pass runs at bit `off`, so its sets are packed `off` bits up
    allowed = rev_empty << (off + 1)
    reach = allowed | (1 << off)
    reach &= ~(reach + (1 << off))
    back = reach
    for span, i in reversed(blocks):
        seeds = (reach & fits[i]) << span
        reach = (((allowed + seeds) ^ allowed) | seeds) & allowed
        back = (back << stride) | reach
    back >>= off
    # Mirroring the packed sets as one number mirrors each set and reverses their order.
    # Position q of the mirrored line is position n - q of ours.
    back = int.from_bytes(
        back.to_bytes((stride >> 3) * (len(blocks) + 1), "little").translate(_REVERSED_BYTE),
        "big",
    ) >> (stride - 1 - n)
    return fwd, (ends >> 1) & back, back


def _block_lengths(filled: int) -> Clue:
    """The run lengths of a mask of filled cells, lowest cells first."""
    out = []
    while filled:
        low = (filled & -filled).bit_length() - 1
        run = filled >> low
        length = (~run & (run + 1)).bit_length() - 1
        out.append(length)
        filled = (run >> length) << (low + length)
    return tuple(out)


class _BlockTable(dict[int, Clue]):
    def __missing__(self, filled: int) -> Clue:
        if len(self) > _BLOCKS_LIMIT:
            self.clear()
        blocks = self[filled] = _block_lengths(filled)
        return blocks


_BLOCKS_LIMIT = 200_000
_BLOCKS = _BlockTable()
"""_BLOCKS[filled]: `_block_lengths(filled)`, kept: a line's known ends recur in every re-solve."""


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
        return (filled, empty) if _BLOCKS[filled] == clue else None
    lead = (~known & (known + 1)).bit_length() - 1  # known cells at the start
    edge = empty & ((1 << lead) - 1)
    start = edge.bit_length()  # cells [0, start) are known and cell start-1 is empty
    top = (full & ~known).bit_length()  # cells [top, n) are known
    edge = empty >> top
    stop = top + (edge & -edge).bit_length() - 1 if edge else n  # cell stop is empty
    if start == 0 and stop == n:
        return _solve_dp(clue, n, filled, empty)
    blocks = _BLOCKS
    head = blocks[filled & ((1 << start) - 1)]
    tail = blocks[filled >> stop]
    k = len(clue)
    if len(head) + len(tail) > k or head != clue[: len(head)]:
        return None
    if tail and tail != clue[k - len(tail):]:
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

    A cell may be empty where a forward and a backward reach set for the same
    number of blocks meet on it, or as a block's gap; it may be filled where some
    block's placement covers it. Every
    block's placements are in the packed `gaps`, so both questions are answered
    for all blocks at once, with a few operations on the packed integers.
    """
    full = (1 << n) - 1
    if not clue:
        return None if filled else (0, full)
    if len(clue) == 1:
        return _solve_one(clue[0], full, filled, empty)
    stride = ((n + 9) >> 3) << 3  # whole bytes holding positions 0..n+1
    layout = _LAYOUTS[clue, stride]
    passes = _passes(n, filled, empty, layout, stride)
    if passes is None:
        return None
    fwd, gaps, back = passes
    _, _, doubling, shifts, fold_empty, fold_fill = layout
    may_empty = (fwd & back) | gaps
    for shift in fold_empty:
        may_empty |= may_empty >> shift
    run = gaps >> 1  # each placement's last cell, grown downwards over its block
    for slots, shift in doubling:
        run |= (run & slots) >> shift
    moved = run
    for slots, shift in shifts:
        part = moved & slots
        moved = (moved ^ part) | (part >> shift)
    may_fill = run | moved
    for shift in fold_fill:
        may_fill |= may_fill >> shift
    return full & ~may_empty, full & ~may_fill


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
    stride = ((n + 9) >> 3) << 3
    passes = _passes(n, filled, empty, _LAYOUTS[clue, stride], stride)
    if passes is None:
        return None
    _, gaps, _ = passes
    k, one = len(clue), (1 << stride) - 1
    return [
        ((gaps >> ((k - 1 - j) * stride)) & one) >> length
        for j, length in enumerate(clue)
    ]
