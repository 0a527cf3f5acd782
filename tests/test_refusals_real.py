"""Refusals on real windows: another kind of puzzle, and a board larger than its window.

Simon Tatham's Keen (cages with thick borders and labels in the cells, no clues
beside the grid) and Towers (numbers on all four sides of the grid), run under
Xvfb: `autoplayer read` on a capture and `autoplayer play` on the window both
exit 2 with "no nonogram here", and play sends nothing and claims nothing. A
Chromium window smaller than the bundled game's board: both exit 2 naming the
edge the board runs past, instead of reporting misread clues.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from desktop import (
    needs_chromium,
    needs_xvfb,
    page_window,
    run_autoplayer,
    settled_window,
    tatham_game,
)

from autoplayer.commands.vision import save_png

if TYPE_CHECKING:
    from autoplayer.screen.xvfb import Xvfb
    from autoplayer.webgame.server import GameServer

pytestmark = [pytest.mark.e2e, needs_xvfb]

SCREEN = (1280, 900)

OTHER_PUZZLES = [("/usr/games/sgt-keen", "5#1", "Keen", "no clue numbers line up"),
                 ("/usr/games/sgt-towers", "5#1", "Towers", "numbers stand on all four sides")]


@pytest.mark.parametrize(("binary", "game_id", "title", "why"), OTHER_PUZZLES,
                         ids=[t for _, _, t, _ in OTHER_PUZZLES])
def test_another_kind_of_puzzle_is_no_nonogram(xserver: Xvfb, tmp_path: Path, binary: str,
                                               game_id: str, title: str, why: str) -> None:
    if not os.path.exists(binary):
        pytest.skip(f"{binary} is not installed (make system-deps installs sgt-puzzles)")
    shot = tmp_path / f"{title}.png"
    with tatham_game(xserver, binary, game_id, title) as source:
        save_png(shot, source.grab().pixels)
        played = run_autoplayer(xserver.display, "play", "--window", title, "--exact",
                                timeout=120)
        after = source.grab().pixels
    read = run_autoplayer(xserver.display, "read", str(shot))
    for done in (read, played):
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert "no nonogram here" in done.stderr and why in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert "verified" not in played.stdout and "gestures" not in played.stdout
    from autoplayer.commands.vision import load_image

    assert (load_image(str(shot)) == after).all(), "play changed the window"


@needs_chromium
def test_a_board_larger_than_its_window_names_the_edge(xserver: Xvfb, game_server: GameServer,
                                                       tmp_path: Path) -> None:
    """A 20x20 board of 24 px cells in a 700x500 window: its lower rows are out of sight."""
    shot = tmp_path / "cut.png"
    with page_window(game_server, xserver, width=700, height=500, size=(20, 20), cell=24,
                     seed=3, skin="sans", session="cut-board") as app:
        source = settled_window(xserver, app.window)
        try:
            save_png(shot, source.grab().pixels)
        finally:
            source.close()
        played = run_autoplayer(xserver.display, "play", "--window", "Random 20×20 #3",
                                timeout=120)
    state = game_server.state("cut-board")
    read = run_autoplayer(xserver.display, "read", str(shot))
    for done, what in ((read, "picture"), (played, "window")):
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert (f"the board continues past the {what}'s bottom edge: make the window taller "
                "or zoom out") in done.stderr, done.stderr
    assert state is not None and state["events"] == 0
