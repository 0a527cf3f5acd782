"""The Ripple reader on screenshots kept in tests/data (no browser): boards the e2e runs
misread, each beside its puzzle (`NAME.txt`, in the layout `autoplayer ripple` reads).

Both are fresh boards in a serif font whose bold 1s and 4s have thicker strokes than its
bold 2s, 5s and 7s: the reader took the thinner digits for entered values (a lighter
weight), dropped them from the givens and found several solutions.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from shot_fixtures import DATA

from autoplayer.games.ripple.cli import load_puzzle
from autoplayer.games.ripple.reader import read_ripple, unique_solution
from autoplayer.vision.templates import every_template_set


@pytest.mark.parametrize("name", [
    # e2e RIPPLE_E2E_SEED=639967019 (test_plays_to_the_pages_own_solved_report[type]).
    "ripple-light-serif-colour-borders-9x9-seed127-look202",
    # e2e RIPPLE_E2E_SEED=262842666 (test_cli_plays_from_the_window_title).
    "ripple-dark-serif-colour-borders-dotted-6x6-seed391-look559",
])
def test_a_fresh_serif_board_reads_every_given(name: str) -> None:
    pixels = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    truth = load_puzzle(DATA / f"{name}.txt")
    reading = read_ripple(pixels, fallbacks=every_template_set(), accept=unique_solution)
    assert reading.puzzle.rooms == truth.rooms
    assert reading.puzzle.givens == truth.givens
    assert not any(reading.entered)
