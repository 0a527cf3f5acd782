"""End to end: the bundled game in real Chromium under Xvfb, played with real pynput input.

The verdicts come from the game itself: the page judges its own board and
reports it (grid, solved, mouse presses taken) to its server, which the
tests ask. Nothing here reads the page's DOM or tells the bot where the board is.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from desktop import (
    needs_chromium,
    needs_xvfb,
    run_autoplayer,
    settled_window,
    solved_state,
    user_grabs_the_mouse,
)

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.geometry import Button, Click, Drag, Gesture, points
from autoplayer.screen.xvfb import Xvfb

SCREEN = (1280, 1024)

pytestmark = [pytest.mark.e2e, needs_xvfb, needs_chromium]


def title(size: int, seed: int) -> str:
    return f"Random {size}×{size} #{seed}"


@pytest.fixture(scope="module")
def calibrated(xserver: Xvfb, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Digit templates for a skin, learned the way a user would: `autoplayer calibrate` on a
    screenshot of a puzzle whose clues are known (a different puzzle from those played)."""
    from PIL import Image

    from autoplayer.commands.play import bundled_game
    from autoplayer.games.nonogram.formats import save_puzzle

    made: dict[tuple[str, str], str] = {}
    where = tmp_path_factory.mktemp("calibration")

    def templates(skin: str, theme: str) -> str:
        if (skin, theme) not in made:
            shot, known = where / f"{skin}-{theme}.png", where / f"{skin}-{theme}.non"
            with bundled_game(xserver.display, size=20, seed=100, skin=skin, theme=theme) as page:
                source = settled_window(xserver, page.window)
                Image.fromarray(source.grab().pixels).save(shot)
                source.close()
                save_puzzle(page.puzzle(), known)
            done = run_autoplayer(xserver.display, "calibrate", str(shot), "--puzzle", str(known),
                                  "--name", f"{skin}-{theme}", "--dir", str(where))
            assert done.returncode == 0, done.stderr
            made[skin, theme] = str(where / "templates" / f"{skin}-{theme}")
        return made[skin, theme]

    return templates


@pytest.mark.parametrize("skin,theme,size,seed,trained", [
    ("pixel", "light", 10, 3, False),   # the state machines alone, no templates
    ("pixel", "light", 20, 8, False),
    ("serif", "light", 15, 5, True),    # calibrated templates
    ("mono", "light", 12, 7, True),
])
def test_plays_to_the_games_own_solved_verdict(xserver: Xvfb, calibrated: Any, skin: str,
                                                theme: str, size: int, seed: int,
                                                trained: bool) -> None:
    from autoplayer.commands.play import bundled_game
    from autoplayer.games.nonogram.game import make_game
    from autoplayer.play import play

    templates = calibrated(skin, theme) if trained else None
    with bundled_game(xserver.display, size=size, seed=seed, skin=skin, theme=theme) as page:
        source = settled_window(xserver, page.window)
        try:
            report = play(make_game(templates=templates, window=source.window), source,
                          time_budget=120)
        finally:
            source.close()
        state = solved_state(page.server, page.session)
    assert state["solved"] is True
    assert report.check is not None and report.check.wrong == 0
    # Every press the page took is one the bot made: a drag is one press.
    assert state["events"] == report.gestures
    assert report.gestures < report.units_changed
    assert report.first_input is not None


def test_dry_run_sends_no_input_and_writes_the_overlay(xserver: Xvfb, tmp_path: Path) -> None:
    from autoplayer.commands.play import bundled_game

    overlay = tmp_path / "read.png"
    with bundled_game(xserver.display, size=10, seed=4) as page:
        settled_window(xserver, page.window).close()
        done = run_autoplayer(xserver.display, "play", "--window", title(10, 4), "--dry-run",
                              "--overlay", str(overlay), timeout=120)
        time.sleep(0.3)
        state = page.state()
    assert done.returncode == 0, done.stderr
    assert "dry run: no input sent" in done.stdout
    assert state["events"] == 0
    assert (np.array(state["grid"]) == UNKNOWN).all()
    assert overlay.stat().st_size > 0


def test_moving_the_mouse_aborts_with_exit_3_and_no_further_input(xserver: Xvfb) -> None:
    from autoplayer.commands.play import bundled_game

    with bundled_game(xserver.display, size=15, seed=6) as page:
        settled_window(xserver, page.window).close()
        done, at_exit, later = user_grabs_the_mouse(
            xserver.display, page.server, page.session, "play", "--window", title(15, 6),
            "--pace", "80")
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert "aborted: the mouse moved" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1  # one line, no traceback
    assert 3 <= at_exit == later["events"]
    assert later["solved"] is False


def test_a_misread_is_a_clear_error_and_nothing_is_clicked(xserver: Xvfb) -> None:
    """A screenshot whose first column clue is wiped: the reader must refuse, not guess."""
    from autoplayer.commands.play import bundled_game
    from autoplayer.games.nonogram.game import make_game
    from autoplayer.play import play
    from autoplayer.screen.capture import Frame

    with bundled_game(xserver.display, size=10, seed=9) as page:
        source = settled_window(xserver, page.window)
        clean = make_game().read(source.grab())
        boxes = [n.box for n in clean.raw.column_numbers[0]]
        assert boxes, "column 1 of this puzzle has clue numbers"

        class Corrupted:
            def grab(self) -> Frame:
                frame = source.grab()
                pixels = frame.pixels.copy()
                for b in boxes:
                    pixels[b.y - 1:b.bottom + 1, b.x - 1:b.right + 1] = pixels[b.y - 2, b.x - 2]
                return Frame(pixels, frame.origin, frame.scale)

            def moved(self, frame: Frame) -> bool:
                return source.moved(frame)

            def close(self) -> None:
                source.close()

        try:
            with pytest.raises(InputError) as err:
                play(make_game(), Corrupted(), time_budget=60)
        finally:
            source.close()
        time.sleep(0.3)
        state = page.state()
    assert "\n" not in str(err.value) and err.value.region is not None
    assert state["events"] == 0


def test_prefilled_board_is_finished_without_touching_right_cells(xserver: Xvfb) -> None:
    from autoplayer.commands.play import bundled_game
    from autoplayer.games.nonogram.game import make_game
    from autoplayer.games.nonogram.solver import Verdict, solve
    from autoplayer.play import default_driver, play
    from autoplayer.screen.input import InputDriver, Pace

    with bundled_game(xserver.display, size=10, seed=12) as page:
        puzzle = page.puzzle()
        result = solve(puzzle)
        assert result.verdict in (Verdict.LINE_SOLVABLE, Verdict.UNIQUE)
        solution = result.solutions[0]
        source = settled_window(xserver, page.window)
        game = make_game(window=source.window)
        frame = source.grab()
        reading = game.read(frame)
        # Cells spread over the board, as a person's first moves would be.
        filled = [tuple(c) for c in np.argwhere(solution == FILLED)][::5]
        empty = [tuple(c) for c in np.argwhere(solution == EMPTY)][::5]
        right = filled[:5] + empty[:3]          # filled right, and marked right
        wrong = empty[3:7] + filled[5:8]        # filled wrongly, and marked wrongly
        presses = ([(c, Button.LEFT) for c in filled[:5] + empty[3:7]]
                   + [(c, Button.RIGHT) for c in empty[:3] + filled[5:8]])

        def at(cell: tuple[int, int], button: Button = Button.LEFT) -> Click:
            x, y = frame.to_screen(reading.xs[cell[1]], reading.ys[cell[0]])
            return Click(x, y, button)

        with InputDriver(frame.rect_to_screen(reading.grid), Pace(gesture=0.15)) as user:
            user.perform([at(c, b) for c, b in presses])
        assert page.server.wait_for(
            page.session, lambda s, _: bool(s and s["events"] == len(presses)), 10)
        before = np.array(page.state()["grid"])
        assert all(before[c] == FILLED for c in filled[:5])
        assert all(before[c] == EMPTY for c in empty[:3] + filled[5:8])

        sent: list[Gesture] = []

        def recording(*args: Any) -> InputDriver:
            driver = default_driver(*args)
            perform = driver.perform

            def perform_and_record(gestures: list[Gesture]) -> None:
                sent.extend(gestures)
                perform(gestures)

            driver.perform = perform_and_record  # type: ignore[method-assign]
            return driver

        try:
            report = play(game, source, driver_factory=recording, time_budget=120)
        finally:
            source.close()
        state = solved_state(page.server, page.session)
    assert state["solved"] is True
    assert report.right_at_start >= len(right)

    def cell_of(x: int, y: int) -> tuple[int, int]:
        xs = [frame.to_screen(cx, 0)[0] for cx in reading.xs]
        ys = [frame.to_screen(0, cy)[1] for cy in reading.ys]
        return int(np.argmin(np.abs(np.array(ys) - y))), int(np.argmin(np.abs(np.array(xs) - x)))

    touched = set()
    for g in sent:
        if isinstance(g, Drag):
            (r0, c0), (r1, c1) = cell_of(g.x0, g.y0), cell_of(g.x1, g.y1)
            touched |= {(r, c) for r in range(min(r0, r1), max(r0, r1) + 1)
                        for c in range(min(c0, c1), max(c0, c1) + 1)}
        else:
            touched |= {cell_of(*p) for p in points(g)}
    assert not touched & set(right)
    assert set(wrong[:4]) <= touched  # the wrong fills were cleared
