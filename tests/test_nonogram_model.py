"""The nonogram model: clues of grids, validation, partial-line consistency, comparison."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import (
    EMPTY,
    FILLED,
    UNKNOWN,
    Puzzle,
    clues_of,
    differences,
    first_disagreement,
    line_clue,
    line_fits,
    puzzle_from_grid,
    satisfies,
    validate,
)


def test_line_clue_reads_runs():
    assert line_clue([0, 1, 1, 0, 1]) == (2, 1)
    assert line_clue([0, 0, 0]) == ()
    assert line_clue([1, 1, 1]) == (3,)


def test_clues_of_a_grid():
    grid = np.array([[1, 1, 0], [1, 0, 1]], dtype=np.int8)
    assert clues_of(grid) == (((2,), (1, 1)), ((2,), (1,), (1,)))


@pytest.mark.parametrize(
    ("rows", "columns", "message"),
    [
        (((1,),), ((1,), (1,)), "row clues fill 1 cells but column clues fill 2"),
        (((3,),), ((1,), (1,)), "row 1: clue 3 needs 3 cells but the row has 2"),
        (((1, 1),), ((1,), (1,)), "row 1: clue 1 1 needs 3 cells"),
        (((0,),), ((),), "row 1: clue 0 has a number below 1"),
        ((), (), "size 0x0 is outside"),
    ],
)
def test_validate_rejects(rows, columns, message):
    with pytest.raises(InputError, match=message):
        validate(Puzzle(rows, columns))


def test_validate_rejects_grid_of_wrong_shape():
    puzzle = Puzzle(((1,),), ((1,),), grid=np.zeros((2, 1), dtype=np.int8))
    with pytest.raises(InputError, match="grid is 1x2 but the puzzle is 1x1"):
        validate(puzzle)


def _brute_force_fits(clue, cells) -> bool:
    for bits in itertools.product((EMPTY, FILLED), repeat=len(cells)):
        agrees = all(c in (UNKNOWN, b) for c, b in zip(cells, bits, strict=True))
        if agrees and line_clue(bits) == clue:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    cells=st.lists(st.sampled_from([UNKNOWN, EMPTY, FILLED]), min_size=0, max_size=10),
    truth=st.lists(st.sampled_from([EMPTY, FILLED]), min_size=10, max_size=10),
    use_truth=st.booleans(),
)
def test_line_fits_agrees_with_brute_force(cells, truth, use_truth):
    # Half the time the clue comes from a line consistent with the cells (mostly fits),
    # half the time from an unrelated line (often does not).
    n = len(cells)
    if use_truth:
        base = [t if c == UNKNOWN else c for c, t in zip(cells, truth[:n], strict=True)]
    else:
        base = truth[:n]
    clue = line_clue(base)
    assert line_fits(clue, cells) == _brute_force_fits(clue, cells)


def test_line_fits_examples():
    assert line_fits((1, 1), [UNKNOWN] * 3)
    assert not line_fits((1, 1), [UNKNOWN] * 2)
    assert not line_fits((1, 1), [FILLED, FILLED, UNKNOWN, UNKNOWN])
    assert line_fits((), [EMPTY, UNKNOWN])
    assert not line_fits((), [UNKNOWN, FILLED])


def test_first_disagreement_names_the_first_wrong_line():
    solution = np.array([[1, 1, 0], [1, 0, 1]], dtype=np.int8)
    puzzle = puzzle_from_grid(solution)
    assert first_disagreement(puzzle, solution) is None
    assert satisfies(puzzle, solution)
    wrong = solution.copy()
    wrong[1, 2] = EMPTY
    assert first_disagreement(puzzle, wrong) == "row 2: clue is 1 1 but the cells give 1"
    partial = np.full((2, 3), UNKNOWN, dtype=np.int8)
    partial[0, 2] = FILLED  # row 1 "..#" still fits 2 (as .##), column 3 still fits 1
    assert first_disagreement(puzzle, partial) is None
    partial[0, 0] = FILLED
    assert first_disagreement(puzzle, partial) == "row 1: no placement of 2 fits its known cells"


def test_differences_compares_arrays_and_text():
    a = puzzle_from_grid(np.array([[1, 0]], dtype=np.int8), title="t")
    b = puzzle_from_grid(np.array([[1, 0]], dtype=np.int8), title="t")
    assert differences(a, b) == []
    assert differences(a, b.with_grid(np.array([[1, -1]]))) == ["grid"]
    c = puzzle_from_grid(np.array([[0, 1]], dtype=np.int8), title="u")
    assert differences(a, c) == ["columns", "title", "solution"]


def test_row_lists_become_int8_arrays_when_read():
    """Readers may give row lists (no numpy at load time); readers of the puzzle get arrays."""
    p = Puzzle(((1,), (1,)), ((1,), (1,)), solution=[[1, 0], [0, 1]], grid=[[-1, 0], [0, -1]])
    validate(p)
    assert p.solution.dtype == np.int8 and p.solution.tolist() == [[1, 0], [0, 1]]
    assert p.grid.tolist() == [[-1, 0], [0, -1]]
    assert p.solution is p.solution  # built once
    assert differences(p, p.with_solution(np.array([[1, 0], [0, 1]]))) == []


def test_validate_checks_the_shape_of_row_lists():
    p = Puzzle(((1,), (1,)), ((1,), (1,)), solution=[[1, 0, 0], [0, 1, 0]])
    with pytest.raises(InputError, match="solution is 3x2 but the puzzle is 2x2"):
        validate(p)
