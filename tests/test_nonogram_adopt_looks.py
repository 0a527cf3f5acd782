"""Rules from a profile: the first batch teaches the board's fill and mark looks.

Synthetic cell samples (no X): white blank cells, a black fill, a thin grey
cross for a mark, a light-blue fill.
"""

from __future__ import annotations

import numpy as np

from autoplayer.games.nonogram.game import NonogramGame
from autoplayer.games.nonogram.judge import Batch
from autoplayer.games.nonogram.lessons import adopt_looks
from autoplayer.games.nonogram.looks import reference_looks
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.rules import Rules
from autoplayer.geometry import Button

K = 8
H = W = 4


def board(fill: np.ndarray, mark: np.ndarray, fills: set, marks: set) -> np.ndarray:
    now = np.full((H, W, K, K, 3), 255.0, np.float32)
    for cell in fills:
        now[cell] = fill
    for cell in marks:
        now[cell] = mark
    return now


def cross() -> np.ndarray:
    mark = np.full((K, K, 3), 255.0, np.float32)
    for i in range(K):
        mark[i, i] = mark[i, K - 1 - i] = 90.0
    return mark


def adopted(fill: np.ndarray) -> tuple[NonogramGame, np.ndarray]:
    rules = Rules(press={(UNKNOWN, Button.LEFT): FILLED, (UNKNOWN, Button.RIGHT): EMPTY},
                  drag="line")
    game = NonogramGame(rules=rules)
    blank = board(fill, cross(), set(), set())
    game.looks = reference_looks(blank)
    fills, marks = {(0, 0), (0, 1), (1, 1)}, {(2, 2), (3, 3), (2, 3)}
    expected = {**dict.fromkeys(fills, FILLED), **dict.fromkeys(marks, EMPTY)}
    touched = np.zeros((H, W), bool)
    for cell in expected:
        touched[cell] = True
    game._batch = Batch(touched, expected, {}, blank, np.full((H, W), UNKNOWN, np.int8),
                        np.zeros((H, W), bool))
    now = board(fill, cross(), fills, marks)
    game.looks = adopt_looks(game.looks, game._batch, now)
    return game, now


def test_a_thin_cross_is_learned_beside_a_dark_fill() -> None:
    game, now = adopted(np.zeros((K, K, 3), np.float32))
    assert game.looks is not None and game.looks.knows(FILLED) and game.looks.knows(EMPTY)
    states, _ = game.looks.classify(now)
    assert states[2, 2] == EMPTY and states[0, 0] == FILLED and states[3, 0] == UNKNOWN


def test_a_light_fill_is_learned() -> None:
    light = np.zeros((K, K, 3), np.float32) + np.array([200.0, 225.0, 250.0], np.float32)
    game, now = adopted(light)
    assert game.looks is not None and game.looks.knows(FILLED)
    states, _ = game.looks.classify(now)
    assert states[0, 0] == FILLED and states[2, 2] == EMPTY and states[3, 0] == UNKNOWN
