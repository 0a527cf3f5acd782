"""The 15-puzzle reader on the bundled page's random looks (bordered tiles, numerals on a
flat panel, four fonts, gap-last or gap-first), rendered headless: exact or refused.

Each run draws its looks from a fresh seed (printed; AUTOPLAYER_SEED=N replays it).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from desktop import needs_chromium
from draws import Draws, run_seed

from autoplayer.games.fifteen.goals import Goal, infer_goal
from autoplayer.games.fifteen.reader import read_fifteen
from autoplayer.webgame.fifteen import random_look

DRAWS = 6
FLOOR = 5
"""Exact readings a run needs of its draws. Offline, 260 random shots of the page (3x3 to
6x6, every look, three seeds) read 260 exact (italic boards are sheared upright first, and
clashing tiles settled by how well each glyph fits each missing value); one refusal in six
is allowed for the rare glyph still read too unsurely."""


@needs_chromium
def test_random_looks_read_exactly_or_are_refused(game_server: Any) -> None:
    from autoplayer.webgame.browser import headless_screenshot
    from autoplayer.webgame.server import new_session_id

    seed = run_seed()
    rng = random.Random(seed)
    draws = Draws(seed, FLOOR)
    for i in range(DRAWS):
        look, size, puzzle = rng.randrange(1 << 20), rng.choice((3, 4)), rng.randrange(1000)
        session = new_session_id()
        # Numerals only (picture tiles are test_fifteen_picture_board's and the pictures e2e's).
        tiles = {"tiles": "flat"} if random_look(look)["tiles"] == "picture" else {}
        url = game_server.url(game="fifteen", size=(size, size), seed=puzzle, look=look,
                              session=session, **tiles)
        image = headless_screenshot(url, 760, 700)
        state = game_server.state(session)
        with draws.draw(f"draw {i}: {size}x{size} #{puzzle} look {look} {tiles} "
                        f"{random_look(look)}") as judge:
            reading = read_fifteen(image)
            goal = infer_goal(reading.board)
            judge(list(reading.board.cells) == state["cells"] and isinstance(goal, Goal)
                  and list(goal.cells) == state["goal"])
    draws.check()


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", [
    # A serif italic 1 that the machines read as 2, beside the board's real 2: the two
    # tiles are settled by how well each glyph fits each digit.
    "fifteen-3x3-serif-italic-flat-one-reads-two",
    # The leading 1s and 2s are named by counting; a serif 3 passes the shape test against
    # the 2s but is more like the other 3s, so 13 stays 13 (it was read as 12, and the
    # clash "settled" by swapping 12 and 13: a wrong board).
    "fifteen-5x5-serif-three-like-two",
    # Italic 1s read as 2 everywhere: in the lead (named by counting), alone and as units.
    "fifteen-5x5-serif-italic-ones",
])
def test_shot_reads_exactly(name: str) -> None:
    import numpy as np
    from PIL import Image

    image = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    size, cells = (DATA / f"{name}.txt").read_text().strip().split(":")
    reading = read_fifteen(image)
    assert f"{reading.board.width}x{reading.board.height}" == size
    assert list(reading.board.cells) == [int(c) for c in cells.split(",")]
