"""Clue segmentation on looks of the bundled page that it used to get wrong (issue 23).

Each picture is a headless Chromium shot of `autoplayer serve` (cropped to the game),
with its puzzle beside it as .non; each used to be refused, and is read exactly now:

- digits as tall as a cell or taller (`digits` 0.93 to 1.09): a 1's stem crossed its row's
  strip whole, so the strip's own paper was taken for ink there and the 1 cut in two
  (`clue_ground.paper_across`); and the gaps between numbers were taken for the gaps
  inside them, a row read as one number ("2 5 1 2 3 1" as 251231; `spacing`);
- a lower cluster of centre-to-centre steps wider than a digit's advance, "1 1" read as 11;
- "10 1" in a black sans whose 1 sits at the right of its advance: the space between the
  numbers is as narrow as the gap inside "10", read as 101 (`numbers.split_numbers`);
- 1s stacked in three rows, their stems one unbroken line: no paper within half a cell
  across, so the stem was taken for the paper and the 1 lost (`clue_ground.paper_across`);
- digits taller than the rows: each row's strip cut their tops and feet off and took the
  next rows' in (`clues._tall_row`, `strips._own_digits`);
- a menu and a toolbar of ruled boxes just above a 5x5 board's column clues, nearer than a
  blank that ends the band: read as numbers ("261 4 3 1"; `stacking`);
- a pixel font's drop shadow, in a tone of its own between the paper and the digits,
  taken for ink: digits merged with their shadows (`strips.shadow_tone`).
Each of these is cropped from a random look of /work/exp/new (issue 23's tuning set).
"""

from __future__ import annotations

import numpy as np
import pytest
from shot_fixtures import read_exactly

from autoplayer.vision.strips import BAND_END_GAP, band_end_gap

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
    # skin=bars theme=dark size=26x21 cell=22 columns=bottom lato bold digits=1.06, dotted
    "bars-dark-tall-stacked-ones-bottom-26x21-seed650994",
    # skin=mono theme=light size=23x5 cell=30 dejavu-sans bold digits=1.06, heading, dotted
    "mono-light-tall-23x5-seed799903",
    # skin=bars theme=light size=5x5 cell=28 rows=right, boxed clues, heading, menu panel
    "bars-light-toolbar-above-right-5x5-seed481593",
    # skin=pixel theme=light size=8x7 cell=39, menu panel, gradient, grey ink
    "pixel-light-shadow-panel-8x7-seed626941",
]


@pytest.mark.parametrize("name", LOOKS)
def test_look_reads_exactly(name: str) -> None:
    read_exactly(name)


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
