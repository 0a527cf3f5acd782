"""End to end: the bundled Ripple Effect page in real Chromium under Xvfb, real pynput input.

Each run draws its looks and input schemes at random from a seed (printed on
failure; AUTOPLAYER_SEED replays one, as in every randomised test; RIPPLE_E2E_SEED, the
name earlier reports print, still does). The verdict is the page's own: it
judges its board by the rules and reports to its server. The bot is told
neither the game nor the scheme: it picks the game from the window and learns
the scheme by its experiment.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from desktop import (
    needs_chromium,
    needs_xvfb,
    page_window,
    run_autoplayer,
    settled_window,
    user_grabs_the_mouse,
)
from draws import run_seed

from autoplayer.screen.xvfb import Xvfb

SCREEN = (1280, 1024)
WINDOW = (1100, 960)

pytestmark = [pytest.mark.e2e, needs_xvfb, needs_chromium]

SEED = int(os.environ.get("RIPPLE_E2E_SEED") or run_seed())
"""The run's seed; each test draws from it and its own name, so one seed replays them all."""


@pytest.fixture
def seeded(request: pytest.FixtureRequest) -> random.Random:
    print(f"ripple e2e seed {SEED} (AUTOPLAYER_SEED={SEED} replays it)")
    return random.Random(f"{SEED}:{request.node.name}")


def _session() -> str:
    from autoplayer.webgame.server import new_session_id

    return new_session_id()


VARIANTS = 3
"""Page variants drawn per run (small boards: each plays in a few seconds)."""


def _variant(rng: random.Random) -> dict[str, Any]:
    """A page as real players vary: how a digit goes in, Enter, focus, a busy page, a menu
    panel above the board."""
    from autoplayer.webgame.ripple import random_rules

    rules = random_rules(rng.randrange(1 << 20))
    return dict(size=rng.randint(4, 6), seed=rng.randrange(1000), look=rng.randrange(1000),
                menu=rng.choice(["none", "panel"]), **rules)


@pytest.mark.parametrize("draw", range(VARIANTS))
def test_plays_a_drawn_page_variant_to_its_own_solved_report(
        xserver: Xvfb, game_server: Any, draw: int, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot is told neither the game nor the input rules: it finds the board (past a
    menu panel), learns the rules by its experiment, keeps them in the window's profile,
    and plays; the page's own record judges. AUTOPLAYER_SEED replays the draws."""
    seed = run_seed()
    v = _variant(random.Random(f"{seed}:{draw}"))
    _plays_variant(xserver, game_server, v, f"AUTOPLAYER_SEED={seed} draw {draw}: {v}",
                   tmp_path, monkeypatch)


@pytest.mark.parametrize("focus", ["none", "click"])
def test_learns_a_page_where_every_click_counts(
        xserver: Xvfb, game_server: Any, focus: str, seeded: random.Random, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No select step: every click counts up. With focus=click the first click does
    nothing, and the second counting up looks like a page that selects unseen; one click
    on another cell tells them apart."""
    v = dict(size=5, seed=seeded.randrange(1000), look=seeded.randrange(1000), menu="none",
             scheme="cycle", commit="none", focus=focus, lag=0)
    _plays_variant(xserver, game_server, v, f"seed {SEED}: {v}", tmp_path, monkeypatch)


def test_relearns_when_the_kept_input_is_not_the_pages(
        xserver: Xvfb, game_server: Any, seeded: random.Random, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages under one window title may take input differently: the rules kept for the
    window are another scheme's, so most of the first batch does not land. The bot learns
    again on this board, plays it to the page's solved record, and keeps the new rules."""
    from autoplayer.games.ripple.entry import COUNT, PAD, TYPE, Input

    page, kept = seeded.choice([("count", TYPE), ("cycle", TYPE), ("type", COUNT),
                                ("type", PAD), ("cycle", PAD)])
    v = dict(size=5, seed=seeded.randrange(1000), look=seeded.randrange(1000), menu="none",
             scheme=page, commit="none", focus="none", lag=0)
    rules = Input(COUNT, select=False) if kept == "cycle" else Input(kept)
    report = _plays_variant(xserver, game_server, v, f"seed {SEED}: {v}, kept {rules}",
                            tmp_path, monkeypatch, kept=rules)
    assert "learned" in report.learned and str(tmp_path) in report.learned, report.learned
    assert report.learn_presses > 0, report.learned


def _plays_variant(xserver: Xvfb, game_server: Any, v: dict[str, Any], where: str,
                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: Any = None) -> Any:
    from autoplayer.commands.play import game_for, load_game
    from autoplayer.games.ripple.entry import save_input
    from autoplayer.games.ripple.game import RippleGame
    from autoplayer.play import play
    from autoplayer.profiles import profile_path, window_key

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    print(where)
    session = _session()
    size = v.pop("size")
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], game="ripple",
                     size=(size, size), session=session, **v) as app:
        source = settled_window(xserver, app.window)
        try:
            name = game_for(None, None, source.grab().pixels)
            assert name == "ripple", f"{where}: not seen as a Ripple board"
            if kept is not None:
                key = window_key(source.window.wm_class, source.window.title)
                save_input(profile_path(key, "ripple"), kept, key)
            game = load_game(name, window=source.window)
            assert kept is None or game.input == kept, where
            report = play(game, source, time_budget=120)
        finally:
            source.close()
        state = game_server.wait_for(session, lambda s, _: bool(s and s.get("solved")), 10)
        final = game_server.state(session)
    assert isinstance(game, RippleGame) and game.input is not None, where
    cycle = v["scheme"] == "cycle"
    assert game.input.entry == ("count" if cycle else v["scheme"]), (where, game.input)
    assert game.input.entry != "count" or game.input.select != cycle, (where, game.input)
    assert game.input.enter == (v["commit"] == "enter"), (where, game.input)
    assert state and final["solved"] is True, (where, final)
    assert report.check is not None and report.check.wrong == 0, where
    # Every event the page took came from the bot (its clicks and keys, no more), and the
    # bot never pressed while the page was busy drawing the press before.
    assert final["clicks"] + final["keys"] <= report.gestures, where
    assert final["dropped"] == 0, (where, final)
    # What was learned is kept for this window: the next game there needs no experiment.
    again = load_game("ripple", window=source.window)
    assert again.input == game.input, where
    print(f"{where}: learned '{report.learned}' in {report.learn_presses} presses; "
          f"{report.gestures} gestures, {report.total:.1f} s")
    return report


def test_cli_plays_from_the_window_title(xserver: Xvfb, game_server: Any,
                                         seeded: random.Random) -> None:
    session = _session()
    look = seeded.randrange(1000)
    seed, scheme = seeded.randrange(1000), seeded.choice(["type", "count"])
    params = dict(game="ripple", size=(6, 6), seed=seed, look=look, scheme=scheme,
                  session=session)
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], **params) as app:
        settled_window(xserver, app.window).close()
        done = run_autoplayer(xserver.display, "play", "--window", "Ripple Effect",
                              "--time-budget", "120")
        game_server.wait_for(session, lambda s, _: bool(s and s.get("solved")), 10)
        state = game_server.state(session)
    context = f"seed {SEED}: 6x6 puzzle {seed}, look {look}, scheme {scheme}"
    assert done.returncode == 0, f"{context}: {done.stderr}"
    assert state["solved"] is True, context
    assert "every cell verified" in done.stdout, context


def test_several_solutions_are_refused_without_input(xserver: Xvfb, game_server: Any,
                                                      tmp_path: Path) -> None:
    from autoplayer.games.ripple.generator import generate
    from autoplayer.games.ripple.model import EMPTY
    from autoplayer.games.ripple.solver import solve

    puzzle, _ = generate(6, 6, 11, max_room=8)
    givens = list(puzzle.givens)
    # Take givens away until the puzzle has more than one solution.
    for cell in [i for i, v in enumerate(givens) if v]:
        givens[cell] = EMPTY
        if len(solve(puzzle.with_givens(givens), limit=2).solutions) > 1:
            break
    loose = puzzle.with_givens(givens)
    assert len(solve(loose, limit=2).solutions) > 1
    session = _session()
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], game="ripple",
                     puzzle=loose, session=session) as app:
        settled_window(xserver, app.window).close()
        overlay = tmp_path / "several.png"
        done = run_autoplayer(xserver.display, "play", "--window", "Ripple Effect",
                              "--overlay", str(overlay))
        time.sleep(0.3)
        state = game_server.state(session)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "several solutions" in done.stderr
    assert "Traceback" not in done.stderr
    assert state["events"] == 0


def test_a_corrupted_capture_ends_in_exit_2_with_no_input(xserver: Xvfb, game_server: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A capture whose digits are smudged (a glyph's ink wiped) reads as a misread board."""
    import numpy as np

    from autoplayer.errors import UserError
    from autoplayer.games.ripple.game import make_game
    from autoplayer.play import play

    session = _session()
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], game="ripple",
                     size=(7, 7), seed=5, look=2, session=session) as app:
        source = settled_window(xserver, app.window)
        clean = source.grab()
        grab = source.grab

        def corrupted() -> Any:
            frame = grab()
            from autoplayer.games.ripple.reader import read_ripple

            reading = read_ripple(clean.pixels)
            pixels = frame.pixels.copy()
            # Every given's box painted with a bar through its middle: no digit reads.
            for i, cell in enumerate(reading.cells):
                if cell is not None:
                    b = cell.number.box
                    pixels[b.y + b.h // 2 - 1:b.y + b.h // 2 + 2, b.x - 2:b.right + 2] = \
                        np.array(reading.cells[i].colour, np.uint8)
            return dataclasses.replace(frame, pixels=pixels)

        monkeypatch.setattr(source, "grab", corrupted)
        try:
            with pytest.raises(UserError) as err:
                play(make_game(), source, time_budget=60)
        finally:
            source.close()
        time.sleep(0.3)
        state = game_server.state(session)
    assert err.value.exit_code == 2
    assert "region" in str(err.value)
    assert state["events"] == 0


def test_dry_run_sends_nothing_and_draws_the_overlay(xserver: Xvfb, game_server: Any,
                                                     seeded: random.Random,
                                                     tmp_path: Path) -> None:
    """`play --dry-run --overlay`: the page takes no event and keeps its board; the overlay
    is the capture with rooms, givens and the solution drawn over the board; the report
    counts the whole input, saying what it assumed about the page's scheme."""
    import re

    import cv2
    import numpy as np

    from autoplayer.games.ripple.solver import solve
    from autoplayer.webgame.ripple import seeded_puzzle

    session = _session()
    size, seed, look = 7, seeded.randrange(1000), seeded.randrange(1000)
    overlay = tmp_path / "dry.png"
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], game="ripple",
                     size=(size, size), seed=seed, look=look,
                     scheme=seeded.choice(["type", "count"]), session=session) as app:
        source = settled_window(xserver, app.window)
        try:
            plain = source.grab().pixels
        finally:
            source.close()
        done = run_autoplayer(xserver.display, "play", "--window", "Ripple Effect",
                              "--dry-run", "--overlay", str(overlay))
        time.sleep(0.3)
        state = game_server.state(session)
    context = f"seed {SEED}: puzzle {seed}, look {look}"
    assert done.returncode == 0, (context, done.stderr)
    assert state["events"] == 0 and state["clicks"] == 0 and state["keys"] == 0, context
    assert not any(state["values"]), context
    puzzle = seeded_puzzle(size, size, seed)
    solution = solve(puzzle).solutions[0]
    whole = sum(1 + len(str(v)) for v, g in zip(solution, puzzle.givens, strict=True) if not g)
    said = re.search(r"would make (\d+) gestures", done.stdout)
    assert said and int(said.group(1)) == whole, (context, done.stdout)
    assert "counted as if it takes typing" in done.stdout, context
    drawn = cv2.cvtColor(cv2.imread(str(overlay)), cv2.COLOR_BGR2RGB)
    height = plain.shape[0]  # below the capture: a band with the board's puzz.link URL
    assert drawn.shape[1:] == plain[..., :3].shape[1:] and drawn.shape[0] > height, context
    assert (drawn[height:] < 128).any(), context
    drawn = drawn[:height]
    changed = np.any(drawn != plain[..., :3], axis=2)
    from autoplayer.games.ripple.reader import read_ripple

    b = read_ripple(plain).lattice.rect  # where the board is in the capture
    x0, y0, x1, y1 = b.x, b.y, b.right, b.bottom
    inside = changed[y0:y1, x0:x1]
    assert inside.mean() > 0.02, (context, inside.mean())  # rooms and the solution drawn
    changed[y0 - 3:y1 + 3, x0 - 3:x1 + 3] = False
    assert changed.mean() < 0.01, context  # the rest is the capture


def test_moving_the_mouse_mid_play_aborts_with_exit_3(xserver: Xvfb, game_server: Any,
                                                      seeded: random.Random) -> None:
    """The user takes the mouse once the page has taken three events: the bot stops with
    the Aborted exit code, one line, and sends nothing after it has exited."""
    from autoplayer.errors import Aborted

    session = _session()
    look = seeded.randrange(1000)
    with page_window(game_server, xserver, width=WINDOW[0], height=WINDOW[1], game="ripple",
                     size=(9, 9), seed=seeded.randrange(1000), look=look,
                     scheme=seeded.choice(["type", "count"]), session=session) as app:
        settled_window(xserver, app.window).close()
        done, at_exit, later = user_grabs_the_mouse(
            xserver.display, game_server, session, "play", "--window", "Ripple Effect",
            "--pace", "80")
    context = f"seed {SEED}, look {look}"
    assert done.returncode == Aborted.exit_code == 3, (context, done.stdout, done.stderr)
    assert "aborted: the mouse moved" in done.stderr, context
    assert len(done.stderr.strip().splitlines()) == 1, context
    assert 3 <= at_exit == later["events"], context
    assert later["solved"] is False, context
