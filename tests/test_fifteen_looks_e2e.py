"""End to end: the bundled 15-puzzle page in its random looks and rules, played under Xvfb
with real pynput input, judged by the page's own record.

Each run draws its pages from a fresh seed (printed; AUTOPLAYER_SEED=N replays it): tiles
with borders or numerals on a flat panel, four fonts, the gap last or first when solved,
clicks that slide a run or only a neighbour of the gap or nothing, arrow keys in either
sense, animations that drop input. The bot is told none of it: it finds the board, infers
the goal from the tiles and learns the input by experiment, at most 6 presses.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from desktop import needs_chromium, needs_xvfb, page_window, settled_window, solved_state
from draws import run_seed

from autoplayer.screen.xvfb import Xvfb
from autoplayer.webgame.fifteen import random_look

SCREEN = (1024, 768)
MAX_PRESSES = 6
SEED = run_seed()

pytestmark = [pytest.mark.e2e, needs_xvfb, needs_chromium]


@contextmanager
def page(xserver: Xvfb, server: Any, **params: Any) -> Iterator[tuple[str, Any]]:
    from autoplayer.webgame.server import new_session_id

    session = new_session_id()
    with page_window(server, xserver, width=760, height=700, game="fifteen", session=session,
                     **params) as app:
        source = settled_window(xserver, app.window)
        try:
            yield session, source
        finally:
            source.close()


def draw_page(rng: random.Random) -> dict[str, Any]:
    """A page quick to play: a 3x3 board (in serif italic too: its 1 once read as a 2),
    slides of at most 160 ms (the experiment times each slide whatever its length; a
    longer one only makes the test slower)."""
    look = rng.randrange(1 << 20)
    drawn = random_look(look)
    # Numerals only: picture tiles are test_fifteen_pictures_e2e's.
    tiles = {"tiles": "flat"} if drawn["tiles"] == "picture" else {}
    return {"size": (3, 3), "seed": rng.randrange(1000), "look": look,
            "slide": min(drawn["slide"], 160), **tiles}


@pytest.mark.parametrize("draw", range(2))
def test_random_pages_are_played_to_their_own_solved_flag(xserver: Xvfb, game_server: Any,
                                                         draw: int) -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.play import play

    params = draw_page(random.Random(f"{SEED}:{draw}"))
    context = f"AUTOPLAYER_SEED={SEED} draw {draw}: {params} {random_look(params['look'])}"
    print(context, flush=True)
    with page(xserver, game_server, **params) as (session, source):
        game = FifteenGame(solver="optimal" if params["size"][0] == 3 else "fast")
        report = play(game, source, time_budget=120)
        state = solved_state(game_server, session)
    print(report.lines(), flush=True)
    assert state["solved"] is True, context
    assert state["cells"] == state["goal"], context
    assert 0 < game.presses <= MAX_PRESSES, context
    # Every input the page took is one the bot sent, and none was dropped mid-slide.
    assert state["events"] == report.gestures, context
    assert state["dropped"] == 0, context
    assert state["slides"] == report.units_changed + game.learned_slides, context


def test_arrows_that_move_differently_per_axis_are_learned_again_on_the_board(
        xserver: Xvfb, game_server: Any) -> None:
    """Left and right move the tile, up and down the gap: the experiment presses one axis
    and takes the other to move alike; the first batch that presses an arrow of the other
    axis goes astray, and the bot learns again, pressing every axis, then plays to the
    page's solved flag."""
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.games.fifteen.rules import GAP_SENSE, TILE_SENSE
    from autoplayer.play import play

    rng = random.Random(f"{SEED}:mixed")
    params = {"size": (3, 3), "seed": rng.randrange(1000), "look": rng.randrange(1 << 20),
              "click": "none", "keys": "mixed", "busy": "ignore", "font": "sans",
              "tiles": "flat", "slide": 100}
    context = f"AUTOPLAYER_SEED={SEED}: {params}"
    print(context, flush=True)
    with page(xserver, game_server, **params) as (session, source):
        game = FifteenGame(solver="optimal")
        report = play(game, source, time_budget=120)
        state = solved_state(game_server, session)
    print(report.lines(), flush=True)
    assert state["solved"] is True and state["dropped"] == 0, context
    assert state["events"] == report.gestures, context
    assert "taken to move as" in report.learned and "learned again" in report.learned, \
        (context, report.learned)
    assert game.rules is not None and dict(game.rules.keys) == {
        "left": TILE_SENSE["left"], "right": TILE_SENSE["right"], "up": GAP_SENSE["up"],
        "down": GAP_SENSE["down"]}, (context, game.rules)


def test_a_game_seen_before_costs_no_experiment(xserver: Xvfb, game_server: Any) -> None:
    """`autoplayer play` on a page that takes arrow keys only (clicks slide nothing) and
    drops input while it animates: the first run learns the keys' sense by experiment and
    keeps it; the second, on another board of the same game, presses nothing to learn. The
    third, under the same window title, is a page whose keys move the other way: the kept
    rules' first batch goes astray, and the bot learns again and plays it."""
    import json

    from desktop import run_autoplayer

    rng = random.Random(f"{SEED}:keys")
    look = rng.randrange(1 << 20)
    keys = rng.choice(("tile", "gap"))
    tiles = {"tiles": "flat"} if random_look(look)["tiles"] == "picture" else {}
    other = "gap" if keys == "tile" else "tile"
    runs = []
    for puzzle, sense in ((rng.randrange(1000), keys), (rng.randrange(1000), keys),
                          (rng.randrange(1000), other)):
        params = {"size": (3, 3), "seed": puzzle, "look": look, "click": "none", "keys": sense,
                  "busy": "ignore", "font": "sans", "slide": 120, **tiles}
        context = f"AUTOPLAYER_SEED={SEED}: {params}"
        print(context, flush=True)
        with page(xserver, game_server, **params) as (session, _source):
            done = run_autoplayer(xserver.display, "play", "--window", "Fifteen",
                                  "--solver", "optimal", "--json")
            state = solved_state(game_server, session)
        assert done.returncode == 0, f"{context}: {done.stderr}"
        report = json.loads(done.stdout)
        assert state["solved"] is True and state["dropped"] == 0, context
        assert state["events"] == report["gestures"], context
        print(f"learned: {report['learned']}", flush=True)
        runs.append(report)
    first, second, third = runs
    assert 0 < first["learn_presses"] <= MAX_PRESSES, first["learned"]
    assert "arrow keys move" in first["learned"]
    assert ("the tile into the gap" if keys == "tile" else "the gap into the tile") in \
        first["learned"]
    assert second["learn_presses"] == 0 and second["learned"].startswith("input from "), \
        second["learned"]
    assert "learned again" in third["learned"] and third["learn_presses"] > 0, third["learned"]
    assert ("the tile into the gap" if other == "tile" else "the gap into the tile") in \
        third["learned"].split("learned again")[1], third["learned"]
