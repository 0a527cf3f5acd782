"""Planning clicks for games where a click slides a whole run of tiles."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from autoplayer.games.fifteen.human import solve_fast
from autoplayer.games.fifteen.ids import board_from_id, id_count
from autoplayer.games.fifteen.model import Board, goal
from autoplayer.games.fifteen.planner import Slide, batch, play_slides


def test_a_straight_run_of_the_gap_is_one_click():
    board = Board(4, 4, (0, 1, 2, 3, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12))
    slides = batch(board, "LLLUUU")
    assert slides == [Slide(3, "L", 3), Slide(15, "U", 3)]
    assert play_slides(board, slides).is_solved()


@pytest.mark.parametrize("size", [(3, 3), (4, 4), (5, 3)])
def test_clicks_replay_a_whole_solution(size):
    width, height = size
    rng = random.Random(width * height)
    board = board_from_id(rng.randrange(id_count(width, height)), width, height)
    moves = solve_fast(board)
    slides = batch(board, moves)
    assert sum(s.count for s in slides) == len(moves)
    assert all(a.direction != b.direction for a, b in pairwise(slides))
    assert play_slides(board, slides).is_solved()


def test_runs_off_the_board_are_refused():
    with pytest.raises(ValueError, match="run off the 3x3 board"):
        batch(goal(3, 3), "LL")
