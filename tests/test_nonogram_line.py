"""The complete line solver against brute-force enumeration of every filling of the line."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, line_clue
from autoplayer.games.nonogram.solver import line_solve, solve_masks
from autoplayer.games.nonogram.solver.line import block_starts, masks_of


def brute_force(clue: tuple[int, ...], cells: list[int]) -> list[int] | None:
    """Every filling of the line that matches the known cells and the clue; their agreement."""
    free = [i for i, known in enumerate(cells) if known == UNKNOWN]
    fits = []
    for values in itertools.product((EMPTY, FILLED), repeat=len(free)):
        filling = list(cells)
        for i, value in zip(free, values, strict=True):
            filling[i] = value
        if line_clue(filling) == clue:
            fits.append(filling)
    if not fits:
        return None
    return [
        column[0] if all(v == column[0] for v in column) else UNKNOWN
        for column in zip(*fits, strict=True)
    ]


@st.composite
def lines(draw: st.DrawFn) -> tuple[tuple[int, ...], list[int]]:
    n = draw(st.integers(1, 14))
    if draw(st.booleans()):
        # the clue of some real filling, so most cases have placements
        clue = line_clue(draw(st.lists(st.sampled_from((EMPTY, FILLED)), min_size=n, max_size=n)))
    else:
        # an arbitrary clue: often too long or at odds with the known cells
        clue = tuple(draw(st.lists(st.integers(1, 6), max_size=5)))
    cells = draw(
        st.lists(
            st.sampled_from((UNKNOWN, UNKNOWN, UNKNOWN, EMPTY, FILLED)), min_size=n, max_size=n
        )
    )
    return clue, cells


@settings(max_examples=2000, deadline=None)
@given(lines())
def test_line_solver_matches_brute_force(case: tuple[tuple[int, ...], list[int]]) -> None:
    clue, cells = case
    expected = brute_force(clue, cells)
    got = line_solve(clue, cells)
    if expected is None:
        assert got is None
    else:
        assert got is not None
        assert got.tolist() == expected


def test_examples_by_hand() -> None:
    assert line_solve((3,), [UNKNOWN] * 4).tolist() == [-1, 1, 1, -1]
    assert line_solve((2, 1), [UNKNOWN] * 4).tolist() == [1, 1, 0, 1]
    assert line_solve((), [UNKNOWN, UNKNOWN]).tolist() == [0, 0]
    assert line_solve((), [UNKNOWN, FILLED]) is None
    assert line_solve((5,), [UNKNOWN] * 4) is None
    # complete but not overlap-only: a filled cell pins the single block's reach
    assert line_solve((2,), [UNKNOWN, UNKNOWN, FILLED, UNKNOWN, UNKNOWN]).tolist() == [
        0, -1, 1, -1, 0,
    ]
    # a deduction left-right overlap misses: the 1 cannot be first, so cell 0 is the 3's
    assert line_solve((3, 1), [UNKNOWN, UNKNOWN, UNKNOWN, EMPTY, FILLED, EMPTY]).tolist() == [
        1, 1, 1, 0, 1, 0,
    ]


def test_unknown_clue_decides_nothing_and_keeps_cells() -> None:
    cells = np.array([UNKNOWN, FILLED, EMPTY, UNKNOWN], dtype=np.int8)
    out = line_solve(None, cells)
    assert out.tolist() == cells.tolist()
    assert out.dtype == np.int8
    assert out is not cells


def test_accepts_numpy_and_returns_int8() -> None:
    out = line_solve((1, 1), np.full(3, UNKNOWN, dtype=np.int8))
    assert out.dtype == np.int8
    assert out.tolist() == [1, 0, 1]


def test_long_lines_beyond_a_machine_word() -> None:
    n = 200
    clue = (50, 1, 100, 3)  # 50+1+100+3 + 3 gaps = 157: overlaps decide the middle
    out = line_solve(clue, [UNKNOWN] * n)
    expected = [UNKNOWN] * n
    # each block's overlap between its leftmost and rightmost placements
    slack = n - 157
    left = 0
    for length in clue:
        for i in range(left + slack, left + length):
            expected[i] = FILLED
        left += length + 1
    assert out.tolist() == expected



def by_tables(clue: tuple[int, ...], cells: list[int]) -> tuple[list[int], int, int] | None:
    """Per block the mask of its possible starts, and the cells some placement fills and
    some leaves empty, from the textbook (position, blocks placed) tables.

    Slow and plain, so it can check lines far too long to enumerate.
    """
    n, k = len(cells), len(clue)

    def fits(start: int, length: int) -> bool:
        """The block's cells may be filled, and the cell after it (if any) empty."""
        if start + length > n or EMPTY in cells[start:start + length]:
            return False
        return start + length == n or cells[start + length] != FILLED

    def after(start: int, length: int) -> int:
        return min(start + length + 1, n)

    # head[j][p]: cells [0, p) can hold the first j blocks, each then its gap
    head = [[False] * (n + 1) for _ in range(k + 1)]
    for j in range(k + 1):
        for p in range(n + 1):
            start = j == 0 and p == 0
            step = p > 0 and head[j][p - 1] and cells[p - 1] != FILLED
            block = j > 0 and any(
                head[j - 1][s] and fits(s, clue[j - 1]) and after(s, clue[j - 1]) == p
                for s in range(p)
            )
            head[j][p] = start or step or block
    # tail[j][p]: cells [p, n) can hold the blocks from j on, each then its gap (if room)
    tail = [[False] * (n + 1) for _ in range(k + 1)]
    for j in range(k, -1, -1):
        for p in range(n, -1, -1):
            end = j == k and p == n
            step = p < n and tail[j][p + 1] and cells[p] != FILLED
            block = j < k and fits(p, clue[j]) and tail[j + 1][after(p, clue[j])]
            tail[j][p] = end or step or block
    if not tail[0][0]:
        return None
    starts = [
        sum(1 << s for s in range(n)
            if head[j][s] and fits(s, length) and tail[j + 1][after(s, length)])
        for j, length in enumerate(clue)
    ]
    # a cell may be filled by a block over it, empty between blocks or as a block's gap
    may_fill = may_empty = 0
    for length, mask in zip(clue, starts, strict=True):
        for s in range(n):
            if (mask >> s) & 1:
                may_fill |= ((1 << length) - 1) << s
                may_empty |= 1 << (s + length)
    may_empty &= (1 << n) - 1
    may_empty |= sum(
        1 << p for p in range(n)
        if cells[p] != FILLED and any(head[j][p] and tail[j][p + 1] for j in range(k + 1))
    )
    return starts, may_fill, may_empty


@st.composite
def long_lines(draw: st.DrawFn) -> tuple[tuple[int, ...], list[int]]:
    """Lines of up to 120 cells with blocks up to 40 long, known cells mostly from a solution."""
    n = draw(st.integers(1, 120))
    density = draw(st.floats(0.2, 0.95))
    solution = [FILLED if draw(st.floats(0, 1)) < density else EMPTY for _ in range(n)]
    if draw(st.integers(0, 4)):
        clue = line_clue(solution)
    else:
        clue = tuple(draw(st.lists(st.integers(1, 40), max_size=8)))
    known = draw(st.floats(0, 0.9))
    cells = []
    for value in solution:
        if draw(st.floats(0, 1)) >= known:
            cells.append(UNKNOWN)
        elif draw(st.integers(0, 9)):
            cells.append(value)
        else:
            cells.append(FILLED if value == EMPTY else EMPTY)  # at odds with the solution
    return clue, cells


@settings(max_examples=1000, deadline=None)
@given(long_lines())
def test_long_lines_and_block_starts_match_the_tables(
    case: tuple[tuple[int, ...], list[int]],
) -> None:
    """Many blocks of many lengths per line: every slot of the packed sets is exercised."""
    clue, cells = case
    n, full = len(cells), (1 << len(cells)) - 1
    filled, empty = masks_of(cells)
    expected = by_tables(clue, cells)
    got = block_starts(clue, n, filled, empty), solve_masks(clue, n, filled, empty)
    if expected is None:
        assert got == (None, None)
    else:
        starts, may_fill, may_empty = expected
        assert got == (starts, (full & ~may_empty, full & ~may_fill))
