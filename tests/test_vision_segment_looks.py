"""Clue segmentation on looks of the bundled page that it used to get wrong (issue 23).

Each picture is a headless Chromium shot of `autoplayer serve` (cropped to the game),
with its puzzle beside it as .non; each used to be refused, and is read exactly now:

- digits as tall as a cell or taller (`digits` 0.93 to 1.09): a 1's stem crossed its row's
  strip whole, so the strip's own paper was taken for ink there and the 1 cut in two
  (`clue_ground.paper_across`); and the gaps between numbers were taken for the gaps
  inside them, a row read as one number ("2 5 1 2 3 1" as 251231; `spacing`);
- a lower cluster of centre-to-centre steps wider than a digit's advance, "1 1" read as 11;
- "10 1" in a black sans whose 1 sits at the right of its advance: the space between the
  numbers is as narrow as the gap inside "10", read as 101 (`numbers.split_numbers`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.vision.strips import BAND_END_GAP, band_end_gap
from autoplayer.vision.templates import every_template_set

DATA = Path(__file__).resolve().parent / "data"

LOOKS = [
    # skin=mono theme=dark size=11x18 cell=22 dejavu-serif bold digits=0.93, gradient
    "mono-dark-tall-11x18-seed310849",
    # skin=sans theme=light size=13x6 cell=25 rows=right roboto-slab digits=1.09, grey ink
    "sans-light-tall-right-13x6-seed827635",
    # skin=serif theme=light size=21x9 cell=37 rows=right columns=bottom liberation-sans
    # bold digits=1.0 in clue cells, dotted
    "serif-light-tall-right-bottom-21x9-seed495482",
    # skin=mono theme=light size=11x8 cell=28 roboto-slab in clue cells, gradient, grey ink
    "mono-light-skin-11x8-seed1011620",
    # skin=sans theme=light size=12x26 cell=31 columns=bottom open-sans black digits=0.79
    # in grid boxes, dotted
    "sans-light-gridboxes-bottom-12x26-seed1001114",
]


@pytest.mark.parametrize("name", LOOKS)
def test_look_reads_exactly(name: str) -> None:
    image = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    truth = load_puzzle(DATA / f"{name}.non")
    reading = read_nonogram(image, fallbacks=every_template_set())
    assert (reading.grid.width, reading.grid.height) == (truth.width, truth.height)
    assert reading.puzzle.rows == truth.rows
    assert reading.puzzle.columns == truth.columns


def _profile(runs: list[tuple[int, int]], size: int = 200) -> np.ndarray:
    out = np.zeros(size, bool)
    for a, b in runs:
        out[a:b] = True
    return out


def test_a_band_of_numbers_spaced_wider_than_a_cell_ends_after_its_own_gaps() -> None:
    # Clue cells 19 px wide beside 14 px cells: 14 px blank between single digits.
    pitch = 14.0
    spaced = [_profile([(3 + 19 * i, 8 + 19 * i) for i in range(6)]) for _ in range(10)]
    gap = band_end_gap(spaced, pitch)
    assert gap > 14
    assert gap < 2 * pitch


def test_a_label_beyond_the_numbers_does_not_widen_the_band() -> None:
    # Numbers 4 px apart, then a label 20 px beyond the last: only the last gap is wide.
    pitch = 14.0
    labelled = [_profile([(2, 7), (11, 16), (20, 25), (45, 80)]) for _ in range(10)]
    assert band_end_gap(labelled, pitch) == pytest.approx(BAND_END_GAP * pitch)
