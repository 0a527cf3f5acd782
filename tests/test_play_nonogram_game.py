"""The nonogram back-end's pure parts: solving what was read, checking, planning, gestures."""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.errors import InputError
from autoplayer.games.nonogram.game import (
    PROFILES,
    NonogramGame,
    Reading,
    make_game,
    profile_for,
    settle_unknowns,
)
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle
from autoplayer.geometry import Button, Click, Drag, Rect
from autoplayer.screen.window import WindowInfo


def reading(rows, columns, shown=None) -> Reading:
    h, w = len(rows), len(columns)
    grid = np.full((h, w), UNKNOWN, np.int8) if shown is None else np.array(shown, np.int8)
    return Reading(Puzzle(tuple(rows), tuple(columns)), grid,
                   xs=tuple(10.0 + 20 * c for c in range(w)),
                   ys=tuple(110.0 + 20 * r for r in range(h)), grid=Rect(0, 100, 20 * w, 20 * h))


def test_several_solutions_play_one_and_say_so() -> None:
    game = make_game(profile="web")
    solved = game.solve(reading([(1,), (1,)], [(1,), (1,)]))
    assert "several solutions" in solved.note
    assert solved.solution.sum() == 2


def test_clues_without_a_solution_are_a_misread_naming_the_region() -> None:
    game = make_game(profile="web")
    with pytest.raises(InputError, match=r"do not make a puzzle.*row clues fill 3") as err:
        game.solve(reading([(2,), (1,)], [(1,), (1,)]))
    assert err.value.region == (0, 100, 40, 40)
    with pytest.raises(InputError, match=r"no solution.*misread"):
        game.solve(reading([(1, 1), (2,), ()], [(1,), (2,), (1,)]))


def test_check_and_plan_follow_the_profile() -> None:
    r = reading([(2,), ()], [(1,), (1,)], shown=[[FILLED, UNKNOWN], [UNKNOWN, UNKNOWN]])
    web, pattern = make_game(profile="web"), make_game(profile="pattern")
    solution = web.solve(r).solution
    assert web.check(r, solution).wrong == 1            # blanks may stay blank
    assert pattern.check(r, solution).wrong == 3        # Pattern needs them marked
    assert web.gestures(r, web.plan(r, solution)) == [Click(30, 110)]
    moves = pattern.plan(r, solution)
    assert pattern.gestures(r, moves) == [Click(30, 110), Drag(10, 130, 30, 130, Button.RIGHT)]
    assert pattern.units(moves) == 3 and pattern.fixes(moves) == 3


def test_profile_from_the_window_class() -> None:
    pattern = WindowInfo(1, "Pattern", ("sgt-pattern", "Sgt-pattern"), Rect(0, 0, 9, 9), True, 1)
    chromium = WindowInfo(2, "Nonogram", ("chromium", "Chromium"), Rect(0, 0, 9, 9), True, 2)
    assert profile_for(None, pattern) == "pattern"
    assert profile_for(None, chromium) == "web"
    assert profile_for("pattern", chromium) == "pattern"
    assert isinstance(make_game(window=pattern), NonogramGame)
    assert make_game(window=pattern).pace == PROFILES["pattern"][1]


def test_undecided_cells_that_no_longer_look_undecided_are_marked() -> None:
    """Pattern's empty cells are white; with no grey cell left, only the first look tells."""
    state = np.array([[UNKNOWN, FILLED, UNKNOWN]], np.int8)
    levels = np.array([[255.0, 0.0, 130.0]])
    assert settle_unknowns(state, levels, unknown_level=128.0).tolist() == [
        [EMPTY, FILLED, UNKNOWN]]
