"""End to end: the 15-puzzle played from the screen with real pynput input under Xvfb.

Two real games: Debian's `sgt-fifteen` (GTK; boards from its own generator,
several seeds) and the bundled page in Chromium. The verdicts are the games'
own: Tatham's status bar gains its "COMPLETED! " prefix (its text is measured,
not read: the ink of "COMPLETED! Moves: N" is about twice as wide as that of
"Moves: 0", while an unfinished game's "Moves: N" is barely wider), and a fresh
capture after the game has settled reads as the goal; the page reports its own
solved flag and every click it took to its server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from autoplayer.screen.xvfb import Xvfb, virtual_display

SGT = "/usr/games/sgt-fifteen"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]
needs_sgt = pytest.mark.skipif(not os.path.exists(SGT), reason="sgt-puzzles is not installed")
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None,
                                    reason="Chromium is not installed")


@pytest.fixture(scope="module")
def xserver() -> Iterator[Xvfb]:
    with virtual_display(1024, 768) as x:
        yield x


def park_pointer(display: str) -> None:
    """Off every window, where a user starting the bot from a terminal would have it."""
    subprocess.run(["xdotool", "mousemove", "1020", "760"], check=True,
                   env={**os.environ, "DISPLAY": display})


def run_cli(*args: str, display: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autoplayer", *args],
                          env={**os.environ, "DISPLAY": display}, capture_output=True,
                          text=True, timeout=180, check=False)


# --- Tatham's Fifteen ------------------------------------------------------------------
def generate(params: str) -> str:
    """A game ID from Tatham's own generator (`4x4#seed` -> `4x4:...`)."""
    out = subprocess.run([SGT, "--generate", "1", params], capture_output=True, text=True,
                         check=True, timeout=30)
    return out.stdout.strip()


@contextmanager
def tatham(display: str, game_id: str) -> Iterator[Any]:
    """`sgt-fifteen GAME_ID` on the display; yields a WindowSource on its window, painted."""
    from autoplayer.commands.play import wait_until_still
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource

    proc = subprocess.Popen([SGT, game_id], env={**os.environ, "DISPLAY": display},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    source = None
    try:
        deadline = time.monotonic() + 20
        while source is None:
            try:
                source = WindowSource(Screen(), "Fifteen", exact=True, display=display)
            except Exception:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        park_pointer(display)
        wait_until_still(source)
        yield source
    finally:
        if source is not None:
            source.close()
        proc.terminate()
        proc.wait(10)


def status_ink_width(pixels: np.ndarray, board_bottom: int) -> int:
    """Width in pixels of the dark text in the status bar (the band below the board)."""
    from autoplayer.vision.image import luminance

    band = luminance(pixels[board_bottom + 2:])
    cols = np.flatnonzero((band < 100).any(axis=0))
    return int(cols[-1] - cols[0] + 1) if cols.size else 0


def settled_reading(source: Any, game: Any) -> Any:
    """A reading of the window once it has stopped changing (the completion flash is over)."""
    from autoplayer.commands.play import wait_until_still

    time.sleep(0.4)
    return game.read(wait_until_still(source))


@needs_sgt
@pytest.mark.parametrize("params", ["3x3#11", "3x3#12", "4x4#13", "4x4#14", "2x3#18"])
def test_plays_tathams_fifteen_to_completed(xserver: Xvfb, params: str) -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.play import play

    game_id = generate(params)
    with tatham(xserver.display, game_id) as source:
        first = source.grab()
        game = FifteenGame(solver="fast")
        start = game.read(first)
        assert start.shown.board.spec() == game_id  # the reader saw the generator's board
        before = status_ink_width(first.pixels, start.shown.rect.bottom)
        report = play(game, source, time_budget=120)
        end = settled_reading(source, FifteenGame())
        after = status_ink_width(source.grab().pixels, end.shown.rect.bottom)
    assert report.check is not None and report.check.wrong == 0
    assert end.unreadable is None and end.shown.board.is_solved()
    assert after > 1.6 * before, "the status bar does not show COMPLETED!"
    # One click per run of slides along a line: fewer clicks than tiles moved.
    assert 0 < report.gestures < report.units_changed


@needs_sgt
def test_autoplayer_play_window_fifteen(xserver: Xvfb) -> None:
    """The command a user types: the game is chosen from the window, exit 0 when solved."""
    from autoplayer.games.fifteen.game import FifteenGame

    with tatham(xserver.display, generate("4x4#15")) as source:
        start = FifteenGame().read(source.grab())
        before = status_ink_width(source.grab().pixels, start.shown.rect.bottom)
        done = run_cli("play", "--window", "Fifteen", "--profile", "fast", "--json",
                       display=xserver.display)
        end = settled_reading(source, FifteenGame())
        after = status_ink_width(source.grab().pixels, end.shown.rect.bottom)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["game"] == "fifteen" and report["wrong"] == 0
    assert end.shown.board.is_solved()
    assert after > 1.6 * before


@needs_sgt
def test_dry_run_reads_and_plans_without_a_click(xserver: Xvfb, tmp_path: Any) -> None:
    overlay = tmp_path / "read.png"
    with tatham(xserver.display, generate("4x4#17")) as source:
        first = source.grab()
        done = run_cli("play", "--window", "Fifteen", "--dry-run", "--profile", "fast",
                       "--overlay", str(overlay), display=xserver.display)
        time.sleep(0.3)
        later = source.grab()
    assert done.returncode == 0, done.stderr
    from autoplayer.games.fifteen.game import CLICKS_PER_BATCH

    # The first batch's clicks (a 4x4 shuffle needs more than one batch).
    assert f"dry run: no input sent; would make {CLICKS_PER_BATCH} gestures" in done.stdout
    assert np.array_equal(first.pixels, later.pixels)  # not a tile moved, not a move counted
    assert overlay.stat().st_size > 0


@needs_sgt
def test_an_unsolvable_reading_is_refused_before_any_click(xserver: Xvfb) -> None:
    """A board with two tiles swapped (no sequence of slides solves it): exit 2, one line,
    and the game's move counter never moves."""
    board = generate("3x3#16").split(":")[1].split(",")
    i, j = [k for k, t in enumerate(board) if t != "0"][:2]
    board[i], board[j] = board[j], board[i]
    from autoplayer.games.fifteen.game import FifteenGame

    with tatham(xserver.display, "3x3:" + ",".join(board)) as source:
        first = source.grab()
        reading = FifteenGame().read(first)
        done = run_cli("play", "--window", "Fifteen", display=xserver.display)
        time.sleep(0.3)
        later = source.grab()
    assert done.returncode == 2
    assert "cannot be solved" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert np.array_equal(first.pixels, later.pixels)
    assert not reading.shown.board.is_solved()


# --- the bundled page -----------------------------------------------------------------
@contextmanager
def fifteen_page(display: str, size: int, seed: int) -> Iterator[tuple[Any, str, Any]]:
    """The page in a Chromium app window: (server, session, WindowSource), page drawn."""
    from autoplayer.commands.play import wait_until_still
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource
    from autoplayer.webgame.browser import launch_app
    from autoplayer.webgame.server import GameServer, new_session_id

    with GameServer() as server:
        session = new_session_id()
        url = server.url(game="fifteen", size=(size, size), seed=seed, session=session)
        with launch_app(url, display=display, width=760, height=700) as app:
            assert server.wait_for(session, lambda s, lay: s is not None and lay is not None,
                                   60), "the page did not load"
            park_pointer(display)
            source = WindowSource(Screen(), window_id=app.window, display=display)
            try:
                wait_until_still(source)
                yield server, session, source
            finally:
                source.close()


@needs_chromium
@pytest.mark.parametrize("size,seed", [(3, 21), (4, 22), (4, 23), (5, 24)])
def test_plays_the_bundled_page_to_its_solved_flag(xserver: Xvfb, size: int, seed: int) -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.play import play

    with fifteen_page(xserver.display, size, seed) as (server, session, source):
        assert not server.state(session)["solved"]
        report = play(FifteenGame(solver="fast"), source, time_budget=120)
        server.wait_for(session, lambda s, _: bool(s and s.get("solved")), 10)
        state = server.state(session)
    assert state["solved"] is True
    assert state["cells"] == [*range(1, size * size), 0]
    # Every click the page took is one the bot made, and each one slid something.
    assert state["events"] == report.gestures
    assert state["slides"] == report.units_changed > report.gestures


@needs_chromium
def test_autoplayer_play_on_the_page(xserver: Xvfb) -> None:
    with fifteen_page(xserver.display, 3, 25) as (server, session, _source):
        done = run_cli("play", "--window", "Fifteen – 3×3 #25", "--profile", "fast",
                       display=xserver.display)
        server.wait_for(session, lambda s, _: bool(s and s.get("solved")), 10)
        state = server.state(session)
    assert done.returncode == 0, done.stderr
    assert "every tile verified" in done.stdout
    assert state["solved"] is True


@needs_chromium
def test_moving_the_mouse_aborts_with_exit_3_and_no_further_clicks(xserver: Xvfb) -> None:
    import threading

    with fifteen_page(xserver.display, 4, 26) as (server, session, _source):
        proc = subprocess.Popen(
            [sys.executable, "-m", "autoplayer", "play", "--window", "Fifteen – 4×4 #26",
             "--profile", "fast", "--pace", "300"],
            env={**os.environ, "DISPLAY": xserver.display}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)

        def user_moves_mouse() -> None:
            server.wait_for(session, lambda s, _: bool(s and s["events"] >= 3), 120)
            subprocess.run(["xdotool", "mousemove", "5", "5"], check=True,
                           env={**os.environ, "DISPLAY": xserver.display})

        mover = threading.Thread(target=user_moves_mouse)
        mover.start()
        out, err = proc.communicate(timeout=180)
        mover.join()
        time.sleep(0.5)
        at_exit = server.state(session)["events"]
        time.sleep(1.0)
        later = server.state(session)
    assert proc.returncode == 3, (out, err)
    assert "aborted: the mouse moved" in err and len(err.strip().splitlines()) == 1
    assert 3 <= at_exit == later["events"]
    assert later["solved"] is False
