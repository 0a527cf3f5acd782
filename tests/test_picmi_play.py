"""`autoplayer play` on KDE's Picmi (a real Qt nonogram game) under Xvfb, to Picmi's own
"Board Solved!".

Each case starts Picmi on a random level of a known seed (tests/picmi.py; the seed
is printed), with the pointer parked off its window as a user's would be, and runs
the command as a user types it, with a config directory of its own (conftest's
`private_config`): so the bot has never seen Picmi and learns its rules first, by
experiment. Passing means exit 0, the report saying the game showed its sign, and
Picmi's own record of the level as solved (`PicmiGame.solved`: the time it writes
to its settings on a win, never on Move > Solve). A second board played with the
rules learned on the first takes no learning presses.

What the bot meets there (tests/test_picmi_rules.py has the facts): the board is
right only once enough blanks are crossed, so after the fills the bot waits for a
sign, gets none and crosses the empty cells; Picmi then opens a separate modal
window over the board; it draws a miniature of the picture beside the board as it
is played; and it keeps the row and column of the last cell the pointer entered
lit, wherever the pointer goes (Qt merges queued motion events, so the pointer
must rest on the cell it parks through).

Runtime: about 4-8 s a board with learning (Picmi starts in about 1 s), 2-3 s
with a profile; about 40 s for the file (60 s with both cores busy elsewhere).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from desktop import needs_xdotool, needs_xvfb
from picmi import PicmiGame, needs_picmi, random_level

from autoplayer.screen.xvfb import Xvfb

SCREEN = (1280, 1024)

pytestmark = [pytest.mark.e2e, needs_picmi, needs_xvfb, needs_xdotool]

BOARDS = [
    (5, 5, 101, None),           # Picmi's default window, 700x560
    (10, 10, 202, None),
    (15, 10, 303, None),
    (20, 15, 404, (1000, 800)),  # a window large enough for its clues to read
    (30, 20, 1, (1100, 800)),    # digits 13 px tall: 1s with a one-pixel stem, 3s, 5s
]
"""(width, height, seed, window size): random levels of several sizes."""


def play_cli(display: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """`autoplayer play --window Picmi` as a user runs it (the config directory is this
    test's, from the environment)."""
    env = {**os.environ, "DISPLAY": display}
    return subprocess.run([sys.executable, "-m", "autoplayer", "play", "--window", "Picmi",
                           "--time-budget", "120", *extra], env=env, capture_output=True,
                          text=True, timeout=180, check=False)


def start(xserver: Xvfb, tmp_path: Path, width: int, height: int, seed: int,
          window: tuple[int, int] | None, name: str = "picmi") -> PicmiGame:
    size = "default" if window is None else f"{window[0]}x{window[1]}"
    print(f"Picmi: {width}x{height} random level, seed {seed}, window {size}", flush=True)
    return PicmiGame(random_level(width, height, seed), xserver.display, tmp_path / name,
                     window=window).start()


def solved_line(out: str) -> str:
    return next((line for line in out.splitlines() if line.startswith("solved; ")), "")


@pytest.mark.parametrize(("width", "height", "seed", "window"), BOARDS,
                         ids=[f"{w}x{h}" for w, h, _, _ in BOARDS])
def test_play_solves_the_board_to_picmis_own_verdict(
        xserver: Xvfb, tmp_path: Path, private_config: Path, width: int, height: int, seed: int,
        window: tuple[int, int] | None) -> None:
    game = start(xserver, tmp_path, width, height, seed, window)
    try:
        t = time.perf_counter()
        done = play_cli(xserver.display)
        took = time.perf_counter() - t
        print(done.stdout, done.stderr, f"({took:.1f} s)", sep="\n")
        assert done.returncode == 0, done.stderr + done.stdout
        assert "learned the game's rules" in done.stdout
        assert solved_line(done.stdout).startswith(
            "solved; the game answered "), done.stdout
        assert game.wait_solved(timeout=2.0), "Picmi has not recorded the board as solved"
        assert game.solved_dialog() is not None
    finally:
        game.close()
    kept = list((private_config / "autoplayer" / "profiles").glob("*.json"))
    assert len(kept) == 1, kept


def test_a_second_board_is_played_by_the_rules_learned_on_the_first(
        xserver: Xvfb, tmp_path: Path, private_config: Path) -> None:
    first = start(xserver, tmp_path, 8, 6, 505, None, name="first")
    try:
        done = play_cli(xserver.display)
        print(done.stdout, done.stderr, sep="\n")
        assert done.returncode == 0, done.stderr + done.stdout
        assert "learned the game's rules" in done.stdout
        assert first.wait_solved(timeout=2.0)
    finally:
        first.close()
    profile = next((private_config / "autoplayer" / "profiles").glob("*.json"))
    learned = json.loads(profile.read_text())
    assert learned["done"] == "marks", learned  # Picmi wanted crosses before it said solved
    second = start(xserver, tmp_path, 12, 9, 506, None, name="second")
    try:
        t = time.perf_counter()
        done = play_cli(xserver.display, "--json")
        took = time.perf_counter() - t
        print(done.stdout, done.stderr, f"({took:.1f} s)", sep="\n")
        assert done.returncode == 0, done.stderr + done.stdout
        report = json.loads(done.stdout)
        assert report["learn_presses"] == 0
        assert report["learned"].startswith(f"rules from {profile}"), report["learned"]
        assert report["solved"] is True and report["answer"]["cover"], report["answer"]
        assert second.wait_solved(timeout=2.0), "Picmi has not recorded the board as solved"
    finally:
        second.close()
