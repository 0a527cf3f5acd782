"""The complete line solver against brute-force enumeration of every filling of the line."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, line_clue
from autoplayer.games.nonogram.solver import line_solve


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
