"""Counting line-solvable and unique nonograms: tables, kernel and the known sequences."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from autoplayer.errors import UserError
from autoplayer.games.nonogram.count import (
    check_size,
    count_grids,
    line_clues,
    line_table,
    spread_table,
)
from autoplayer.games.nonogram.model import UNKNOWN, Clue, line_clue

# Line-solvable counts, olligobber/LocalNonogram (notes §4): (rows, columns) -> count.
LINE_SOLVABLE = {
    (0, 0): 1, (1, 1): 2, (2, 2): 14, (3, 3): 384, (4, 4): 51234,
    (3, 2): 52, (4, 2): 208, (5, 2): 810, (6, 2): 3178, (7, 2): 12418,
    (4, 3): 3116, (5, 3): 24052, (6, 3): 188042, (5, 4): 801832,
}
# Clue sets with exactly one solution: OEIS A242876 (squares) and A384764 (rectangles).
UNIQUE = {
    (0, 0): 1, (1, 1): 2, (2, 2): 14, (3, 3): 384, (4, 4): 52362,
    (2, 3): 52, (2, 4): 210, (2, 5): 816, (2, 6): 3206,
    (3, 1): 8, (3, 4): 3152, (3, 5): 24230, (3, 6): 189898, (4, 5): 814632,
}


def placements(clue: Clue, length: int) -> Iterator[int]:
    """Every line (bit i = cell i) with this clue, built block by block."""
    if not clue:
        yield 0
        return
    first, rest = clue[0], clue[1:]
    tail = sum(rest) + len(rest)  # cells the later blocks need, with their gaps
    for start in range(length - tail - first + 1):
        block = ((1 << first) - 1) << start
        used = start + first + 1
        for later in placements(rest, length - used):
            yield block | (later << used)


def solve_line(clue: Clue, length: int, true_line: int, known: int) -> int:
    """The complete line solver by enumeration: cells all consistent placements agree on."""
    varies = 0
    found = False
    for line in placements(clue, length):
        if (line ^ true_line) & known == 0:
            found = True
            varies |= line ^ true_line
    assert found
    return ~varies & ((1 << length) - 1)


def bits_clue(value: int, length: int) -> Clue:
    return line_clue([(value >> i) & 1 for i in range(length)])


@pytest.mark.parametrize("length", range(0, 9))
def test_line_table_is_the_complete_line_solver(length: int) -> None:
    table = line_table(length)
    n = 1 << length
    cases = [(t, k) for t in range(n) for k in range(n)]
    if len(cases) > 5000:
        cases = random.Random(length).sample(cases, 5000)
    for t, k in cases:
        expected = solve_line(bits_clue(t, length), length, t, k)
        assert table[t << length | k] == expected, (length, bin(t), bin(k))


@pytest.mark.parametrize("length", range(1, 9))
def test_line_table_agrees_with_the_general_line_solver(length: int) -> None:
    """The tables and `solve`'s DP line solver are one semantics, on random lines."""
    from autoplayer.games.nonogram.solver import line_solve

    table = line_table(length)
    rng = random.Random(100 + length)
    for _ in range(400):
        t = rng.randrange(1 << length)
        k = rng.randrange(1 << length)
        cells = [((t >> i) & 1) if (k >> i) & 1 else UNKNOWN for i in range(length)]
        solved = line_solve(bits_clue(t, length), cells)
        assert solved is not None
        decided = sum(1 << i for i, cell in enumerate(solved) if cell != UNKNOWN)
        assert table[t << length | k] == decided, (length, bin(t), bin(k))
        assert all(cell in (UNKNOWN, (t >> i) & 1) for i, cell in enumerate(solved))


def test_line_table_decides_known_cells_and_whole_lines_alone() -> None:
    table = line_table(5)
    assert table[0b10110 << 5 | 0b11111] == 0b11111
    assert table[0b11111 << 5] == 0b11111  # clue 5 in 5 cells: all filled
    assert table[0b00000 << 5] == 0b11111  # empty clue: all empty
    assert table[0b00010 << 5] == 0  # clue 1: nothing from an unknown line
    assert table[0b01110 << 5] == 0b00100  # clue 3: only the middle cell overlaps
    assert table[0b01110 << 5 | 0b00001] == 0b01101  # cell 0 empty: cells 2, 3 overlap


def test_clue_ids_group_lines_by_clue() -> None:
    clues, ids = line_clues(5)
    assert len(clues) == 13  # Fibonacci(7): clues that fit 5 cells
    for value in range(32):
        assert clues[ids[value]] == bits_clue(value, 5)
    assert len(line_clues(8)[0]) == 55


def test_spread_table_transposes_a_line() -> None:
    spread = spread_table(3, 4)
    assert spread[0b101] == (1 << 0) | (1 << 8)
    assert spread[0b010] == 1 << 4


def reference_counts(rows: int, columns: int) -> tuple[int, int]:
    """Line-solvable and unique counts the slow, obvious way (no tables, no symmetry)."""
    signatures: Counter = Counter()
    solvable = 0
    for cells in itertools.product((0, 1), repeat=rows * columns):
        grid = np.array(cells, dtype=np.int8).reshape(rows, columns)
        row_clues = [line_clue(r) for r in grid]
        col_clues = [line_clue(c) for c in grid.T]
        signatures[tuple(row_clues), tuple(col_clues)] += 1
        known = np.zeros((rows, columns), dtype=bool)
        changed = True
        while changed:
            changed = False
            for lines, clues, view in ((grid, row_clues, known), (grid.T, col_clues, known.T)):
                for i, (line, clue) in enumerate(zip(lines, clues, strict=True)):
                    t = sum(int(v) << j for j, v in enumerate(line))
                    k = sum(int(v) << j for j, v in enumerate(view[i]))
                    new = solve_line(clue, len(line), t, k)
                    if new != k:
                        view[i] = [(new >> j) & 1 for j in range(len(line))]
                        changed = True
        solvable += bool(known.all())
    return solvable, sum(1 for n in signatures.values() if n == 1)


@pytest.mark.parametrize("size", [(2, 2), (3, 3), (2, 4), (4, 2), (3, 2)])
def test_kernel_matches_the_obvious_count(size: tuple[int, int]) -> None:
    result = count_grids(*size, unique=True)
    assert (result.line_solvable, result.unique) == reference_counts(*size)


@pytest.mark.parametrize("size", sorted(LINE_SOLVABLE))
def test_known_line_solvable_counts(size: tuple[int, int]) -> None:
    rows, columns = size
    assert count_grids(rows, columns).line_solvable == LINE_SOLVABLE[size]
    assert count_grids(columns, rows).line_solvable == LINE_SOLVABLE[size]  # transpose


@pytest.mark.parametrize("size", sorted(UNIQUE))
def test_known_unique_counts(size: tuple[int, int]) -> None:
    rows, columns = size
    result = count_grids(rows, columns, unique=True)
    assert result.unique == UNIQUE[size]
    assert result.grids == 1 << (rows * columns)
    assert result.line_solvable <= result.unique  # line logic only finds unique solutions


def test_single_rows_and_columns_are_all_line_solvable() -> None:
    for length in range(0, 9):
        assert count_grids(1, length, unique=True).line_solvable == 1 << length
        assert count_grids(length, 1, unique=True).unique == 1 << length


def test_batches_and_threads_do_not_change_the_count() -> None:
    one = count_grids(4, 4, unique=True, jobs=1, batches=1)
    many = count_grids(4, 4, unique=True, jobs=3, batches=97)
    assert (one.line_solvable, one.unique) == (many.line_solvable, many.unique) == (51234, 52362)


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    count_grids(3, 4, jobs=2, batches=10, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4096, 4096)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize(
    ("rows", "columns", "words"),
    [(9, 1, "0..8"), (-1, 3, "0..8"), (2, 9, "0..8"), (7, 7, "2^49"), (8, 8, "2^64")],
)
def test_sizes_out_of_range_are_refused_with_a_reason(rows: int, columns: int, words: str) -> None:
    with pytest.raises(UserError, match=words.replace("^", r"\^")):
        check_size(rows, columns)
    with pytest.raises(UserError):
        count_grids(rows, columns)


def test_jobs_below_one_is_refused() -> None:
    with pytest.raises(UserError, match="--jobs"):
        count_grids(2, 2, jobs=0)


def test_the_kernel_compiled_for_one_size_counts_as_the_shared_one() -> None:
    """Big counts run a kernel with the size built in (`kernel`); small ones never do, so
    check it here, whole and in parts (on a square: the rectangles' code is a subset)."""
    from autoplayer.games.nonogram.count import _plan
    from autoplayer.games.nonogram.count_kernel import _count, kernel

    rows = columns = 4
    plan = _plan(rows, columns)
    own = kernel(columns, rows)
    whole = own(0, plan.n_groups, True, *plan.args)
    assert whole == (1 << 16, LINE_SOLVABLE[(4, 4)], UNIQUE[(4, 4)])
    rng = random.Random(44)
    for _ in range(20):
        lo = rng.randrange(plan.n_groups)
        hi = min(plan.n_groups, lo + rng.randrange(1, 50))
        for unique in (False, True):
            assert own(lo, hi, unique, *plan.args) == _count(columns, rows, lo, hi, unique,
                                                             *plan.args)


@pytest.mark.parametrize("size", [(3, 3), (4, 4), (3, 4), (4, 3), (2, 5)])
def test_the_audit_recounts_every_grid_as_the_kernel_counts_by_symmetry(
        size: tuple[int, int]) -> None:
    """`count_audit` enumerates every grid a range stands for (mirror images and kept
    transposes) and propagates each alone: it must agree range by range."""
    from autoplayer.games.nonogram.count import _plan, count_range
    from autoplayer.games.nonogram.count_audit import audit_groups

    rows, columns = size
    plan = _plan(rows, columns)
    assert audit_groups(rows, columns, 0, plan.n_groups, True) == count_range(
        plan, 0, plan.n_groups, True)
    rng = random.Random(rows * 10 + columns)
    for _ in range(10):
        lo = rng.randrange(plan.n_groups)
        hi = min(plan.n_groups, lo + rng.randrange(1, 40))
        assert audit_groups(rows, columns, lo, hi, True) == count_range(plan, lo, hi, True)
