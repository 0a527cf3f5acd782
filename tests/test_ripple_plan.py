"""The Ripple back-end's experiment and plans on made-up readings (no browser).

A 4x2 board with three givens and one solution; the "page" is played by
hand: each test hands the game the reading a page of a given kind would show
after the game's last batch.
"""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.errors import InputError
from autoplayer.games.ripple.board import Lattice, Rooms
from autoplayer.games.ripple.game import ARROW, COUNT, TYPE, Reading, RippleGame, snake
from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.reader import RippleReading, unique_solution
from autoplayer.geometry import Click, Key, Rect

ROOMS = [[0, 0, 1, 1], [2, 2, 1, 1]]
GIVENS = {0: 2, 2: 3, 7: 4}
PITCH = 40


def _reading(values: dict[int, int]) -> Reading:
    lattice = Lattice(tuple(10 + PITCH * c for c in range(5)),
                      tuple(10 + PITCH * r for r in range(3)),
                      Rect(9, 9, 4 * PITCH + 3, 2 * PITCH + 3), 2, (255, 255, 255))
    right = np.array([[False, True, False], [False, True, False]])
    down = np.array([[True, True, False, False]])
    rooms = Rooms(Puzzle.build(ROOMS, [[0] * 4] * 2).rooms, right, down)
    shown = {**GIVENS, **values}
    return Reading(RippleReading(lattice, rooms, tuple(shown.get(i, EMPTY) for i in range(8)),
                                 tuple(i in GIVENS for i in range(8)), (None,) * 8))


SOLUTION = unique_solution(_reading({}).shown)


def _events(gestures: list) -> int:
    """As the input driver counts them: a click three, a key two."""
    return sum(3 if isinstance(g, Click) else 2 for g in gestures)


def test_a_typing_page_whose_arrows_move_gets_arrow_keys_between_neighbours() -> None:
    assert SOLUTION == (2, 1, 3, 2, 1, 2, 1, 4)
    game = RippleGame()
    probe = game.plan(_reading({}), SOLUTION)
    assert [m.probe for m in probe] == [TYPE]
    shown = {probe[0].cell: SOLUTION[probe[0].cell]}
    game.gestures(_reading({}), probe)
    arrow = game.plan(_reading(shown), SOLUTION)
    assert game.scheme == TYPE and [m.probe for m in arrow] == [ARROW]
    keys = game.gestures(_reading(shown), arrow)
    assert all(isinstance(g, Key) for g in keys) and keys[0].name in ("left", "right", "up",
                                                                       "down")
    shown[arrow[0].cell] = arrow[0].value
    rest = game.plan(_reading(shown), SOLUTION)
    assert game.arrows is True
    assert sorted(m.cell for m in rest) == [3, 4, 6]
    game.gestures(_reading(shown), rest)
    # Say the page were cleared: from the cursor at row 2 column 3, five cells to enter.
    assert game._active == 4 or game._active in (3, 6)
    game._active = 6
    moves = game.plan(_reading({}), SOLUTION)
    gestures = game.gestures(_reading({}), moves)
    # Left to row 2 column 2, up to row 1 column 2; nothing next to that is left: clicks.
    assert [m.cell for m in moves] == [5, 1, 3, 6, 4]
    assert [type(g).__name__ for g in gestures[::2]] == ["Key", "Key", "Click", "Click",
                                                         "Click"]
    assert [g.name for g in gestures[:4:2]] == ["left", "up"]
    # Two arrows (2 events each) where clicks (3 each) would have been.
    clicks_only = RippleGame(scheme=TYPE).gestures(_reading({}), moves)
    assert _events(gestures) == _events(clicks_only) - 2


def test_a_page_that_ignores_arrows_is_played_with_clicks() -> None:
    game = RippleGame()
    probe = game.plan(_reading({}), SOLUTION)
    first = probe[0].cell
    game.gestures(_reading({}), probe)
    shown = {first: SOLUTION[first]}
    arrow = game.plan(_reading(shown), SOLUTION)
    game.gestures(_reading(shown), arrow)
    # The digits went into the cell typed in before (the cursor did not move).
    shown[first] = arrow[0].value
    rest = game.plan(_reading(shown), SOLUTION)
    assert game.arrows is False
    gestures = game.gestures(_reading(shown), rest)
    assert sum(isinstance(g, Click) for g in gestures) == len(rest)
    assert (first in [m.cell for m in rest]) == (arrow[0].value != SOLUTION[first])


def test_an_arrow_that_changes_the_neighbour_otherwise_stops_the_bot() -> None:
    game = RippleGame()
    probe = game.plan(_reading({}), SOLUTION)
    game.gestures(_reading({}), probe)
    shown = {probe[0].cell: SOLUTION[probe[0].cell]}
    arrow = game.plan(_reading(shown), SOLUTION)
    shown[arrow[0].cell] = arrow[0].value % 2 + 1 if arrow[0].value <= 2 else 1
    with pytest.raises(InputError, match="arrow keys"):
        game.plan(_reading(shown), SOLUTION)


def test_a_counting_page_is_never_sent_arrows() -> None:
    game = RippleGame()
    probe = game.plan(_reading({}), SOLUTION)
    game.gestures(_reading({}), probe)
    count = game.plan(_reading({}), SOLUTION)  # typing did nothing
    assert [m.probe for m in count] == [COUNT]
    game.gestures(_reading({}), count)
    rest = game.plan(_reading({probe[0].cell: 1}), SOLUTION)
    assert game.scheme == COUNT
    assert not any(isinstance(g, Key) for g in game.gestures(_reading({}), rest))


def test_a_dry_run_outline_counts_every_cell_and_says_what_it_assumes() -> None:
    game = RippleGame()
    gestures, assumed = game.outline(_reading({}), SOLUTION)
    # Five empty cells, each a click and one digit.
    assert len(gestures) == 2 * 5
    assert "typing" in assumed
    known = RippleGame(scheme=COUNT)
    gestures, assumed = known.outline(_reading({}), SOLUTION)
    assert assumed == ""
    # Count up from empty (a select, then a click a step), or down from the cycle's end: the
    # 2 in a room of two is one right click.
    assert len(gestures) == 2 + 3 + 2 + 1 + 2


def test_snake_order_runs_every_other_row_backwards() -> None:
    assert snake([0, 1, 2, 4, 5, 6, 7], 4) == [0, 1, 2, 7, 6, 5, 4]
