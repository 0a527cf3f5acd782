"""The input driver against a real GTK program: Simon Tatham's Pattern under Xvfb.

Pattern acts on the last motion event of a drag and GTK drops a motion that
follows another within about 30 ms, so this proves the pacing of the driver
and the planner's strokes on a game nobody here wrote. The puzzle comes from
a game ID (clues known), so no screen reading is involved: cells are checked
by their colours, which Pattern fixes (unknown 128, full 0, empty 255).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import numpy as np
import pytest

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.planner import TATHAM_PATTERN, gestures, plan
from autoplayer.geometry import Rect, to_screen
from autoplayer.screen.xvfb import Xvfb, virtual_display

PATTERN = "/usr/games/sgt-pattern"
TILE = 24

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(PATTERN), reason="sgt-puzzles is not installed"),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]


@pytest.fixture(scope="module")
def xserver() -> Iterator[Xvfb]:
    with virtual_display(900, 800) as x:
        yield x


def generate(size: int, seed: int) -> str:
    out = subprocess.run([PATTERN, "--generate", "1", f"{size}x{size}#{seed}"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def cells_shown(pixels: np.ndarray, origin: tuple[int, int], n: int) -> np.ndarray:
    colour = {0: FILLED, 255: EMPTY, 128: UNKNOWN}
    x0, y0 = origin
    out = np.empty((n, n), dtype=np.int8)
    for r in range(n):
        for c in range(n):
            v = int(pixels[y0 + r * TILE + TILE // 2, x0 + c * TILE + TILE // 2, 0])
            out[r, c] = colour.get(v, 99)
    return out


@pytest.mark.parametrize("size,seed", [(10, 3), (15, 11)])
def test_paced_drags_fill_and_mark_a_real_pattern_game(xserver: Xvfb, size: int,
                                                       seed: int) -> None:
    from autoplayer.games.nonogram.game import PROFILES
    from autoplayer.games.nonogram.solver import solve
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.input import InputDriver
    from autoplayer.screen.window import find_window, open_display

    game_id = generate(size, seed)
    solution = solve(load_puzzle(game_id)).solutions[0]
    env = {**xserver.env(), "PATTERN_TILESIZE": str(TILE)}
    proc = subprocess.Popen([PATTERN, game_id], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    disp = open_display(xserver.display)
    try:
        for _ in range(100):
            try:
                window = find_window(disp, "Pattern", exact=True)
                break
            except Exception:
                time.sleep(0.05)
        time.sleep(0.3)
        with Screen(xserver.display) as screen:
            frame = screen.grab_window(window)
            # The grid is where the unknown grey is: its cells sit 2 px inside the outline.
            grey = (frame.pixels == 128).all(axis=2)
            xs = np.nonzero(grey.sum(axis=0) > grey.sum(axis=0).max() / 2)[0]
            ys = np.nonzero(grey.sum(axis=1) > grey.sum(axis=1).max() / 2)[0]
            grid = (int(xs.min()) - 2, int(ys.min()) - 2)
            assert (int(xs.max()) + 2 - grid[0]) == size * TILE
            shown = cells_shown(frame.pixels, grid, size)
            assert (shown == UNKNOWN).all()

            strokes = plan(shown, solution, TATHAM_PATTERN)
            centres_x = [grid[0] + c * TILE + TILE / 2 for c in range(size)]
            centres_y = [grid[1] + r * TILE + TILE / 2 for r in range(size)]
            moves = [to_screen(g, frame.origin) for g in
                     gestures(strokes, centres_x, centres_y, TATHAM_PATTERN)]
            board = frame.rect_to_screen(Rect(grid[0], grid[1], size * TILE, size * TILE))
            _, pace = PROFILES["pattern"]
            with InputDriver(board, pace) as driver:
                driver.perform(moves)
            time.sleep(0.3)
            after = cells_shown(screen.grab_window(window).pixels, grid, size)
    finally:
        proc.terminate()
        proc.wait(5)
        disp.close()
    # Every cell decided exactly as solved: Pattern counts the puzzle complete.
    assert (after == solution).all(), np.argwhere(after != solution)[:5].tolist()
    assert len(moves) < size * size / 2
