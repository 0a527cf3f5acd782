"""The Ripple back-end's experiment and plans on made-up readings (no browser).

A 4x2 board with three givens and one solution; the "page" is a small model of
a player's input rules (`FakePage`) that takes the experiment's gestures and
shows their effect as the mid-end would: a sample per cell and a reading.
"""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.errors import InputError
from autoplayer.games.ripple.board import Lattice, Rooms
from autoplayer.games.ripple.entry import COUNT, PAD, TYPE, Input, load_input, save_input
from autoplayer.games.ripple.game import Reading, RippleGame, _Watch, snake
from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.pad import Pad
from autoplayer.games.ripple.reader import RippleReading, unique_solution
from autoplayer.geometry import Click, Key, Rect
from autoplayer.play.experiment import Seen

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


PAD_X = 1000
"""The fake pad's buttons: value v at x = PAD_X + 10 v."""


class FakePage:
    """A player's input rules, applied to gestures; what the board then shows."""

    def __init__(self, rules: Input, late: bool = False) -> None:
        self.rules = rules
        self.late: object | None = None
        """With `late`, the first gesture shows only once the next one comes (a busy page
        that drew it after the bot's wait for it had ended)."""
        self._late = late
        self.values = dict.fromkeys(range(8), EMPTY)
        self.active: int | None = None
        self.focused = not rules.focus
        self.pending = ""
        self.sizes = _reading({}).shown.puzzle.room_size

    def do(self, g: object) -> None:
        if self._late:
            self._late, self.late = False, g
            return
        if self.late is not None:
            first, self.late = self.late, None
            self.do(first)
        rules = self.rules
        if isinstance(g, Click) and g.x >= PAD_X:
            if rules.entry == PAD and self.active is not None:
                self.values[self.active] = (g.x - PAD_X) // 10
            return
        if isinstance(g, Click):
            cell = (g.y - 10) // PITCH * 4 + (g.x - 10) // PITCH
            if not self.focused:
                self.focused = True
                return
            if rules.entry == COUNT and (cell == self.active or not rules.select):
                self.values[cell] = (self.values[cell] + 1) % (self.sizes[cell] + 1)
            self.active, self.pending = cell, ""
            return
        assert isinstance(g, Key)
        if self.active is None or not self.focused:
            return
        step = {"left": -1, "right": 1, "up": -4, "down": 4}.get(g.name)
        if step is not None:
            if rules.arrows:
                self.active += step
            return
        if rules.entry != TYPE:
            return
        if g.name == "enter" and rules.enter and self.pending:
            self.values[self.active], self.pending = int(self.pending), ""
        elif g.name.isdigit() and rules.enter:
            self.pending += g.name
        elif g.name.isdigit():
            self.values[self.active] = int(g.name)

    def samples(self) -> np.ndarray:
        cursor = self.rules.cursor
        return np.array([[10 * (self.values[i] if i not in GIVENS else GIVENS[i]),
                          10 * (cursor and i == self.active)] for i in range(8)])


def _experiment(monkeypatch: pytest.MonkeyPatch, page: FakePage) -> tuple[RippleGame, str]:
    """The game's experiment played against the page, as the mid-end would."""
    game = RippleGame()
    game._seen = object()  # type: ignore[assignment]
    monkeypatch.setattr(_Watch, "sense", lambda self, frame: page.samples())
    monkeypatch.setattr(game, "read", lambda frame, previous=None: _reading(
        {i: v for i, v in page.values.items() if v and i not in GIVENS}))
    monkeypatch.setattr(game, "_find_pad", lambda shown, frame: Pad(
        {v: Rect(PAD_X + 10 * v - 2, 10, 4, 10) for v in range(1, 5)})
        if page.rules.entry == PAD else None)
    steps = game.experiment(_reading({}), SOLUTION)
    assert steps is not None
    press = next(steps)
    try:
        while True:
            for g in press.gestures:
                page.do(g)
            press = steps.send(Seen(None, page.samples(), True))  # type: ignore[arg-type]
    except StopIteration as done:
        return game, done.value


@pytest.mark.parametrize("rules", [
    Input(TYPE), Input(TYPE, arrows=True), Input(TYPE, enter=True),
    Input(TYPE, enter=True, arrows=True, focus=True), Input(TYPE, focus=True),
    Input(PAD), Input(PAD, arrows=True, focus=True), Input(COUNT), Input(COUNT, focus=True),
    Input(COUNT, cursor=False), Input(TYPE, cursor=False),
], ids=lambda r: r.describe())
def test_the_experiment_finds_each_players_rules(monkeypatch: pytest.MonkeyPatch,
                                                  rules: Input) -> None:
    page = FakePage(rules)
    game, said = _experiment(monkeypatch, page)
    assert game.input is not None
    assert (game.input.entry, game.input.enter, game.input.arrows) == (
        rules.entry, rules.enter, rules.arrows and rules.entry != COUNT), said
    assert game.input.focus == (rules.focus and rules.cursor), said
    assert game.presses <= 8, game.presses
    # Then the plan, played on the page, puts every cell right.
    shown = {i: v for i, v in page.values.items() if v and i not in GIVENS}
    moves = game.plan(_reading(shown), SOLUTION)
    for g in game.gestures(_reading(shown), moves):
        page.do(g)
    assert all(page.values[i] == SOLUTION[i] for i in range(8) if i not in GIVENS), \
        (said, page.values)


@pytest.mark.parametrize("late", [False, True])
def test_a_page_where_every_click_counts_is_found_even_when_it_draws_a_click_late(
        monkeypatch: pytest.MonkeyPatch, late: bool) -> None:
    """Two clicks that show two counts: the first was drawn after the wait for it."""
    page = FakePage(Input(COUNT, cursor=False, select=False), late=late)
    game, said = _experiment(monkeypatch, page)
    assert game.input == Input(COUNT, cursor=False, select=False), said
    assert game.presses == 1 + late


def test_a_page_that_takes_no_known_input_stops_the_bot(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    page = FakePage(Input(TYPE))
    page.do = lambda g: None  # type: ignore[method-assign]
    with pytest.raises(InputError, match="input scheme is unknown"):
        _experiment(monkeypatch, page)


def test_learned_rules_are_kept_per_window_and_need_no_experiment(tmp_path) -> None:
    from types import SimpleNamespace

    from autoplayer.games.ripple.game import make_game

    window = SimpleNamespace(wm_class=("chromium", "Chromium"), title="Ripple Effect 5x5 #12")
    first = make_game(window=window)
    assert first.input is None and first.profile is not None
    first.input, first.learned = Input(TYPE, enter=True, arrows=True), True
    first.concluded(True, False)
    again = make_game(window=SimpleNamespace(wm_class=window.wm_class,
                                             title="Ripple Effect 8x8 #3"))
    assert again.input == first.input
    assert again.experiment(_reading({}), SOLUTION) is None
    save_input(tmp_path / "p.json", Input(PAD, focus=True), None)
    assert load_input(tmp_path / "p.json") == Input(PAD, focus=True)


def test_typing_with_enter_and_a_pad_get_their_gestures() -> None:
    enter = RippleGame(rules=Input(TYPE, enter=True))
    moves = enter.plan(_reading({}), SOLUTION)
    gestures = enter.gestures(_reading({}), moves)
    assert [g.name for g in gestures if isinstance(g, Key)].count("enter") == len(moves)
    pad = RippleGame(rules=Input(PAD))
    pad.pad = Pad({v: Rect(PAD_X + 10 * v - 2, 10, 4, 10) for v in range(1, 5)})
    gestures = pad.gestures(_reading({}), pad.plan(_reading({}), SOLUTION))
    assert len(gestures) == 2 * len(moves) and not any(isinstance(g, Key) for g in gestures)
    assert pad.board(_reading({})).right > PAD_X  # clicks on the pad are inside the bounds


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
