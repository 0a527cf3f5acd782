"""The nonogram back-end's pure parts: solving what was read, checking, planning, gestures."""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.game import NonogramGame, Reading, make_game
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle
from autoplayer.games.nonogram.rules import Rules, load_rules, profile_path, save_rules, window_key
from autoplayer.geometry import Button, Click, Drag, Rect
from autoplayer.screen.window import WindowInfo

TOGGLE = Rules(press={(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
                      (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN},
               drag="line", done="sign")
"""A game seen to toggle, that said solved once the fills were right."""
SET_MARKS = Rules(press={(s, b): a for s in (UNKNOWN, EMPTY, FILLED)
                         for b, a in ((Button.LEFT, FILLED), (Button.RIGHT, EMPTY))},
                  drag="line", done="marks")
"""A game seen to set (never toggle) that wanted every empty cell marked."""


def reading(rows, columns, shown=None) -> Reading:
    h, w = len(rows), len(columns)
    grid = np.full((h, w), UNKNOWN, np.int8) if shown is None else np.array(shown, np.int8)
    return Reading(Puzzle(tuple(rows), tuple(columns)), grid,
                   xs=tuple(10.0 + 20 * c for c in range(w)),
                   ys=tuple(110.0 + 20 * r for r in range(h)), grid=Rect(0, 100, 20 * w, 20 * h))


def test_several_solutions_play_one_and_say_so() -> None:
    game = NonogramGame()
    solved = game.solve(reading([(1,), (1,)], [(1,), (1,)]))
    assert "the clues allow 2 solutions; playing one of them" in solved.note
    assert solved.solution.sum() == 2
    assert len(solved.others) == 1 and (solved.others[0] != solved.solution).sum() == 4


def test_clues_without_a_solution_are_a_misread_naming_the_region() -> None:
    game = NonogramGame()
    with pytest.raises(InputError, match=r"do not make a puzzle.*row clues fill 3") as err:
        game.solve(reading([(2,), (1,)], [(1,), (1,)]))
    assert err.value.region == (0, 100, 40, 40)
    with pytest.raises(InputError, match=r"no solution.*misread"):
        game.solve(reading([(1, 1), (2,), ()], [(1,), (2,), (1,)]))


def test_check_and_plan_follow_the_learned_rules() -> None:
    r = reading([(2,), ()], [(1,), (1,)], shown=[[FILLED, UNKNOWN], [UNKNOWN, UNKNOWN]])
    toggle, marks = NonogramGame(rules=TOGGLE), NonogramGame(rules=SET_MARKS)
    solution = toggle.solve(r).solution
    assert toggle.check(r, solution).wrong == 1            # blanks may stay blank
    assert marks.check(r, solution).wrong == 3             # this game wants them marked
    assert toggle.gestures(r, toggle.plan(r, solution)) == [Click(30, 110)]
    moves = marks.plan(r, solution)
    assert marks.gestures(r, moves) == [Click(30, 110), Drag(10, 130, 30, 130, Button.RIGHT)]
    assert marks.units(moves) == 3 and marks.fixes(moves) == 3


def test_a_game_with_no_sign_gets_its_empty_cells_marked_once() -> None:
    r = reading([(2,), ()], [(1,), (1,)], shown=[[FILLED, FILLED], [UNKNOWN, UNKNOWN]])
    game = NonogramGame(rules=TOGGLE)
    solution = game.solve(r).solution
    assert game.plan(r, solution) == []
    marks = game.finish(r, solution)
    assert [(m.button, len(m)) for m in marks] == [(Button.RIGHT, 2)]
    assert game.finish(r, solution) == []                  # once only


def test_the_rules_file_round_trips_and_bad_files_name_themselves(tmp_path) -> None:
    path = tmp_path / "game.json"
    save_rules(path, SET_MARKS, {"class": ["x"], "title": "y"})
    assert load_rules(path) == SET_MARKS
    assert '"blank": {' in path.read_text()                # readable: states by name
    path.write_text('{"format": "autoplayer nonogram rules 1", "drag": "wiggle"}')
    with pytest.raises(UserError, match=r"game.json: \"drag\" is 'wiggle'"):
        load_rules(path)
    path.write_text("{not json")
    with pytest.raises(UserError, match=r"game.json: line 1: not JSON"):
        load_rules(path)


def test_rules_are_kept_per_window_class_and_title_without_numbers(tmp_path,
                                                                   monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    a = WindowInfo(1, "Nonogram 10x10 #3", ("chromium", "Chromium"), Rect(0, 0, 9, 9), True, 1)
    b = WindowInfo(2, "Nonogram 15x15 #8", ("chromium", "Chromium"), Rect(0, 0, 9, 9), True, 2)
    other = WindowInfo(3, "Puzzles", ("chromium", "Chromium"), Rect(0, 0, 9, 9), True, 3)
    key = window_key(a.wm_class, a.title)
    assert key == window_key(b.wm_class, b.title) != window_key(other.wm_class, other.title)
    assert make_game(window=a).rules is None               # never seen: learn first
    save_rules(profile_path(key), TOGGLE, key)
    assert make_game(window=b).rules == TOGGLE             # seen: no experiment
    assert make_game(window=b, relearn=True).rules is None
    assert make_game(window=other).rules is None
    assert str(make_game(window=a).profile).startswith(str(tmp_path))
