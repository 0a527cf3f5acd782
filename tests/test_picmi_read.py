"""`autoplayer read` on live screenshots of KDE's Picmi under Xvfb: every clue exactly.

Picmi draws each line's clue in one textured bar (bars alternate light and
dark, with darker edges), a row's numbers separated by a single space in a
DejaVu-like sans, a column's stacked; its font and tiles scale with the window.
Each case loads a level Picmi ships (clues known from its level data, see
tests/picmi.py) in a window of its own size, screenshots it and runs the
command as a user would, untrained (no calibrated templates), with the puzzle
check on: the clues read must be the level's, exactly.

Runtime: about 2 s a board (Picmi starts in about 1 s).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from desktop import needs_xdotool, needs_xvfb
from picmi import PicmiDied, PicmiGame, bundled_level, bundled_levels, needs_picmi, read_xpm

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

pytestmark = [pytest.mark.e2e, needs_picmi, needs_xvfb, needs_xdotool]


def read_cli(image: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autoplayer", "read", str(image),
                           "--templates", "none", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("name", "window"), BOARDS, ids=[n for n, _ in BOARDS])
def test_read_gives_the_levels_clues(xserver: Xvfb, tmp_path: Path, name: str,
                                     window: tuple[int, int]) -> None:
    level = bundled_level(name)
    with PicmiGame(level, xserver.display, tmp_path / "picmi", window=window) as game:
        shot = game.screenshot(tmp_path / "board.png")
    done = read_cli(shot, tmp_path / "read.non")
    assert done.returncode == 0, done.stderr + done.stdout
    read = load_puzzle(tmp_path / "read.non")
    truth = level.puzzle
    assert (read.width, read.height) == level.size
    wrong = [(f"row {i + 1}", a, b) for i, (a, b) in enumerate(zip(read.rows, truth.rows,
                                                                    strict=True)) if a != b]
    wrong += [(f"column {i + 1}", a, b) for i, (a, b) in
              enumerate(zip(read.columns, truth.columns, strict=True)) if a != b]
    assert not wrong, f"(line, read, truth): {wrong}"


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
