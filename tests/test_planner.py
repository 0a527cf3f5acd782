"""The nonogram planner: every cell ends right, no right cell is pressed, few gestures."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.planner import (
    Profile,
    Stroke,
    gestures,
    partition,
    plan,
    wanted,
)
from autoplayer.geometry import Button, Click, Drag

# A click on a cell already in the button's state clears it; a drag paints a line.
TOGGLING = Profile(
    name="toggling",
    press={
        (UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
        (EMPTY, Button.LEFT): FILLED,
        (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN,
        (FILLED, Button.RIGHT): EMPTY,
    },
)
# Left sets filled and right sets marked, from any state; every empty cell must be marked.
SETTING = Profile(
    name="setting",
    press={(state, button): result for state in (UNKNOWN, EMPTY, FILLED)
           for button, result in ((Button.LEFT, FILLED), (Button.RIGHT, EMPTY))},
    mark_empty=True,
)
# Toggling, and a marked cell must be unmarked before it can be filled.
STRICT_TOGGLING = Profile(
    name="strict",
    press={
        (UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
        (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN,
    },
    mark_empty=True,
)


def apply(shown: np.ndarray, strokes: list[Stroke], profile: Profile) -> tuple[np.ndarray, set]:
    """Plays strokes the way the game would; returns the grid and every cell pressed."""
    grid = shown.copy()
    touched = set()
    for s in strokes:
        for r, c in s.cells():
            grid[r, c] = profile.press[(int(grid[r, c]), s.button)]
            touched.add((r, c))
    return grid, touched


def grid_of(text: str) -> np.ndarray:
    codes = {"#": FILLED, ".": EMPTY, "?": UNKNOWN}
    return np.array([[codes[ch] for ch in line] for line in text.split()], dtype=np.int8)


def test_fresh_board_one_drag_a_run() -> None:
    solution = grid_of("""
        #####
        #...#
        #.#.#
        #...#
        #####""")
    shown = np.full(solution.shape, UNKNOWN, dtype=np.int8)
    strokes = plan(shown, solution, TOGGLING)
    # Two full rows, then the two side columns' remaining three cells, then the centre.
    assert len(strokes) == 5
    assert all(s.button is Button.LEFT for s in strokes)
    grid, _ = apply(shown, strokes, TOGGLING)
    assert ((grid == FILLED) == (solution == FILLED)).all()


def test_pattern_also_marks_every_empty_cell() -> None:
    solution = grid_of("""
        ##..
        ....
        #..#""")
    shown = np.full(solution.shape, UNKNOWN, dtype=np.int8)
    strokes = plan(shown, solution, SETTING)
    grid, _ = apply(shown, strokes, SETTING)
    assert (grid == solution).all()
    fills = [s for s in strokes if s.button is Button.LEFT]
    marks = [s for s in strokes if s.button is Button.RIGHT]
    assert len(fills) == 3  # "##", and the two lone corners
    assert len(marks) == 3  # row 1, then (0,2)-(0,3) and (2,1)-(2,2)
    assert sum(map(len, marks)) == int((solution == EMPTY).sum())


def test_a_user_started_board_only_wrong_cells_are_pressed() -> None:
    solution = grid_of("""
        ###
        #.#
        ###""")
    shown = grid_of("""
        ##?
        ##?
        ?.#""")
    strokes = plan(shown, solution, TOGGLING)
    grid, touched = apply(shown, strokes, TOGGLING)
    assert ((grid == FILLED) == (solution == FILLED)).all()
    assert touched == {(0, 2), (1, 1), (1, 2), (2, 0), (2, 1)}
    # The wrong fill in the middle is cleared with a left click (the game toggles it).
    assert Stroke(Button.LEFT, 1, 1, 1, 1) in strokes


def test_marked_cell_that_must_be_filled_takes_two_presses_in_order() -> None:
    solution = grid_of("#.")
    shown = grid_of(".?")
    strokes = plan(shown, solution, STRICT_TOGGLING)
    # First every cell's first press (unmark (0,0), mark (0,1)), then the second (fill (0,0)).
    assert set(strokes[:2]) == {Stroke(Button.RIGHT, 0, 0, 0, 0), Stroke(Button.RIGHT, 0, 1, 0, 1)}
    assert strokes[2:] == [Stroke(Button.LEFT, 0, 0, 0, 0)]


def test_nothing_to_do_when_the_screen_shows_the_solution() -> None:
    solution = grid_of("#.# .#.")
    assert plan(solution.copy(), solution, SETTING) == []
    unmarked = np.where(solution == EMPTY, UNKNOWN, solution).astype(np.int8)
    assert plan(unmarked, solution, TOGGLING) == []


def test_a_profile_that_cannot_reach_a_state_is_an_error() -> None:
    fill_only = Profile("fill-only", press={(UNKNOWN, Button.LEFT): FILLED})
    with pytest.raises(ValueError, match="no button sequence"):
        plan(grid_of("#"), grid_of("."), fill_only)


def test_partition_takes_long_runs_first() -> None:
    plus = [(2, c) for c in range(5)] + [(r, 2) for r in range(5) if r != 2]
    runs = partition(plus)
    assert runs[0] == (2, 0, 2, 4)
    assert sorted(runs[1:]) == [(0, 2, 1, 2), (3, 2, 4, 2)]
    column = [(r, 7) for r in range(10)]
    assert partition(column) == [(0, 7, 9, 7)]


boards = st.integers(1, 8).flatmap(
    lambda h: st.integers(1, 8).flatmap(
        lambda w: st.tuples(
            st.lists(st.lists(st.sampled_from([UNKNOWN, EMPTY, FILLED]), min_size=w, max_size=w),
                     min_size=h, max_size=h),
            st.lists(st.lists(st.sampled_from([EMPTY, FILLED]), min_size=w, max_size=w),
                     min_size=h, max_size=h),
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(boards, st.sampled_from([TOGGLING, STRICT_TOGGLING, SETTING]))
def test_every_cell_ends_right_and_right_cells_are_never_pressed(board, profile) -> None:
    shown = np.array(board[0], dtype=np.int8)
    solution = np.array(board[1], dtype=np.int8)
    strokes = plan(shown, solution, profile)
    grid, touched = apply(shown, strokes, profile)
    for (r, c), have in np.ndenumerate(grid):
        assert have in wanted(int(solution[r, c]), profile)
        if shown[r, c] in wanted(int(solution[r, c]), profile):
            assert (r, c) not in touched


def test_gestures_aim_at_cell_centres() -> None:
    xs, ys = [10.4, 30.4, 50.4, 70.4], [100.0, 120.0, 140.0]
    strokes = [Stroke(Button.LEFT, 0, 0, 0, 3), Stroke(Button.RIGHT, 2, 1, 2, 1),
               Stroke(Button.RIGHT, 0, 2, 2, 2)]
    tatham = gestures(strokes, xs, ys, SETTING)
    assert tatham == [Drag(10, 100, 70, 100, Button.LEFT, 1), Click(30, 140, Button.RIGHT),
                      Drag(50, 100, 50, 140, Button.RIGHT, 1)]
    each = Profile("each", TOGGLING.press, drag_each_cell=True)
    assert gestures(strokes[:1], xs, ys, each) == [Drag(10, 100, 70, 100, Button.LEFT, 3)]
    clicks_only = Profile("clicks", TOGGLING.press, drags=False)
    assert gestures(strokes[:1], xs, ys, clicks_only) == [
        Click(10, 100), Click(30, 100), Click(50, 100), Click(70, 100)]
