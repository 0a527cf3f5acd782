"""The input driver against a real GTK program: Simon Tatham's Pattern under Xvfb.

Pattern acts on the last motion event of a drag and GTK drops a motion that
follows another within about 30 ms, so this proves the pacing of the driver
and the planner's strokes on a game nobody here wrote. The puzzle comes from
a game ID (clues known), so no screen reading is involved: cells are checked
by their colours, which Pattern fixes (unknown 128, full 0, empty 255).
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from desktop import locate_window, needs_pattern, needs_xvfb

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.pattern.session import PatternProcess, generate
from autoplayer.games.nonogram.planner import Profile, gestures, plan
from autoplayer.geometry import Button, Rect, to_screen
from autoplayer.screen.input import Pace
from autoplayer.screen.xvfb import Xvfb

SCREEN = (900, 800)
TILE = 24

pytestmark = [pytest.mark.e2e, needs_pattern, needs_xvfb]


def cells_shown(pixels: np.ndarray, origin: tuple[int, int], n: int) -> np.ndarray:
    colour = {0: FILLED, 255: EMPTY, 128: UNKNOWN}
    x0, y0 = origin
    out = np.empty((n, n), dtype=np.int8)
    for r in range(n):
        for c in range(n):
            v = int(pixels[y0 + r * TILE + TILE // 2, x0 + c * TILE + TILE // 2, 0])
            out[r, c] = colour.get(v, 99)
    return out


# Pattern's own rules (pattern.c): left sets filled and right sets empty from any state;
# finished means every cell decided. The bot learns these; this test drives them directly.
TATHAM_PATTERN = Profile(
    name="pattern",
    press={(state, button): result for state in (UNKNOWN, EMPTY, FILLED)
           for button, result in ((Button.LEFT, FILLED), (Button.RIGHT, EMPTY))},
    mark_empty=True,
)


@pytest.mark.parametrize("size,seed", [(10, 3), (15, 11)])
def test_paced_drags_fill_and_mark_a_real_pattern_game(xserver: Xvfb, size: int,
                                                       seed: int) -> None:
    from autoplayer.games.nonogram.rules import DEFAULT_MOTION
    from autoplayer.games.nonogram.solver import solve
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.input import InputDriver

    game_id = generate(f"{size}x{size}#{seed}")
    solution = solve(load_puzzle(game_id)).solutions[0]
    with PatternProcess(game_id, xserver.display, TILE) as game, \
            Screen(xserver.display) as screen:
        window = locate_window(xserver.display, game.window_id)
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
        # The pace every learned game gets: drags' motions 20 ms apart (GTK drops closer ones).
        with InputDriver(board, Pace(motion=DEFAULT_MOTION)) as driver:
            driver.perform(moves)
        time.sleep(0.3)
        after = cells_shown(screen.grab_window(window).pixels, grid, size)
    # Every cell decided exactly as solved: Pattern counts the puzzle complete.
    assert (after == solution).all(), np.argwhere(after != solution)[:5].tolist()
    assert len(moves) < size * size / 2
