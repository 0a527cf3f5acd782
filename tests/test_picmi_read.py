"""`autoplayer read` on live screenshots of KDE's Picmi under Xvfb: every clue exactly.

Picmi draws each line's clue in one textured bar (bars alternate light and
dark, with darker edges), a row's numbers separated by a single space in a
DejaVu-like sans, a column's stacked; its font and tiles scale with the window.
Each case loads a level Picmi ships (clues known from its level data, see
tests/picmi.py) in a window of its own size, screenshots it and runs the
command as a user would, untrained (no calibrated templates), with the puzzle
check on: the clues read must be the level's, exactly, and on the first reading (no
digit corrected by the puzzle check). Every bundled level over 25 columns, and random
30x20 levels, are read in an 1100x800 window too (digits 9-14 px tall).

Runtime: about 2 s a board (Picmi starts in about 1 s).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from desktop import needs_xdotool, needs_xvfb
from picmi import (
    Level,
    PicmiDied,
    PicmiGame,
    bundled_level,
    bundled_levels,
    needs_picmi,
    random_level,
    read_xpm,
)

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.screen.xvfb import Xvfb

SCREEN = (1600, 1200)
BOARDS = [
    ("Mobile Phone", (700, 560)),   # 7x11
    ("Camera", (560, 450)),         # 10x8, the smallest font here
    ("Letter A", (900, 700)),       # 10x10, a "10"
    ("Marker", (800, 700)),         # 15x15
    ("Skull", (1000, 900)),         # 19x19, a "12" over a column
    ("Pirate Ship", (1200, 1000)),  # 25x20, up to ten numbers a row
    ("Calculator", (1100, 1000)),   # 30x27, "30"
    ("Basketball", (1200, 1100)),   # 30x30
    ("Elephant", (1500, 1000)),     # 40x22
]
"""(bundled level, window size): board sizes 7x11 to 40x22, digits of several sizes."""
WIDE_WINDOW = (1100, 800)
WIDE = ["Basketball", "Pirate Dog", "Panda", "Elephant", "Bird", "Zebra", "Halloween",
        "Escalator", "Helicopter", "Calculator"]
"""Every bundled level over 25 columns (27x30 to 40x22), each in an 1100x800 window: digits
9-14 px tall, two-digit numbers wider than their column, the bars' shaded edges between
the columns (taken for a line of page text, which dropped the whole column band), 1s
whose one-pixel stem falls between two pixel columns, 3s and 5s whose middle bar stops
short of the width."""
RANDOM_WIDE = [(30, 20, 0)]
"""(width, height, seed) of random levels read in the WIDE_WINDOW (3s were read as 7, 1s
as 5; tests/test_picmi_play.py plays another)."""

pytestmark = [pytest.mark.e2e, needs_picmi, needs_xvfb, needs_xdotool]


def read_cli(image: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autoplayer", "read", str(image),
                           "--templates", "none", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, check=False)


def read_level(xserver: Xvfb, tmp_path: Path, level: Level, window: tuple[int, int]) -> None:
    """Screenshot the level in the window, read it untrained, compare every clue."""
    with PicmiGame(level, xserver.display, tmp_path / "picmi", window=window) as game:
        shot = game.screenshot(tmp_path / "board.png")
    done = read_cli(shot, tmp_path / "read.non")
    assert done.returncode == 0, done.stderr + done.stdout
    # Read right the first time: no digit left for the puzzle check to settle.
    assert "corrected" not in done.stderr, done.stderr  # notes go to stderr
    read = load_puzzle(tmp_path / "read.non")
    truth = level.puzzle
    assert (read.width, read.height) == level.size
    wrong = [(f"row {i + 1}", a, b) for i, (a, b) in enumerate(zip(read.rows, truth.rows,
                                                                    strict=True)) if a != b]
    wrong += [(f"column {i + 1}", a, b) for i, (a, b) in
              enumerate(zip(read.columns, truth.columns, strict=True)) if a != b]
    assert not wrong, f"(line, read, truth): {wrong}"


@pytest.mark.parametrize(("name", "window"), BOARDS, ids=[n for n, _ in BOARDS])
def test_read_gives_the_levels_clues(xserver: Xvfb, tmp_path: Path, name: str,
                                     window: tuple[int, int]) -> None:
    read_level(xserver, tmp_path, bundled_level(name), window)


@pytest.mark.parametrize("name", WIDE)
def test_wide_levels_read_in_a_small_window(xserver: Xvfb, tmp_path: Path, name: str) -> None:
    read_level(xserver, tmp_path, bundled_level(name), WIDE_WINDOW)


@pytest.mark.parametrize(("width", "height", "seed"), RANDOM_WIDE,
                         ids=[f"{w}x{h}-seed{s}" for w, h, s in RANDOM_WIDE])
def test_random_wide_levels_read_in_a_small_window(xserver: Xvfb, tmp_path: Path, width: int,
                                                   height: int, seed: int) -> None:
    print(f"Picmi: {width}x{height} random level, seed {seed}, window {WIDE_WINDOW}")
    read_level(xserver, tmp_path, random_level(width, height, seed), WIDE_WINDOW)


def test_the_harness_fails_with_the_programs_stderr_when_it_dies(xserver: Xvfb,
                                                                  tmp_path: Path) -> None:
    stand_in = tmp_path / "dies"
    stand_in.write_text("#!/bin/sh\necho 'cannot open the level set' >&2\nexit 3\n")
    stand_in.chmod(0o755)
    game = PicmiGame(bundled_level("Camera"), xserver.display, tmp_path / "picmi",
                     binary=str(stand_in), timeout=10)
    with pytest.raises(PicmiDied, match=r"(?s)status 3.*cannot open the level set"):
        game.start()
    assert game.proc is None


def test_bundled_levels_are_read_as_picmi_reads_them(tmp_path: Path) -> None:
    """Inline rows and XPM pictures (a transparent pixel is no box); every level is a
    full rectangle with clues that fit."""
    levels = bundled_levels()
    assert len(levels) >= 50
    skull = bundled_level("Skull")
    assert skull.size == (19, 19)
    assert skull.puzzle.rows[0] == (5,) and skull.puzzle.columns[9] == (12, 2)
    assert bundled_level("Elephant").size == (40, 22)
    xpm = tmp_path / "t.xpm"
    xpm.write_text('/* XPM */\nstatic char * t[] = {\n"3 2 2 1",\n" \tc None",\n'
                   '".\tc #000000",\n". .",\n" ..",\n};\n')
    assert read_xpm(xpm).tolist() == [[1, 0, 1], [0, 1, 1]]
    for level in levels:
        assert level.grid.ndim == 2 and level.grid.size
        assert set(np.unique(level.grid)) <= {0, 1}
    assert sorted(WIDE) == sorted(lv.name for lv in levels if lv.size[0] > 25)
