"""The play loop with a test double of a game, a screen and a driver: no X needed.

The "screen" is a row of cells drawn into pixels; the fake driver applies
clicks to it (optionally dropping some, as a busy game would), and the loop
must read, act, verify and repair through the same Game interface real games use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from autoplayer.errors import InputError
from autoplayer.games.base import Check, Game, Solved
from autoplayer.geometry import Click, Gesture, Rect
from autoplayer.play import NotSolved, play
from autoplayer.screen.capture import Frame
from autoplayer.screen.input import Pace, check_inside

CELL = 10
ORIGIN = (200, 100)


class Screen:
    """Cells drawn 10 px wide at ORIGIN; white = 0, black = 1."""

    def __init__(self, cells: list[int], drop: dict[int, int] | None = None) -> None:
        self.cells = list(cells)
        self.drop = dict(drop or {})  # cell -> how many clicks on it the game ignores
        self.clicks: list[tuple[int, int]] = []
        self.grabs = 0

    def grab(self) -> Frame:
        self.grabs += 1
        row = np.array([[0 if v else 255] * CELL for v in self.cells], dtype=np.uint8).ravel()
        pixels = np.repeat(np.repeat(row[None, :, None], CELL, axis=0), 3, axis=2)
        return Frame(pixels, ORIGIN)

    def moved(self, frame: Frame) -> bool:
        return False

    def click(self, x: int, y: int) -> None:
        self.clicks.append((x, y))
        i = (x - ORIGIN[0]) // CELL
        if self.drop.get(i, 0) > 0:
            self.drop[i] -= 1
            return
        self.cells[i] ^= 1  # the game toggles


class Driver:
    def __init__(self, screen: Screen, bounds: Rect) -> None:
        self.screen, self.bounds, self.events, self.started = screen, bounds, 0, False
        self.stopped = False

    def start(self) -> Driver:
        self.started = True
        return self

    def perform(self, gestures: Sequence[Gesture]) -> None:
        check_inside(gestures, self.bounds)
        for g in gestures:
            assert isinstance(g, Click)
            self.screen.click(g.x, g.y)
            self.events += 2

    def stop(self) -> None:
        self.stopped = True


class RowGame(Game[list[int], list[int], int]):
    """A one-row toggling game whose solution is given (the 'solver' just returns it)."""

    name = "row"
    pace = Pace()
    max_batches = 3
    unit = "cell"

    def __init__(self, target: list[int], note: str = "", garbled: bool = False) -> None:
        self.target, self.note, self.garbled, self.reads = target, note, garbled, []

    def read(self, frame: Frame, previous: list[int] | None = None) -> list[int]:
        if self.garbled:
            raise InputError("cannot read cell 2", region=(20, 0, 10, 10))
        cells = [int(frame.pixels[CELL // 2, i * CELL + CELL // 2, 0] == 0)
                 for i in range(frame.width // CELL)]
        self.reads.append(previous is not None)
        return cells

    def board(self, reading: list[int]) -> Rect:
        return Rect(0, 0, len(reading) * CELL, CELL)

    def solve(self, reading: list[int]) -> Solved[list[int]]:
        return Solved(self.target, self.note)

    def plan(self, reading: list[int], solution: list[int]) -> list[int]:
        return [i for i, (a, b) in enumerate(zip(reading, solution, strict=True)) if a != b]

    def gestures(self, reading: list[int], moves: Sequence[int]) -> list[Gesture]:
        return [Click(i * CELL + CELL // 2, CELL // 2) for i in moves]

    def check(self, reading: list[int], solution: list[int]) -> Check:
        wrong = [i for i, (a, b) in enumerate(zip(reading, solution, strict=True)) if a != b]
        return Check(len(wrong), len(solution), tuple(f"cell {i}" for i in wrong[:3]))

    def units(self, moves: Sequence[int]) -> int:
        return len(moves)

    def fixes(self, moves: Sequence[int]) -> int:
        return len(moves)

    def overlay(self, frame: Frame, reading: list[int], solution: list[int] | None) -> np.ndarray:
        return frame.pixels.copy()


def factory(screen: Screen, made: list[Driver]):
    def make(bounds: Rect, pace: Pace, deadline: float | None) -> Driver:
        d = Driver(screen, bounds)
        made.append(d)
        return d
    return make


def test_plays_only_the_wrong_cells_in_screen_coordinates_and_verifies() -> None:
    screen = Screen([1, 0, 0, 1, 0, 0])
    made: list[Driver] = []
    report = play(RowGame([1, 1, 0, 0, 1, 0]), screen, driver_factory=factory(screen, made))
    assert len(made) == 1 and made[0].stopped
    assert screen.cells == [1, 1, 0, 0, 1, 0]
    # Cell 0 was already right and is never clicked; clicks land at screen, not frame, pixels.
    assert screen.clicks == [(215, 105), (235, 105), (245, 105)]
    assert made[0].bounds == Rect(200, 100, 60, 10)
    assert report.right_at_start == 3 and report.units == 6
    # The move that completes the board goes alone, once the rest is verified.
    assert report.gestures == 3 and report.units_changed == 3 and report.batches == 2
    assert report.wrong_after == [1, 0]
    assert report.check is not None and report.check.wrong == 0 and report.answer is None
    assert "board verified; the game gave no sign" in report.lines()
    assert report.first_input is not None and report.first_input > 0
    assert set(report.stages) == {"capture", "read", "solve", "learn", "plan", "input", "verify"}
    assert RowGame.max_batches == 3


def test_dropped_input_is_repaired_on_the_next_batch_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("autoplayer.play.loop.SETTLE_LONG_QUIET", 0.2)
    screen = Screen([0, 0, 0, 0], drop={2: 1})
    report = play(RowGame([1, 1, 1, 0]), screen, driver_factory=factory(screen, []))
    assert screen.cells == [1, 1, 1, 0]
    # All but the last move; the last move alone, dropped; then it again, taken.
    assert report.batches == 3 and report.wrong_after == [1, 1, 0]
    assert [x for x, _ in screen.clicks] == [205, 215, 225, 225]


def test_a_game_that_never_takes_a_click_ends_in_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The board never changes, so each verification waits out the settling timeout.
    monkeypatch.setattr("autoplayer.play.loop.SETTLE_TIMEOUT", 0.3)
    monkeypatch.setattr("autoplayer.play.loop.SETTLE_LONG_QUIET", 0.2)
    screen = Screen([0, 0, 0], drop={1: 99})
    with pytest.raises(NotSolved, match=r"after 3 batches 2 of 3 cells still differ .*cell 1"):
        play(RowGame([1, 1, 1]), screen, driver_factory=factory(screen, []))
    # Every batch leaves cell 1 wrong, so the last cell is never sent.
    assert screen.clicks == [(205, 105), (215, 105), (215, 105), (215, 105)]


def test_dry_run_creates_no_driver_and_writes_the_overlay(tmp_path: Path) -> None:
    screen = Screen([0, 1, 0])

    def no_driver(*_: object) -> Driver:
        raise AssertionError("a dry run must not create an input driver")

    out = tmp_path / "overlay.png"
    report = play(RowGame([1, 1, 1], note="several solutions; playing one"), screen,
                  dry_run=True, overlay=out, driver_factory=no_driver)
    assert screen.clicks == [] and screen.cells == [0, 1, 0]
    assert report.planned == 2 and report.gestures == 0
    assert np.asarray(Image.open(out)).shape == (10, 30, 3)
    assert "dry run: no input sent; would make 2 gestures" in report.lines()
    assert "note: several solutions; playing one" in report.lines()


def test_a_misread_stops_before_any_input() -> None:
    screen = Screen([0, 1, 0])
    made: list[Driver] = []
    with pytest.raises(InputError, match="cannot read cell 2"):
        play(RowGame([1, 1, 1], garbled=True), screen, driver_factory=factory(screen, made))
    # The driver starts early (it takes a while) but never acts on an unverified reading.
    assert screen.clicks == [] and all(d.events == 0 and d.stopped for d in made)


def test_verification_rereads_with_the_previous_reading() -> None:
    screen = Screen([0, 0])
    game = RowGame([1, 1])
    play(game, screen, driver_factory=factory(screen, []))
    assert game.reads[0] is False and len(game.reads) > 1 and all(game.reads[1:])


def test_a_parking_route_is_sent_once_the_game_has_drawn_the_input_before_it() -> None:
    """Qt handles only the last of several queued motions: parking moves sent while the
    game is still busy with the clicks would never be seen to pass their cell."""
    from autoplayer.geometry import Move
    from autoplayer.play.hands import Hands
    from autoplayer.play.report import Report

    screen = Screen([0, 0, 0])
    log: list[object] = []

    class Recorder:
        reach: Rect | None = None

        def perform(self, gestures: Sequence[Gesture]) -> None:
            log.append([type(g).__name__ for g in gestures])
            for g in gestures:
                if isinstance(g, Click):
                    screen.click(g.x, g.y)

    class Early:
        def get(self, bounds: Rect) -> Recorder:
            return Recorder()

    game = RowGame([1, 0, 0])
    hands = Hands(Early(), screen, game, Report("row"), 0.0)  # type: ignore[arg-type]
    hands.frame = screen.grab()
    hands.reading = game.read(hands.frame)
    grabs = screen.grabs
    hands.act([Click(5, 5), Move(25, 5, 0.01), Move(40, 5)])
    assert log == [["Click"], ["Move", "Move"]]
    assert screen.grabs - grabs >= 2  # it looked until the board was still
    log.clear()
    hands.act([Move(25, 5), Move(40, 5)])  # nothing to wait for
    assert log == [["Move", "Move"]]


class Page(Screen):
    """The row of cells on a larger page: a move counter beside it that redraws on every
    click (the game's echo of play, never an answer) and, with `answer`, a banner the
    game shows once every cell is right."""

    def __init__(self, cells: list[int], target: list[int], answer: bool) -> None:
        super().__init__(cells)
        self.target, self.answer = target, answer

    def grab(self) -> Frame:
        row = super().grab().pixels
        page = np.full((60, 120, 3), 200, np.uint8)
        page[:CELL, :row.shape[1]] = row
        shade = (len(self.clicks) * 60) % 240
        page[30:40, 80:100] = shade  # the move counter
        if self.answer and self.cells == self.target:
            page[45:60, 70:120] = 0  # "Solved!"
        return Frame(page, ORIGIN)


class PageGame(RowGame):
    """The row game, reading its cells off the page's first row."""

    def read(self, frame: Frame, previous: list[int] | None = None) -> list[int]:
        return [int(frame.pixels[CELL // 2, i * CELL + CELL // 2, 0] == 0)
                for i in range(len(self.target))]


def test_the_games_answer_to_the_last_move_ends_the_play_and_its_echo_does_not() -> None:
    target = [1, 1, 0, 1, 0, 1]
    page = Page([0, 0, 0, 0, 0, 0], target, answer=True)
    report = play(PageGame(target), page, driver_factory=factory(page, []))
    assert page.cells == target and report.answer is not None
    assert report.answer.where == Rect(70, 45, 50, 15)  # the banner, not the counter
    assert any(line.startswith("solved; the game answered the last move with a change "
                               "beside the board") for line in report.lines())
    # The same page without the banner: the counter changes on the last click too, but it
    # changed on every click before: no answer, the board verified cell by cell.
    quiet = Page([0, 0, 0, 0, 0, 0], target, answer=False)
    report = play(PageGame(target), quiet, driver_factory=factory(quiet, []))
    assert quiet.cells == target and report.answer is None
    assert "board verified; the game gave no sign" in report.lines()


class KeptGame(RowGame):
    """The row game under rules kept from another game: two clicks per cell, where this
    game toggles on each click, so the first batch lands nothing. Its experiment (one
    watched click) finds that one click does."""

    def __init__(self, target: list[int]) -> None:
        super().__init__(target)
        self.clicks: int | None = 2
        self.kept = True
        self.sent: list[int] = []

    def gestures(self, reading: list[int], moves: Sequence[int]) -> list[Gesture]:
        assert self.clicks is not None, "rules are known before any move"
        self.sent = list(moves)
        return [Click(i * CELL + CELL // 2, CELL // 2) for i in moves for _ in range(self.clicks)]

    def misfit(self, reading: list[int]) -> str | None:
        if not self.kept:
            return None
        self.kept = False
        made = sum(reading[i] == self.target[i] for i in self.sent)
        if made >= 0.9 * len(self.sent):
            return None
        self.clicks, self.presses = None, 0
        return f"the input kept in kept.json made {made} of {len(self.sent)} moves"

    def experiment(self, reading: list[int], solution: list[int]):  # type: ignore[override]
        return None if self.clicks is not None else self._learn(reading, solution)

    def _learn(self, reading: list[int], solution: list[int]):  # type: ignore[no-untyped-def]
        from autoplayer.play.experiment import Press

        i = next(k for k, (a, b) in enumerate(zip(reading, solution, strict=True)) if a != b)
        seen = yield Press([Click(i * CELL + CELL // 2, CELL // 2)], (),
                           lambda f: np.array(self.read(f)), lambda a, b: a != b,
                           np.array(reading))
        self.presses = 1
        self.clicks = 1 if seen.now[i] != reading[i] else 2
        return f"{self.clicks} click(s) toggle a cell"


def test_rules_kept_from_another_game_are_learned_again_when_the_first_batch_misses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One window title, two games that take input differently: the kept rules' first
    batch makes none of its moves, so the loop has the game learn again on this board,
    once, and plays on with what it learned."""
    monkeypatch.setattr("autoplayer.play.loop.SETTLE_TIMEOUT", 0.3)
    monkeypatch.setattr("autoplayer.play.loop.SETTLE_LONG_QUIET", 0.2)
    target = [1, 1, 1, 0, 1, 1]
    screen = Screen([0] * 6)
    game = KeptGame(target)
    report = play(game, screen, driver_factory=factory(screen, []))
    assert screen.cells == target and game.clicks == 1
    assert report.learned == "the input kept in kept.json made 0 of 4 moves; learned again " \
        "on this board: 1 click(s) toggle a cell"
    assert report.learn_presses == 1
    # Rules that make the first batch's moves are kept: no experiment.
    screen = Screen([0] * 6)
    game = KeptGame(target)
    game.clicks = 1
    report = play(game, screen, driver_factory=factory(screen, []))
    assert screen.cells == target and report.learn_presses == 0 and report.learned == ""
