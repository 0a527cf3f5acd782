"""Board layouts from the bundled game's generator, rendered by headless Chromium.

The layout options (`autoplayer.webgame.nonogram.LAYOUT_CHOICES`) move the
clues to any side, drop the board's frame or its thick 5-lines, box the clues
exactly like grid cells, and put a heading and a status line next to the board.
Fixed cases each reproduce a failure seen on a third-party game and must read
exactly; the property test draws random combinations (skins, themes, sizes
5x5-30x30, cells 12-40 px) and requires every clue read exactly or a refusal
(exit 2 material), never a wrong reading that validates, and most draws read
exactly (a reader refusing everything fails). Its seed is printed with every
draw and failure; AUTOPLAYER_SEED=N (or LAYOUT_SEED=N) replays a run.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from desktop import needs_chromium
from draws import Draws, run_seed
from pages import shoot_board

from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.vision.templates import every_template_set

pytestmark = [pytest.mark.e2e, needs_chromium]

SKINS = ("pixel", "sans", "serif", "mono")


@pytest.fixture(scope="module")
def server():
    from autoplayer.webgame.browser import close_shared_browser, headless_screenshot
    from autoplayer.webgame.server import GameServer

    with GameServer() as s:
        for skin in SKINS:  # fonts load on first use
            headless_screenshot(s.url(size=(5, 5), skin=skin), 600, 400)
        yield s
    close_shared_browser()


def _shoot(server, session: str, size: tuple[int, int], cell: int, **params) -> np.ndarray:
    return shoot_board(server, session, size, cell, room=300, **params)


FIXED = {
    # Clues right of and below a board drawn with inner lines only.
    "right-bottom-frameless": dict(skin="sans", rows="right", columns="bottom", frame="0",
                                   clue_cells="free", size=(10, 10), cell=24, seed=3),
    "right-bottom-frameless-no-fives": dict(skin="mono", rows="right", columns="bottom",
                                            frame="0", fives="0", size=(10, 10), cell=28,
                                            seed=12),
    "left-top-frameless": dict(skin="mono", frame="0", size=(10, 10), cell=24, seed=8),
    "right-boxed": dict(skin="sans", rows="right", size=(10, 10), cell=24, seed=4),
    "bottom-boxed": dict(skin="sans", columns="bottom", size=(10, 10), cell=24, seed=5),
    "pixel-bands-right-bottom": dict(skin="pixel", rows="right", columns="bottom",
                                     size=(10, 10), cell=22, seed=6),
    # Every clue in a box drawn exactly like a grid cell; a 5x5 board whose row clues
    # are one box wide (the box column must not be taken for a board column).
    "grid-boxes-5x5": dict(skin="sans", clue_cells="grid", size=(5, 5), cell=24, seed=9),
    "grid-boxes-5x5-right": dict(skin="sans", clue_cells="grid", rows="right", size=(5, 5),
                                 cell=24, seed=9),
    "grid-boxes-frameless-right-bottom": dict(skin="sans", clue_cells="grid", rows="right",
                                              columns="bottom", frame="0", size=(10, 10),
                                              cell=24, seed=10),
    # A page heading right above the column clues, its "g" hanging down between them.
    "heading-dark-sans": dict(skin="sans", theme="dark", heading="Puzzle gallery",
                              status="Good luck", size=(10, 10), cell=24, seed=11),
    "heading-dark-pixel": dict(skin="pixel", theme="dark", heading="Puzzle gallery",
                               status="Good luck", size=(10, 10), cell=22, seed=11),
    "heading-mono": dict(skin="mono", heading="Puzzle_gallery", status="Good luck",
                         size=(10, 10), cell=22, seed=12),
    "heading-above-board-clues-below": dict(skin="sans", theme="dark", heading="Ranking gallery",
                                            columns="bottom", size=(10, 10), cell=24, seed=14),
}


@pytest.mark.parametrize("case", list(FIXED))
def test_reads_layout_exactly(server, case):
    params = dict(FIXED[case])
    size, cell = params.pop("size"), params.pop("cell")
    image = _shoot(server, f"layout-{case}", size, cell, **params)
    puzzle = server.puzzle(f"layout-{case}")
    reading = read_nonogram(image, fallbacks=every_template_set())
    assert (reading.grid.width, reading.grid.height) == (puzzle.width, puzzle.height)
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


def test_heading_is_shown_as_ignored(server):
    """The heading's ink is left out, and the layout says where (for the overlay)."""
    params = dict(FIXED["heading-dark-sans"])
    size, cell = params.pop("size"), params.pop("cell")
    image = _shoot(server, "layout-ignored", size, cell, **params)
    reading = read_nonogram(image, verify=False)
    assert reading.layout is not None and reading.layout.ignored
    top = reading.layout.ignored[0]
    numbers_above = [n.box for n in (m for line in reading.column_numbers for m in line)]
    assert all(box.y >= top.bottom for box in numbers_above)


SEED = int(os.environ.get("LAYOUT_SEED") or run_seed())
DRAWS = 14
EXACT_FLOOR = 9
"""Of the DRAWS, the least that must read exactly. Measured on 200 draws (20 seeds): 185
exact, 15 refused, none wrong, never fewer than 8 of 10 exact; at that 7.5 % refusal rate
a run falls below 9 of 14 once in 3,000 (once in 260 at 12 %), while a reader refusing
half the draws fails four runs in five."""


def _draw(rng: random.Random) -> tuple[dict, tuple[int, int], int]:
    size = (rng.randint(5, 30), rng.randint(5, 30))
    cell = rng.randint(12, 40)
    while max(size) * cell > 900:  # keeps the page inside one screenshot
        cell -= 2
    cell = max(12, cell)
    params = dict(
        skin=rng.choice(SKINS), theme=rng.choice(("light", "dark")),
        rows=rng.choice(("left", "right")), columns=rng.choice(("top", "bottom")),
        frame=rng.choice(("1", "0")), fives=rng.choice(("1", "0")),
        clue_cells=rng.choice(("skin", "skin", "grid", "free")),
        seed=rng.randrange(10_000),
    )
    if rng.random() < 0.4:
        params["heading"] = rng.choice(("Puzzle gallery", "Daily nonogram", "Logic pictures"))
    if rng.random() < 0.4:
        params["status"] = rng.choice(("Good luck!", "Time 03:12", "Moves: 0"))
    return params, size, cell


def test_random_layouts_read_exactly_or_refuse(server):
    tally = Draws(SEED, EXACT_FLOOR)
    for draw in range(DRAWS):
        params, size, cell = _draw(random.Random(SEED * 1000 + draw))
        with tally.draw(f"draw {draw}: {params} size={size} cell={cell}") as judge:
            session = f"random-layout-{draw}"
            image = _shoot(server, session, size, cell, **params)
            puzzle = server.puzzle(session)
            reading = read_nonogram(image, fallbacks=every_template_set())
            judge((reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows,
                                                                    puzzle.columns))
    tally.check()


def test_one_box_wide_row_clues_boxed_like_grid_cells(server):
    """Every row's clue is one number, in one box drawn like a grid cell: the box column
    beside the 5x5 board is not a sixth board column."""
    from autoplayer.games.nonogram.model import puzzle_from_grid
    from autoplayer.webgame.browser import headless_screenshot

    grid = np.array([[0, 1, 1, 1, 0], [1, 1, 1, 1, 1], [0, 0, 1, 1, 0], [1, 1, 1, 1, 0],
                     [0, 0, 0, 1, 0]], np.int8)
    puzzle = puzzle_from_grid(grid)
    assert all(len(clue) == 1 for clue in puzzle.rows)
    for rows in ("left", "right"):
        session = f"one-box-{rows}"
        image = headless_screenshot(server.url(puzzle=puzzle, cell=28, session=session,
                                               skin="sans", clue_cells="grid", rows=rows),
                                    800, 600)
        reading = read_nonogram(image)
        assert (reading.grid.width, reading.grid.height) == (5, 5), rows
        assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)
